//! Where each box's label goes: a tab that covers no other label and no
//! other box, and stays inside the page, shortened with `...` when it has
//! not the room for its whole caption (the overlay's data keeps the whole
//! text).
//!
//! Each box tries, in order: above its box (left-aligned with it, else
//! right-aligned with the page's edge when the caption runs past it), below
//! it (the same two ways), right of it, left of it. The first place with
//! room for the whole caption wins, else the one with room for the most of
//! it; a place without room for [`MIN_SHOWN`] characters and the ellipsis
//! does not count, and a box with no such place has no label. Places are
//! chosen box by box, each reserving only its shortest label, and then
//! every label grows, box by box, into the room left beside it: an early
//! box cannot take the room a later one needs for its place.

use crate::font;
use serde::Serialize;

/// Characters of a caption kept before the `...` of a shortened label; a
/// place with room for fewer is no place for the label.
pub const MIN_SHOWN: usize = 4;

const ELLIPSIS: &str = "...";

/// A label as drawn: its tab, in the page's pixels (top-left, y down), and
/// the text shown on it (the caption, or its start and `...`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabelTab {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// The text drawn: the whole caption, or its start and `...`.
    pub text: String,
}

/// Pixels per font cell: 1 up to 120 dpi-like page sizes, more above, so
/// labels stay readable on large renders.
pub(crate) fn text_scale(page_width: f64) -> u32 {
    // A letter page is 816 px wide at 96 dpi.
    ((page_width / 1100.0).floor() as u32 + 1).clamp(1, 4)
}

/// A box to label: where it is, the width of its outline, its caption.
pub(crate) struct Labelled {
    /// `[x, y, width, height]`, the page's pixels.
    pub(crate) rect: [f64; 4],
    /// The outline's width, drawn outside the box.
    pub(crate) stroke: f64,
    /// The whole label text.
    pub(crate) caption: String,
}

/// `text` cut to at most `chars` characters: whole, or its first characters
/// and `...` when at least `keep` of them remain.
pub(crate) fn shorten(text: &str, chars: usize, keep: usize) -> Option<String> {
    let n = text.chars().count();
    if n <= chars {
        return Some(text.to_string());
    }
    let kept = chars.checked_sub(ELLIPSIS.len())?;
    if kept < keep {
        return None;
    }
    let mut s: String = text.chars().take(kept).collect();
    s.push_str(ELLIPSIS);
    Some(s)
}

/// An axis-aligned rectangle `[x0, y0, x1, y1]`, half-open.
type R = [f64; 4];

/// One side of a tab is fixed, the other grows away from it.
#[derive(Clone, Copy, Debug)]
enum Anchor {
    /// The left edge is here; the tab grows to the right.
    Left(f64),
    /// The right edge is here; the tab grows to the left.
    Right(f64),
}

/// The sizes of the label font at one scale.
struct Metrics {
    scale: f64,
    pad: f64,
    height: f64,
}

impl Metrics {
    fn new(scale: u32) -> Metrics {
        let s = f64::from(scale);
        Metrics {
            scale: s,
            pad: s,
            height: f64::from(font::HEIGHT) * s + s,
        }
    }

    /// The tab width for `chars` characters.
    fn width(&self, chars: usize) -> f64 {
        let cells = (chars as f64 * f64::from(font::ADVANCE) - 1.0).max(0.0);
        cells * self.scale + 2.0 * self.pad
    }

    /// The most characters a tab `room` pixels wide holds.
    fn chars(&self, room: f64) -> usize {
        let per = f64::from(font::ADVANCE) * self.scale;
        ((room - 2.0 * self.pad + self.scale) / per)
            .floor()
            .max(0.0) as usize
    }
}

/// A place for a label: one edge fixed, its top.
#[derive(Clone, Copy, Debug)]
struct Place {
    anchor: Anchor,
    y: f64,
}

impl Place {
    /// The tab `width` wide at this place.
    fn rect(&self, width: f64, height: f64) -> R {
        match self.anchor {
            Anchor::Left(x) => [x, self.y, x + width, self.y + height],
            Anchor::Right(x) => [x - width, self.y, x, self.y + height],
        }
    }

