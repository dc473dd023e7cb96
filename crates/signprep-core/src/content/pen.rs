//! [`Pen`]: what the interpreter's text-showing operators draw with: it
//! records each glyph of a string and advances the text matrix.

use super::page::GlyphRec;
use crate::fonts::{self, GlyphSink};
use crate::geometry::Matrix;

/// Records the glyphs of one string and advances the text matrix.
pub(super) struct Pen<'g> {
    pub(super) glyphs: &'g mut Vec<GlyphRec>,
    pub(super) max_glyphs: usize,
    pub(super) full: bool,
    pub(super) tm: Matrix,
    /// Text space to display, moved along with `tm`.
    pub(super) m: Matrix,
    pub(super) run: u32,
    pub(super) size: f64,
    pub(super) h_scale: f64,
    pub(super) vertical: bool,
    pub(super) char_space: f64,
    pub(super) word_space: f64,
}

impl GlyphSink for Pen<'_> {
    // Inlined into the decoding loop: a call per glyph cost ~10% of a scan.
    #[inline(always)]
    fn glyph(&mut self, code: fonts::Code, start: usize, end: usize) {
        if self.glyphs.len() >= self.max_glyphs {
            self.full = true;
            return;
        }
        let (tm, m) = (&mut self.tm, &mut self.m);
        self.glyphs.push(GlyphRec {
            text: (start as u32, end as u32),
            at: (m.e, m.f),
            width: code.width,
            run: self.run,
            mapped: code.mapped,
        });
        let spacing = self.char_space
            + if code.word_space {
                self.word_space
            } else {
                0.0
            };
        let (dx, dy) = if self.vertical {
            (0.0, -self.size - spacing)
        } else {
            (
                (f64::from(code.width) * self.size + spacing) * self.h_scale,
                0.0,
            )
        };
        tm.e += dx * tm.a + dy * tm.c;
        tm.f += dx * tm.b + dy * tm.d;
        m.e += dx * m.a + dy * m.c;
        m.f += dx * m.b + dy * m.d;
    }
}
