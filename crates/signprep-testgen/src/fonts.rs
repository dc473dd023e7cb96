//! Fonts: what the oracle knows about each font (codes, widths, descent,
//! reported name) and the lopdf objects that declare it in a PDF.
//!
//! Widths and descents are in thousandths of the font size (glyph space
//! already scaled by the FontMatrix, which is 0.001 for every font here).

use std::collections::BTreeMap;
use std::rc::Rc;

use lopdf::{Dictionary, Document, Object, Stream, dictionary};

use crate::Error;
use crate::geom::real;

/// Helvetica advance widths (standard AFM) for codes 32..=126 under
/// WinAnsiEncoding (39 = quotesingle, 96 = grave).
const HELVETICA_ASCII: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// Descents from the base-14 AFM files (as in pdfminer's FONT_METRICS).
pub const COURIER_DESCENT: f64 = -194.0;
pub const HELVETICA_DESCENT: f64 = -207.0;

/// What the oracle knows about a font.
#[derive(Debug, Clone)]
pub struct FontSpec {
    /// Font name as reported by the scanner (subset prefix stripped).
    pub report: String,
    /// Descent in thousandths of the font size (negative below baseline).
    pub descent: f64,
    /// Two-byte codes (Type0 / Identity-H); Tw never applies.
    pub two_byte: bool,
    codes: BTreeMap<char, u32>,
    widths: BTreeMap<u32, f64>,
    default_width: f64,
}

impl FontSpec {
    /// Codes for `text`, failing on a character the font cannot show.
    pub fn encode(&self, text: &str) -> Result<Vec<(char, u32)>, Error> {
        text.chars()
            .map(|ch| {
                self.codes
                    .get(&ch)
                    .map(|&c| (ch, c))
                    .ok_or_else(|| Error::new(format!("font {} cannot show {ch:?}", self.report)))
            })
            .collect()
    }

    pub fn width(&self, code: u32) -> f64 {
        self.widths
            .get(&code)
            .copied()
            .unwrap_or(self.default_width)
    }

    /// Encode `text` as a content-stream string operand.
    pub fn string_operand(&self, text: &str) -> Result<String, Error> {
        let codes = self.encode(text)?;
        if self.two_byte {
            let hex: String = codes.iter().map(|(_, c)| format!("{c:04X}")).collect();
            return Ok(format!("<{hex}>"));
        }
        let mut out = String::from("(");
        for (_, code) in codes {
            match code {
                0x28 => out.push_str("\\("),
                0x29 => out.push_str("\\)"),
                0x5C => out.push_str("\\\\"),
                0x20..=0x7E => out.push(char::from_u32(code).unwrap_or('?')),
                _ => out.push_str(&format!("\\{code:03o}")),
            }
        }
        out.push(')');
        Ok(out)
    }
}

fn ascii_codes() -> BTreeMap<char, u32> {
    (32u8..=126)
        .map(|b| (char::from(b), u32::from(b)))
        .collect()
}

/// Standard-14 Courier. With `winansi`, also maps 'É' to 0xC9.
pub fn courier(winansi: bool) -> Rc<FontSpec> {
    let mut codes = ascii_codes();
    if winansi {
        codes.insert('É', 0xC9);
    }
    Rc::new(FontSpec {
        report: "Courier".into(),
        descent: COURIER_DESCENT,
        two_byte: false,
        codes,
        widths: BTreeMap::new(),
        default_width: 600.0,
    })
}

/// Standard-14 Helvetica with WinAnsiEncoding (no apostrophes needed).
pub fn helvetica() -> Rc<FontSpec> {
    let mut widths: BTreeMap<u32, f64> = (32u32..)
        .zip(HELVETICA_ASCII)
        .map(|(c, w)| (c, f64::from(w)))
        .collect();
    let mut codes = ascii_codes();
    codes.insert('É', 0xC9);
    widths.insert(0xC9, 667.0);
    Rc::new(FontSpec {
        report: "Helvetica".into(),
        descent: HELVETICA_DESCENT,
        two_byte: false,
        codes,
        widths,
        default_width: 0.0,
    })
}

/// Base-14 font dictionary; `encoding` is e.g. `Some("WinAnsiEncoding")`.
pub fn base14_dict(base: &str, encoding: Option<&str>) -> Dictionary {
    let mut d = dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => Object::Name(base.as_bytes().to_vec()),
    };
    if let Some(e) = encoding {
        d.set("Encoding", Object::Name(e.as_bytes().to_vec()));
    }
    d
}

/// Non-embedded simple TrueType `ABCDEF+Inconsolata`: every width 600.
pub fn inconsolata() -> Rc<FontSpec> {
    Rc::new(FontSpec {
        report: "Inconsolata".into(),
        descent: -200.0,
        two_byte: false,
        codes: ascii_codes(),
        widths: BTreeMap::new(),
        default_width: 600.0,
    })
}

