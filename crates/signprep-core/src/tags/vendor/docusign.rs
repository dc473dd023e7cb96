//! DocuSign anchor tabs ("auto-place", anchor tagging).
//!
//! DocuSign has no text-tag grammar: a team's tabs live in its envelope
//! definitions and templates, each tab naming an `anchorString` to look for
//! in the document. This module holds those tabs ([`AnchorTab`], read from
//! the team's JSON by the pack crate) and finds them on a page, with the
//! same lines and glyph boxes as every other dialect. The rules, as DocuSign
//! documents them:
//!
//! - **Every occurrence, every page.** "Docusign searches the document for
//!   instances of an anchorString ... For each found instance, it places a tab
//!   of the specified type for the designated recipient" (eSignature REST API,
//!   *Auto-Place (Anchor Tagging) Tabs*,
//!   developers.docusign.com/docs/esign-rest-api/esign101/concepts/tabs/auto-place).
//!   The text is matched within one line; an anchor is never matched across
//!   a line break.
//! - **Case.** `anchorCaseSensitive`: "when true, the text string in a
//!   document must match the case of the anchorString"; default false (the
//!   tab reference, e.g. *EnvelopeRecipientTabs / signHere*). Older SDK text
//!   words it backwards ("does not consider case ... default true"); signprep
//!   follows the current reference: case-insensitive unless `true`.
//! - **Whole word.** `anchorMatchWholeWord`, default false: "when set to true,
//!   if the input is `man` then `man` will match but `manpower`, `fireman`,
//!   and `penmanship` will not"; punctuation and `$~><|^+=` are not part of
//!   words, dashes separate words, digits are part of words (`-cat-` matches
//!   `cat`, `1cat2` does not), accented letters are distinct letters. A
//!   one-character anchor repeated in a row (`i` in `skiing`) places one tab.
//!   signprep reads a word character as a letter or digit (Unicode), so `_`
//!   is punctuation: `/sn1/____` matches `/sn1/` as a whole word.
//! - **Missing anchors.** `anchorIgnoreIfNotPresent`: "when set to true, this
//!   tab is ignored if anchorString is not found in the document"; otherwise
//!   DocuSign refuses the envelope. signprep reports such a tab
//!   (`vendor_anchor_not_found`) instead of failing the scan: one anchor file
//!   often serves several documents.
//! - **Placement.** `anchorHorizontalAlignment` `left` (default) "aligns the
//!   left side of the tab with the beginning of the first character of the
//!   matching anchor word", `right` "aligns the tab's left side with the last
//!   character"; `anchorXOffset`/`anchorYOffset` move the tab "in anchorUnits
//!   relative to the anchorString", y downwards as every DocuSign position
//!   (top-left origin). DocuSign does not publish the vertical reference point;
//!   signprep takes the top of the anchor text's box. `anchorUnits` is
//!   `pixels` (default), `points`, `inches`, `mms` or `cms`; "Docusign uses 72
//!   DPI when determining position" (`xPosition`), so a pixel is a point.
//!   For sign-here tabs the reference adds: "the tab appears 21 points lower
//!   than the value you provide for the y-coordinate", which signprep applies.
//! - **Size.** `width` and `height` are "in pixels"; sign-here and initial
//!   tabs are not sized by them but by `scaleValue` (0.5 to 2, "Tabs deep
//!   dive: anatomy of a tab", docusign.com/blog/developers). DocuSign publishes
//!   no default size per tab type; signprep's defaults ([`default_size`]) are
//!   its own, and the field box says so by coming from them.
//!
//! The text box of the match is the tag's `x, y, width, height`; where the
//! tab goes is its `field` box.

mod tabs;

use super::{Dialect, FoundVendorTag, problem_diagnostic};
use crate::diag::{Code, Diagnostic};
use crate::tags::{Lines, PageLines, glyphs_of, span};
use tabs::Probe;
pub use tabs::{AnchorTab, AnchorUnits, Anchors, default_size, is_tab_list, tab_list_name};

/// A letter or digit: what `anchorMatchWholeWord` counts as part of a word.
fn word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// Byte ranges of `needle` in `hay`, left to right, not overlapping.
fn occurrences(hay: &str, needle: &str, case_sensitive: bool) -> Vec<(usize, usize)> {
    if needle.is_empty() {
        return Vec::new();
    }
    if case_sensitive {
        return hay
            .match_indices(needle)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
    }
    if needle.is_ascii() {
        // ASCII lower-casing keeps every byte offset.
        let h = hay.to_ascii_lowercase();
        let n = needle.to_ascii_lowercase();
        return h.match_indices(&n).map(|(i, m)| (i, i + m.len())).collect();
    }
    // Unicode: compare lower-cased characters from each character boundary.
    let lower: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    let mut out = Vec::new();
    let mut from = 0;
    for (i, _) in hay.char_indices() {
        if i < from {
            continue;
        }
        let (mut k, mut end) = (0, None);
        'chars: for (j, c) in hay[i..].char_indices() {
            for p in c.to_lowercase() {
                if lower.get(k) != Some(&p) {
                    break 'chars;
                }
                k += 1;
            }
            if k == lower.len() {
                end = Some(i + j + c.len_utf8());
                break;
            }
        }
        if let Some(e) = end {
            out.push((i, e));
            from = e;
        }
    }
    out
}

