//! The content-stream interpreter: positions every glyph a page shows.
//!
//! It follows the text and graphics state operators that move text (`q Q cm`,
//! `BT ET`, `Tf Tm Td TD T* TL Tc Tw Tz Ts Tr`, `Tj TJ ' "`), the fill colour and
//! `/ca` opacity (to tell hidden text), and Form XObjects through `Do`. Everything
//! else is skipped. Glyphs land in a [`PageText`]: one text buffer for the page
//! and a flat vector of glyph records, so the hot path allocates only to grow them.

mod appearance;
mod args;
mod clip;
mod lexer;
mod page;
mod pen;
mod provenance;
mod run;
mod state;
mod streams;

use crate::diag::{Code, Diagnostic};
use crate::document::{Dict, Document, Error, ObjectId, StreamError, matrix_of};
use crate::fonts::{Damage, Font};
use crate::geometry::{Matrix, Rect};
use crate::resources::Resources;
use crate::stream_cache::Reuse;
pub(crate) use appearance::{Appearance, interpret_appearances};
use args::Args;
pub(crate) use lexer::{Lexer, Operands, Tok};
pub use page::Glyph;
use page::NO_RUN;
pub(crate) use page::{PageText, Run};
use pen::Pen;
pub(crate) use provenance::{LAST_STRING, Source, Trace};
use provenance::{Tracer, TracingPen};
pub(crate) use run::{interpret_page, interpret_page_for_tags, interpret_page_traced};
pub use state::Fill;
use state::GState;
use std::sync::Arc;

/// Font resources a page remembers by address (see `Interp::font_slots`).
const MAX_FONT_SLOTS: usize = 64;

/// Deepest `q` nesting honoured.
const MAX_GSTATE_DEPTH: usize = 1024;

/// The font at page index `i` of `fonts` (the fallback for an index out of
/// range, which the interpreter never makes). A free function so that it can
/// borrow the fonts beside the glyphs being written.
fn font_in<'f>(fonts: &'f [Arc<Font>], res: &'f Resources<'_>, i: u32) -> &'f Font {
    fonts
        .get(i as usize)
        .map_or_else(|| res.fallback(), Arc::as_ref)
}

/// The state the strings of one text-showing operator share.
struct ShowCtx {
    /// The run being filled (its font included); `m` is the linear part it
    /// was made for.
    run: Run,
    /// Its index in [`PageText::runs`], once a glyph was shown.
    run_idx: Option<u32>,
    ctm_display: Matrix,
    char_space: f64,
    word_space: f64,
}

struct Interp<'a, T: Tracer> {
    doc: &'a Document,
    /// The caches of the scan (fonts, decoded streams).
    res: &'a Resources<'a>,
    page: usize,
    display: Matrix,
    out: PageText,
    gs: GState,
    stack: Vec<GState>,
    tm: Matrix,
    tlm: Matrix,
    /// Form XObjects being run (cycle guard).
    forms: Vec<ObjectId>,
    warned_font: bool,
    /// Set when a per-page limit stopped the page.
    full: bool,
    operators: usize,
    /// The page's fonts by the address of their resource entry: index into
    /// [`PageText::fonts`]. The text state holds such an index, not an
    /// `Arc<Font>`: `Tf`, `q` and `Q` then touch no reference count that the
    /// threads scanning other pages of the document share (that cache-line
    /// traffic made two threads slower per glyph than one).
    /// Searched linearly (pages use a few fonts; past [`MAX_FONT_SLOTS`] the
    /// document's cache answers).
    font_slots: Vec<(usize, u32)>,
    /// Index of the fallback font, once needed.
    fallback: Option<u32>,
    /// The bounding box of the path being built, user space.
    path: Option<Rect>,
    /// `W`/`W*` seen: the path ends as a clip.
    clip_next: bool,
    /// Where glyphs came from: [`NoTrace`] for a scan, a [`Trace`] when
    /// asked (`interpret_page_traced`).
    trace: T,
    /// Place and record each glyph; false counts them only and keeps of
    /// their text whether it opens a tag (`PageText::opening`; see
    /// [`interpret_page_for_tags`]).
    positions: bool,
    /// A composite font's text, one string at a time, on a run without
    /// positions.
    scratch: String,
}

