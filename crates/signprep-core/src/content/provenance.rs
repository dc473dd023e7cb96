//! Where each shown glyph came from, recorded only when asked (`migrate
//! --strip`): the stream, the operator's byte span in it, the string operand
//! and the bytes of the glyph's code in that string, and the `TJ` number that
//! moves the pen as far as the glyph did. A plain scan never builds any of
//! this: the interpreter is generic over a [`Tracer`], and a scan's
//! ([`NoTrace`]) records nothing, decoding through [`Pen`] alone; only a
//! traced run ([`super::interpret_page_traced`]) wraps it in a [`TracingPen`].

use super::Pen;
use crate::document::ObjectId;
use crate::fonts::{self, GlyphSink};

/// `GlyphSource::string` of `Tj`, `'` and `"`: their last operand.
pub(crate) const LAST_STRING: u16 = u16::MAX;

/// Where the content an operator was read from lives.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Source {
    /// A page's content: its streams as joined for the interpreter (each
    /// followed by a newline), with the offset and length of each in the join.
    Content(Vec<(Option<ObjectId>, usize, usize)>),
    /// A Form XObject's stream.
    Form(Option<ObjectId>),
}

impl Source {
    /// The stream holding the operator at `op` of the run's data, and the
    /// operator's span in that stream's decoded bytes; `None` when the stream
    /// is inline (no object to replace) or the operator spans two streams.
    pub(crate) fn locate(&self, op: (u32, u32)) -> Option<(ObjectId, (usize, usize))> {
        let (start, end) = (op.0 as usize, op.1 as usize);
        match self {
            Source::Form(id) => Some(((*id)?, (start, end))),
            Source::Content(segments) => segments
                .iter()
                .find(|&&(_, at, len)| start >= at && end <= at + len)
                .and_then(|&(id, at, _)| Some((id?, (start - at, end - at)))),
        }
    }
}

/// The provenance of one glyph record (same index as in `PageText::glyphs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GlyphSource {
    /// Index into [`Trace::sources`].
    pub(crate) source: u32,
    /// The operator with its operands: byte span in the run's data.
    pub(crate) op: (u32, u32),
    /// Which string operand of a `TJ` (0-based among its strings), or
    /// [`LAST_STRING`].
    pub(crate) string: u16,
    /// The code's bytes in that string (after unescaping).
    pub(crate) bytes: (u32, u32),
    /// The `TJ` number that moves the pen as the glyph did (its advance with
    /// character and word spacing, in thousandths of the font size; NaN at
    /// size 0, where no number can).
    pub(crate) kern: f64,
    /// Shown with a Type 3 font.
    pub(crate) type3: bool,
}

/// What a traced run records besides the page's text.
#[derive(Debug, Default)]
pub(crate) struct Trace {
    pub(crate) glyphs: Vec<GlyphSource>,
    pub(crate) sources: Vec<Source>,
    /// The source being run, the operator and string being shown.
    pub(super) current: u32,
    pub(super) op: (u32, u32),
    pub(super) string: u16,
}

impl Trace {
    /// Starts running `source`; returns the one to restore afterwards.
    pub(super) fn enter(&mut self, source: Source) -> u32 {
        let saved = self.current;
        self.sources.push(source);
        self.current = (self.sources.len() - 1) as u32;
        saved
    }

    /// The source of glyph `i`, if traced.
    pub(crate) fn source(&self, g: &GlyphSource) -> Option<&Source> {
        self.sources.get(g.source as usize)
    }
}

/// What the interpreter records of where glyphs came from: nothing
/// ([`NoTrace`], a plain scan, for which every trace step compiles to no
/// code) or a [`Trace`].
pub(super) trait Tracer {
    /// True for a run that records.
    const ON: bool;
    /// The trace being recorded (always `None` for [`NoTrace`]).
    fn get(&mut self) -> Option<&mut Trace>;
}

/// A run that records no provenance.
pub(super) struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn get(&mut self) -> Option<&mut Trace> {
        None
    }
}

impl Tracer for Trace {
    const ON: bool = true;
    #[inline(always)]
    fn get(&mut self) -> Option<&mut Trace> {
        Some(self)
    }
}

/// A [`Pen`] that also records each glyph's [`GlyphSource`].
pub(super) struct TracingPen<'p, 'g> {
    pub(super) pen: &'p mut Pen<'g>,
    pub(super) trace: &'p mut Trace,
    /// Offset of the next code in the string.
    pub(super) at: u32,
    pub(super) type3: bool,
}

impl GlyphSink for TracingPen<'_, '_> {
    fn glyph(&mut self, code: fonts::Code, start: usize, end: usize) {
        let before = self.pen.glyphs.len();
        self.pen.glyph(code, start, end);
        let from = self.at;
        self.at += u32::from(code.len);
        if self.pen.glyphs.len() == before {
            return;
        }
        let p = &self.pen;
        let spacing = p.char_space + if code.word_space { p.word_space } else { 0.0 };
        // `Interp::kern`: a number n moves the pen by -n/1000 * size along
        // the line (times the horizontal scale, which the glyph's advance
        // carries too), and down by the same for vertical writing.
        let kern = if p.size == 0.0 {
            f64::NAN
        } else if p.vertical {
            (p.size + spacing) * 1000.0 / p.size
        } else {
            -(f64::from(code.width) * p.size + spacing) * 1000.0 / p.size
        };
        let t = &mut *self.trace;
        t.glyphs.push(GlyphSource {
            source: t.current,
            op: t.op,
            string: t.string,
            bytes: (from, self.at),
            kern,
            type3: self.type3,
        });
    }
}
