//! CMap parsing: ToUnicode (`bfchar`, `bfrange`) and CID CMaps (`cidchar`,
//! `cidrange`), with codespace ranges for multi-byte codes.
//!
//! The parser is a small tokenizer over the PostScript-like CMap syntax. It never
//! fails: what it cannot read it skips, and limits bound the work on hostile input.

/// Most entries kept from one CMap (ranges count once).
const MAX_ENTRIES: usize = 100_000;
/// Most UTF-16 units in one destination string.
const MAX_DST_UNITS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Codespace {
    lo: u32,
    hi: u32,
    len: u8,
}

impl Codespace {
    /// Per-byte containment, as ISO 32000 9.7.6.2 specifies.
    fn contains(&self, code: u32, len: u8) -> bool {
        len == self.len
            && (0..u32::from(len)).all(|i| {
                let shift = 8 * i;
                let b = (code >> shift) & 0xff;
                ((self.lo >> shift) & 0xff) <= b && b <= ((self.hi >> shift) & 0xff)
            })
    }
}

#[derive(Clone, Debug)]
enum Dst {
    /// UTF-16 units at `start..start+len` of `units`; the last unit is incremented
    /// by `code - lo`.
    Incr { start: u32, len: u8 },
    /// One destination per code: `(start, len)` pairs at `start..` of `arrays`.
    Array { start: u32, count: u32 },
}

#[derive(Clone, Debug)]
struct BfRange {
    lo: u32,
    hi: u32,
    len: u8,
    dst: Dst,
}

#[derive(Clone, Copy, Debug)]
struct CidRange {
    lo: u32,
    hi: u32,
    len: u8,
    cid: u32,
}

/// A parsed CMap.
#[derive(Clone, Debug, Default)]
pub(crate) struct CMap {
    codespaces: Vec<Codespace>,
    bf: Vec<BfRange>,
    units: Vec<u16>,
    arrays: Vec<(u32, u8)>,
    cids: Vec<CidRange>,
    /// Set by `/WMode 1`.
    pub(crate) vertical: bool,
}