impl<'a, T: Tracer> Interp<'a, T> {
    /// An interpreter for page `index`, drawing through `display`.
    fn new(res: &'a Resources<'a>, index: usize, display: Matrix, trace: T) -> Self {
        Interp {
            doc: res.doc(),
            res,
            page: index,
            display,
            out: PageText::reuse(),
            gs: GState::default(),
            stack: Vec::new(),
            tm: Matrix::IDENTITY,
            tlm: Matrix::IDENTITY,
            forms: Vec::new(),
            warned_font: false,
            full: false,
            operators: 0,
            font_slots: Vec::new(),
            fallback: None,
            path: None,
            clip_next: false,
            trace,
            positions: true,
            scratch: String::new(),
        }
    }

    /// The finding of a page a per-page limit stopped.
    fn report_full(&mut self) {
        if !self.full {
            return;
        }
        let o = &self.doc.options;
        self.out.diagnostics.push(
            Diagnostic::new(
                Code::ContentUnreadable,
                format!(
                    "page {}: the page has more than {} operators or {} glyphs (max_operators_per_page, max_glyphs_per_page); the rest of it was skipped",
                    self.page + 1,
                    o.max_operators_per_page,
                    o.max_glyphs_per_page
                ),
            )
            .page(self.page),
        );
    }

    fn run(&mut self, content: &[u8], resources: Option<Dict<'a>>) -> Result<(), Error> {
        let mut lexer = Lexer::new(content);
        // A run without positions uses no operand's number.
        lexer.values = self.positions;
        let mut operands = Operands::default();
        // Where the operator's operands began: the end of the one before.
        let mut op_start = 0;
        while let Some(operator) = lexer.next_op(&mut operands) {
            // A run without positions is over at the first `<#`: the page is
            // then run again with them.
            if self.full || self.out.opening.found {
                break;
            }
            self.operators += 1;
            if self.operators.is_multiple_of(4096) {
                self.doc.check_time()?;
            }
            if self.operators > self.doc.options.max_operators_per_page {
                self.full = true;
            }
            if let Some(t) = self.trace.get() {
                t.op = (op_start as u32, lexer.pos() as u32);
                t.string = LAST_STRING;
                op_start = lexer.pos();
            }
            let args = Args {
                toks: &operands.toks,
                strings: &operands.strings,
                data: content,
            };
            self.op(operator, &args, resources)?;
        }
        if lexer.flooded {
            self.out.diagnostics.push(
                Diagnostic::new(
                    Code::ContentUnreadable,
                    format!(
                        "page {}: a content stream holds more than 65536 operands without an operator; the rest of it was skipped",
                        self.page + 1
                    ),
                )
                .page(self.page),
            );
        }
        Ok(())
    }

