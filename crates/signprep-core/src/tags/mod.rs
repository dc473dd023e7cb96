//! Finding `<# TAG_ID #>` in positioned glyphs.
//!
//! Glyphs are taken in content-stream order and grouped into lines (same
//! direction, same baseline, no backwards jump). A gap wider than a quarter em
//! without a space glyph reads as one space. The lines of a page are joined with
//! `\n` and searched for `<#\s*([^#<>]*?)\s*#>`, the pattern the service uses; a
//! match that spans two lines is a wrapped tag, which the service ignores.
//!
//! # Which `<#` that never closes is a finding
//!
//! The service reads a tag only where its pattern matches on one line, so a
//! `<#` without `#>` is only worth an error (`tag_unterminated`) when an author
//! could have typed it as a tag: the rule is [`lexer::typed_as_tag`], judged on
//! the text after the `<#` on its line:
//!
//! * a space, then an id-like run (a letter, digit or `_`, then those and `-`
//!   or `.`; not a plain lower-case word) ending at a space, at `#`, `<`, `>`
//!   or at the end of the line: `<# SIG_1`, `<# NOT_CLOSED and text # >`;
//! * or an id-like run straight after the `<#`, then a `#` or the end of the
//!   line: `<#SIG_1#`, `<#SIG_1 # >`, `<#SIG_1`.
//!
//! A match that spans lines is a wrapped tag (`tag_unterminated`) when its
//! first line passes the same test (or ends at the `<#`) and its id holds only
//! words of id characters ([`lexer::wrapped_tag`]): `<# BROKEN_` / `TAG #>`.
//!
//! Anything else is text, not a tag attempt, and gets no tag finding:
//! punctuation right after the `<#` or cutting its first word short
//! (`<#3’4%56#`), or prose (`<#   and later   #`). Such text is most often
//! misread: a font whose codes have no Unicode mapping, or whose text is a
//! guess (an embedded TrueType program without `/ToUnicode`, see
//! `fonts::Guess`), turns a figure label into `<#3’4%56#`. When a glyph of the
//! `<#` or of the text after it is such a glyph, the scan says so once per
//! font, as a `text_unmappable` warning naming the font and what it read
//! ([`Unmappable`]); text in a font read reliably gets no finding at all.

mod lexer;
pub(crate) mod vendor;

use crate::content::PageText;
use crate::diag::{Code, Diagnostic};
use crate::geometry::Rect;
use lexer::{Unclosed, find_matches, wrapped_tag};
use std::cell::OnceCell;

/// Sentinel in the owner map: a character that no glyph drew (gap, line break).
const NO_GLYPH: u32 = u32::MAX;

/// A tag found on a page, before scaling to output units.
#[derive(Clone, Debug)]
pub(crate) struct FoundTag {
    pub(crate) raw: String,
    pub(crate) tag_id: String,
    /// Box in displayed user-space units.
    pub(crate) bbox: Rect,
    pub(crate) font: String,
    pub(crate) font_size: f64,
    pub(crate) hidden: bool,
    pub(crate) vertical: bool,
    pub(crate) proportional: bool,
    pub(crate) line_unmappable: bool,
}

/// Text read around a `<#` that is no tag attempt, set in a font without a
/// usable Unicode mapping: reported once per font (`text_unmappable`).
#[derive(Clone, Debug)]
pub(crate) struct Unmappable {
    /// The font's name, without a subset prefix.
    pub(crate) font: String,
    /// Why the font's text is unusable, to follow "font `NAME` ".
    pub(crate) why: &'static str,
    /// What was read: the `<#` and the rest of its line, up to 40 characters.
    pub(crate) text: String,
}

/// What one page holds of tags: the tags, the tag findings, and the
/// misread text around `<#` that is no tag ([`Unmappable`]).
#[derive(Debug, Default)]
pub(crate) struct PageTags {
    pub(crate) tags: Vec<FoundTag>,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) unmappable: Vec<Unmappable>,
}

