//! The nesting pre-check: how deep `[` and `<<` nest in a PDF's bytes, told
//! by a lexer of PDF tokens before lopdf's recursive parser sees the file.
//!
//! Only real tokens count. Strings, hex strings, comments and names are
//! skipped whole, so `(stream)`, `/endobj` or `/streamX` are data, not
//! keywords; `endobj` resets the count only as a token of its own, and the
//! data of a stream is skipped only after a `stream` keyword that follows the
//! `>>` closing a top-level dictionary. A keyword in any other place counts
//! for nothing, so no byte sequence can reset the depth in the middle of a
//! nesting that the parser would recurse through.

use crate::chars::{is_delim, is_regular, is_white};

/// True when `[`/`<<` nest deeper than `max_depth` anywhere in `bytes`.
///
/// The data of a stream is skipped up to its `endstream` (without one, the
/// bytes are scanned as objects, which can only over-count).
pub(crate) fn nesting_exceeds(bytes: &[u8], max_depth: usize) -> bool {
    too_deep_at(bytes, max_depth).is_some()
}

/// Where `[`/`<<` first nest deeper than `max_depth` (the byte after the
/// token that went too deep), as [`nesting_exceeds`] counts.
pub(crate) fn too_deep_at(bytes: &[u8], max_depth: usize) -> Option<usize> {
    let mut depth: usize = 0;
    // The last token was the `>>` that closed a top-level dictionary (white
    // space and comments in between allowed): a `stream` keyword may follow.
    let mut after_top_dict = false;
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        let mut closed_top_dict = false;
        match c {
            _ if is_white(c) => {
                i += 1;
                continue;
            }
            b'%' => {
                i = skip_while(bytes, i, |b| b != b'\n' && b != b'\r');
                continue;
            }
            b'(' => i = skip_literal_string(bytes, i) + 1,
            b'<' if bytes.get(i + 1) == Some(&b'<') => {
                depth += 1;
                i += 2;
            }
            b'<' => i = skip_while(bytes, i, |b| b != b'>') + 1,
            b'>' if bytes.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                closed_top_dict = depth == 0;
                i += 2;
            }
            b'[' => {
                depth += 1;
                i += 1;
            }
            b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            // A name: `/` and the regular characters after it.
            b'/' => i = skip_while(bytes, i + 1, is_regular),
            _ if is_delim(c) => i += 1,
            _ => {
                let end = skip_while(bytes, i, is_regular);
                match bytes.get(i..end) {
                    Some(b"stream") if after_top_dict => {
                        // Stream data, up to `endstream`; without one, go on
                        // scanning after the keyword.
                        let data = bytes.get(end..).unwrap_or_default();
                        i = match find(data, b"endstream") {
                            Some(at) => end + at + b"endstream".len(),
                            None => end,
                        };
                    }
                    Some(b"endobj") => {
                        depth = 0;
                        i = end;
                    }
                    _ => i = end,
                }
            }
        }
        after_top_dict = closed_top_dict;
        if depth > max_depth {
            return Some(i);
        }
    }
    None
}

/// The first index at or after `from` whose byte fails `keep` (or the length).
fn skip_while(bytes: &[u8], from: usize, keep: impl Fn(u8) -> bool) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    from + rest.iter().position(|&b| !keep(b)).unwrap_or(rest.len())
}

