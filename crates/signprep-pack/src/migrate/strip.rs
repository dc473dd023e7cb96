//! `migrate --strip`: the copy of a PDF without the text of the tags that
//! became fields (the core's `strip_vendor_tags`), and what it reports.

use super::Migrated;
use crate::codes::{Finding, FindingCode};
use signprep_core::{Code, Diagnostic, Document, Scan};

/// Strips the text of every vendor tag the scan read into
/// [`Migrated::stripped`]: the tags that became fields, the Dropbox Sign
/// definitions (`[def:$name|...]`, which place no field) and the tags left out
/// of the request (a kind with no counterpart, a read-only tag), whose syntax
/// would otherwise stay printed on the upload (their findings say what to
/// place by hand), and the vendor syntax that placed no field (an unread
/// `{{…}}`, a tag broken over lines or pages: every piece). What could not be stripped becomes findings, and a removed
/// tag's `vendor_tag_visible` goes (its text no longer shows).
pub(super) fn strip(doc: &Document, scan: &Scan, file: &str, m: &mut Migrated) {
    let tags = scan.vendor_tags.as_deref().unwrap_or_default();
    let at = "/requests/0/body";
    match signprep_core::strip_vendor_tags(doc, &scan.pages, tags, scan.vendor_text()) {
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
