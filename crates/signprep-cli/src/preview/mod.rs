//! `signprep preview`: one PNG per page with the tags and form fields drawn.
//!
//! ```text
//! mod.rs      the command: the style, then by input kind ─┬─ pdf.rs      FILE.pdf
//!                                                         ├─ migrate.rs  FILE.pdf --dialect (from pdf.rs)
//!                                                         ├─ pack.rs     --pack BODY, --manifest
//!                                                         └─ plan.rs     --pack PLAN (a request plan)
//! request.rs  what pack.rs and plan.rs share: findings printed first, signer
//!             labels, NN-NAME stems, the verdict when nothing was drawn
//! paint.rs    the Painter: the batch engine (--jobs threads, Ctrl-C) loading
//!             a document as one item and drawing each page as one, written
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
use signprep_pack::{InputKind, detect};

/// Runs on the batch engine as one item ([`crate::batch::guarded`], as
/// `pack` does): a panic while reading or drawing the file (a bug) is one
/// `error:` line and exit status 1, not an abort.
pub fn run(args: &PreviewArgs) -> ExitStatus {
    let shown = match (&args.pack, &args.manifest, &args.file) {
        (Some(p), _, _) | (None, Some(p), _) | (None, None, Some(p)) => p.display().to_string(),
        (None, None, None) => "-".into(),
    };
    let args = args.clone();
    crate::batch::guarded(&format!("cannot preview {shown}"), move || preview(&args))
}

fn preview(args: &PreviewArgs) -> ExitStatus {
    let style = match load::style(
        &args.signer,
        &args.type_map,
        !args.no_labels,
        !args.no_legend,
    ) {
        Ok(s) => s,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    let request = match (&args.pack, &args.manifest, &args.file) {
        (Some(p), _, _) => Some((
            pack::Source::Pack(p),
            p,
            "--pack",
            "a pack body or a request plan (JSON)",
        )),
        (None, Some(m), _) => Some((
            pack::Source::Manifest(m),
            m,
            "--manifest",
            "a manifest (pack.toml)",
        )),
        (None, None, Some(_)) => None,
        (None, None, None) => {
            return crate::exit::fail(
                "preview needs a PDF, --pack or --manifest",
                ExitStatus::Error,
            );
        }
    };
    if let Some((source, path, flag, takes)) = request {
        if path.is_dir() {
            return crate::exit::fail(
                &format!(
                    "{} is a folder: {flag} takes one file, {takes}",
                    path.display()
                ),
                ExitStatus::Error,
            );
        }
        return request_preview(args, source, &style);
    }
    let Some(file) = args.file.as_deref() else {
        return crate::exit::fail(
            "preview needs a PDF, --pack or --manifest",
            ExitStatus::Error,
        );
    };
    if file.is_dir() {
        return crate::exit::fail(&pdf::folder_given(file), ExitStatus::Error);
    }
    pdf::run(args, file, &style)
}

/// `--pack` or `--manifest`: a request plan given to `--pack` (what
/// `pack --v0`, `pack --populate` and `migrate` write) goes to [`plan`],
/// a pack body or a manifest to [`pack`].
fn request_preview(
    args: &PreviewArgs,
    source: pack::Source<'_>,
    style: &signprep_render::Style,
) -> ExitStatus {
    let shown = source.path().display().to_string();
    signprep_core::batch::test_hook(&shown);
    if let pack::Source::Pack(path) = source {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                return crate::exit::fail(&format!("cannot read {shown}: {e}"), ExitStatus::Error);
            }
        };
        if matches!(detect(&bytes, path), Some(InputKind::Requests)) {
            return plan::run(args, path, &bytes, style);
        }
    }
    pack::run(args, source, style)
}
