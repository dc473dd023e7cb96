//! Drawing a page: hayro renders it through the scan's geometry, then the
//! overlay is drawn over it.

use crate::draw;
use crate::error::{RenderError, Unreadable};
use crate::overlay::{Overlay, Style};
use crate::pixels::Image;
use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_syntax::{LoadPdfError, Pdf};
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::vello_cpu::{self, Pixmap, RenderContext};
use hayro::{RenderCache, RenderSettings};
use image::RgbaImage;
use signprep_core::{Document, PageGeometry, Scan};
use std::fmt;

/// The largest image drawn, in pixels (width × height): 64 Mpx, 256 MiB of RGBA.
pub const MAX_PIXELS: u64 = 1 << 26;

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
        let pdf = Pdf::new(bytes.into()).map_err(|e| RenderError::Unreadable {
            reason: match e {
                LoadPdfError::Decryption(_) => Unreadable::Encryption,
                LoadPdfError::Invalid => Unreadable::Structure,
            },
        })?;
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
) -> Result<Image, RenderError> {
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
    Image::from_rgba(u32::from(w), u32::from(h), rgba).ok_or(RenderError::BadSize {
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
) -> Result<Image, RenderError> {
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
pub fn draw_overlay(img: &mut Image, overlay: &Overlay, style: &Style) {
    let img = &mut img.0;
    draw::draw_boxes(img, overlay, style);
    if style.legend {
        let top = f64::from(img.height());
        let width = f64::from(img.width());
        let band_h = draw::legend(None, overlay, style.labels, top, width);
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
        draw::legend(Some(&mut out), overlay, style.labels, top, width);
        *img = out;
    }
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
