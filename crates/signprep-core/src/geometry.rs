//! Matrices, rectangles and page boxes: the one place that knows the service's
//! coordinate convention (top-left of the displayed page, y down, pages stacked).

use serde::Serialize;

/// A PDF affine matrix `[a b c d e f]`, mapping `(x, y)` to
/// `(a·x + c·y + e, b·x + d·y + f)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix {
    /// x scale (x' = a·x + …).
    pub a: f64,
    /// y shear (y' = b·x + …).
    pub b: f64,
    /// x shear (x' = … + c·y).
    pub c: f64,
    /// y scale (y' = … + d·y).
    pub d: f64,
    /// x translation.
    pub e: f64,
    /// y translation.
    pub f: f64,
}

impl Matrix {
    /// The identity matrix.
    pub const IDENTITY: Matrix = Matrix::new(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);

    /// A matrix from its six PDF coefficients.
    pub const fn new(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64) -> Self {
        Matrix { a, b, c, d, e, f }
    }

    /// A translation.
    pub const fn translate(x: f64, y: f64) -> Self {
        Matrix::new(1.0, 0.0, 0.0, 1.0, x, y)
    }

    /// `self` applied first, then `then` (PDF's `self × then`).
    #[must_use]
    pub fn then(&self, then: &Matrix) -> Matrix {
        Matrix {
            a: self.a * then.a + self.b * then.c,
            b: self.a * then.b + self.b * then.d,
            c: self.c * then.a + self.d * then.c,
            d: self.c * then.b + self.d * then.d,
            e: self.e * then.a + self.f * then.c + then.e,
            f: self.e * then.b + self.f * then.d + then.f,
        }
    }

    /// Maps a point.
    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        (
            self.a * x + self.c * y + self.e,
            self.b * x + self.d * y + self.f,
        )
    }

    /// Maps a vector (no translation).
    pub fn apply_vector(&self, x: f64, y: f64) -> (f64, f64) {
        (self.a * x + self.c * y, self.b * x + self.d * y)
    }

    /// The axis-aligned bounding box of a rectangle mapped through this matrix.
    pub fn apply_rect(&self, r: &Rect) -> Rect {
        let corners = [
            self.apply(r.x0, r.y0),
            self.apply(r.x1, r.y0),
            self.apply(r.x0, r.y1),
            self.apply(r.x1, r.y1),
        ];
        Rect::bounding(corners)
    }

    /// True when every coefficient is finite.
    pub fn is_finite(&self) -> bool {
        [self.a, self.b, self.c, self.d, self.e, self.f]
            .iter()
            .all(|v| v.is_finite())
    }
}

/// An axis-aligned rectangle with `x0 <= x1` and `y0 <= y1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Bottom edge (top in a y-down space).
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Top edge (bottom in a y-down space).
    pub y1: f64,
}

impl Rect {
    /// A normalised rectangle from two corners in any order.
    pub fn new(xa: f64, ya: f64, xb: f64, yb: f64) -> Self {
        Rect {
            x0: xa.min(xb),
            y0: ya.min(yb),
            x1: xa.max(xb),
            y1: ya.max(yb),
        }
    }

    /// The bounding box of some points.
    pub fn bounding<const N: usize>(points: [(f64, f64); N]) -> Self {
        let mut r = Rect {
            x0: f64::INFINITY,
            y0: f64::INFINITY,
            x1: f64::NEG_INFINITY,
            y1: f64::NEG_INFINITY,
        };
        for (x, y) in points {
            r.x0 = r.x0.min(x);
            r.y0 = r.y0.min(y);
            r.x1 = r.x1.max(x);
            r.y1 = r.y1.max(y);
        }
        r
    }

    /// The smallest rectangle holding both.
    #[must_use]
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    /// The overlap of both, or `None` when they do not overlap with a positive area.
    pub fn intersect(&self, other: &Rect) -> Option<Rect> {
        let r = Rect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        };
        (r.x1 > r.x0 && r.y1 > r.y0).then_some(r)
    }

    /// Width.
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    /// Height.
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }

    /// This displayed-page box in output pixels, unrounded: `(x, y, width,
    /// height)` scaled by `factor`, `y` moved down by the page's `y_offset`
    /// (pages stacked). The one conversion tags, vendor tags and widgets share.
    pub(crate) fn stacked(&self, factor: f64, y_offset: f64) -> (f64, f64, f64, f64) {
        (
            self.x0 * factor,
            y_offset + self.y0 * factor,
            self.width() * factor,
            self.height() * factor,
        )
    }

    /// True when `other` lies entirely inside `self` (with a small tolerance).
    pub fn contains(&self, other: &Rect) -> bool {
        const EPS: f64 = 0.01;
        other.x0 >= self.x0 - EPS
            && other.y0 >= self.y0 - EPS
            && other.x1 <= self.x1 + EPS
            && other.y1 <= self.y1 + EPS
    }
}

