//! A content-stream writer that also simulates the text state, so that every
//! glyph it emits is known with its box. This is the oracle: it never reads
//! the PDF back, it only remembers what it wrote.

use std::rc::Rc;

use crate::Error;
use crate::fonts::FontSpec;
use crate::geom::{Matrix, num};

/// One shown glyph: its rectangle in text space (relative to the text
/// matrix at the moment it was shown) and the matrix to user space.
#[derive(Debug, Clone)]
pub struct Glyph {
    pub ch: char,
    /// x from 0 to the glyph's own advance (width × size × Tz; the Tc and Tw
    /// that follow a glyph move the next one but are not part of its box, as
    /// in pdfminer, whose convention the service's oracle follows), y from descent to
    /// descent + size, in unscaled text space units.
    pub advance: f64,
    pub bottom: f64,
    pub top: f64,
    /// Text space (Tm × CTM) to user space of the page.
    pub m: Matrix,
    pub size: f64,
    pub font: String,
    pub hidden: bool,
}

impl Glyph {
    /// Corners in user space.
    pub fn corners(&self) -> [(f64, f64); 4] {
        [
            self.m.apply(0.0, self.bottom),
            self.m.apply(self.advance, self.bottom),
            self.m.apply(0.0, self.top),
            self.m.apply(self.advance, self.top),
        ]
    }

    /// Effective font size: Tf size scaled by the text and CTM matrices.
    pub fn effective_size(&self) -> f64 {
        self.size * self.m.vertical_scale()
    }
}

/// A tag as the generator placed it: its full text and its glyphs.
#[derive(Debug, Clone)]
pub struct PlacedTag {
    pub text: String,
    pub glyphs: Vec<Glyph>,
}

impl PlacedTag {
    fn transformed(&self, m: &Matrix) -> PlacedTag {
        let glyphs = self
            .glyphs
            .iter()
            .map(|g| Glyph {
                m: g.m.then(m),
                ..g.clone()
            })
            .collect();
        PlacedTag {
            text: self.text.clone(),
            glyphs,
        }
    }
}

/// Another vendor's text tag as the generator placed it, with what the
/// fixture's author wrote in it that sizes the field.
#[derive(Debug, Clone)]
pub struct PlacedVendorTag {
    /// `adobe`, `dropbox`, `boldsign`, `docuseal`, `signnow`, `pandadoc`,
    /// `documenso`.
    pub dialect: &'static str,
    pub tag: PlacedTag,
    /// Explicit width and height written in the tag (DocuSeal, signNow).
    pub width: Option<f64>,
    pub height: Option<f64>,
    /// A DocuSign anchor's tab, relative to the anchor text.
    pub anchor_tab: Option<AnchorPlacement>,
}

/// Where a DocuSign tab lands relative to its anchor's text box, as the
/// fixture's author worked it out from the tab definition (offsets already
/// in points, the 21 pt of sign-here tabs included): from the box's left
/// edge (or the right edge of its last glyph) and top, `dx` right and `dy`
/// down, `width` x `height`.
#[derive(Debug, Clone, Copy)]
pub struct AnchorPlacement {
    pub dx: f64,
    pub dy: f64,
    pub width: f64,
    pub height: f64,
    pub from_right: bool,
}

/// What a finished content stream holds for the oracle.
#[derive(Debug, Clone, Default)]
pub struct Drawn {
    /// The content, split into one or more streams (see
    /// [`ContentWriter::split`]); a form uses their concatenation.
    pub streams: Vec<Vec<u8>>,
    pub tags: Vec<PlacedTag>,
    pub unterminated: usize,
    /// Other vendors' tags.
    pub vendor_tags: Vec<PlacedVendorTag>,
    /// Vendor tags wrapped onto a second line (no field expected).
    pub vendor_split: usize,
    /// `{{…}}` that no grammar of the document reads (`vendor_tag_unread`).
    pub vendor_unread: usize,
}

#[derive(Debug, Clone)]
struct State {
    ctm: Matrix,
    font: Option<Rc<FontSpec>>,
    size: f64,
    tc: f64,
    tw: f64,
    tz: f64,
    tl: f64,
    tr: i64,
    fill_white: bool,
}

/// A piece of a TJ array.
#[derive(Debug, Clone, Copy)]
pub enum Tj<'a> {
    Text(&'a str),
    Kern(f64),
}

#[derive(Debug)]
pub struct ContentWriter {
    out: String,
    done: Vec<Vec<u8>>,
    st: State,
    stack: Vec<State>,
    tm: Matrix,
    tlm: Matrix,
    glyphs: Vec<Glyph>,
    mark: Option<usize>,
    tags: Vec<PlacedTag>,
    unterminated: usize,
    vendor_tags: Vec<PlacedVendorTag>,
    vendor_split: usize,
    vendor_unread: usize,
    /// Where the first line of a wrapped vendor tag ends (see [`ContentWriter::wrap`]).
    wrap: Option<usize>,
}