    fn op(
        &mut self,
        operator: &[u8],
        args: &Args<'_>,
        resources: Option<Dict<'a>>,
    ) -> Result<(), Error> {
        // A run without positions needs the operators that choose a font,
        // show text or run a form, and `q`/`Q` around them; the others only
        // move, clip or colour what is shown.
        if !self.positions
            && !matches!(
                operator,
                b"q" | b"Q" | b"Tf" | b"Tj" | b"'" | b"\"" | b"TJ" | b"Do" | b"EI"
            )
        {
            return Ok(());
        }
        let ts = &mut self.gs.text;
        match operator {
            b"q" if self.stack.len() < MAX_GSTATE_DEPTH => self.stack.push(self.gs.clone()),
            b"Q" => {
                if let Some(gs) = self.stack.pop() {
                    self.gs = gs;
                }
            }
            // Paths only matter for clipping (`clip.rs`).
            b"re" | b"m" | b"l" | b"c" | b"v" | b"y" | b"W" | b"W*" | b"n" | b"f" | b"F"
            | b"f*" | b"S" | b"s" | b"B" | b"B*" | b"b" | b"b*" => self.path_op(operator, args),
            b"cm" => {
                if let Some(m) = args.matrix() {
                    self.gs.ctm = m.then(&self.gs.ctm);
                }
            }
            b"BT" => {
                self.tm = Matrix::IDENTITY;
                self.tlm = Matrix::IDENTITY;
            }
            b"Tf" => {
                if let Some([size]) = args.nums::<1>() {
                    ts.size = size;
                }
                let font = args.name(0).and_then(|n| self.lookup_font(resources, &n));
                self.gs.text.font = font;
            }
            b"Tc" => ts.char_space = args.num(0).unwrap_or(ts.char_space),
            b"Tw" => ts.word_space = args.num(0).unwrap_or(ts.word_space),
            b"Tz" => ts.h_scale = args.num(0).map_or(ts.h_scale, |v| v / 100.0),
            b"TL" => ts.leading = args.num(0).unwrap_or(ts.leading),
            b"Ts" => ts.rise = args.num(0).unwrap_or(ts.rise),
            b"Tr" => {
                ts.render_mode = args
                    .num(0)
                    .map_or(ts.render_mode, |v| v.clamp(0.0, 7.0) as u8)
            }
            b"Td" => {
                if let Some([tx, ty]) = args.nums::<2>() {
                    self.next_line(tx, ty);
                }
            }
            b"TD" => {
                if let Some([tx, ty]) = args.nums::<2>() {
                    ts.leading = -ty;
                    self.next_line(tx, ty);
                }
            }
            b"Tm" => {
                if let Some(m) = args.matrix() {
                    self.tm = m;
                    self.tlm = m;
                }
            }
            b"T*" => {
                let l = ts.leading;
                self.next_line(0.0, -l);
            }
            b"Tj" => {
                if let Some(s) = args.last_string() {
                    self.show(s);
                }
            }
            b"'" => {
                let l = ts.leading;
                self.next_line(0.0, -l);
                if let Some(s) = args.last_string() {
                    self.show(s);
                }
            }
            b"\"" => {
                if let (Some(aw), Some(ac)) = (args.num(0), args.num(1)) {
                    ts.word_space = aw;
                    ts.char_space = ac;
                }
                let l = self.gs.text.leading;
                self.next_line(0.0, -l);
                if let Some(s) = args.last_string() {
                    self.show(s);
                }
            }
            b"TJ" => {
                let mut ctx = None;
                let mut string = 0u16;
                for tok in args.toks {
                    match *tok {
                        Tok::Str(a, b) => {
                            if let Some(t) = self.trace.get() {
                                t.string = string;
                            }
                            string = string.saturating_add(1);
                            if let Some(s) = args.strings.get(a as usize..b as usize) {
                                let ctx = ctx.get_or_insert_with(|| self.show_ctx());
                                self.show_with(ctx, s);
                            }
                        }
                        Tok::Num(n) => self.kern(n),
                        _ => {}
                    }
                }
            }
            b"g" => self.gs.fill = args.nums::<1>().map_or(Fill::Other, |[g]| Fill::Gray(g)),
            b"rg" => self.gs.fill = args.nums::<3>().map_or(Fill::Other, Fill::Rgb),
            b"k" => self.gs.fill = args.nums::<4>().map_or(Fill::Other, Fill::Cmyk),
            b"cs" => {
                self.gs.fill = match args.name(0).as_deref() {
                    Some(b"DeviceGray" | b"G") => Fill::Gray(0.0),
                    Some(b"DeviceRGB" | b"RGB") => Fill::Rgb([0.0; 3]),
                    Some(b"DeviceCMYK" | b"CMYK") => Fill::Cmyk([0.0, 0.0, 0.0, 1.0]),
                    _ => Fill::Other,
                }
            }
            b"sc" | b"scn" => {
                let n = args
                    .toks
                    .iter()
                    .filter(|t| matches!(t, Tok::Num(_)))
                    .count();
                let pattern = matches!(args.toks.last(), Some(Tok::Name(..)));
                self.gs.fill = match (n, pattern) {
                    (_, true) => Fill::Other,
                    (1, _) => args.nums::<1>().map_or(Fill::Other, |[g]| Fill::Gray(g)),
                    (3, _) => args.nums::<3>().map_or(Fill::Other, Fill::Rgb),
                    (4, _) => args.nums::<4>().map_or(Fill::Other, Fill::Cmyk),
                    _ => Fill::Other,
                };
            }
            b"gs" => {
                if let Some(name) = args.name(0)
                    && let Some(ca) = self.ext_gstate_alpha(resources, &name)
                {
                    self.gs.fill_alpha = ca;
                }
            }
            b"Do" => {
                if let Some(name) = args.name(0) {
                    self.do_xobject(resources, &name)?;
                }
            }
            b"EI" => self.out.images += 1,
            _ => {}
        }
        Ok(())
    }

