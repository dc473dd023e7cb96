//! `signprep preview FILE.pdf`: each page with its tags and form fields
//! drawn (with `--dialect`, the fields a migration would place: see
//! [`super::migrate`]).

use super::load;
use super::paint::{Out, Painter, Sheet, Unloaded};
use crate::args::PreviewArgs;
use crate::exit::ExitStatus;
use signprep_core::{Code, Scanner};
use signprep_render::Style;
use std::path::Path;

/// Why a folder is no input for `preview`, in the words the batch commands use
/// for a folder without PDFs.
pub fn folder_given(dir: &Path) -> String {
    let shown = dir.display();
    match crate::batch::Source::files_of(&[dir.to_path_buf()], Vec::new()).len() {
        0 => format!("nothing to preview: no PDF in {shown}"),
        n => format!(
            "{shown} is a folder of {}: preview draws one PDF (name it), \
             `signprep report {shown}` draws them all",
            crate::text::plural(n, "PDF")
        ),
    }
}

/// Draws the chosen pages of `file` on `painter`; returns the exit status.
pub fn run(args: &PreviewArgs, painter: &Painter, file: &Path, style: &Style) -> ExitStatus {
    let anchors = match args.anchors.load(false) {
        Ok(a) => a,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    let mut scanner = Scanner::new().dpi(args.dpi).dialects(args.dialect);
    if let Some(a) = &anchors {
        scanner = scanner.anchors(a.anchors.clone());
    }
    let stem = file
        .file_stem()
        .filter(|_| file.as_os_str() != "-")
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "stdin".into());
    let label = file.display().to_string();
    // Loaded, and with --dialect migrated, as one step on the workers.
    let (path, sheet_stem, style) = (file.to_path_buf(), stem.clone(), style.clone());
    let templates = crate::templates::Templates::new(&args.convert);
    let format = signprep_template::Format::from_path(file);
    if format.is_some()
        && let Err(e) = templates.require()
    {
        return crate::exit::fail(&e, ExitStatus::Error);
    }
    let sheet = match painter.step(&label, move || {
        let loaded = match format {
            Some(f) => load::load_template(
                &path,
                f,
                &templates,
                &scanner,
                &signprep_core::LoadOptions::default(),
            )?,
            None => load::load(&path, &scanner)?,
        };
        Ok(if scanner.reads_vendor_tags() {
            super::migrate::sheet(loaded, anchors, style, &sheet_stem)
        } else {
            Sheet::new(loaded, style)
        })
    }) {
        Ok(s) => s,
        Err(Unloaded::Failed(status, message)) => return crate::exit::fail(&message, status),
        Err(Unloaded::Stopped(status)) => return status,
    };
    let loaded = sheet.loaded();
    let count = loaded.doc.page_count();
    if count == 0 {
        // Nothing would be drawn, and an empty input never passes.
        return crate::exit::fail(
            &format!(
                "{}: the document has no page: nothing to draw [{}]",
                file.display(),
                Code::DocumentNoPages
            ),
            ExitStatus::Failure,
        );
    }
    let pages = match load::chosen_pages(&args.pages, count) {
        Ok(p) => p,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    if let Err(e) = std::fs::create_dir_all(&args.out_dir) {
        return crate::exit::fail(
            &crate::atomic::cannot_create(&args.out_dir, &e),
            ExitStatus::Error,
        );
    }
    let mut verdict = crate::batch::Summary::default();
    let errors = loaded
        .scan
        .diagnostics
        .iter()
        .filter(|d| d.severity == signprep_core::Severity::Error)
        .count();
    if errors > 0 {
        verdict.add(
            ExitStatus::Failure,
            format!(
                "{} in {} (drawn in red; `signprep scan` lists them)",
                crate::text::plural(errors, "error-level finding"),
                file.display()
            ),
        );
    }
    let out = Out {
        dir: &args.out_dir,
        stem: &stem,
        json: args.overlay_json,
    };
    if let Err(status) = painter.write_pages(sheet, pages, &out, &label, &mut verdict) {
        return status;
    }
    verdict.finish()
}
