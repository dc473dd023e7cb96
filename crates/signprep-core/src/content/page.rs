//! What the interpreter hands out for one page: the glyphs as runs and
//! records ([`PageText`]), turned into boxes and placements on demand, and
//! the public [`Glyph`].

use super::interpret_page;
use super::state::Fill;
use crate::diag::Diagnostic;
use crate::document::{Document, Error};
use crate::fonts::{Font, Opening};
use crate::geometry::{Matrix, Rect};
use crate::resources::Resources;
use std::sync::Arc;

/// What every glyph of one shown string has in common: the matrix from text
/// space to the displayed page, the font and the text state. Glyphs keep only
/// their own origin and width and point at their run, so the per-glyph work is
/// an advance and a push; boxes are computed only for the few glyphs a caller
/// asks about (the tags of pages that have any).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Run {
    /// Text space to displayed page coordinates (top-left origin, y down). Its
    /// translation is zero: each glyph records where its origin is.
    pub(super) m: Matrix,
    /// Bottom and top of the glyph boxes in text space (descent + rise, + size).
    pub(super) descent: f64,
    pub(super) top: f64,
    /// `Tf` size, rise and horizontal scale (`Tz / 100`).
    pub(super) font_size: f64,
    pub(super) rise: f64,
    pub(super) h_scale: f64,
    /// Effective font size (Tf size scaled by the text matrix and CTM).
    pub(super) size: f32,
    /// Index into [`PageText::fonts`].
    pub(super) font: u32,
    /// Render mode (`Tr`).
    pub(super) render_mode: u8,
    /// Painted invisibly: render mode 3/7, white fill or zero opacity.
    pub(super) hidden: bool,
    pub(super) vertical: bool,
    pub(super) fill: Fill,
    /// The clip box when the run was shown (see `GState::clip`).
    pub(super) clip: Option<Rect>,
}

/// One glyph as the interpreter records it; [`PageText`] turns it into
/// displayed page coordinates (top-left origin, y down, user-space units).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GlyphRec {
    /// Byte range of the glyph's text in [`PageText::text`].
    pub(crate) text: (u32, u32),
    /// The translation of the text-to-display matrix at this glyph: its
    /// baseline origin.
    pub(super) at: (f64, f64),
    /// The glyph's width for a 1-unit font size (to tell proportional fonts).
    pub(crate) width: f32,
    /// Index into [`PageText::runs`].
    pub(super) run: u32,
    /// Has a Unicode mapping.
    pub(crate) mapped: bool,
}

/// Everything the interpreter found on one page.
#[derive(Debug, Default)]
pub(crate) struct PageText {
    pub(crate) text: String,
    pub(crate) glyphs: Vec<GlyphRec>,
    pub(super) runs: Vec<Run>,
    pub(crate) fonts: Vec<Arc<Font>>,
    /// Glyphs counted without being placed (a page read for its text only;
    /// 0 when they were placed): see [`PageText::shown`].
    pub(super) counted: usize,
    /// Read for its text only: whether the text holds a `<#` (the run
    /// stopped there; `text` is empty on such a run).
    pub(crate) opening: Opening,
    pub(crate) images: usize,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// A run with nothing set: the run of a glyph that has none (unreachable for
/// records the interpreter made, but keeps the accessors total), and the
/// base of a run without positions' show state, which reads only its font.
pub(super) const NO_RUN: Run = Run {
    m: Matrix::IDENTITY,
    descent: 0.0,
    top: 0.0,
    font_size: 0.0,
    rise: 0.0,
    h_scale: 1.0,
    size: 0.0,
    font: u32::MAX,
    render_mode: 0,
    hidden: false,
    vertical: false,
    fill: Fill::Other,
    clip: None,
};

/// A page's buffers kept by each thread for its next page: the text, glyph
/// and run vectors grow to a page's size once instead of being allocated,
/// regrown and freed again for every page (a few large blocks each, the
/// largest the glyph records reserved for the page's content).
#[derive(Default)]
struct Spare {
    text: String,
    glyphs: Vec<GlyphRec>,
    runs: Vec<Run>,
}

/// Largest buffer kept for the next page, in bytes: a huge page's buffers
/// go back to the allocator, so what a thread holds stays small.
const MAX_SPARE_BYTES: usize = 4 << 20;

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::default();
}

impl PageText {
    /// An empty page on the buffers this thread kept (see [`PageText::recycle`]).
    pub(super) fn reuse() -> PageText {
        let spare = SPARE.with(|s| s.take());
        PageText {
            text: spare.text,
            glyphs: spare.glyphs,
            runs: spare.runs,
            ..PageText::default()
        }
    }