/// The page's text as lines, with each byte's glyph.
pub(crate) struct Lines {
    pub(crate) text: String,
    /// For each byte of `text`, the glyph index that drew it, or [`NO_GLYPH`].
    pub(crate) owner: Vec<u32>,
    /// For each byte, its line number.
    pub(crate) line_of: Vec<u32>,
    /// Per line: any glyph without a Unicode mapping.
    pub(crate) unmapped: Vec<bool>,
}

/// The line being built: its direction, a point on its baseline, the end of
/// the last glyph, and whether that glyph was a space.
#[derive(Clone, Copy)]
struct LineState {
    dir: (f64, f64),
    base: (f64, f64),
    end: (f64, f64),
    prev_space: bool,
}

/// Direction of a glyph's advance, as a unit vector.
fn direction(origin: (f64, f64), end: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (end.0 - origin.0, end.1 - origin.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len > 1e-9 {
        (dx / len, dy / len)
    } else {
        (1.0, 0.0)
    }
}

/// A page's lines, built on first use and then shared by whatever reads
/// tags on the page: the native tags, the vendor dialects, DocuSign anchors.
/// Building them is most of the work of reading tags, so a scan with
/// `--dialect` builds them once, not once per reader.
pub(crate) struct PageLines<'p> {
    page: &'p PageText,
    lines: OnceCell<Lines>,
}

impl<'p> PageLines<'p> {
    /// Lines of `page`, not built yet.
    pub(crate) fn new(page: &'p PageText) -> Self {
        PageLines {
            page,
            lines: OnceCell::new(),
        }
    }

    /// The page whose lines these are.
    pub(crate) fn page(&self) -> &'p PageText {
        self.page
    }

    /// The lines, built on the first call.
    pub(crate) fn get(&self) -> &Lines {
        self.lines.get_or_init(|| build_lines(self.page))
    }
}

/// Groups glyphs into lines and joins them.
pub(crate) fn build_lines(page: &PageText) -> Lines {
    let mut lines = Lines {
        text: String::with_capacity(page.text.len() + page.glyphs.len() / 8),
        owner: Vec::with_capacity(page.text.len() + 16),
        line_of: Vec::with_capacity(page.text.len() + 16),
        unmapped: vec![false],
    };
    let mut line: u32 = 0;
    let mut cur: Option<LineState> = None;
    let push = |lines: &mut Lines, s: &str, owner: u32, line: u32| {
        lines.text.push_str(s);
        lines.owner.extend(std::iter::repeat_n(owner, s.len()));
        lines.line_of.extend(std::iter::repeat_n(line, s.len()));
    };
    for (i, g) in page.glyphs.iter().enumerate() {
        let text = page.glyph_text(g);
        let (origin, end, size) = page.placement(g);
        let dir = direction(origin, end);
        let size = f64::from(size).max(0.1);
        let is_space = text.chars().all(char::is_whitespace) && !text.is_empty();
        let mut gap_space = false;
        let same_line = match cur {
            None => true,
            Some(LineState {
                dir: d,
                base,
                end,
                prev_space,
            }) => {
                let parallel = d.0 * dir.0 + d.1 * dir.1 > 0.995;
                // Perpendicular distance of this origin from the line's baseline.
                let (ox, oy) = (origin.0 - base.0, origin.1 - base.1);
                let perp = (ox * d.1 - oy * d.0).abs();
                // Distance along the line from the previous glyph's end.
                let along = (origin.0 - end.0) * d.0 + (origin.1 - end.1) * d.1;
                let ok = parallel && perp < 0.35 * size && along > -0.5 * size;
                if ok && along > 0.25 * size && !prev_space && !is_space {
                    gap_space = true;
                }
                ok
            }
        };
        if !same_line {
            line += 1;
            lines.unmapped.push(false);
            push(&mut lines, "\n", NO_GLYPH, line);
            cur = None;
        }
        if gap_space {
            push(&mut lines, " ", NO_GLYPH, line);
        }
        if !g.mapped
            && let Some(u) = lines.unmapped.last_mut()
        {
            *u = true;
        }
        push(&mut lines, text, i as u32, line);
        cur = Some(match cur {
            Some(l) => LineState {
                end,
                prev_space: is_space,
                ..l
            },
            None => LineState {
                dir,
                base: origin,
                end,
                prev_space: is_space,
            },
        });
    }
    lines
}

