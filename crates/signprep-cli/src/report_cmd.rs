//! `signprep report`: one self-contained HTML file for a batch.
//!
//! Files are scanned and drawn in parallel on the batch engine
//! ([`crate::batch::Stream`], as `scan`'s and `check`'s are); each file's
//! section is written to a scratch file in input order as soon as it is done
//! (a window of [`WINDOW`] files: memory holds their images, not the
//! batch's), then the report is
//! assembled — head and files table, then the sections — into a temporary
//! file beside the output and renamed over it.
//!
//! At scale (hundreds of files): a progress bar on a terminal (`scan`'s,
//! [`crate::batch::Progress`]); paths shown below the inputs' common folder
//! ([`Names`]); pages with tags or fields drawn at `--dpi`, pages with
//! findings of their own and a file's first page as thumbnails a quarter of
//! the size, other pages not at all, so the file stays small.
//!
//! Ctrl-C (or SIGTERM) stops the run between two files, as in `scan`: no
//! report rather than half of one, the scratch file removed, exit status 130.

use crate::args::ReportArgs;
use crate::batch::{Command, Ended, Progress, Runner, Summary, Tally};
use crate::batch::{Input, Source};
use crate::exit::ExitStatus;
use crate::preview::load::{LoadError, Loaded, load_with, style};
use crate::report_html::{Detail, PageImage, Row, head, section, tail};
use base64::Engine as _;
use rayon::prelude::*;
use signprep_core::{Code, Diagnostic, FileErrorCode, LoadOptions, Scanner, Severity};
use signprep_render::{Overlay, Style, render_page, render_page_with_overlay};
use std::collections::BTreeSet;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal as _, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// Most files in flight or drawn and waiting for an older one to be written.
const WINDOW: usize = 16;

/// A page without a tag or field is drawn at 1/THUMB of the size.
const THUMB: u32 = 4;

/// One file done: its table row, its section's HTML, and whether it could be read.
struct Done {
    row: Row,
    html: String,
    io_error: bool,
    /// Why the file could not be read or scanned.
    message: String,
}

impl Done {
    /// What the file adds to the run's [`Summary`]: unreadable, not scanned
    /// (its row's status is the code), or its findings.
    fn tally(&self) -> Tally {
        let mut t = Tally::new(self.row.path.clone());
        if self.io_error {
            return t.unreadable(self.message.clone());
        }
        if self.row.status != "ok" {
            return t.failed(self.row.status.clone());
        }
        t.finding(Severity::Error, self.row.errors);
        t.finding(Severity::Warning, self.row.warnings);
        t.finding(Severity::Info, self.row.infos);
        t.pages = self.row.pages;
        t
    }
}

