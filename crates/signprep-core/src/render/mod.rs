//! Page previews: a page rendered to pixels with the scan drawn over it
//! (feature `render`).
//!
//! * **Renderer.** [hayro](https://crates.io/crates/hayro) (pure Rust,
//!   MIT/Apache) parses and draws the page. It reads the PDF itself, from the
//!   bytes, so a [`PageRenderer`] owns the file's bytes (moved in, not
//!   copied, when given a `Vec<u8>`) next to the [`Document`] that scanned
//!   them; [`Document`] keeps no bytes, so scanning without previews costs
//!   nothing extra. The CLI reads a file once and hands the same bytes to
//!   both.
//! * **Geometry.** The page is drawn through *our* display matrix
//!   ([`PageGeometry::display_matrix`]: CropBox clipped to the MediaBox,
//!   `/Rotate` clockwise), scaled to the size the scan gives the page
//!   (`PageInfo::width` × `height`, so `--dpi`, `--page-width` and
//!   `/UserUnit` all follow). The image's pixel grid *is* the scan's: a tag at
//!   `(x, y - y_offset)` is drawn at that pixel, with no second convention to
//!   drift from. The image is the page size rounded up to whole pixels.
//! * **Overlay.** [`Overlay::for_page`] computes the boxes as data (tested
//!   as such); drawing blends each pixel by the fraction of it a box covers,
//!   so edges sit on fractional coordinates. Labels use a built-in 5×7
//!   bitmap font (printable ASCII; anything else draws as `?`).
//! * **Limits.** Images over [`MAX_PIXELS`] are refused. hayro applies no
//!   decompression limits of its own: render only documents that loaded and
//!   scanned within [`LoadOptions`](crate::LoadOptions).
//!
//! ```
//! use signprep_core::{Document, LoadOptions, PageRenderer, Scanner, Style, render_page_with_overlay};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read("../../testdata/fixtures/base14_courier.pdf")?;
//! let doc = Document::from_bytes(&bytes, &LoadOptions::default())?;
//! let scan = Scanner::new().dpi(96.0).scan(&doc)?;
//! let pdf = PageRenderer::new(bytes)?;
//! let image = render_page_with_overlay(&doc, &pdf, 0, &scan, &Style::default())?;
//! assert_eq!(image.width(), 816); // a letter page at 96 dpi; the legend band is below
//! # Ok(()) }
//! ```

mod draw;
mod font;
mod overlay;

pub use image::RgbaImage;
pub use overlay::{BoxKind, Colour, Note, Overlay, OverlayBox, PageFinding, SignerColour, Style};

use crate::diag::Code;
use crate::document::Document;
use crate::geometry::PageGeometry;
use crate::scan::Scan;
use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_syntax::Pdf;
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::vello_cpu::{self, Pixmap, RenderContext};
use hayro::{RenderCache, RenderSettings};
use std::fmt;

/// The largest image drawn, in pixels (width × height): 64 Mpx, 256 MiB of RGBA.
pub const MAX_PIXELS: u64 = 1 << 26;

/// Why a page could not be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The renderer could not parse the bytes (or they are encrypted), though
    /// the scan read them: a damage the scan's repair read past. Which
    /// reason the renderer gave is kept for debugging, not shown.
    #[error(
        "the page renderer cannot read this file's structure, which the scan read past (a damaged file)"
    )]
    Unreadable(String),
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
    /// The page has no area, or would be larger than [`MAX_PIXELS`].
    #[error("page {}: cannot draw a {width} x {height} px image", page + 1)]
    BadSize {
        /// 0-based page.
        page: usize,
        /// Width, pixels.
        width: f64,
        /// Height, pixels.
        height: f64,
    },
    /// PNG encoding failed.
    #[error("cannot encode PNG: {0}")]
    Encode(String),
}

impl RenderError {
    /// The code of a page that could not be drawn, whatever the reason
    /// ([`Code::PageNotDrawn`]; the message says which): a finding on a file
    /// that scanned, never a file that could not be read.
    pub fn code(&self) -> Code {
        Code::PageNotDrawn
    }
}

/// A PDF parsed for drawing: owns the file's bytes.
pub struct PageRenderer {
    pdf: Pdf,
    settings: InterpreterSettings,
}

impl fmt::Debug for PageRenderer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageRenderer")
            .field("pages", &self.page_count())
            .finish_non_exhaustive()
    }
}

impl PageRenderer {
    /// Parses a PDF for drawing. Give it the bytes the [`Document`] was loaded
    /// from (a `Vec<u8>` is moved, not copied).
    pub fn new(bytes: impl Into<Vec<u8>>) -> Result<PageRenderer, RenderError> {
        let pdf = Pdf::new(bytes.into())
            .map_err(|e| RenderError::Unreadable(format!("{e:?}").to_lowercase()))?;
        Ok(PageRenderer {
            pdf,
            settings: InterpreterSettings::default(),
        })
    }

    /// Pages the renderer finds.
    pub fn page_count(&self) -> usize {
        self.pdf.pages().len()
    }
}