/// Page rotation as displayed, clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "u16")]
pub enum Rotation {
    /// Upright.
    R0,
    /// A quarter turn clockwise.
    R90,
    /// Upside down.
    R180,
    /// Three quarter turns clockwise.
    R270,
}

impl Rotation {
    /// Normalises any `/Rotate` value; values that are not a multiple of 90 are
    /// rounded down to one, as viewers do.
    pub fn from_degrees(deg: i64) -> Rotation {
        match deg.rem_euclid(360) / 90 {
            1 => Rotation::R90,
            2 => Rotation::R180,
            3 => Rotation::R270,
            _ => Rotation::R0,
        }
    }

    /// Degrees, clockwise.
    pub fn degrees(self) -> u16 {
        match self {
            Rotation::R0 => 0,
            Rotation::R90 => 90,
            Rotation::R180 => 180,
            Rotation::R270 => 270,
        }
    }
}

impl From<Rotation> for u16 {
    fn from(r: Rotation) -> u16 {
        r.degrees()
    }
}

/// The geometry of one page: what is displayed and how user space maps onto it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageGeometry {
    /// The MediaBox (inherited), normalised.
    pub media_box: Rect,
    /// The CropBox clipped to the MediaBox (the MediaBox when absent or disjoint).
    pub crop_box: Rect,
    /// `/Rotate`, normalised.
    pub rotation: Rotation,
    /// `/UserUnit` (1.0 when absent).
    pub user_unit: f64,
}

impl PageGeometry {
    /// Geometry from raw boxes, applying the clipping rules.
    pub fn new(
        media_box: Rect,
        crop_box: Option<Rect>,
        rotation: Rotation,
        user_unit: f64,
    ) -> Self {
        let crop_box = crop_box
            .and_then(|c| c.intersect(&media_box))
            .unwrap_or(media_box);
        let user_unit = if user_unit.is_finite() && user_unit > 0.0 {
            user_unit
        } else {
            1.0
        };
        PageGeometry {
            media_box,
            crop_box,
            rotation,
            user_unit,
        }
    }

    /// Displayed width and height in user-space units (rotation applied).
    pub fn displayed_size(&self) -> (f64, f64) {
        let (w, h) = (self.crop_box.width(), self.crop_box.height());
        match self.rotation {
            Rotation::R0 | Rotation::R180 => (w, h),
            Rotation::R90 | Rotation::R270 => (h, w),
        }
    }

    /// The matrix from user space to displayed space: origin at the top-left of
    /// the displayed page, y growing downwards, in user-space units.
    pub fn display_matrix(&self) -> Matrix {
        let Rect { x0, y0, x1, y1 } = self.crop_box;
        match self.rotation {
            // (x - x0, y1 - y)
            Rotation::R0 => Matrix::new(1.0, 0.0, 0.0, -1.0, -x0, y1),
            // (y - y0, x - x0)
            Rotation::R90 => Matrix::new(0.0, 1.0, 1.0, 0.0, -y0, -x0),
            // (x1 - x, y - y0)
            Rotation::R180 => Matrix::new(-1.0, 0.0, 0.0, 1.0, x1, -y0),
            // (y1 - y, x1 - x)
            Rotation::R270 => Matrix::new(0.0, -1.0, -1.0, 0.0, y1, x1),
        }
    }

    /// A user-space rectangle in displayed coordinates (top-left origin, y down).
    pub fn to_displayed(&self, r: &Rect) -> Rect {
        self.display_matrix().apply_rect(r)
    }

    /// The displayed box of an annotation with the NoRotate flag (ISO 32000-2,
    /// 12.5.3): its upper-left corner `(x0, y1)` stays where the page's
    /// rotation puts it, and the box is not turned with the page: it keeps
    /// its `/Rect` width and height, running right and down from that corner
    /// on the displayed page. Acrobat, pdf.js and MuPDF draw it so. On an
    /// unrotated page this is [`to_displayed`](Self::to_displayed).
    pub fn to_displayed_no_rotate(&self, r: &Rect) -> Rect {
        let (x, y) = self.display_matrix().apply(r.x0, r.y1);
        Rect::new(x, y, x + r.width(), y + r.height())
    }
}

/// How output lengths are scaled from displayed user-space units to pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Pixels at this many dots per inch (72 makes 1 px = 1 pt).
    Dpi(f64),
    /// Every page scaled to this displayed width in pixels, as web viewers do.
    PageWidth(f64),
}