/// What the glyphs of one match have in common: the box, the first glyph's
/// box, the font and size of the first glyph, and how they are painted.
pub(crate) struct Span {
    /// Union of the glyph boxes, displayed user-space units.
    pub(crate) bbox: Rect,
    /// The first glyph's box.
    pub(crate) first: Rect,
    pub(crate) font: String,
    pub(crate) font_size: f64,
    /// Every glyph is painted invisibly.
    pub(crate) hidden: bool,
    /// Every glyph lies outside the clip box it was shown under.
    pub(crate) clipped: bool,
    /// The text runs vertically on the displayed page.
    pub(crate) vertical: bool,
    /// The glyph widths differ (a proportional font).
    pub(crate) proportional: bool,
}

/// The glyphs owning the bytes `start..end` of the lines' text, in order.
pub(crate) fn glyphs_of(lines: &Lines, start: usize, end: usize) -> Vec<u32> {
    lines
        .owner
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|&o| o != NO_GLYPH)
        .collect()
}

/// Measures a run of glyphs; `None` when none of them drew anything.
pub(crate) fn span(page: &PageText, glyphs: &[u32]) -> Option<Span> {
    let first_glyph = page.glyphs.get(*glyphs.first()? as usize)?;
    let first = page.bbox(first_glyph);
    let mut bbox = first;
    let mut hidden = true;
    let mut clipped = true;
    let mut max_w = 0.0f32;
    let mut min_w = f32::INFINITY;
    for &gi in glyphs {
        if let Some(g) = page.glyphs.get(gi as usize) {
            bbox = bbox.union(&page.bbox(g));
            hidden &= page.hidden(g);
            clipped &= page.clipped(g);
            max_w = max_w.max(g.width);
            min_w = min_w.min(g.width);
        }
    }
    let (origin, end, _) = page.placement(first_glyph);
    let dir = direction(origin, end);
    Some(Span {
        bbox,
        first,
        font: page
            .font(first_glyph)
            .map(|f| f.name.clone())
            .unwrap_or_default(),
        font_size: f64::from(page.size(first_glyph)),
        hidden,
        clipped,
        vertical: dir.1.abs() > dir.0.abs(),
        proportional: max_w > 0.0 && (max_w - min_w) > 0.01 * max_w,
    })
}

/// The `<#` at `start` and the rest of its line, up to 40 characters.
fn line_from(text: &str, start: usize) -> String {
    text.get(start..)
        .unwrap_or_default()
        .chars()
        .take_while(|&c| c != '\n')
        .take(40)
        .collect()
}

/// The first glyph of the `<#` at `start` and the text after it (to `end`)
/// that has no usable Unicode mapping, as the font it is set in.
fn unmappable_at(page: &PageText, lines: &Lines, start: usize, end: usize) -> Option<Unmappable> {
    glyphs_of(lines, start, end).into_iter().find_map(|gi| {
        let g = page.glyphs.get(gi as usize)?;
        let font = page.font(g);
        let why = if !g.mapped {
            "has codes without a Unicode mapping (no /ToUnicode entry, no known glyph name)"
        } else {
            font?.guess?.describe()
        };
        Some(Unmappable {
            font: font.map(|f| f.name.clone()).unwrap_or_default(),
            why,
            text: line_from(&lines.text, start),
        })
    })
}

/// Finds the tags of one page; wrapped and unterminated tags become
/// diagnostics, and misread text around a `<#` that is no tag is noted.
pub(crate) fn find_page_tags(page_index: usize, page: &PageText) -> PageTags {
    find_page_tags_in(page_index, &PageLines::new(page))
}

