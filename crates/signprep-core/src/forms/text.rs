//! PDF text strings (`/T`, `/TU`, `/V`, `/Opt`) and names as Rust strings.
//!
//! A text string is UTF-16BE after a `FE FF` byte order mark, UTF-8 after
//! `EF BB BF`, and PDFDocEncoding otherwise (PDF 2.0, 7.9.2.2). Producers
//! also write UTF-16LE with `FF FE`, which qpdf accepts; so do we. Bytes that
//! do not decode become U+FFFD, never an error: a damaged name is still a
//! name, and the unaddressable-name check reports it.

use crate::document::Obj;

/// Decodes a text string's bytes.
pub(crate) fn decode_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        utf16(rest, u16::from_be_bytes)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        utf16(rest, u16::from_le_bytes)
    } else if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        String::from_utf8_lossy(rest).into_owned()
    } else if bytes
        .iter()
        .all(|&b| b < 0x7F && !(0x18..=0x1F).contains(&b))
    {
        // ASCII, which PDFDocEncoding leaves as it is: the common case.
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        bytes.iter().map(|&b| pdf_doc_char(b)).collect()
    }
}

/// A string or name object as text (names without the `/`); `None` for
/// anything else.
pub(crate) fn object_text(obj: Obj<'_>) -> Option<String> {
    if let Some(bytes) = obj.as_string() {
        Some(decode_text(bytes))
    } else {
        obj.as_name().map(name_text)
    }
}

/// A name's bytes as text: UTF-8 when they are, Latin-1 otherwise.
pub(crate) fn name_text(name: &[u8]) -> String {
    match std::str::from_utf8(name) {
        Ok(s) => s.to_string(),
        Err(_) => name.iter().map(|&b| char::from(b)).collect(),
    }
}

fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    // A trailing odd byte is not a code unit and is dropped.
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| unit([c[0], c.get(1).copied().unwrap_or(0)]))
        .collect();
    String::from_utf16_lossy(&units)
}

/// PDFDocEncoding (PDF 2.0, Annex D.3): ASCII and Latin-1 with 0x18-0x1F and
/// 0x80-0xA0 remapped; 0x7F, 0x9F and 0xAD are undefined.
fn pdf_doc_char(b: u8) -> char {
    const LOW: [char; 8] = [
        '\u{02D8}', '\u{02C7}', '\u{02C6}', '\u{02D9}', '\u{02DD}', '\u{02DB}', '\u{02DA}',
        '\u{02DC}',
    ];
    const HIGH: [char; 33] = [
        '\u{2022}', '\u{2020}', '\u{2021}', '\u{2026}', '\u{2014}', '\u{2013}', '\u{0192}',
        '\u{2044}', '\u{2039}', '\u{203A}', '\u{2212}', '\u{2030}', '\u{201E}', '\u{201C}',
        '\u{201D}', '\u{2018}', '\u{2019}', '\u{201A}', '\u{2122}', '\u{FB01}', '\u{FB02}',
        '\u{0141}', '\u{0152}', '\u{0160}', '\u{0178}', '\u{017D}', '\u{0131}', '\u{0142}',
        '\u{0153}', '\u{0161}', '\u{017E}', '\u{FFFD}', '\u{20AC}',
    ];
    match b {
        0x18..=0x1F => LOW
            .get(usize::from(b - 0x18))
            .copied()
            .unwrap_or('\u{FFFD}'),
        0x7F | 0xAD => '\u{FFFD}',
        0x80..=0xA0 => HIGH
            .get(usize::from(b - 0x80))
            .copied()
            .unwrap_or('\u{FFFD}'),
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boms_and_pdf_doc_encoding() {
        assert_eq!(decode_text(b"\xFE\xFF\x00A\x00\xE9\x4E\x2D"), "Aé中");
        assert_eq!(decode_text(b"\xFF\xFEA\x00"), "A");
        assert_eq!(decode_text(b"\xEF\xBB\xBFcaf\xC3\xA9"), "café");
        assert_eq!(decode_text(b"caf\xE9 \x80 \xA0 \x92"), "café • € ™");
        assert_eq!(decode_text(b"\x18\x1F"), "\u{02D8}\u{02DC}");
        assert_eq!(decode_text(b"\x7F\xAD"), "\u{FFFD}\u{FFFD}");
        // An unpaired surrogate and an odd trailing byte do not fail.
        assert_eq!(decode_text(b"\xFE\xFF\xD8\x00\x00A\x00"), "\u{FFFD}A");
        assert_eq!(decode_text(b""), "");
    }

    /// The ASCII shortcut gives what the PDFDocEncoding table gives, byte by
    /// byte, alone and among other bytes.
    #[test]
    fn ascii_shortcut_matches_the_table() {
        for b in 0..=u8::MAX {
            let by_table =
                |bytes: &[u8]| bytes.iter().map(|&b| pdf_doc_char(b)).collect::<String>();
            for bytes in [vec![b'a', b], vec![b, b'z', b' ']] {
                if bytes.starts_with(b"\xFE\xFF") || bytes.starts_with(b"\xFF\xFE") {
                    continue;
                }
                assert_eq!(decode_text(&bytes), by_table(&bytes), "byte {b:#04x}");
            }
        }
    }

    #[test]
    fn names_are_utf8_or_latin1() {
        assert_eq!(name_text(b"Yes"), "Yes");
        assert_eq!(name_text("Oui-é".as_bytes()), "Oui-é");
        assert_eq!(name_text(b"\xE9t\xE9"), "été");
    }
}
