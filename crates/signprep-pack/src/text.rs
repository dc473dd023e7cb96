//! The text of a body or a manifest from its bytes: UTF-8, or UTF-16 and
//! UTF-32 when a byte order mark says which (decoded, and said), or an error
//! in our words that names what the bytes look like (UTF-16 without a mark
//! is recognised by its NUL bytes: JSON and TOML text starts with an ASCII
//! character, so one of every two or four bytes is 0, as RFC 4627 §3 reads
//! it).

use std::borrow::Cow;

/// An encoding other than plain UTF-8 that a text input was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// UTF-8 after the byte order mark `EF BB BF`.
    Utf8Bom,
    /// UTF-16, little-endian (`FF FE`).
    Utf16Le,
    /// UTF-16, big-endian (`FE FF`).
    Utf16Be,
    /// UTF-32, little-endian (`FF FE 00 00`).
    Utf32Le,
    /// UTF-32, big-endian (`00 00 FE FF`).
    Utf32Be,
}

impl Encoding {
    /// Its name, as a user knows it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Encoding::Utf8Bom => "UTF-8 with a byte order mark",
            Encoding::Utf16Le => "UTF-16 (little-endian)",
            Encoding::Utf16Be => "UTF-16 (big-endian)",
            Encoding::Utf32Le => "UTF-32 (little-endian)",
            Encoding::Utf32Be => "UTF-32 (big-endian)",
        }
    }

    /// The encoding a byte order mark at the start of `bytes` names, and
    /// the mark's length. UTF-32LE's mark begins with UTF-16LE's, so it is
    /// tried first.
    fn from_bom(bytes: &[u8]) -> Option<(Encoding, usize)> {
        const MARKS: &[(&[u8], Encoding)] = &[
            (b"\xEF\xBB\xBF", Encoding::Utf8Bom),
            (b"\xFF\xFE\x00\x00", Encoding::Utf32Le),
            (b"\x00\x00\xFE\xFF", Encoding::Utf32Be),
            (b"\xFF\xFE", Encoding::Utf16Le),
            (b"\xFE\xFF", Encoding::Utf16Be),
        ];
        MARKS
            .iter()
            .find(|(mark, _)| bytes.starts_with(mark))
            .map(|(mark, e)| (*e, mark.len()))
    }

    /// The UTF-16 or UTF-32 encoding whose NUL pattern the first bytes
    /// have, when there is no byte order mark.
    fn from_nuls(bytes: &[u8]) -> Option<Encoding> {
        let nul = |i: usize| bytes.get(i).map(|&b| b == 0);
        match (nul(0)?, nul(1)?, nul(2), nul(3)) {
            (false, true, Some(true), Some(true)) => Some(Encoding::Utf32Le),
            (true, true, Some(true), Some(false)) => Some(Encoding::Utf32Be),
            (false, true, _, _) => Some(Encoding::Utf16Le),
            (true, false, _, _) => Some(Encoding::Utf16Be),
            _ => None,
        }
    }

    /// `bytes` (after the mark) decoded, or the length of the part that
    /// decodes when the rest does not.
    fn decode(self, bytes: &[u8]) -> Result<Cow<'_, str>, usize> {
        match self {
            Encoding::Utf8Bom => std::str::from_utf8(bytes)
                .map(Cow::Borrowed)
                .map_err(|e| e.valid_up_to()),
            Encoding::Utf16Le | Encoding::Utf16Be => {
                let le = self == Encoding::Utf16Le;
                let (even, odd) = bytes.split_at(bytes.len() & !1);
                let units = even.chunks_exact(2).map(|c| match c {
                    [a, b] if le => u16::from_le_bytes([*a, *b]),
                    [a, b] => u16::from_be_bytes([*a, *b]),
                    _ => 0,
                });
                let mut out = String::with_capacity(even.len() / 2);
                for c in char::decode_utf16(units) {
                    let c = c.map_err(|_| out.encode_utf16().count() * 2)?;
                    out.push(c);
                }
                // An odd byte at the end is no unit.
                if odd.is_empty() {
                    Ok(Cow::Owned(out))
                } else {
                    Err(even.len())
                }
            }
            Encoding::Utf32Le | Encoding::Utf32Be => {
                let mut out = String::with_capacity(bytes.len() / 4);
                for (i, c) in bytes.chunks(4).enumerate() {
                    let unit = match (self, c) {
                        (Encoding::Utf32Le, [a, b, c, d]) => u32::from_le_bytes([*a, *b, *c, *d]),
                        (_, [a, b, c, d]) => u32::from_be_bytes([*a, *b, *c, *d]),
                        _ => return Err(i * 4),
                    };
                    out.push(char::from_u32(unit).ok_or(i * 4)?);
                }
                Ok(Cow::Owned(out))
            }
        }
    }
}

