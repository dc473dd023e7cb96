//! signprep-render: page previews. A page of a PDF drawn to pixels with what
//! [`signprep_core`] found on it (tags, form fields, their findings) drawn
//! over it, as `signprep preview` and `signprep report` show them.
//!
//! It is a crate of its own, as hayro splits its layers into crates, so that
//! the core stays the PDF, tags and fields library: a pipeline that only
//! reads tags (the Python package, `signprep-cli --no-default-features`)
//! compiles no renderer and no image codec.
//!
//! ```
//! use signprep_core::{Document, LoadOptions, Scanner};
//! use signprep_render::{PageRenderer, Style, render_page_with_overlay};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read("../../testdata/fixtures/base14_courier.pdf")?;
//! let doc = Document::from_bytes(&bytes, &LoadOptions::default())?;
//! let scan = Scanner::new().dpi(96.0).scan(&doc)?;
//! let pdf = PageRenderer::new(bytes)?; // owns the bytes; parses them for drawing
//! let style = Style::new().signer("SIG_1", "tenant");
//! let image = render_page_with_overlay(&doc, &pdf, 0, &scan, &style)?;
//! assert_eq!(image.width(), 816); // a letter page at 96 dpi; the legend band is below
//! assert!(image.height() > 1056);
//! let png = image.to_png()?;
//! assert!(png.starts_with(b"\x89PNG"));
//!
//! // A page the document does not have is an error in our words.
//! let err = render_page_with_overlay(&doc, &pdf, 5, &scan, &style).unwrap_err();
//! assert_eq!(err.to_string(), "page 6 does not exist (the document has 2)");
//! assert_eq!(err.code().as_str(), "page_not_drawn");
//! # Ok(()) }
//! ```
//!
//! * **Renderer.** [hayro](https://crates.io/crates/hayro) (pure Rust,
//!   MIT/Apache) parses and draws the page. It reads the PDF itself, from the
//!   bytes, so a [`PageRenderer`] owns the file's bytes (moved in, not
//!   copied, when given a `Vec<u8>`) next to the [`Document`] that scanned
//!   them; [`Document`] keeps no bytes, so scanning without previews costs
//!   nothing extra. The CLI reads a file once and hands the same bytes to
//!   both.
//! * **Geometry.** The page is drawn through the core's display matrix
//!   ([`PageGeometry::display_matrix`]: CropBox clipped to the MediaBox,
//!   `/Rotate` clockwise), scaled to the size the scan gives the page
//!   (`PageInfo::width` × `height`, so `--dpi`, `--page-width` and
//!   `/UserUnit` all follow). The image's pixel grid *is* the scan's: a tag at
//!   `(x, y - y_offset)` is drawn at that pixel, with no second convention to
//!   drift from. The image is the page size rounded up to whole pixels.
//! * **Overlay.** [`Overlay::for_page`] computes the boxes as data (tested
//!   and serialisable as such); drawing blends each pixel by the fraction of
//!   it a box covers, so edges sit on fractional coordinates. Labels use a
//!   built-in 5×7 bitmap font (printable ASCII; anything else draws as `?`).
//!   Each label's place is part of the overlay's data
//!   ([`OverlayBox::tab`]): above its box, else below, right or left of it,
//!   never over another label or box, never off the page, shortened with
//!   `...` when there is no room for all of it (the data keeps the whole
//!   text).
//! * **Errors.** [`RenderError`] says what went wrong in signprep's words,
//!   with the page when it is about one ([`RenderError::page`]) and the code
//!   `page_not_drawn` ([`RenderError::code`]); hayro's and the image
//!   crate's own reports are its [`source`](std::error::Error::source) at
//!   most, never its message.
//! * **Images.** [`Image`] is this crate's type (RGBA pixels, PNG encoding,
//!   thumbnails): no type of hayro or of the image crate is part of the API.
//!
//! [`Document`]: signprep_core::Document
//! [`PageGeometry::display_matrix`]: signprep_core::PageGeometry::display_matrix
//!
//! # Features
//!
//! None: the crate always renders (hayro) and encodes PNG (the image crate,
//! PNG codec only). Leaving previews out of a build is leaving this crate out
//! (the CLI's `render` feature).
//!
//! # Limitations
//!
//! - Limits: images over [`MAX_PIXELS`] (64 Mpx) are refused. hayro applies
//!   no decompression limits of its own: render only documents that loaded
//!   and scanned within the core's `LoadOptions`.
//! - Passwords: as the core, only files whose user password is empty are
//!   drawn.
//! - Damage: a file the scan's repair read past may be one the renderer
//!   cannot parse ([`RenderError::Unreadable`]); its scan stands.
//! - Labels: printable ASCII only; other characters are drawn as `?`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod draw;
mod error;
mod font;
mod labels;
mod overlay;
mod page;
mod pixels;

pub use error::{RenderError, Unreadable};
pub use labels::{LabelTab, MIN_SHOWN};
pub use overlay::{BoxKind, Colour, Note, Overlay, OverlayBox, PageFinding, SignerColour, Style};
pub use page::{MAX_PIXELS, PageRenderer, draw_overlay, render_page, render_page_with_overlay};
pub use pixels::Image;