/// [`find_page_tags`] on lines shared with the page's other readers.
pub(crate) fn find_page_tags_in(page_index: usize, shared: &PageLines<'_>) -> PageTags {
    let page = shared.page();
    // Lines only add spaces and breaks between glyphs, so a page whose raw text
    // has no `<#` has none in its lines either: most pages stop here.
    if !page.text.contains("<#") {
        return PageTags::default();
    }
    let lines = shared.get();
    let scan = find_matches(&lines.text);
    let mut tags = Vec::new();
    let mut diags = Vec::new();
    let mut unmappable = Vec::new();
    let p = page_index + 1;
    for m in &scan.matches {
        let raw = &lines.text[m.start..m.end];
        let glyphs = glyphs_of(lines, m.start, m.end);
        let first_line = lines.line_of.get(m.start).copied().unwrap_or(0);
        let last_line = lines
            .line_of
            .get(m.end.saturating_sub(1))
            .copied()
            .unwrap_or(0);
        if first_line != last_line && !wrapped_tag(&lines.text, m) {
            let head_end = lines.text[m.start..m.end]
                .find('\n')
                .map_or(m.end, |i| m.start + i);
            unmappable.extend(unmappable_at(page, lines, m.start, head_end));
            continue;
        }
        if first_line != last_line {
            let (head, tail) = raw.split_once('\n').unwrap_or((raw, ""));
            let tail = tail.rsplit('\n').next().unwrap_or(tail);
            diags.push(
                Diagnostic::new(
                    Code::TagUnterminated,
                    format!(
                        "page {p}: tag `{}` is broken across lines: `{}` ends one line and `{}` starts the next; the service ignores it",
                        raw.split_whitespace().collect::<Vec<_>>().join(" "),
                        head.trim(),
                        tail.trim()
                    ),
                )
                .page(page_index)
                .tag(m.id(&lines.text).split_whitespace().collect::<Vec<_>>().join(" "))
                .hint("keep the whole tag on one line: shorten it, widen the column or use a smaller font"),
            );
            continue;
        }
        let Some(span) = span(page, &glyphs) else {
            continue;
        };
        tags.push(FoundTag {
            raw: raw.to_string(),
            tag_id: m.id(&lines.text).to_string(),
            bbox: span.bbox,
            font: span.font,
            font_size: span.font_size,
            hidden: span.hidden,
            vertical: span.vertical,
            proportional: span.proportional,
            line_unmappable: lines
                .unmapped
                .get(first_line as usize)
                .copied()
                .unwrap_or(false),
        });
    }
    for &start in &scan.stray {
        let end = start + line_from(&lines.text, start).len();
        unmappable.extend(unmappable_at(page, lines, start, end));
    }
    for &(start, why) in &scan.unterminated {
        let rest = line_from(&lines.text, start);
        let next: String = lines.text[start..]
            .split('\n')
            .nth(1)
            .unwrap_or("")
            .chars()
            .take(40)
            .collect();
        // Wrapped: the next line closes the tag before anything else could open one.
        let continues = next
            .find(['#', '<', '>'])
            .is_some_and(|i| next[i..].starts_with("#>"));
        let mut msg = match why {
            Unclosed::LineEnds => format!(
                "page {p}: `{}` opens a tag that is not closed by `#>` on its line",
                rest.trim_end()
            ),
            Unclosed::BadClose => format!(
                "page {p}: `{}` opens a tag whose close is not `#>` (a `#` not directly followed by `>`)",
                rest.trim_end()
            ),
        };
        if continues {
            msg.push_str(&format!(
                "; the next line holds `{}`, so the tag was probably wrapped",
                next.trim()
            ));
        }
        let id = rest.trim_start_matches("<#").trim().to_string();
        diags.push(
            Diagnostic::new(Code::TagUnterminated, msg)
                .page(page_index)
                .tag(id)
                .hint("close the tag with `#>` on the same line"),
        );
    }
    PageTags {
        tags,
        diags,
        unmappable,
    }
}
