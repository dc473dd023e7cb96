//! Glyph names -> Unicode (Adobe Glyph List specification) and the standard 14 fonts.
//!
//! The tables are generated (see `generated/` and `tools/gen_tables/`); this file holds the
//! lookups. Glyph-name mapping follows the AGL specification as pdfminer.six implements it:
//! drop a `.suffix`, split on `_` into components, and map each component through the AGL,
//! then `uniXXXX[YYYY...]`, then `uXXXX`..`uXXXXXX`. Unlike the AGL specification (which
//! maps an unknown component to nothing) the whole name fails if any component fails, as in
//! pdfminer. Hex digits may be upper or lower case (pdfminer accepts both).

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::generated::encodings::{
    MAC_EXPERT_ENCODING, MAC_ROMAN_ENCODING, PDF_DOC_ENCODING, STANDARD_ENCODING, SYMBOL_ENCODING,
    WIN_ANSI_ENCODING, ZAPF_DINGBATS_ENCODING,
};
use super::generated::glyphlist::{GLYPH_LIST, ZAPF_DINGBATS_GLYPH_LIST};
use super::generated::standard14::{PDFMINER_METRICS_NAMES, STANDARD14, Standard14};

/// Binary search in a table sorted by name.
fn lookup<V: Copy>(table: &[(&str, V)], key: &str) -> Option<V> {
    table
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .and_then(|i| table.get(i))
        .map(|(_, v)| *v)
}

/// FNV-1a: glyph names are short, and SipHash would cost more than the
/// binary search it replaces.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type AglMap = HashMap<&'static str, &'static str, BuildHasherDefault<Fnv>>;

/// The Adobe Glyph List entry for exactly `name` (no suffix or ligature handling).
///
/// A hash map built on first use: a font's 256 codes each look a name up,
/// and the binary search over 4,281 names was 3% of a tag scan.
#[allow(dead_code)]
pub(crate) fn agl_lookup(name: &str) -> Option<&'static str> {
    static MAP: OnceLock<AglMap> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map = AglMap::with_capacity_and_hasher(GLYPH_LIST.len(), Default::default());
        for &(k, v) in &GLYPH_LIST {
            map.entry(k).or_insert(v);
        }
        map
    })
    .get(name)
    .copied()
}

/// The Unicode text of every code of a base encoding, as [`push_glyph_unicode`] maps its
/// glyph names: `text` holds the strings, `spans[code]` is `(start, len)` into it (len 0 =
/// unmapped or 256 bytes and longer, as a font's own table stores them).
#[derive(Debug)]
pub(crate) struct EncodingText {
    pub(crate) text: String,
    pub(crate) spans: [(u32, u8); 256],
}

impl EncodingText {
    fn build(encoding: &[Option<&str>; 256]) -> EncodingText {
        let mut text = String::new();
        let mut spans = [(0, 0); 256];
        for (span, name) in spans.iter_mut().zip(encoding) {
            let start = text.len();
            if name.is_some_and(|n| push_glyph_unicode(n, &mut text)) {
                let len = text.len() - start;
                if len < 256 {
                    *span = (start as u32, len as u8);
                } else {
                    text.truncate(start);
                }
            }
        }
        EncodingText { text, spans }
    }

    /// The text of `code`, empty when unmapped.
    pub(crate) fn get(&self, code: usize) -> &str {
        self.spans
            .get(code)
            .and_then(|&(start, len)| {
                let start = start as usize;
                self.text.get(start..start + usize::from(len))
            })
            .unwrap_or("")
    }
}

/// The generated base encodings that per-process tables are kept for.
static ENCODINGS: [&[Option<&str>; 256]; 7] = [
    &STANDARD_ENCODING,
    &WIN_ANSI_ENCODING,
    &MAC_ROMAN_ENCODING,
    &MAC_EXPERT_ENCODING,
    &PDF_DOC_ENCODING,
    &SYMBOL_ENCODING,
    &ZAPF_DINGBATS_ENCODING,
];