/// The matches of one tab's anchor in the page's lines, as DocuSign counts them.
fn matches(lines: &Lines, tab: &AnchorTab) -> Vec<(usize, usize)> {
    let text = &lines.text;
    let mut out: Vec<(usize, usize)> = Vec::new();
    let single = tab.anchor.chars().count() == 1;
    for (s, e) in occurrences(text, &tab.anchor, tab.case_sensitive) {
        if tab.whole_word {
            let before = text[..s].chars().next_back();
            let after = text[e..].chars().next();
            let first = tab.anchor.chars().next();
            let last = tab.anchor.chars().next_back();
            // A boundary is needed only where the anchor itself starts or
            // ends with a word character.
            if first.is_some_and(word_char) && before.is_some_and(word_char) {
                continue;
            }
            if last.is_some_and(word_char) && after.is_some_and(word_char) {
                continue;
            }
        }
        // One tab for a one-character anchor repeated in a row.
        if single && out.last().is_some_and(|&(_, pe)| pe == s) {
            if let Some(l) = out.last_mut() {
                l.1 = e;
            }
            continue;
        }
        out.push((s, e));
    }
    out
}

/// Cheap test on the page's raw text (`raw_lower`: lower-cased, when some
/// probe needs it): can the anchor be on this page at all? Lines only add
/// spaces and breaks between glyphs, so each whitespace-free piece of the
/// anchor must be in the raw text.
fn may_contain(raw: &str, raw_lower: Option<&str>, probe: &Probe) -> bool {
    match probe {
        Probe::Never => false,
        Probe::Exact(f) => f.find(raw.as_bytes()).is_some(),
        Probe::Lower(f) => raw_lower.is_some_and(|l| f.find(l.as_bytes()).is_some()),
        Probe::Always => true,
    }
}

/// What one page gave: the tabs found, their findings, and the indices of
/// the tabs whose anchor is on the page.
pub(crate) struct PageAnchors {
    pub(crate) found: Vec<FoundVendorTag>,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) hits: Vec<usize>,
}

/// Finds every anchor of `anchors` on one page.
pub(crate) fn find_anchor_tabs(
    page_index: usize,
    shared: &PageLines<'_>,
    anchors: &Anchors,
) -> PageAnchors {
    let page = shared.page();
    let mut out = PageAnchors {
        found: Vec::new(),
        diags: Vec::new(),
        hits: Vec::new(),
    };
    let lower = anchors
        .probes
        .iter()
        .any(|p| matches!(p, Probe::Lower(_)))
        .then(|| page.text.to_ascii_lowercase());
    let candidates: Vec<usize> = (0..anchors.tabs.len())
        .filter(|&i| {
            anchors
                .probes
                .get(i)
                .is_some_and(|p| may_contain(&page.text, lower.as_deref(), p))
        })
        .collect();
    if candidates.is_empty() {
        return out;
    }
    let lines = shared.get();
    let mut placed: Vec<(usize, usize, FoundVendorTag)> = Vec::new();
    for i in candidates {
        let Some(tab) = anchors.tabs.get(i) else {
            continue;
        };
        let found = matches(lines, tab);
        if found.is_empty() {
            continue;
        }
        out.hits.push(i);
        for (s, e) in found {
            let glyphs = glyphs_of(lines, s, e);
            let Some(sp) = span(page, &glyphs) else {
                continue;
            };
            let last = glyphs
                .last()
                .and_then(|g| page.glyphs.get(*g as usize))
                .map_or(sp.bbox, |g| page.bbox(g));
            let raw = lines.text.get(s..e).unwrap_or_default().to_string();
            let (attrs, problems) = tab.attributes();
            for p in &problems {
                out.diags
                    .push(problem_diagnostic(page_index, Dialect::Docusign, &raw, p));
            }
            if !sp.hidden && !sp.clipped {
                out.diags.push(
                    Diagnostic::new(
                        Code::VendorTagVisible,
                        format!(
                            "page {}: DocuSign anchor `{raw}` is painted visibly; the service does not remove anchor text, so it will show under the placed field",
                            page_index + 1
                        ),
                    )
                    .page(page_index)
                    .tag(raw.clone())
                    .hint("paint the anchor white (or render mode 3) in the source document, or check `signprep preview`"),
                );
            }
            let field = tab.field_box(&sp.bbox, &last);
            placed.push((
                s,
                i,
                FoundVendorTag {
                    dialect: Dialect::Docusign,
                    raw,
                    attrs,
                    bbox: sp.bbox,
                    field: Some(field),
                    font: sp.font,
                    font_size: sp.font_size,
                    hidden: sp.hidden,
                    clipped: sp.clipped,
                },
            ));
        }
    }
    // Line order, then the order of the anchor file.
    placed.sort_by_key(|(s, i, _)| (*s, *i));
    out.found = placed.into_iter().map(|(_, _, t)| t).collect();
    out
}

#[cfg(test)]
mod tests;