/// Renders one page at the size the scan gives it (no overlay). The image is
/// `ceil(width) × ceil(height)` pixels, white where the page paints nothing.
pub fn render_page(
    doc: &Document,
    pdf: &PageRenderer,
    page: usize,
    scan: &Scan,
) -> Result<RgbaImage, RenderError> {
    let count = doc.page_count();
    if pdf.page_count() != count {
        return Err(RenderError::PageCountMismatch {
            renderer: pdf.page_count(),
            document: count,
        });
    }
    let no_page = || RenderError::NoSuchPage { page, count };
    let geometry = doc.page_geometry(page).ok_or_else(no_page)?;
    let info = scan.pages.get(page).ok_or_else(no_page)?;
    let hayro_page = pdf.pdf.pages().get(page).ok_or_else(no_page)?;
    let (w, h) = pixel_size(page, info.width, info.height)?;
    let transform = page_transform(geometry, info.width, info.height);

    let cache = RenderCache::new();
    let mut ctx = RenderContext::new(w, h);
    hayro::render_into(
        hayro_page,
        &cache,
        &pdf.settings,
        &RenderSettings::default(),
        &mut ctx,
        transform,
    );
    ctx.flush();
    let mut pixmap = Pixmap::new(w, h);
    ctx.render_with(
        &mut pixmap,
        &mut vello_cpu::Resources::default(),
        vello_cpu::RasterizerSettings {
            target_init: vello_cpu::TargetInit::Clear(WHITE),
            ..Default::default()
        },
    );
    let rgba = pixmap.take_rgba8(vello_cpu::peniko::ImageAlphaType::Alpha);
    RgbaImage::from_raw(u32::from(w), u32::from(h), rgba).ok_or(RenderError::BadSize {
        page,
        width: info.width,
        height: info.height,
    })
}

/// Renders one page and draws the scan's tags and fields over it (and the
/// legend band below it when the style asks for one).
pub fn render_page_with_overlay(
    doc: &Document,
    pdf: &PageRenderer,
    page: usize,
    scan: &Scan,
    style: &Style,
) -> Result<RgbaImage, RenderError> {
    let mut img = render_page(doc, pdf, page, scan)?;
    let overlay = Overlay::for_page(scan, page, style).ok_or(RenderError::NoSuchPage {
        page,
        count: scan.pages.len(),
    })?;
    draw_overlay(&mut img, &overlay, style);
    Ok(img)
}

/// Draws an overlay onto an image of its page (the legend extends the image
/// downwards when the style asks for one).
pub fn draw_overlay(img: &mut RgbaImage, overlay: &Overlay, style: &Style) {
    draw::draw_boxes(img, overlay, style);
    if style.legend {
        let top = f64::from(img.height());
        let width = f64::from(img.width());
        let band_h = draw::legend(None, overlay, top, width);
        let mut out = RgbaImage::from_pixel(
            img.width(),
            img.height() + band_h as u32,
            image::Rgba([255, 255, 255, 255]),
        );
        // Copy the page (same width, so the same rows), then draw the band below it.
        let page = img.as_raw();
        if let Some(dst) = out.get_mut(..page.len()) {
            dst.copy_from_slice(page);
        }
        draw::band(&mut out, top);
        draw::legend(Some(&mut out), overlay, top, width);
        *img = out;
    }
}

/// PNG bytes of an image: opaque images as RGB (a quarter smaller), others as RGBA.
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut out = Vec::new();
    let encoder =
        PngEncoder::new_with_quality(&mut out, CompressionType::Default, FilterType::Adaptive);
    let opaque = img.as_raw().chunks_exact(4).all(|p| p.get(3) == Some(&255));
    let result = if opaque {
        let mut rgb = Vec::with_capacity(img.as_raw().len() / 4 * 3);
        for p in img.as_raw().chunks_exact(4) {
            rgb.extend_from_slice(p.get(..3).unwrap_or_default());
        }
        encoder.write_image(
            &rgb,
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
    } else {
        encoder.write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
    };
    result.map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
}

/// Whole pixels for a page of `width × height` px, checked.
fn pixel_size(page: usize, width: f64, height: f64) -> Result<(u16, u16), RenderError> {
    let bad = || RenderError::BadSize {
        page,
        width,
        height,
    };
    let px = |v: f64| (v - 1e-6).ceil();
    let (w, h) = (px(width), px(height));
    if !(w >= 1.0 && h >= 1.0 && w <= f64::from(u16::MAX) && h <= f64::from(u16::MAX)) {
        return Err(bad());
    }
    if (w * h) as u64 > MAX_PIXELS {
        return Err(bad());
    }
    Ok((w as u16, h as u16))
}

/// User space → image pixels: our display matrix, scaled to the scan's page size.
fn page_transform(g: &PageGeometry, width: f64, height: f64) -> hayro::kurbo::Affine {
    let (dw, dh) = g.displayed_size();
    let sx = if dw > 0.0 { width / dw } else { 1.0 };
    let sy = if dh > 0.0 { height / dh } else { 1.0 };
    let m = g.display_matrix();
    hayro::kurbo::Affine::scale_non_uniform(sx, sy)
        * hayro::kurbo::Affine::new([m.a, m.b, m.c, m.d, m.e, m.f])
}
