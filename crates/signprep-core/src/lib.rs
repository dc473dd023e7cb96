//! signprep-core: find `<# TAG_ID #>` text tags and AcroForm fields in PDFs, with
//! the page-stacked geometry an e-signature service expects.
//!
//! ```
//! use signprep_core::{Document, LoadOptions, Scanner};
//!
//! # fn main() -> Result<(), signprep_core::Error> {
//! let doc = Document::open("../../testdata/fixtures/base14_courier.pdf", &LoadOptions::default())?;
//! let scan = Scanner::new().dpi(72.0).scan(&doc)?;
//! for tag in &scan.tags {
//!     println!("{} on page {} at ({}, {}), {} x {}", tag.tag_id, tag.page, tag.x, tag.y, tag.width, tag.height);
//! }
//! assert!(scan.tags.iter().any(|t| t.tag_id == "SIG_1"));
//! # Ok(()) }
//! ```
//!
//! Coordinates are pixels (72 dpi by default, so 1 px = 1 pt) from the top-left
//! of page 0, with pages stacked vertically: a tag's `y` is its page's `y_offset`
//! plus its top within the displayed page. The displayed page is the CropBox
//! clipped to the MediaBox, turned by `/Rotate`.
//!
//! Objects are parsed on demand (page tree, resources, fonts, content streams,
//! annotations and the form) when the file's cross-reference data reads
//! cleanly; a damaged or encrypted file is loaded whole by lopdf first, as is
//! an object the strict on-demand parser leaves to it. Either way the scan is
//! the same.
//!
//! A file that cannot be read at all gives an [`Error`] with a stable code
//! (`pdf_unreadable`, `pdf_encrypted`, `pdf_limit_exceeded`, `io_error`); anything
//! less is a [`Diagnostic`] beside the result:
//!
//! ```
//! use signprep_core::{Document, ErrorKind, LoadOptions, Unreadable};
//!
//! let err = Document::from_bytes(b"not a PDF", &LoadOptions::default()).unwrap_err();
//! assert_eq!(err.code(), "pdf_unreadable");
//! assert!(matches!(err.kind(), ErrorKind::Unreadable { what: Unreadable::NotPdf, .. }));
//! ```
//!
//! Many files at once go through [`batch`]: a bounded, ordered pool with a
//! watchdog, one record per file in input order whatever the number of
//! threads.
//!
//! # Features
//!
//! - `testing` (off by default; tests only): the hooks of `batch::test_hook`
//!   that make a named job panic or hang, for tests of the panic boundary and
//!   the watchdog. Without it the library reads no environment variable.
//!
//! # Limitations
//!
//! - Text only: tags are read from the text a PDF draws, never from images
//!   (a scanned page has none: `page_no_text_layer`), and glyphs without a
//!   Unicode mapping cannot spell a tag (`text_unmappable`).
//! - No passwords: a file encrypted with a user password, or for
//!   certificates, is refused (`pdf_encrypted`); files whose user password
//!   is empty are decrypted (RC4, AES-128, AES-256).
//! - AcroForm only: an XFA-only form has no field to extract (`xfa_form`).
//! - Within limits: [`LoadOptions`] bounds the file size, inflated streams,
//!   nesting, pages, operators and time; a file over a limit is refused
//!   (`pdf_limit_exceeded`), never scanned partly.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod batch;
mod chars;
mod content;
mod diag;
mod document;
mod error;
mod fonts;
mod forms;
#[doc(hidden)]
pub mod fuzzing;
mod geometry;
mod io_reason;
mod loader;
mod nesting;
mod options;
mod record;
mod resources;
mod scan;
mod service;
mod source;
mod stream_cache;
mod strip;
mod tags;
mod visible;

// The `codes!` macro's JSON Schema impl names schemars through this path, so
// a crate declaring codes with it needs no schemars of its own.
#[doc(hidden)]
pub use schemars as __schemars;

pub use content::{Fill, Glyph};
pub use diag::{Code, Diagnostic, Severity};
pub use document::{Document, LoadOptions};
pub use error::{
    Cause, Encryption, Error, ErrorKind, FileErrorCode, GivenUp, Limit, PageTreeDamage, Unreadable,
};
pub use forms::{Field, FieldType, FieldValue};
pub use geometry::{
    DPI_RANGE, Matrix, PAGE_WIDTH_RANGE, PageGeometry, Rect, Rotation, Scale, ScaleError, round2,
};
pub use io_reason::io_reason;
pub use options::Cancel;
pub use record::{ErrorInfo, Record, Status};
pub use scan::{PageInfo, Scan, Scanner, Tag, VendorPiece, VendorText, id_is_valid};
pub use service::ServiceTypes;
pub use source::{Converted, SourcePart, SourcePlace};
pub use strip::{Stripped, strip_vendor_tags};
pub use tags::vendor::{
    AnchorTab, AnchorUnits, Anchors, Dialect, DialectError, Dialects, FieldBox, TextTag,
    VendorAttributes, VendorTag, default_size, find_text_tags, is_tab_list, tab_list_name,
};
pub use visible::{into_visible, is_invisible, visible, visible_lines};
