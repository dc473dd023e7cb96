//! Fonts as the interpreter needs them: how bytes split into codes, each code's
//! advance width and Unicode text, and the font's descent.

pub(crate) mod cmap;
pub(crate) mod generated;
pub(crate) mod glyphs;
mod opening;

use crate::document::{Array, Dict, Document, Obj, StreamError, matrix_of};
use crate::geometry::Matrix;
use cmap::CMap;
use generated::encodings;
use generated::standard14::{Standard14, standard14};
pub(crate) use opening::Opening;

/// How a font's bytes become codes.
#[derive(Debug)]
enum Kind {
    /// One byte per code.
    Simple {
        /// Width per code, in text-space units for a 1-unit font size.
        widths: Box<[f32; 256]>,
        /// Text per code: `(start, len)` into `Font::text`; len 0 = unmapped.
        text: Box<[(u32, u8); 256]>,
        /// The text of a code when it is one character (the usual case), pushed
        /// as a `char`: copying a one-byte slice out of `Font::text` was most of
        /// `decode`'s own cost.
        single: Box<[Option<char>; 256]>,
    },
    /// Type0 (composite): codes through a CMap, widths by CID.
    Composite {
        /// The encoding CMap; `None` for Identity-H/V (two bytes, CID = code).
        encoding: Option<CMap>,
        /// Default width (text space, 1-unit size).
        dw: f32,
        /// `(first_cid, last_cid, width)` sorted by first CID.
        w: Vec<(u32, u32, f32)>,
    },
}

/// What kept a font from being read whole; reported as `font_unreadable` on
/// every page that selects the font.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Damage {
    /// The font resource is not a font dictionary: Helvetica stands in.
    NotAFont,
    /// A Type0 font without a usable descendant font: default widths.
    NoDescendant,
    /// A Type0 font's /Encoding CMap stream does not decode: codes are read as
    /// two-byte CIDs (Identity-H).
    EncodingUnreadable,
    /// The /ToUnicode stream does not decode: text comes from the encoding alone.
    ToUnicodeUnreadable,
}

/// Why a font's text is a guess although each code has one: the text came
/// from an encoding the font program itself need not follow, and no
/// `/ToUnicode` says otherwise (none, or one that maps none of the codes,
/// such as the empty CMap of pdf.js `issue18911.pdf`'s figure font). Such text may read as garbage (`<#3’4%56#`
/// for a figure label); see `tags` for what is made of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guess {
    /// An embedded TrueType (or OpenType) program: it draws each code through
    /// its own `cmap`, which a subset (a Quartz figure font, say) may number
    /// freely, whatever `/Encoding` the dictionary names.
    EmbeddedTrueType,
    /// An embedded program without `/Encoding`: its built-in encoding is not
    /// read here, and StandardEncoding was assumed.
    BuiltInEncoding,
}

impl Guess {
    /// What the text of the font was read through, for a finding's message.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Guess::EmbeddedTrueType => {
                "is an embedded TrueType font without a usable /ToUnicode, read through its /Encoding (StandardEncoding when it names none), which the font program need not follow"
            }
            Guess::BuiltInEncoding => {
                "is an embedded font without a usable /ToUnicode or an /Encoding, read as if in StandardEncoding"
            }
        }
    }
}

impl Damage {
    /// What was assumed instead, to end the finding's message.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Damage::NotAFont => "is not a font dictionary; Helvetica metrics were assumed",
            Damage::NoDescendant => {
                "is a composite (Type0) font without a descendant font; default widths were assumed"
            }
            Damage::EncodingUnreadable => {
                "has an /Encoding CMap that could not be decoded; codes were read as two-byte CIDs"
            }
            Damage::ToUnicodeUnreadable => {
                "has a /ToUnicode CMap that could not be decoded; text was read through the font's encoding alone"
            }
        }
    }
}

