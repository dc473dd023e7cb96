//! Tags in plain text, with no page behind it: the native `<# ID #>` and the
//! requested vendors' tags, found with the same grammar code a scan uses
//! ([`crate::tags`]'s lexer, this module's candidates and claims). For readers
//! of a source the PDF is made from (a Word or OpenDocument template), which
//! have text and no glyphs.

use super::{Delim, Dialect, Dialects, candidates, claims, contenders};
use crate::tags::lexer::find_matches;
use std::ops::Range;

/// One tag found in a text by [`find_text_tags`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextTag {
    /// Whose grammar reads it: `None` for the native `<# ID #>`.
    pub dialect: Option<Dialect>,
    /// Byte range of the tag in the text, delimiters included.
    pub range: Range<usize>,
    /// The tag as written, delimiters included.
    pub raw: String,
    /// For a native tag, the id between `<#` and `#>`, trimmed.
    pub tag_id: Option<String>,
}

/// Every native tag (`<#\s*([^#<>]*?)\s*#>`, as a scan matches it) and every
/// tag of the requested `dialects` in `text`, ordered by where it starts.
///
/// A vendor candidate (`{{…}}`, `[…]`, `{…}`, `[[…]]` on one line) is read
/// by the first requested dialect whose grammar claims it, most specific
/// first, as a page's candidates are; a candidate no requested dialect
/// claims is left out. Unlike a scan, the text is judged alone: no
/// per-document choice of vendor, no tags wrapped over lines joined.
pub fn find_text_tags(text: &str, dialects: Dialects) -> Vec<TextTag> {
    let mut out: Vec<TextTag> = find_matches(text)
        .matches
        .into_iter()
        .map(|m| TextTag {
            dialect: None,
            range: m.start..m.end,
            raw: text.get(m.start..m.end).unwrap_or_default().to_string(),
            tag_id: Some(m.id(text).to_string()),
        })
        .collect();
    if !dialects.is_empty() {
        for delim in [
            Delim::DoubleBrace,
            Delim::Brace,
            Delim::Bracket,
            Delim::DoubleBracket,
        ] {
            for c in candidates(text, delim) {
                let Some(raw) = text.get(c.start..c.end) else {
                    continue;
                };
                let inner = raw
                    .get(delim.open().len()..raw.len().saturating_sub(delim.close().len()))
                    .unwrap_or_default()
                    .trim();
                let chosen = contenders(delim, inner)
                    .into_iter()
                    .find(|d| dialects.contains(*d) && claims(*d, inner));
                if let Some(d) = chosen {
                    out.push(TextTag {
                        dialect: Some(d),
                        range: c.start..c.end,
                        raw: raw.to_string(),
                        tag_id: None,
                    });
                }
            }
        }
    }
    out.sort_by_key(|t| (t.range.start, t.range.end));
    // Delimiters nest (`[[…]]` holds a `[…]`): the first, longest, stays.
    let mut end = 0;
    out.retain(|t| {
        let keep = t.range.start >= end;
        if keep {
            end = t.range.end;
        }
        keep
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_and_vendor_tags_in_order() {
        let ds = Dialects::parse("adobe,dropbox").unwrap_or_default();
        let found = find_text_tags("x <# SIG_1 #> then {{Sig_es_:signer1:signature}}", ds);
        let raws: Vec<&str> = found.iter().map(|t| t.raw.as_str()).collect();
        assert_eq!(raws, ["<# SIG_1 #>", "{{Sig_es_:signer1:signature}}"]);
        assert_eq!(found[0].tag_id.as_deref(), Some("SIG_1"));
        assert_eq!(found[1].dialect, Some(Dialect::Adobe));
    }

    #[test]
    fn no_dialect_reads_native_tags_only() {
        let found = find_text_tags("[sig|req|signer1] <#A#>", Dialects::NONE);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].range, 18..23);
    }
}
