//! `migrate --strip`: the copy of a PDF without the text of the tags that
//! became fields (the core's `strip_vendor_tags`), and what it reports.

use super::Migrated;
use crate::codes::{Finding, FindingCode};
use signprep_core::{Code, Diagnostic, Document, Scan, VendorTag};

/// Strips the text of the placed tags, and of the Dropbox Sign definitions
/// (`[def:$name|...]`, which place no field) that a placed reference used,
/// into [`Migrated::stripped`]; what could not be stripped becomes findings,
/// and a removed tag's `vendor_tag_visible` goes (its text no longer shows).
pub(super) fn strip(
    doc: &Document,
    scan: &Scan,
    placed: &[&VendorTag],
    file: &str,
    m: &mut Migrated,
) {
    let all = scan.vendor_tags.as_deref().unwrap_or_default();
    let used: Vec<&String> = placed
        .iter()
        .filter_map(|t| t.attributes.extra.get("reference"))
        .collect();
    let tags: Vec<VendorTag> = all
        .iter()
        .filter(|t| {
            placed.iter().any(|p| std::ptr::eq(*p, *t))
                || (t.attributes.kind == "definition"
                    && t.attributes
                        .extra
                        .get("definition")
                        .is_some_and(|d| used.contains(&d)))
        })
        .cloned()
        .collect();
    let at = "/requests/0/body";
    match signprep_core::strip_vendor_tags(doc, &scan.pages, &tags) {
        Ok(s) => {
            let gone: Vec<(usize, &str)> = tags
                .iter()
                .zip(&s.removed)
                .filter(|(_, r)| **r)
                .map(|(t, _)| (t.page, t.raw.as_str()))
                .collect();
            m.findings.retain(|f| {
                !(f.code == FindingCode::Scan(Code::VendorTagVisible)
                    && f.page
                        .zip(f.tag.as_deref())
                        .is_some_and(|(p, t)| gone.contains(&(p, t))))
            });
            m.findings.extend(s.diagnostics.iter().map(|d| Finding {
                pointer: None,
                ..Finding::from_scan(d, at, file)
            }));
            m.stripped = s.pdf;
        }
        Err(e) => {
            let d = Diagnostic::new(
                Code::StripRefused,
                format!(
                    "no stripped copy: {}; the plan uploads the original, tags included",
                    e.message()
                ),
            );
            m.findings.push(Finding {
                pointer: None,
                ..Finding::from_scan(&d, at, file)
            });
        }
    }
    m.findings.sort_by_key(|f| f.page.unwrap_or(usize::MAX));
}