/// A font ready for decoding.
///
/// Aligned to a cache line so that, inside its `Arc`, the reference counts
/// (changed by `Tf`, `q` and `Q` on any thread) do not share a line with the
/// fields every glyph reads: that false sharing made two threads scanning
/// pages of one document slower than one.
#[derive(Debug)]
#[repr(align(64))]
pub(crate) struct Font {
    /// Base font name without the subset prefix.
    pub(crate) name: String,
    kind: Kind,
    to_unicode: Option<CMap>,
    /// Text storage for simple fonts.
    text: String,
    /// Descent in text space for a 1-unit font size (negative or zero).
    pub(crate) descent: f64,
    /// True for Identity-V / vertical CMaps.
    pub(crate) vertical: bool,
    /// The descriptor's FixedPitch flag.
    pub(crate) fixed_pitch: bool,
    /// The first problem met while reading the font, if any.
    pub(crate) damage: Option<Damage>,
    /// Set when the font's text is a guess ([`Guess`]).
    pub(crate) guess: Option<Guess>,
    /// A Type 3 font (glyphs drawn by content streams of its own).
    pub(crate) type3: bool,
    /// What each code's text means for finding a `<#` (a simple font's,
    /// made on first use: [`Font::open_tags`]).
    marks: std::sync::OnceLock<Box<[u8; 256]>>,
}

/// One decoded code.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Code {
    /// Width, text-space units for a 1-unit font size.
    pub(crate) width: f32,
    /// True for a single-byte code 32 (word spacing applies).
    pub(crate) word_space: bool,
    /// False when no Unicode text is known for the code.
    pub(crate) mapped: bool,
    /// Bytes of the string the code took (1 for simple fonts).
    pub(crate) len: u8,
}

/// Receives the codes [`Font::decode`] reads: the code's metrics and the byte
/// range of its text in the output string.
pub(crate) trait GlyphSink {
    fn glyph(&mut self, code: Code, start: usize, end: usize);
}

impl<F: FnMut(Code, usize, usize)> GlyphSink for F {
    fn glyph(&mut self, code: Code, start: usize, end: usize) {
        self(code, start, end);
    }
}

impl Font {
    /// A stand-in used when a font resource is missing: Helvetica metrics, Standard encoding.
    pub(crate) fn fallback() -> Font {
        let mut font = Font::simple_from(None, "Helvetica".into(), Kind::simple_empty());
        font.damage = Some(Damage::NotAFont);
        let std = standard14("Helvetica");
        // Glyph space is 1/1000 of text space, as in `load_simple`.
        let font_matrix = Matrix::new(0.001, 0.0, 0.0, 0.001, 0.0, 0.0);
        let descent = std.map_or(0.0, |s| -f64::from(s.descent).abs());
        font.descent = font_matrix.apply_vector(0.0, descent).1;
        let _ = font.fill_simple(std, None, Array::default(), font_matrix, None);
        font
    }

    /// Reads a font dictionary. Never fails: damage is flagged, not fatal.
    pub(crate) fn load(doc: &Document, dict: Dict<'_>) -> Font {
        let subtype = doc.get_name(dict, b"Subtype").unwrap_or(b"Type1");
        // Type3 fonts often have no /BaseFont; their /Name is the next best label.
        let base = doc
            .get_name(dict, b"BaseFont")
            .or_else(|| doc.get_name(dict, b"Name"))
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let name = strip_subset(&base).to_string();
        match subtype {
            b"Type0" => Font::load_type0(doc, dict, name),
            b"Type3" => Font::load_simple(doc, dict, name, true),
            _ => Font::load_simple(doc, dict, name, false),
        }
    }

    fn simple_from(descriptor: Option<Dict<'_>>, name: String, kind: Kind) -> Font {
        let _ = descriptor;
        Font {
            name,
            kind,
            to_unicode: None,
            text: String::new(),
            descent: 0.0,
            vertical: false,
            fixed_pitch: false,
            damage: None,
            guess: None,
            type3: false,
            marks: std::sync::OnceLock::new(),
        }
    }

