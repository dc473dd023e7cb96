//! Vendor tags wrapped over lines: their pieces paired by column and page.
//!
//! A page's lines are cut into *segments* where a gap wider than an em
//! separates two glyphs (the cells of a table row drawn on one baseline, a
//! form's label and its tab-stopped field). A segment whose last open has no
//! close after it is a tag's *head*; one whose first close has no open before
//! it is a *tail*; one with neither delimiter is a possible middle. A head
//! goes on in the nearest segment below it that overlaps its column
//! (horizontally, within 2.5 line heights): a tail ends the tag, a plain
//! segment of one word is a middle and the tag goes on below that one (a tag
//! over three lines or more, five at most), anything else ends the search
//! with the head unpaired. A
//! head with nothing below it in its column stands at the foot of its page;
//! a tail with nothing above it in its column begins its page: the two are
//! paired across the page break by column ([`Loose`]). Text order plays no
//! part: a table drawn row by row across its columns pairs as one drawn cell
//! by cell.

use super::{Delim, single};
use crate::content::PageText;
use crate::tags::{Lines, NO_GLYPH};

/// Pieces of a tag: byte ranges of the page's lines, in reading order.
pub(super) type Pieces = Vec<(usize, usize)>;

/// A run of a line's glyphs with no gap wider than an em, and its box
/// (displayed page coordinates, y down).
#[derive(Clone, Copy, Debug)]
pub(super) struct Segment {
    start: usize,
    end: usize,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Segment {
    fn height(&self) -> f64 {
        (self.y1 - self.y0).max(0.1)
    }

    fn middle(&self) -> f64 {
        (self.y0 + self.y1) / 2.0
    }

    fn overlap(&self, column: (f64, f64)) -> f64 {
        self.x1.min(column.1) - self.x0.max(column.0)
    }
}

/// The segments of a page's lines, in text order.
pub(super) fn segments(page: &PageText, lines: &Lines) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut cur: Option<Segment> = None;
    let text = lines.text.as_str();
    for (i, c) in text.char_indices() {
        if c == '\n' {
            out.extend(cur.take());
            continue;
        }
        let owner = lines.owner.get(i).copied().unwrap_or(NO_GLYPH);
        let Some(g) = page.glyphs.get(owner as usize) else {
            continue;
        };
        if page.glyph_text(g).chars().all(char::is_whitespace) {
            continue;
        }
        let b = page.bbox(g);
        let end = i + c.len_utf8();
        cur = match cur {
            Some(mut s) => {
                let em = (b.y1 - b.y0).max(s.height());
                // How far apart the boxes are: along the line, whichever
                // way the page is turned.
                let gap = (b.x0 - s.x1).max(s.x0 - b.x1).max(0.0)
                    + (b.y0 - s.y1).max(s.y0 - b.y1).max(0.0);
                if gap > em {
                    out.push(s);
                    Some(seg(i, end, &b))
                } else {
                    s.end = end;
                    s.x0 = s.x0.min(b.x0);
                    s.x1 = s.x1.max(b.x1);
                    s.y0 = s.y0.min(b.y0);
                    s.y1 = s.y1.max(b.y1);
                    Some(s)
                }
            }
            None => Some(seg(i, end, &b)),
        };
    }
    out.extend(cur);
    out
}

fn seg(start: usize, end: usize, b: &crate::geometry::Rect) -> Segment {
    Segment {
        start,
        end,
        x0: b.x0,
        x1: b.x1,
        y0: b.y0,
        y1: b.y1,
    }
}

/// What a segment holds of one kind of delimiters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// No delimiter: a possible middle piece.
    Plain,
    /// Begins with text up to a close (`end`: the close's end), and may hold
    /// a head after it.
    Tail { end: usize },
    /// Neither a tail nor plain.
    Other,
}

/// The delimiters of `start..end` (`true`: an open), by position; a single
/// `{` or `[` that is half of a doubled one is none.
fn tokens(text: &str, start: usize, end: usize, delim: Delim) -> Vec<(usize, bool)> {
    let Some(part) = text.get(start..end) else {
        return Vec::new();
    };
    let lone = |at: usize, len: usize| match single(delim) {
        None => true,
        Some(ch) => {
            let close = if ch == '{' { '}' } else { ']' };
            let before = text.get(..at).and_then(|t| t.chars().next_back());
            let after = text.get(at + len..).and_then(|t| t.chars().next());
            ![before, after]
                .into_iter()
                .flatten()
                .any(|c| c == ch || c == close)
        }
    };
    let mut out: Vec<(usize, bool)> = Vec::new();
    for (is_open, s) in [(true, delim.open()), (false, delim.close())] {
        out.extend(
            part.match_indices(s)
                .map(|(k, _)| start + k)
                .filter(|&at| lone(at, s.len()))
                .map(|at| (at, is_open)),
        );
    }
    out.sort_unstable();
    out
}

/// A segment's tail, head and role for one kind of delimiters.
fn roles(text: &str, s: &Segment, delim: Delim) -> (Role, Option<usize>) {
    let t = tokens(text, s.start, s.end, delim);
    let role = match t.first() {
        None => Role::Plain,
        Some(&(at, false)) => Role::Tail {
            end: at + delim.close().len(),
        },
        Some(_) => Role::Other,
    };
    // The last open with no close after it.
    let head = match t.last() {
        Some(&(at, true)) => Some(at),
        _ => None,
    };
    (role, head)
}

