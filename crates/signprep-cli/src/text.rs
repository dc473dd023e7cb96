//! Text from an input on its way to a terminal: invisible and control
//! characters written as `U+XXXX` ([`signprep_core::visible`], the one rule
//! findings' messages are made with). A leaf: every printer (tables,
//! findings, log lines) uses it; and counts in words ([`plural`]).

/// Text for a terminal: control and invisible characters (a field name may
/// hold any) are written as `U+001B`, `U+200B`, so they cannot move the
/// cursor, recolour the terminal, forge a line or hide in empty backticks.
pub fn clean(s: &str) -> std::borrow::Cow<'_, str> {
    signprep_core::visible(s)
}

/// [`clean`] for a message that may run over several lines (a parser's
/// message with its excerpt): line breaks are kept, every other control
/// or invisible character written as `U+XXXX`.
pub fn clean_lines(s: &str) -> std::borrow::Cow<'_, str> {
    signprep_core::visible_lines(s)
}

/// `1 error-level finding`, `3 error-level findings`.
pub fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod clean_tests {
    use super::*;

    #[test]
    fn control_and_invisible_characters_are_written_as_code_points() {
        assert_eq!(clean("plain"), "plain");
        assert_eq!(clean("a\u{1b}[31mb"), "aU+001B[31mb");
        assert_eq!(clean("a\nb\r"), "aU+000AbU+000D");
        assert_eq!(clean("SIG\u{200B}1"), "SIGU+200B1");
        assert_eq!(clean_lines("a\nb\u{7}"), "a\nbU+0007");
    }
}
