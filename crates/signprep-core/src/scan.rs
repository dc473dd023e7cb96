//! The scanner: pages in parallel, merged in page order, scaled to output pixels.

use crate::content::{interpret_appearances, interpret_page, interpret_page_for_tags};
use crate::diag::{Code, Diagnostic};
use crate::document::{Document, Error};
use crate::forms::{self, Field};
use crate::geometry::{Rect, Scale, ScaleError, round2};
use crate::resources::Resources;
use crate::source::SourcePlace;
use crate::tags::vendor::{
    Anchors, Dialects, FoundVendorTag, Leftover, PageVendor, VendorTag, annotation_findings,
    collect_page, find_anchor_tabs, resolve_document,
};
use crate::tags::{FoundTag, PageLines, Unmappable, find_page_tags_in};
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One page of the output: its displayed size and where it starts in the stack.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct PageInfo {
    /// 0-based page index.
    pub index: usize,
    /// Displayed width, in output pixels.
    pub width: f64,
    /// Displayed height, in output pixels.
    pub height: f64,
    /// `/Rotate`, normalised to 0, 90, 180 or 270.
    pub rotation: u16,
    /// Sum of the displayed heights of the pages before this one, in pixels.
    pub y_offset: f64,
    /// `/UserUnit`, when the page sets one other than 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_unit: Option<f64>,
}

/// A tag found in the text, in page-stacked output pixels.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Tag {
    /// The id between `<#` and `#>`, trimmed.
    pub tag_id: String,
    /// The matched text, `<#` to `#>`.
    pub raw: String,
    /// True when the id matches `^[A-Z0-9_]+$`.
    pub valid: bool,
    /// 0-based page index.
    pub page: usize,
    /// Left edge, pixels from the left of the page.
    pub x: f64,
    /// Top edge, pixels from the top of page 0 (pages stacked).
    pub y: f64,
    /// Width from the left of `<` to the right of `>`.
    pub width: f64,
    /// Height (the font size, scaled).
    pub height: f64,
    /// Font of the `<` glyph, without a subset prefix.
    pub font: String,
    /// Effective font size of the `<` glyph, in points.
    pub font_size: f64,
    /// Painted invisibly.
    pub hidden: bool,
    /// Where the tag stands in the template the PDF was converted from (a
    /// `.docx` or `.odt` input); absent for a PDF input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourcePlace>,
}

impl Tag {
    /// A tag with this id and matched text (`raw`, `<#` to `#>`) on a page
    /// (0-based): `valid` by [`id_is_valid`], no box, no font, visible, no
    /// source. Set the public fields for the rest.
    pub fn new(tag_id: impl Into<String>, raw: impl Into<String>, page: usize) -> Tag {
        let tag_id = tag_id.into();
        Tag {
            valid: id_is_valid(&tag_id),
            tag_id,
            raw: raw.into(),
            page,
            x: 0.0,
            y: 0.0,
            width: 0.0,
            height: 0.0,
            font: String::new(),
            font_size: 0.0,
            hidden: false,
            source: None,
        }
    }
}

/// The result of scanning one document.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Scan {
    /// Every page, in order.
    pub pages: Vec<PageInfo>,
    /// Every tag, in page then content order.
    pub tags: Vec<Tag>,
    /// Other vendors' tags, when the scanner was asked for dialects
    /// ([`Scanner::dialects`]) or DocuSign anchors ([`Scanner::anchors`]), in
    /// page then line order (anchor tabs after the page's text tags).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vendor_tags: Option<Vec<VendorTag>>,
    /// Every form-field widget.
    pub fields: Vec<Field>,
    /// Findings, in page order.
    pub diagnostics: Vec<Diagnostic>,
    /// Vendor syntax read under `--dialect` that places no field, in page
    /// and line order ([`Scan::vendor_text`]). Not part of the record.
    #[serde(skip)]
    #[schemars(skip)]
    vendor_text: Vec<VendorText>,
}

