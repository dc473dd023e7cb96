//! `signprep preview`: one PNG per page with the tags and form fields drawn.
//!
//! ```text
//! mod.rs      the command: the style, then by input kind ─┬─ pdf.rs      FILE.pdf
//!                                                         ├─ migrate.rs  FILE.pdf --dialect (from pdf.rs)
//!                                                         ├─ pack.rs     --pack BODY, --manifest
//!                                                         └─ plan.rs     --pack PLAN (a request plan)
//! request.rs  what pack.rs and plan.rs share: findings printed first, signer
//!             labels, NN-NAME stems, drawing each document (Drawing), the
//!             verdict when nothing was drawn
//! paint.rs    the Painter: the command's one batch Runner (--jobs threads,
//!             watchdog, Ctrl-C) running each step (a request read, a
//!             document loaded) as one input and each page as one, written
//!             in page order as PNG and overlay JSON
//! load.rs     below them all: reading and scanning a PDF once, --pages
//! ```
//!
//! Imports only go down that list: `request.rs`, `paint.rs` and `load.rs`
//! import none of the files above them.

pub mod load;
mod migrate;
mod pack;
pub mod paint;
mod pdf;
mod plan;
mod request;

use crate::args::PreviewArgs;
use crate::exit::ExitStatus;
use load::LoadError;
use paint::{Painter, Unloaded};
use signprep_pack::{InputKind, detect};
use std::path::Path;

/// What is previewed, its arguments checked.
enum Input<'a> {
    /// `--pack` or `--manifest`.
    Request(pack::Source),
    /// A PDF (`-`: standard input).
    Pdf(&'a Path),
}

/// Every step runs on the one batch [`Runner`](crate::batch::Runner) of the
/// command ([`paint::Painter`]): a panic while reading or drawing the file
/// (a bug) is one `error:` line and exit status 1, not an abort; Ctrl-C
/// exits 130 with the files written so far.
pub fn run(args: &PreviewArgs) -> ExitStatus {
    let style = match load::style(
        &args.signer,
        &args.type_map,
        !args.no_labels,
        !args.no_legend,
    ) {
        Ok(s) => s,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    let input = match input(args) {
        Ok(i) => i,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    let painter = match Painter::new(args.jobs) {
        Ok(p) => p,
        Err(status) => return status,
    };
    match input {
        Input::Request(source) => request_preview(args, &painter, source, &style),
        Input::Pdf(file) => pdf::run(args, &painter, file, &style),
    }
}

/// The input the arguments name, or why there is none to preview (exit 2).
fn input(args: &PreviewArgs) -> Result<Input<'_>, String> {
    let request = match (&args.pack, &args.manifest, &args.file) {
        (Some(p), _, _) => Some((
            pack::Source::Pack(p.clone()),
            p,
            "--pack",
            "a pack body or a request plan (JSON)",
        )),
        (None, Some(m), _) => Some((
            pack::Source::Manifest(m.clone()),
            m,
            "--manifest",
            "a manifest (pack.toml)",
        )),
        (None, None, Some(_)) => None,
        (None, None, None) => return Err("preview needs a PDF, --pack or --manifest".into()),
    };
    if let Some((source, path, flag, takes)) = request {
        if path.is_dir() {
            return Err(format!(
                "{} is a folder: {flag} takes one file, {takes}",
                path.display()
            ));
        }
        return Ok(Input::Request(source));
    }
    let Some(file) = args.file.as_deref() else {
        return Err("preview needs a PDF, --pack or --manifest".into());
    };
    if file.is_dir() {
        return Err(pdf::folder_given(file));
    }
    Ok(Input::Pdf(file))
}

/// A request read: a plan, or a pack body or manifest.
enum Read {
    Plan(plan::Plan),
    Pack(Box<pack::Request>),
}

/// `--pack` or `--manifest`, read and checked as the runner's first step: a
/// request plan given to `--pack` (what `pack --v0`, `pack --populate` and
/// `migrate` write) goes to [`plan`], a pack body or a manifest to [`pack`].
fn request_preview(
    args: &PreviewArgs,
    painter: &Painter,
    source: pack::Source,
    style: &signprep_render::Style,
) -> ExitStatus {
    let shown = source.path().display().to_string();
    let label = shown.clone();
    let read = painter.read_request(&shown, move || {
        signprep_core::batch::test_hook(&label);
        if let pack::Source::Pack(path) = &source {
            let bytes = std::fs::read(path).map_err(|e| {
                LoadError::Io(format!(
                    "cannot read {label}: {}",
                    signprep_core::io_reason(&e)
                ))
            })?;
            if matches!(detect(&bytes, path), Some(InputKind::Requests)) {
                return plan::read(path, &bytes)
                    .map(Read::Plan)
                    .map_err(LoadError::Io);
            }
        }
        pack::read(&source)
            .map(|r| Read::Pack(Box::new(r)))
            .map_err(LoadError::Io)
    });
    match read {
        Ok(Read::Plan(plan)) => plan::run(args, painter, plan, style),
        Ok(Read::Pack(request)) => pack::run(args, painter, *request, style),
        Err(Unloaded::Failed(status, message)) => crate::exit::fail(&message, status),
        Err(Unloaded::Stopped(status)) => status,
    }
}