/// Index of `encoding` in [`ENCODINGS`]: the same static, not an equal copy.
fn encoding_index(encoding: &[Option<&str>; 256]) -> Option<usize> {
    ENCODINGS.iter().position(|t| std::ptr::eq(*t, encoding))
}

/// [`EncodingText`] of one of the generated base encodings, built once per process: every
/// simple font maps its 256 codes through one of these, and doing the glyph-name lookups
/// per font was most of `Font::fill_simple`. None for a table not generated here.
pub(crate) fn encoding_text(
    encoding: &'static [Option<&'static str>; 256],
) -> Option<&'static EncodingText> {
    static TEXT: [OnceLock<EncodingText>; 7] = [const { OnceLock::new() }; 7];
    let i = encoding_index(encoding)?;
    let (table, cell) = (ENCODINGS.get(i)?, TEXT.get(i)?);
    Some(cell.get_or_init(|| EncodingText::build(table)))
}

/// Per code of a generated base encoding, `font`'s width of the glyph it names
/// ([`Standard14::width`]), built once per process: a standard font without
/// /Widths otherwise searches its width table by name for each of 256 codes.
pub(crate) fn encoding_widths(
    font: &'static Standard14,
    encoding: &'static [Option<&'static str>; 256],
) -> Option<&'static [Option<u16>; 256]> {
    static WIDTHS: [[OnceLock<[Option<u16>; 256]>; 7]; 14] =
        [const { [const { OnceLock::new() }; 7] }; 14];
    let f = STANDARD14.iter().position(|s| std::ptr::eq(s, font))?;
    let e = encoding_index(encoding)?;
    let (table, cell) = (ENCODINGS.get(e)?, WIDTHS.get(f)?.get(e)?);
    Some(cell.get_or_init(|| table.map(|name| name.and_then(|n| font.width(n)))))
}

/// Appends the Unicode text of glyph `name` to `out` (AGL rules). Returns false, leaving
/// `out` unchanged, if the name does not map.
#[allow(dead_code)]
pub(crate) fn push_glyph_unicode(name: &str, out: &mut String) -> bool {
    push_impl(name, false, out)
}

/// As [`push_glyph_unicode`], for glyphs of the ZapfDingbats font: components are looked up
/// in the ZapfDingbats glyph list (`a1`..`a206`) before the AGL.
#[allow(dead_code)]
pub(crate) fn push_zapf_dingbats_glyph_unicode(name: &str, out: &mut String) -> bool {
    push_impl(name, true, out)
}

/// Unicode text of glyph `name` (AGL rules); borrowed from the table for plain AGL names.
#[allow(dead_code)]
pub(crate) fn glyph_unicode(name: &str) -> Option<Cow<'static, str>> {
    cow_impl(name, false)
}

/// As [`glyph_unicode`], for glyphs of the ZapfDingbats font.
#[allow(dead_code)]
pub(crate) fn zapf_dingbats_glyph_unicode(name: &str) -> Option<Cow<'static, str>> {
    cow_impl(name, true)
}

fn cow_impl(name: &str, zapf: bool) -> Option<Cow<'static, str>> {
    let base = strip_suffix(name);
    if !base.contains('_') {
        let hit = if zapf {
            lookup(&ZAPF_DINGBATS_GLYPH_LIST, base).or_else(|| agl_lookup(base))
        } else {
            agl_lookup(base)
        };
        if let Some(s) = hit {
            return Some(Cow::Borrowed(s));
        }
    }
    let mut out = String::new();
    push_impl(name, zapf, &mut out).then_some(Cow::Owned(out))
}

fn strip_suffix(name: &str) -> &str {
    match name.split_once('.') {
        Some((base, _)) => base,
        None => name,
    }
}