    /// Gives the page's buffers back to this thread for its next page (the
    /// caller is done with the page; buffers too large to be worth keeping
    /// are freed).
    pub(crate) fn recycle(self) {
        fn keep<T>(mut v: Vec<T>) -> Vec<T> {
            if v.capacity().saturating_mul(size_of::<T>()) > MAX_SPARE_BYTES {
                return Vec::new();
            }
            v.clear();
            v
        }
        let mut text = self.text;
        if text.capacity() > MAX_SPARE_BYTES {
            text = String::new();
        }
        text.clear();
        let spare = Spare {
            text,
            glyphs: keep(self.glyphs),
            runs: keep(self.runs),
        };
        SPARE.with(|s| s.replace(spare));
    }

    /// How many glyphs the page shows, placed or only counted.
    pub(crate) fn shown(&self) -> usize {
        self.counted + self.glyphs.len()
    }

    pub(crate) fn glyph_text(&self, g: &GlyphRec) -> &str {
        self.text
            .get(g.text.0 as usize..g.text.1 as usize)
            .unwrap_or_default()
    }

    pub(super) fn run(&self, g: &GlyphRec) -> &Run {
        self.runs.get(g.run as usize).unwrap_or(&NO_RUN)
    }

    /// The glyph's text-to-display matrix.
    fn matrix(&self, g: &GlyphRec) -> (&Run, Matrix) {
        let run = self.run(g);
        let mut m = run.m;
        (m.e, m.f) = g.at;
        (run, m)
    }

    pub(crate) fn font(&self, g: &GlyphRec) -> Option<&Font> {
        self.fonts.get(self.run(g).font as usize).map(|f| &**f)
    }

    /// The glyph box: advance wide, font size high, bottom at the descent.
    pub(crate) fn bbox(&self, g: &GlyphRec) -> Rect {
        let (run, m) = self.matrix(g);
        let r = if run.vertical {
            // Vertical writing: glyphs advance downwards, centred on the origin.
            let s = run.font_size;
            Rect::new(-s / 2.0, -s + run.rise, s / 2.0, run.rise)
        } else {
            let adv = f64::from(g.width) * run.font_size * run.h_scale;
            Rect::new(0.0, run.descent, adv, run.top)
        };
        m.apply_rect(&r)
    }

    /// The baseline origin, the origin plus the glyph's advance (without
    /// character spacing) and the effective font size, from one run lookup
    /// (lines are built from these for every glyph of a page with a tag).
    pub(crate) fn placement(&self, g: &GlyphRec) -> ((f64, f64), (f64, f64), f32) {
        let (run, m) = self.matrix(g);
        let end = if run.vertical {
            m.apply(0.0, -run.font_size)
        } else {
            m.apply(f64::from(g.width) * run.font_size * run.h_scale, 0.0)
        };
        (m.apply(0.0, 0.0), end, run.size)
    }

    /// Effective font size (Tf size scaled by the text matrix and CTM).
    pub(crate) fn size(&self, g: &GlyphRec) -> f32 {
        self.run(g).size
    }

    /// Painted invisibly: render mode 3/7, white fill or zero opacity.
    pub(crate) fn hidden(&self, g: &GlyphRec) -> bool {
        self.run(g).hidden
    }

    /// Entirely outside the clip box it was shown under (so not painted).
    pub(crate) fn clipped(&self, g: &GlyphRec) -> bool {
        self.run(g)
            .clip
            .is_some_and(|c| self.bbox(g).intersect(&c).is_none())
    }
}

/// A positioned glyph, as the public API hands it out.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Glyph {
    /// Unicode text (U+FFFD when the glyph has no mapping).
    pub text: String,
    /// The glyph box in displayed page coordinates (top-left origin, y down,
    /// user-space units): advance wide, font size high, bottom at the descent.
    pub bbox: Rect,
    /// Font name without the subset prefix.
    pub font: String,
    /// Effective font size.
    pub font_size: f64,
    /// Fill colour.
    pub fill: Fill,
    /// Text render mode (`Tr`, 0-7).
    pub render_mode: u8,
    /// Painted invisibly (render mode 3/7, white fill, zero opacity).
    pub hidden: bool,
}

impl Document {
    /// Every glyph page `index` (0-based) shows, in content-stream order.
    ///
    /// Convenience for inspection and tests; the scanner itself works on a
    /// flat, allocation-light representation.
    pub fn glyphs(&self, index: usize) -> Result<Vec<Glyph>, Error> {
        let page = interpret_page(&Resources::new(self), index)?;
        Ok(page
            .glyphs
            .iter()
            .map(|g| Glyph {
                text: page.glyph_text(g).to_string(),
                bbox: page.bbox(g),
                font: page.font(g).map(|f| f.name.clone()).unwrap_or_default(),
                font_size: f64::from(page.size(g)),
                fill: page.run(g).fill,
                render_mode: page.run(g).render_mode,
                hidden: page.hidden(g),
            })
            .collect())
    }
}
