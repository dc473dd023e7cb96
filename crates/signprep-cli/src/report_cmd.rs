//! `signprep report`: one self-contained HTML file for a batch.
//!
//! Files are scanned and drawn in parallel on the batch engine
//! ([`crate::batch::Stream`], as `scan`'s and `check`'s are); each file's
//! section is written to a scratch file in input order as soon as it is done
//! (a window of [`WINDOW`] files: memory holds their images, not the
//! batch's), then the report is
//! assembled — head and files table, then the sections — into a temporary
//! file beside the output and renamed over it.

use crate::args::ReportArgs;
use crate::batch::{Outcome, Stream};
use crate::inputs::{Input, expand};
use crate::preview_cmd::{LoadError, Loaded, load_with, render_pngs, style};
use crate::report_html::{Detail, PageImage, Row, head, section, tail};
use base64::Engine as _;
use signprep_core::batch::{abandoned_record, not_started_record, panicked_record, watchdog_for};
use signprep_core::{LoadOptions, Overlay, Scanner, Severity, Style};
use std::collections::BTreeSet;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Most files in flight or drawn and waiting for an older one to be written.
const WINDOW: usize = 16;

/// One file done: its table row, its section's HTML, and whether it counts as a failure.
struct Done {
    row: Row,
    html: String,
    failure: bool,
    io_error: bool,
    /// Why the file could not be read or scanned.
    message: String,
}

pub fn run(args: &ReportArgs) -> u8 {
    let style = match style(&args.signer, &args.type_map, true, true) {
        Ok(s) => s,
        Err(e) => return crate::fail(&e, 2),
    };
    let mut options = LoadOptions::default();
    if let Some(t) = args.timeout_per_file {
        options.time_budget = (!t.is_zero()).then_some(t);
    }
    let budget = options.time_budget;
    // The watchdog stands behind the time budget, as in `scan`: a file stuck
    // in code that never checks it is given up on, and the report goes on.
    let stream = match Stream::new(args.jobs.unwrap_or(0)) {
        Ok(s) => s.window(WINDOW).watchdog(watchdog_for(&options)),
        Err(e) => return crate::fail(&format!("cannot start worker threads: {e}"), 2),
    };
    let scanner = Scanner::new().dpi(args.dpi);
    let inputs = expand(&args.paths);
    if inputs.is_empty() && !args.allow_empty {
        let shown: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return crate::fail(
            &format!(
                "nothing to report: no PDF in {}; pass --allow-empty if that is fine",
                shown.join(", ")
            ),
            2,
        );
    }
    let scratch = tmp_beside(&args.output, "sections");
    let mut verdict = Verdict::default();
    let result = (|| -> io::Result<Vec<Row>> {
        let mut sections = BufWriter::new(File::create(&scratch)?);
        let mut rows = Vec::with_capacity(inputs.len());
        let max_pages = args.max_pages;
        let work = move |(id, input): &(usize, Input), _: usize| {
            one(*id, input, &scanner, &options, &style, max_pages)
        };
        // Largest files first (output order is kept).
        let weight = |(_, input): &(usize, Input)| match input {
            Input::File(p) => std::fs::metadata(p).map_or(0, |m| m.len()),
            Input::Missing(..) => 0,
        };
        stream.run(
            inputs.into_iter().enumerate(),
            weight,
            work,
            |(id, input), outcome| {
                let path = input.path().display().to_string();
                let d = match outcome {
                    Outcome::Done(d) => d,
                    Outcome::Panicked(m) => failed_record(*id, panicked_record(path, &m)),
                    Outcome::Abandoned(limit) => {
                        failed_record(*id, abandoned_record(path, limit, budget))
                    }
                    Outcome::NotStarted(n) => failed_record(*id, not_started_record(path, n)),
                };
                sections.write_all(d.html.as_bytes())?;
                verdict.file(&d);
                rows.push(d.row);
                Ok(())
            },
        )?;
        sections.flush()?;
        Ok(rows)
    })();
    let rows = match result {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_file(&scratch);
            return crate::fail(&format!("cannot write {}: {e}", scratch.display()), 2);
        }
    };
    let written = assemble(&args.output, &rows, &scratch, args.dpi);
    let _ = std::fs::remove_file(&scratch);
    if let Err(e) = written {
        return crate::fail(&format!("cannot write {}: {e}", args.output.display()), 2);
    }
    println!("{}", args.output.display());
    verdict.finish(&args.output)
}

/// What the last line on stderr says about a report with failures.
#[derive(Debug, Default)]
struct Verdict {
    /// The first file that could not be read, and why.
    unreadable: Option<String>,
    unreadable_count: usize,
    /// Files that could not be scanned, and files with error-level findings.
    not_scanned: usize,
    with_errors: usize,
    errors: usize,
    /// The first file not scanned, and with error-level findings (with the
    /// code it could not be scanned for): named when it is the only one.
    first_not_scanned: Option<(String, String)>,
    first_with_errors: Option<String>,
}

impl Verdict {
    fn file(&mut self, d: &Done) {
        if d.io_error {
            self.unreadable_count += 1;
            self.unreadable.get_or_insert_with(|| d.message.clone());
        } else if d.row.status != "ok" {
            self.not_scanned += 1;
            self.first_not_scanned
                .get_or_insert_with(|| (d.row.path.clone(), d.row.status.clone()));
        } else if d.failure {
            self.with_errors += 1;
            self.errors += d.row.errors;
            self.first_with_errors
                .get_or_insert_with(|| d.row.path.clone());
        }
    }

