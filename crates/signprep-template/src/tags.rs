//! The tags a template's paragraphs hold, found on the text the PDF will
//! show (deleted text out, inserted text in) with the core's grammar
//! ([`signprep_core::find_text_tags`]), each with the spans it is made of.
//! A tag that only a deletion holds is found on the text before the
//! deletion is applied, and shows nowhere.

use crate::model::{Look, Paragraph, Revision, Span, snippet};
use signprep_core::{Dialect, Dialects, SourcePart, SourcePlace, find_text_tags};
use std::ops::Range;

/// A tag in a template: what it says and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SourceTag {
    /// The tag as written, delimiters included.
    pub raw: String,
    /// For a native `<# ID #>` tag, its id (trimmed); `None` for a vendor's.
    pub tag_id: Option<String>,
    /// The vendor whose grammar reads it; `None` for a native tag.
    pub dialect: Option<Dialect>,
    /// Where it stands.
    pub place: SourcePlace,
    /// True when the converted PDF should draw it: false when hidden,
    /// deleted (a tracked deletion), in a comment's text or in a hidden
    /// paragraph. A tag in a text box or in white text is drawn.
    pub shows_in_pdf: bool,
}

/// A tag with what the reader knows of its spans, for the findings.
#[derive(Debug)]
pub(crate) struct Located<'t> {
    pub(crate) tag: SourceTag,
    pub(crate) paragraph: &'t Paragraph,
    /// The looks of the spans the tag is made of, in order.
    pub(crate) looks: Vec<&'t Look>,
    /// A tracked change the tag (or some of it) is in.
    pub(crate) revision: Option<Revision>,
    /// A tracked deletion inside the tag, whose text the tag shows without.
    pub(crate) cut: Option<Revision>,
    /// Some of the tag is in text a comment is anchored to.
    pub(crate) commented: bool,
    /// Hidden: a hidden span or paragraph.
    pub(crate) hidden: bool,
}

/// A paragraph's text with each span's byte range in it.
struct Joined<'t> {
    text: String,
    /// (range in `text`, span)
    pieces: Vec<(Range<usize>, &'t Span)>,
}

impl<'t> Joined<'t> {
    fn new(spans: impl Iterator<Item = &'t Span>) -> Joined<'t> {
        let mut text = String::new();
        let mut pieces = Vec::new();
        for s in spans {
            let start = text.len();
            text.push_str(&s.text);
            pieces.push((start..text.len(), s));
        }
        Joined { text, pieces }
    }

    /// The spans `range` touches.
    fn spans(&self, range: &Range<usize>) -> Vec<&'t Span> {
        let first = self.pieces.partition_point(|(r, _)| r.end <= range.start);
        self.pieces
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|(r, _)| r.start < range.end)
            .map(|(_, s)| *s)
            .collect()
    }
}

/// Every tag of the paragraphs, in reading order.
pub(crate) fn locate<'t>(paragraphs: &'t [Paragraph], dialects: Dialects) -> Vec<Located<'t>> {
    let mut out = Vec::new();
    for p in paragraphs {
        let shown = Joined::new(
            p.spans
                .iter()
                .filter(|s| !s.revision.is_some_and(Revision::removes)),
        );
        // Where removed text sits in the shown text, and its revision.
        let mut cuts: Vec<(usize, Revision)> = Vec::new();
        let mut at = 0;
        for s in &p.spans {
            match s.revision {
                Some(r) if r.removes() => cuts.push((at, r)),
                _ => at += s.text.len(),
            }
        }
        let mut found: Vec<(usize, Located<'t>)> = Vec::new();
        let shown_tags = find_text_tags(&shown.text, dialects);
        for t in &shown_tags {
            let spans = shown.spans(&t.range);
            let cut = cuts
                .iter()
                .find(|(c, _)| t.range.start < *c && *c < t.range.end)
                .map(|(_, r)| *r);
            let revision = spans.iter().find_map(|s| s.revision);
            let hidden = p.hidden || spans.iter().any(|s| s.look.hidden);
            let shows = !hidden && p.part != SourcePart::Comment;
            let mut l = located(p, &shown.text, t, spans, revision, hidden, shows);
            l.cut = cut;
            found.push((t.range.start, l));
        }
        if !cuts.is_empty() {
            let full = Joined::new(p.spans.iter());
            // Shown offset of each full offset: removed text maps to its cut.
            let shown_at = |full_at: usize| -> usize {
                let mut removed = 0;
                for (r, s) in &full.pieces {
                    if r.start >= full_at {
                        break;
                    }
                    if s.revision.is_some_and(Revision::removes) {
                        removed += r.end.min(full_at) - r.start;
                    }
                }
                full_at - removed
            };
            for t in find_text_tags(&full.text, dialects) {
                let spans = full.spans(&t.range);
                let Some(rev) = spans
                    .iter()
                    .filter_map(|s| s.revision)
                    .find(|r| r.removes())
                else {
                    continue;
                };
                let (a, b) = (shown_at(t.range.start), shown_at(t.range.end));
                if shown_tags
                    .iter()
                    .any(|s| s.range.start <= b && a <= s.range.end)
                {
                    continue;
                }
                let hidden = p.hidden || spans.iter().any(|s| s.look.hidden);
                found.push((
                    a,
                    located(p, &full.text, &t, spans, Some(rev), hidden, false),
                ));
            }
            found.sort_by_key(|(a, _)| *a);
        }
        out.extend(found.into_iter().map(|(_, l)| l));
    }
    out
}

fn located<'t>(
    p: &'t Paragraph,
    text: &str,
    t: &signprep_core::TextTag,
    spans: Vec<&'t Span>,
    revision: Option<Revision>,
    hidden: bool,
    shows: bool,
) -> Located<'t> {
    Located {
        tag: SourceTag {
            raw: t.raw.clone(),
            tag_id: t.tag_id.clone(),
            dialect: t.dialect,
            place: p.place_with(snippet(text, t.range.clone())),
            shows_in_pdf: shows && !revision.is_some_and(Revision::removes),
        },
        paragraph: p,
        commented: spans.iter().any(|s| s.commented),
        looks: spans.iter().map(|s| &s.look).collect(),
        revision,
        cut: None,
        hidden,
    }
}
