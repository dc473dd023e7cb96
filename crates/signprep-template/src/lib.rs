//! Word (`.docx`) and OpenDocument (`.odt`) templates.
//!
//! People type tags into templates, and a pipeline turns them into PDFs. This crate reads
//! a template's XML for its tags and where each stands (part, table cell, paragraph,
//! snippet: [`signprep_core::SourcePlace`]), the findings only the source can show
//! (`template_tag_*`), and converts templates to PDF with LibreOffice headless
//! ([`convert`]), cached by content hash.
//!
//! ```
//! use signprep_template::{Format, Template, TemplateErrorKind};
//! use signprep_core::Dialects;
//!
//! // Not a zip: refused in our words, with a kind to map to a file error code.
//! let err = Template::read(b"plain text", Format::Docx).unwrap_err();
//! assert_eq!(err.kind(), TemplateErrorKind::NotZip);
//! # let _ = Dialects::NONE;
//! ```
//!
//! Reading: [`Template::read`] (zip and XML within limits), [`Template::tags`],
//! [`Template::findings`]; after converting and scanning, [`round_trip`] sets each scanned
//! tag's `source` and reports the template's tags the PDF lost.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod archive;
pub mod convert;
mod docx;
mod error;
mod findings;
mod format;
mod lookalike;
mod model;
mod odt;
mod record;
mod roundtrip;
mod tags;
mod template;
mod xml;

pub use archive::Limits;
pub use error::{TemplateError, TemplateErrorKind};
pub use format::Format;
pub use model::Paragraph;
pub use record::{Scanned, scan_template};
pub use roundtrip::round_trip;
pub use tags::SourceTag;
pub use template::Template;
