//! Typographic characters that word processors put where a tag's syntax
//! needs plain ones (AutoCorrect, a copy from another document), and the
//! plain character each stands for. A leaf.

/// A look-alike: the character, its Unicode name, what the syntax needs.
pub(crate) struct Lookalike {
    pub(crate) ch: char,
    pub(crate) name: &'static str,
    pub(crate) plain: &'static str,
}

const fn l(ch: char, name: &'static str, plain: &'static str) -> Lookalike {
    Lookalike { ch, name, plain }
}

/// Every look-alike read, by code point.
const TABLE: &[Lookalike] = &[
    l('\u{00A0}', "NO-BREAK SPACE", " "),
    l('\u{00AB}', "LEFT-POINTING DOUBLE ANGLE QUOTATION MARK", "<"),
    l(
        '\u{00BB}',
        "RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK",
        ">",
    ),
    l('\u{200B}', "ZERO WIDTH SPACE", ""),
    l('\u{2011}', "NON-BREAKING HYPHEN", "-"),
    l('\u{2013}', "EN DASH", "-"),
    l('\u{2014}', "EM DASH", "-"),
    l('\u{2018}', "LEFT SINGLE QUOTATION MARK", "'"),
    l('\u{2019}', "RIGHT SINGLE QUOTATION MARK", "'"),
    l('\u{201C}', "LEFT DOUBLE QUOTATION MARK", "\""),
    l('\u{201D}', "RIGHT DOUBLE QUOTATION MARK", "\""),
    l('\u{201E}', "DOUBLE LOW-9 QUOTATION MARK", "\""),
    l('\u{2026}', "HORIZONTAL ELLIPSIS", "..."),
    l('\u{202F}', "NARROW NO-BREAK SPACE", " "),
    l('\u{2039}', "SINGLE LEFT-POINTING ANGLE QUOTATION MARK", "<"),
    l(
        '\u{203A}',
        "SINGLE RIGHT-POINTING ANGLE QUOTATION MARK",
        ">",
    ),
    l('\u{2060}', "WORD JOINER", ""),
    l('\u{FE5F}', "SMALL NUMBER SIGN", "#"),
    l('\u{FEFF}', "ZERO WIDTH NO-BREAK SPACE", ""),
    l('\u{FF03}', "FULLWIDTH NUMBER SIGN", "#"),
    l('\u{FF1A}', "FULLWIDTH COLON", ":"),
    l('\u{FF1B}', "FULLWIDTH SEMICOLON", ";"),
    l('\u{FF1C}', "FULLWIDTH LESS-THAN SIGN", "<"),
    l('\u{FF1E}', "FULLWIDTH GREATER-THAN SIGN", ">"),
    l('\u{FF3B}', "FULLWIDTH LEFT SQUARE BRACKET", "["),
    l('\u{FF3D}', "FULLWIDTH RIGHT SQUARE BRACKET", "]"),
    l('\u{FF5B}', "FULLWIDTH LEFT CURLY BRACKET", "{"),
    l('\u{FF5C}', "FULLWIDTH VERTICAL LINE", "|"),
    l('\u{FF5D}', "FULLWIDTH RIGHT CURLY BRACKET", "}"),
];

/// The look-alike `ch` is, if any.
pub(crate) fn lookup(ch: char) -> Option<&'static Lookalike> {
    TABLE
        .binary_search_by_key(&ch, |l| l.ch)
        .ok()
        .and_then(|i| TABLE.get(i))
}

/// `text` with every look-alike replaced by its plain character, and for
/// each byte of the result (and its end) the byte offset in `text` of the
/// character it came from.
pub(crate) fn normalize(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut origin = Vec::with_capacity(text.len() + 1);
    for (i, ch) in text.char_indices() {
        let before = out.len();
        match lookup(ch) {
            Some(l) => out.push_str(l.plain),
            None => out.push(ch),
        }
        origin.extend(std::iter::repeat_n(i, out.len() - before));
    }
    origin.push(text.len());
    (out, origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_for_the_binary_search() {
        assert!(TABLE.windows(2).all(|w| w[0].ch < w[1].ch));
    }

    #[test]
    fn normalized_offsets_point_back() {
        let (n, o) = normalize("a\u{2026}b\u{200B}c");
        assert_eq!(n, "a...bc");
        assert_eq!(o, vec![0, 1, 1, 1, 4, 8, 9]);
    }
}
