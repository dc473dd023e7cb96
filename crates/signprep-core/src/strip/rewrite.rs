//! Rewriting the text-showing operators of one decoded content stream: the
//! removed codes taken out of their strings and replaced by a `TJ` number
//! that moves the pen as far as they did, every other byte of the stream kept.
//!
//! `s Tj` becomes `[...] TJ`, `s '` becomes `T* [...] TJ` and `aw ac s "`
//! becomes `aw Tw ac Tc T* [...] TJ` (ISO 32000-1 9.4.3, Table 109: the same
//! operations). The kept pieces of a string are written as hexadecimal
//! strings, so their bytes are exactly the ones shown before.

use crate::content::{LAST_STRING, Lexer, Operands, Tok};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One code to take out of a string operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Removal {
    /// Which string of a `TJ` (0-based), or [`LAST_STRING`].
    pub(crate) string: u16,
    /// The code's bytes in the (unescaped) string.
    pub(crate) bytes: (u32, u32),
    /// The `TJ` number equal to its advance.
    pub(crate) kern: f64,
}

/// The operators to rewrite in one stream, by their byte span.
pub(crate) type Edits = BTreeMap<(usize, usize), Vec<Removal>>;

/// One element of a rewritten `TJ` array.
#[derive(Clone, Debug, PartialEq)]
enum Item {
    Str(Vec<u8>),
    Num(f64),
}

/// `data` with every operator of `edits` rewritten; `None` when an operator
/// is not where it was recorded, or not a text-showing one.
pub(crate) fn rewrite(data: &[u8], edits: &Edits) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() + edits.len() * 16);
    let mut at = 0;
    for (&(start, end), removals) in edits {
        if start < at || end > data.len() {
            return None;
        }
        // White space and comments before the operands stay as they are.
        let first = Lexer::token_start(data, start).min(end);
        out.extend_from_slice(data.get(at..first)?);
        out.extend_from_slice(&operator(data.get(first..end)?, removals)?);
        at = end;
    }
    out.extend_from_slice(data.get(at..)?);
    Some(out)
}

/// The replacement of one operator (`op`: its operands and itself).
fn operator(op: &[u8], removals: &[Removal]) -> Option<Vec<u8>> {
    let mut lexer = Lexer::new(op);
    let mut operands = Operands::default();
    let name = lexer.next_op(&mut operands)?;
    if lexer.pos() != op.len() {
        return None;
    }
    let toks = &operands.toks;
    let string = |t: &Tok| match *t {
        Tok::Str(a, b) => operands.strings.get(a as usize..b as usize),
        _ => None,
    };
    let num = |i: usize| match toks.get(i) {
        Some(Tok::Num(v)) if v.is_finite() => Some(*v),
        _ => None,
    };
    let mut text = String::new();
    let mut items = Vec::new();
    match name {
        b"Tj" | b"'" | b"\"" => {
            if name == b"\""
                && let (Some(aw), Some(ac)) = (num(0), num(1))
            {
                let _ = write!(text, "{} Tw {} Tc ", number(aw), number(ac));
            }
            if name != b"Tj" {
                text.push_str("T* ");
            }
            let s = string(toks.last()?)?;
            split(s, removals, LAST_STRING, &mut items)?;
        }
        b"TJ" => {
            let mut k = 0u16;
            for t in toks {
                match *t {
                    Tok::Str(..) => {
                        split(string(t)?, removals, k, &mut items)?;
                        k = k.saturating_add(1);
                    }
                    Tok::Num(n) => push_num(&mut items, n),
                    _ => {}
                }
            }
        }
        _ => return None,
    }
    let mut out = text.into_bytes();
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        match item {
            Item::Str(s) => {
                out.push(b'<');
                for b in s {
                    let _ = write!(HexSink(&mut out), "{b:02X}");
                }
                out.push(b'>');
            }
            Item::Num(n) => out.extend_from_slice(number(*n).as_bytes()),
        }
    }
    out.extend_from_slice(b"] TJ");
    Some(out)
}

