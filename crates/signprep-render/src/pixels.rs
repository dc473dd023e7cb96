//! [`Image`], the crate's picture of a page: 8-bit RGBA pixels, rows top to
//! bottom. It wraps the `image` crate's buffer without exposing it, so that
//! the image crate can change (or go) without changing this crate's API.

use crate::error::RenderError;
use image::RgbaImage;

/// A drawn page: `width × height` pixels of 8-bit RGBA, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image(pub(crate) RgbaImage);

impl Image {
    /// An image of these pixels (`width × height × 4` bytes of RGBA, rows top
    /// to bottom); `None` when the length does not match the size.
    pub fn from_rgba(width: u32, height: u32, rgba: Vec<u8>) -> Option<Image> {
        RgbaImage::from_raw(width, height, rgba).map(Image)
    }

    /// Width, pixels.
    pub fn width(&self) -> u32 {
        self.0.width()
    }

    /// Height, pixels.
    pub fn height(&self) -> u32 {
        self.0.height()
    }

    /// The pixels: 4 bytes (R, G, B, A) each, rows top to bottom.
    pub fn as_rgba(&self) -> &[u8] {
        self.0.as_raw()
    }

    /// The pixel at `(x, y)` as `[R, G, B, A]`; `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        self.0.get_pixel_checked(x, y).map(|p| p.0)
    }

    /// The image shrunk to `width × height` pixels (area-averaged, for
    /// thumbnails).
    #[must_use]
    pub fn thumbnail(&self, width: u32, height: u32) -> Image {
        Image(image::imageops::thumbnail(&self.0, width, height))
    }

    /// PNG bytes of the image: opaque images as RGB (a quarter smaller),
    /// others as RGBA. Fails only for an image the PNG format cannot hold
    /// (no pixels).
    pub fn to_png(&self) -> Result<Vec<u8>, RenderError> {
        use image::ImageEncoder;
        use image::codecs::png::{CompressionType, FilterType, PngEncoder};
        let img = &self.0;
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
        result.map_err(|e| RenderError::Encode {
            width: img.width(),
            height: img.height(),
            source: Box::new(e),
        })?;
        Ok(out)
    }
}