/// The index of the `)` closing the literal string opened at `start` (or the
/// length, when it is never closed).
fn skip_literal_string(bytes: &[u8], start: usize) -> usize {
    let mut level = 0usize;
    let mut i = start;
    while let Some(&c) = bytes.get(i) {
        match c {
            b'\\' => i += 1,
            b'(' => level += 1,
            b')' => {
                level = level.saturating_sub(1);
                if level == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// SIMD search: the pre-scan skips every stream with it (~7% of a tag scan
/// with a naive search).
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

#[cfg(test)]
mod tests {
    use super::nesting_exceeds;
    use proptest::prelude::*;

    fn deep(open: &str, n: usize) -> String {
        open.repeat(n)
    }

    #[test]
    fn counts_arrays_and_dictionaries() {
        assert!(!nesting_exceeds(deep("[", 10).as_bytes(), 10));
        assert!(nesting_exceeds(deep("[", 11).as_bytes(), 10));
        assert!(nesting_exceeds(deep("<<", 11).as_bytes(), 10));
        assert!(!nesting_exceeds(b"[[[]]] [[[]]] [[[]]]", 3));
        assert!(!nesting_exceeds(b"<< /A << /B [1 2] >> >>", 3));
    }

    #[test]
    fn skips_strings_comments_and_stream_data() {
        let s = format!("({}) <5b5b> % {}\n []", deep("[", 50), deep("[", 50));
        assert!(!nesting_exceeds(s.as_bytes(), 2));
        let s = format!(
            "1 0 obj << /Length 50 >> stream\n{}\nendstream endobj",
            deep("[", 50)
        );
        assert!(!nesting_exceeds(s.as_bytes(), 2));
        // Escaped and nested parentheses stay inside the string.
        assert!(!nesting_exceeds(b"(a \\) [[[ (b) [[[ ) []", 2));
    }

    #[test]
    fn a_real_endobj_resets() {
        let s = format!("{} endobj 2 0 obj {}", deep("[", 200), deep("[", 200));
        assert!(!nesting_exceeds(s.as_bytes(), 256));
        let s = format!("{}endobj{}", deep("[", 200), deep("[", 200));
        assert!(
            !nesting_exceeds(s.as_bytes(), 256),
            "[ and ] delimit tokens"
        );
    }

    /// `stream` and `endobj` are keywords only as whole tokens: inside a name,
    /// a string, a hex string, a comment or a longer word they neither reset
    /// nor skip the count.
    #[test]
    fn keywords_inside_other_tokens_do_not_bypass() {
        for noise in [
            "/stream",
            "/endobj",
            "/endobjX",
            "/streamX",
            "(endobj)",
            "(stream)",
            "<656e646f626a>",
            "% endobj\n",
            "endobjX",
            "Xendobj",
            "streamer",
            "stream",
            "<< >> stream",
            "/X stream",
        ] {
            let s = format!("{}{noise} {}endstream", deep("[", 150), deep("[", 150));
            assert!(nesting_exceeds(s.as_bytes(), 256), "bypassed by {noise:?}");
        }
    }

    #[test]
    fn a_top_level_stream_keyword_skips_its_data() {
        let s = format!("<< /Length 5 >>\r\nstream\n{}endstream", deep("[", 300));
        assert!(!nesting_exceeds(s.as_bytes(), 256));
        // A stream without `endstream`: its bytes count.
        let s = format!("<< /Length 5 >> stream\n{}", deep("[", 300));
        assert!(nesting_exceeds(s.as_bytes(), 256));
    }

    /// Noise made of the words the old check took for keywords, in forms that
    /// are not keywords: names, strings, hex strings, comments, longer tokens.
    fn noise() -> impl Strategy<Value = String> {
        let word = prop::sample::select(vec!["stream", "endobj", "endstream", "obj"]);
        let form = prop::sample::select(vec![
            "/{}", "/{}X", "({})", "(x {} y)", "% {}\n", "X{}", "{}X", "{}1", "/A{}",
        ]);
        (word, form).prop_map(|(w, f)| f.replace("{}", w))
    }

    proptest! {
        /// A nesting deeper than the limit is caught, whatever non-keyword
        /// noise is put between its brackets.
        #[test]
        fn noise_never_hides_deep_nesting(
            depth in 5usize..40,
            opens in prop::collection::vec(prop::bool::ANY, 40),
            gaps in prop::collection::vec(prop::option::of(noise()), 40),
        ) {
            let max = depth - 1;
            let mut s = String::new();
            for k in 0..depth {
                let dict = opens.get(k).copied().unwrap_or(false);
                s.push_str(if dict { "<< /K " } else { "[ " });
                if let Some(Some(n)) = gaps.get(k) {
                    s.push_str(n);
                    s.push(' ');
                }
            }
            prop_assert!(nesting_exceeds(s.as_bytes(), max), "{s}");
        }

        /// Balanced nesting within the limit passes, with the same noise.
        #[test]
        fn balanced_nesting_within_the_limit_passes(
            depth in 1usize..40,
            gaps in prop::collection::vec(prop::option::of(noise()), 40),
        ) {
            let mut s = String::new();
            for k in 0..depth {
                s.push_str("[ ");
                if let Some(Some(n)) = gaps.get(k) {
                    s.push_str(n);
                    s.push(' ');
                }
            }
            s.push_str(&"] ".repeat(depth));
            prop_assert!(!nesting_exceeds(s.as_bytes(), depth), "{s}");
        }
    }
}