/// Vendor syntax a scan read but placed no field for, whose text `migrate
/// --strip` removes all the same: a `{{…}}` that none of the document's
/// vendors reads (`vendor_tag_unread`) or a tag broken over lines or pages
/// (`vendor_tag_split_across_lines`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct VendorText {
    /// The finding that reports it.
    pub code: Code,
    /// The text, its lines joined.
    pub raw: String,
    /// The page it starts on (0-based).
    pub page: usize,
    /// The top-left corner of its first line's text, page-stacked pixels
    /// (as a tag's `x`, `y`), when its glyphs have a box.
    pub at: Option<(f64, f64)>,
    /// The height of that line's text, pixels.
    pub height: f64,
    /// For a text broken over lines (`vendor_tag_split_across_lines`), each
    /// line's piece and where it is; empty for a text on one line.
    pub pieces: Vec<VendorPiece>,
}

/// One line's piece of a vendor text broken over lines.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct VendorPiece {
    /// The page it is on (0-based).
    pub page: usize,
    /// Its text.
    pub text: String,
    /// The top-left corner of its text, page-stacked pixels, when its
    /// glyphs have a box.
    pub at: Option<(f64, f64)>,
    /// The height of its text, pixels.
    pub height: f64,
}

impl VendorText {
    /// `scale` gives a page's pixels per unit and its offset in the stack.
    fn output(l: Leftover, page: usize, scale: impl Fn(usize) -> (f64, f64)) -> VendorText {
        let corner = |p: usize, b: Option<crate::geometry::Rect>| {
            let (f, off) = scale(p);
            let b = b.map(|b| b.stacked(f, off));
            (
                b.map(|(x, y, _, _)| (round2(x), round2(y))),
                b.map_or(0.0, |(_, _, _, h)| round2(h)),
            )
        };
        let (at, height) = corner(page, l.bbox);
        VendorText {
            code: l.code,
            raw: l.raw,
            page,
            at,
            height,
            pieces: l
                .pieces
                .into_iter()
                .map(|(p, text, b)| {
                    let (at, height) = corner(p, b);
                    VendorPiece {
                        page: p,
                        text,
                        at,
                        height,
                    }
                })
                .collect(),
        }
    }
}

impl Scan {
    /// Vendor syntax read under `--dialect` that places no field (unread
    /// `{{…}}`, tags broken over lines), with where each starts: what
    /// [`crate::strip_vendor_tags`] removes besides the tags.
    pub fn vendor_text(&self) -> &[VendorText] {
        &self.vendor_text
    }

    /// True when a finding has error severity.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error)
    }
}

/// Scans documents; holds the output options.
#[derive(Clone, Debug)]
pub struct Scanner {
    scale: Scale,
    apply_user_unit: bool,
    parallel: bool,
    fields: bool,
    dialects: Dialects,
    anchors: Option<Arc<Anchors>>,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner::new()
    }
}

impl Scanner {
    /// 72 dpi (1 px = 1 pt), `/UserUnit` applied, pages in parallel, tags
    /// and form fields.
    pub fn new() -> Self {
        Scanner {
            scale: Scale::Dpi(72.0),
            apply_user_unit: true,
            parallel: true,
            fields: true,
            dialects: Dialects::NONE,
            anchors: None,
        }
    }

    /// Output pixels at this resolution, brought into [`DPI_RANGE`](crate::DPI_RANGE)
    /// (1 to 10,000 dpi; 72 for NaN) so that every coordinate is finite;
    /// [`try_dpi`](Self::try_dpi) refuses a value out of range instead.
    #[must_use]
    pub fn dpi(mut self, dpi: f64) -> Self {
        self.scale = Scale::Dpi(dpi).clamped();
        self
    }

    /// Output pixels at this resolution, or [`ScaleError`] when it is out
    /// of [`DPI_RANGE`](crate::DPI_RANGE).
    ///
    /// ```
    /// use signprep_core::Scanner;
    /// assert!(Scanner::new().try_dpi(300.0).is_ok());
    /// assert!(Scanner::new().try_dpi(1e308).is_err());
    /// ```
    pub fn try_dpi(mut self, dpi: f64) -> Result<Self, ScaleError> {
        self.scale = Scale::dpi(dpi)?;
        Ok(self)
    }

