//! Text from a document on its way into a message, made visible: each
//! character a reader cannot see or that can disturb what is shown around it
//! is written as `U+XXXX`. A leaf: it imports nothing of this crate.
//!
//! Which characters: the C0 and C1 controls and DEL (a terminal acts on them),
//! the zero-width ones (U+200B..U+200D, U+2060 word joiner, U+FEFF byte order
//! mark), the bidirectional controls (U+200E/U+200F marks, U+202A..U+202E
//! embeddings, U+2066..U+2069 isolates, U+061C), the line and paragraph
//! separators (U+2028/U+2029), and the other format characters that draw
//! nothing (U+00AD soft hyphen, U+034F, U+180E, U+2061..U+2064, U+206A..U+206F,
//! U+FFF9..U+FFFB, the Hangul fillers, the tag characters U+E0000..U+E007F).
//! A tag id with a U+200B inside otherwise shows as two empty backticks.
//!
//! Only messages and hints are made visible: a record's data (a tag id, a field
//! name) stays exactly as the document has it.

use std::borrow::Cow;
use std::fmt::Write as _;

/// A character that draws nothing, or changes how the text around it is shown.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// `s` with each [invisible](is_invisible) character written as `U+XXXX`
/// (four hex digits at least: `U+200B`, `U+001B`, `U+E0041`).
pub fn visible(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// [`visible`] of an owned string (the same string when it has nothing to
/// escape): what every finding's message and hint is made with.
pub fn into_visible(text: String) -> String {
    match visible(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(s) => s,
    }
}

/// [`visible`] for a message that may run over several lines: its line
/// breaks are kept.
pub fn visible_lines(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    let escaped = |c: char| is_invisible(c) && !(keep_newlines && c == '\n');
    if !s.chars().any(escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if escaped(c) {
            // Writing into a String cannot fail.
            let _ = write!(out, "U+{:04X}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_written_as_code_points() {
        assert_eq!(visible("SIGN_1"), "SIGN_1");
        assert!(matches!(visible("Prénom 名前 ❤"), Cow::Borrowed(_)));
        assert_eq!(visible("SIG\u{200B}1"), "SIGU+200B1");
        assert_eq!(visible("a\u{1b}[31mb"), "aU+001B[31mb");
        assert_eq!(visible("a\nb\r\t"), "aU+000AbU+000DU+0009");
        assert_eq!(
            visible("\u{FEFF}x\u{202E}y\u{2066}"),
            "U+FEFFxU+202EyU+2066"
        );
        assert_eq!(
            visible("\u{85}\u{9F}\u{7F}\u{AD}"),
            "U+0085U+009FU+007FU+00AD"
        );
        assert_eq!(visible("\u{E0041}"), "U+E0041");
        assert_eq!(visible_lines("a\nb\u{7}"), "a\nbU+0007");
    }
}
