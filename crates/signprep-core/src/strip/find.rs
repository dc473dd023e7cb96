//! Finding a tag's glyphs again on its page: its text on one line, or wrapped
//! over two (or more) lines of the page, or begun at the foot of its page and
//! ended at the top of the next, as `tags/vendor/resolve.rs` joins them.

use crate::content::{PageText, Trace};
use crate::scan::VendorPiece;
use crate::tags::{Lines, build_lines, glyphs_of, span};
use std::collections::{BTreeMap, BTreeSet};

/// What to look for: a tag's text on its page and, for a tag a scan placed,
/// the top-left corner of its first line's text (page-stacked pixels) with
/// how far from it an occurrence may start.
#[derive(Clone, Copy, Debug)]
pub(super) struct Target<'t> {
    pub(super) page: usize,
    pub(super) raw: &'t str,
    pub(super) at: Option<(f64, f64, f64)>,
    /// A text broken over lines, each line's piece where the scan read it
    /// (its lines need not follow each other in the page's text): looked
    /// for piece by piece. Empty: `raw` is looked for as a whole.
    pub(super) pieces: &'t [VendorPiece],
}

/// One page's lines, built when a target on it (or wrapped onto it) asks.
struct PageLines {
    lines: Lines,
    /// The text with each line break as a space (same byte offsets).
    flat: String,
    /// The text without its line breaks, and each of its bytes' offset in it.
    joined: String,
    map: Vec<usize>,
}

impl PageLines {
    fn new(text: &PageText) -> Self {
        let lines = build_lines(text);
        let flat = lines.text.replace('\n', " ");
        let mut joined = String::with_capacity(lines.text.len());
        let mut map = Vec::with_capacity(lines.text.len());
        for (i, c) in lines.text.char_indices() {
            if c != '\n' {
                joined.push(c);
                map.extend(i..i + c.len_utf8());
            }
        }
        Self {
            lines,
            flat,
            joined,
            map,
        }
    }

    /// The line pieces (byte ranges of `lines.text`, no line break in any)
    /// that `start..end` covers.
    fn pieces(&self, start: usize, end: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut from = start;
        let whole = self.lines.text.get(start..end).unwrap_or_default();
        for (k, _) in whole.match_indices('\n') {
            out.push((from, start + k));
            from = start + k + 1;
        }
        out.push((from, end));
        out
    }
}

/// Each page's lines, built once.
pub(super) struct Finder<'p> {
    traced: &'p [(PageText, Trace)],
    pages: BTreeMap<usize, PageLines>,
    used: BTreeSet<(usize, u32)>,
}

/// The glyphs of one occurrence, by page, and its first line's glyphs.
type Occurrence = (Vec<(usize, u32)>, Vec<u32>);

impl<'p> Finder<'p> {
    pub(super) fn new(traced: &'p [(PageText, Trace)]) -> Self {
        Self {
            traced,
            pages: BTreeMap::new(),
            used: BTreeSet::new(),
        }
    }

    fn page(&mut self, p: usize) -> Option<&PageLines> {
        let (text, _) = self.traced.get(p)?;
        Some(self.pages.entry(p).or_insert_with(|| PageLines::new(text)))
    }

    /// The glyphs (page, index) of the occurrence of `t.raw` nearest its
    /// corner (the first one on the page when it has none) that no earlier
    /// target took; `scale` gives a page's pixels per unit and offset.
    pub(super) fn find(
        &mut self,
        t: &Target<'_>,
        scale: impl Fn(usize) -> (f64, f64),
    ) -> Option<Vec<(usize, u32)>> {
        if !t.pieces.is_empty() {
            return self.find_pieces(t.pieces, &scale);
        }
        let within = self.within(t.page, t.raw);
        let glyphs = match self.pick(within, t, &scale) {
            Some(g) => g,
            None => {
                let across = self.across_pages(t.page, t.raw);
                self.pick(across, t, &scale)?
            }
        };
        self.used.extend(glyphs.iter().copied());
        Some(glyphs)
    }

    /// Each piece at its place (the occurrence of its text on its page
    /// nearest its corner, no glyph of it taken before); `None` unless all
    /// are found.
    fn find_pieces(
        &mut self,
        pieces: &[VendorPiece],
        scale: &impl Fn(usize) -> (f64, f64),
    ) -> Option<Vec<(usize, u32)>> {
        let mut all: Vec<(usize, u32)> = Vec::new();
        for piece in pieces {
            let text = piece.text.as_str();
            if text.is_empty() {
                continue;
            }
            let occurrences: Vec<Occurrence> = match self.page(piece.page) {
                Some(pl) => pl
                    .flat
                    .match_indices(text)
                    .map(|(start, _)| occurrence(piece.page, pl, &[(start, start + text.len())]))
                    .collect(),
                None => return None,
            };
            let target = Target {
                page: piece.page,
                raw: text,
                at: piece.at.map(|(x, y)| (x, y, (piece.height / 2.0).max(1.0))),
                pieces: &[],
            };
            let glyphs = self.pick(occurrences, &target, scale)?;
            self.used.extend(glyphs.iter().copied());
            all.extend(glyphs);
        }
        (!all.is_empty()).then_some(all)
    }

