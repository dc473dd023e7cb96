//! A second walk over JSON text that has already parsed, for what
//! `serde_json::Value` cannot tell: an object key given twice (the parser
//! keeps the last one silently, while other readers keep the first), and
//! where in the text a value is (the JSON pointer of the value at a byte
//! offset, the text of the value at a pointer), so that a type error found
//! on the parsed value is said with its line, column and pointer.
//!
//! The walk is iterative (no recursion, whatever the nesting) and returns
//! `None` on text that is not JSON rather than guessing.

use crate::codes::{Finding, PackCode};
use std::collections::HashMap;

/// A key given a second (or later) time in one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DuplicateKey {
    /// The JSON pointer of the key's value.
    pub pointer: String,
    /// The key, decoded.
    pub key: String,
    /// Byte offset of the key's first occurrence.
    pub first: usize,
    /// Byte offset of this occurrence.
    pub again: usize,
}

/// What a walk looks for besides duplicate keys.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Probe<'a> {
    /// The pointer of the innermost value whose text holds this byte.
    pub at: Option<usize>,
    /// The byte range of the value at this pointer.
    pub span_of: Option<&'a str>,
}

/// What a walk found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Walked {
    /// Every repeated key, in text order.
    pub duplicates: Vec<DuplicateKey>,
    /// [`Probe::at`]'s answer.
    pub innermost: Option<String>,
    /// [`Probe::span_of`]'s answer.
    pub span: Option<(usize, usize)>,
}

/// An open object or list.
enum Frame {
    Object {
        start: usize,
        /// Each key so far, with the offset of its first occurrence.
        seen: HashMap<String, usize>,
        /// The current key, as a pointer token.
        key: String,
    },
    List {
        start: usize,
        index: usize,
    },
}

impl Frame {
    fn start(&self) -> usize {
        match self {
            Frame::Object { start, .. } | Frame::List { start, .. } => *start,
        }
    }
}

/// The pointer of the value the innermost open frame is at.
fn path(stack: &[Frame]) -> String {
    let mut out = String::new();
    for f in stack {
        out = match f {
            Frame::Object { key, .. } => crate::codes::pointer(&out, key),
            Frame::List { index, .. } => crate::codes::pointer(&out, index),
        };
    }
    out
}

/// Walks `text` (one JSON value) for repeated keys and what `probe` asks.
pub(crate) fn walk(text: &str, probe: Probe<'_>) -> Option<Walked> {
    let b = text.as_bytes();
    let mut w = Walker {
        b,
        text,
        i: 0,
        stack: Vec::new(),
        out: Walked::default(),
        probe,
    };
    loop {
        // A value starts here.
        w.skip_ws();
        let start = w.i;
        match *b.get(w.i)? {
            b'{' => {
                w.i += 1;
                w.skip_ws();
                if b.get(w.i) == Some(&b'}') {
                    w.i += 1;
                    w.done(start);
                } else {
                    w.stack.push(Frame::Object {
                        start,
                        seen: HashMap::new(),
                        key: String::new(),
                    });
                    w.key()?;
                    continue;
                }
            }
            b'[' => {
                w.i += 1;
                w.skip_ws();
                if b.get(w.i) == Some(&b']') {
                    w.i += 1;
                    w.done(start);
                } else {
                    w.stack.push(Frame::List { start, index: 0 });
                    continue;
                }
            }
            b'"' => {
                w.string()?;
                w.done(start);
            }
            _ => {
                let end = b
                    .get(w.i..)?
                    .iter()
                    .position(|c| matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                    .map_or(b.len(), |n| w.i + n);
                if end == w.i {
                    return None;
                }
                w.i = end;
                w.done(start);
            }
        }
        // After a value: the next one of its container, or the container's end.
        loop {
            w.skip_ws();
            let Some(top) = w.stack.last_mut() else {
                return (w.i == b.len()).then_some(w.out);
            };
            match (*b.get(w.i)?, top) {
                (b',', Frame::List { index, .. }) => {
                    *index += 1;
                    w.i += 1;
                    break;
                }
                (b',', Frame::Object { .. }) => {
                    w.i += 1;
                    w.key()?;
                    break;
                }
                (b']', Frame::List { .. }) | (b'}', Frame::Object { .. }) => {
                    w.i += 1;
                    let start = w.stack.pop()?.start();
                    w.done(start);
                }
                _ => return None,
            }
        }
    }
}

struct Walker<'t, 'p> {
    b: &'t [u8],
    text: &'t str,
    i: usize,
    stack: Vec<Frame>,
    out: Walked,
    probe: Probe<'p>,
}

impl Walker<'_, '_> {
    fn skip_ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// Past a string starting at `i` (its opening quote).
    fn string(&mut self) -> Option<()> {
        let mut j = self.i + 1;
        loop {
            match *self.b.get(j)? {
                b'\\' => j += 2,
                b'"' => break,
                _ => j += 1,
            }
        }
        self.i = j + 1;
        Some(())
    }

    /// An object's key and its `:`; notes a key seen before in the object.
    fn key(&mut self) -> Option<()> {
        self.skip_ws();
        let at = self.i;
        self.string()?;
        let raw = self.text.get(at..self.i)?;
        let decoded: String = serde_json::from_str(raw).ok()?;
        self.skip_ws();
        if self.b.get(self.i) != Some(&b':') {
            return None;
        }
        self.i += 1;
        let Some(Frame::Object { seen, key, .. }) = self.stack.last_mut() else {
            return None;
        };
        key.clone_from(&decoded);
        let first = *seen.entry(decoded.clone()).or_insert(at);
        if first != at {
            let pointer = path(&self.stack);
            self.out.duplicates.push(DuplicateKey {
                pointer,
                key: decoded,
                first,
                again: at,
            });
        }
        Some(())
    }

    /// A value from `start` ends at `i`: answers the probe's questions about it.
    fn done(&mut self, start: usize) {
        if let Some(t) = self.probe.at
            && self.out.innermost.is_none()
            && (start..self.i).contains(&t)
        {
            self.out.innermost = Some(path(&self.stack));
        }
        if let Some(p) = self.probe.span_of
            && self.out.span.is_none()
            && path(&self.stack) == p
        {
            self.out.span = Some((start, self.i));
        }
    }
}

/// A `json_duplicate_key` finding for every key `text` repeats in one
/// object, at the repeat's pointer, with the line of both.
pub(crate) fn duplicate_key_findings(text: &str) -> Vec<Finding> {
    let Some(walked) = walk(text, Probe::default()) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(walked.duplicates.len());
    for d in walked.duplicates {
        let (line, column) = line_column(text, d.again);
        let (first_line, first_column) = line_column(text, d.first);
        out.push(
            Finding::new(
                PackCode::JsonDuplicateKey,
                format!(
                    "line {line}, column {column}: the key `{}` is given again in this object \
                     (first at line {first_line}, column {first_column}); JSON readers differ on \
                     which one they keep, so the value checked here may not be the one the service reads",
                    d.key
                ),
            )
            .at(d.pointer)
            .hint("give each key once"),
        );
    }
    out
}

/// The byte offset of serde_json's `line` and `column` (the column counts
/// bytes; serde_json's errors point just after the value they are about).
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> Option<usize> {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(line - 2)?.0 + 1
    };
    Some((line_start + column).min(text.len()))
}