impl Default for Scale {
    fn default() -> Self {
        Scale::Dpi(72.0)
    }
}

/// The resolutions a scan may be given ([`Scale::dpi`]): 1 to 10,000 dpi.
///
/// The top keeps every coordinate finite and exact to the 1/100 px every
/// number is rounded to: the largest page the format allows (14,400 units a
/// side, times a `/UserUnit` of at most 75,000, ISO 32000-2 Annex C) is
/// 1.08e9 pt, 1.5e11 px at 10,000 dpi, where an `f64` still resolves 1/100 px
/// (its step there is 3e-5), and 100,000 such pages stacked (the default
/// page limit) are 1.5e16 px, finite by a margin of 1e292. 10,000 dpi is
/// also twice what a flatbed scanner gives. The bottom: under 1 dpi a
/// Letter page is under 9 px wide and a 10 pt tag under 0.14 px high, so
/// the rounded coordinates say next to nothing. `1e308` dpi, taken before,
/// made every coordinate infinite (`null` in JSON).
pub const DPI_RANGE: std::ops::RangeInclusive<f64> = 1.0..=10_000.0;

/// The page widths a scan may be given ([`Scale::page_width`]): 1 to
/// 100,000 px, the width of a Letter page at about [`DPI_RANGE`]'s top
/// (8.5 in at 10,000 dpi is 85,000 px), for the same reasons.
pub const PAGE_WIDTH_RANGE: std::ops::RangeInclusive<f64> = 1.0..=100_000.0;

/// A scale out of its range ([`DPI_RANGE`], [`PAGE_WIDTH_RANGE`]).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScaleError {
    /// A resolution that is not a number from 1 to 10,000.
    #[error("{} dpi is out of range: the resolution is from 1 to 10000 dpi", shown(*.0))]
    Dpi(f64),
    /// A page width that is not a number from 1 to 100,000.
    #[error("a page width of {} px is out of range: the width is from 1 to 100000 px", shown(*.0))]
    PageWidth(f64),
}

/// A number as a user wrote it, short: `1e308`, not its 309 digits.
fn shown(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-3..1e7).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

impl Scale {
    /// [`Scale::Dpi`], when `dpi` is in [`DPI_RANGE`].
    ///
    /// ```
    /// use signprep_core::Scale;
    /// assert_eq!(Scale::dpi(96.0), Ok(Scale::Dpi(96.0)));
    /// assert_eq!(
    ///     Scale::dpi(1e308).unwrap_err().to_string(),
    ///     "1e308 dpi is out of range: the resolution is from 1 to 10000 dpi"
    /// );
    /// assert!(Scale::dpi(f64::NAN).is_err());
    /// ```
    pub fn dpi(dpi: f64) -> Result<Scale, ScaleError> {
        if DPI_RANGE.contains(&dpi) {
            Ok(Scale::Dpi(dpi))
        } else {
            Err(ScaleError::Dpi(dpi))
        }
    }

    /// [`Scale::PageWidth`], when `px` is in [`PAGE_WIDTH_RANGE`].
    pub fn page_width(px: f64) -> Result<Scale, ScaleError> {
        if PAGE_WIDTH_RANGE.contains(&px) {
            Ok(Scale::PageWidth(px))
        } else {
            Err(ScaleError::PageWidth(px))
        }
    }

    /// This scale with its value brought into its range (the nearest end;
    /// 72 dpi, or 612 px, for NaN).
    pub fn clamped(self) -> Scale {
        let clamp = |v: f64, r: &std::ops::RangeInclusive<f64>, nan: f64| {
            if v.is_nan() {
                nan
            } else {
                v.clamp(*r.start(), *r.end())
            }
        };
        match self {
            Scale::Dpi(d) => Scale::Dpi(clamp(d, &DPI_RANGE, 72.0)),
            Scale::PageWidth(p) => Scale::PageWidth(clamp(p, &PAGE_WIDTH_RANGE, 612.0)),
        }
    }

    /// The factor from displayed units to pixels for a page of this displayed width.
    pub fn factor(&self, displayed_width: f64, user_unit: f64, apply_user_unit: bool) -> f64 {
        let unit = if apply_user_unit { user_unit } else { 1.0 };
        match *self {
            Scale::Dpi(dpi) => dpi / 72.0 * unit,
            Scale::PageWidth(px) if displayed_width > 0.0 => px / displayed_width,
            Scale::PageWidth(_) => 1.0,
        }
    }
}