    fn next_line(&mut self, tx: f64, ty: f64) {
        self.tlm = Matrix::translate(tx, ty).then(&self.tlm);
        self.tm = self.tlm;
    }

    /// Moves the text matrix by a `TJ` number.
    fn kern(&mut self, n: f64) {
        let vertical = self.gs.text.font.is_some_and(|i| self.font_at(i).vertical);
        let ts = &self.gs.text;
        let d = -n / 1000.0 * ts.size;
        self.tm = if vertical {
            Matrix::translate(0.0, d).then(&self.tm)
        } else {
            Matrix::translate(d * ts.h_scale, 0.0).then(&self.tm)
        };
    }

    /// The page's index of font resource `name`.
    fn lookup_font(&mut self, resources: Option<Dict<'a>>, name: &[u8]) -> Option<u32> {
        let fonts = resources.and_then(|r| self.doc.get_dict(r, b"Font"))?;
        let entry = fonts.get(name)?;
        // The entry's address is stable: the document is not modified while
        // it is scanned.
        let key = entry.addr();
        if let Some(&(_, i)) = self.font_slots.iter().find(|(k, _)| *k == key) {
            return Some(i);
        }
        let font = self.res.font(entry);
        let known = self.out.fonts.len();
        let i = self.font_index(&font);
        // Reported once per page, when the page first selects the font.
        if let Some(damage) = font.damage
            && self.out.fonts.len() > known
        {
            self.out.diagnostics.push(
                Diagnostic::new(
                    Code::FontUnreadable,
                    format!(
                        "page {}: font /{}{} {}",
                        self.page + 1,
                        String::from_utf8_lossy(name),
                        match damage {
                            Damage::NotAFont => String::new(),
                            _ if font.name.is_empty() => String::new(),
                            _ => format!(" ({})", font.name),
                        },
                        damage.describe()
                    ),
                )
                .page(self.page),
            );
        }
        if self.font_slots.len() < MAX_FONT_SLOTS {
            self.font_slots.push((key, i));
        }
        Some(i)
    }

    fn ext_gstate_alpha(&self, resources: Option<Dict<'a>>, name: &[u8]) -> Option<f64> {
        let gstates = resources.and_then(|r| self.doc.get_dict(r, b"ExtGState"))?;
        let gs = gstates
            .get(name)
            .and_then(|o| self.doc.resolve(o))?
            .as_dict()?;
        self.doc.get_number(gs, b"ca")
    }

    /// The index of `font` in [`PageText::fonts`], added on first use. Two
    /// resource names for one font object share an index.
    fn font_index(&mut self, font: &Arc<Font>) -> u32 {
        if let Some(i) = self.out.fonts.iter().position(|f| Arc::ptr_eq(f, font)) {
            return i as u32;
        }
        self.out.fonts.push(Arc::clone(font));
        (self.out.fonts.len() - 1) as u32
    }

    fn font_at(&self, i: u32) -> &Font {
        font_in(&self.out.fonts, self.res, i)
    }