impl CMap {
    /// Parses CMap bytes. Never fails; unreadable parts are skipped.
    pub(crate) fn parse(data: &[u8]) -> CMap {
        let mut cmap = CMap::default();
        let mut lex = Lexer { data, pos: 0 };
        let mut operands: Vec<Tok> = Vec::new();
        let mut entries = 0usize;
        while let Some(tok) = lex.next() {
            match tok {
                Tok::Keyword(kw) => {
                    match kw {
                        b"endcodespacerange" => {
                            for pair in operands.chunks_exact(2) {
                                if let (Tok::Hex(lo, ll), Tok::Hex(hi, hl)) = (&pair[0], &pair[1])
                                    && ll == hl
                                    && (1..=4).contains(ll)
                                {
                                    cmap.codespaces.push(Codespace {
                                        lo: *lo,
                                        hi: *hi,
                                        len: *ll,
                                    });
                                }
                            }
                        }
                        b"endbfchar" => {
                            for pair in operands.chunks_exact(2) {
                                if entries >= MAX_ENTRIES {
                                    break;
                                }
                                if let Tok::Hex(code, len) = pair[0]
                                    && (1..=4).contains(&len)
                                    && let Some(dst) = cmap.push_dst(&pair[1])
                                {
                                    cmap.bf.push(BfRange {
                                        lo: code,
                                        hi: code,
                                        len,
                                        dst,
                                    });
                                    entries += 1;
                                }
                            }
                        }
                        b"endbfrange" => {
                            for triple in operands.chunks_exact(3) {
                                if entries >= MAX_ENTRIES {
                                    break;
                                }
                                let (Tok::Hex(lo, ll), Tok::Hex(hi, hl)) = (&triple[0], &triple[1])
                                else {
                                    continue;
                                };
                                if ll != hl || !(1..=4).contains(ll) || hi < lo {
                                    continue;
                                }
                                let dst = match &triple[2] {
                                    Tok::Array(items) => {
                                        let start = cmap.arrays.len() as u32;
                                        let n = (hi - lo).saturating_add(1).min(items.len() as u32);
                                        for item in items.iter().take(n as usize) {
                                            let s = cmap.units.len() as u32;
                                            let l = cmap.push_units(item);
                                            cmap.arrays.push((s, l));
                                        }
                                        Some(Dst::Array { start, count: n })
                                    }
                                    other => cmap.push_dst(other),
                                };
                                if let Some(dst) = dst {
                                    cmap.bf.push(BfRange {
                                        lo: *lo,
                                        hi: *hi,
                                        len: *ll,
                                        dst,
                                    });
                                    entries += 1;
                                }
                            }
                        }
                        b"endcidrange" => {
                            for triple in operands.chunks_exact(3) {
                                if let (Tok::Hex(lo, ll), Tok::Hex(hi, hl), Tok::Int(cid)) =
                                    (&triple[0], &triple[1], &triple[2])
                                    && ll == hl
                                    && hi >= lo
                                    && entries < MAX_ENTRIES
                                {
                                    cmap.cids.push(CidRange {
                                        lo: *lo,
                                        hi: *hi,
                                        len: *ll,
                                        cid: *cid,
                                    });
                                    entries += 1;
                                }
                            }
                        }
                        b"endcidchar" => {
                            for pair in operands.chunks_exact(2) {
                                if let (Tok::Hex(code, len), Tok::Int(cid)) = (&pair[0], &pair[1])
                                    && entries < MAX_ENTRIES
                                {
                                    cmap.cids.push(CidRange {
                                        lo: *code,
                                        hi: *code,
                                        len: *len,
                                        cid: *cid,
                                    });
                                    entries += 1;
                                }
                            }
                        }
                        b"def" => {
                            if let [.., Tok::Name(n), Tok::Int(v)] = operands.as_slice()
                                && n == b"WMode"
                            {
                                cmap.vertical = *v == 1;
                            }
                        }
                        _ => {}
                    }
                    operands.clear();
                }
                other => {
                    if operands.len() < 3 * 100 + 3 {
                        operands.push(other);
                    } else {
                        // More than a section may hold (100 entries); drop the oldest.
                        operands.clear();
                    }
                }
            }
        }
        cmap.bf.sort_by_key(|r| (r.len, r.lo));
        cmap.cids.sort_by_key(|r| (r.len, r.lo));
        cmap
    }

    fn push_units(&mut self, tok: &Tok) -> u8 {
        let start = self.units.len();
        match tok {
            Tok::HexBytes(bytes) => {
                for pair in bytes.chunks(2).take(MAX_DST_UNITS) {
                    let hi = u16::from(pair[0]);
                    let lo = pair.get(1).copied().map(u16::from);
                    match lo {
                        Some(lo) => self.units.push(hi << 8 | lo),
                        // A single odd byte: read it as a one-byte code unit.
                        None => self.units.push(hi),
                    }
                }
            }
            Tok::Hex(v, len) => match len {
                1 => self.units.push(*v as u16),
                2 => self.units.push(*v as u16),
                3 => {
                    self.units.push((*v >> 16) as u16);
                    self.units.push(*v as u16);
                }
                _ => {
                    self.units.push((*v >> 16) as u16);
                    self.units.push(*v as u16);
                }
            },
            Tok::Name(name) => {
                // `/uniXXXX` destinations, as some producers write.
                let s = String::from_utf8_lossy(name);
                let mut buf = String::new();
                if crate::fonts::glyphs::push_glyph_unicode(&s, &mut buf) {
                    self.units.extend(buf.encode_utf16().take(MAX_DST_UNITS));
                }
            }
            _ => {}
        }
        (self.units.len() - start) as u8
    }