pub fn run(args: &ReportArgs) -> ExitStatus {
    let style = match style(&args.signer, &args.type_map, true, true) {
        Ok(s) => s,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    let mut options = LoadOptions::default();
    if let Some(t) = args.timeout_per_file {
        options.time_budget = (!t.is_zero()).then_some(t);
    }
    // The watchdog stands behind the time budget, as in `scan`: a file stuck
    // in code that never checks it is given up on, and the report goes on.
    let runner = match Runner::new(args.jobs, &options) {
        Ok(r) => r.window(WINDOW),
        Err(status) => return status,
    };
    let scanner = Scanner::new().dpi(args.dpi);
    let inputs = Source::files_of(&args.paths, args.kinds.extensions());
    if inputs.is_empty() && !args.allow_empty {
        let shown: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return crate::exit::fail(
            &format!(
                "nothing to report: no PDF in {}; pass --allow-empty if that is fine",
                shown.join(", ")
            ),
            ExitStatus::Error,
        );
    }
    let names = Arc::new(Names::new(&inputs));
    let progress = Progress::new(
        io::stderr().is_terminal() && !args.quiet && inputs.len() > 1,
        Some(inputs.len()),
        false,
    );
    let scratch = tmp_beside(&args.output, "sections");
    let mut summary = Summary::new(Command::Report {
        output: args.output.clone(),
    });
    // The scratch file is ours: a failure names the report the user asked for.
    let cannot_write = |e: io::Error| {
        let _ = std::fs::remove_file(&scratch);
        crate::exit::fail(
            &crate::atomic::cannot_write(&args.output, &e),
            ExitStatus::Error,
        )
    };
    let mut sections = match File::create(&scratch) {
        Ok(f) => BufWriter::new(f),
        Err(e) => return cannot_write(e),
    };
    let mut rows = Vec::with_capacity(inputs.len());
    let max_pages = args.max_pages;
    let worker_names = Arc::clone(&names);
    let templates = crate::templates::Templates::new(&args.convert);
    if crate::templates::Templates::expected(&args.paths, &args.kinds.types)
        && let Err(e) = templates.require()
    {
        return crate::exit::fail(&e, ExitStatus::Error);
    }
    let how = How {
        scanner,
        options,
        style,
        templates,
        max_pages,
    };
    let work = move |(id, input): &(usize, Input), _: usize| {
        let name = worker_names.name(input.path());
        one(*id, input, name, &how)
    };
    // Largest files first (output order is kept).
    let weight = |(_, input): &(usize, Input)| input.size();
    let ended = runner.output(args.output.display().to_string()).run(
        inputs.into_iter().enumerate(),
        weight,
        work,
        progress,
        |(id, input), result, progress| {
            let d = result.unwrap_or_else(|e| {
                let path = input.path().display().to_string();
                failed_record(*id, names.name(input.path()), path, &e)
            });
            sections.write_all(d.html.as_bytes())?;
            summary.file(&d.tally());
            progress.file(d.row.pages, d.row.errors + d.row.warnings + d.row.infos);
            rows.push(d.row);
            Ok(())
        },
    );
    match ended {
        Ok(Ended::Completed) => {
            if let Err(e) = sections.flush() {
                return cannot_write(e);
            }
        }
        // Ctrl-C: no report rather than half of one, and no scratch file left.
        Ok(Ended::Interrupted) => {
            let _ = std::fs::remove_file(&scratch);
            summary.interrupted = true;
            return summary.finish();
        }
        Err(status) => {
            let _ = std::fs::remove_file(&scratch);
            return status;
        }
    }
    let written = assemble(&args.output, &rows, &scratch, args.dpi, names.shown_root());
    let _ = std::fs::remove_file(&scratch);
    if let Err(e) = written {
        return crate::exit::fail(
            &crate::atomic::cannot_write(&args.output, &e),
            ExitStatus::Error,
        );
    }
    println!("{}", args.output.display());
    summary.finish()
}

/// Writes head, table, sections and tail to a temporary file, then renames it.
fn assemble(
    output: &Path,
    rows: &[Row],
    scratch: &Path,
    dpi: f64,
    root: Option<String>,
) -> io::Result<()> {
    crate::atomic::write_with(output, |out| {
        out.write_all(head(rows, dpi, root.as_deref()).as_bytes())?;
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

/// Where the inputs are: the deepest folder holding them all, so that the
/// report shows `pdfjs/issue18911.pdf` rather than the same long absolute
/// prefix on every line (the paths as given stay in the messages on stderr).
#[derive(Debug)]
struct Names {
    /// The common folder as the user gave it (relative when every input was).
    root: Option<PathBuf>,
}

impl Names {
    fn new(inputs: &[Input]) -> Names {
        let mut root: Option<PathBuf> = None;
        for input in inputs {
            let p = input.path();
            if p.as_os_str() == "-" {
                continue;
            }
            let parent: PathBuf = p
                .parent()
                .map(|d| d.components().filter(|c| *c != Component::CurDir).collect())
                .unwrap_or_default();
            root = Some(match root {
                None => parent,
                Some(r) => r
                    .components()
                    .zip(parent.components())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a)
                    .collect(),
            });
        }
        Names { root }
    }

    /// `path` below the common folder, without `./` (as given when it is not
    /// below it: `-`).
    fn name(&self, path: &Path) -> String {
        let clean: PathBuf = path
            .components()
            .filter(|c| *c != Component::CurDir)
            .collect();
        let below = match &self.root {
            Some(root) => clean.strip_prefix(root).ok(),
            None => Some(clean.as_path()),
        };
        below
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| path.display().to_string(), |p| p.display().to_string())
    }

    /// The common folder, for the page's header (none when it is the current one).
    fn shown_root(&self) -> Option<String> {
        self.root
            .as_ref()
            .filter(|r| !r.as_os_str().is_empty())
            .map(|r| r.display().to_string())
    }
}

/// How every file of a report is scanned and drawn.
struct How {
    scanner: Scanner,
    options: LoadOptions,
    style: Style,
    templates: crate::templates::Templates,
    max_pages: usize,
}

/// Scans and draws one file.
fn one(id: usize, input: &Input, name: String, how: &How) -> Done {
    let (scanner, options, style, max_pages) =
        (&how.scanner, &how.options, &how.style, how.max_pages);
    let (path, loaded) = match input {
        Input::File(p) if let Some(format) = signprep_template::Format::from_path(p) => (
            p.as_path(),
            crate::preview::load::load_template(p, format, &how.templates, scanner, options),
        ),
        Input::File(_) | Input::Stdin => (input.path(), load_with(input.path(), scanner, options)),
        Input::Missing(p, e) => (
            p.as_path(),
            Err(LoadError::Io(format!(
                "cannot read {}: {}",
                p.display(),
                signprep_core::io_reason(e)
            ))),
        ),
    };
    let path_s = path.display().to_string();
    signprep_core::batch::test_hook(&path_s);
    let loaded = match loaded {
        Ok(l) => l,
        Err(e) => {
            let (code, message, io_error) = match e {
                LoadError::Io(m) => (FileErrorCode::IoError.as_str(), m, true),
                LoadError::Pdf { code, message } => (code.as_str(), message, false),
                LoadError::Render(m) => (Code::PageNotDrawn.as_str(), m, false),
            };
            return failed(id, path_s, name, code.into(), message, io_error);
        }
    };
    scanned(id, path_s, name, &loaded, style, max_pages)
}

/// The section of a file the engine reported as failed (a panic).
fn failed_record(id: usize, name: String, path: String, e: &signprep_core::Error) -> Done {
    let message = format!("{path}: {}", e.message());
    failed(id, path, name, e.code().to_string(), message, false)
}

/// The section of a file that could not be read or scanned.
fn failed(
    id: usize,
    path_s: String,
    name: String,
    code: String,
    message: String,
    io_error: bool,
) -> Done {
    let row = Row {
        id,
        search: format!("{} {code}", name.to_lowercase()),
        path: path_s,
        name,
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
        io_error,
        message,
    }
}

fn scanned(
    id: usize,
    path: String,
    name: String,
    loaded: &Loaded,
    style: &Style,
    max_pages: usize,
) -> Done {
    let overlays: Vec<Overlay> = (0..loaded.scan.pages.len())
        .filter_map(|p| Overlay::for_page(&loaded.scan, p, style))
        .collect();
    // Full size where there are tags or fields to look at; a thumbnail for a
    // page with findings of its own (a scanned page), and for the first page
    // when nothing else is drawn; other pages not at all. A file the
    // renderer cannot read has no page drawn.
    let considered = loaded.scan.pages.len().min(max_pages);
    let mut pages: Vec<(usize, bool)> = (0..considered)
        .filter_map(|p| {
            let o = overlays.iter().find(|o| o.page == p)?;
            if !o.boxes.is_empty() {
                Some((p, false))
            } else {
                (!o.page_findings.is_empty()).then_some((p, true))
            }
        })
        .collect();
    if pages.is_empty() && considered > 0 {
        pages.push((0, true));
    }
    if loaded.pdf.is_err() {
        pages.clear();
    }
    let engine = base64::engine::general_purpose::STANDARD;
    let images: Vec<(usize, PageImage)> = pages
        .par_iter()
        .map(|&(p, thumb)| {
            let img = match draw(loaded, p, style, thumb) {
                Ok(bytes) => match png_size(&bytes) {
                    Some((width, height)) => PageImage::Png {
                        base64: engine.encode(&bytes),
                        width,
                        height,
                        thumb,
                    },
                    None => PageImage::Failed("the PNG has no size".into()),
                },
                Err(e) => PageImage::Failed(e),
            };
            (p, img)
        })
        .collect();
    // A page that cannot be drawn is a finding on the scanned file: one for
    // the file when the renderer cannot read it, else one per page.
    let mut undrawn = Vec::new();
    if let Err(e) = &loaded.pdf {
        undrawn.push(Diagnostic::new(
            Code::PageNotDrawn,
            format!("no page can be drawn: {e}; the tags and fields listed are the scan's"),
        ));
    }
    for (p, img) in &images {
        if let PageImage::Failed(e) = img {
            undrawn.push(Diagnostic::new(Code::PageNotDrawn, e.clone()).page(*p));
        }
    }
    let with_undrawn;
    let scan = if undrawn.is_empty() {
        &loaded.scan
    } else {
        let mut s = loaded.scan.clone();
        s.diagnostics.extend(undrawn);
        with_undrawn = s;
        &with_undrawn
    };
    let count = |s: Severity| scan.diagnostics.iter().filter(|d| d.severity == s).count();
    let codes: BTreeSet<String> = scan
        .diagnostics
        .iter()
        .map(|d| d.code.as_str().to_string())
        .collect();
    let mut search = name.to_lowercase();
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
        name,
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
            considered,
        },
    );
    Done {
        row,
        html,
        io_error: false,
        message: String::new(),
    }
}

/// One page as PNG: with its boxes and legend, or (`thumb`, a page with no
/// tag or field) alone at 1/[`THUMB`] of the size.
fn draw(loaded: &Loaded, page: usize, style: &Style, thumb: bool) -> Result<Vec<u8>, String> {
    let (doc, scan) = (&loaded.doc, &loaded.scan);
    let pdf = loaded.pdf.as_ref().map_err(|e| e.to_string())?;
    let img = if thumb {
        let full = render_page(doc, pdf, page, scan).map_err(|e| e.to_string())?;
        let (w, h) = (full.width(), full.height());
        full.thumbnail(w.div_ceil(THUMB), h.div_ceil(THUMB))
    } else {
        render_page_with_overlay(doc, pdf, page, scan, style).map_err(|e| e.to_string())?
    };
    img.to_png().map_err(|e| e.to_string())
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