    fn show(&mut self, bytes: &[u8]) {
        let mut ctx = self.show_ctx();
        self.show_with(&mut ctx, bytes);
    }

    /// Prepares what the strings of one text-showing operator share: the
    /// font (warning once per page when there is none) and the text state;
    /// the font alone on a run without positions, which uses nothing else.
    fn show_ctx(&mut self) -> ShowCtx {
        let font = self.show_font();
        if !self.positions {
            return ShowCtx {
                run: Run { font, ..NO_RUN },
                run_idx: None,
                ctm_display: Matrix::IDENTITY,
                char_space: 0.0,
                word_space: 0.0,
            };
        }
        let (descent, vertical) = {
            let f = self.font_at(font);
            (f.descent, f.vertical)
        };
        let ts = &self.gs.text;
        let descent = descent * ts.size + ts.rise;
        ShowCtx {
            run: Run {
                m: Matrix::IDENTITY,
                descent,
                top: descent + ts.size,
                font_size: ts.size,
                rise: ts.rise,
                h_scale: ts.h_scale,
                size: 0.0,
                font,
                render_mode: ts.render_mode,
                hidden: matches!(ts.render_mode, 3 | 7)
                    || self.gs.fill.is_white()
                    || self.gs.fill_alpha <= 0.0,
                vertical,
                fill: self.gs.fill,
                clip: self.gs.clip,
            },
            run_idx: None,
            ctm_display: self.gs.ctm.then(&self.display),
            char_space: ts.char_space,
            word_space: ts.word_space,
        }
    }

    /// The font the text state shows with: its index in the page's fonts,
    /// or the fallback's when there is none (warning once per page).
    fn show_font(&mut self) -> u32 {
        if let Some(f) = self.gs.text.font {
            return f;
        }
        if !self.warned_font {
            self.warned_font = true;
            self.out.diagnostics.push(
                Diagnostic::new(
                    Code::FontUnreadable,
                    format!("page {}: text is shown without a usable font; Helvetica metrics were assumed", self.page + 1),
                )
                .page(self.page),
            );
        }
        match self.fallback {
            Some(i) => i,
            None => {
                let i = self.font_index(&self.res.fallback_font());
                self.fallback = Some(i);
                i
            }
        }
    }

    /// Shows one string with the state `ctx` holds (the `TJ` kerning between
    /// strings only moves the text matrix).
    fn show_with(&mut self, ctx: &mut ShowCtx, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let max_glyphs = self.doc.options.max_glyphs_per_page;
        let shown = self.out.shown();
        if shown >= max_glyphs {
            self.full = true;
            return;
        }
        if !self.positions {
            let font = font_in(&self.out.fonts, self.res, ctx.run.font);
            let n = font.open_tags(bytes, &mut self.out.opening, &mut self.scratch);
            // As the pen does glyph by glyph: past the limit, the page is full.
            if n > max_glyphs - shown {
                self.full = true;
                self.out.counted = max_glyphs;
            } else {
                self.out.counted += n;
            }
            return;
        }
        // Within one string only the translation of Tm changes, so the full
        // text-to-display matrix is built once and moved along with it.
        let m = self.tm.then(&ctx.ctm_display);
        let linear = Matrix {
            e: 0.0,
            f: 0.0,
            ..m
        };
        let run_idx = match ctx.run_idx {
            Some(i) if ctx.run.m == linear => i,
            _ => {
                let (vx, vy) = m.apply_vector(0.0, 1.0);
                ctx.run.size = (ctx.run.font_size.abs() * (vx * vx + vy * vy).sqrt()) as f32;
                ctx.run.m = linear;
                let runs = &mut self.out.runs;
                // Consecutive `Tj`s in one state share a run too.
                let i = match runs.last() {
                    Some(last) if *last == ctx.run => runs.len() - 1,
                    _ => {
                        runs.push(ctx.run);
                        runs.len() - 1
                    }
                } as u32;
                ctx.run_idx = Some(i);
                i
            }
        };
        let run = &ctx.run;
        let font = font_in(&self.out.fonts, self.res, run.font);
        let mut pen = Pen {
            glyphs: &mut self.out.glyphs,
            max_glyphs,
            full: self.full,
            tm: self.tm,
            m,
            run: run_idx,
            size: run.font_size,
            h_scale: run.h_scale,
            vertical: run.vertical,
            char_space: ctx.char_space,
            word_space: ctx.word_space,
        };
        let mut text = std::mem::take(&mut self.out.text);
        match self.trace.get() {
            None => font.decode(bytes, &mut text, &mut pen),
            Some(trace) => font.decode(
                bytes,
                &mut text,
                &mut TracingPen {
                    pen: &mut pen,
                    trace,
                    at: 0,
                    type3: font.type3,
                },
            ),
        }
        let (tm, full) = (pen.tm, pen.full);
        let out = &mut self.out;
        out.text = text;
        self.tm = tm;
        self.full = full;
    }

