//! What a page read for its text only keeps of that text ([`Opening`]):
//! whether it holds a `<#`, found code by code without writing the text
//! ([`Font::open_tags`]; `content::run` explains the two runs).

use super::{Code, Font, Kind};

/// What a page read for its text only keeps of that text: whether it holds a
/// `<#` (the only text a scan of `<# #>` tags looks for before placing
/// glyphs) and whether it ends in `<` (a `#` that follows then opens one).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Opening {
    pub(crate) found: bool,
    pub(crate) ends_lt: bool,
}

impl Opening {
    /// Takes the next piece of the page's text.
    fn take(&mut self, piece: &str) {
        let (Some(first), Some(last)) = (piece.chars().next(), piece.chars().next_back()) else {
            return;
        };
        self.found |= (self.ends_lt && first == '#') || piece.contains("<#");
        self.ends_lt = last == '<';
    }
}

/// A code's text starts with `#`.
const HASH_FIRST: u8 = 1;
/// A code's text ends with `<`.
const LT_LAST: u8 = 2;
/// A code's text holds `<#`.
const PAIR: u8 = 4;

/// The marks of a code's text.
fn mark_of(hash_first: bool, lt_last: bool, pair: bool) -> u8 {
    (u8::from(hash_first) * HASH_FIRST) | (u8::from(lt_last) * LT_LAST) | (u8::from(pair) * PAIR)
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
            for (i, mark) in marks.iter_mut().enumerate() {
                if let Some(ch) = single[i] {
                    *mark = mark_of(ch == '#', ch == '<', false);
                    continue;
                }
                let (start, len) = text[i];
                let s = start as usize;
                let piece = match len {
                    0 => "\u{fffd}",
                    _ => self.text.get(s..s + usize::from(len)).unwrap_or("\u{fffd}"),
                };
                *mark = mark_of(
                    piece.starts_with('#'),
                    piece.ends_with('<'),
                    piece.contains("<#"),
                );
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
            let m = marks[usize::from(b)];
            opening.found |= (opening.ends_lt && m & HASH_FIRST != 0) || m & PAIR != 0;
            opening.ends_lt = m & LT_LAST != 0;
        }
        bytes.len()
    }
}