    /// Pixels the tab may grow to from its fixed edge without covering one of
    /// `obstacles` or leaving the page; 0 when the fixed edge is covered or
    /// the tab's row is not inside the page.
    fn room<'a>(
        &self,
        height: f64,
        page: (f64, f64),
        obstacles: impl Iterator<Item = &'a R>,
    ) -> f64 {
        let (y0, y1) = (self.y, self.y + height);
        if y0 < 0.0 || y1 > page.1 {
            return 0.0;
        }
        let mut room = match self.anchor {
            Anchor::Left(x) if x >= 0.0 => page.0 - x,
            Anchor::Right(x) if x <= page.0 => x,
            _ => return 0.0,
        };
        for r in obstacles.filter(|r| r[1] < y1 && y0 < r[3]) {
            let free = match self.anchor {
                Anchor::Left(x) if r[2] <= x => continue,
                Anchor::Left(x) => r[0] - x,
                Anchor::Right(x) if r[0] >= x => continue,
                Anchor::Right(x) => x - r[2],
            };
            room = room.min(free.max(0.0));
        }
        room.max(0.0)
    }
}

/// The places a box's label tries, in order.
fn places(b: &Labelled, m: &Metrics, full: f64, page: (f64, f64)) -> Vec<Place> {
    let [x, y, width, height] = b.rect;
    let stroke = b.stroke;
    let left = (x - stroke).max(0.0).floor();
    let above = (y - stroke - m.height).floor();
    let below = (y + height + stroke).ceil();
    let beside = (y - stroke)
        .floor()
        .clamp(0.0, (page.1 - m.height).max(0.0));
    let mut out = Vec::with_capacity(6);
    for y in [above, below] {
        out.push(Place {
            anchor: Anchor::Left(left),
            y,
        });
        if left + full > page.0 {
            out.push(Place {
                anchor: Anchor::Right(page.0.floor()),
                y,
            });
        }
    }
    out.push(Place {
        anchor: Anchor::Left((x + width + stroke).ceil()),
        y: beside,
    });
    out.push(Place {
        anchor: Anchor::Right((x - stroke).floor()),
        y: beside,
    });
    out
}