    fn finish(self, output: &Path) -> u8 {
        let mut v = crate::Verdict::default();
        if let Some(first) = self.unreadable {
            if self.unreadable_count == 1 {
                v.add(2, first);
            } else {
                v.add(
                    2,
                    format!(
                        "{} files could not be read; the first: {first}",
                        self.unreadable_count
                    ),
                );
            }
        }
        if self.with_errors > 0 {
            v.add(
                1,
                format!(
                    "{} in {}",
                    crate::plural(self.errors, "error-level finding"),
                    match (self.with_errors, &self.first_with_errors) {
                        (1, Some(path)) => path.clone(),
                        (n, _) => crate::plural(n, "file"),
                    }
                ),
            );
        }
        if self.not_scanned > 0 {
            v.add(
                1,
                match (self.not_scanned, &self.first_not_scanned) {
                    (1, Some((path, code))) => format!("{path} could not be scanned ({code})"),
                    (n, _) => format!("{} could not be scanned", crate::plural(n, "file")),
                },
            );
        }
        if v.status != 0 {
            v.add(0, format!("see {}", output.display()));
        }
        v.finish()
    }
}

/// Writes head, table, sections and tail to a temporary file, then renames it.
fn assemble(output: &Path, rows: &[Row], scratch: &Path, dpi: f64) -> io::Result<()> {
    crate::atomic::write_with(output, |out| {
        out.write_all(head(rows, dpi).as_bytes())?;
        io::copy(&mut File::open(scratch)?, out)?;
        out.write_all(tail().as_bytes())
    })
}

/// `.NAME.PID.SUFFIX` beside `path`.
fn tmp_beside(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report.html".into());
    path.with_file_name(format!(".{name}.{}.{suffix}", std::process::id()))
}

/// Scans and draws one file.
fn one(
    id: usize,
    input: &Input,
    scanner: &Scanner,
    options: &LoadOptions,
    style: &Style,
    max_pages: usize,
) -> Done {
    let (path, loaded) = match input {
        Input::File(p) => (p, load_with(p, scanner, options)),
        Input::Missing(p, e) => (
            p,
            Err(LoadError::Io(format!("cannot read {}: {e}", p.display()))),
        ),
    };
    let path_s = path.display().to_string();
    signprep_core::batch::test_hook(&path_s);
    let loaded = match loaded {
        Ok(l) => l,
        Err(e) => {
            let (code, message, io_error) = match e {
                LoadError::Io(m) => ("io_error".to_string(), m, true),
                LoadError::Pdf { code, message } => (code, message, false),
            };
            return failed(id, path_s, code, message, io_error);
        }
    };
    scanned(id, path_s, &loaded, style, max_pages)
}

/// The section of a file the engine reported as failed (a panic).
fn failed_record(id: usize, r: signprep_core::Record) -> Done {
    let (code, message) = r.error.map(|e| (e.code, e.message)).unwrap_or_default();
    let message = format!("{}: {message}", r.path);
    failed(id, r.path, code, message, false)
}

/// The section of a file that could not be read or scanned.
fn failed(id: usize, path_s: String, code: String, message: String, io_error: bool) -> Done {
    let row = Row {
        id,
        search: format!("{} {code}", path_s.to_lowercase()),
        path: path_s,
        status: code.clone(),
        pages: 0,
        tags: 0,
        fields: 0,
        errors: 0,
        warnings: 0,
        infos: 0,
        codes: vec![code],
    };
    let html = section(&row, &Detail::Failed { message: &message });
    Done {
        row,
        html,
        failure: true,
        io_error,
        message,
    }
}

fn scanned(id: usize, path: String, loaded: &Loaded, style: &Style, max_pages: usize) -> Done {
    let scan = &loaded.scan;
    let overlays: Vec<Overlay> = (0..scan.pages.len())
        .filter_map(|p| Overlay::for_page(scan, p, style))
        .collect();
    let pages: Vec<usize> = (0..scan.pages.len().min(max_pages)).collect();
    let engine = base64::engine::general_purpose::STANDARD;
    let images: Vec<(usize, PageImage)> = pages
        .iter()
        .zip(render_pngs(loaded, &pages, style))
        .map(|(&p, png)| {
            let img = match png {
                Ok(bytes) => match png_size(&bytes) {
                    Some((width, height)) => PageImage::Png {
                        base64: engine.encode(&bytes),
                        width,
                        height,
                    },
                    None => PageImage::Failed("the PNG has no size".into()),
                },
                Err(e) => PageImage::Failed(e),
            };
            (p, img)
        })
        .collect();
    let count = |s: Severity| scan.diagnostics.iter().filter(|d| d.severity == s).count();
    let codes: BTreeSet<String> = scan
        .diagnostics
        .iter()
        .map(|d| d.code.as_str().to_string())
        .collect();
    let mut search = path.to_lowercase();
    for t in &scan.tags {
        search.push(' ');
        search.push_str(&t.tag_id.to_lowercase());
    }
    for f in &scan.fields {
        search.push(' ');
        search.push_str(&f.name.to_lowercase());
    }
    for c in &codes {
        search.push(' ');
        search.push_str(c);
    }
    let row = Row {
        id,
        path,
        status: "ok".into(),
        pages: scan.pages.len(),
        tags: scan.tags.len(),
        fields: scan.fields.len(),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
        codes: codes.into_iter().collect(),
        search,
    };
    let html = section(
        &row,
        &Detail::Scanned {
            scan,
            overlays: &overlays,
            images: &images,
        },
    );
    Done {
        failure: scan.has_errors(),
        row,
        html,
        io_error: false,
        message: String::new(),
    }
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    let be = |r: std::ops::Range<usize>| {
        png.get(r)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_be_bytes)
    };
    Some((be(16..20)?, be(20..24)?))
}