fn push_impl(name: &str, zapf: bool, out: &mut String) -> bool {
    let base = strip_suffix(name);
    if base.is_empty() {
        return false;
    }
    let start = out.len();
    for component in base.split('_') {
        if !push_component(component, zapf, out) {
            out.truncate(start);
            return false;
        }
    }
    true
}

fn push_component(component: &str, zapf: bool, out: &mut String) -> bool {
    if zapf && let Some(s) = lookup(&ZAPF_DINGBATS_GLYPH_LIST, component) {
        out.push_str(s);
        return true;
    }
    if let Some(s) = agl_lookup(component) {
        out.push_str(s);
        return true;
    }
    if let Some(hex) = component.strip_prefix("uni") {
        return push_uni(hex, out);
    }
    if let Some(hex) = component.strip_prefix('u')
        && (4..=6).contains(&hex.len())
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
    {
        out.push(c);
        return true;
    }
    false
}

/// `uni` followed by one or more groups of 4 hex digits, each a BMP non-surrogate value.
fn push_uni(hex: &str, out: &mut String) -> bool {
    if hex.is_empty() || !hex.len().is_multiple_of(4) || !hex.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return false;
    }
    let start = out.len();
    for i in (0..hex.len()).step_by(4) {
        let c = hex
            .get(i..i + 4)
            .and_then(|group| u32::from_str_radix(group, 16).ok())
            .and_then(char::from_u32);
        match c {
            Some(c) => out.push(c),
            None => {
                out.truncate(start);
                return false;
            }
        }
    }
    true
}

impl Standard14 {
    /// Advance width (1/1000 em) of `glyph`, or None if the font has no such glyph (pdfminer
    /// then uses width 0).
    pub(crate) fn width(&self, glyph: &str) -> Option<u16> {
        lookup(self.widths, glyph)
    }
}

/// The standard font named exactly `name` (one of the 14 PostScript names).
fn by_name(name: &str) -> Option<&'static Standard14> {
    STANDARD14.iter().find(|f| f.name == name)
}

/// `ABCDEF+Name` -> `Name`: a subset tag is exactly six upper-case ASCII letters and `+`.
fn strip_subset_prefix(name: &str) -> &str {
    let bytes = name.as_bytes();
    let is_tag = bytes.get(6) == Some(&b'+')
        && bytes
            .get(..6)
            .is_some_and(|tag| tag.iter().all(u8::is_ascii_uppercase));
    if is_tag {
        name.get(7..).unwrap_or(name)
    } else {
        name
    }
}

/// The standard 14 font a PDF viewer would use for `/BaseFont base_font`: strips a subset
/// prefix, then accepts the 14 names and the usual aliases (Arial/ArialMT, TimesNewRoman,
/// TimesNewRomanPS(MT), CourierNew, CourierNewPS(MT), Dingbats, with `,`/`-`/`_` before a
/// style of Bold, Italic, Oblique, BoldItalic, BoldOblique, Roman, Regular or Normal,
/// optionally followed by `MT`). Anything else (e.g. `Arial-Black`, `ArialNarrow`) is None.
pub(crate) fn standard14(base_font: &str) -> Option<&'static Standard14> {
    let name = strip_subset_prefix(base_font);
    if let Some(font) = by_name(name) {
        return Some(font);
    }
    let normalised: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == ',' || c == '_' { '-' } else { c })
        .collect();
    let (family, style) = normalised
        .split_once('-')
        .unwrap_or((normalised.as_str(), ""));
    let style: String = style.chars().filter(|&c| c != '-').collect();
    let style = style.strip_suffix("MT").unwrap_or(&style);
    let (bold, italic) = match style {
        "" | "Roman" | "Regular" | "Normal" => (false, false),
        "Bold" => (true, false),
        "Italic" | "Oblique" => (false, true),
        "BoldItalic" | "BoldOblique" => (true, true),
        _ => return None,
    };
    let target = match family {
        "Helvetica" | "Arial" | "ArialMT" => match (bold, italic) {
            (false, false) => "Helvetica",
            (true, false) => "Helvetica-Bold",
            (false, true) => "Helvetica-Oblique",
            (true, true) => "Helvetica-BoldOblique",
        },
        "Courier" | "CourierNew" | "CourierNewPS" | "CourierNewPSMT" => match (bold, italic) {
            (false, false) => "Courier",
            (true, false) => "Courier-Bold",
            (false, true) => "Courier-Oblique",
            (true, true) => "Courier-BoldOblique",
        },
        "Times" | "TimesNewRoman" | "TimesNewRomanPS" | "TimesNewRomanPSMT" => {
            match (bold, italic) {
                (false, false) => "Times-Roman",
                (true, false) => "Times-Bold",
                (false, true) => "Times-Italic",
                (true, true) => "Times-BoldItalic",
            }
        }
        "Symbol" => "Symbol",
        "ZapfDingbats" | "Dingbats" => "ZapfDingbats",
        _ => return None,
    };
    by_name(target)
}

