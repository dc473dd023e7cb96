//! Fonts that can be read only in part: each is still used, and each page that
//! selects one gets a `font_unreadable` finding.

use super::{Entry, HostileExpect, Raw};

/// `<# ID #>` as two-byte codes, code = the character (for Identity-H fonts).
fn two_byte_hex(text: &str) -> String {
    text.bytes().map(|b| format!("00{b:02X}")).collect()
}

/// A ToUnicode CMap mapping two-byte codes 0000-00FF to U+0000-U+00FF.
const IDENTITY_TO_UNICODE: &[u8] =
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
/CMapName /Latin def /CMapType 2 def\n\
1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
1 beginbfrange <0000> <00FF> <0000> endbfrange\n\
endcmap CMapName currentdict /CMap defineresource pop end end";

/// Two pages. Page 1 selects four damaged fonts, one tag each: /F1 Courier
/// whose /ToUnicode uses a filter nobody decodes, /F2 a Type0 font whose
/// /Encoding CMap does too, /F3 a Type0 font without /DescendantFonts, and
/// /F4 a resource that is a number, not a font. Page 2 selects /F1 again.
pub(super) fn font_damaged() -> Entry {
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .obj(2, "<< /Type /Pages /Kids [3 0 R 10 0 R] /Count 2 >>")
        .obj(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 5 0 R /Contents 4 0 R >>",
        )
        .obj(5, "<< /Font << /F1 6 0 R /F2 7 0 R /F3 8 0 R /F4 42 >> >>")
        .obj(
            6,
            "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding /ToUnicode 9 0 R >>",
        )
        .stream(9, "/Filter /NoSuchDecode", b"garbage the viewer cannot decode")
        .obj(
            7,
            "<< /Type /Font /Subtype /Type0 /BaseFont /Mono /Encoding 11 0 R /DescendantFonts [12 0 R] /ToUnicode 13 0 R >>",
        )
        .stream(11, "/Filter /NoSuchDecode", b"garbage the viewer cannot decode")
        .obj(
            12,
            "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Mono /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 600 >>",
        )
        .stream(13, "", IDENTITY_TO_UNICODE)
        .obj(
            8,
            "<< /Type /Font /Subtype /Type0 /BaseFont /Orphan /Encoding /Identity-H /ToUnicode 13 0 R >>",
        )
        .obj(
            10,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 5 0 R /Contents 14 0 R >>",
        )
        .stream(14, "", b"BT /F1 12 Tf 72 700 Td (<# SIG_5 #>) Tj ET");
    let content = format!(
        "BT /F1 12 Tf 72 700 Td (<# SIG_1 #>) Tj ET\n\
         BT /F2 12 Tf 72 650 Td <{}> Tj ET\n\
         BT /F3 12 Tf 72 600 Td <{}> Tj ET\n\
         BT /F4 12 Tf 72 550 Td (<# SIG_4 #>) Tj ET",
        two_byte_hex("<# SIG_2 #>"),
        two_byte_hex("<# SIG_3 #>"),
    );
    r.stream(4, "", content.as_bytes());
    (
        "font_damaged",
        r.finish(),
        HostileExpect::ok(
            "fonts read in part: a ToUnicode and a Type0 /Encoding in a filter nobody decodes, a Type0 font without a descendant, a font resource that is a number; every tag is still found, and each page reports each such font it selects as font_unreadable",
            2,
            &["SIG_1", "SIG_2", "SIG_3", "SIG_4", "SIG_5"],
            &["font_unreadable", "tag_font_proportional"],
        ),
    )
}
