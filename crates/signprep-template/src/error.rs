//! Why a template could not be read, in our words; what the zip or XML
//! reader said is kept as the error's `source()`.

use std::error::Error as StdError;

/// What kind of failure a [`TemplateError`] is, for a caller that maps it to
/// a file error code (all of them mean the file cannot be converted or read
/// as a template: a `convert_failed`-like code; [`TemplateErrorKind::Limit`]
/// is a `limit_exceeded`-like one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TemplateErrorKind {
    /// Not a zip archive at all.
    NotZip,
    /// A zip archive, but no Word or OpenDocument text document.
    NotTemplate,
    /// Password-protected, or a legacy binary Word `.doc` (an OLE compound
    /// file, which is also how Word stores a password-protected `.docx`).
    Protected,
    /// A part of the document is damaged: the zip entry cannot be read, or
    /// its XML is not well formed.
    Damaged,
    /// Over one of the reader's limits (uncompressed size, entry count, XML
    /// nesting).
    Limit,
}

/// A template that cannot be read: what is wrong, in our words, and the part
/// concerned where there is one.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct TemplateError {
    kind: TemplateErrorKind,
    message: String,
    part: Option<String>,
    #[source]
    source: Option<Box<dyn StdError + Send + Sync + 'static>>,
}

impl TemplateError {
    pub(crate) fn new(kind: TemplateErrorKind, message: impl Into<String>) -> TemplateError {
        TemplateError {
            kind,
            message: message.into(),
            part: None,
            source: None,
        }
    }

    /// A damaged part (`word/document.xml`), saying what is wrong with it.
    pub(crate) fn damaged(part: &str, what: impl Into<String>) -> TemplateError {
        let mut e = TemplateError::new(
            TemplateErrorKind::Damaged,
            format!("the part `{part}` is damaged: {}", what.into()),
        );
        e.part = Some(part.to_string());
        e
    }

    pub(crate) fn with_source(
        mut self,
        source: impl StdError + Send + Sync + 'static,
    ) -> TemplateError {
        self.source = Some(Box::new(source));
        self
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> TemplateErrorKind {
        self.kind
    }

    /// The part of the document concerned (`word/document.xml`,
    /// `content.xml`), where one is.
    pub fn part(&self) -> Option<&str> {
        self.part.as_deref()
    }
}
