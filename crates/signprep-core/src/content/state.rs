//! Graphics and text state.

use crate::geometry::{Matrix, Rect};

/// A glyph's fill colour, in its device space.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "space", content = "components", rename_all = "lowercase")]
pub enum Fill {
    /// DeviceGray.
    Gray(f64),
    /// DeviceRGB.
    Rgb([f64; 3]),
    /// DeviceCMYK.
    Cmyk([f64; 4]),
    /// A pattern, a separation, an ICC space we do not interpret.
    Other,
}

impl Fill {
    /// White in its device space (gray 1, RGB 1 1 1, CMYK 0 0 0 0).
    pub fn is_white(&self) -> bool {
        const HI: f64 = 0.995;
        const LO: f64 = 0.005;
        match *self {
            Fill::Gray(g) => g >= HI,
            Fill::Rgb(c) => c.iter().all(|&v| v >= HI),
            Fill::Cmyk(c) => c.iter().all(|&v| v <= LO),
            Fill::Other => false,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct TextState {
    /// Index of the font in the page's [`super::PageText::fonts`].
    pub(crate) font: Option<u32>,
    pub(crate) size: f64,
    pub(crate) char_space: f64,
    pub(crate) word_space: f64,
    /// `Tz / 100`.
    pub(crate) h_scale: f64,
    pub(crate) leading: f64,
    pub(crate) rise: f64,
    pub(crate) render_mode: u8,
}

impl Default for TextState {
    fn default() -> Self {
        TextState {
            font: None,
            size: 0.0,
            char_space: 0.0,
            word_space: 0.0,
            h_scale: 1.0,
            leading: 0.0,
            rise: 0.0,
            render_mode: 0,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct GState {
    pub(crate) ctm: Matrix,
    pub(crate) fill: Fill,
    pub(crate) fill_alpha: f64,
    pub(crate) text: TextState,
    /// The clipping path's bounding box in displayed page coordinates
    /// (`None`: the whole page). Rectangles approximate every clip path: a
    /// glyph outside this box is certainly not painted; one inside it may
    /// still be clipped by a curved or non-rectangular path.
    pub(crate) clip: Option<Rect>,
}

impl Default for GState {
    fn default() -> Self {
        GState {
            ctm: Matrix::IDENTITY,
            fill: Fill::Gray(0.0),
            fill_alpha: 1.0,
            text: TextState::default(),
            clip: None,
        }
    }
}