impl Default for ContentWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl ContentWriter {
    pub fn new() -> Self {
        ContentWriter {
            out: String::new(),
            done: Vec::new(),
            st: State {
                ctm: Matrix::IDENTITY,
                font: None,
                size: 0.0,
                tc: 0.0,
                tw: 0.0,
                tz: 100.0,
                tl: 0.0,
                tr: 0,
                fill_white: false,
            },
            stack: Vec::new(),
            tm: Matrix::IDENTITY,
            tlm: Matrix::IDENTITY,
            glyphs: Vec::new(),
            mark: None,
            tags: Vec::new(),
            unterminated: 0,
            vendor_tags: Vec::new(),
            vendor_split: 0,
            vendor_unread: 0,
            wrap: None,
        }
    }

    fn line(&mut self, s: &str) -> &mut Self {
        self.out.push_str(s);
        self.out.push('\n');
        self
    }

    /// Raw operators that change no state the oracle tracks (paths, etc.).
    pub fn raw(&mut self, s: &str) -> &mut Self {
        self.line(s)
    }

    pub fn q(&mut self) -> &mut Self {
        self.stack.push(self.st.clone());
        self.line("q")
    }

    pub fn big_q(&mut self) -> &mut Self {
        if let Some(s) = self.stack.pop() {
            self.st = s;
        }
        self.line("Q")
    }

    pub fn cm(&mut self, m: Matrix) -> &mut Self {
        self.st.ctm = m.then(&self.st.ctm);
        let s = format!("{} cm", m.operands());
        self.line(&s)
    }

    pub fn bt(&mut self) -> &mut Self {
        self.tm = Matrix::IDENTITY;
        self.tlm = Matrix::IDENTITY;
        self.line("BT")
    }

    pub fn et(&mut self) -> &mut Self {
        self.line("ET")
    }

    pub fn tf(&mut self, resource: &str, font: &Rc<FontSpec>, size: f64) -> &mut Self {
        self.st.font = Some(Rc::clone(font));
        self.st.size = size;
        let s = format!("/{resource} {} Tf", num(size));
        self.line(&s)
    }

    pub fn td(&mut self, x: f64, y: f64) -> &mut Self {
        self.tlm = Matrix::translate(x, y).then(&self.tlm);
        self.tm = self.tlm;
        let s = format!("{} {} Td", num(x), num(y));
        self.line(&s)
    }

    pub fn tm(&mut self, m: Matrix) -> &mut Self {
        self.tlm = m;
        self.tm = m;
        let s = format!("{} Tm", m.operands());
        self.line(&s)
    }

    pub fn tl(&mut self, leading: f64) -> &mut Self {
        self.st.tl = leading;
        let s = format!("{} TL", num(leading));
        self.line(&s)
    }

    /// `T*`: move to the start of the next line.
    pub fn next_line(&mut self) -> &mut Self {
        self.tlm = Matrix::translate(0.0, -self.st.tl).then(&self.tlm);
        self.tm = self.tlm;
        self.line("T*")
    }

    pub fn tc(&mut self, v: f64) -> &mut Self {
        self.st.tc = v;
        let s = format!("{} Tc", num(v));
        self.line(&s)
    }

    pub fn tw(&mut self, v: f64) -> &mut Self {
        self.st.tw = v;
        let s = format!("{} Tw", num(v));
        self.line(&s)
    }

    pub fn tz(&mut self, v: f64) -> &mut Self {
        self.st.tz = v;
        let s = format!("{} Tz", num(v));
        self.line(&s)
    }

    pub fn tr(&mut self, mode: i64) -> &mut Self {
        self.st.tr = mode;
        let s = format!("{mode} Tr");
        self.line(&s)
    }

    /// Fill colour in any colour space; `white` tells the oracle whether it
    /// is white. `op` is the operator with operands, e.g. `"1 1 1 rg"`.
    pub fn fill(&mut self, op: &str, white: bool) -> &mut Self {
        self.st.fill_white = white;
        self.line(op)
    }

    fn hidden(&self) -> bool {
        self.st.tr == 3 || self.st.tr == 7 || self.st.fill_white
    }