/// The label tab of each box (in order), `None` for a box whose label has no
/// room, on a page `width` x `height` pixels, in the font at `scale`
/// ([`text_scale`]).
pub(crate) fn layout(
    boxes: &[Labelled],
    scale: u32,
    width: f64,
    height: f64,
) -> Vec<Option<LabelTab>> {
    let m = Metrics::new(scale);
    let page = (width, height);
    let outlines: Vec<R> = boxes
        .iter()
        .map(|b| {
            let ([x, y, w, h], s) = (b.rect, b.stroke);
            [x - s, y - s, x + w + s, y + h + s]
        })
        .collect();
    let captions: Vec<&str> = boxes.iter().map(|b| b.caption.as_str()).collect();

    // Places, each tab reserving its shortest label.
    let mut chosen: Vec<Option<(Place, usize)>> = Vec::with_capacity(boxes.len());
    let mut tabs: Vec<Option<R>> = Vec::with_capacity(boxes.len());
    for (b, caption) in boxes.iter().zip(&captions) {
        let len = caption.chars().count();
        let least = len.min(MIN_SHOWN + ELLIPSIS.len());
        let full = m.width(len);
        let mut best: Option<(Place, usize)> = None;
        for place in places(b, &m, full, page) {
            let obstacles = outlines.iter().chain(tabs.iter().flatten());
            let fits = m.chars(place.room(m.height, page, obstacles));
            if fits < least {
                continue;
            }
            if best.is_none_or(|(_, n)| fits.min(len) > n) {
                best = Some((place, fits.min(len)));
            }
            if fits >= len {
                break;
            }
        }
        tabs.push(best.map(|(p, _)| p.rect(m.width(least), m.height)));
        chosen.push(best.map(|(p, _)| (p, least)));
    }

    // Every label grows into the room beside it.
    let mut out = Vec::with_capacity(boxes.len());
    for (i, caption) in captions.iter().enumerate() {
        let Some(Some((place, least))) = chosen.get(i).copied() else {
            out.push(None);
            continue;
        };
        let others = tabs
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .filter_map(|(_, t)| t.as_ref());
        let fits = m.chars(place.room(m.height, page, outlines.iter().chain(others)));
        let Some(text) = shorten(caption, fits.max(least), MIN_SHOWN) else {
            out.push(None);
            continue;
        };
        let r = place.rect(m.width(text.chars().count()), m.height);
        if let Some(slot) = tabs.get_mut(i) {
            *slot = Some(r);
        }
        out.push(Some(LabelTab {
            x: r[0],
            y: r[1],
            width: r[2] - r[0],
            height: r[3] - r[1],
            text,
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_keeps_the_start_and_an_ellipsis() {
        assert_eq!(shorten("ABCDEFGH", 8, 4).as_deref(), Some("ABCDEFGH"));
        assert_eq!(shorten("ABCDEFGHIJ", 8, 4).as_deref(), Some("ABCDE..."));
        assert_eq!(shorten("ABCDEFGHIJ", 7, 4).as_deref(), Some("ABCD..."));
        assert_eq!(shorten("ABCDEFGHIJ", 6, 4), None);
        assert_eq!(shorten("ABCDEFGHIJ", 2, 0), None);
    }

    fn overlaps(a: &R, b: &R) -> bool {
        a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
    }

    /// Ten boxes 2 px apart: no room above or below the inner ones, so their
    /// labels go beside them; the top one keeps the place above its box, and
    /// a caption longer than the room is shortened.
    #[test]
    fn stacked_boxes_are_labelled_beside_them() {
        let boxes: Vec<Labelled> = (0..10)
            .map(|i| Labelled {
                rect: [300.0, 100.0 + 12.0 * f64::from(i), 100.0, 10.0],
                stroke: 1.0,
                caption: if i == 5 {
                    "applicant.employment_history.employer_5.street_address_line_2 - text".into()
                } else {
                    format!("applicant.employment_history.field_{i} - text")
                },
            })
            .collect();
        let tabs = layout(&boxes, 1, 612.0, 792.0);
        let rects: Vec<R> = tabs
            .iter()
            .map(|t| {
                let t = t.as_ref().expect("every box has room for a label");
                [t.x, t.y, t.x + t.width, t.y + t.height]
            })
            .collect();
        for (i, r) in rects.iter().enumerate() {
            assert!(
                r[0] >= 0.0 && r[2] <= 612.0 && r[1] >= 0.0 && r[3] <= 792.0,
                "{i}: {r:?}"
            );
            for (j, other) in rects.iter().enumerate().filter(|(j, _)| *j != i) {
                assert!(
                    !overlaps(r, other),
                    "label {i} {r:?} covers label {j} {other:?}"
                );
            }
            for (j, b) in boxes.iter().enumerate().filter(|(j, _)| *j != i) {
                let [x, y, w, h] = b.rect;
                let outline = [x - 1.0, y - 1.0, x + w + 1.0, y + h + 1.0];
                assert!(!overlaps(r, &outline), "label {i} {r:?} covers box {j}");
            }
        }
        let label = |i: usize| tabs.get(i).and_then(Option::as_ref).expect("a label");
        assert_eq!((label(0).x, label(0).y), (299.0, 89.0), "above the top box");
        assert_eq!(label(0).text, "applicant.employment_history.field_0 - text");
        // Inner boxes: left of the box, where the whole caption fits (the
        // page's right part is narrower).
        assert_eq!((label(4).x + label(4).width, label(4).y), (299.0, 147.0));
        assert_eq!(label(4).text, "applicant.employment_history.field_4 - text");
        // A caption too long for either side: the most of it, shortened.
        assert_eq!(label(5).x + label(5).width, 299.0);
        assert_eq!(
            label(5).text,
            "applicant.employment_history.employer_5.street..."
        );
    }

    #[test]
    fn metrics_round_trip() {
        let m = Metrics::new(2);
        for n in 1..40 {
            assert_eq!(m.chars(m.width(n)), n, "{n} characters");
            assert_eq!(
                m.chars(m.width(n) - 1.0),
                n - 1,
                "{n} characters less a pixel"
            );
        }
    }
}
