//! Word (`.docx`) and OpenDocument (`.odt`) templates for `signprep-template`:
//! tags in every part a template has, one template per finding, one per
//! vendor dialect, a clean one-page and a thirty-page template, and files
//! a reader must refuse. Written to `testdata/templates` by
//! `signprep-testgen --templates`.
//!
//! The zips store their entries uncompressed, with the DOS epoch as every
//! time stamp: the bytes are the same on every run and on every build
//! (no deflate backend in the way). The XML is the least each format needs
//! for LibreOffice to open it (`[Content_Types].xml`, relationships and
//! styles; ODF's `mimetype` first, then the manifest).

mod docx;
mod odt;

use crate::Error;
use std::io::{Cursor, Write};
use zip::DateTime;
use zip::write::{SimpleFileOptions, ZipWriter};

/// One template file: its name in the directory and its bytes.
#[derive(Debug, Clone)]
pub struct TemplateFile {
    /// File name (`docx_places.docx`).
    pub path: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// Every template fixture, in a fixed order.
pub fn files() -> Result<Vec<TemplateFile>, Error> {
    let mut out = Vec::new();
    for (name, bytes) in docx::all()? {
        out.push(TemplateFile {
            path: format!("{name}.docx"),
            bytes,
        });
    }
    for (name, bytes) in odt::all()? {
        out.push(TemplateFile {
            path: format!("{name}.odt"),
            bytes,
        });
    }
    Ok(out)
}

/// A zip of `entries`, in order, stored, time-stamped at the DOS epoch.
pub(crate) fn zip(entries: &[(&str, Vec<u8>)]) -> Result<Vec<u8>, Error> {
    let zerr = |e: zip::result::ZipError| Error::new(format!("zip: {e}"));
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644);
    for (name, bytes) in entries {
        w.start_file(*name, opts).map_err(zerr)?;
        w.write_all(bytes)?;
    }
    Ok(w.finish().map_err(zerr)?.into_inner())
}

/// XML text escaped.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The magic of an OLE compound file, then zeros: what a legacy `.doc` or
/// a password-protected `.docx` starts with.
pub(crate) fn ole_file() -> Vec<u8> {
    let mut v = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    v.resize(512, 0);
    v
}
