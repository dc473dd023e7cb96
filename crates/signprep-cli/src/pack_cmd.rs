//! `signprep pack MANIFEST [-o FILE] [--v0 | --populate TEMPLATE_KEY]`.

use crate::args::PackArgs;
use crate::check::record::Record;
use crate::check::write::human;
use crate::exit::ExitStatus;
use serde::Serialize;
use signprep_pack::{
    BuildError, Checker, Finding, FindingCode, Manifest, PackCode, RandomIds, Warned,
};
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Exit status: 0 written, 1 error-level findings or a panic (`internal_error`;
/// nothing written), 2 usage or I/O.
///
/// The manifest is checked by the function `signprep check` calls
/// ([`Checker::check_manifest`]): the same findings, located in the manifest,
/// and any error stops the pack.
///
/// It runs on the batch engine as one item ([`crate::batch::guarded`]): a
/// panic while scanning the manifest's PDFs is reported, not an abort.
pub fn run(args: &PackArgs) -> ExitStatus {
    let args = args.clone();
    let what = format!("cannot pack {}", args.manifest.display());
    crate::batch::guarded(&what, move || pack(&args))
}

fn pack(args: &PackArgs) -> ExitStatus {
    let shown = args.manifest.display().to_string();
    signprep_core::batch::test_hook(&shown);
    let bytes = match crate::inputs::read_input(&args.manifest) {
        Ok(b) => b,
        Err(e) => {
            return crate::exit::fail(&format!("cannot read {shown}: {e}"), ExitStatus::Error);
        }
    };
    let (checked, pack) = Checker::new().check_manifest(&bytes, &args.manifest, RandomIds);
    let errors = checked.findings.iter().filter(|f| f.is_error()).count();
    let record = Record::checked(shown.clone(), checked);
    let mut err = io::stderr().lock();
    let _ = human(&mut err, &record);
    drop(err);
    let Some(pack) = pack else {
        return crate::exit::fail(
            &format!(
                "{} in {shown}; nothing written",
                crate::text::plural(errors, "error-level finding")
            ),
            ExitStatus::Failure,
        );
    };
    let written = match &args.populate {
        Some(key) => builder(args, &bytes).and_then(|b| emit(args, b.build_populate(key))),
        None if args.v0 => builder(args, &bytes).and_then(|b| {
            let built = b.build_v0().map(|mut w| {
                w.output.place_uploads(plan_dir(args.output.as_deref()));
                w
            });
            emit(args, built)
        }),
        None => emit(
            args,
            Ok(Warned {
                output: pack,
                warnings: Vec::new(),
            }),
        ),
    };
    match written {
        Ok(()) => ExitStatus::Success,
        Err(Failure::Findings(n)) => crate::exit::fail(
            &format!(
                "{} in the {} output of {shown}; nothing written",
                crate::text::plural(n, "error-level finding"),
                if args.v0 { "--v0" } else { "--populate" }
            ),
            ExitStatus::Failure,
        ),
        Err(Failure::Io(e)) => crate::exit::fail(&e, ExitStatus::Error),
    }
}

/// The folder a plan is written into (`-o FILE`), or `None` for standard
/// output: where its `upload` paths are written from
/// ([`signprep_pack::upload_path`]).
pub(crate) fn plan_dir(output: Option<&Path>) -> Option<&Path> {
    output
        .filter(|p| *p != Path::new("-"))
        .map(|p| p.parent().unwrap_or(Path::new("")))
}

enum Failure {
    /// Error-level findings (how many).
    Findings(usize),
    Io(String),
}

/// The builder of the v0 or populate output (the manifest parsed, as checked).
fn builder(args: &PackArgs, bytes: &[u8]) -> Result<signprep_pack::PackBuilder, Failure> {
    let shown = args.manifest.display().to_string();
    let manifest =
        Manifest::from_bytes(bytes, &args.manifest).map_err(|e| Failure::Io(e.to_string()))?;
    let base = args.manifest.parent().unwrap_or(Path::new(""));
    Ok(manifest.builder(base, &shown))
}

fn emit<T: Serialize>(
    args: &PackArgs,
    built: Result<Warned<T>, BuildError>,
) -> Result<(), Failure> {
    let Warned { output, warnings } = match built {
        Ok(w) => w,
        Err(e) => {
            let n = e.findings.iter().filter(|f| f.is_error()).count();
            crate::findings::eprint(&only_output(e.findings));
            return Err(Failure::Findings(n));
        }
    };
    crate::findings::eprint(&only_output(warnings));
    let write = |w: &mut dyn Write| -> io::Result<()> {
        if args.compact {
            serde_json::to_writer(&mut *w, &output)?;
        } else {
            serde_json::to_writer_pretty(&mut *w, &output)?;
        }
        w.write_all(b"\n")
    };
    let result = match &args.output {
        Some(path) if path != Path::new("-") => crate::atomic::write_with(path, write)
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        _ => {
            let mut out = BufWriter::new(io::stdout().lock());
            write(&mut out)
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write to standard output: {e}"))
        }
    };
    result.map_err(Failure::Io)
}

/// The findings of a v0 or populate build that the check of the manifest
/// (already reported) does not make: what the output leaves out (a PDF
/// without tags is left out of `--v0`), and errors.
fn only_output(findings: Vec<Finding>) -> Vec<Finding> {
    const OUTPUT: &[PackCode] = &[
        PackCode::V0NeedsPdf,
        PackCode::DocumentWithoutTags,
        PackCode::SettingDropped,
        PackCode::PopulateSignerIgnored,
        PackCode::PopulateIgnored,
    ];
    findings
        .into_iter()
        .filter(|f| f.is_error() || matches!(f.code, FindingCode::Pack(c) if OUTPUT.contains(&c)))
        .collect()
}
