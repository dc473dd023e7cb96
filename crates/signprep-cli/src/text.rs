//! Text from an input on its way to a terminal: control characters escaped.
//! A leaf: every printer (tables, findings, log lines) uses it; and counts
//! in words ([`plural`]).

/// Text for a terminal: control characters (a field name may hold any) are
/// written as escapes (`\u{1b}`, `\n`), so they cannot move the cursor,
/// recolour the terminal or forge a line.
pub fn clean(s: &str) -> std::borrow::Cow<'_, str> {
    escape(s, false)
}

/// [`clean`] for a message that may run over several lines (a parser's
/// message with its excerpt): line breaks are kept, every other control
/// character escaped.
pub fn clean_lines(s: &str) -> std::borrow::Cow<'_, str> {
    escape(s, true)
}

fn escape(s: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| c.is_control() && !(keep_newlines && c == '\n');
    if !s.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if escaped(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
    fn control_characters_are_escaped() {
        assert_eq!(clean("plain"), "plain");
        assert_eq!(clean("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(clean("a\nb\r"), "a\\nb\\r");
        assert_eq!(clean_lines("a\nb\u{7}"), "a\nb\\u{7}");
    }
}