    /// Scale every page to this displayed width in pixels, as web viewers
    /// do, brought into [`PAGE_WIDTH_RANGE`](crate::PAGE_WIDTH_RANGE) (1 to 100,000 px; 612 for NaN);
    /// [`try_page_width`](Self::try_page_width) refuses instead.
    #[must_use]
    pub fn page_width(mut self, px: f64) -> Self {
        self.scale = Scale::PageWidth(px).clamped();
        self
    }

    /// [`page_width`](Self::page_width), or [`ScaleError`] when `px` is out
    /// of [`PAGE_WIDTH_RANGE`](crate::PAGE_WIDTH_RANGE).
    pub fn try_page_width(mut self, px: f64) -> Result<Self, ScaleError> {
        self.scale = Scale::page_width(px)?;
        Ok(self)
    }

    /// Multiply lengths by each page's `/UserUnit` (the default), as
    /// Acrobat, pdf.js and MuPDF display the page: a 612 x 792 MediaBox with
    /// `/UserUnit 3` is a 1836 x 2376 pt page, and every box on it is scaled
    /// alike. `false` reads lengths in the page's own user-space units, as
    /// PDF 1.5 readers that ignore `/UserUnit` do. With
    /// [`page_width`](Self::page_width) the unit makes no difference.
    #[must_use]
    pub fn apply_user_unit(mut self, yes: bool) -> Self {
        self.apply_user_unit = yes;
        self
    }

    /// Scan pages in parallel (the default) or one after another.
    #[must_use]
    pub fn parallel_pages(mut self, yes: bool) -> Self {
        self.parallel = yes;
        self
    }

    /// Extract form fields too (the default). Without them a scan finds tags
    /// only: `Scan::fields` stays empty and no field finding is made, and the
    /// AcroForm and the pages' annotations are not read at all.
    #[must_use]
    pub fn fields(mut self, yes: bool) -> Self {
        self.fields = yes;
        self
    }

    /// Also read these vendors' text tags into `Scan::vendor_tags` (none by
    /// default: a scan without dialects does no work for them).
    #[must_use]
    pub fn dialects(mut self, dialects: Dialects) -> Self {
        self.dialects = dialects;
        self
    }

    /// Also find these DocuSign anchor tabs (`scan --anchors`) into
    /// `Scan::vendor_tags`, with dialect `docusign`; an empty set finds none.
    #[must_use]
    pub fn anchors(mut self, anchors: Anchors) -> Self {
        self.anchors = (!anchors.is_empty()).then(|| Arc::new(anchors));
        self
    }

    /// The vendors whose text tags this scanner reads ([`Scanner::dialects`]).
    pub fn dialects_read(&self) -> Dialects {
        self.dialects
    }

    /// True when the scanner reads vendor tags (dialects or anchors).
    pub fn reads_vendor_tags(&self) -> bool {
        !self.dialects.is_empty() || self.anchors.is_some()
    }