/// Rounds an output length to 1/100 px, the precision of every number a
/// scan gives (and `-0.0` to `0.0`). Public for the layers that derive
/// lengths from a scan's and print them beside it, so that they round as it
/// does (signprep-render's overlay: a box moved onto its page).
///
/// ```
/// assert_eq!(signprep_core::round2(1.23456), 1.23);
/// assert_eq!(signprep_core::round2(-0.001).to_string(), "0");
/// ```
pub fn round2(v: f64) -> f64 {
    let r = (v * 100.0).round() / 100.0;
    // Avoid "-0.0" in output.
    if r == 0.0 { 0.0 } else { r }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(rot: i64) -> PageGeometry {
        PageGeometry::new(
            Rect::new(0.0, 0.0, 612.0, 792.0),
            None,
            Rotation::from_degrees(rot),
            1.0,
        )
    }

    #[test]
    fn rotation_normalises() {
        assert_eq!(Rotation::from_degrees(-90), Rotation::R270);
        assert_eq!(Rotation::from_degrees(450), Rotation::R90);
        assert_eq!(Rotation::from_degrees(360), Rotation::R0);
        assert_eq!(Rotation::from_degrees(-180), Rotation::R180);
    }

    #[test]
    fn displayed_size_swaps_on_quarter_turns() {
        assert_eq!(letter(0).displayed_size(), (612.0, 792.0));
        assert_eq!(letter(90).displayed_size(), (792.0, 612.0));
        assert_eq!(letter(270).displayed_size(), (792.0, 612.0));
    }

    #[test]
    fn corners_map_clockwise() {
        // The user-space top-left corner (0, 792) goes to each displayed corner in turn.
        let tl = |rot| letter(rot).display_matrix().apply(0.0, 792.0);
        assert_eq!(tl(0), (0.0, 0.0));
        assert_eq!(tl(90), (792.0, 0.0));
        assert_eq!(tl(180), (612.0, 792.0));
        assert_eq!(tl(270), (0.0, 612.0));
    }

    #[test]
    fn crop_box_is_clipped_and_offsets_origin() {
        let g = PageGeometry::new(
            Rect::new(0.0, 0.0, 612.0, 792.0),
            Some(Rect::new(36.0, 72.0, 700.0, 720.0)),
            Rotation::R0,
            1.0,
        );
        assert_eq!(g.crop_box, Rect::new(36.0, 72.0, 612.0, 720.0));
        assert_eq!(g.display_matrix().apply(36.0, 720.0), (0.0, 0.0));
        let disjoint = PageGeometry::new(
            Rect::new(0.0, 0.0, 100.0, 100.0),
            Some(Rect::new(200.0, 200.0, 300.0, 300.0)),
            Rotation::R0,
            1.0,
        );
        assert_eq!(disjoint.crop_box, disjoint.media_box);
    }

    #[test]
    fn rect_to_displayed_is_axis_aligned() {
        let r = Rect::new(72.0, 700.0, 172.0, 712.0);
        let d = letter(90).to_displayed(&r);
        assert_eq!(d, Rect::new(700.0, 72.0, 712.0, 172.0));
    }

    #[test]
    fn no_rotate_keeps_the_upper_left_corner_and_the_size() {
        let r = Rect::new(294.0, 430.0, 367.0, 528.0);
        // Unrotated: the same box as any annotation.
        assert_eq!(
            letter(0).to_displayed_no_rotate(&r),
            letter(0).to_displayed(&r)
        );
        // Turned pages: (x0, y1) goes where the rotation puts it; 73 x 98 stays 73 x 98.
        for (rot, corner) in [
            (90, (528.0, 294.0)),
            (180, (318.0, 528.0)),
            (270, (264.0, 318.0)),
        ] {
            let d = letter(rot).to_displayed_no_rotate(&r);
            assert_eq!((d.x0, d.y0), corner, "/Rotate {rot}");
            assert_eq!((d.width(), d.height()), (73.0, 98.0), "/Rotate {rot}");
            assert_eq!(letter(rot).display_matrix().apply(r.x0, r.y1), corner);
        }
    }

    #[test]
    fn matrix_composition_order() {
        let scale = Matrix::new(2.0, 0.0, 0.0, 2.0, 0.0, 0.0);
        let shift = Matrix::translate(10.0, 0.0);
        // scale first, then shift
        assert_eq!(scale.then(&shift).apply(1.0, 1.0), (12.0, 2.0));
        assert_eq!(shift.then(&scale).apply(1.0, 1.0), (22.0, 2.0));
    }

    #[test]
    fn scale_factors() {
        assert_eq!(Scale::Dpi(144.0).factor(612.0, 1.0, false), 2.0);
        assert_eq!(Scale::Dpi(72.0).factor(612.0, 3.0, true), 3.0);
        assert_eq!(Scale::PageWidth(1224.0).factor(612.0, 1.0, false), 2.0);
        assert_eq!(round2(-0.001), 0.0);
    }
}
