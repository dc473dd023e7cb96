//! The operands of one content-stream operator, read as numbers, a matrix,
//! a name (escapes decoded) or a string.

use super::lexer::Tok;
use crate::geometry::Matrix;
use std::borrow::Cow;

/// The operands of one operator, as the lexer left them.
pub(super) struct Args<'o> {
    pub(super) toks: &'o [Tok],
    pub(super) strings: &'o [u8],
    pub(super) data: &'o [u8],
}

impl<'o> Args<'o> {
    pub(super) fn num(&self, i: usize) -> Option<f64> {
        match self.toks.get(i)? {
            Tok::Num(v) if v.is_finite() => Some(*v),
            _ => None,
        }
    }

    /// The last `N` operands as numbers (extra leading operands are tolerated).
    pub(super) fn nums<const N: usize>(&self) -> Option<[f64; N]> {
        let base = self.toks.len().checked_sub(N)?;
        let mut v = [0.0; N];
        for (k, slot) in v.iter_mut().enumerate() {
            *slot = self.num(base + k)?;
        }
        Some(v)
    }

    pub(super) fn matrix(&self) -> Option<Matrix> {
        let [a, b, c, d, e, f] = self.nums::<6>()?;
        let m = Matrix::new(a, b, c, d, e, f);
        m.is_finite().then_some(m)
    }

    /// A name operand, with `#xx` escapes decoded.
    pub(super) fn name(&self, i: usize) -> Option<Cow<'o, [u8]>> {
        let Tok::Name(a, b) = *self.toks.get(i)? else {
            return None;
        };
        let raw = self.data.get(a as usize..b as usize)?;
        if !raw.contains(&b'#') {
            return Some(Cow::Borrowed(raw));
        }
        let mut out = Vec::with_capacity(raw.len());
        let mut k = 0;
        while let Some(&c) = raw.get(k) {
            // Two hex digits exactly (`from_str_radix` alone would take
            // `#+1` for 0x01); otherwise the `#` is itself, as in a name of
            // an object (see the loader's parser).
            let hex = raw
                .get(k + 1..k + 3)
                .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match (c, hex) {
                (b'#', Some(v)) => {
                    out.push(v);
                    k += 3;
                }
                _ => {
                    out.push(c);
                    k += 1;
                }
            }
        }
        Some(Cow::Owned(out))
    }

    pub(super) fn last_string(&self) -> Option<&'o [u8]> {
        match *self.toks.last()? {
            Tok::Str(a, b) => self.strings.get(a as usize..b as usize),
            _ => None,
        }
    }
}