    /// Scans a document: tags, fields and findings.
    ///
    /// Fails only when a resource limit is hit (a decompression bomb, say);
    /// damaged content is skipped and reported as a diagnostic.
    pub fn scan(&self, doc: &Document) -> Result<Scan, Error> {
        let n = doc.page_count();
        let res = Resources::new(doc);
        let per_page = |i: usize| -> Result<PageResult, Error> {
            // A scan of `<# #>` tags alone places the glyphs of the pages
            // whose text holds a `<#` only; vendor tags read every page's.
            let mut text = if self.reads_vendor_tags() {
                interpret_page(&res, i)?
            } else {
                interpret_page_for_tags(&res, i)?
            };
            // Built once, for whichever of the readers below needs them.
            let lines = PageLines::new(&text);
            let found = find_page_tags_in(i, &lines);
            let (tags, mut diags) = (found.tags, found.diags);
            // Vendor tags are read once every page is in (one reading per
            // document); their findings go here, after the page's tag findings.
            let vendor_at = diags.len();
            let vendor = if self.dialects.is_empty() {
                PageVendor::default()
            } else {
                collect_page(i, &lines, self.dialects)
            };
            // Anchors are matched per page, with no document-wide reading.
            let (mut anchored, mut anchor_hits) = (Vec::new(), Vec::new());
            if let Some(a) = &self.anchors {
                let found = find_anchor_tabs(i, &lines, a);
                anchored = found.found;
                diags.extend(found.diags);
                anchor_hits = found.hits;
            }
            // Tag text an annotation draws: reported, never read (see
            // `tags/vendor/annotation.rs`); a scan of `<# #>` tags never looks.
            if self.reads_vendor_tags() {
                for a in interpret_appearances(&res, i)? {
                    diags.extend(annotation_findings(
                        i,
                        &a,
                        self.dialects,
                        self.anchors.as_deref(),
                    ));
                }
            }
            // Done with the page: its buffers go back to this thread for its
            // next page (the lines borrow them, so they go first).
            drop(lines);
            diags.extend(std::mem::take(&mut text.diagnostics));
            let no_text_layer = text.shown() == 0 && text.images > 0;
            text.recycle();
            if no_text_layer {
                diags.push(
                    Diagnostic::new(
                        Code::PageNoTextLayer,
                        format!("page {}: the page has images but no text; it is probably a scan, and tags in it cannot be found", i + 1),
                    )
                    .page(i)
                    .hint("export the document from its source instead of scanning it, or run OCR first"),
                );
            }
            Ok(PageResult {
                tags,
                vendor,
                vendor_at,
                anchored,
                diags,
                unmappable: found.unmappable,
                anchor_hits,
            })
        };
        let results: Vec<Result<PageResult, Error>> = if self.parallel {
            (0..n).into_par_iter().map(per_page).collect()
        } else {
            (0..n).map(per_page).collect()
        };

        let mut scan = Scan::default();
        let mut factors = Vec::with_capacity(n);
        let mut y_offset = 0.0;
        for (i, page) in doc.pages.iter().enumerate() {
            let g = &page.geometry;
            let (w, h) = g.displayed_size();
            let f = self.scale.factor(w, g.user_unit, self.apply_user_unit);
            scan.pages.push(PageInfo {
                index: i,
                width: round2(w * f),
                height: round2(h * f),
                rotation: g.rotation.degrees(),
                y_offset: round2(y_offset),
                user_unit: (g.user_unit != 1.0).then_some(g.user_unit),
            });
            factors.push((f, y_offset, w, h));
            y_offset += h * f;
        }

        // A file whose objects could not all be read on demand reports what
        // opening it whole reports.
        if let Some(e) = doc.deferred_error() {
            return Err(e);
        }
        let mut page_tags: Vec<(usize, FoundTag)> = Vec::new();
        let mut vendor_tags = Vec::new();
        let mut unmappable_fonts = std::collections::BTreeSet::new();
        let mut results = results.into_iter().collect::<Result<Vec<_>, Error>>()?;
        let vendor = if self.dialects.is_empty() {
            Vec::new()
        } else {
            let pages = results.iter_mut().map(|r| std::mem::take(&mut r.vendor));
            resolve_document(pages.collect(), self.dialects)
        };
        let mut vendor = vendor.into_iter();
        let mut anchor_hit = vec![false; self.anchors.as_ref().map_or(0, |a| a.tabs().len())];
        for (i, r) in results.into_iter().enumerate() {
            for h in &r.anchor_hits {
                if let Some(slot) = anchor_hit.get_mut(*h) {
                    *slot = true;
                }
            }
            page_tags.extend(r.tags.into_iter().map(|t| (i, t)));
            let (f, off, _, _) = factors.get(i).copied().unwrap_or((1.0, 0.0, 0.0, 0.0));
            let mut diags = r.diags;
            if let Some((found, vendor_diags, left)) = vendor.next() {
                vendor_tags.extend(found.into_iter().map(|t| t.output(i, f, off)));
                let scale = |p: usize| {
                    factors
                        .get(p)
                        .map_or((1.0, 0.0), |&(f, off, _, _)| (f, off))
                };
                scan.vendor_text
                    .extend(left.into_iter().map(|l| VendorText::output(l, i, scale)));
                let at = r.vendor_at.min(diags.len());
                diags.splice(at..at, vendor_diags);
            }
            vendor_tags.extend(r.anchored.into_iter().map(|t| t.output(i, f, off)));
            scan.diagnostics.extend(diags);
            // Once per font, on the first page (in page order) that shows it.
            for u in r.unmappable {
                if unmappable_fonts.insert(u.font.clone()) {
                    scan.diagnostics.push(unmappable_finding(i, &u));
                }
            }
        }
        let mut tag_diags = Vec::new();
        for (i, t) in &page_tags {
            let (f, off, w, h) = factors.get(*i).copied().unwrap_or((1.0, 0.0, 0.0, 0.0));
            tag_diags.extend(tag_findings(*i, t, &Rect::new(0.0, 0.0, w, h)));
            let (x, y, width, height) = t.bbox.stacked(f, off);
            scan.tags.push(Tag {
                valid: id_is_valid(&t.tag_id),
                tag_id: t.tag_id.clone(),
                raw: t.raw.clone(),
                page: *i,
                x: round2(x),
                y: round2(y),
                width: round2(width),
                height: round2(height),
                font: t.font.clone(),
                font_size: round2(t.font_size),
                hidden: t.hidden,
                source: None,
            });
        }
        if self.reads_vendor_tags() {
            scan.vendor_tags = Some(vendor_tags);
        }
        if let Some(a) = &self.anchors {
            scan.diagnostics.extend(a.missing_findings(&anchor_hit, n));
        }
        tag_diags.extend(overlaps(&page_tags));
        tag_diags.extend(duplicates(&page_tags));
        scan.diagnostics.extend(tag_diags);

        if self.fields {
            let extracted = forms::extract(doc, &|page, r: &Rect| {
                let (f, off, _, _) = factors.get(page).copied().unwrap_or((1.0, 0.0, 0.0, 0.0));
                r.stacked(f, off)
            });
            if let Some(e) = doc.deferred_error() {
                return Err(e);
            }
            let (fields, field_diags) = extracted?;
            scan.fields = fields;
            scan.diagnostics.extend(field_diags);
        }
        scan.diagnostics.extend(doc.page_findings.iter().cloned());
        if doc.was_repaired() {
            scan.diagnostics.push(Diagnostic::new(
                Code::PdfRepaired,
                "the file is damaged: its cross-reference data was rebuilt by scanning; what could be recovered was scanned",
            ));
        }
        // Stable order: by page (document-level last), then as found.
        scan.diagnostics
            .sort_by_key(|d| d.page.unwrap_or(usize::MAX));
        Ok(scan)
    }
}

