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
                b'0'..=b'9' | b'+' | b'-' | b'.' => self.number(),
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
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ops(data: &[u8]) -> Vec<(String, Vec<String>)> {
        let mut lx = Lexer::new(data);
        let mut o = Operands::default();
        let mut out = Vec::new();
        while let Some(op) = lx.next_op(&mut o) {
            let args = o
                .toks
                .iter()
                .map(|t| match *t {
                    Tok::Num(v) => format!("{v}"),
                    Tok::Name(a, b) => format!("/{}", String::from_utf8_lossy(lx.slice(a, b))),
                    Tok::Str(a, b) => format!(
                        "({})",
                        String::from_utf8_lossy(&o.strings[a as usize..b as usize])
                    ),
                    Tok::ArrayOpen => "[".into(),
                    Tok::ArrayClose => "]".into(),
                    Tok::Other => "?".into(),
                })
                .collect();
            out.push((String::from_utf8_lossy(op).into_owned(), args));
        }
        out
    }

    #[test]
    fn operators_and_operands() {
        let got =
            ops(b"BT /F1 12 Tf 1 0 0 1 72.5 -.5 Tm (a\\(b\\)c\\101) Tj [(x) -120 <4142>] TJ ET");
        assert_eq!(got[0], ("BT".into(), vec![]));
        assert_eq!(got[1], ("Tf".into(), vec!["/F1".into(), "12".into()]));
        assert_eq!(got[2].1, ["1", "0", "0", "1", "72.5", "-0.5"]);
        assert_eq!(got[3], ("Tj".into(), vec!["(a(b)cA)".into()]));
        assert_eq!(got[4].1, ["[", "(x)", "-120", "(AB)", "]"]);
        assert_eq!(got[5].0, "ET");
    }

    #[test]
    fn comments_dicts_and_inline_images() {
        let got = ops(b"% c\nq /P <</MCID 3>> BDC BI /W 2 /H 2 ID \x00EI\xffEI Q EI \nQ");
        let names: Vec<&str> = got.iter().map(|(o, _)| o.as_str()).collect();
        assert_eq!(names, ["q", "BDC", "BI", "EI", "Q"]);
    }

    #[test]
    fn numbers() {
        let nums = |data: &[u8]| -> Vec<u64> {
            let mut lx = Lexer::new(data);
            let mut o = Operands::default();
            let _ = lx.next_op(&mut o);
            o.toks
                .iter()
                .map(|t| match *t {
                    Tok::Num(v) => v.to_bits(),
                    _ => u64::MAX,
                })
                .collect()
        };
        let bits = |v: f64| v.to_bits();
        assert_eq!(
            nums(b"0 1 -2 +3 42 op"),
            [0.0, 1.0, -2.0, 3.0, 42.0].map(bits)
        );
        assert_eq!(nums(b"-0 op"), [bits(-0.0)]);
        assert_eq!(
            nums(b".5 -.25 5. 0.125 op"),
            [0.5, -0.25, 5.0, 0.125].map(bits)
        );
        // The extra signs and dots are skipped; digits after a second dot are
        // still fraction digits (and the first sign counts).
        assert_eq!(nums(b"1.2.3 --5 1-2 op"), [1.23, -5.0, 12.0].map(bits));
        // Bare signs and dots are not numbers.
        assert_eq!(nums(b"- . +. op"), [u64::MAX; 3]);
        // Past the exact u64 run (15 digits) and past the 3-digit fraction table.
        let long = b"12345678901234567890.1234567890123 op";
        assert_eq!(nums(long), [reference_nums(long)[0]]);
        assert_eq!(nums(b"1234567890123456789012345 op").len(), 1);
    }

    /// The number bits the reference lexer reads from `data`'s first operator.
    fn reference_nums(data: &[u8]) -> Vec<u64> {
        let mut lx = reference::RefLexer::new(data);
        let mut o = Operands::default();
        let _ = lx.next_op(&mut o);
        o.toks
            .iter()
            .filter_map(|t| match *t {
                Tok::Num(v) => Some(v.to_bits()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn fraction_tables_match_the_digit_loop() {
        for n in 1..=3u32 {
            for m in 0..10usize.pow(n) {
                let digits = format!("{m:0width$}", width = n as usize);
                let mut frac: f64 = 0.0;
                let mut scale: f64 = std::hint::black_box(1.0);
                for d in digits.bytes() {
                    scale /= 10.0;
                    frac += f64::from(d - b'0') * scale;
                }
                let table: &[f64] = match n {
                    1 => &FRAC_1,
                    2 => &FRAC_2,
                    _ => &FRAC_3,
                };
                assert_eq!(table[m].to_bits(), frac.to_bits(), "{digits}");
                assert_eq!(SCALE[n as usize].to_bits(), scale.to_bits());
            }
        }
    }

    #[test]
    fn literal_strings() {
        let got = ops(br"(plain) Tj (a(b)c) Tj (x\\y\)z) Tj (\n\r\t\b\f\q\0\12\1234) Tj (un");
        assert_eq!(got[0].1, ["(plain)"]);
        assert_eq!(got[1].1, ["(a(b)c)"]);
        assert_eq!(got[2].1, ["(x\\y)z)"]);
        assert_eq!(got[3].1, ["(\n\r\t\u{8}\u{c}q\0\nS4)"]);
        // Line continuations are dropped; an unterminated string runs to the end.
        assert_eq!(ops(b"(a\\\r\nb\\\nc) Tj")[0].1, ["(abc)"]);
        assert!(ops(b"(unterminated \\").is_empty());
    }

    /// Every operator and operand of `data`, numbers by their bits, strings and
    /// names by their bytes: what two lexers must agree on.
    type Lexed = (Vec<(Vec<u8>, Vec<(u8, u64, Vec<u8>)>)>, bool);

    fn lex_all(data: &[u8], new: bool) -> Lexed {
        let mut o = Operands::default();
        let mut out = Vec::new();
        let mut lx = Lexer::new(data);
        let mut rf = reference::RefLexer::new(data);
        loop {
            let op = if new {
                lx.next_op(&mut o)
            } else {
                rf.next_op(&mut o)
            };
            let Some(op) = op else { break };
            let toks = o
                .toks
                .iter()
                .map(|t| match *t {
                    Tok::Num(v) => (0, v.to_bits(), Vec::new()),
                    Tok::Name(a, b) => (1, 0, data[a as usize..b as usize].to_vec()),
                    Tok::Str(a, b) => (2, 0, o.strings[a as usize..b as usize].to_vec()),
                    Tok::ArrayOpen => (3, 0, Vec::new()),
                    Tok::ArrayClose => (4, 0, Vec::new()),
                    Tok::Other => (5, 0, Vec::new()),
                })
                .collect();
            out.push((op.to_vec(), toks));
        }
        (out, if new { lx.flooded } else { rf.flooded })
    }

    /// Content-stream-like bytes: numbers, names, strings, operators and every
    /// delimiter, sign, dot and escape the lexer treats specially.
    fn content() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            "[+-]?[0-9]{0,20}(\\.[0-9]{0,20})?".prop_map(String::into_bytes),
            "[0-9.+-]{1,8}".prop_map(String::into_bytes),
            "/[A-Za-z0-9#.]{0,6}".prop_map(String::into_bytes),
            "[A-Za-z'\"*]{1,3}".prop_map(String::into_bytes),
            prop::collection::vec(any::<u8>(), 0..12),
            prop::collection::vec(
                prop::sample::select(b"()\\nrtbf0127\r\n x<>[]{}%/ID EI".to_vec()),
                0..16
            ),
            Just(b" ".to_vec()),
            Just(b"\n".to_vec()),
        ];
        prop::collection::vec(piece, 0..40).prop_map(|ps| ps.join(&b' '))
    }

    proptest! {
        // Cheap cases, and the number fast paths have many shapes to cover.
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// The table-driven lexer reads exactly what the reference lexer reads,
        /// number bits included.
        #[test]
        fn agrees_with_the_reference(data in content()) {
            prop_assert_eq!(lex_all(&data, true), lex_all(&data, false));
        }

        /// Any number text: same value to the bit.
        #[test]
        fn numbers_agree_with_the_reference(
            text in "[+-]{0,2}[0-9]{0,22}(\\.[0-9]{0,22})?([.+-][0-9]{0,4}){0,2}"
        ) {
            let data = format!("{text} op");
            prop_assert_eq!(lex_all(data.as_bytes(), true), lex_all(data.as_bytes(), false));
        }
    }

    #[test]
    fn garbage_terminates() {
        for data in [
            &b"(((("[..],
            b"<<<<",
            b"[[[[[[",
            b"\\",
            b"-",
            b"1.2.3.4 5",
            b"ID",
            b"/",
        ] {
            let _ = ops(data);
        }
        let deep = vec![b'['; 100_000];
        assert!(ops(&deep).is_empty());
        let mut lx = Lexer::new(&deep);
        assert!(lx.next_op(&mut Operands::default()).is_none());
        assert!(lx.flooded);
    }
}
