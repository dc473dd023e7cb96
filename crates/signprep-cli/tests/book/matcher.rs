//! Expected output against actual output: a line `...` stands for any number of
//! lines (none too), `[..]` inside a line for any text. One alignment does both
//! the matching and the diff shown when they differ, so the two never disagree.

/// Whether `actual` is `pattern` with each `[..]` standing for any text.
pub fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == actual;
    };
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// One step of the alignment of expected lines with actual ones.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Step {
    /// Expected line `i` matched actual line `j`.
    Same(usize, usize),
    /// Actual line `j` taken by the `...` at expected line `i`.
    Elided(usize, usize),
    /// The `...` at expected line `i` is done.
    EndElision(usize),
    /// Expected line `i` is missing from the output.
    Missing(usize),
    /// Actual line `j` was not expected.
    Extra(usize),
}

/// The cheapest alignment (the fewest missing and extra lines).
fn align(expected: &[String], actual: &[&str]) -> (usize, Vec<Step>) {
    let (n, m) = (expected.len(), actual.len());
    // cost[i][j]: the fewest edits to align expected[i..] with actual[j..].
    let mut cost = vec![vec![usize::MAX; m + 1]; n + 1];
    let mut step = vec![vec![Step::Missing(0); m + 1]; n + 1];
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            if i == n && j == m {
                cost[i][j] = 0;
                continue;
            }
            let mut best = (usize::MAX, Step::Missing(i));
            let mut consider = |c: usize, s: Step| {
                if c < best.0 {
                    best = (c, s);
                }
            };
            if i < n && expected[i] == "..." {
                // On a tie a `...` takes the line: the first one is greedy.
                if j < m {
                    consider(cost[i][j + 1], Step::Elided(i, j));
                }
                consider(cost[i + 1][j], Step::EndElision(i));
            }
            if i < n && j < m && expected[i] != "..." && line_matches(&expected[i], actual[j]) {
                consider(cost[i + 1][j + 1], Step::Same(i, j));
            }
            if i < n {
                consider(cost[i + 1][j].saturating_add(1), Step::Missing(i));
            }
            if j < m {
                consider(cost[i][j + 1].saturating_add(1), Step::Extra(j));
            }
            cost[i][j] = best.0;
            step[i][j] = best.1;
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut path = Vec::new();
    while i < n || j < m {
        let s = step[i][j];
        path.push(s);
        match s {
            Step::Same(..) => (i, j) = (i + 1, j + 1),
            Step::Elided(..) | Step::Extra(_) => j += 1,
            Step::EndElision(_) | Step::Missing(_) => i += 1,
        }
    }
    (cost[0][0], path)
}

/// Whether `actual` is what `expected` describes.
pub fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    align(expected, actual).0 == 0
}

/// A unified-style diff: ` ` a line as expected, `-` an expected line the output
/// lacks, `+` an output line not expected, `  ...` the lines a `...` took.
pub fn diff(expected: &[String], actual: &[&str]) -> String {
    let (_, path) = align(expected, actual);
    let mut out = String::new();
    let mut in_elision = false;
    for s in path {
        match s {
            Step::Same(_, j) => out.push_str(&format!("  {}\n", actual[j])),
            Step::Elided(..) => {
                if !in_elision {
                    out.push_str("  ...\n");
                    in_elision = true;
                }
                continue;
            }
            Step::EndElision(_) => {
                if !in_elision {
                    out.push_str("  ... (no line)\n");
                }
            }
            Step::Missing(i) => out.push_str(&format!("- {}\n", expected[i])),
            Step::Extra(j) => out.push_str(&format!("+ {}\n", actual[j])),
        }
        in_elision = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_wildcard_stands_for_any_text_in_its_line() {
        for (pattern, actual, want) in [
            ("abc", "abc", true),
            ("abc", "abcd", false),
            ("a[..]c", "abbbc", true),
            ("a[..]c", "ac", true),
            ("a[..]c", "acb", false),
            ("[..]", "", true),
            ("[..]", "anything", true),
            ("x [..] y [..] z", "x 1 y 2 z", true),
            ("x [..] y [..] z", "x 1 z 2 y", false),
            ("ab[..]ba", "aba", false),
            ("42 files[..]", "42 files (41 ok)", true),
            ("[..]exit 1", "exit 1", true),
            ("[..]exit 1", "exit 10", false),
            ("[..]exit 1", " exit 1", true),
        ] {
            assert_eq!(
                line_matches(pattern, actual),
                want,
                "{pattern:?} vs {actual:?}"
            );
        }
    }

    #[test]
    fn three_dots_stand_for_any_number_of_lines() {
        let cases: [(&str, &[&str], bool); 10] = [
            ("a\nb", &["a", "b"], true),
            ("a\nb", &["a", "b", "c"], false),
            ("a\n...", &["a", "b", "c"], true),
            ("a\n...", &["a"], true),
            ("...\nc", &["a", "b", "c"], true),
            ("...\nc", &["a", "b"], false),
            ("a\n...\nc\n...\ne", &["a", "b", "c", "d", "e"], true),
            ("a\n...\nc", &["a", "c"], true),
            ("...", &[], true),
            ("", &[], true),
        ];
        for (expected, actual, want) in cases {
            assert_eq!(
                lines_match(&lines(expected), actual),
                want,
                "{expected:?} vs {actual:?}"
            );
        }
    }

    #[test]
    fn the_diff_marks_what_is_missing_and_what_is_extra() {
        let expected = lines("head\nexit 0\ntail");
        let actual = ["head", "exit 1", "tail"];
        assert!(!lines_match(&expected, &actual));
        assert_eq!(
            diff(&expected, &actual),
            "  head\n- exit 0\n+ exit 1\n  tail\n"
        );
        // The lines a `...` takes are shown as one `...`; one it takes none of, so.
        let expected = lines("head\n...\nwant\n...\ntail");
        let actual = ["head", "1", "2", "got", "tail"];
        assert!(!lines_match(&expected, &actual));
        assert_eq!(
            diff(&expected, &actual),
            "  head\n  ...\n- want\n  ... (no line)\n  tail\n"
        );
    }
}
