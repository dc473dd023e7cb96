//! Where a tag or finding stands in the document a PDF was converted from (a Word or
//! OpenDocument template): plain data, filled in by the template reader
//! (`signprep-template`), which the core only carries into records. A leaf.

use schemars::JsonSchema;
use serde::Serialize;

/// The part of a template a paragraph stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SourcePart {
    /// The main text.
    Body,
    /// A page header.
    Header,
    /// A page footer.
    Footer,
    /// A footnote.
    Footnote,
    /// An endnote.
    Endnote,
    /// A text box (a drawing's text, a frame).
    TextBox,
    /// A comment (annotation) on the text.
    Comment,
}

impl SourcePart {
    /// The part's name as records write it (`body`, `header`, `text_box`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            SourcePart::Body => "body",
            SourcePart::Header => "header",
            SourcePart::Footer => "footer",
            SourcePart::Footnote => "footnote",
            SourcePart::Endnote => "endnote",
            SourcePart::TextBox => "text_box",
            SourcePart::Comment => "comment",
        }
    }
}

/// Where a tag or finding stands in the source template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct SourcePlace {
    /// The part: body, header, footer, footnote, endnote, text box, comment.
    pub part: SourcePart,
    /// The paragraph's number within its part, from 1, in reading order
    /// (a table's paragraphs counted where the table stands).
    pub paragraph: usize,
    /// For a paragraph in a table cell, the cell's row (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// For a paragraph in a table cell, the cell's column (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// A short piece of the paragraph's text around the tag (at most about 60
    /// characters), to find it by.
    pub snippet: String,
}

impl SourcePlace {
    /// A place in `part`, paragraph `paragraph` (from 1), with its snippet.
    pub fn new(part: SourcePart, paragraph: usize, snippet: impl Into<String>) -> SourcePlace {
        SourcePlace {
            part,
            paragraph,
            row: None,
            column: None,
            snippet: snippet.into(),
        }
    }

    /// In a table cell, row and column from 1.
    #[must_use]
    pub fn cell(mut self, row: usize, column: usize) -> SourcePlace {
        self.row = Some(row);
        self.column = Some(column);
        self
    }
}

impl std::fmt::Display for SourcePlace {
    /// `body, paragraph 12`, `body, table row 2 column 3, paragraph 14`, then the snippet
    /// in quotes: the words a template's author finds the place by.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.part.as_str().replace('_', " ").as_str())?;
        if let (Some(r), Some(c)) = (self.row, self.column) {
            write!(f, ", table row {r} column {c}")?;
        }
        write!(f, ", paragraph {}", self.paragraph)?;
        if !self.snippet.is_empty() {
            write!(f, " (\"{}\")", crate::visible::visible(&self.snippet))?;
        }
        Ok(())
    }
}

/// What a record read was converted from: the template, not a PDF.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Converted {
    /// The source's format: `docx` or `odt`.
    pub format: String,
    /// What converted it (`LibreOffice 7.4.7.2`, say).
    pub converter: String,
    /// SHA-256 of the PDF the conversion gave (hex): the bytes scanned and the
    /// ones that would be uploaded.
    pub pdf_sha256: String,
}

impl Converted {
    /// From a `format`, a converter's name and version, and the PDF's hash.
    pub fn new(
        format: impl Into<String>,
        converter: impl Into<String>,
        pdf_sha256: impl Into<String>,
    ) -> Converted {
        Converted {
            format: format.into(),
            converter: converter.into(),
            pdf_sha256: pdf_sha256.into(),
        }
    }
}
