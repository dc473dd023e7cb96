//! What a template reader produces: paragraphs in reading order, each a list
//! of spans of text with their look and their revision state, and the place
//! each stands ([`SourcePlace`] without its snippet). The readers of both
//! formats fill it through one [`Collector`].

use signprep_core::{SourcePart, SourcePlace};
use std::ops::Range;

/// The text properties that matter to a tag, as resolved for one run
/// (defaults, paragraph style, character style, direct formatting).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Look {
    /// Font name.
    pub(crate) font: Option<String>,
    /// Size in hundredths of a point, where known in points.
    pub(crate) size: Option<u32>,
    /// Size as written when it is not in points (`120%`).
    pub(crate) size_other: Option<String>,
    /// Text colour, `RRGGBB` upper case; `None` for automatic.
    pub(crate) color: Option<String>,
    /// Highlight or background colour.
    pub(crate) highlight: Option<String>,
    /// Hidden text (`w:vanish`, `text:display="none"`).
    pub(crate) hidden: bool,
}

impl Look {
    /// White or nearly (every channel at least `F0`).
    pub(crate) fn is_white(&self) -> bool {
        let Some(c) = self.color.as_deref() else {
            return false;
        };
        c.len() == 6
            && (0..3).all(|i| {
                c.get(2 * i..2 * i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .is_some_and(|v| v >= 0xF0)
            })
    }

    /// Tiny: two points or less.
    pub(crate) fn is_tiny(&self) -> bool {
        self.size.is_some_and(|s| s <= 200)
    }

    /// What differs between two looks, in words (`font`, `size`, ...).
    pub(crate) fn differences(&self, other: &Look) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.font != other.font {
            out.push("font");
        }
        if self.size != other.size || self.size_other != other.size_other {
            out.push("size");
        }
        if self.color != other.color {
            out.push("colour");
        }
        if self.highlight != other.highlight {
            out.push("highlight");
        }
        if self.hidden != other.hidden {
            out.push("visibility");
        }
        out
    }
}

/// A tracked change a span stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Revision {
    /// An insertion not yet accepted (`w:ins`, ODF `text:insertion`).
    Inserted,
    /// A deletion not yet accepted (`w:del`, ODF `text:deletion`).
    Deleted,
    /// Text moved away from here (`w:moveFrom`): deleted here.
    MovedFrom,
    /// Text moved here (`w:moveTo`): inserted here.
    MovedTo,
}

impl Revision {
    /// True when the PDF does not show the text (deleted or moved away).
    pub(crate) fn removes(self) -> bool {
        matches!(self, Revision::Deleted | Revision::MovedFrom)
    }

    pub(crate) fn words(self) -> &'static str {
        match self {
            Revision::Inserted => "a tracked insertion",
            Revision::Deleted => "a tracked deletion",
            Revision::MovedFrom => "a tracked move (the text moved away)",
            Revision::MovedTo => "a tracked move (the text moved here)",
        }
    }
}

/// A piece of a paragraph's text with one look and one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) text: String,
    pub(crate) look: Look,
    pub(crate) revision: Option<Revision>,
    /// Inside the range a comment is anchored to.
    pub(crate) commented: bool,
}

/// A paragraph of a template, in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paragraph {
    pub(crate) part: SourcePart,
    pub(crate) number: usize,
    pub(crate) cell: Option<(usize, usize)>,
    pub(crate) spans: Vec<Span>,
    /// A hidden paragraph or one in a hidden section.
    pub(crate) hidden: bool,
}

impl Paragraph {
    /// Where the paragraph stands, with the start of its text as the snippet.
    pub fn place(&self) -> SourcePlace {
        let text = self.text();
        self.place_with(snippet(&text, 0..0))
    }

    pub(crate) fn place_with(&self, snippet: String) -> SourcePlace {
        let p = SourcePlace::new(self.part, self.number, snippet);
        match self.cell {
            Some((r, c)) => p.cell(r, c),
            None => p,
        }
    }

    /// The text as the PDF shows it: deleted text out, inserted text in
    /// (hidden text stays: the reader reports it, see
    /// [`crate::Template::findings`]). Tabs are `\t`, line breaks `\n`.
    pub fn text(&self) -> String {
        self.spans
            .iter()
            .filter(|s| !s.revision.is_some_and(Revision::removes))
            .map(|s| s.text.as_str())
            .collect()
    }
}

/// Most paragraphs a template is read with.
pub(crate) const MAX_PARAGRAPHS: usize = 1_000_000;

/// A frame of paragraphs that number on their own: the body, a header, a
/// text box, a note, a comment.
#[derive(Debug)]
struct Frame {
    part: SourcePart,
    tables: Vec<Table>,
    /// How many paragraphs were open when it was entered: text before one
    /// of its own opens (a comment's author, say) belongs to no paragraph.
    base: usize,
}

#[derive(Debug, Default)]
struct Table {
    row: usize,
    next_column: usize,
    cell: Option<(usize, usize)>,
}

/// Builds the paragraphs as a reader walks a part.
#[derive(Debug, Default)]
pub(crate) struct Collector {
    pub(crate) done: Vec<Paragraph>,
    counters: [usize; 7],
    frames: Vec<Frame>,
    open: Vec<Paragraph>,
    pub(crate) too_many: bool,
}

