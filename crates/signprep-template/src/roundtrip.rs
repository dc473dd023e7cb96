//! Pairing a template's tags with the tags a scan of its PDF found: each
//! found tag learns where it stands in the template, and each tag of the
//! template the PDF lost is a `template_tag_lost` finding.

use crate::tags::SourceTag;
use crate::template::Template;
use signprep_core::{Code, Diagnostic, Dialects, Scan, SourcePart};
use std::collections::{BTreeMap, VecDeque};

/// A tag's text without white space: how the PDF's text and the template's
/// are compared (a converter may add or drop spaces).
fn key(raw: &str) -> String {
    raw.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Pairs the template's tags that show in the PDF with `scan`'s tags (native
/// with `scan.tags`, vendors' with `scan.vendor_tags`), by their text
/// without white space, each in reading order, and sets each paired tag's
/// `source`; a tag that should not show but the PDF has all the same (a
/// tracked deletion LibreOffice draws struck through) gets its source too. A header's or footer's tag is paired with every copy the pages
/// repeat. A template tag the PDF does not have, or has broken over lines
/// (a `tag_unterminated`, `vendor_tag_split_across_lines` or
/// `vendor_tag_unread` finding, or vendor text that places no field),
/// becomes a `template_tag_lost` finding pushed to `scan.diagnostics`, on
/// the page where the PDF has what is left of it.
pub fn round_trip(template: &Template, dialects: Dialects, scan: &mut Scan) {
    let tags = template.tags(dialects);
    // Scan tags by (vendor?, key), in scan order.
    let mut queues: BTreeMap<(bool, String), VecDeque<usize>> = BTreeMap::new();
    for (i, t) in scan.tags.iter().enumerate() {
        queues.entry((false, key(&t.raw))).or_default().push_back(i);
    }
    for (i, t) in scan.vendor_tags.iter().flatten().enumerate() {
        queues.entry((true, key(&t.raw))).or_default().push_back(i);
    }
    let repeated = |t: &SourceTag| matches!(t.place.part, SourcePart::Header | SourcePart::Footer);
    let mut lost: Vec<Diagnostic> = Vec::new();
    let mut repeats: Vec<(&SourceTag, (bool, String))> = Vec::new();
    // The body's tags first, then those of headers and footers, which the
    // pages repeat; last the tags that should not show (a deletion the
    // converter drew after all), which are lost by no one.
    let shown = |t: &&SourceTag| t.shows_in_pdf;
    let order = tags
        .iter()
        .filter(|t| shown(t) && !repeated(t))
        .chain(tags.iter().filter(|t| shown(t) && repeated(t)))
        .chain(tags.iter().filter(|t| !shown(t)));
    for t in order {
        let k = (t.dialect.is_some(), key(&t.raw));
        match queues.get_mut(&k).and_then(VecDeque::pop_front) {
            Some(i) => {
                set_source(scan, k.0, i, t);
                if repeated(t) {
                    repeats.push((t, k));
                }
            }
            None if t.shows_in_pdf => lost.push(lost_finding(scan, t)),
            None => {}
        }
    }
    for (t, k) in repeats {
        if let Some(q) = queues.get_mut(&k) {
            for i in q.drain(..) {
                set_source(scan, k.0, i, t);
            }
        }
    }
    scan.diagnostics.extend(lost);
}

fn set_source(scan: &mut Scan, vendor: bool, i: usize, t: &SourceTag) {
    if vendor {
        if let Some(v) = scan.vendor_tags.as_mut().and_then(|v| v.get_mut(i)) {
            v.source = Some(t.place.clone());
        }
    } else if let Some(s) = scan.tags.get_mut(i) {
        s.source = Some(t.place.clone());
    }
}

/// The finding for a template tag the scan did not find whole, with the
/// page of what the PDF has of it, where it has something.
fn lost_finding(scan: &Scan, t: &SourceTag) -> Diagnostic {
    let whole = key(&t.raw);
    let id = t.tag_id.as_deref().map(key).filter(|k| !k.is_empty());
    let matches = |written: &str| {
        let k = key(written);
        !k.is_empty()
            && (k == whole
                || id.as_deref() == Some(k.as_str())
                || (k.len() >= 3 && whole.contains(&k)))
    };
    let broken = scan
        .diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                Code::TagUnterminated | Code::VendorTagSplitAcrossLines | Code::VendorTagUnread
            )
        })
        .find(|d| d.tag.as_deref().is_some_and(matches))
        .and_then(|d| d.page)
        .or_else(|| {
            scan.vendor_text()
                .iter()
                .find(|v| matches(&v.raw))
                .map(|v| v.page)
        });
    let place = &t.place;
    let raw = &t.raw;
    let d = match broken {
        Some(page) => Diagnostic::new(
            Code::TemplateTagLost,
            format!(
                "{place}: the tag `{raw}` is broken or wrapped over lines in the converted PDF (page {}), so it places no field",
                page + 1
            ),
        )
        .page(page),
        None => Diagnostic::new(
            Code::TemplateTagLost,
            format!("{place}: the tag `{raw}` is not in the converted PDF, so it places no field"),
        ),
    };
    d.source(place.clone())
        .tag(t.tag_id.clone().unwrap_or_else(|| t.raw.clone()))
}
