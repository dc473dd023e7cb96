//! A plain lexer without the byte-class table and the number fast paths, kept
//! as the oracle the property tests compare the real lexer against.

use super::{MAX_OPERANDS, Operands, Tok};

pub(crate) struct RefLexer<'a> {
    data: &'a [u8],
    pos: usize,
    /// Set when reading stopped on an operand flood.
    pub(crate) flooded: bool,
}

fn is_white(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'\t' | b'\x0c' | b'\0')
}

fn is_delim(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

impl<'a> RefLexer<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        RefLexer {
            data,
            pos: 0,
            flooded: false,
        }
    }

    /// Reads operands up to the next operator; returns the operator, or `None`
    /// at the end of the data.
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
        while let Some(&c) = self.data.get(self.pos) {
            if is_white(c) {
                self.pos += 1;
            } else if c == b'%' {
                while self
                    .data
                    .get(self.pos)
                    .is_some_and(|&c| c != b'\n' && c != b'\r')
                {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn regular(&mut self) {
        while self
            .data
            .get(self.pos)
            .is_some_and(|&c| !is_white(c) && !is_delim(c))
        {
            self.pos += 1;
        }
    }

    fn number(&mut self) -> Tok {
        let start = self.pos;
        let mut neg = false;
        if let Some(&s) = self.data.get(self.pos)
            && (s == b'+' || s == b'-')
        {
            neg = s == b'-';
            self.pos += 1;
        }
        let mut int: f64 = 0.0;
        let mut frac: f64 = 0.0;
        let mut scale: f64 = 1.0;
        let mut seen_dot = false;
        let mut digits = 0;
        while let Some(&c) = self.data.get(self.pos) {
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
                b'-' | b'+' | b'.' => {}
                _ => break,
            }
            self.pos += 1;
        }
        if digits == 0 {
            // A bare sign or dot: not a number; read it as a keyword-ish token.
            self.pos = start + 1;
            self.regular();
            return Tok::Other;
        }
        let v = int + frac;
        Tok::Num(if neg { -v } else { v })
    }

    fn literal(&mut self, strings: &mut Vec<u8>) -> Tok {
        self.pos += 1;
        let start = strings.len();
        let mut depth = 1usize;
        while let Some(&c) = self.data.get(self.pos) {
            self.pos += 1;
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
                b'\\' => {
                    let Some(&e) = self.data.get(self.pos) else {
                        break;
                    };
                    self.pos += 1;
                    match e {
                        b'n' => strings.push(b'\n'),
                        b'r' => strings.push(b'\r'),
                        b't' => strings.push(b'\t'),
                        b'b' => strings.push(0x08),
                        b'f' => strings.push(0x0c),
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.data.get(self.pos) {
                                    Some(&d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            strings.push((v & 0xff) as u8);
                        }
                        b'\r' => {
                            if self.data.get(self.pos) == Some(&b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        other => strings.push(other),
                    }
                }
                _ => strings.push(c),
            }
        }
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
