//! The tag pattern `<#\s*([^#<>]*?)\s*#>`, matched by hand (no regex engine needed
//! for one fixed pattern), with the positions of `<#` that never close.

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

/// Matches, and the `<#` that opened no match although text follows them on
/// their line (`<#>`, `<#<` or a bare `<#` are not tag attempts).
#[derive(Debug, Default)]
pub(crate) struct Scan {
    pub(crate) matches: Vec<Match>,
    pub(crate) unterminated: Vec<(usize, Unclosed)>,
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
                if let Some(why) = classify_failure(text, start) {
                    scan.unterminated.push((start, why));
                }
                i = start + 1;
            }
        }
    }
    scan
}

/// Decides whether a failed `<#` was meant as a tag, looking at its own line.
fn classify_failure(text: &str, start: usize) -> Option<Unclosed> {
    let rest = text.get(start + 2..)?;
    let line = rest.split('\n').next().unwrap_or_default();
    let special = line.find(['#', '<', '>']);
    let content = &line[..special.unwrap_or(line.len())];
    if content.trim().is_empty() {
        return None;
    }
    match special {
        None => Some(Unclosed::LineEnds),
        Some(i) if line[i..].starts_with('#') => Some(Unclosed::BadClose),
        // Another `<` or a stray `>` before any close.
        Some(_) => Some(Unclosed::LineEnds),
    }
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