    fn do_xobject(&mut self, resources: Option<Dict<'a>>, name: &[u8]) -> Result<(), Error> {
        let doc = self.doc;
        let Some(xobjects) = resources.and_then(|r| doc.get_dict(r, b"XObject")) else {
            return Ok(());
        };
        let Some(entry) = xobjects.get(name) else {
            return Ok(());
        };
        let Some((id, stream)) = doc.resolve_stream(entry) else {
            return Ok(());
        };
        match doc.get_name(stream.dict(), b"Subtype") {
            Some(b"Image") => {
                self.out.images += 1;
                return Ok(());
            }
            Some(b"Form") => {}
            _ => return Ok(()),
        }
        let too_deep = self.forms.len() >= doc.options.max_xobject_depth;
        let cycle = id.is_some_and(|id| self.forms.contains(&id));
        if too_deep || cycle {
            self.out.diagnostics.push(
                Diagnostic::new(
                    Code::XobjectDepthExceeded,
                    format!(
                        "page {}: Form XObject /{} {}; its content was skipped",
                        self.page + 1,
                        String::from_utf8_lossy(name),
                        if cycle {
                            "calls itself"
                        } else {
                            "nests too deeply"
                        }
                    ),
                )
                .page(self.page),
            );
            return Ok(());
        }
        let data = match self.res.decoded_stream(id, stream, Reuse::Form) {
            Ok(d) => d,
            Err(StreamError::Limit(limit)) => {
                return Err(Error::limit_on_page(limit, self.page));
            }
            Err(StreamError::DocumentLimit(limit)) => return Err(Error::limit(limit)),
            Err(StreamError::Corrupt(msg)) => {
                self.out.diagnostics.push(
                    Diagnostic::new(
                        Code::ContentUnreadable,
                        format!(
                            "page {}: Form XObject /{} could not be decoded ({msg})",
                            self.page + 1,
                            String::from_utf8_lossy(name)
                        ),
                    )
                    .page(self.page),
                );
                return Ok(());
            }
        };
        let matrix = doc
            .get_array(stream.dict(), b"Matrix")
            .and_then(|a| matrix_of(doc, a))
            .unwrap_or(Matrix::IDENTITY);
        let inner_resources = doc.get_dict(stream.dict(), b"Resources").or(resources);
        let saved_stack = self.stack.len();
        self.stack.push(self.gs.clone());
        let (saved_tm, saved_tlm) = (self.tm, self.tlm);
        self.gs.ctm = matrix.then(&self.gs.ctm);
        self.forms.push(id.unwrap_or((0, 0)));
        let outer = self.trace.get().map(|t| t.enter(Source::Form(id)));
        let result = self.run(&data, inner_resources);
        if let (Some(t), Some(outer)) = (self.trace.get(), outer) {
            t.current = outer;
        }
        self.forms.pop();
        // Restore whatever the form left unbalanced.
        self.stack.truncate(saved_stack + 1);
        if let Some(gs) = self.stack.pop() {
            self.gs = gs;
        }
        self.tm = saved_tm;
        self.tlm = saved_tlm;
        result
    }
}