/// Appends string `s` (string `k` of its operator) to `items` without the
/// codes `removals` names for it, each run of removed codes as one number.
fn split(s: &[u8], removals: &[Removal], k: u16, items: &mut Vec<Item>) -> Option<()> {
    let mut mine: Vec<&Removal> = removals.iter().filter(|r| r.string == k).collect();
    if mine.is_empty() {
        items.push(Item::Str(s.to_vec()));
        return Some(());
    }
    mine.sort_by_key(|r| r.bytes);
    let mut at = 0usize;
    for r in mine {
        let (a, b) = (r.bytes.0 as usize, r.bytes.1 as usize);
        if a < at || b > s.len() || a > b {
            return None;
        }
        if a > at {
            items.push(Item::Str(s.get(at..a)?.to_vec()));
        }
        push_num(items, r.kern);
        at = b;
    }
    if at < s.len() {
        items.push(Item::Str(s.get(at..)?.to_vec()));
    }
    Some(())
}

/// Appends a number, adding it to a number just before (the moves add up).
fn push_num(items: &mut Vec<Item>, n: f64) {
    match items.last_mut() {
        Some(Item::Num(m)) => *m += n,
        _ => items.push(Item::Num(n)),
    }
}

/// A number as PDF writes it: no exponent, at most four decimals (a
/// ten-thousandth of a thousandth of the font size moves text by far less than
/// a hundredth of a point).
pub(crate) fn number(v: f64) -> String {
    let rounded = (v * 10_000.0).round() / 10_000.0;
    let mut s = format!("{rounded:.4}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "-0" { "0".into() } else { s }
}

/// `write!` into a byte vector.
struct HexSink<'v>(&'v mut Vec<u8>);

impl std::fmt::Write for HexSink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edits(op: &str, removals: Vec<Removal>) -> (Vec<u8>, Edits) {
        let data = format!("BT /F1 10 Tf {op}\nET").into_bytes();
        // As the interpreter records it: from the end of the operator before.
        let start = 12;
        let mut e = Edits::new();
        e.insert((start, start + 1 + op.len()), removals);
        (data, e)
    }

    fn rm(string: u16, a: u32, b: u32, kern: f64) -> Removal {
        Removal {
            string,
            bytes: (a, b),
            kern,
        }
    }

    #[test]
    fn tj_becomes_tj_array_with_the_advance() {
        let removals = (2..6).map(|i| rm(LAST_STRING, i, i + 1, -600.0)).collect();
        let (data, e) = edits("(ab{{}}cd) Tj", removals);
        let out = String::from_utf8(rewrite(&data, &e).unwrap()).unwrap();
        assert_eq!(out, "BT /F1 10 Tf [<6162> -2400 <6364>] TJ\nET");
    }

    #[test]
    fn tj_arrays_keep_their_numbers_and_other_strings() {
        let (data, e) = edits("[(A) 120 (BC) -50 (D)] TJ", vec![rm(1, 0, 2, -1000.5)]);
        let out = String::from_utf8(rewrite(&data, &e).unwrap()).unwrap();
        assert_eq!(out, "BT /F1 10 Tf [<41> -930.5 <44>] TJ\nET");
    }

    #[test]
    fn quote_operators_keep_their_line_and_spacing() {
        let (data, e) = edits("2 0.5 (xy) \"", vec![rm(LAST_STRING, 0, 1, -500.0)]);
        let out = String::from_utf8(rewrite(&data, &e).unwrap()).unwrap();
        assert_eq!(out, "BT /F1 10 Tf 2 Tw 0.5 Tc T* [-500 <79>] TJ\nET");
        let (data, e) = edits("(xy) '", vec![rm(LAST_STRING, 1, 2, -500.0)]);
        let out = String::from_utf8(rewrite(&data, &e).unwrap()).unwrap();
        assert_eq!(out, "BT /F1 10 Tf T* [<78> -500] TJ\nET");
    }

    #[test]
    fn a_span_that_is_not_a_show_operator_is_refused() {
        let (data, mut e) = edits("(ab) Tj", vec![rm(LAST_STRING, 0, 1, -1.0)]);
        let ((s, _), v) = e.pop_first().unwrap();
        e.insert((s - 5, s + 1), v);
        assert_eq!(rewrite(&data, &e), None);
    }

    #[test]
    fn numbers_have_no_exponent_and_at_most_four_decimals() {
        assert_eq!(number(-1200.0), "-1200");
        assert_eq!(number(0.000_01), "0");
        assert_eq!(number(-0.000_01), "0");
        assert_eq!(number(1.234_567), "1.2346");
        assert_eq!(number(1e20), "100000000000000000000");
    }
}