    fn load_simple(doc: &Document, dict: Dict<'_>, name: String, type3: bool) -> Font {
        let mut font = Font::simple_from(None, name, Kind::simple_empty());
        font.type3 = type3;
        let std = if type3 { None } else { standard14(&font.name) };
        let descriptor = doc.get_dict(dict, b"FontDescriptor");
        // Type3 glyph space maps to text space through /FontMatrix.
        let font_matrix = if type3 {
            doc.get_array(dict, b"FontMatrix")
                .and_then(|a| matrix_of(doc, a))
                .unwrap_or(Matrix::new(0.001, 0.0, 0.0, 0.001, 0.0, 0.0))
        } else {
            Matrix::new(0.001, 0.0, 0.0, 0.001, 0.0, 0.0)
        };
        font.to_unicode = load_to_unicode(doc, dict, &mut font.damage);
        let encoding = doc.get(dict, b"Encoding");

        // Widths.
        let widths = doc.get_array(dict, b"Widths");
        let first_char = doc
            .get_number(dict, b"FirstChar")
            .map_or(0, |v| v.clamp(0.0, 255.0) as usize);
        let missing = descriptor
            .and_then(|d| doc.get_number(d, b"MissingWidth"))
            .unwrap_or(0.0);
        let explicit: Vec<Option<f64>> = widths
            .map(|w| {
                w.iter()
                    .map(|o| doc.resolve(o).and_then(Obj::as_number))
                    .collect()
            })
            .unwrap_or_default();

        // Descent, flags.
        let (descent, flags) = match (descriptor, std) {
            (Some(d), _) if doc.get_number(d, b"Descent").is_some() => (
                doc.get_number(d, b"Descent").unwrap_or(0.0),
                doc.get_number(d, b"Flags").unwrap_or(0.0) as i64,
            ),
            (d, Some(s)) => (
                f64::from(s.descent),
                d.and_then(|d| doc.get_number(d, b"Flags"))
                    .map_or(if s.fixed_pitch { 1 } else { 0 }, |f| f as i64),
            ),
            (d, None) => (
                0.0,
                d.and_then(|d| doc.get_number(d, b"Flags")).unwrap_or(0.0) as i64,
            ),
        };
        // pdfminer's convention: descent is always below the baseline.
        let descent = -descent.abs();
        font.descent = font_matrix.apply_vector(0.0, descent).1;
        font.fixed_pitch = flags & 1 == 1 || std.is_some_and(|s| s.fixed_pitch);

        let symbolic = flags & 4 != 0;
        let explicit_widths =
            (!explicit.is_empty()).then_some((first_char, explicit.as_slice(), missing));
        let base_table = base_encoding(doc, encoding, std, symbolic);
        let differences = encoding
            .and_then(Obj::as_dict)
            .and_then(|d| doc.get_array(d, b"Differences"))
            .unwrap_or_default();
        let from_to_unicode =
            font.fill_simple(std, explicit_widths, differences, font_matrix, base_table);
        // A /ToUnicode that maps none of the codes (an empty CMap) is none.
        if !from_to_unicode && !type3 {
            let program = |key: &[u8]| descriptor.is_some_and(|d| doc.get(d, key).is_some());
            let truetype = doc.get_name(dict, b"Subtype") == Some(b"TrueType".as_slice());
            font.guess = if truetype && (program(b"FontFile2") || program(b"FontFile3")) {
                Some(Guess::EmbeddedTrueType)
            } else if encoding.is_none()
                && std.is_none()
                && (program(b"FontFile") || program(b"FontFile3"))
            {
                Some(Guess::BuiltInEncoding)
            } else {
                None
            };
        }
        font
    }

