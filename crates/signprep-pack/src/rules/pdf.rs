//! PDFs a body embeds or names: read, scanned, and what they hold.

use super::Ctx;
use crate::codes::Finding;
use signprep_core::{Document, FileErrorCode, Scan};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// True when the first KiB holds `%PDF-` (readers accept leading junk).
pub(crate) fn is_pdf(bytes: &[u8]) -> bool {
    let head = bytes.get(..1024).unwrap_or(bytes);
    head.windows(5).any(|w| w == b"%PDF-")
}

/// A scanned PDF.
pub(crate) struct PdfFacts {
    pub(crate) scan: Scan,
}

impl PdfFacts {
    /// Valid tag ids, each once, in page order, with the first page each is on.
    pub(crate) fn tags(&self) -> Vec<(String, usize)> {
        let mut seen = BTreeSet::new();
        self.scan
            .tags
            .iter()
            .filter(|t| t.valid && seen.insert(t.tag_id.as_str()))
            .map(|t| (t.tag_id.clone(), t.page))
            .collect()
    }

    /// Form-field names, each once, in field order.
    pub(crate) fn field_names(&self) -> Vec<String> {
        let mut seen = BTreeSet::new();
        self.scan
            .fields
            .iter()
            .filter(|f| seen.insert(f.name.as_str()))
            .map(|f| f.name.clone())
            .collect()
    }

    /// Tag ids and field names whose default service type is `signature`.
    pub(crate) fn signatures(&self) -> BTreeSet<String> {
        let tags = self.scan.tags.iter();
        let tags = tags.filter(|t| t.service_type(None) == Some("signature"));
        let fields = self.scan.fields.iter();
        let fields = fields.filter(|f| f.service_type(None) == Some("signature"));
        tags.map(|t| t.tag_id.clone())
            .chain(fields.map(|f| f.name.clone()))
            .collect()
    }
}

/// Checks that `bytes` are a PDF and scans them. Failures and the scan's
/// diagnostics become findings at `at` (a JSON pointer) about `file`.
pub(crate) fn load(
    ctx: &mut Ctx<'_>,
    bytes: &[u8],
    at: Option<&str>,
    file: Option<&str>,
) -> Option<PdfFacts> {
    let locate = |f: Finding| -> Finding {
        let mut f = f;
        f.pointer = at.map(str::to_string);
        f.file = file.map(str::to_string);
        f
    };
    let what = file.map_or_else(|| "the embedded document".to_string(), str::to_string);
    let found = |ctx: &mut Ctx<'_>, scan: Scan| {
        for d in &scan.diagnostics {
            ctx.push(locate(Finding::from_scan(d, "", "")));
        }
        Some(PdfFacts { scan })
    };
    if let Some((_, scan)) = ctx.scanned.iter().find(|(b, _)| b.as_slice() == bytes) {
        return found(ctx, scan.clone());
    }
    let checker = ctx.checker;
    let mut options = checker.load.clone();
    if let Some(budget) = options.time_budget {
        let left = budget.saturating_sub(ctx.started.elapsed());
        if left.is_zero() {
            ctx.push(locate(Finding::file_error(
                FileErrorCode::PdfLimitExceeded,
                format!(
                    "{what} was not scanned: checking this input took longer than {:.1} s, the time budget a body shares with the PDFs it embeds or names",
                    budget.as_secs_f64()
                ),
            )));
            return None;
        }
        options.time_budget = Some(left);
    }
    // A panic (a bug) is not caught here: it ends this input's check, and the
    // batch engine that runs it (`signprep_core::batch`) reports the input
    // as `internal_error`.
    match Document::from_bytes(bytes, &options).and_then(|doc| checker.scanner.scan(&doc)) {
        Ok(scan) => found(ctx, scan),
        Err(e) => {
            ctx.push(locate(Finding::unreadable(&what, &e)));
            None
        }
    }
}

/// A path named in a body, resolved from the body's folder
/// ([`crate::resolve_upload`]).
pub(crate) fn resolve(ctx: &Ctx<'_>, written: &str) -> PathBuf {
    crate::resolve_upload(written, ctx.base_dir)
}

/// Reads and scans a PDF named in a body; its size is checked against the
/// payload limit.
pub(crate) fn load_path(ctx: &mut Ctx<'_>, written: &str, at: &str) -> Option<PdfFacts> {
    let path = resolve(ctx, written);
    let shown = path.display().to_string();
    match crate::read::read_file(&path, ctx.checker.load.max_file_bytes) {
        Ok(bytes) => {
            ctx.payload(
                bytes.len() as u64,
                &format!("the upload {shown}"),
                Some(at.to_string()),
            );
            load(ctx, &bytes, Some(at), Some(&shown))
        }
        Err(e) => {
            ctx.push(
                Finding::unreadable(&shown, &e).at(at).file(shown).hint(
                    "a relative path is read from the folder of the file that names it (`pack --v0 -o` and `migrate --out` write it so)",
                ),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::rules::Checker;
    use signprep_core::{Code, Diagnostic};
    use std::path::Path;

    fn fixture(name: &str) -> Vec<u8> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures");
        std::fs::read(dir.join(name)).unwrap()
    }

    fn messages(out: &[Finding]) -> Vec<&str> {
        out.iter().map(|f| f.message.as_str()).collect()
    }

    /// Bytes scanned before (a manifest's PDFs, by its build) are taken from
    /// `Ctx::scanned`, not scanned again; other bytes are scanned.
    #[test]
    fn a_pdf_scanned_before_is_not_scanned_again() {
        let checker = Checker::new();
        let known = fixture("base14_courier.pdf");
        let other = fixture("cropbox_offset.pdf");
        // A scan no real scan of `known` gives: its finding shows which was used.
        let mut marked = Scan::default();
        marked
            .diagnostics
            .push(Diagnostic::new(Code::PdfRepaired, "kept scan"));
        let scanned = vec![(known.clone(), marked)];
        let mut ctx = Ctx {
            checker: &checker,
            base_dir: Path::new(""),
            label: "test",
            out: Vec::new(),
            suggest_budget: crate::suggest::BUDGET,
            started: std::time::Instant::now(),
            scanned: &scanned,
        };
        let facts = load(&mut ctx, &known, Some("/documents/0"), None).unwrap();
        assert_eq!(messages(&ctx.out), ["kept scan"]);
        assert_eq!(ctx.out[0].pointer.as_deref(), Some("/documents/0"));
        assert!(facts.scan.tags.is_empty());
        ctx.out.clear();
        let facts = load(&mut ctx, &other, None, None).unwrap();
        assert!(!messages(&ctx.out).contains(&"kept scan"));
        assert!(!facts.scan.pages.is_empty());
    }
}
