//! `signprep preview`: one PNG per page with the tags and form fields drawn
//! (`--pack` and `--manifest`: see `preview_pack`).

use crate::args::PreviewArgs;
use crate::exit::ExitStatus;
use rayon::prelude::*;
use signprep_core::{
    Code, Document, FileErrorCode, LoadOptions, Overlay, PageRenderer, RenderError, Scan, Scanner,
    Style, encode_png, render_page_with_overlay,
};
use std::path::{Path, PathBuf};

/// A document loaded once for scanning and drawing.
pub struct Loaded {
    pub doc: Document,
    /// The page renderer, or why it cannot read a file the scan read
    /// (`page_not_drawn`: `report` shows the scan with that finding).
    pub pdf: Result<PageRenderer, RenderError>,
    pub scan: Scan,
}

/// Why a file could not be previewed.
pub enum LoadError {
    /// The file could not be read (exit 2).
    Io(String),
    /// The file is not a PDF that can be scanned (exit 1, like a scan error
    /// record, with the same code).
    Pdf {
        code: FileErrorCode,
        message: String,
    },
    /// The file scanned but no page of it can be drawn (exit 1, `page_not_drawn`).
    Render(String),
}

impl LoadError {
    pub fn message(&self) -> String {
        match self {
            LoadError::Io(m) => m.clone(),
            LoadError::Pdf { code, message } => format!("{message} [{code}]"),
            LoadError::Render(m) => format!("{m} [{}]", Code::PageNotDrawn),
        }
    }
}

/// Reads a file once; scans it and parses it for drawing from the same
/// bytes. A file the renderer cannot read is an error here: `preview` has
/// nothing to write for it.
pub fn load(path: &Path, scanner: &Scanner) -> Result<Loaded, LoadError> {
    drawable(
        load_with(path, scanner, &LoadOptions::default()),
        &path.display().to_string(),
    )
}

/// `loaded`, or [`LoadError::Render`] when no page of it can be drawn.
fn drawable(loaded: Result<Loaded, LoadError>, label: &str) -> Result<Loaded, LoadError> {
    let loaded = loaded?;
    if let Err(e) = &loaded.pdf {
        return Err(LoadError::Render(format!("{label}: {e}")));
    }
    Ok(loaded)
}

/// [`load`] with these options (`report --timeout-per-file`); a file the
/// renderer cannot read is loaded, with the renderer's error in
/// [`Loaded::pdf`].
pub fn load_with(
    path: &Path,
    scanner: &Scanner,
    options: &LoadOptions,
) -> Result<Loaded, LoadError> {
    signprep_core::batch::test_hook(&path.display().to_string());
    if path.as_os_str() == "-" {
        let bytes = crate::inputs::read_input(path)
            .map_err(|e| LoadError::Io(format!("cannot read standard input: {e}")))?;
        return load_bytes_with(bytes, "-", scanner, options);
    }
    let len = std::fs::metadata(path)
        .map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))?
        .len();
    if len > options.max_file_bytes {
        return Err(LoadError::Pdf {
            code: FileErrorCode::PdfLimitExceeded,
            message: format!(
                "{}: the file is {len} bytes, over the limit",
                path.display()
            ),
        });
    }
    let bytes = std::fs::read(path)
        .map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))?;
    load_bytes_with(bytes, &path.display().to_string(), scanner, options)
}

/// Scans a PDF's bytes and parses them for drawing; errors name `label`
/// (a file the renderer cannot read is one, as in [`load`]).
pub fn load_bytes(bytes: Vec<u8>, label: &str, scanner: &Scanner) -> Result<Loaded, LoadError> {
    drawable(
        load_bytes_with(bytes, label, scanner, &LoadOptions::default()),
        label,
    )
}

/// [`load_bytes`] with these options.
fn load_bytes_with(
    bytes: Vec<u8>,
    label: &str,
    scanner: &Scanner,
    options: &LoadOptions,
) -> Result<Loaded, LoadError> {
    if bytes.len() as u64 > options.max_file_bytes {
        return Err(LoadError::Pdf {
            code: FileErrorCode::PdfLimitExceeded,
            message: format!("{label}: the file is {} bytes, over the limit", bytes.len()),
        });
    }
    let pdf_err = |e: signprep_core::Error| LoadError::Pdf {
        code: e.file_code(),
        message: format!("{label}: {}", e.message()),
    };
    let doc = Document::from_bytes(&bytes, options).map_err(pdf_err)?;
    let scan = scanner.scan(&doc).map_err(pdf_err)?;
    // A renderer that reads other pages than the scan draws none of them: one
    // finding for the file, not one per page.
    let pdf = PageRenderer::new(bytes).and_then(|pdf| {
        let (renderer, document) = (pdf.page_count(), doc.page_count());
        if renderer == document {
            Ok(pdf)
        } else {
            Err(RenderError::PageCountMismatch { renderer, document })
        }
    });
    Ok(Loaded { doc, pdf, scan })
}