    /// Fills per-code widths and text for a simple font; true when the
    /// /ToUnicode gave the text of some code.
    fn fill_simple(
        &mut self,
        std: Option<&'static Standard14>,
        explicit: Option<(usize, &[Option<f64>], f64)>,
        differences: Array<'_>,
        font_matrix: Matrix,
        base: Option<&'static [Option<&'static str>; 256]>,
    ) -> bool {
        let base = base
            .or(std.map(|s| s.builtin_encoding))
            .unwrap_or(&encodings::STANDARD_ENCODING);
        // /Differences, in order (a later entry for a code wins). Names are borrowed:
        // they are ASCII in practice, and an owned copy per name cost an allocation.
        let mut renamed: Vec<(usize, std::borrow::Cow<'_, str>)> = Vec::new();
        let mut code = 0usize;
        for item in differences {
            if let Some(i) = item.as_i64() {
                code = i.clamp(0, 256) as usize;
            } else if let Some(n) = item.as_name() {
                if code < 256 {
                    renamed.push((code, String::from_utf8_lossy(n)));
                }
                code += 1;
            }
        }
        // Glyph names: base encoding, then /Differences.
        let mut names: [Option<&str>; 256] = *base;
        let mut differs = [false; 256];
        for (code, name) in &renamed {
            if let (Some(slot), Some(flag)) = (names.get_mut(*code), differs.get_mut(*code)) {
                *slot = Some(name.as_ref());
                *flag = true;
            }
        }
        // The base encoding's text and standard-font widths, mapped once per
        // process rather than per font.
        let base_text = glyphs::encoding_text(base);
        let base_widths = match (explicit, std) {
            (None, Some(s)) => glyphs::encoding_widths(s, base),
            _ => None,
        };

        let Font {
            kind,
            to_unicode,
            text: font_text,
            ..
        } = self;
        let Kind::Simple {
            widths,
            text,
            single,
        } = kind
        else {
            return false;
        };
        let mut from_to_unicode = false;
        font_text.reserve(base_text.map_or(256, |t| t.text.len()));
        for c in 0..256usize {
            let name = names.get(c).copied().flatten();
            // Width.
            let w = match explicit {
                Some((first, list, missing)) => {
                    match c.checked_sub(first).and_then(|i| list.get(i)) {
                        Some(Some(w)) => *w,
                        _ => missing,
                    }
                }
                None => match (base_widths, differs.get(c)) {
                    (Some(ws), Some(false)) => ws.get(c).copied().flatten(),
                    _ => name.and_then(|n| std.and_then(|s| s.width(n))),
                }
                .map_or(0.0, f64::from),
            };
            if let Some(slot) = widths.get_mut(c) {
                *slot = font_matrix.apply_vector(w, 0.0).0 as f32;
            }

            // Text: ToUnicode first, then the glyph name; appended straight to the
            // font's text and dropped again if unmapped or too long.
            let start = font_text.len();
            let unicode = to_unicode.as_ref().is_some_and(|tu| {
                tu.unicode(c as u32, 1, font_text) || tu.unicode(c as u32, 2, font_text)
            });
            from_to_unicode |= unicode;
            let mapped = unicode
                || match (base_text, differs.get(c)) {
                    (Some(t), Some(false)) => {
                        font_text.push_str(t.get(c));
                        true
                    }
                    _ => name.is_some_and(|n| glyphs::push_glyph_unicode(n, font_text)),
                };
            let len = font_text.len() - start;
            if mapped && len > 0 && len < 256 {
                if let Some(slot) = text.get_mut(c) {
                    *slot = (start as u32, len as u8);
                }
                let mut chars = font_text.get(start..).unwrap_or_default().chars();
                if let (Some(ch), None, Some(slot)) =
                    (chars.next(), chars.next(), single.get_mut(c))
                {
                    *slot = Some(ch);
                }
            } else {
                font_text.truncate(start);
            }
        }
        from_to_unicode
    }

    fn load_type0(doc: &Document, dict: Dict<'_>, name: String) -> Font {
        let mut damage = None;
        let descendant = doc
            .get_array(dict, b"DescendantFonts")
            .and_then(Array::first)
            .and_then(|o| doc.resolve(o))
            .and_then(Obj::as_dict);
        if descendant.is_none() {
            damage = Some(Damage::NoDescendant);
        }
        let encoding = doc.get(dict, b"Encoding");
        let (encoding, vertical) = match (
            encoding.and_then(Obj::as_name),
            encoding.and_then(Obj::as_stream),
        ) {
            (Some(n), _) => (None, n.ends_with(b"-V")),
            (None, Some(s)) => match doc.stream_bytes(s) {
                Ok(data) => {
                    let cmap = CMap::parse(&data);
                    let v = cmap.vertical;
                    (Some(cmap), v)
                }
                Err(e) => {
                    note(&mut damage, Damage::EncodingUnreadable, &e);
                    (None, false)
                }
            },
            (None, None) => (None, false),
        };
        let descriptor = descendant.and_then(|d| doc.get_dict(d, b"FontDescriptor"));
        let descent = descriptor
            .and_then(|d| doc.get_number(d, b"Descent"))
            .unwrap_or(0.0);
        let flags = descriptor
            .and_then(|d| doc.get_number(d, b"Flags"))
            .unwrap_or(0.0) as i64;
        let dw = descendant
            .and_then(|d| doc.get_number(d, b"DW"))
            .unwrap_or(1000.0);
        let w = descendant
            .and_then(|d| doc.get_array(d, b"W"))
            .map(|a| parse_w(doc, a))
            .unwrap_or_default();
        Font {
            name,
            kind: Kind::Composite {
                encoding,
                dw: (dw / 1000.0) as f32,
                w,
            },
            to_unicode: load_to_unicode(doc, dict, &mut damage),
            text: String::new(),
            descent: -descent.abs() / 1000.0,
            vertical,
            fixed_pitch: flags & 1 == 1,
            damage,
            guess: None,
            type3: false,
            marks: std::sync::OnceLock::new(),
        }
    }

    /// Decodes `bytes` code by code, appending each code's text to `out` and
    /// calling `f` with the code's metrics and the byte range of its text in `out`.
    #[inline]
    pub(crate) fn decode(&self, bytes: &[u8], out: &mut String, f: &mut impl GlyphSink) {
        match &self.kind {
            Kind::Simple {
                widths,
                text,
                single,
            } => {
                for &b in bytes {
                    let at = out.len();
                    let mapped = match self.simple_text(text, single, b) {
                        CodeText::Char(ch) => {
                            out.push(ch);
                            true
                        }
                        CodeText::Str(s) => {
                            out.push_str(s);
                            true
                        }
                        CodeText::Unmapped => {
                            out.push('\u{fffd}');
                            false
                        }
                    };
                    let code = Code {
                        width: widths[usize::from(b)],
                        word_space: b == 32,
                        mapped,
                        len: 1,
                    };
                    f.glyph(code, at, out.len());
                }
            }
            Kind::Composite { encoding, dw, w } => {
                let mut rest = bytes;
                while !rest.is_empty() {
                    let (code, len) = match encoding {
                        Some(cmap) if cmap.has_codespaces() => cmap.next_code(rest, 2),
                        _ => match rest {
                            [a, b, ..] => (u32::from(*a) << 8 | u32::from(*b), 2),
                            [a] => (u32::from(*a), 1),
                            [] => break,
                        },
                    };
                    rest = rest.get(usize::from(len)..).unwrap_or(&[]);
                    let cid = match encoding {
                        Some(cmap) => cmap.cid(code, len).unwrap_or(code),
                        None => code,
                    };
                    let width = cid_width(w, cid).unwrap_or(*dw);
                    let at = out.len();
                    let mapped = self
                        .to_unicode
                        .as_ref()
                        .is_some_and(|tu| tu.unicode(code, len, out));
                    if !mapped {
                        out.push('\u{fffd}');
                    }
                    let code = Code {
                        width,
                        word_space: len == 1 && code == 32,
                        mapped,
                        len,
                    };
                    f.glyph(code, at, out.len());
                }
            }
        }
    }
}

