//! Why a page could not be drawn, in signprep's words. The renderer's and the
//! image encoder's own reports never reach the message: what they said is
//! kept, typed or boxed, as [`std::error::Error::source`] (for debugging),
//! as the core keeps lopdf's.

use signprep_core::Code;

/// Why a page could not be drawn. Its message (`Display`) is signprep's own
/// words; the dependency's report, when there is one, is
/// [`source`](std::error::Error::source) only.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The renderer could not parse the bytes (or decrypt them), though the
    /// scan read them: a damage the scan's repair read past. Which of the
    /// two is the source.
    #[error(
        "the page renderer cannot read this file's structure, which the scan read past (a damaged file)"
    )]
    Unreadable {
        /// What the renderer refused.
        #[source]
        reason: Unreadable,
    },
    /// The renderer and the document disagree on the page count: they were
    /// not made from the same bytes, or the file is too damaged to trust.
    #[error("the page renderer finds {renderer} page(s) where the scan found {document}")]
    PageCountMismatch {
        /// Pages the renderer found.
        renderer: usize,
        /// Pages the document has.
        document: usize,
    },
    /// No such page (in the document or in the scan).
    #[error("page {} does not exist (the document has {count})", page + 1)]
    NoSuchPage {
        /// 0-based page asked for.
        page: usize,
        /// Pages in the document.
        count: usize,
    },
    /// The page has no area, or would be larger than [`crate::MAX_PIXELS`].
    #[error("page {}: cannot draw a {width} x {height} px image", page + 1)]
    BadSize {
        /// 0-based page.
        page: usize,
        /// Width, pixels.
        width: f64,
        /// Height, pixels.
        height: f64,
    },
    /// The image could not be encoded as PNG (an image with no pixels, say).
    #[error("cannot encode a {width} x {height} px image as PNG")]
    Encode {
        /// Width, pixels.
        width: u32,
        /// Height, pixels.
        height: u32,
        /// The encoder's report.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl RenderError {
    /// The code of a page that could not be drawn, whatever the reason
    /// ([`Code::PageNotDrawn`]; the message says which): a finding on a file
    /// that scanned, never a file that could not be read.
    pub fn code(&self) -> Code {
        Code::PageNotDrawn
    }

    /// The page (0-based) the error is about, when it is about one page
    /// rather than the file.
    pub fn page(&self) -> Option<usize> {
        match self {
            RenderError::NoSuchPage { page, .. } | RenderError::BadSize { page, .. } => Some(*page),
            RenderError::Unreadable { .. }
            | RenderError::PageCountMismatch { .. }
            | RenderError::Encode { .. } => None,
        }
    }
}

/// What the renderer refused in a file the scan read: the source of
/// [`RenderError::Unreadable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unreadable {
    /// Its encryption (the scan decrypted it, or found it unencrypted).
    #[error("the page renderer cannot decrypt the file")]
    Encryption,
    /// Its structure: cross-reference data, trailer, catalog or page tree.
    #[error("the page renderer cannot parse the file's structure")]
    Structure,
}