    /// The occurrence nearest the target's corner, or the first.
    fn pick(
        &self,
        occurrences: Vec<Occurrence>,
        t: &Target<'_>,
        scale: &impl Fn(usize) -> (f64, f64),
    ) -> Option<Vec<(usize, u32)>> {
        let (text, _) = self.traced.get(t.page)?;
        let (f, off) = scale(t.page);
        let mut best: Option<(f64, Vec<(usize, u32)>)> = None;
        for (glyphs, first) in occurrences {
            if glyphs.is_empty() || glyphs.iter().any(|g| self.used.contains(g)) {
                continue;
            }
            let Some((x, y, tolerance)) = t.at else {
                return Some(glyphs);
            };
            let Some(s) = span(text, &first) else {
                continue;
            };
            let (gx, gy, _, _) = s.bbox.stacked(f, off);
            let d = (gx - x).abs() + (gy - y).abs();
            if d <= tolerance && best.as_ref().is_none_or(|(b, _)| d < *b) {
                best = Some((d, glyphs));
            }
        }
        best.map(|(_, g)| g)
    }

    /// Occurrences on page `p`: on one line (a line break read as a space,
    /// as the lines are matched), or wrapped (its line breaks read as nothing).
    fn within(&mut self, p: usize, raw: &str) -> Vec<Occurrence> {
        let Some(pl) = self.page(p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        for (start, _) in pl.flat.match_indices(raw) {
            let end = start + raw.len();
            seen.insert(start);
            out.push(occurrence(p, pl, &pl.pieces(start, end)));
        }
        for (js, _) in pl.joined.match_indices(raw) {
            let (Some(&start), Some(&last)) = (pl.map.get(js), pl.map.get(js + raw.len() - 1))
            else {
                continue;
            };
            if seen.contains(&start) {
                continue;
            }
            let end = last + 1;
            out.push(occurrence(p, pl, &pl.pieces(start, end)));
        }
        out.sort_by_key(|(g, _)| g.first().copied());
        out
    }

    /// Occurrences begun at the end of a line of page `p` and ended at the
    /// start of a line of page `p + 1`.
    fn across_pages(&mut self, p: usize, raw: &str) -> Vec<Occurrence> {
        let mut heads = Vec::new();
        if let Some(pl) = self.page(p) {
            let text = pl.lines.text.as_str();
            let mut line_start = 0;
            for line_end in text
                .match_indices('\n')
                .map(|(k, _)| k)
                .chain(std::iter::once(text.len()))
            {
                let line = text.get(line_start..line_end).unwrap_or_default();
                for (i, _) in line.char_indices() {
                    let tail = line.get(i..).unwrap_or_default();
                    if tail.len() < raw.len() && raw.starts_with(tail) {
                        heads.push((line_start + i, line_end));
                    }
                }
                line_start = line_end + 1;
            }
        }
        let mut out = Vec::new();
        for (a, b) in heads {
            let Some(rest) = raw.get(b - a..) else {
                continue;
            };
            let first = match self.page(p) {
                Some(pl) => glyphs_of(&pl.lines, a, b),
                None => continue,
            };
            let Some(next) = self.page(p + 1) else {
                continue;
            };
            let text = next.lines.text.as_str();
            let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(k, _)| k + 1));
            for s in starts {
                if text.get(s..).is_some_and(|t| t.starts_with(rest)) {
                    let mut glyphs: Vec<(usize, u32)> = first.iter().map(|&g| (p, g)).collect();
                    glyphs.extend(
                        glyphs_of(&next.lines, s, s + rest.len())
                            .into_iter()
                            .map(|g| (p + 1, g)),
                    );
                    glyphs.dedup();
                    out.push((glyphs, first.clone()));
                }
            }
        }
        out
    }
}

/// The glyphs of `pieces` of page `p`, and those of its first piece.
fn occurrence(p: usize, pl: &PageLines, pieces: &[(usize, usize)]) -> Occurrence {
    let mut glyphs: Vec<(usize, u32)> = Vec::new();
    let mut first = Vec::new();
    for (k, &(a, b)) in pieces.iter().enumerate() {
        let g = glyphs_of(&pl.lines, a, b);
        if k == 0 {
            first.clone_from(&g);
        }
        glyphs.extend(g.into_iter().map(|g| (p, g)));
    }
    glyphs.dedup();
    first.dedup();
    (glyphs, first)
}
