//! Affine matrices, rectangles and the displayed-page transform used by the
//! expectation oracle.

/// A PDF transformation matrix `[a b c d e f]` (row-vector convention:
/// `x' = a*x + c*y + e`, `y' = b*x + d*y + f`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub e: f64,
    pub f: f64,
}

impl Matrix {
    pub const IDENTITY: Matrix = Matrix::new(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);

    pub const fn new(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64) -> Self {
        Matrix { a, b, c, d, e, f }
    }

    pub const fn translate(x: f64, y: f64) -> Self {
        Matrix::new(1.0, 0.0, 0.0, 1.0, x, y)
    }

    /// `self × other`: apply `self` first, then `other`.
    pub fn then(&self, o: &Matrix) -> Matrix {
        Matrix {
            a: self.a * o.a + self.b * o.c,
            b: self.a * o.b + self.b * o.d,
            c: self.c * o.a + self.d * o.c,
            d: self.c * o.b + self.d * o.d,
            e: self.e * o.a + self.f * o.c + o.e,
            f: self.e * o.b + self.f * o.d + o.f,
        }
    }

    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        (
            x * self.a + y * self.c + self.e,
            x * self.b + y * self.d + self.f,
        )
    }

    /// Length of the image of the text-space unit y vector: the factor by
    /// which this matrix scales a font size.
    pub fn vertical_scale(&self) -> f64 {
        self.c.hypot(self.d)
    }

    /// The six numbers as written in a content stream.
    pub fn operands(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            num(self.a),
            num(self.b),
            num(self.c),
            num(self.d),
            num(self.e),
            num(self.f)
        )
    }

    pub fn to_array(self) -> Vec<lopdf::Object> {
        [self.a, self.b, self.c, self.d, self.e, self.f]
            .into_iter()
            .map(real)
            .collect()
    }
}

/// An axis-aligned rectangle, normalised so that `x0 <= x1` and `y0 <= y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub fn new(x0: f64, y0: f64, x1: f64, y1: f64) -> Self {
        Rect {
            x0: x0.min(x1),
            y0: y0.min(y1),
            x1: x0.max(x1),
            y1: y0.max(y1),
        }
    }

    pub fn intersect(&self, o: &Rect) -> Rect {
        Rect::new(
            self.x0.max(o.x0),
            self.y0.max(o.y0),
            self.x1.min(o.x1).max(self.x0.max(o.x0)),
            self.y1.min(o.y1).max(self.y0.max(o.y0)),
        )
    }

    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }

    pub fn to_array(self) -> Vec<lopdf::Object> {
        [self.x0, self.y0, self.x1, self.y1]
            .into_iter()
            .map(real)
            .collect()
    }
}

/// The boxes and rotation of one page, as written into the page dictionary.
#[derive(Clone, Copy, Debug)]
pub struct PageGeom {
    pub media: Rect,
    pub crop: Option<Rect>,
    /// The /Rotate value exactly as written (may be negative or >= 360).
    pub rotate: i64,
    /// /UserUnit, written when set. Displayed lengths are multiplied by it,
    /// as viewers show the page.
    pub user_unit: Option<f64>,
}

impl PageGeom {
    pub fn new(w: f64, h: f64) -> Self {
        PageGeom {
            media: Rect::new(0.0, 0.0, w, h),
            crop: None,
            rotate: 0,
            user_unit: None,
        }
    }

    pub fn letter() -> Self {
        PageGeom::new(612.0, 792.0)
    }

    pub fn with_rotate(mut self, rotate: i64) -> Self {
        self.rotate = rotate;
        self
    }

    /// The visible region in user space: CropBox clipped to MediaBox.
    pub fn visible(&self) -> Rect {
        match self.crop {
            Some(c) => c.intersect(&self.media),
            None => self.media,
        }
    }

    /// /Rotate normalised to 0, 90, 180 or 270 (clockwise).
    pub fn rotation(&self) -> u32 {
        // rem_euclid of a value in 0..360 always fits in u32.
        u32::try_from(self.rotate.rem_euclid(360)).unwrap_or(0) / 90 * 90
    }

    /// The factor from user-space units to displayed points: /UserUnit, or 1.
    pub fn unit(&self) -> f64 {
        self.user_unit.unwrap_or(1.0)
    }

    /// Width and height of the page as displayed (/UserUnit applied).
    pub fn displayed_size(&self) -> (f64, f64) {
        let v = self.visible();
        let u = self.unit();
        match self.rotation() {
            90 | 270 => (v.height() * u, v.width() * u),
            _ => (v.width() * u, v.height() * u),
        }
    }

    /// Map a user-space point to displayed coordinates (origin top-left,
    /// y growing downwards, /UserUnit applied).
    pub fn to_display(&self, x: f64, y: f64) -> (f64, f64) {
        let v = self.visible();
        let (dx, dy) = match self.rotation() {
            90 => (y - v.y0, x - v.x0),
            180 => (v.x1 - x, y - v.y0),
            270 => (v.y1 - y, v.x1 - x),
            _ => (x - v.x0, v.y1 - y),
        };
        (dx * self.unit(), dy * self.unit())
    }
}

/// Round to 0.01 (and turn -0.0 into 0.0).
pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0 + 0.0
}

/// A number as written in a content stream (never uses an exponent).
pub fn num(v: f64) -> String {
    let v = v + 0.0;
    format!("{v}")
}

/// A PDF number object: an integer when the value is whole.
pub fn real(v: f64) -> lopdf::Object {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        // Whole and small: exact as i64.
        lopdf::Object::Integer(v as i64)
    } else {
        lopdf::Object::Real(v as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_maps_corners() {
        let g = PageGeom::letter().with_rotate(90);
        assert_eq!(g.displayed_size(), (792.0, 612.0));
        assert_eq!(g.to_display(0.0, 0.0), (0.0, 0.0));
        assert_eq!(g.to_display(0.0, 792.0), (792.0, 0.0));
        let g = PageGeom::letter().with_rotate(-90);
        assert_eq!(g.rotation(), 270);
        assert_eq!(g.to_display(612.0, 792.0), (0.0, 0.0));
        let g = PageGeom::letter().with_rotate(180);
        assert_eq!(g.to_display(612.0, 0.0), (0.0, 0.0));
        assert_eq!(PageGeom::letter().with_rotate(450).rotation(), 90);
    }

    #[test]
    fn matrix_composition_order() {
        let m = Matrix::translate(10.0, 0.0).then(&Matrix::new(2.0, 0.0, 0.0, 2.0, 0.0, 0.0));
        assert_eq!(m.apply(0.0, 0.0), (20.0, 0.0));
        assert_eq!(round2(-0.001), 0.0);
        assert_eq!(num(72.0), "72");
        assert_eq!(num(-0.5), "-0.5");
    }
}