/// The text of `bytes`, and the encoding it was decoded from when that is
/// not plain UTF-8; or why it is no text, in our words.
pub(crate) fn decode(bytes: &[u8]) -> Result<(Cow<'_, str>, Option<Encoding>), String> {
    if let Some((encoding, mark)) = Encoding::from_bom(bytes) {
        let rest = bytes.get(mark..).unwrap_or_default();
        return match encoding.decode(rest) {
            Ok(text) => Ok((text, Some(encoding))),
            Err(good) => Err(format!(
                "{} text by its byte order mark, but the bytes after the first {} are not {}",
                encoding.name(),
                good + mark,
                encoding.name()
            )),
        };
    }
    if let Some(encoding) = Encoding::from_nuls(bytes) {
        return Err(format!(
            "looks like {} without a byte order mark (its first bytes have the NUL bytes of that encoding); \
             save it as UTF-8",
            encoding.name()
        ));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok((Cow::Borrowed(text), None)),
        Err(e) => Err(crate::parse_error::utf8(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str, le: bool, bom: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let units = bom.then_some(0xFEFF).into_iter().chain(s.encode_utf16());
        for u in units {
            out.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        out
    }

    fn utf32(s: &str, le: bool) -> Vec<u8> {
        let mut out = Vec::new();
        for c in std::iter::once('\u{FEFF}').chain(s.chars()) {
            let u = c as u32;
            out.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        out
    }

    #[test]
    fn marks_say_which_and_are_decoded() {
        let body = "{\"name\": \"Zoë 😀\"}";
        for (bytes, encoding) in [
            (utf16(body, true, true), Encoding::Utf16Le),
            (utf16(body, false, true), Encoding::Utf16Be),
            (utf32(body, true), Encoding::Utf32Le),
            (utf32(body, false), Encoding::Utf32Be),
            (
                [b"\xEF\xBB\xBF", body.as_bytes()].concat(),
                Encoding::Utf8Bom,
            ),
        ] {
            let (text, found) = decode(&bytes).unwrap();
            assert_eq!(
                (text.as_ref(), found),
                (body, Some(encoding)),
                "{encoding:?}"
            );
        }
        assert_eq!(
            decode(body.as_bytes()).unwrap(),
            (Cow::Borrowed(body), None)
        );
    }

    #[test]
    fn no_mark_but_nuls_is_named() {
        let e = decode(&utf16("{\"a\": 1}", true, false)).unwrap_err();
        assert!(
            e.starts_with("looks like UTF-16 (little-endian) without a byte order mark"),
            "{e}"
        );
        let e = decode(&utf16("{}", false, false)).unwrap_err();
        assert!(
            e.starts_with("looks like UTF-16 (big-endian) without"),
            "{e}"
        );
        let mut le32 = utf32("{}", true);
        le32.drain(..4);
        let e = decode(&le32).unwrap_err();
        assert!(
            e.starts_with("looks like UTF-32 (little-endian) without"),
            "{e}"
        );
    }

    #[test]
    fn broken_utf16_says_where() {
        // A lone high surrogate after `{`.
        let mut bytes = utf16("{", true, true);
        bytes.extend([0x00, 0xD8, b'}', 0x00]);
        assert_eq!(
            decode(&bytes).unwrap_err(),
            "UTF-16 (little-endian) text by its byte order mark, but the bytes after the first 4 are not UTF-16 (little-endian)"
        );
        // An odd byte at the end.
        let mut bytes = utf16("{}", false, true);
        bytes.push(b'\n');
        assert!(decode(&bytes).unwrap_err().contains("after the first 6"));
        assert_eq!(
            decode(b"ab\xffcd").unwrap_err(),
            "not UTF-8 text (the bytes after the first 2 are not UTF-8)"
        );
    }
}
