//! Which kind of template a file is: by its name or by its bytes.

use std::io::{Cursor, Read};
use std::path::Path;

/// A template format signprep reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Office Open XML word processing (`.docx`, Word 2007 and later).
    Docx,
    /// OpenDocument text (`.odt`, LibreOffice, OpenOffice).
    Odt,
}

/// The ODF media type of a text document, the `mimetype` entry's content.
pub(crate) const ODT_MIMETYPE: &str = "application/vnd.oasis.opendocument.text";

impl Format {
    /// By the file's extension, case-insensitive (`.docx`, `.odt`); `None`
    /// for any other.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "docx" => Some(Format::Docx),
            "odt" => Some(Format::Odt),
            _ => None,
        }
    }

    /// By the bytes: a zip holding `word/document.xml` is a Word document, a
    /// zip whose `mimetype` entry is `application/vnd.oasis.opendocument.text`
    /// an OpenDocument text. `None` for anything else, a damaged zip
    /// included (reading it says why: [`crate::Template::read`]).
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        if !bytes.starts_with(b"PK") {
            return None;
        }
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
        if zip.index_for_name("word/document.xml").is_some() {
            return Some(Format::Docx);
        }
        let mut entry = zip.by_name("mimetype").ok()?;
        let mut head = String::new();
        // The media type is a short line; more is not one.
        (&mut entry).take(128).read_to_string(&mut head).ok()?;
        head.trim().starts_with(ODT_MIMETYPE).then_some(Format::Odt)
    }

    /// `docx` or `odt`, as records write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Docx => "docx",
            Format::Odt => "odt",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