pub fn inconsolata_dict(doc: &mut Document) -> Dictionary {
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => "ABCDEF+Inconsolata",
        "Flags" => 33,
        "FontBBox" => vec![0.into(), (-200).into(), 600.into(), 800.into()],
        "ItalicAngle" => 0,
        "Ascent" => 800,
        "Descent" => -200,
        "CapHeight" => 620,
        "StemV" => 80,
        "MissingWidth" => 600,
    });
    dictionary! {
        "Type" => "Font",
        "Subtype" => "TrueType",
        "BaseFont" => "ABCDEF+Inconsolata",
        "FirstChar" => 32,
        "LastChar" => 126,
        "Widths" => vec![Object::Integer(600); 95],
        "FontDescriptor" => descriptor,
        "Encoding" => "WinAnsiEncoding",
    }
}

/// A figure's font as pdf.js `issue18911.pdf` (the TraceMonkey paper)
/// embeds it: a subset TrueType `GHIJKL+Calibri`, symbolic, with no
/// /Encoding and a /ToUnicode CMap that maps nothing. The subset numbers
/// its glyphs freely, so the text read (through StandardEncoding, the
/// fallback) is not what is drawn: a figure label reads `<#3’4%56#`.
/// Widths 500 (/Widths, 32..=255), descent -250. Codes are
/// StandardEncoding's: ASCII, but `’` (quoteright) is 0x27 and `‘`
/// (quoteleft) 0x60.
pub fn figure_font() -> Rc<FontSpec> {
    let mut codes = ascii_codes();
    codes.remove(&'\'');
    codes.remove(&'`');
    codes.insert('’', 0x27);
    codes.insert('‘', 0x60);
    Rc::new(FontSpec {
        report: "Calibri".into(),
        descent: -250.0,
        two_byte: false,
        codes,
        widths: BTreeMap::new(),
        default_width: 500.0,
    })
}

/// The dictionary of [`figure_font`]. Its /FontFile2 is a stand-in (an
/// sfnt header with no table, not a usable program): the scanner only
/// notes that a program is embedded; a viewer substitutes a font.
pub fn figure_font_dict(doc: &mut Document) -> Dictionary {
    let program: Vec<u8> = vec![0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let len = i64::try_from(program.len()).unwrap_or(0);
    let program = doc.add_object(Stream::new(dictionary! { "Length1" => len }, program));
    let empty_cmap = b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
        /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
        /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
        1 begincodespacerange\n<00> <FF>\nendcodespacerange\nendcmap\n\
        CMapName currentdict /CMap defineresource pop\nend\nend\n";
    let to_unicode = doc.add_object(Stream::new(Dictionary::new(), empty_cmap.to_vec()));
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => "GHIJKL+Calibri",
        "Flags" => 4,
        "FontBBox" => vec![(-88).into(), (-250).into(), 727.into(), 750.into()],
        "ItalicAngle" => 0,
        "Ascent" => 750,
        "Descent" => -250,
        "CapHeight" => 632,
        "StemV" => 80,
        "FontFile2" => program,
    });
    dictionary! {
        "Type" => "Font",
        "Subtype" => "TrueType",
        "BaseFont" => "GHIJKL+Calibri",
        "FirstChar" => 32,
        "LastChar" => 255,
        "Widths" => vec![Object::Integer(500); 224],
        "FontDescriptor" => descriptor,
        "ToUnicode" => to_unicode,
    }
}

/// Glyph id used for a character in the Type0 font: unicode + 100.
fn type0_gid(ch: char) -> u32 {
    u32::from(ch) + 100
}

/// Characters the Type0 font can show.
fn type0_chars() -> impl Iterator<Item = char> {
    [' ', '#', '<', '>', '_', ':']
        .into_iter()
        .chain('0'..='9')
        .chain('A'..='Z')
        .chain('a'..='z')
}

/// Type0 / Identity-H `BCDEFG+DejaVuSans`: width 500 for every glyph in
/// /W, /DW 1000 (used by ':' which /W omits), descent -250.
pub fn dejavu_type0() -> Rc<FontSpec> {
    let codes: BTreeMap<char, u32> = type0_chars().map(|c| (c, type0_gid(c))).collect();
    let widths = codes
        .iter()
        .filter(|(ch, _)| **ch != ':')
        .map(|(_, &g)| (g, 500.0))
        .collect();
    Rc::new(FontSpec {
        report: "DejaVuSans".into(),
        descent: -250.0,
        two_byte: true,
        codes,
        widths,
        default_width: 1000.0,
    })
}

const TYPE0_TOUNICODE: &str = "/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
6 beginbfchar
<0084> <0020>
<0087> <0023>
<00A0> <003C>
<00A2> <003E>
<00C3> <005F>
<009E> <003A>
endbfchar
3 beginbfrange
<00A5> <00BE> <0041>
<0094> <009D> [<0030> <0031> <0032> <0033> <0034> <0035> <0036> <0037> <0038> <0039>]
<00C5> <00DE> <0061>
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end
";

