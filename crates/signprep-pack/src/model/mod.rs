//! The service's request and response objects (serde), per the specification.
//!
//! Every object keeps the keys it does not know in `extra`, so that a body
//! written elsewhere survives a read and a write unchanged; [`UnknownKeys`]
//! reports them (they are probably typos). Optional fields are omitted when
//! unset; a field the specification types as "or null" is a [`Nullable`] and
//! keeps an explicit `null`.
//!
//! [`Nullable`]: crate::Nullable

pub(crate) mod pack;
pub(crate) mod plan;
pub(crate) mod populate;
pub(crate) mod settings;
pub(crate) mod v0;

use crate::codes::{Finding, PackCode, pointer};
use std::collections::BTreeMap;

/// Keys an object does not know, with their values, in key order.
pub type Extra = BTreeMap<String, serde_json::Value>;

/// Objects that can list the keys they did not recognise.
pub trait UnknownKeys {
    /// Appends an [`PackCode::UnknownKey`] finding for every unknown key, located
    /// under the JSON pointer `at`.
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>);

    /// Every unknown key, located from the root of this object.
    fn unknown_keys(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        self.unknown_keys_at("", &mut out);
        out
    }
}

impl<T: UnknownKeys> UnknownKeys for Option<T> {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        if let Some(v) = self {
            v.unknown_keys_at(at, out);
        }
    }
}

impl<T: UnknownKeys> UnknownKeys for Vec<T> {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        for (i, v) in self.iter().enumerate() {
            v.unknown_keys_at(&pointer(at, i), out);
        }
    }
}

/// Reports each key of `extra` as unknown to `object`, with the closest known
/// key as a hint.
pub(crate) fn report_extra(
    extra: &Extra,
    at: &str,
    object: &str,
    known: &[&str],
    out: &mut Vec<Finding>,
) {
    for key in extra.keys() {
        let mut f = Finding::new(
            PackCode::UnknownKey,
            format!("`{key}` is not a key of {object}; it is kept and sent as is"),
        )
        .at(pointer(at, key));
        if let Some(best) = closest(key, known) {
            f = f.hint(format!("did you mean `{best}`?"));
        }
        out.push(f);
    }
}

/// The known key nearest to `key` (edit distance at most a third of its length).
fn closest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let mut budget = usize::MAX;
    crate::rules::closest(key, known.iter().copied(), &mut budget)
}

/// Words longer than this many characters get no suggestion: no one means a
/// 65-character key, and the cost of comparing stays bounded.
pub(crate) const SUGGEST_MAX_CHARS: usize = 64;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_key() {
        let known = ["signatory_uuid", "custom_id", "data"];
        assert_eq!(closest("signatory_uid", &known), Some("signatory_uuid"));
        assert_eq!(closest("custom-id", &known), Some("custom_id"));
        assert_eq!(closest("colour", &known), None);
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
}
