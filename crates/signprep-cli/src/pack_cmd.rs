//! `signprep pack MANIFEST [-o FILE] [--v0 | --populate TEMPLATE_KEY]`.

use clap::Args;
use serde::Serialize;
use signprep_pack::{BuildError, Finding, Manifest, Warned};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct PackArgs {
    /// The manifest: TOML, or JSON (`.json`, or text starting with `{`).
    pub manifest: PathBuf,
    /// Output file [default: standard output]. Written atomically; nothing is
    /// written when there is an error-level finding.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the v0 tag-extraction requests (one `POST /v0/documents` per PDF with
    /// tags) instead of the v1 pack body.
    #[arg(long, conflicts_with = "populate")]
    pub v0: bool,
    /// Write the populate-syntax request that copies this template instead.
    #[arg(long, value_name = "TEMPLATE_KEY")]
    pub populate: Option<String>,
    /// Write compact JSON (one line) instead of indented JSON.
    #[arg(long)]
    pub compact: bool,
}

/// Exit status: 0 written, 1 error-level findings (nothing written), 2 usage or I/O.
pub fn run(args: &PackArgs) -> u8 {
    let manifest = match Manifest::load(&args.manifest) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("signprep pack: {e}");
            return 2;
        }
    };
    let base = args.manifest.parent().unwrap_or(Path::new(""));
    let builder = manifest.builder(base, &args.manifest.display().to_string());
    let written = match &args.populate {
        Some(key) => emit(args, builder.build_populate(key)),
        None if args.v0 => emit(args, builder.build_v0()),
        None => emit(args, builder.build()),
    };
    match written {
        Ok(()) => 0,
        Err(Failure::Findings) => 1,
        Err(Failure::Io(e)) => {
            eprintln!("signprep pack: {e}");
            2
        }
    }
}

enum Failure {
    Findings,
    Io(io::Error),
}

fn emit<T: Serialize>(
    args: &PackArgs,
    built: Result<Warned<T>, BuildError>,
) -> Result<(), Failure> {
    let Warned { output, warnings } = match built {
        Ok(w) => w,
        Err(e) => {
            report(&e.findings);
            let n = e.findings.iter().filter(|f| f.is_error()).count();
            eprintln!("signprep pack: {n} error(s); nothing written");
            return Err(Failure::Findings);
        }
    };
    report(&warnings);
    let write = |w: &mut dyn Write| -> io::Result<()> {
        if args.compact {
            serde_json::to_writer(&mut *w, &output)?;
        } else {
            serde_json::to_writer_pretty(&mut *w, &output)?;
        }
        w.write_all(b"\n")
    };
    let result = match &args.output {
        Some(path) if path != Path::new("-") => write_atomic(path, write),
        _ => {
            let mut out = BufWriter::new(io::stdout().lock());
            write(&mut out).and_then(|()| out.flush())
        }
    };
    result.map_err(Failure::Io)
}

/// Writes through a temporary file in the target's folder, renamed over the
/// target once complete: readers never see a partial file, and a failure
/// leaves the target as it was.
fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".signprep-pack-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    let mut w = BufWriter::new(tmp);
    write(&mut w)?;
    let tmp = w.into_inner().map_err(|e| e.into_error())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)
        .map_err(|e| io::Error::new(e.error.kind(), format!("{}: {}", path.display(), e.error)))?;
    Ok(())
}

/// Findings on stderr, compiler style.
pub(crate) fn report(findings: &[Finding]) {
    let stderr = io::stderr();
    let mut err = stderr.lock();
    for f in findings {
        let _ = writeln!(err, "{}[{}]: {}", f.severity, f.code, f.message);
        let mut place = Vec::new();
        if let Some(p) = &f.pointer {
            place.push(p.clone());
        }
        if let Some(file) = &f.file {
            place.push(format!("in {file}"));
        }
        if let Some(page) = f.page {
            place.push(format!("page {}", page + 1));
        }
        if let Some(t) = &f.tag {
            place.push(format!("tag {t}"));
        }
        if let Some(x) = &f.field {
            place.push(format!("field {x}"));
        }
        if !place.is_empty() {
            let _ = writeln!(err, "  --> {}", place.join(", "));
        }
        if let Some(h) = &f.hint {
            let _ = writeln!(err, "  = hint: {h}");
        }
    }
}
