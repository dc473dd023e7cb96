//! A zero-allocation content-stream lexer.
//!
//! It yields one operator at a time with its operands in a reusable buffer:
//! numbers parsed in place, names and strings as byte ranges (literal strings
//! unescaped into a shared scratch buffer), arrays flattened between open and
//! close markers. Nesting is tracked with a counter, never recursion, and inline
//! image data (`BI … ID … EI`) is skipped without being tokenized.

#[cfg(test)]
mod reference;

/// One operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tok {
    Num(f64),
    /// A name without its `/`, as a range of the content bytes (`#xx` escapes kept).
    Name(u32, u32),
    /// A string's bytes, as a range of [`Operands::strings`].
    Str(u32, u32),
    ArrayOpen,
    ArrayClose,
    /// Anything else (booleans, null, dictionaries' delimiters).
    Other,
}

/// The operands of the current operator.
#[derive(Debug, Default)]
pub(crate) struct Operands {
    pub(crate) toks: Vec<Tok>,
    pub(crate) strings: Vec<u8>,
}

impl Operands {
    fn clear(&mut self) {
        self.toks.clear();
        self.strings.clear();
    }
}

/// Most operands one operator may have; a stream that piles up more without an
/// operator is garbage (or hostile) and is not read further.
const MAX_OPERANDS: usize = 1 << 16;

pub(crate) struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
    /// Set when reading stopped on an operand flood.
    pub(crate) flooded: bool,
    /// Compute numbers' values (the default); false reads each number as
    /// `Tok::Num(0.0)`, its bytes passed over exactly as when it is
    /// computed (a run that uses no number: `content::run`'s first run).
    pub(crate) values: bool,
}

use crate::chars::{NUMBER, STR_SPECIAL, class, is_delim, is_regular, is_white};

/// `FRAC_n[m]` is the fraction the digit-by-digit loop in [`Lexer::number`]
/// computes for the `n` fraction digits of `m` (leading zeros included), and
/// `SCALE[n]` its scale afterwards. Built by the same f64 operations in the same
/// order, so a table hit is bit-identical to running the loop; it saves the
/// per-digit work for the one to three decimals most coordinates have.
const fn frac_table<const N: usize>() -> [f64; N] {
    let mut t = [0.0; N];
    let mut m = 0;
    while m < N {
        let mut frac = 0.0;
        let mut scale = 1.0;
        let mut p = N / 10;
        while p > 0 {
            let d = ((m / p) % 10) as f64;
            scale /= 10.0;
            frac += d * scale;
            p /= 10;
        }
        t[m] = frac;
        m += 1;
    }
    t
}

static FRAC_1: [f64; 10] = frac_table::<10>();
static FRAC_2: [f64; 100] = frac_table::<100>();
static FRAC_3: [f64; 1000] = frac_table::<1000>();
const SCALE: [f64; 4] = [1.0, 1.0 / 10.0, 1.0 / 10.0 / 10.0, 1.0 / 10.0 / 10.0 / 10.0];

/// Integer digits summed exactly in a `u64` before one conversion: below 2^53
/// every step of the f64 loop `int * 10 + d` is exact too, so both agree bit for
/// bit. 15 digits stay below 10^15 < 2^53; longer runs continue in f64.
const MAX_EXACT_DIGITS: usize = 15;

