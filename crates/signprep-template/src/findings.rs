//! The findings only a template shows (`template_tag_*`): a tag whose
//! format changes inside it, in a tracked change or a comment, hidden or
//! in a text box, or with typographic look-alikes where its syntax needs
//! plain characters.

use crate::lookalike::{lookup, normalize};
use crate::model::{Look, Paragraph, snippet};
use crate::tags::Located;
use signprep_core::{Code, Diagnostic, Dialects, Severity, SourcePart, find_text_tags};

/// The tag's name in a finding: its id for a native tag, its text else.
fn label(l: &Located<'_>) -> String {
    l.tag.tag_id.clone().unwrap_or_else(|| l.tag.raw.clone())
}

/// Every finding of one located tag.
pub(crate) fn tag_findings(l: &Located<'_>, out: &mut Vec<Diagnostic>) {
    let place = &l.tag.place;
    let raw = &l.tag.raw;
    let d = |code: Code, msg: String| {
        Diagnostic::new(code, msg)
            .source(place.clone())
            .tag(label(l))
    };

    let mut changes: Vec<&str> = Vec::new();
    if let Some(first) = l.looks.first() {
        for other in l.looks.iter().skip(1) {
            for what in first.differences(other) {
                if !changes.contains(&what) {
                    changes.push(what);
                }
            }
        }
    }
    if !changes.is_empty() {
        out.push(d(
            Code::TemplateTagFormatChanges,
            format!(
                "{place}: the {} changes inside the tag `{raw}`; the PDF draws it in pieces",
                list(&changes)
            ),
        ));
    }

    if l.paragraph.part == SourcePart::Comment {
        out.push(d(
            Code::TemplateTagInRevision,
            format!("{place}: the tag `{raw}` is in a comment; comments are not part of the PDF"),
        ));
    } else if let Some(r) = l.revision {
        out.push(d(
            Code::TemplateTagInRevision,
            format!(
                "{place}: the tag `{raw}` is in {} that is not accepted; accept or reject it",
                r.words()
            ),
        ));
    } else if let Some(r) = l.cut {
        out.push(d(
            Code::TemplateTagInRevision,
            format!(
                "{place}: the tag `{raw}` has text of {} inside it that is not accepted; the template reads `{raw}` once it is, and the PDF may draw the deleted text too",
                r.words()
            ),
        ));
    } else if l.commented {
        out.push(d(
            Code::TemplateTagInRevision,
            format!("{place}: the tag `{raw}` is in text a comment is anchored to; move the comment off the tag"),
        ));
    }

    if l.hidden {
        let why = if l.paragraph.hidden {
            "in a hidden paragraph or section"
        } else {
            "hidden text"
        };
        out.push(d(
            Code::TemplateTagHidden,
            format!("{place}: the tag `{raw}` is {why}; the PDF does not draw it"),
        ));
    } else if l.paragraph.part == SourcePart::TextBox {
        out.push(d(
            Code::TemplateTagHidden,
            format!("{place}: the tag `{raw}` is in a text box, which a conversion may drop or move; put it in the body or a table cell"),
        ));
    } else if !l.looks.is_empty() && l.looks.iter().all(|k| k.is_white()) {
        let mut f = d(
            Code::TemplateTagHidden,
            format!(
                "{place}: the tag `{raw}` is white text: drawn, but not seen (the documented way to hide a tag)"
            ),
        );
        f.severity = Severity::Info;
        out.push(f);
    } else if !l.looks.is_empty() && l.looks.iter().all(|k| Look::is_tiny(k)) {
        let mut f = d(
            Code::TemplateTagHidden,
            format!("{place}: the tag `{raw}` is set in 2 pt or less: drawn, but hardly seen"),
        );
        f.severity = Severity::Info;
        out.push(f);
    }
}

fn list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A right single quotation mark between two letters is an apostrophe.
fn apostrophe(text: &str, at: usize, ch: char) -> bool {
    ch == '\u{2019}'
        && text
            .get(..at)
            .and_then(|t| t.chars().next_back())
            .is_some_and(char::is_alphanumeric)
        && text
            .get(at + ch.len_utf8()..)
            .and_then(|t| t.chars().next())
            .is_some_and(char::is_alphanumeric)
}

/// `template_tag_autocorrected` for one paragraph: each tag, or near-tag,
/// that reads as a tag once its look-alikes are made plain.
pub(crate) fn autocorrected(p: &Paragraph, dialects: Dialects, out: &mut Vec<Diagnostic>) {
    let text = p.text();
    if text.is_ascii() {
        return;
    }
    let (plain, origin) = normalize(&text);
    for t in find_text_tags(&plain, dialects) {
        let (Some(&a), Some(&b)) = (origin.get(t.range.start), origin.get(t.range.end)) else {
            continue;
        };
        let Some(written) = text.get(a..b) else {
            continue;
        };
        let mut found = Vec::new();
        for (k, (i, ch)) in written.char_indices().enumerate() {
            let Some(l) = lookup(ch) else {
                continue;
            };
            if apostrophe(&text, a + i, ch) && !written.contains('\u{2018}') {
                continue;
            }
            found.push(format!(
                "U+{:04X} {} at character {} (should be {})",
                u32::from(ch),
                l.name,
                k + 1,
                if l.plain.is_empty() {
                    "nothing".to_string()
                } else {
                    format!("`{}`", l.plain)
                }
            ));
        }
        if found.is_empty() {
            continue;
        }
        let place = p.place_with(snippet(&text, a..b));
        let n = found.len();
        let shown: Vec<String> = found.into_iter().take(4).collect();
        let more = if n > 4 {
            format!(" and {} more", n - 4)
        } else {
            String::new()
        };
        out.push(
            Diagnostic::new(
                Code::TemplateTagAutocorrected,
                format!(
                    "{place}: `{written}` has {}{more} where the tag's syntax needs plain characters; it should read `{}`",
                    shown.join(", "),
                    t.raw
                ),
            )
            .source(place)
            .tag(t.tag_id.unwrap_or(t.raw))
            .hint("retype the tag with AutoCorrect's smart quotes and dashes off"),
        );
    }
}
