//! What a page read for its text only keeps of that text ([`Opening`]):
//! whether it holds a `<#`, found code by code without writing the text
//! ([`Font::open_tags`]; `content::run` explains the two runs).

use super::{Code, CodeText, Font, Kind};

/// What a page read for its text only keeps of that text: whether it holds a
/// `<#` (the only text a scan of `<# #>` tags looks for before placing
/// glyphs) and whether it ends in `<` (a `#` that follows then opens one).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Opening {
    pub(crate) found: bool,
    pub(crate) ends_lt: bool,
}

impl Opening {
    /// Takes the next piece of the page's text, by its marks ([`marks_of`]).
    fn push(&mut self, marks: u8) {
        self.found |= (self.ends_lt && marks & HASH_FIRST != 0) || marks & PAIR != 0;
        self.ends_lt = marks & LT_LAST != 0;
    }

    /// Takes the next piece of the page's text (nothing for an empty one).
    fn take(&mut self, piece: &str) {
        if !piece.is_empty() {
            self.push(marks_of(piece));
        }
    }
}

/// A piece of text starts with `#`.
const HASH_FIRST: u8 = 1;
/// A piece of text ends with `<`.
const LT_LAST: u8 = 2;
/// A piece of text holds `<#`.
const PAIR: u8 = 4;

/// What a piece of text means for finding a `<#`.
fn marks_of(piece: &str) -> u8 {
    (u8::from(piece.starts_with('#')) * HASH_FIRST)
        | (u8::from(piece.ends_with('<')) * LT_LAST)
        | (u8::from(piece.contains("<#")) * PAIR)
}

impl Font {
    /// What each code's text means for finding a `<#`, made once per font
    /// from the text [`Font::decode`] writes for the code (all zero for a
    /// composite font, which does not use them).
    fn marks(&self) -> &[u8; 256] {
        self.marks.get_or_init(|| {
            let mut marks = Box::new([0u8; 256]);
            let Kind::Simple { text, single, .. } = &self.kind else {
                return marks;
            };
            for (b, mark) in (0..=u8::MAX).zip(marks.iter_mut()) {
                *mark = match self.simple_text(text, single, b) {
                    CodeText::Char(ch) => marks_of(ch.encode_utf8(&mut [0; 4])),
                    CodeText::Str(s) => marks_of(s),
                    CodeText::Unmapped => marks_of("\u{fffd}"),
                };
            }
            marks
        })
    }

    /// How many glyphs `bytes` shows, its text taken into `opening` as
    /// [`Font::decode`] would write it: for a simple font without writing
    /// it (what each code's text means is looked up, and a string with no
    /// `#` or `<` in it is passed over at once), for a composite one
    /// through `scratch`.
    pub(crate) fn open_tags(
        &self,
        bytes: &[u8],
        opening: &mut Opening,
        scratch: &mut String,
    ) -> usize {
        if let Kind::Composite { .. } = self.kind {
            scratch.clear();
            let mut n = 0;
            self.decode(bytes, scratch, &mut |_: Code, _: usize, _: usize| n += 1);
            opening.take(scratch);
            return n;
        }
        if bytes.is_empty() {
            return 0;
        }
        let marks = self.marks();
        if bytes.iter().all(|&b| marks[usize::from(b)] == 0) {
            // Every code's text is non-empty: the last one ends without `<`.
            opening.ends_lt = false;
            return bytes.len();
        }
        for &b in bytes {
            opening.push(marks[usize::from(b)]);
        }
        bytes.len()
    }
}