/// The metrics pdfminer.six itself uses for `/BaseFont base_font`: only its exact
/// FONT_METRICS names (the 14 plus Arial, CourierNew and TimesNewRoman with `,Bold`,
/// `,Italic`, `,BoldItalic`), no subset prefix. For these pdfminer ignores the PDF's
/// /Widths and /FontDescriptor; for any other name it uses them.
#[allow(dead_code)]
pub(crate) fn standard14_pdfminer(base_font: &str) -> Option<&'static Standard14> {
    lookup(&PDFMINER_METRICS_NAMES, base_font).and_then(|i| STANDARD14.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uni(name: &str) -> Option<String> {
        glyph_unicode(name).map(Cow::into_owned)
    }

    #[test]
    fn the_hash_map_agrees_with_the_sorted_table() {
        assert!(
            GLYPH_LIST.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, unique"
        );
        for &(k, v) in &GLYPH_LIST {
            assert_eq!(agl_lookup(k), Some(v), "{k}");
            assert_eq!(agl_lookup(k), lookup(&GLYPH_LIST, k));
        }
        assert_eq!(agl_lookup("no-such-glyph"), None);
        assert_eq!(agl_lookup(""), None);
    }

    #[test]
    fn agl_names() {
        assert_eq!(uni("A").as_deref(), Some("A"));
        assert_eq!(uni("space").as_deref(), Some(" "));
        assert_eq!(uni("less").as_deref(), Some("<"));
        assert_eq!(uni("numbersign").as_deref(), Some("#"));
        assert_eq!(uni("greater").as_deref(), Some(">"));
        assert_eq!(uni("underscore").as_deref(), Some("_"));
        assert_eq!(uni("Eacute").as_deref(), Some("É"));
        assert_eq!(uni("bullet").as_deref(), Some("\u{2022}"));
        assert!(matches!(glyph_unicode("A"), Some(Cow::Borrowed("A"))));
        // A name mapping to a sequence of code points.
        assert_eq!(uni("dalethatafpatah").as_deref(), Some("\u{05D3}\u{05B2}"));
    }

    #[test]
    fn algorithmic_names() {
        assert_eq!(uni("uni0041").as_deref(), Some("A"));
        assert_eq!(uni("uni00e9").as_deref(), Some("é"));
        assert_eq!(uni("uni00410042").as_deref(), Some("AB"));
        assert_eq!(uni("u1F600").as_deref(), Some("\u{1F600}"));
        assert_eq!(uni("u0041").as_deref(), Some("A"));
        assert_eq!(uni("u10FFFF").as_deref(), Some("\u{10FFFF}"));
        assert_eq!(uni("f_f_i").as_deref(), Some("ffi"));
        assert_eq!(uni("f_f_i.liga").as_deref(), Some("ffi"));
        assert_eq!(uni("A.sc").as_deref(), Some("A"));
        assert_eq!(uni("uni0041.alt").as_deref(), Some("A"));
        assert_eq!(uni("T_uni0068"), Some("Th".to_owned()));
    }

    #[test]
    fn unmapped_names() {
        for name in [
            "g123",
            "",
            ".notdef",
            "uni",
            "uni004",
            "uni00410",
            "uniD800",
            "uni0041G000",
            "u004",
            "u1234567",
            "uD800",
            "u110000",
            "uXYZW",
            "f__i",
            "f_g123",
            "a1",
        ] {
            assert_eq!(uni(name), None, "{name}");
            let mut out = String::from("x");
            assert!(!push_glyph_unicode(name, &mut out), "{name}");
            assert_eq!(out, "x", "{name}: output must be left unchanged");
        }
    }

    #[test]
    fn push_appends() {
        let mut out = String::from("<");
        assert!(push_glyph_unicode("numbersign", &mut out));
        assert!(push_glyph_unicode("space", &mut out));
        assert!(push_glyph_unicode("f_f", &mut out));
        assert_eq!(out, "<# ff");
    }

    #[test]
    fn zapf_dingbats_names() {
        assert_eq!(
            zapf_dingbats_glyph_unicode("a1").as_deref(),
            Some("\u{2701}")
        );
        assert_eq!(
            zapf_dingbats_glyph_unicode("a89").as_deref(),
            Some("\u{2768}")
        );
        assert_eq!(zapf_dingbats_glyph_unicode("space").as_deref(), Some(" "));
        let mut out = String::new();
        assert!(push_zapf_dingbats_glyph_unicode("a2", &mut out));
        assert_eq!(out, "\u{2702}");
    }

    fn assert_sorted<V>(table: &[(&str, V)], what: &str) {
        for pair in table.windows(2) {
            if let [(a, _), (b, _)] = pair {
                assert!(a < b, "{what}: {a} !< {b}");
            }
        }
    }

    #[test]
    fn tables_are_sorted() {
        assert_sorted(&GLYPH_LIST, "GLYPH_LIST");
        assert_sorted(&ZAPF_DINGBATS_GLYPH_LIST, "ZAPF_DINGBATS_GLYPH_LIST");
        assert_sorted(&PDFMINER_METRICS_NAMES, "PDFMINER_METRICS_NAMES");
        for font in &STANDARD14 {
            assert_sorted(font.widths, font.name);
        }
        for pair in STANDARD14.windows(2) {
            if let [a, b] = pair {
                assert!(a.name < b.name);
            }
        }
    }

    #[test]
    fn encodings_map_to_unicode() {
        let text = [
            ("Standard", &STANDARD_ENCODING),
            ("WinAnsi", &WIN_ANSI_ENCODING),
            ("MacRoman", &MAC_ROMAN_ENCODING),
            ("PDFDoc", &PDF_DOC_ENCODING),
            ("MacExpert", &MAC_EXPERT_ENCODING),
        ];
        for (what, enc) in text {
            for glyph in enc.iter().flatten() {
                // MacExpert names (e.g. "Asmall") are mostly outside the AGL.
                if what != "MacExpert" {
                    assert!(glyph_unicode(glyph).is_some(), "{what}: {glyph}");
                }
            }
        }
        for glyph in SYMBOL_ENCODING.iter().flatten() {
            assert!(glyph_unicode(glyph).is_some(), "Symbol: {glyph}");
        }
        for glyph in ZAPF_DINGBATS_ENCODING.iter().flatten() {
            assert!(
                zapf_dingbats_glyph_unicode(glyph).is_some(),
                "ZapfDingbats: {glyph}"
            );
        }
        assert_eq!(WIN_ANSI_ENCODING.get(0xA0), Some(&Some("space")));
        assert_eq!(WIN_ANSI_ENCODING.get(0xAD), Some(&Some("hyphen")));
        assert_eq!(WIN_ANSI_ENCODING.get(0x81), Some(&Some("bullet")));
        assert_eq!(WIN_ANSI_ENCODING.get(0x80), Some(&Some("Euro")));
        assert_eq!(STANDARD_ENCODING.get(0x27), Some(&Some("quoteright")));
    }

    #[test]
    fn encoding_text_matches_per_name_mapping() {
        for table in ENCODINGS {
            let Some(text) = encoding_text(table) else {
                panic!("no text for a generated table");
            };
            for (code, name) in table.iter().enumerate() {
                let mut want = String::new();
                if !name.is_some_and(|n| push_glyph_unicode(n, &mut want)) || want.len() >= 256 {
                    want.clear();
                }
                assert_eq!(text.get(code), want, "{code} {name:?}");
            }
        }
        // A copy of a table is not one of the statics.
        let copy = Box::leak(Box::new(WIN_ANSI_ENCODING));
        assert!(encoding_text(copy).is_none());
    }

    #[test]
    fn encoding_widths_match_per_name_lookups() {
        for font in &STANDARD14 {
            for table in ENCODINGS {
                let Some(widths) = encoding_widths(font, table) else {
                    panic!("no widths for {}", font.name);
                };
                for (code, name) in table.iter().enumerate() {
                    assert_eq!(widths[code], name.and_then(|n| font.width(n)), "{code}");
                }
            }
        }
        let copy = Box::leak(Box::new(WIN_ANSI_ENCODING));
        assert!(
            STANDARD14
                .first()
                .and_then(|f| encoding_widths(f, copy))
                .is_none()
        );
    }

    #[test]
    fn builtin_encodings_have_widths() {
        for font in &STANDARD14 {
            for glyph in font.builtin_encoding.iter().flatten() {
                assert!(font.width(glyph).is_some(), "{}: {glyph}", font.name);
            }
        }
    }

    #[test]
    fn metrics_match_pdfminer() {
        let helv = standard14("Helvetica");
        assert_eq!(helv.map(|f| f.descent), Some(-207.0));
        assert_eq!(helv.map(|f| f.ascent), Some(718.0));
        assert_eq!(helv.and_then(|f| f.width("less")), Some(584));
        assert_eq!(helv.and_then(|f| f.width("Euro")), None);
        let courier = standard14("Courier");
        assert_eq!(
            courier.map(|f| (f.ascent, f.descent)),
            Some((627.0, -194.0))
        );
        assert_eq!(courier.map(|f| f.fixed_pitch), Some(true));
        assert_eq!(
            standard14("Times-Roman").map(|f| (f.ascent, f.descent)),
            Some((683.0, -217.0))
        );
        let symbol = standard14("Symbol");
        assert_eq!(symbol.map(|f| (f.descent, f.symbolic)), Some((0.0, true)));
        assert_eq!(symbol.and_then(|f| f.width("alpha")), Some(631));
        let zapf = standard14("ZapfDingbats");
        assert_eq!(zapf.and_then(|f| f.width("a1")), Some(974));
        assert_eq!(zapf.and_then(|f| f.width("space")), Some(278));
    }

    /// corpus/tags/rl_base14_sizes.pdf (reportlab, WinAnsiEncoding, Letter, 792 pt high):
    /// tags drawn at baseline 720 (6 pt) and 704.5 (7 pt); oracle y (top edge from the page
    /// top) and width.
    #[test]
    fn reproduces_oracle_boxes() {
        let cases: [(&str, &str, f64, f64, f64, f64); 4] = [
            ("Courier", "<# COURIER_6 #>", 6.0, 720.0, 67.16, 54.0),
            ("Helvetica", "<# HELV_6 #>", 6.0, 720.0, 67.24, 39.36),
            ("Courier", "<# COURIER_7 #>", 7.0, 704.5, 81.86, 63.0),
            ("Helvetica", "<# HELV_7 #>", 7.0, 704.5, 81.95, 45.92),
        ];
        for (font_name, text, size, baseline, oracle_y, oracle_w) in cases {
            let Some(font) = standard14(font_name) else {
                panic!("{font_name} missing");
            };
            let bottom = baseline + f64::from(font.descent) * size / 1000.0;
            let y = 792.0 - (bottom + size);
            assert!((y - oracle_y).abs() < 0.01, "{text}: y {y} vs {oracle_y}");
            let mut width = 0.0;
            for byte in text.bytes() {
                let glyph = WIN_ANSI_ENCODING
                    .get(usize::from(byte))
                    .copied()
                    .flatten()
                    .and_then(|g| font.width(g));
                width += f64::from(glyph.unwrap_or(0)) * size / 1000.0;
            }
            assert!(
                (width - oracle_w).abs() < 0.01,
                "{text}: w {width} vs {oracle_w}"
            );
        }
    }

    #[test]
    fn resolves_aliases() {
        let name = |n: &str| standard14(n).map(|f| f.name);
        for (alias, target) in [
            ("Helvetica", "Helvetica"),
            ("ABCDEF+Helvetica-Bold", "Helvetica-Bold"),
            ("Arial", "Helvetica"),
            ("ArialMT", "Helvetica"),
            ("Arial,Bold", "Helvetica-Bold"),
            ("Arial-BoldMT", "Helvetica-Bold"),
            ("Arial-ItalicMT", "Helvetica-Oblique"),
            ("Arial,BoldItalic", "Helvetica-BoldOblique"),
            ("Arial-BoldItalicMT", "Helvetica-BoldOblique"),
            ("Helvetica-Italic", "Helvetica-Oblique"),
            ("Helvetica-Oblique", "Helvetica-Oblique"),
            ("TimesNewRoman", "Times-Roman"),
            ("TimesNewRomanPSMT", "Times-Roman"),
            ("TimesNewRoman,Bold", "Times-Bold"),
            ("TimesNewRomanPS-BoldMT", "Times-Bold"),
            ("TimesNewRomanPS-ItalicMT", "Times-Italic"),
            ("TimesNewRomanPS-BoldItalicMT", "Times-BoldItalic"),
            ("Times-Roman", "Times-Roman"),
            ("Times", "Times-Roman"),
            ("CourierNew", "Courier"),
            ("CourierNewPSMT", "Courier"),
            ("CourierNew,Bold", "Courier-Bold"),
            ("CourierNewPS-BoldItalicMT", "Courier-BoldOblique"),
            ("Courier-Oblique", "Courier-Oblique"),
            ("Courier-Italic", "Courier-Oblique"),
            ("Symbol", "Symbol"),
            ("Symbol,Bold", "Symbol"),
            ("ZapfDingbats", "ZapfDingbats"),
            ("Dingbats", "ZapfDingbats"),
            ("QWERTY+ArialMT", "Helvetica"),
        ] {
            assert_eq!(name(alias), Some(target), "{alias}");
        }
        for unknown in [
            "Calibri",
            "Arial-Black",
            "ArialNarrow",
            "Arial-Narrow",
            "Helvetica-Light",
            "helvetica",
            "Abcdef+Helvetica",
            "ABCDE+Helvetica",
            "",
            "+",
            "ABCDEF+",
        ] {
            assert_eq!(name(unknown), None, "{unknown}");
        }
    }

    #[test]
    fn pdfminer_exact_names() {
        let name = |n: &str| standard14_pdfminer(n).map(|f| f.name);
        assert_eq!(name("Arial,Bold"), Some("Helvetica-Bold"));
        assert_eq!(name("TimesNewRoman"), Some("Times-Roman"));
        assert_eq!(name("Courier"), Some("Courier"));
        assert_eq!(name("ArialMT"), None);
        assert_eq!(name("ABCDEF+Helvetica"), None);
    }
}