/// What [`Font::decode`] writes for one code of a simple font.
enum CodeText<'a> {
    Char(char),
    Str(&'a str),
    /// No Unicode text: U+FFFD is written.
    Unmapped,
}

impl Font {
    /// The text of code `b` of a simple font whose tables are `text` and
    /// `single`: its one char, its text, or none.
    #[inline(always)]
    fn simple_text<'a>(
        &'a self,
        text: &[(u32, u8); 256],
        single: &[Option<char>; 256],
        b: u8,
    ) -> CodeText<'a> {
        if let Some(ch) = single[usize::from(b)] {
            return CodeText::Char(ch);
        }
        let (start, len) = text[usize::from(b)];
        let s = start as usize;
        match len {
            0 => CodeText::Unmapped,
            _ => CodeText::Str(self.text.get(s..s + usize::from(len)).unwrap_or("\u{fffd}")),
        }
    }
}

impl Kind {
    fn simple_empty() -> Kind {
        Kind::Simple {
            widths: Box::new([0.0; 256]),
            text: Box::new([(0, 0); 256]),
            single: Box::new([None; 256]),
        }
    }
}

fn cid_width(w: &[(u32, u32, f32)], cid: u32) -> Option<f32> {
    let idx = w.partition_point(|&(first, _, _)| first <= cid);
    let &(first, last, width) = w.get(idx.checked_sub(1)?)?;
    (first <= cid && cid <= last).then_some(width)
}

