//! The zip container of a template, read within limits: how many entries,
//! how many bytes inflated in all (the declared sizes are not trusted: what
//! is read is counted), so a zip bomb stops at the limit.

use crate::error::{TemplateError, TemplateErrorKind};
use std::io::{Cursor, Read};
use zip::ZipArchive;
use zip::result::ZipError;

/// The limits a template is read within.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    max_inflated: u64,
    max_entries: usize,
}

impl Default for Limits {
    /// 256 MiB inflated, all parts together; 10,000 zip entries (a large
    /// Word document has a few hundred: media, fonts, custom XML).
    fn default() -> Limits {
        Limits {
            max_inflated: 256 << 20,
            max_entries: 10_000,
        }
    }
}

impl Limits {
    /// At most this many bytes inflated from the zip, all parts together
    /// (what is read is counted: the sizes the zip declares are not trusted).
    #[must_use]
    pub fn max_inflated(mut self, bytes: u64) -> Limits {
        self.max_inflated = bytes;
        self
    }

    /// At most this many entries in the zip.
    #[must_use]
    pub fn max_entries(mut self, entries: usize) -> Limits {
        self.max_entries = entries;
        self
    }
}

/// The magic of an OLE compound file: a legacy `.doc`, or an encrypted
/// `.docx` (Word wraps it in one).
const OLE_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// An opened template zip.
pub(crate) struct Archive<'b> {
    zip: ZipArchive<Cursor<&'b [u8]>>,
    inflated: u64,
    limits: Limits,
}

impl std::fmt::Debug for Archive<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("entries", &self.zip.len())
            .field("inflated", &self.inflated)
            .finish()
    }
}

impl<'b> Archive<'b> {
    /// Opens `bytes` as a zip: an OLE file is [`TemplateErrorKind::Protected`],
    /// anything else that is no zip [`TemplateErrorKind::NotZip`].
    pub(crate) fn open(bytes: &'b [u8], limits: Limits) -> Result<Archive<'b>, TemplateError> {
        if bytes.starts_with(&OLE_MAGIC[..4]) {
            return Err(TemplateError::new(
                TemplateErrorKind::Protected,
                "the file is a password-protected document or a legacy Word .doc (an OLE compound file, not a zip): save it as .docx without a password",
            ));
        }
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
            let what = if bytes.starts_with(b"PK") {
                "the file starts as a zip archive but its directory cannot be read (truncated or damaged)"
            } else {
                "the file is not a zip archive, so it is no .docx or .odt"
            };
            TemplateError::new(TemplateErrorKind::NotZip, what).with_source(e)
        })?;
        if zip.len() > limits.max_entries {
            return Err(TemplateError::new(
                TemplateErrorKind::Limit,
                format!(
                    "the zip holds {} entries, more than the {} a template is read with",
                    zip.len(),
                    limits.max_entries
                ),
            ));
        }
        Ok(Archive {
            zip,
            inflated: 0,
            limits,
        })
    }

    /// True when the zip has an entry of this name.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.zip.index_for_name(name).is_some()
    }

    /// The entry's bytes, `None` when there is no such entry. Counts against
    /// the inflated-size limit.
    pub(crate) fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, TemplateError> {
        let Some(index) = self.zip.index_for_name(name) else {
            return Ok(None);
        };
        let mut entry = match self.zip.by_index(index) {
            Ok(e) => e,
            Err(ZipError::UnsupportedArchive(ZipError::PASSWORD_REQUIRED))
            | Err(ZipError::InvalidPassword) => {
                return Err(TemplateError::new(
                    TemplateErrorKind::Protected,
                    format!("the part `{name}` is encrypted: the document is password-protected"),
                ));
            }
            Err(e) => {
                return Err(
                    TemplateError::damaged(name, "its zip entry cannot be opened").with_source(e),
                );
            }
        };
        let room = self.limits.max_inflated.saturating_sub(self.inflated);
        let mut out = Vec::new();
        let read = (&mut entry)
            .take(room.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| {
                TemplateError::damaged(name, "its compressed data cannot be inflated")
                    .with_source(e)
            })?;
        let read = u64::try_from(read).unwrap_or(u64::MAX);
        if read > room {
            return Err(TemplateError::new(
                TemplateErrorKind::Limit,
                format!(
                    "the document inflates to more than {} bytes (at `{name}`), more than a template is read with",
                    self.limits.max_inflated
                ),
            ));
        }
        self.inflated += read;
        Ok(Some(out))
    }

    /// The entry as text: UTF-8 (a byte-order mark dropped); other encodings
    /// are [`TemplateErrorKind::Damaged`].
    pub(crate) fn read_text(&mut self, name: &str) -> Result<Option<String>, TemplateError> {
        let Some(bytes) = self.read(name)? else {
            return Ok(None);
        };
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(Some(s.to_string())),
            Err(e) => Err(TemplateError::damaged(name, "its XML is not UTF-8").with_source(e)),
        }
    }
}