    fn push_dst(&mut self, tok: &Tok) -> Option<Dst> {
        let start = self.units.len() as u32;
        let len = self.push_units(tok);
        (len > 0).then_some(Dst::Incr { start, len })
    }

    /// True when the CMap declares codespace ranges.
    pub(crate) fn has_codespaces(&self) -> bool {
        !self.codespaces.is_empty()
    }

    /// Splits the next code off `bytes` using the codespace ranges; returns the
    /// code and its byte length. Without a matching range, takes the shortest
    /// declared length (or `default_len` when none is declared).
    pub(crate) fn next_code(&self, bytes: &[u8], default_len: u8) -> (u32, u8) {
        let mut code = 0u32;
        for len in 1..=4u8 {
            let Some(&b) = bytes.get(usize::from(len) - 1) else {
                break;
            };
            code = code << 8 | u32::from(b);
            if self.codespaces.iter().any(|c| c.contains(code, len)) {
                return (code, len);
            }
        }
        let len = self
            .codespaces
            .iter()
            .map(|c| c.len)
            .min()
            .unwrap_or(default_len)
            .clamp(1, 4);
        let take = usize::from(len).min(bytes.len()).max(1);
        let code = bytes
            .iter()
            .take(take)
            .fold(0u32, |acc, &b| acc << 8 | u32::from(b));
        (code, take as u8)
    }