fn part_index(p: SourcePart) -> usize {
    match p {
        SourcePart::Body => 0,
        SourcePart::Header => 1,
        SourcePart::Footer => 2,
        SourcePart::Footnote => 3,
        SourcePart::Endnote => 4,
        SourcePart::TextBox => 5,
        _ => 6,
    }
}

impl Collector {
    /// Paragraphs from here on belong to `part` (until [`Collector::leave`]).
    pub(crate) fn enter(&mut self, part: SourcePart) {
        self.frames.push(Frame {
            part,
            tables: Vec::new(),
            base: self.open.len(),
        });
    }

    /// Back to the enclosing frame.
    pub(crate) fn leave(&mut self) {
        self.frames.pop();
    }

    pub(crate) fn table_start(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.tables.push(Table::default());
        }
    }

    pub(crate) fn table_end(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.tables.pop();
        }
    }

    fn table(&mut self) -> Option<&mut Table> {
        self.frames.last_mut().and_then(|f| f.tables.last_mut())
    }

    /// A row starts; `before` grid columns are left empty at its start.
    pub(crate) fn row_start(&mut self) {
        if let Some(t) = self.table() {
            t.row = t.row.saturating_add(1);
            t.next_column = 1;
            t.cell = None;
        }
    }

    /// The row just read stands for `repeat` rows.
    pub(crate) fn row_repeat(&mut self, repeat: usize) {
        if let Some(t) = self.table() {
            t.row = t.row.saturating_add(repeat.saturating_sub(1));
        }
    }

    /// Skips `n` grid columns (Word's `w:gridBefore`, a cell's span).
    pub(crate) fn skip_columns(&mut self, n: usize) {
        if let Some(t) = self.table() {
            t.next_column = t.next_column.saturating_add(n);
        }
    }

    /// A cell starts, one grid column wide until [`Collector::skip_columns`].
    pub(crate) fn cell_start(&mut self) {
        if let Some(t) = self.table() {
            t.cell = Some((t.row.max(1), t.next_column.max(1)));
            t.next_column = t.next_column.max(1).saturating_add(1);
        }
    }

    pub(crate) fn cell_end(&mut self) {
        if let Some(t) = self.table() {
            t.cell = None;
        }
    }

    /// A paragraph starts in the current frame.
    pub(crate) fn paragraph_start(&mut self) {
        let Some(frame) = self.frames.last() else {
            return;
        };
        let part = frame.part;
        let cell = frame.tables.last().and_then(|t| t.cell);
        let counter = &mut self.counters[part_index(part)];
        *counter = counter.saturating_add(1);
        self.open.push(Paragraph {
            part,
            number: *counter,
            cell,
            spans: Vec::new(),
            hidden: false,
        });
    }

    /// The innermost paragraph is hidden.
    pub(crate) fn paragraph_hidden(&mut self) {
        if let Some(p) = self.open.last_mut() {
            p.hidden = true;
        }
    }

    /// The innermost paragraph ends.
    pub(crate) fn paragraph_end(&mut self) {
        if let Some(p) = self.open.pop() {
            if self.done.len() >= MAX_PARAGRAPHS {
                self.too_many = true;
                return;
            }
            self.done.push(p);
        }
    }

    /// True inside a paragraph of the current frame.
    pub(crate) fn in_paragraph(&self) -> bool {
        self.open.len() > self.frames.last().map_or(0, |f| f.base)
    }

    /// The last character of the innermost paragraph's text so far.
    pub(crate) fn last_char(&self) -> Option<char> {
        self.open
            .last()
            .and_then(|p| p.spans.last())
            .and_then(|s| s.text.chars().last())
    }

    /// Text for the innermost paragraph (none outside a paragraph).
    pub(crate) fn push(
        &mut self,
        text: &str,
        look: &Look,
        revision: Option<Revision>,
        commented: bool,
    ) {
        if text.is_empty() || !self.in_paragraph() {
            return;
        }
        let Some(p) = self.open.last_mut() else {
            return;
        };
        if let Some(last) = p.spans.last_mut()
            && last.look == *look
            && last.revision == revision
            && last.commented == commented
        {
            last.text.push_str(text);
            return;
        }
        p.spans.push(Span {
            text: text.to_string(),
            look: look.clone(),
            revision,
            commented,
        });
    }
}

/// `text`'s characters around `range` (byte offsets), at most about 60 of
/// them, white space as single spaces, `…` where cut.
pub(crate) fn snippet(text: &str, range: Range<usize>) -> String {
    const WIDTH: usize = 60;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let a = chars.partition_point(|(i, _)| *i < range.start);
    let b = chars.partition_point(|(i, _)| *i < range.end).max(a);
    let (from, to) = if b - a >= WIDTH {
        (a, a + WIDTH - 1)
    } else {
        let room = WIDTH - (b - a);
        let from = a.saturating_sub(room / 2);
        let to = (from + WIDTH).min(chars.len());
        (to.saturating_sub(WIDTH).min(from), to)
    };
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    let mut last_space = false;
    for (_, c) in chars.get(from..to).unwrap_or_default() {
        let c = if c.is_whitespace() && *c != '\u{a0}' {
            ' '
        } else {
            *c
        };
        if c == ' ' && last_space {
            continue;
        }
        last_space = c == ' ';
        out.push(c);
    }
    if to < chars.len() {
        out.push('…');
    }
    out.trim().to_string()
}