/// Parses a CIDFont `/W` array: `c [w1 w2 ...]` and `c_first c_last w` forms.
fn parse_w(doc: &Document, arr: Array<'_>) -> Vec<(u32, u32, f32)> {
    const MAX: usize = 200_000;
    let mut out = Vec::new();
    let mut i = 0;
    while i < arr.len() && out.len() < MAX {
        let Some(first) = arr
            .get(i)
            .and_then(|o| doc.resolve(o))
            .and_then(Obj::as_number)
        else {
            i += 1;
            continue;
        };
        let first = first.max(0.0) as u32;
        let Some(next) = arr.get(i + 1).and_then(|o| doc.resolve(o)) else {
            break;
        };
        if let Some(ws) = next.as_array() {
            for (k, wobj) in ws.iter().enumerate().take(MAX) {
                if let Some(wv) = doc.resolve(wobj).and_then(Obj::as_number) {
                    let cid = first.saturating_add(k as u32);
                    out.push((cid, cid, (wv / 1000.0) as f32));
                }
            }
            i += 2;
        } else {
            let last = next.as_number().map_or(first, |v| v.max(0.0) as u32);
            let wv = arr
                .get(i + 2)
                .and_then(|o| doc.resolve(o))
                .and_then(Obj::as_number);
            if let Some(wv) = wv {
                out.push((first, last.max(first), (wv / 1000.0) as f32));
            }
            i += 3;
        }
    }
    out.sort_by_key(|&(first, _, _)| first);
    out
}

fn load_to_unicode(doc: &Document, dict: Dict<'_>, damage: &mut Option<Damage>) -> Option<CMap> {
    let stream = doc.get(dict, b"ToUnicode")?.as_stream()?;
    match doc.stream_bytes(stream) {
        Ok(data) => Some(CMap::parse(&data)),
        Err(e) => {
            note(damage, Damage::ToUnicodeUnreadable, &e);
            None
        }
    }
}

/// Keeps `what` as the font's damage (the first one met) when the stream
/// itself failed. A document-wide budget is left out: which stream crosses
/// it first depends on how pages were scheduled, and the findings must not.
fn note(damage: &mut Option<Damage>, what: Damage, error: &StreamError) {
    if !matches!(error, StreamError::DocumentLimit(_)) && damage.is_none() {
        *damage = Some(what);
    }
}

fn base_encoding(
    doc: &Document,
    encoding: Option<Obj<'_>>,
    std: Option<&'static Standard14>,
    symbolic: bool,
) -> Option<&'static [Option<&'static str>; 256]> {
    let encoding = encoding?;
    let name = match encoding.as_name() {
        Some(n) => n,
        None => doc.get_name(encoding.as_dict()?, b"BaseEncoding")?,
    };
    // Symbolic standard fonts keep their built-in encoding.
    if std.is_some_and(|s| s.symbolic) && symbolic {
        return None;
    }
    match name {
        b"WinAnsiEncoding" => Some(&encodings::WIN_ANSI_ENCODING),
        b"MacRomanEncoding" => Some(&encodings::MAC_ROMAN_ENCODING),
        b"StandardEncoding" => Some(&encodings::STANDARD_ENCODING),
        b"PDFDocEncoding" => Some(&encodings::PDF_DOC_ENCODING),
        _ => None,
    }
}

/// `ABCDEF+Name` → `Name`.
pub(crate) fn strip_subset(name: &str) -> &str {
    match name.split_once('+') {
        Some((prefix, rest))
            if prefix.len() == 6 && prefix.bytes().all(|b| b.is_ascii_uppercase()) =>
        {
            rest
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_prefix_is_stripped() {
        assert_eq!(strip_subset("ABCDEF+Inconsolata"), "Inconsolata");
        assert_eq!(strip_subset("Inconsolata"), "Inconsolata");
        assert_eq!(strip_subset("abc+X"), "abc+X");
    }

    #[test]
    fn cid_widths_lookup() {
        let w = vec![(1, 1, 0.5), (10, 20, 0.6)];
        assert_eq!(cid_width(&w, 1), Some(0.5));
        assert_eq!(cid_width(&w, 15), Some(0.6));
        assert_eq!(cid_width(&w, 5), None);
        assert_eq!(cid_width(&w, 0), None);
    }
}
