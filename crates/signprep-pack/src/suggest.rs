//! The words of hints: "did you mean", lists of names, what a misplaced field
//! loses. A leaf: it imports nothing of this crate, so the model, the builder,
//! the rules and migration all call it without calling each other.

/// The work "did you mean" hints may take for one input, in cells of the
/// edit-distance table (about a tenth of a second): a body with many unknown
/// ids against a document with many names must not make its hints quadratic.
/// Past it, hints only list the names.
pub(crate) const BUDGET: usize = 20_000_000;

/// Words longer than this many characters get no suggestion: no one means a
/// 65-character key, and the cost of comparing stays bounded.
pub(crate) const MAX_CHARS: usize = 64;

/// The known word nearest to `word` (edit distance at most a third of its
/// length), within `budget` cells of work, which it uses up. Words over
/// [`MAX_CHARS`] characters get none.
pub(crate) fn closest<'a>(
    word: &str,
    known: impl IntoIterator<Item = &'a str>,
    budget: &mut usize,
) -> Option<&'a str> {
    if word.len() > 4 * MAX_CHARS || word.chars().count() > MAX_CHARS {
        return None;
    }
    let chars: Vec<char> = word.chars().collect();
    let limit = (chars.len() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for k in known {
        if *budget == 0 {
            return None;
        }
        // Every candidate costs at least one unit, even when skipped.
        let (d, cells) = edit_distance_within(&chars, k, limit);
        *budget = budget.saturating_sub(cells.max(1));
        if let Some(d) = d
            && best.is_none_or(|b| (d, k) < b)
        {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// The edit distance of `a` (as characters) and `b`, counting a swap of two
/// neighbours as one edit (optimal string alignment: `tpye` is one edit from
/// `type`), when it is at most `limit`; with the work done: table cells
/// computed plus the bytes of `b` read.
///
/// Memory is three rows of `b`; the work stops as soon as a row's minimum is
/// over `limit` (row minima never decrease), and strings whose lengths differ
/// by more than `limit` cost nothing.
pub(crate) fn edit_distance_within(a: &[char], b: &str, limit: usize) -> (Option<usize>, usize) {
    // A character is 1 to 4 bytes: a length check before reading `b`.
    if b.len() / 4 > a.len().saturating_add(limit) || a.len() > b.len().saturating_add(limit) {
        return (None, 0);
    }
    let read = b.len();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return (None, read);
    }
    let m = b.len();
    let mut before: Vec<usize> = vec![0; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur: Vec<usize> = vec![0; m + 1];
    let mut cells = read;
    let at = |row: &[usize], j: usize| row.get(j).copied().unwrap_or(usize::MAX / 2);
    for (i, ca) in a.iter().enumerate().map(|(i, c)| (i + 1, c)) {
        if let Some(first) = cur.first_mut() {
            *first = i;
        }
        let mut row_min = i;
        for (j, cb) in b.iter().enumerate().map(|(j, c)| (j + 1, c)) {
            let mut v = (at(&prev, j) + 1)
                .min(at(&cur, j - 1) + 1)
                .min(at(&prev, j - 1) + usize::from(ca != cb));
            if i > 1 && j > 1 && a.get(i - 1) == b.get(j - 2) && a.get(i - 2) == b.get(j - 1) {
                v = v.min(at(&before, j - 2) + 1);
            }
            if let Some(x) = cur.get_mut(j) {
                *x = v;
            }
            row_min = row_min.min(v);
        }
        cells += m;
        if row_min > limit {
            return (None, cells);
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = at(&prev, m);
    ((d <= limit).then_some(d), cells)
}

/// At most twelve names, comma-separated, for hints.
pub(crate) fn list<S: AsRef<str>>(names: &[S]) -> String {
    if names.is_empty() {
        return "nothing".into();
    }
    let mut s = names
        .iter()
        .take(12)
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 12 {
        s.push_str(", ...");
    }
    s
}

/// What a data field naming no tag or form field loses: its value or signer
/// (then the finding is an error), or nothing.
pub(crate) fn lost(carries: bool) -> &'static str {
    if carries {
        ", and its value or signer with it"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_word_within_budget() {
        let known = ["signatory_uuid", "custom_id", "data"];
        let mut unlimited = usize::MAX;
        let mut nearest = |w| closest(w, known, &mut unlimited);
        assert_eq!(nearest("signatory_uid"), Some("signatory_uuid"));
        assert_eq!(nearest("custom-id"), Some("custom_id"));
        assert_eq!(nearest("colour"), None);
        let mut budget = BUDGET;
        assert_eq!(
            closest("discont", ["discount", "fee"], &mut budget),
            Some("discount")
        );
        assert_eq!(closest("zzz", ["discount"], &mut budget), None);
        assert!(budget < BUDGET);
        let mut spent = 0;
        assert_eq!(closest("discont", ["discount"], &mut spent), None);
        // Over MAX_CHARS: no suggestion, whatever is known.
        let long = "k".repeat(MAX_CHARS + 1);
        assert_eq!(closest(&long, [long.as_str()], &mut budget), None);
    }

    #[test]
    fn edit_distance() {
        let within = |a: &str, b, limit| {
            let a: Vec<char> = a.chars().collect();
            edit_distance_within(&a, b, limit)
        };
        let d = |a, b| within(a, b, usize::MAX).0;
        assert_eq!(d("", "abc"), Some(3));
        assert_eq!(d("tpye", "type"), Some(1));
        assert_eq!(d("kitten", "sitting"), Some(3));
        assert_eq!(d("abc", ""), Some(3));
        assert_eq!(within("kitten", "sitting", 2).0, None);
        assert_eq!(within("kitten", "sitting", 3).0, Some(3));
        // Far apart: the work stops early.
        let (a60, b60) = ("a".repeat(60), "b".repeat(60));
        let (far, cells) = within(&a60, &b60, 20);
        assert_eq!(far, None);
        assert!(cells <= 60 + 21 * 60, "{cells}");
        // A long name is skipped without being read.
        let long = "x".repeat(1 << 20);
        assert_eq!(within("ab", &long, 1), (None, 0));
    }

    #[test]
    fn lists_and_losses() {
        assert_eq!(list::<&str>(&[]), "nothing");
        assert_eq!(list(&["a", "b"]), "a, b");
        let thirteen: Vec<String> = (0..13).map(|i| i.to_string()).collect();
        assert_eq!(list(&thirteen), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ...");
        assert_eq!(lost(true), ", and its value or signer with it");
        assert_eq!(lost(false), "");
    }
}