pub fn dejavu_type0_dict(doc: &mut Document) -> Result<Dictionary, Error> {
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => "BCDEFG+DejaVuSans",
        "Flags" => 32,
        "FontBBox" => vec![(-1021).into(), (-463).into(), 1793.into(), 1232.into()],
        "ItalicAngle" => 0,
        "Ascent" => 760,
        "Descent" => -250,
        "CapHeight" => 729,
        "StemV" => 80,
    });
    let w500 = |n: usize| Object::Array(vec![Object::Integer(500); n]);
    // 132 ' ', 135 '#', 148-157 digits, 160 '<', 162 '>', 165-190 A-Z,
    // 195 '_', 197-222 a-z. 158 ':' is left to /DW.
    let w = vec![
        132.into(),
        w500(1),
        135.into(),
        w500(1),
        148.into(),
        157.into(),
        500.into(),
        160.into(),
        w500(1),
        162.into(),
        w500(1),
        165.into(),
        190.into(),
        500.into(),
        195.into(),
        w500(1),
        197.into(),
        w500(26),
    ];
    let cid = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "CIDFontType2",
        "BaseFont" => "BCDEFG+DejaVuSans",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Identity"),
            "Supplement" => 0,
        },
        "FontDescriptor" => descriptor,
        "DW" => 1000,
        "W" => w,
        "CIDToGIDMap" => "Identity",
    });
    let mut cmap = Stream::new(Dictionary::new(), TYPE0_TOUNICODE.as_bytes().to_vec());
    crate::flate::deflate_stream(&mut cmap);
    let to_unicode = doc.add_object(cmap);
    Ok(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type0",
        "BaseFont" => "BCDEFG+DejaVuSans",
        "Encoding" => "Identity-H",
        "DescendantFonts" => vec![cid.into()],
        "ToUnicode" => to_unicode,
    })
}

/// Type3 glyphs: (glyph name, character, width in glyph space).
const TYPE3_GLYPHS: [(&str, char, u16); 11] = [
    ("less", '<', 500),
    ("numbersign", '#', 600),
    ("space", ' ', 250),
    ("S", 'S', 550),
    ("I", 'I', 300),
    ("G", 'G', 650),
    ("N", 'N', 700),
    ("underscore", '_', 500),
    ("one", '1', 500),
    ("two", '2', 500),
    ("greater", '>', 500),
];

/// First code of the Type3 font: codes are deliberately not ASCII, so the
/// text is only recoverable through the /Differences glyph names.
const TYPE3_FIRST: u32 = 65;

/// Type3 font reported by its /Name (which equals its resource name).
pub fn type3() -> Rc<FontSpec> {
    let mut codes = BTreeMap::new();
    let mut widths = BTreeMap::new();
    for (code, (_, ch, w)) in (TYPE3_FIRST..).zip(TYPE3_GLYPHS) {
        codes.insert(ch, code);
        widths.insert(code, f64::from(w));
    }
    Rc::new(FontSpec {
        report: "T3Sig".into(),
        descent: 0.0,
        two_byte: false,
        codes,
        widths,
        default_width: 0.0,
    })
}

pub fn type3_dict(doc: &mut Document) -> Result<Dictionary, Error> {
    let mut procs = Dictionary::new();
    let mut differences = vec![Object::Integer(i64::from(TYPE3_FIRST))];
    let mut widths = Vec::new();
    for (name, _, w) in TYPE3_GLYPHS {
        let body = if name == "space" {
            format!("{w} 0 d0\n")
        } else {
            let right = w.saturating_sub(50);
            format!("{w} 0 50 0 {right} 700 d1\n50 0 {} 700 re f\n", right - 50)
        };
        let mut s = Stream::new(Dictionary::new(), body.into_bytes());
        crate::flate::deflate_stream(&mut s);
        procs.set(name, doc.add_object(s));
        differences.push(Object::Name(name.as_bytes().to_vec()));
        widths.push(Object::Integer(i64::from(w)));
    }
    let last = TYPE3_FIRST + u32::try_from(TYPE3_GLYPHS.len()).unwrap_or(0) - 1;
    Ok(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type3",
        "Name" => "T3Sig",
        "FontBBox" => vec![0.into(), 0.into(), 750.into(), 750.into()],
        "FontMatrix" => vec![real(0.001), 0.into(), 0.into(), real(0.001), 0.into(), 0.into()],
        "CharProcs" => procs,
        "Encoding" => dictionary! {
            "Type" => "Encoding",
            "Differences" => differences,
        },
        "FirstChar" => i64::from(TYPE3_FIRST),
        "LastChar" => i64::from(last),
        "Widths" => widths,
        "Resources" => Dictionary::new(),
    })
}