    /// Simulate showing `text`; returns the string operand.
    fn simulate(&mut self, text: &str) -> Result<String, Error> {
        let font = self
            .st
            .font
            .clone()
            .ok_or_else(|| Error::new("text shown before Tf"))?;
        let operand = font.string_operand(text)?;
        let size = self.st.size;
        let th = self.st.tz / 100.0;
        for (ch, code) in font.encode(text)? {
            let glyph_advance = font.width(code) / 1000.0 * size * th;
            let mut tx = font.width(code) / 1000.0 * size + self.st.tc;
            if !font.two_byte && code == 32 {
                tx += self.st.tw;
            }
            tx *= th;
            let bottom = font.descent / 1000.0 * size;
            self.glyphs.push(Glyph {
                ch,
                advance: glyph_advance,
                bottom,
                top: bottom + size,
                m: self.tm.then(&self.st.ctm),
                size,
                font: font.report.clone(),
                hidden: self.hidden(),
            });
            self.tm = Matrix::translate(tx, 0.0).then(&self.tm);
        }
        Ok(operand)
    }

    /// `Tj`.
    pub fn show(&mut self, text: &str) -> Result<&mut Self, Error> {
        let operand = self.simulate(text)?;
        Ok(self.line(&format!("{operand} Tj")))
    }