struct PageResult {
    tags: Vec<FoundTag>,
    vendor: PageVendor,
    /// Where the page's vendor-tag findings go in `diags`.
    vendor_at: usize,
    /// DocuSign anchor tabs found on the page.
    anchored: Vec<FoundVendorTag>,
    diags: Vec<Diagnostic>,
    unmappable: Vec<Unmappable>,
    /// Indices of the anchor tabs found on the page.
    anchor_hits: Vec<usize>,
}

/// The one `text_unmappable` of a font whose misread text holds a `<#` that
/// is no tag (see the `tags` module).
fn unmappable_finding(page: usize, u: &Unmappable) -> Diagnostic {
    let font = if u.font.is_empty() {
        "an unnamed font".to_string()
    } else {
        format!("font `{}`", u.font)
    };
    Diagnostic::new(
        Code::TextUnmappable,
        format!(
            "page {}: text in {font} reads `{}`, which is not a tag: the font {}; its text may be misread, tags set in it too (said once per font)",
            page + 1,
            u.text.trim_end(),
            u.why
        ),
    )
    .page(page)
    .hint("nothing to do if no tag was meant there; a tag belongs in a font exported with a /ToUnicode map (word processors do this)")
}

/// The service's reading of "upper-case ASCII only": `^[A-Z0-9_]+$`.
pub fn id_is_valid(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

fn tag_findings(page: usize, t: &FoundTag, page_box: &Rect) -> Vec<Diagnostic> {
    let p = page + 1;
    let id = &t.tag_id;
    let mut out = Vec::new();
    let invalid = if id.is_empty() {
        Some((
            Code::TagIdEmpty,
            format!("page {p}: tag `{}` has no id", t.raw),
            "write an id between `<#` and `#>`, e.g. `<# SIGNATURE_1 #>`".to_string(),
        ))
    } else if !id.is_ascii() {
        let bad: String = id.chars().filter(|c| !c.is_ascii()).collect();
        Some((
            Code::TagIdNotAscii,
            format!("page {p}: tag id `{id}` has characters outside ASCII (`{bad}`)"),
            "use only A-Z, 0-9 and _".to_string(),
        ))
    } else if id.bytes().any(|b| b.is_ascii_lowercase()) {
        Some((
            Code::TagIdNotUppercase,
            format!(
                "page {p}: tag id `{id}` has lower-case letters; the service only reads upper-case ids"
            ),
            format!("write it as `{}`", id.to_ascii_uppercase()),
        ))
    } else if !id_is_valid(id) {
        let bad: String = id
            .chars()
            .filter(|c| !(c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_'))
            .collect();
        Some((
            Code::TagIdInvalidChar,
            format!("page {p}: tag id `{id}` has characters other than A-Z, 0-9 and _ (`{bad}`)"),
            "replace spaces and punctuation with _".to_string(),
        ))
    } else {
        None
    };
    if let Some((code, msg, hint)) = invalid {
        out.push(Diagnostic::new(code, msg).page(page).tag(id).hint(hint));
    }
    if t.proportional {
        out.push(
            Diagnostic::new(Code::TagFontProportional, format!("page {p}: tag `{id}` is set in {}, a proportional font; the field width will follow the glyph widths, not the character count", if t.font.is_empty() { "an unnamed font" } else { &t.font }))
                .page(page)
                .tag(id)
                .hint("set tags in a monospaced font such as Inconsolata"),
        );
    }
    if t.hidden {
        out.push(Diagnostic::new(Code::TagHidden, format!("page {p}: tag `{id}` is painted invisibly (white, transparent or render mode 3/7)")).page(page).tag(id));
    }
    if !page_box.contains(&t.bbox) {
        let whole = page_box.intersect(&t.bbox).is_none();
        out.push(
            Diagnostic::new(
                Code::TagOutsidePage,
                format!(
                    "page {p}: tag `{id}` is {} outside the visible page (CropBox)",
                    if whole { "entirely" } else { "partly" }
                ),
            )
            .page(page)
            .tag(id),
        );
    }
    if t.vertical {
        out.push(Diagnostic::new(Code::TagVertical, format!("page {p}: tag `{id}` runs vertically on the displayed page; its field will be tall and narrow")).page(page).tag(id));
    }
    if t.line_unmappable {
        out.push(
            Diagnostic::new(Code::TextUnmappable, format!("page {p}: the line of tag `{id}` has glyphs without a Unicode mapping; text there may be misread"))
                .page(page)
                .tag(id)
                .hint("embed fonts with a ToUnicode map when exporting the PDF"),
        );
    }
    out
}

fn overlaps(tags: &[(usize, FoundTag)]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut by_page: BTreeMap<usize, Vec<&FoundTag>> = BTreeMap::new();
    for (p, t) in tags {
        by_page.entry(*p).or_default().push(t);
    }
    for (p, mut list) in by_page {
        list.sort_by(|a, b| a.bbox.x0.total_cmp(&b.bbox.x0));
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                if b.bbox.x0 >= a.bbox.x1 {
                    break;
                }
                if a.bbox.intersect(&b.bbox).is_some() {
                    out.push(
                        Diagnostic::new(Code::TagOverlap, format!("page {}: tags `{}` and `{}` overlap; their fields will overlap too", p + 1, a.tag_id, b.tag_id))
                            .page(p)
                            .tag(&a.tag_id),
                    );
                }
            }
        }
    }
    out
}

fn duplicates(tags: &[(usize, FoundTag)]) -> Vec<Diagnostic> {
    let mut seen: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (p, t) in tags {
        if t.tag_id.is_empty() {
            continue;
        }
        let e = seen.entry(&t.tag_id).or_insert((*p, 0));
        e.1 += 1;
    }
    seen.into_iter()
        .filter(|(_, (_, n))| *n > 1)
        .map(|(id, (p, n))| {
            Diagnostic::new(Code::TagDuplicateId, format!("tag id `{id}` occurs {n} times; each occurrence becomes a field with the same id"))
                .page(p)
                .tag(id)
        })
        .collect()
}