    /// Appends the Unicode text of a code to `out`; false when unmapped.
    pub(crate) fn unicode(&self, code: u32, len: u8, out: &mut String) -> bool {
        // Ranges are sorted by length first: a length outside the first..last
        // lengths cannot match, and a simple font asks every one of its 256
        // codes as 1- and then 2-byte codes, mostly of a 1-byte CMap.
        let lengths = self.bf.first().zip(self.bf.last());
        if !lengths.is_some_and(|(first, last)| first.len <= len && len <= last.len) {
            return false;
        }
        let Some(r) = find_range(&self.bf, code, len, |r| (r.len, r.lo, r.hi)) else {
            return false;
        };
        let offset = code - r.lo;
        let (units, bump) = match r.dst {
            Dst::Incr { start, len } => (
                self.units
                    .get(start as usize..start as usize + len as usize),
                offset,
            ),
            Dst::Array { start, count } => {
                if offset >= count {
                    return false;
                }
                match self.arrays.get((start + offset) as usize) {
                    Some(&(s, l)) => (self.units.get(s as usize..s as usize + l as usize), 0),
                    None => return false,
                }
            }
        };
        let Some(units) = units else { return false };
        let Some((&last, init)) = units.split_last() else {
            return false;
        };
        // The low 16 bits of the incremented unit, as a wrapping add gives.
        let last = u32::from(last).wrapping_add(bump) as u16;
        if init.is_empty() {
            // One unit, the usual case: decode_utf16 would give this char, or
            // U+FFFD for a lone surrogate (the only values from_u32 refuses).
            out.push(char::from_u32(u32::from(last)).unwrap_or(char::REPLACEMENT_CHARACTER));
            return true;
        }
        let before = out.len();
        for ch in char::decode_utf16(init.iter().copied().chain(std::iter::once(last))) {
            out.push(ch.unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        out.len() > before
    }

    /// The CID of a code, from `cidrange`/`cidchar`.
    pub(crate) fn cid(&self, code: u32, len: u8) -> Option<u32> {
        find_range(&self.cids, code, len, |r| (r.len, r.lo, r.hi))
            .and_then(|r| r.cid.checked_add(code - r.lo))
    }
}

/// Binary search over ranges sorted by `(len, lo)`; the last range starting at or
/// before `code` wins, as later CMap entries override earlier ones only rarely.
fn find_range<T>(
    ranges: &[T],
    code: u32,
    len: u8,
    key: impl Fn(&T) -> (u8, u32, u32),
) -> Option<&T> {
    let idx = ranges.partition_point(|r| {
        let (l, lo, _) = key(r);
        (l, lo) <= (len, code)
    });
    // Walk back over a few candidates: ranges may overlap.
    ranges[..idx].iter().rev().take(8).find(|r| {
        let (l, lo, hi) = key(r);
        l == len && lo <= code && code <= hi
    })
}

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    /// A hex string of 1-4 bytes, as a big-endian number and its byte length.
    Hex(u32, u8),
    /// A longer hex string.
    HexBytes(Vec<u8>),
    Int(u32),
    Name(&'a [u8]),
    Array(Vec<Tok<'a>>),
    Keyword(&'a [u8]),
    Other,
}

struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'%' {
                while let Some(c) = self.peek() {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.pos += 1;
                }
            } else if c.is_ascii_whitespace() || c == 0 {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn next(&mut self) -> Option<Tok<'a>> {
        self.next_depth(0)
    }

    fn next_depth(&mut self, depth: usize) -> Option<Tok<'a>> {
        self.skip_ws();
        let c = self.peek()?;
        match c {
            b'<' if self.data.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                Some(Tok::Other)
            }
            b'>' => {
                self.pos += 1;
                if self.peek() == Some(b'>') {
                    self.pos += 1;
                }
                Some(Tok::Other)
            }
            b'<' => {
                self.pos += 1;
                let mut bytes = Vec::new();
                let mut nibble: Option<u8> = None;
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == b'>' {
                        break;
                    }
                    let v = match c {
                        b'0'..=b'9' => c - b'0',
                        b'a'..=b'f' => c - b'a' + 10,
                        b'A'..=b'F' => c - b'A' + 10,
                        _ => continue,
                    };
                    match nibble.take() {
                        Some(h) => bytes.push(h << 4 | v),
                        None => nibble = Some(v),
                    }
                }
                if let Some(h) = nibble {
                    bytes.push(h << 4);
                }
                Some(if (1..=4).contains(&bytes.len()) {
                    let v = bytes.iter().fold(0u32, |a, &b| a << 8 | u32::from(b));
                    Tok::Hex(v, bytes.len() as u8)
                } else {
                    Tok::HexBytes(bytes)
                })
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None => break,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        Some(_) if depth > 8 => {
                            self.pos += 1;
                        }
                        Some(_) => match self.next_depth(depth + 1) {
                            Some(t) => {
                                if items.len() < 65_536 {
                                    items.push(t);
                                }
                            }
                            None => break,
                        },
                    }
                }
                Some(Tok::Array(items))
            }
            b'(' => {
                // Literal strings are not used for mappings we read; skip balanced.
                let mut level = 0usize;
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    match c {
                        b'\\' => self.pos += 1,
                        b'(' => level += 1,
                        b')' => {
                            level = level.saturating_sub(1);
                            if level == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                Some(Tok::Other)
            }
            b'/' => {
                self.pos += 1;
                let start = self.pos;
                self.take_regular();
                Some(Tok::Name(&self.data[start..self.pos]))
            }
            b']' | b'{' | b'}' | b')' => {
                self.pos += 1;
                Some(Tok::Other)
            }
            _ => {
                let start = self.pos;
                self.take_regular();
                if self.pos == start {
                    self.pos += 1;
                    return Some(Tok::Other);
                }
                let word = &self.data[start..self.pos];
                if word.iter().all(u8::is_ascii_digit) {
                    let v = std::str::from_utf8(word)
                        .ok()
                        .and_then(|s| s.parse::<u32>().ok());
                    Some(v.map_or(Tok::Other, Tok::Int))
                } else {
                    Some(Tok::Keyword(word))
                }
            }
        }
    }