    /// `TJ` with text pieces and kerning numbers.
    pub fn show_tj(&mut self, parts: &[Tj<'_>]) -> Result<&mut Self, Error> {
        let mut ops = Vec::new();
        for part in parts {
            match *part {
                Tj::Text(t) => ops.push(self.simulate(t)?),
                Tj::Kern(k) => {
                    let tx = -k / 1000.0 * self.st.size * self.st.tz / 100.0;
                    self.tm = Matrix::translate(tx, 0.0).then(&self.tm);
                    ops.push(num(k));
                }
            }
        }
        Ok(self.line(&format!("[{}] TJ", ops.join(" "))))
    }

    /// Start a tag at the next glyph shown.
    pub fn mark(&mut self) -> &mut Self {
        self.mark = Some(self.glyphs.len());
        self
    }

    /// End the tag begun by [`ContentWriter::mark`] at the last glyph shown.
    pub fn tag(&mut self) -> Result<&mut Self, Error> {
        let start = self
            .mark
            .take()
            .ok_or_else(|| Error::new("tag() without mark()"))?;
        self.push_tag(start, self.glyphs.len())?;
        Ok(self)
    }

    /// Show `line` in one Tj and record each of `tags` (substrings of
    /// `line`, found left to right) as a tag.
    pub fn show_with_tags(&mut self, line: &str, tags: &[&str]) -> Result<&mut Self, Error> {
        let g0 = self.glyphs.len();
        self.show(line)?;
        let chars: Vec<char> = line.chars().collect();
        let mut from = 0;
        for t in tags {
            let tc: Vec<char> = t.chars().collect();
            let pos = (from..chars.len())
                .find(|&i| chars[i..].starts_with(&tc))
                .ok_or_else(|| Error::new(format!("{t:?} not in {line:?}")))?;
            self.push_tag(g0 + pos, g0 + pos + tc.len())?;
            from = pos + tc.len();
        }
        Ok(self)
    }

    fn push_tag(&mut self, start: usize, end: usize) -> Result<(), Error> {
        let glyphs = self
            .glyphs
            .get(start..end)
            .ok_or_else(|| Error::new("bad tag range"))?
            .to_vec();
        let text: String = glyphs.iter().map(|g| g.ch).collect();
        if !(text.starts_with("<#") && text.ends_with("#>") && text.len() >= 4) {
            return Err(Error::new(format!("marked text {text:?} is not a tag")));
        }
        self.tags.push(PlacedTag { text, glyphs });
        Ok(())
    }

    /// The vendor tag begun by [`ContentWriter::mark`] goes on on another
    /// line from here: its field is the box of the glyphs shown so far.
    pub fn wrap(&mut self) -> &mut Self {
        self.wrap = Some(self.glyphs.len());
        self
    }

    /// End a vendor tag begun by [`ContentWriter::mark`] at the last glyph
    /// shown; `width`/`height` are the explicit size its text sets, if any.
    pub fn vendor(
        &mut self,
        dialect: &'static str,
        width: Option<f64>,
        height: Option<f64>,
    ) -> Result<&mut Self, Error> {
        self.vendor_continued(dialect, "", width, height)
    }

    /// As [`ContentWriter::vendor`], for a tag whose text goes on with
    /// `rest` at the top of the next page (read whole, placed here).
    pub fn vendor_continued(
        &mut self,
        dialect: &'static str,
        rest: &str,
        width: Option<f64>,
        height: Option<f64>,
    ) -> Result<&mut Self, Error> {
        let start = self
            .mark
            .take()
            .ok_or_else(|| Error::new("vendor() without mark()"))?;
        let all = self
            .glyphs
            .get(start..)
            .ok_or_else(|| Error::new("bad vendor tag range"))?;
        let mut text: String = all.iter().map(|g| g.ch).collect();
        text.push_str(rest);
        let boxed = self
            .wrap
            .take()
            .map_or(all.len(), |w| w.saturating_sub(start));
        let glyphs = all.get(..boxed).unwrap_or(all).to_vec();
        self.push_vendor(dialect, text, glyphs, width, height)
    }

    /// How many glyphs were shown so far (to name a vendor tag inside one
    /// `TJ` with [`ContentWriter::vendor_between`]).
    pub fn glyphs_shown(&self) -> usize {
        self.glyphs.len()
    }

    /// A vendor tag drawn by glyphs `start..end` (see
    /// [`ContentWriter::glyphs_shown`]).
    pub fn vendor_between(
        &mut self,
        dialect: &'static str,
        start: usize,
        end: usize,
        width: Option<f64>,
        height: Option<f64>,
    ) -> Result<&mut Self, Error> {
        let glyphs = self
            .glyphs
            .get(start..end)
            .ok_or_else(|| Error::new("bad vendor tag range"))?
            .to_vec();
        let text: String = glyphs.iter().map(|g| g.ch).collect();
        self.push_vendor(dialect, text, glyphs, width, height)
    }

    /// Records a vendor tag written `text`, boxed by `glyphs`.
    fn push_vendor(
        &mut self,
        dialect: &'static str,
        text: String,
        glyphs: Vec<Glyph>,
        width: Option<f64>,
        height: Option<f64>,
    ) -> Result<&mut Self, Error> {
        let delimited = (text.starts_with('{') && text.ends_with('}'))
            || (text.starts_with('[') && text.ends_with(']'));
        if !delimited {
            return Err(Error::new(format!(
                "marked text {text:?} is not a vendor tag"
            )));
        }
        self.vendor_tags.push(PlacedVendorTag {
            dialect,
            tag: PlacedTag { text, glyphs },
            width,
            height,
            anchor_tab: None,
        });
        Ok(self)
    }

    /// End a DocuSign anchor begun by [`ContentWriter::mark`] at the last
    /// glyph shown (any text: anchors have no delimiters), with where its tab goes.
    pub fn anchor(&mut self, tab: AnchorPlacement) -> Result<&mut Self, Error> {
        let start = self
            .mark
            .take()
            .ok_or_else(|| Error::new("anchor() without mark()"))?;
        let glyphs = self
            .glyphs
            .get(start..)
            .ok_or_else(|| Error::new("bad anchor range"))?
            .to_vec();
        if glyphs.is_empty() {
            return Err(Error::new("an empty anchor"));
        }
        let text: String = glyphs.iter().map(|g| g.ch).collect();
        self.vendor_tags.push(PlacedVendorTag {
            dialect: "docusign",
            tag: PlacedTag { text, glyphs },
            width: None,
            height: None,
            anchor_tab: Some(tab),
        });
        Ok(self)
    }

    /// Record a vendor tag wrapped onto the next line (no field expected).
    pub fn vendor_split(&mut self) -> &mut Self {
        self.vendor_split += 1;
        self
    }

    /// Record a `{{…}}` no grammar of the document reads (a finding, no field).
    pub fn vendor_unread(&mut self) -> &mut Self {
        self.vendor_unread += 1;
        self
    }

    /// Record that a `<#` on this content has no closing `#>` on its line.
    pub fn unterminated(&mut self) -> &mut Self {
        self.unterminated += 1;
        self
    }

    /// `/name Do` of an image (no text inside).
    pub fn do_image(&mut self, name: &str) -> &mut Self {
        let s = format!("/{name} Do");
        self.line(&s)
    }

    /// `/name Do` of a form XObject drawn earlier with `form_matrix`.
    pub fn do_form(&mut self, name: &str, form: &Drawn, form_matrix: Matrix) -> &mut Self {
        let m = form_matrix.then(&self.st.ctm);
        self.tags
            .extend(form.tags.iter().map(|t| t.transformed(&m)));
        self.vendor_tags
            .extend(form.vendor_tags.iter().map(|v| PlacedVendorTag {
                tag: v.tag.transformed(&m),
                ..v.clone()
            }));
        self.unterminated += form.unterminated;
        let s = format!("/{name} Do");
        self.line(&s)
    }

    /// End the current content stream and start another one: the page's
    /// /Contents becomes an array; graphics state carries over.
    pub fn split(&mut self) -> &mut Self {
        let s = std::mem::take(&mut self.out);
        self.done.push(s.into_bytes());
        self
    }

    pub fn finish(mut self) -> Drawn {
        if !self.out.is_empty() || self.done.is_empty() {
            self.split();
        }
        Drawn {
            streams: self.done,
            tags: self.tags,
            unterminated: self.unterminated,
            vendor_tags: self.vendor_tags,
            vendor_split: self.vendor_split,
            vendor_unread: self.vendor_unread,
        }
    }
}