/// The value of the decimal digits `bytes` starts with, at most `max` of them,
/// and how many there were (`max` <= 19 cannot overflow).
fn leading_digits(bytes: &[u8], max: usize) -> (u64, usize) {
    let mut value = 0u64;
    let mut n = 0usize;
    for &c in bytes.get(..max).unwrap_or(bytes) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        value = value * 10 + u64::from(d);
        n += 1;
    }
    (value, n)
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Lexer {
            data,
            pos: 0,
            flooded: false,
            values: true,
        }
    }

    /// The offset just past the last operator read.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Skips white space and comments from `at`: where the first token at or
    /// after `at` starts.
    pub(crate) fn token_start(data: &[u8], at: usize) -> usize {
        let mut lexer = Lexer::new(data);
        lexer.pos = at;
        lexer.skip_white();
        lexer.pos
    }

    /// The bytes of a range produced by this lexer.
    #[cfg(test)]
    pub(crate) fn slice(&self, start: u32, end: u32) -> &'a [u8] {
        self.data
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// Reads operands up to the next operator; returns the operator, or `None`
    /// at the end of the data.
    // One caller (the interpreter's loop); left to the compiler, whether it is
    // inlined there changed with unrelated edits, and with it ~1.5% of a scan.
    #[inline(always)]
    pub(crate) fn next_op(&mut self, ops: &mut Operands) -> Option<&'a [u8]> {
        ops.clear();
        loop {
            self.skip_white();
            let &c = self.data.get(self.pos)?;
            let tok = match c {
                b'0'..=b'9' | b'+' | b'-' | b'.' if self.values => self.number(),
                b'0'..=b'9' | b'+' | b'-' | b'.' => self.pass_number(),
                b'/' => {
                    self.pos += 1;
                    let start = self.pos;
                    self.regular();
                    Tok::Name(start as u32, self.pos as u32)
                }
                b'(' => self.literal(&mut ops.strings),
                b'<' if self.data.get(self.pos + 1) == Some(&b'<') => {
                    self.pos += 2;
                    Tok::Other
                }
                b'>' if self.data.get(self.pos + 1) == Some(&b'>') => {
                    self.pos += 2;
                    Tok::Other
                }
                b'<' => self.hex(&mut ops.strings),
                b'[' => {
                    self.pos += 1;
                    Tok::ArrayOpen
                }
                b']' => {
                    self.pos += 1;
                    Tok::ArrayClose
                }
                b'{' | b'}' | b')' | b'>' => {
                    self.pos += 1;
                    Tok::Other
                }
                _ => {
                    let start = self.pos;
                    self.regular();
                    if self.pos == start {
                        // A lone delimiter we do not use.
                        self.pos += 1;
                        continue;
                    }
                    let word = self.data.get(start..self.pos).unwrap_or_default();
                    match word {
                        b"true" | b"false" | b"null" => Tok::Other,
                        b"ID" => {
                            self.skip_inline_image();
                            return Some(b"EI");
                        }
                        _ => return Some(word),
                    }
                }
            };
            if ops.toks.len() >= MAX_OPERANDS {
                self.flooded = true;
                self.pos = self.data.len();
                return None;
            }
            ops.toks.push(tok);
        }
    }

    fn skip_white(&mut self) {
        let data = self.data;
        let mut i = self.pos;
        while let Some(&c) = data.get(i) {
            if is_white(c) {
                i += 1;
            } else if c == b'%' {
                let rest = data.get(i..).unwrap_or_default();
                i += memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
            } else {
                break;
            }
        }
        self.pos = i;
    }

    fn regular(&mut self) {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        self.pos += rest
            .iter()
            .position(|&c| !is_regular(c))
            .unwrap_or(rest.len());
    }

    #[inline(always)]
    fn number(&mut self) -> Tok {
        let data = self.data;
        let start = self.pos;
        let mut i = start;
        let mut neg = false;
        if let Some(&s) = data.get(i)
            && (s == b'+' || s == b'-')
        {
            neg = s == b'-';
            i += 1;
        }
        // Fast path for the usual `ddd` or `ddd.ddd`; it leaves `int`, `frac`,
        // `scale`, `seen_dot` and `digits` exactly as the general loop below
        // would, and that loop then takes whatever follows (more digits, stray
        // signs or dots).
        let (exact, mut digits) =
            leading_digits(data.get(i..).unwrap_or_default(), MAX_EXACT_DIGITS);
        i += digits;
        // Through i64 so that the conversion is one instruction; 15 digits fit.
        let mut int = exact as i64 as f64;
        let mut frac: f64 = 0.0;
        let mut scale: f64 = 1.0;
        let mut seen_dot = false;
        if data.get(i) == Some(&b'.') {
            seen_dot = true;
            i += 1;
            let (m, n) = leading_digits(data.get(i..).unwrap_or_default(), 3);
            let m = m as usize;
            i += n;
            let table: &[f64] = match n {
                1 => &FRAC_1,
                2 => &FRAC_2,
                _ => &FRAC_3,
            };
            if n > 0 {
                frac = table.get(m).copied().unwrap_or(0.0);
                scale = SCALE.get(n).copied().unwrap_or(1.0);
                digits += n;
            }
        }
        // Usually a number ends at white space or a delimiter; only more digits
        // or stray signs and dots need the general loop.
        while let Some(&c) = data.get(i)
            && class(c) & NUMBER != 0
        {
            match c {
                b'0'..=b'9' => {
                    let d = f64::from(c - b'0');
                    if seen_dot {
                        scale /= 10.0;
                        frac += d * scale;
                    } else {
                        int = int * 10.0 + d;
                    }
                    digits += 1;
                }
                // Some producers write "--5" or "1.2.3"; the extra signs/dots end up ignored.
                b'.' if !seen_dot => seen_dot = true,
                _ => {}
            }
            i += 1;
        }
        if digits == 0 {
            // A bare sign or dot: not a number; read it as a keyword-ish token.
            self.pos = start + 1;
            self.regular();
            return Tok::Other;
        }
        self.pos = i;
        let v = int + frac;
        Tok::Num(if neg { -v } else { v })
    }

    /// A number read without its value (`Tok::Num(0.0)`): the same bytes
    /// as [`Lexer::number`] takes (a sign, then every digit, sign and dot
    /// up to anything else), and the same bare sign or dot that is none.
    fn pass_number(&mut self) -> Tok {
        let data = self.data;
        let start = self.pos;
        let mut i = start;
        if matches!(data.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let mut digits = false;
        while let Some(&c) = data.get(i)
            && class(c) & NUMBER != 0
        {
            digits |= c.is_ascii_digit();
            i += 1;
        }
        if !digits {
            self.pos = start + 1;
            self.regular();
            return Tok::Other;
        }
        self.pos = i;
        Tok::Num(0.0)
    }

    fn literal(&mut self, strings: &mut Vec<u8>) -> Tok {
        let data = self.data;
        let mut i = self.pos + 1;
        let start = strings.len();
        let mut depth = 1usize;
        loop {
            // Copy the run of plain bytes up to the next `(`, `)` or `\` at once.
            let rest = data.get(i..).unwrap_or_default();
            let run = rest
                .iter()
                .position(|&c| class(c) & STR_SPECIAL != 0)
                .unwrap_or(rest.len());
            strings.extend_from_slice(rest.get(..run).unwrap_or_default());
            i += run;
            let Some(&c) = data.get(i) else {
                break;
            };
            i += 1;
            match c {
                b'(' => {
                    depth += 1;
                    strings.push(c);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    strings.push(c);
                }
                _ => {
                    // A backslash.
                    let Some(&e) = data.get(i) else {
                        break;
                    };
                    i += 1;
                    match e {
                        b'n' => strings.push(b'\n'),
                        b'r' => strings.push(b'\r'),
                        b't' => strings.push(b'\t'),
                        b'b' => strings.push(0x08),
                        b'f' => strings.push(0x0c),
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match data.get(i) {
                                    Some(&d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        i += 1;
                                    }
                                    _ => break,
                                }
                            }
                            strings.push((v & 0xff) as u8);
                        }
                        b'\r' => {
                            if data.get(i) == Some(&b'\n') {
                                i += 1;
                            }
                        }
                        b'\n' => {}
                        other => strings.push(other),
                    }
                }
            }
        }
        self.pos = i;
        Tok::Str(start as u32, strings.len() as u32)
    }

    fn hex(&mut self, strings: &mut Vec<u8>) -> Tok {
        self.pos += 1;
        let start = strings.len();
        let mut high: Option<u8> = None;
        while let Some(&c) = self.data.get(self.pos) {
            self.pos += 1;
            let v = match c {
                b'>' => break,
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => continue,
            };
            match high.take() {
                Some(h) => strings.push(h << 4 | v),
                None => high = Some(v),
            }
        }
        if let Some(h) = high {
            strings.push(h << 4);
        }
        Tok::Str(start as u32, strings.len() as u32)
    }

    /// Skips inline image data after `ID`: up to whitespace, `EI`, and a
    /// delimiter or the end.
    fn skip_inline_image(&mut self) {
        // One whitespace byte follows ID.
        self.pos += 1;
        let data = self.data;
        while self.pos + 1 < data.len() {
            if data[self.pos] == b'E'
                && data[self.pos + 1] == b'I'
                && self.pos > 0
                && is_white(data[self.pos - 1])
                && data
                    .get(self.pos + 2)
                    .is_none_or(|&c| is_white(c) || is_delim(c))
            {
                self.pos += 2;
                return;
            }
            self.pos += 1;
        }
        self.pos = data.len();
    }
}

#[cfg(test)]
mod tests;