    fn take_regular(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() || b"()<>[]{}/%".contains(&c) || c == 0 {
                break;
            }
            self.pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &[u8] = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Adobe-Identity-UCS def /CMapType 2 def
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0003> <0020> <0024> <0041> endbfchar
3 beginbfrange <0025> <0027> <0042> <0030> <0031> [<0066006C> <00E9>] <0040> <0040> <D83DDE00> endbfrange
1 begincidrange <0100> <01FF> 500 endcidrange
endcmap CMapName currentdict /CMap defineresource pop end end";

    fn text(c: &CMap, code: u32, len: u8) -> Option<String> {
        let mut s = String::new();
        c.unicode(code, len, &mut s).then_some(s)
    }

    #[test]
    fn bfchar_bfrange_and_arrays() {
        let c = CMap::parse(SAMPLE);
        assert_eq!(text(&c, 0x0003, 2).as_deref(), Some(" "));
        assert_eq!(text(&c, 0x0024, 2).as_deref(), Some("A"));
        assert_eq!(text(&c, 0x0026, 2).as_deref(), Some("C"));
        assert_eq!(text(&c, 0x0030, 2).as_deref(), Some("fl"));
        assert_eq!(text(&c, 0x0031, 2).as_deref(), Some("é"));
        assert_eq!(text(&c, 0x0040, 2).as_deref(), Some("😀"));
        assert_eq!(text(&c, 0x0028, 2), None);
        assert_eq!(text(&c, 0x0024, 1), None);
        assert_eq!(c.cid(0x0105, 2), Some(505));
    }

    #[test]
    fn lone_surrogates_and_mixed_lengths() {
        let c = CMap::parse(
            b"4 beginbfchar <01> <D800> <02> <0041> <0003> <DC00> <0004> <00410042> endbfchar
              2 beginbfrange <10> <20> <0061> <0010> <0020> <0030> endbfrange",
        );
        // A lone surrogate destination reads as U+FFFD, as decode_utf16 gives.
        assert_eq!(text(&c, 0x01, 1).as_deref(), Some("\u{fffd}"));
        assert_eq!(text(&c, 0x0003, 2).as_deref(), Some("\u{fffd}"));
        assert_eq!(text(&c, 0x02, 1).as_deref(), Some("A"));
        assert_eq!(text(&c, 0x0004, 2).as_deref(), Some("AB"));
        // Lengths never mix: 1-byte code 0x12 is in <10>..<20>, 2-byte 0x0012 in
        // <0010>..<0020>, and 0x0012 as a 1-byte lookup is not found past them.
        assert_eq!(text(&c, 0x12, 1).as_deref(), Some("c"));
        assert_eq!(text(&c, 0x0012, 2).as_deref(), Some("2"));
        assert_eq!(text(&c, 0x21, 1), None);
        assert_eq!(text(&c, 0x0002, 2), None);
        assert_eq!(text(&c, 0x0001, 3), None);
        assert_eq!(text(&CMap::default(), 0x41, 1), None);
    }

    #[test]
    fn codespace_splits_codes() {
        let c = CMap::parse(b"2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange");
        assert_eq!(c.next_code(&[0x41, 0x42], 1), (0x41, 1));
        assert_eq!(c.next_code(&[0x81, 0x40, 0x41], 1), (0x8140, 2));
        assert_eq!(CMap::default().next_code(&[0x12, 0x34], 2), (0x1234, 2));
        assert_eq!(CMap::default().next_code(&[0x12], 2), (0x12, 1));
    }

    #[test]
    fn garbage_never_panics() {
        for input in [
            &b"<<<<[[[[(((("[..],
            b"endbfrange endbfchar <> <> <>",
            b"beginbfrange <FFFFFFFF> <00000000> <0041> endbfrange",
            b"<0041> <0042> [<>] endbfrange <01> <FFFFFFFF> <0041> endbfrange",
            b"\xff\xfe\x00/",
        ] {
            let c = CMap::parse(input);
            let mut s = String::new();
            c.unicode(0x41, 1, &mut s);
            c.next_code(b"\xff\xff\xff\xff\xff", 2);
        }
    }
}
