//! The tag pattern `<#\s*([^#<>]*?)\s*#>`, matched by hand (no regex engine needed
//! for one fixed pattern), with the positions of `<#` that never close, each
//! judged by [`typed_as_tag`]: could an author have typed it as a tag?

/// One match: byte offsets of `<#` and past `#>`, and of the captured id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) id_start: usize,
    pub(crate) id_end: usize,
}

impl Match {
    /// The captured id (inner text without surrounding whitespace).
    pub(crate) fn id<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.id_start..self.id_end).unwrap_or_default()
    }
}

/// Why a `<#` that looks like the start of a tag opened no match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unclosed {
    /// The line ends before any `#>`.
    LineEnds,
    /// A `#` not followed by `>` (such as `# >`) where the close should be.
    BadClose,
}

/// Matches, the `<#` that opened no match although an author could have
/// meant a tag there ([`typed_as_tag`]), and the `<#` that opened no match and
/// that nobody would have typed as a tag (`<#3’4%56#`, `<#   and later   #`):
/// text, often misread text, and no finding of its own (`<#>`, `<#<` or a
/// bare `<#`, with nothing after them on their line, are in neither list).
#[derive(Debug, Default)]
pub(crate) struct Scan {
    pub(crate) matches: Vec<Match>,
    pub(crate) unterminated: Vec<(usize, Unclosed)>,
    pub(crate) stray: Vec<usize>,
}