/// 1-based line and column (in characters) of byte `at` of `text`.
pub(crate) fn line_column(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dups(text: &str) -> Vec<(String, String)> {
        walk(text, Probe::default())
            .unwrap()
            .duplicates
            .into_iter()
            .map(|d| (d.pointer, d.key))
            .collect()
    }

    #[test]
    fn repeated_keys_are_found_with_their_pointer() {
        assert_eq!(
            dups(r#"{"signatories": [{"email": "bad", "name": "A", "email": "a@example.com"}]}"#),
            [("/signatories/0/email".to_string(), "email".to_string())]
        );
        // Escapes are decoded: `\u0065mail` is `email`.
        assert_eq!(dups(r#"{"email": 1, "\u0065mail": 2}"#).len(), 1);
        // The same key in two objects is no repeat; `a/b` is escaped.
        assert!(dups(r#"[{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]"#).is_empty());
        assert_eq!(
            dups(r#"{"a/b": {}, "a/b": [1, {"x": "y"}]}"#),
            [("/a~1b".to_string(), "a/b".to_string())]
        );
        let w = walk(
            "{\n  \"k\": 1,\n  \"k\": 2,\n  \"k\": 3\n}",
            Probe::default(),
        )
        .unwrap();
        let again: Vec<_> = w.duplicates.iter().map(|d| (d.first, d.again)).collect();
        assert_eq!(again, [(4, 14), (4, 24)]);
    }

    #[test]
    fn deep_nesting_is_no_recursion() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            walk(&deep, Probe::default()).map(|w| w.duplicates.len()),
            Some(0)
        );
    }

    #[test]
    fn not_json_is_none() {
        for bad in ["", "{", "[1,", "{\"a\" 1}", "{\"a\": 1} x", "\"open"] {
            assert!(walk(bad, Probe::default()).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn places_and_spans() {
        let text = "{\"requests\": [{\"body\": {\"data_fields\": [{\"y\": \"abc\"}]}}]}";
        let at = text.find("abc").unwrap();
        let w = walk(
            text,
            Probe {
                at: Some(at),
                span_of: Some("/requests/0/body"),
            },
        )
        .unwrap();
        assert_eq!(
            w.innermost.as_deref(),
            Some("/requests/0/body/data_fields/0/y")
        );
        let (s, e) = w.span.unwrap();
        assert_eq!(&text[s..e], "{\"data_fields\": [{\"y\": \"abc\"}]}");
        assert_eq!(offset_of("ab\ncd\nef", 3, 1), Some(7));
        assert_eq!(line_column("ab\ncé\nef", 6), (2, 3));
    }
}
