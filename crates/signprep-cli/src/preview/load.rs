//! What every preview shares, below the kinds of input: reading a PDF once for
//! scanning and drawing ([`load`]), the style of the command line
//! ([`style`]) and the pages `--pages` chooses. `report` and `serve`'s
//! `/v1/preview` load through here too; drawing is [`super::paint`].

use crate::exit::ExitStatus;
use signprep_core::{Code, Document, FileErrorCode, LoadOptions, Scan, Scanner};
use signprep_render::{PageRenderer, RenderError, Style};
use std::path::Path;

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

    /// The exit status it calls for: 2 for a file that could not be read, 1
    /// for one that is no PDF to draw.
    pub fn status(&self) -> ExitStatus {
        if matches!(self, LoadError::Io(_)) {
            ExitStatus::Error
        } else {
            ExitStatus::Failure
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
        let bytes = crate::inputs::read_input(path).map_err(|e| {
            LoadError::Io(format!(
                "cannot read standard input: {}",
                signprep_core::io_reason(&e)
            ))
        })?;
        return load_bytes_with(bytes, "-", scanner, options);
    }
    let len = std::fs::metadata(path)
        .map_err(|e| {
            LoadError::Io(format!(
                "cannot read {}: {}",
                path.display(),
                signprep_core::io_reason(&e)
            ))
        })?
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
    let bytes = std::fs::read(path).map_err(|e| {
        LoadError::Io(format!(
            "cannot read {}: {}",
            path.display(),
            signprep_core::io_reason(&e)
        ))
    })?;
    load_bytes_with(bytes, &path.display().to_string(), scanner, options)
}

/// A template (`.docx`, `.odt`) converted and scanned ([`crate::templates::Templates`]): the
/// PDF LibreOffice made, drawn as any PDF, its scan carrying the template's places.
pub fn load_template(
    path: &Path,
    format: signprep_template::Format,
    templates: &crate::templates::Templates,
    scanner: &Scanner,
    options: &LoadOptions,
) -> Result<Loaded, LoadError> {
    let label = path.display().to_string();
    signprep_core::batch::test_hook(&label);
    let scanned = templates.scanned(path, format, options, scanner);
    let (bytes, scan) = match scanned.into_pdf() {
        Ok(made) => made,
        Err(e) if e.code == FileErrorCode::IoError => {
            return Err(LoadError::Io(format!("{label}: {}", e.message)));
        }
        Err(e) => {
            return Err(LoadError::Pdf {
                code: e.code,
                message: format!("{label}: {}", e.message),
            });
        }
    };
    let doc = Document::from_bytes(&bytes, options).map_err(|e| LoadError::Pdf {
        code: e.file_code(),
        message: format!("{label}: {}", e.message()),
    })?;
    let pdf = renderer(bytes, &doc);
    drawable(Ok(Loaded { doc, pdf, scan }), &label)
}

/// The page renderer of `bytes`, or why it cannot draw the document's pages.
fn renderer(bytes: Vec<u8>, doc: &Document) -> Result<PageRenderer, RenderError> {
    // A renderer that reads other pages than the scan draws none of them: one
    // finding for the file, not one per page.
    PageRenderer::new(bytes).and_then(|pdf| {
        let (renderer, document) = (pdf.page_count(), doc.page_count());
        if renderer == document {
            Ok(pdf)
        } else {
            Err(RenderError::PageCountMismatch { renderer, document })
        }
    })
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
    let pdf = renderer(bytes, &doc);
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

/// Pages chosen by `--pages` (1-based ranges), 0-based and checked against the count.
pub fn chosen_pages(spec: &[(usize, Option<usize>)], count: usize) -> Result<Vec<usize>, String> {
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
}