/// The style from the command line's `--signer`, `--type-map` and switches.
pub fn style(
    signers: &[String],
    type_map: &[String],
    labels: bool,
    legend: bool,
) -> Result<Style, String> {
    let mut map = signprep_pack::TypeMap::new();
    for rule in type_map {
        map.add(rule).map_err(|e| format!("--type-map: {e}"))?;
    }
    let mut style = Style::new().type_map(map).labels(labels).legend(legend);
    for s in signers {
        let (name, signer) = s
            .rsplit_once('=')
            .ok_or_else(|| format!("--signer: `{s}` is not NAME=SIGNER"))?;
        style = style.signer(name, signer);
    }
    Ok(style)
}

/// Why a folder is no input for `preview`, in the words the batch commands use
/// for a folder without PDFs.
fn folder_given(dir: &Path) -> String {
    let shown = dir.display();
    match crate::inputs::expand(&[dir.to_path_buf()]).len() {
        0 => format!("nothing to preview: no PDF in {shown}"),
        n => format!(
            "{shown} is a folder of {}: preview draws one PDF (name it), \
             `signprep report {shown}` draws them all",
            crate::plural(n, "PDF")
        ),
    }
}

/// Renders and encodes pages in parallel, in page order.
pub fn render_pngs(
    loaded: &Loaded,
    pages: &[usize],
    style: &Style,
) -> Vec<Result<Vec<u8>, String>> {
    pages
        .par_iter()
        .map(|&p| {
            let pdf = loaded.pdf.as_ref().map_err(|e| e.to_string())?;
            render_page_with_overlay(&loaded.doc, pdf, p, &loaded.scan, style)
                .and_then(|img| encode_png(&img))
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// Pages chosen by `--pages` (1-based ranges), 0-based, those past the end left
/// out (a pack's children differ in length).
pub fn pages_within(spec: &[(usize, Option<usize>)], count: usize) -> Vec<usize> {
    let clipped: Vec<(usize, Option<usize>)> = spec
        .iter()
        .filter(|(a, _)| *a <= count)
        .map(|&(a, b)| (a, Some(b.unwrap_or(count).min(count))))
        .collect();
    if !spec.is_empty() && clipped.is_empty() {
        return Vec::new();
    }
    chosen_pages(&clipped, count).unwrap_or_default()
}

/// Renders `pages` and writes `DIR/STEM-pN.png` (and, with `json`, the
/// overlay as `DIR/STEM-pN.json`), printing each path; a page that could not
/// be drawn adds exit status 1 to `verdict`, a file that could not be
/// written 2. `what` names the document in messages.
#[allow(clippy::too_many_arguments)]
pub fn write_pages(
    pool: &rayon::ThreadPool,
    loaded: &Loaded,
    pages: &[usize],
    style: &Style,
    dir: &Path,
    stem: &str,
    json: bool,
    what: &str,
    verdict: &mut crate::Verdict,
) {
    let count = loaded.doc.page_count();
    let pngs = pool.install(|| render_pngs(loaded, pages, style));
    for (&page, png) in pages.iter().zip(pngs) {
        let path: PathBuf = dir.join(png_name(stem, page, count));
        match png {
            Ok(bytes) => match crate::atomic::write(&path, &bytes) {
                Ok(()) => println!("{}", path.display()),
                Err(e) => verdict.add(
                    ExitStatus::Error,
                    format!("cannot write {}: {e}", path.display()),
                ),
            },
            Err(e) => verdict.add(
                ExitStatus::Failure,
                format!("{what}: page {}: {e}", page + 1),
            ),
        }
        if json && let Some(overlay) = Overlay::for_page(&loaded.scan, page, style) {
            let path = path.with_extension("json");
            let written = serde_json::to_vec_pretty(&overlay)
                .map_err(std::io::Error::other)
                .and_then(|mut b| {
                    b.push(b'\n');
                    crate::atomic::write(&path, &b)
                });
            match written {
                Ok(()) => println!("{}", path.display()),
                Err(e) => verdict.add(
                    ExitStatus::Error,
                    format!("cannot write {}: {e}", path.display()),
                ),
            }
        }
    }
}

/// Pages chosen by `--pages` (1-based ranges), 0-based and checked against the count.
fn chosen_pages(spec: &[(usize, Option<usize>)], count: usize) -> Result<Vec<usize>, String> {
    if spec.is_empty() {
        return Ok((0..count).collect());
    }
    let mut out = Vec::new();
    for &(a, b) in spec {
        let b = b.unwrap_or(count);
        if a > count || b > count {
            return Err(format!(
                "--pages: page {} is past the end (the document has {count} page{})",
                a.max(b),
                if count == 1 { "" } else { "s" }
            ));
        }
        out.extend((a..=b).map(|p| p - 1));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// `NAME-pNN.png`, the page number 1-based and padded to the page count's width.
pub fn png_name(stem: &str, page: usize, count: usize) -> String {
    let digits = count.max(1).to_string().len();
    format!("{stem}-p{:0digits$}.png", page + 1)
}

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
    let style = match style(
        &args.signer,
        &args.type_map,
        !args.no_labels,
        !args.no_legend,
    ) {
        Ok(s) => s,
        Err(e) => return crate::fail(&e, ExitStatus::Error),
    };
    let source = match (&args.pack, &args.manifest, &args.file) {
        (Some(p), _, _) => Some(crate::preview_pack::Source::Pack(p)),
        (None, Some(m), _) => Some(crate::preview_pack::Source::Manifest(m)),
        (None, None, Some(_)) => None,
        (None, None, None) => {
            return crate::fail(
                "preview needs a PDF, --pack or --manifest",
                ExitStatus::Error,
            );
        }
    };
    if let Some(source) = source {
        let (path, flag, takes) = match source {
            crate::preview_pack::Source::Pack(p) => {
                (p, "--pack", "a pack body or a request plan (JSON)")
            }
            crate::preview_pack::Source::Manifest(p) => (p, "--manifest", "a manifest (pack.toml)"),
        };
        if path.is_dir() {
            return crate::fail(
                &format!(
                    "{} is a folder: {flag} takes one file, {takes}",
                    path.display()
                ),
                ExitStatus::Error,
            );
        }
        return crate::preview_pack::run(args, source, &style);
    }
    let Some(file) = args.file.as_deref() else {
        return crate::fail(
            "preview needs a PDF, --pack or --manifest",
            ExitStatus::Error,
        );
    };
    if file.is_dir() {
        return crate::fail(&folder_given(file), ExitStatus::Error);
    }
    let Some(pool) = crate::worker_pool(args.jobs) else {
        return ExitStatus::Error;
    };
    let anchors = match args.anchors.load(false) {
        Ok(a) => a,
        Err(e) => return crate::fail(&e, ExitStatus::Error),
    };
    let mut scanner = Scanner::new().dpi(args.dpi).dialects(args.dialect);
    if let Some(a) = &anchors {
        scanner = scanner.anchors(a.anchors.clone());
    }
    let loaded = match pool.install(|| load(file, &scanner)) {
        Ok(l) => l,
        Err(e) => {
            let status = if matches!(e, LoadError::Io(_)) {
                ExitStatus::Error
            } else {
                ExitStatus::Failure
            };
            return crate::fail(&e.message(), status);
        }
    };
    let count = loaded.doc.page_count();
    if count == 0 {
        // Nothing would be drawn, and an empty input never passes.
        return crate::fail(
            &format!(
                "{}: the document has no page: nothing to draw [{}]",
                file.display(),
                Code::DocumentNoPages
            ),
            ExitStatus::Failure,
        );
    }
    let pages = match chosen_pages(&args.pages, count) {
        Ok(p) => p,
        Err(e) => return crate::fail(&e, ExitStatus::Error),
    };
    if let Err(e) = std::fs::create_dir_all(&args.out_dir) {
        return crate::fail(
            &format!("cannot create {}: {e}", args.out_dir.display()),
            ExitStatus::Error,
        );
    }
    let stem = file
        .file_stem()
        .filter(|_| file.as_os_str() != "-")
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "stdin".into());
    let mut verdict = crate::Verdict::default();
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
                crate::plural(errors, "error-level finding"),
                file.display()
            ),
        );
    }
    if scanner.reads_vendor_tags() {
        crate::preview_migrate::write_pages(
            &pool,
            &loaded,
            anchors,
            &pages,
            &style,
            &args.out_dir,
            &stem,
            args.overlay_json,
            &file.display().to_string(),
            &mut verdict,
        );
    } else {
        write_pages(
            &pool,
            &loaded,
            &pages,
            &style,
            &args.out_dir,
            &stem,
            args.overlay_json,
            &file.display().to_string(),
            &mut verdict,
        );
    }
    verdict.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_choice() {
        assert_eq!(chosen_pages(&[], 3), Ok(vec![0, 1, 2]));
        assert_eq!(
            chosen_pages(&[(3, None), (1, Some(1)), (2, Some(3))], 4),
            Ok(vec![0, 1, 2, 3])
        );
        assert!(chosen_pages(&[(5, Some(5))], 3).is_err());
    }

    #[test]
    fn page_choice_within_a_shorter_document() {
        assert_eq!(pages_within(&[], 2), vec![0, 1]);
        assert_eq!(pages_within(&[(1, Some(3))], 2), vec![0, 1]);
        assert_eq!(pages_within(&[(2, None)], 3), vec![1, 2]);
        assert_eq!(pages_within(&[(3, Some(5))], 2), Vec::<usize>::new());
        assert_eq!(pages_within(&[(3, Some(5)), (1, Some(1))], 2), vec![0]);
    }

    #[test]
    fn names_sort_by_page() {
        assert_eq!(png_name("a", 0, 12), "a-p01.png");
        assert_eq!(png_name("a", 11, 12), "a-p12.png");
        assert_eq!(png_name("a", 0, 1), "a-p1.png");
    }
}