/// What an author types as a tag id: a run that starts with a letter, a digit
/// or `_`, goes on with those and `-` or `.`, and is not a plain lower-case
/// word (it holds an upper-case or uncased letter, a digit or `_`). `SIG_1`,
/// `sig_1`, `SIGNÉ`, `DATE-2` and `名前` are; `and`, `later` and `3’` (the run
/// `3` is cut short by `’`) are not, see [`typed_as_tag`].
fn id_run(text: &str) -> Option<(&str, &str)> {
    let first = text.chars().next()?;
    if !(first.is_alphanumeric() || first == '_') {
        return None;
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(text.len());
    let (run, rest) = text.split_at(end);
    run.chars()
        .any(|c| c == '_' || (c.is_alphanumeric() && !c.is_lowercase()))
        .then_some((run, rest))
}

/// Could an author have typed the `<#` whose line goes on with `after` (the
/// text after the `<#`, to the end of its line) as a tag? Yes when `after` is
///
/// * whitespace, then an id-like run ([`id_run`]) ending at whitespace, at
///   `#`, `<` or `>`, or at the end of the line (`<# SIG_1`, `<# NOT_CLOSED
///   and text # > continues`, `<# SIG_1# >`), or
/// * an id-like run straight after the `<#`, then optional whitespace and a
///   `#` or the end of the line (`<#SIG_1#`, `<#SIG_1 # >`, `<#SIG_1`).
///
/// Anything else is not a tag attempt: punctuation straight after the `<#`
/// or cutting the first run short (`<#3’4%56#`, `<# L5?><56#`, what a font
/// without a usable Unicode mapping reads as), or prose (`<#   and later   #`,
/// `<#SIG_1 and text`). The service reads no tag there either: its pattern
/// needs `#>` on the line.
pub(crate) fn typed_as_tag(after: &str) -> bool {
    let trimmed = after.trim_start();
    let spaced = trimmed.len() < after.len();
    let Some((_, rest)) = id_run(trimmed) else {
        return false;
    };
    if spaced {
        rest.is_empty()
            || rest.starts_with(|c: char| c.is_whitespace() || matches!(c, '#' | '<' | '>'))
    } else {
        let rest = rest.trim_start();
        rest.is_empty() || rest.starts_with('#')
    }
}

/// Is a match that spans lines (`<# BROKEN_` / `TAG #>`) a wrapped tag? When
/// its first line is [`typed_as_tag`] (or holds nothing after the `<#`) and
/// every word of its id is made of what ids are made of (letters, digits,
/// `_`, `-`, `.`): prose or misread text that happens to reach a `#>` some
/// lines below is not.
pub(crate) fn wrapped_tag(text: &str, m: &Match) -> bool {
    let body = text
        .get(m.start + 2..m.end.saturating_sub(2))
        .unwrap_or_default();
    let head = body.split('\n').next().unwrap_or_default();
    (head.trim().is_empty() || typed_as_tag(head))
        && body
            .chars()
            .all(|c| c.is_whitespace() || c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Finds every non-overlapping match, left to right, as a regex engine would.
pub(crate) fn find_matches(text: &str) -> Scan {
    let bytes = text.as_bytes();
    let mut scan = Scan::default();
    let mut i = 0;
    while let Some(off) = find2(&bytes[i..], b'<', b'#') {
        let start = i + off;
        match match_at(text, start) {
            Some(m) => {
                scan.matches.push(m);
                i = m.end;
            }
            None => {
                match classify_failure(text, start) {
                    Some(Failure::Attempt(why)) => scan.unterminated.push((start, why)),
                    Some(Failure::Stray) => scan.stray.push(start),
                    None => {}
                }
                i = start + 1;
            }
        }
    }
    scan
}

/// A `<#` that opened no match, with text after it on its line.
enum Failure {
    /// An author could have meant a tag ([`typed_as_tag`]).
    Attempt(Unclosed),
    /// Nobody would have typed this as a tag.
    Stray,
}

/// Decides whether a failed `<#` was meant as a tag, looking at its own line.
fn classify_failure(text: &str, start: usize) -> Option<Failure> {
    let rest = text.get(start + 2..)?;
    let line = rest.split('\n').next().unwrap_or_default();
    let special = line.find(['#', '<', '>']);
    let content = &line[..special.unwrap_or(line.len())];
    if content.trim().is_empty() {
        return None;
    }
    if !typed_as_tag(line) {
        return Some(Failure::Stray);
    }
    Some(Failure::Attempt(match special {
        None => Unclosed::LineEnds,
        Some(i) if line[i..].starts_with('#') => Unclosed::BadClose,
        // Another `<` or a stray `>` before any close.
        Some(_) => Unclosed::LineEnds,
    }))
}

fn find2(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    hay.windows(2).position(|w| w[0] == a && w[1] == b)
}

/// Tries the pattern at `start` (which holds `<#`).
fn match_at(text: &str, start: usize) -> Option<Match> {
    let body = text.get(start + 2..)?;
    // The capture is [^#<>]*, so the first '#', '<' or '>' decides.
    let stop = body.find(['#', '<', '>'])?;
    let rest = &body[stop..];
    if !rest.starts_with("#>") {
        return None;
    }
    let inner = &body[..stop];
    let lead = inner.len() - inner.trim_start().len();
    let trimmed = inner.trim();
    let id_start = start + 2 + lead;
    Some(Match {
        start,
        end: start + 2 + stop + 2,
        id_start,
        id_end: id_start + trimmed.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<&str> {
        find_matches(text)
            .matches
            .iter()
            .map(|m| m.id(text))
            .collect()
    }

    #[test]
    fn plain_and_padded() {
        assert_eq!(ids("x <# SIG_1 #> y <#DATE#>"), ["SIG_1", "DATE"]);
        assert_eq!(ids("<#   PAD   #>"), ["PAD"]);
        assert_eq!(ids("<# #> <##>"), ["", ""]);
        assert_eq!(ids("<#A#><#B#>"), ["A", "B"]);
    }

    #[test]
    fn not_tags() {
        assert!(ids("< # X # >").is_empty());
        assert!(ids("<# A#B #>").is_empty());
        assert!(ids("<#>").is_empty());
        assert!(ids("＜# X #＞").is_empty());
    }

    #[test]
    fn failed_open_is_reported_and_next_tag_found() {
        let text = "<# OPEN then <# NEXT #>";
        let scan = find_matches(text);
        assert_eq!(scan.unterminated, [(0, Unclosed::LineEnds)]);
        assert_eq!(ids(text), ["NEXT"]);
        let bad = find_matches("<# SIG_1 # > and <# A\nB");
        assert_eq!(
            bad.unterminated,
            [(0, Unclosed::BadClose), (17, Unclosed::LineEnds)]
        );
        // Not tag attempts: nothing follows the `<#` on its line.
        assert!(find_matches("<#> <#< <#\nx <##").unterminated.is_empty());
    }

    fn unterminated(text: &str) -> Vec<(usize, Unclosed)> {
        find_matches(text).unterminated
    }

    #[test]
    fn what_an_author_could_have_typed_stays_an_attempt() {
        for (text, why) in [
            ("<# SIG_1", Unclosed::LineEnds),
            ("<# SIG_1 and more", Unclosed::LineEnds),
            ("<# sig_1", Unclosed::LineEnds),
            ("<# SIGNÉ", Unclosed::LineEnds),
            ("<# 名前", Unclosed::LineEnds),
            ("<# DATE-2.", Unclosed::LineEnds),
            ("<# Signature here", Unclosed::LineEnds),
            ("<# 42", Unclosed::LineEnds),
            ("<#SIG_1", Unclosed::LineEnds),
            ("<#SIG_1#", Unclosed::BadClose),
            ("<#SIG_1# >", Unclosed::BadClose),
            ("<#SIG_1 # >", Unclosed::BadClose),
            ("<# SIG_1# >", Unclosed::BadClose),
            ("<# NOT_CLOSED and text # > continues", Unclosed::BadClose),
            ("<# SIG_1 < x", Unclosed::LineEnds),
        ] {
            assert_eq!(unterminated(text), [(0, why)], "{text:?}");
        }
    }

    #[test]
    fn what_nobody_types_as_a_tag_is_stray() {
        for text in [
            // What a font without a usable Unicode mapping reads as (pdf.js
            // issue18911, the TraceMonkey paper's figures).
            "<#3’4%56#",
            "<#3$4(56#",
            "<#0(1923#",
            "<# L5?><56# M/,56*# N547>F/#",
            // Prose and punctuation.
            "<#   and later   #",
            "<# and later",
            "<#SIG_1 and text",
            "<#-1",
            "<# (x) #",
            "<#’SIG_1",
        ] {
            let scan = find_matches(text);
            assert!(scan.unterminated.is_empty(), "{text:?}: {scan:?}");
            assert_eq!(scan.stray, [0], "{text:?}");
        }
        // Nothing after the `<#`: neither an attempt nor stray text.
        assert_eq!(find_matches("<#> <#< <#\nx <##").stray, Vec::<usize>::new());
    }

    proptest::proptest! {
        /// An open `<#` with a space and an upper-case id after it stays an
        /// attempt, whatever prose is before it and whatever follows the id
        /// (no `#>` on the line).
        #[test]
        fn spaced_ids_left_open_are_attempts(
            before in "[a-z ,.:]{0,20}",
            id in "[A-Z_][A-Z0-9_]{0,15}",
            after in proptest::prop_oneof![
                proptest::strategy::Just(String::new()),
                "( [a-z ,.]{0,20})",
                "( ?# ?[a-z ]{0,10})",
            ],
        ) {
            let text = format!("{before}<# {id}{after}");
            let scan = find_matches(&text);
            proptest::prop_assert!(scan.matches.is_empty(), "{text:?}");
            proptest::prop_assert_eq!(scan.unterminated.len(), 1, "{:?}", text);
            proptest::prop_assert!(scan.stray.is_empty(), "{text:?}");
        }

        /// Punctuation straight after the `<#` is never a tag attempt.
        #[test]
        fn punctuation_after_the_opener_is_stray(
            punct in "[’%$(*?:;!,/=@]",
            rest in "[A-Za-z0-9’%$(*?:;!,/=@ ]{0,20}",
        ) {
            let text = format!("<#{punct}{rest}");
            let scan = find_matches(&text);
            proptest::prop_assert!(scan.unterminated.is_empty(), "{text:?}");
            proptest::prop_assert_eq!(scan.stray.len(), 1, "{:?}", text);
        }
    }

    #[test]
    fn wrapped_matches_are_judged_by_their_words() {
        for (text, wrapped) in [
            ("<# BROKEN_\nTAG #>", true),
            ("<#SIG_\n1#>", true),
            ("<#\nDATE_2 #>", true),
            ("<# sig_\nlower #>", true),
            ("<# and then\nlater #>", false),
            ("<#3’4\n56 #>", false),
            ("<# SIG_1, then\nlater #>", false),
        ] {
            let scan = find_matches(text);
            assert_eq!(scan.matches.len(), 1, "{text:?}");
            assert_eq!(wrapped_tag(text, &scan.matches[0]), wrapped, "{text:?}");
        }
    }

    #[test]
    fn spans_lines_like_the_regex() {
        let text = "end <# WRAPPED_\nTAG #> more";
        let scan = find_matches(text);
        assert_eq!(scan.matches.len(), 1);
        assert_eq!(scan.matches[0].id(text), "WRAPPED_\nTAG");
    }

    #[test]
    fn unicode_ids_keep_char_boundaries() {
        assert_eq!(ids("<# SIGNÉ #> <# 名前 #>"), ["SIGNÉ", "名前"]);
    }
}
