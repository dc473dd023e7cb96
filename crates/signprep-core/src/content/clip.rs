//! Clipping, as far as telling whether text is painted needs it: each path's
//! bounding box, and the graphics state's clip box (the intersection of the
//! clip paths' boxes, displayed coordinates). A rectangle approximates every
//! clip path: text outside the box is certainly not painted; text inside it
//! may still be clipped by a curved or non-rectangular path.

use super::Interp;
use super::args::Args;
use crate::geometry::Rect;

impl<T: super::Tracer> Interp<'_, T> {
    /// A path-construction, clipping or path-painting operator.
    pub(super) fn path_op(&mut self, operator: &[u8], args: &Args<'_>) {
        match operator {
            b"re" => {
                if let Some([x, y, w, h]) = args.nums::<4>() {
                    self.path_points(&[(x, y), (x + w, y + h)]);
                }
            }
            b"m" | b"l" => {
                if let Some([x, y]) = args.nums::<2>() {
                    self.path_points(&[(x, y)]);
                }
            }
            b"c" => {
                if let Some([a, b, c, d, e, f]) = args.nums::<6>() {
                    self.path_points(&[(a, b), (c, d), (e, f)]);
                }
            }
            b"v" | b"y" => {
                if let Some([a, b, c, d]) = args.nums::<4>() {
                    self.path_points(&[(a, b), (c, d)]);
                }
            }
            b"W" | b"W*" => self.clip_next = true,
            // The painting operators end the path; after `W`/`W*` it clips.
            _ => {
                if std::mem::take(&mut self.clip_next)
                    && let Some(u) = self.path
                {
                    // The user-space box's corners, mapped: a box holding the path.
                    let m = self.gs.ctm.then(&self.display);
                    let p = Rect::bounding([
                        m.apply(u.x0, u.y0),
                        m.apply(u.x1, u.y0),
                        m.apply(u.x0, u.y1),
                        m.apply(u.x1, u.y1),
                    ]);
                    let clip = match self.gs.clip {
                        // Nothing left: an empty box at the path's corner.
                        Some(c) => c.intersect(&p).unwrap_or(Rect::new(p.x0, p.y0, p.x0, p.y0)),
                        None => p,
                    };
                    self.gs.clip = Some(clip);
                }
                self.path = None;
            }
        }
    }

    /// Adds user-space points to the current path's bounding box (in user
    /// space: a path cannot change the CTM, so it is mapped once, when it
    /// becomes a clip).
    fn path_points(&mut self, points: &[(f64, f64)]) {
        for &(x, y) in points {
            let p = self.path.get_or_insert(Rect {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            });
            p.x0 = p.x0.min(x);
            p.y0 = p.y0.min(y);
            p.x1 = p.x1.max(x);
            p.y1 = p.y1.max(y);
        }
    }
}
