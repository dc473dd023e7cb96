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

impl Font {
    /// How many glyphs `bytes` shows, its text taken into `opening` as
    /// [`Font::decode`] would write it, without writing it for a simple
    /// font (each code's text is looked up in place) and through `scratch`
    /// for a composite one.
    pub(crate) fn open_tags(
        &self,
        bytes: &[u8],
        opening: &mut Opening,
        scratch: &mut String,
    ) -> usize {
        match &self.kind {
            Kind::Simple { text, single, .. } => {
                for &b in bytes {
                    if let Some(ch) = single[usize::from(b)] {
                        opening.found |= opening.ends_lt && ch == '#';
                        opening.ends_lt = ch == '<';
                        continue;
                    }
                    let (start, len) = text[usize::from(b)];
                    let s = start as usize;
                    let piece = match len {
                        0 => "\u{fffd}",
                        _ => self.text.get(s..s + usize::from(len)).unwrap_or("\u{fffd}"),
                    };
                    opening.take(piece);
                }
                bytes.len()
            }
            Kind::Composite { .. } => {
                scratch.clear();
                let mut n = 0;
                self.decode(bytes, scratch, &mut |_: Code, _: usize, _: usize| n += 1);
                opening.take(scratch);
                n
            }
        }
    }
}
