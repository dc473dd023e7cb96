//! PDF character classes (ISO 32000-1, 7.2.2), one table lookup per byte
//! instead of a chain of comparisons: the content lexer, the object parser and
//! the nesting pre-scan look at every byte they read.

/// White space: NUL, tab, line feed, form feed, carriage return, space.
pub(crate) const WHITE: u8 = 1;
/// Delimiters: `( ) < > [ ] { } / %`.
pub(crate) const DELIM: u8 = 2;
/// Bytes that end a run of plain literal-string bytes: `(`, `)`, `\`.
pub(crate) const STR_SPECIAL: u8 = 4;
/// Bytes a content-stream number token may hold: digits, signs and dots.
pub(crate) const NUMBER: u8 = 8;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let white = [b' ', b'\n', b'\r', b'\t', b'\x0c', b'\0'];
    let mut i = 0;
    while i < white.len() {
        t[white[i] as usize] = WHITE;
        i += 1;
    }
    let delim = [b'(', b')', b'<', b'>', b'[', b']', b'{', b'}', b'/', b'%'];
    let mut i = 0;
    while i < delim.len() {
        t[delim[i] as usize] = DELIM;
        i += 1;
    }
    t[b'(' as usize] |= STR_SPECIAL;
    t[b')' as usize] |= STR_SPECIAL;
    t[b'\\' as usize] |= STR_SPECIAL;
    let number = *b"0123456789+-.";
    let mut i = 0;
    while i < number.len() {
        t[number[i] as usize] = NUMBER;
        i += 1;
    }
    t
};

/// The class bits of `c`.
pub(crate) fn class(c: u8) -> u8 {
    // A u8 always indexes a 256-entry table.
    CLASS[usize::from(c)]
}

pub(crate) fn is_white(c: u8) -> bool {
    class(c) & WHITE != 0
}

pub(crate) fn is_delim(c: u8) -> bool {
    class(c) & DELIM != 0
}

/// Neither white space nor a delimiter: part of a name, number or keyword.
pub(crate) fn is_regular(c: u8) -> bool {
    class(c) & (WHITE | DELIM) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_match_the_standard_sets() {
        for c in 0..=255u8 {
            let white = matches!(c, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
            let delim = matches!(
                c,
                b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
            );
            assert_eq!(is_white(c), white, "{c}");
            assert_eq!(is_delim(c), delim, "{c}");
            assert_eq!(is_regular(c), !white && !delim, "{c}");
            assert_eq!(
                class(c) & NUMBER != 0,
                c.is_ascii_digit() || b"+-.".contains(&c)
            );
        }
    }
}
