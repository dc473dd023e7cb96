//! Vendor tag text drawn by an annotation's appearance rather than by the
//! page: reported, never read as a tag.
//!
//! The vendors find text tags in a page's text as a text extractor gives it,
//! and the extractors their products and sample code use read a page's
//! content only: pdf.js `getTextContent`, MuPDF/PyMuPDF `get_text` (which
//! runs the page's contents, not its annotations) and pdfium's `FPDFText`.
//! Adobe documents its text tags as text "within the content of your
//! document". So a `{{...}}` that a FreeText, Stamp or other annotation
//! draws places no field there, and none is migrated; but viewers draw it
//! (ISO 32000-1 §12.5.5; pdf.js and Acrobat show appearances), so it stays
//! printed on the upload: `vendor_tag_in_annotation` says where.

use super::docusign::find_anchor_tabs;
use super::resolve::collect_page;
use super::{Anchors, Dialects};
use crate::content::Appearance;
use crate::diag::{Code, Diagnostic};
use crate::geometry::Rect;
use crate::tags::PageLines;

/// The findings for the vendor tag text (any requested dialect's, or an
/// anchor's) that annotation `a` of page `page` draws.
pub(crate) fn annotation_findings(
    page: usize,
    a: &Appearance,
    dialects: Dialects,
    anchors: Option<&Anchors>,
) -> Vec<Diagnostic> {
    let lines = PageLines::new(&a.text);
    let mut found: Vec<(String, Option<Rect>)> = if dialects.is_empty() {
        Vec::new()
    } else {
        collect_page(page, &lines, dialects).texts()
    };
    if let Some(anchors) = anchors {
        found.extend(
            find_anchor_tabs(page, &lines, anchors)
                .found
                .into_iter()
                .map(|t| (t.raw, Some(t.bbox))),
        );
    }
    let object =
        a.id.map(|(n, g)| format!(" (object {n} {g})"))
            .unwrap_or_default();
    found
        .into_iter()
        .map(|(raw, bbox)| {
            let at = bbox
                .map(|b| format!(" at ({:.1}, {:.1})", b.x0, b.y0))
                .unwrap_or_default();
            Diagnostic::new(
                Code::VendorTagInAnnotation,
                format!(
                    "page {}: `{raw}`{at} is drawn by a {} annotation{object}, not by the page; the vendors read tags in the page's text only, so it is not migrated, and a stripped copy keeps it: it shows on the upload",
                    page + 1,
                    a.subtype
                ),
            )
            .page(page)
            .tag(raw)
            .hint("delete the annotation, or flatten it into the page (print to PDF) and migrate again")
        })
        .collect()
}