/// A tag left open at the foot of its page (its pieces so far), or the
/// piece that ends one at the top of the next, with its column.
#[derive(Clone, Debug)]
pub(super) struct Loose {
    pub(super) pieces: Pieces,
    pub(super) column: (f64, f64),
}

/// One page's wrapped tags of one kind of delimiters: those whole on the
/// page (two pieces or more each), the heads left at its foot and the tails
/// at its top. `taken` are the single-line candidates (their delimiters are
/// no head or tail).
pub(super) fn wrapped(
    text: &str,
    segs: &[Segment],
    delim: Delim,
    taken: &[(usize, usize)],
) -> (Vec<Pieces>, Vec<Loose>, Vec<Loose>) {
    let free = |at: usize| !taken.iter().any(|&(a, b)| (a..b).contains(&at));
    let info: Vec<(Role, Option<usize>)> = segs
        .iter()
        .map(|s| {
            let (role, head) = roles(text, s, delim);
            let role = match role {
                Role::Tail { end } if !free(end - 1) => Role::Other,
                r => r,
            };
            (role, head.filter(|&h| free(h)))
        })
        .collect();
    let mut used = vec![false; segs.len()];
    let mut whole = Vec::new();
    let mut foot = Vec::new();
    for (k, s) in segs.iter().enumerate() {
        let Some(head) = info.get(k).and_then(|i| i.1) else {
            continue;
        };
        let column = (s.x0, s.x1);
        let mut pieces = vec![(head, s.end)];
        let mut cur = *s;
        let mut ended = false;
        let mut open_below = true;
        // A tag over more than five lines is no tag.
        for _ in 0..4 {
            let Some(n) = below(segs, &cur, column) else {
                break;
            };
            let (Some(next), Some(&(role, _))) = (segs.get(n), info.get(n)) else {
                break;
            };
            match role {
                Role::Tail { end } if !used.get(n).copied().unwrap_or(true) => {
                    pieces.push((next.start, end));
                    if let Some(u) = used.get_mut(n) {
                        *u = true;
                    }
                    ended = true;
                    break;
                }
                // A middle line is one word: a tag is wrapped where it
                // has a space, so a line with one is prose, not its middle.
                Role::Plain
                    if !text
                        .get(next.start..next.end)
                        .unwrap_or(" ")
                        .contains(char::is_whitespace) =>
                {
                    pieces.push((next.start, next.end));
                    cur = *next;
                }
                _ => {
                    open_below = false;
                    break;
                }
            }
        }
        if ended {
            whole.push(pieces);
        } else if open_below && last_in_column(segs, &cur, column) {
            foot.push(Loose { pieces, column });
        }
    }
    let top = segs
        .iter()
        .enumerate()
        .filter(|(k, _)| !used.get(*k).copied().unwrap_or(true))
        .filter_map(|(k, s)| match info.get(k) {
            Some(&(Role::Tail { end }, _)) if first_in_column(segs, s) => Some(Loose {
                pieces: vec![(s.start, end)],
                column: (s.x0, s.x1),
            }),
            _ => None,
        })
        .collect();
    (whole, foot, top)
}

/// The segment that goes on from `cur` in `column`: the nearest one below it
/// (within 2.5 of its line heights) that overlaps the column, the widest
/// overlap among those on one line.
fn below(segs: &[Segment], cur: &Segment, column: (f64, f64)) -> Option<usize> {
    let h = cur.height();
    let mut best: Option<(f64, f64, usize)> = None;
    for (k, s) in segs.iter().enumerate() {
        let down = s.middle() - cur.middle();
        let overlap = s.overlap(column);
        if !(0.5 * h..=2.5 * h).contains(&down) || overlap <= 0.0 {
            continue;
        }
        let better = match best {
            None => true,
            Some((d, o, _)) => down < d - 0.3 * h || (down < d + 0.3 * h && overlap > o),
        };
        if better {
            best = Some((down, overlap, k));
        }
    }
    best.map(|(_, _, k)| k)
}

/// No segment of the page lies below `cur` in `column`: it stands at the
/// foot of the page.
fn last_in_column(segs: &[Segment], cur: &Segment, column: (f64, f64)) -> bool {
    let h = cur.height();
    !segs
        .iter()
        .any(|s| s.middle() - cur.middle() >= 0.5 * h && s.overlap(column) > 0.0)
}

/// No segment of the page lies above `cur` in its column: it begins the page.
fn first_in_column(segs: &[Segment], cur: &Segment) -> bool {
    let h = cur.height();
    !segs
        .iter()
        .any(|s| cur.middle() - s.middle() >= 0.5 * h && s.overlap((cur.x0, cur.x1)) > 0.0)
}

/// Whether a page can hold a wrapped tag of `delim`: some line has an open
/// with no close after it, or a close with no open before it (the segments
/// are measured only then).
pub(super) fn may_wrap(text: &str, delim: Delim) -> bool {
    let mut start = 0;
    for line in text.split('\n') {
        let t = tokens(text, start, start + line.len(), delim);
        if matches!(t.first(), Some(&(_, false))) || matches!(t.last(), Some(&(_, true))) {
            return true;
        }
        start += line.len() + 1;
    }
    false
}
