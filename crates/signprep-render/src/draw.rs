//! Drawing the overlay onto a rendered page: boxes with exact, anti-aliased
//! edges (each pixel is blended by the fraction of it the box covers), hatching,
//! labels in the built-in bitmap font, and the legend band.

use crate::font;
use crate::labels::{self, LabelTab, text_scale};
use crate::overlay::{
    BoxKind, Colour, ERROR_COLOUR, FIELD_COLOUR, Overlay, OverlayBox, Style, TAG_COLOUR,
    WARNING_COLOUR,
};
use image::{Rgba, RgbaImage};
use signprep_core::Severity;

const WHITE: Colour = [0xFF, 0xFF, 0xFF];
const INK: Colour = [0x20, 0x20, 0x20];
const BAND: Colour = [0xF4, 0xF4, 0xF4];

/// Blends `colour` at opacity `alpha` (0..=1) into one pixel; outside the image is ignored.
fn blend(img: &mut RgbaImage, x: i64, y: i64, colour: Colour, alpha: f64) {
    if alpha <= 0.0 || x < 0 || y < 0 {
        return;
    }
    let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) else {
        return;
    };
    let Some(px) = img.get_pixel_mut_checked(x, y) else {
        return;
    };
    let a = alpha.min(1.0);
    let Rgba([r, g, b, pa]) = *px;
    let mix = |dst: u8, src: u8| (f64::from(dst) * (1.0 - a) + f64::from(src) * a).round() as u8;
    let out_a = (f64::from(pa) + (255.0 - f64::from(pa)) * a).round() as u8;
    *px = Rgba([
        mix(r, colour[0]),
        mix(g, colour[1]),
        mix(b, colour[2]),
        out_a,
    ]);
}

/// Fills the rectangle `[x0, x1) × [y0, y1)` (floats, pixels): each pixel is
/// blended by `alpha` times the fraction of it the rectangle covers.
pub(crate) fn fill_rect(
    img: &mut RgbaImage,
    [x0, y0, x1, y1]: [f64; 4],
    colour: Colour,
    alpha: f64,
) {
    if !(x1 > x0 && y1 > y0 && x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite())
    {
        return;
    }
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let (cx0, cy0, cx1, cy1) = (x0.max(0.0), y0.max(0.0), x1.min(w), y1.min(h));
    if cx1 <= cx0 || cy1 <= cy0 {
        return;
    }
    let cover = |p: f64, lo: f64, hi: f64| (hi.min(p + 1.0) - lo.max(p)).clamp(0.0, 1.0);
    for py in (cy0.floor() as i64)..(cy1.ceil() as i64) {
        let fy = cover(py as f64, y0, y1);
        for px in (cx0.floor() as i64)..(cx1.ceil() as i64) {
            let fx = cover(px as f64, x0, x1);
            blend(img, px, py, colour, alpha * fx * fy);
        }
    }
}

/// Strokes a rectangle outside its edges: the outline's inner edge is the box
/// edge, so the box itself (and the glyphs in it) stay uncovered.
pub(crate) fn stroke_rect(
    img: &mut RgbaImage,
    [x0, y0, x1, y1]: [f64; 4],
    width: f64,
    colour: Colour,
    alpha: f64,
) {
    let sw = width;
    if sw <= 0.0 || !(x1 >= x0 && y1 >= y0) {
        return;
    }
    fill_rect(img, [x0 - sw, y0 - sw, x1 + sw, y0], colour, alpha);
    fill_rect(img, [x0 - sw, y1, x1 + sw, y1 + sw], colour, alpha);
    fill_rect(img, [x0 - sw, y0, x0, y1], colour, alpha);
    fill_rect(img, [x1, y0, x1 + sw, y1], colour, alpha);
}

/// Diagonal hatching inside a rectangle (stripes of `stripe` px every `period` px).
fn hatch_rect(img: &mut RgbaImage, r: [f64; 4], stripe: f64, period: f64, colour: Colour) {
    let [x0, y0, x1, y1] = r;
    if !(x1 > x0 && y1 > y0) {
        return;
    }
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let cover = |p: f64, lo: f64, hi: f64| (hi.min(p + 1.0) - lo.max(p)).clamp(0.0, 1.0);
    for py in (y0.max(0.0).floor() as i64)..(y1.min(h).ceil() as i64) {
        let fy = cover(py as f64, y0, y1);
        for px in (x0.max(0.0).floor() as i64)..(x1.min(w).ceil() as i64) {
            let fx = cover(px as f64, x0, x1);
            if (px + py) as f64 % period < stripe {
                blend(img, px, py, colour, 0.8 * fx * fy);
            }
        }
    }
}

/// Draws text with its top-left at `(x, y)`, `scale` pixels per font cell.
pub(crate) fn draw_text(
    img: &mut RgbaImage,
    x: i64,
    y: i64,
    text: &str,
    scale: u32,
    colour: Colour,
) {
    let s = i64::from(scale);
    for (i, c) in text.chars().enumerate() {
        let gx = x + i as i64 * i64::from(font::ADVANCE) * s;
        for row in 0..font::HEIGHT {
            for col in 0..5 {
                if font::cell(c, col, row) {
                    for dy in 0..s {
                        for dx in 0..s {
                            blend(
                                img,
                                gx + i64::from(col) * s + dx,
                                y + i64::from(row) * s + dy,
                                colour,
                                1.0,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Text cut to at most `max_px` wide, with `...` when cut.
fn fit(text: &str, max_px: f64, scale: u32) -> String {
    let per = f64::from(font::ADVANCE * scale);
    let max_chars = (max_px / per).floor().max(0.0) as usize;
    labels::shorten(text, max_chars, 0).unwrap_or_default()
}

/// Draws the overlay's boxes onto a page image whose pixel grid is the scan's.
pub(crate) fn draw_boxes(img: &mut RgbaImage, overlay: &Overlay, style: &Style) {
    let scale = text_scale(overlay.width);
    let stroke = f64::from(scale);
    let fill = f64::from(style.fill_alpha) / 255.0;
    for b in &overlay.boxes {
        let r = [b.x, b.y, b.x + b.width, b.y + b.height];
        fill_rect(img, r, b.colour, fill);
        if b.hidden {
            hatch_rect(img, r, stroke, 4.0 * stroke, b.colour);
        }
        stroke_rect(img, r, b.stroke(scale), b.outline(), 1.0);
    }
    if style.labels {
        for b in &overlay.boxes {
            if let Some(tab) = &b.tab {
                draw_label(img, b, tab, scale);
            }
        }
    }
}

/// A label tab in the outline's colour, where the overlay placed it.
fn draw_label(img: &mut RgbaImage, b: &OverlayBox, tab: &LabelTab, scale: u32) {
    let pad = f64::from(scale);
    let bg = b.outline();
    fill_rect(
        img,
        [tab.x, tab.y, tab.x + tab.width, tab.y + tab.height],
        bg,
        0.92,
    );
    draw_text(
        img,
        (tab.x + pad) as i64,
        (tab.y + pad) as i64,
        &tab.text,
        scale,
        ink_on(bg),
    );
}

/// White or near-black, whichever reads better on `bg`.
fn ink_on(bg: Colour) -> Colour {
    let [r, g, b] = bg.map(f64::from);
    if 0.299 * r + 0.587 * g + 0.114 * b > 150.0 {
        INK
    } else {
        WHITE
    }
}

/// One legend entry: a swatch and its text.
enum Swatch {
    Fill(Colour),
    Outline(Colour),
    Hatch(Colour),
}

fn legend_entries(overlay: &Overlay) -> Vec<(Swatch, String)> {
    let has = |k: BoxKind| {
        overlay
            .boxes
            .iter()
            .any(|b| b.kind == k && b.signer.is_none())
    };
    let mut out = Vec::new();
    if has(BoxKind::Tag) || overlay.boxes.is_empty() {
        out.push((Swatch::Fill(TAG_COLOUR), "tag".to_string()));
    }
    if has(BoxKind::Field) || overlay.boxes.is_empty() {
        out.push((Swatch::Fill(FIELD_COLOUR), "form field".to_string()));
    }
    for s in &overlay.signers {
        out.push((Swatch::Fill(s.colour), format!("signer {}", s.signer)));
    }
    out.push((Swatch::Outline(ERROR_COLOUR), "error".to_string()));
    out.push((Swatch::Outline(WARNING_COLOUR), "warning".to_string()));
    out.push((Swatch::Hatch(TAG_COLOUR), "hidden".to_string()));
    out
}

/// Summary lines of the legend band: counts, labels left out for lack of
/// room (when labels are drawn), then the page's own findings.
fn legend_lines(overlay: &Overlay, labels: bool) -> Vec<(String, Colour)> {
    let tags = overlay
        .boxes
        .iter()
        .filter(|b| b.kind == BoxKind::Tag)
        .count();
    let fields = overlay.boxes.len() - tags;
    let count = |s: Severity| {
        overlay
            .boxes
            .iter()
            .filter(|b| b.severity == Some(s))
            .count()
            + overlay
                .page_findings
                .iter()
                .filter(|f| f.severity == s)
                .count()
    };
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let mut lines = vec![(
        format!(
            "page {}: {}, {}, {}, {}",
            overlay.page + 1,
            plural(tags, "tag"),
            plural(fields, "field"),
            plural(count(Severity::Error), "error"),
            plural(count(Severity::Warning), "warning"),
        ),
        INK,
    )];
    let left_out = if labels { overlay.labels_left_out() } else { 0 };
    if left_out > 0 {
        let text = if left_out == 1 {
            "1 box without a label: no room for one (the overlay data has its name)".to_string()
        } else {
            format!(
                "{left_out} boxes without a label: no room for them (the overlay data has their names)"
            )
        };
        lines.push((text, INK));
    }
    for f in &overlay.page_findings {
        let colour = match f.severity {
            Severity::Error => ERROR_COLOUR,
            Severity::Warning => WARNING_COLOUR,
            Severity::Info => INK,
        };
        lines.push((format!("{} ({})", f.code, f.severity), colour));
    }
    // The document's notes (a request's findings): errors and warnings; the
    // infos stay on their boxes' data.
    for n in overlay
        .notes
        .iter()
        .filter(|n| n.severity != Severity::Info)
    {
        let colour = match n.severity {
            Severity::Error => ERROR_COLOUR,
            _ => WARNING_COLOUR,
        };
        lines.push((format!("{} {}: {}", n.severity, n.code, n.message), colour));
    }
    lines
}

/// Lays out the legend; returns its height, drawing it only when `img` is given.
pub(crate) fn legend(
    img: Option<&mut RgbaImage>,
    overlay: &Overlay,
    labels: bool,
    top: f64,
    width: f64,
) -> f64 {
    let scale = text_scale(width);
    let s = f64::from(scale);
    let line = f64::from(font::LINE) * s;
    let margin = 4.0 * s;
    let glyph_h = f64::from(font::HEIGHT) * s;
    let swatch = glyph_h + 2.0 * s;
    let mut img = img;
    let mut y = top + margin;
    let lines = legend_lines(overlay, labels);
    for (text, colour) in &lines {
        if let Some(img) = img.as_deref_mut() {
            let text = fit(text, width - 2.0 * margin, scale);
            draw_text(img, margin as i64, y as i64, &text, scale, *colour);
        }
        y += line;
    }
    y += s;
    let mut x = margin;
    for (sw, text) in legend_entries(overlay) {
        let text = fit(&text, width - 3.0 * margin - swatch, scale);
        let w = swatch + 2.0 * s + f64::from(font::text_width(&text)) * s + 3.0 * margin;
        if x > margin && x + w > width {
            x = margin;
            y += swatch + 2.0 * s;
        }
        if let Some(img) = img.as_deref_mut() {
            let r = [x, y - s, x + swatch, y - s + swatch];
            match sw {
                Swatch::Fill(c) => {
                    fill_rect(img, r, c, 0.35);
                    stroke_rect(img, r, s, c, 1.0);
                }
                Swatch::Outline(c) => stroke_rect(img, r, 2.0 * s, c, 1.0),
                Swatch::Hatch(c) => {
                    hatch_rect(img, r, s, 4.0 * s, c);
                    stroke_rect(img, r, s, c, 1.0);
                }
            }
            draw_text(
                img,
                (x + swatch + 2.0 * s) as i64,
                y as i64,
                &text,
                scale,
                INK,
            );
        }
        x += w;
    }
    y += swatch + margin;
    (y - top).ceil()
}

/// Paints the band behind the legend.
pub(crate) fn band(img: &mut RgbaImage, top: f64) {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    fill_rect(img, [0.0, top, w, h], BAND, 1.0);
    fill_rect(img, [0.0, top, w, top + 1.0], [0xC0, 0xC0, 0xC0], 1.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_blends_partial_pixels_by_coverage() {
        let mut img = RgbaImage::from_pixel(4, 1, Rgba([255, 255, 255, 255]));
        fill_rect(&mut img, [0.5, 0.0, 2.0, 1.0], [0, 0, 0], 1.0);
        let v: Vec<u8> = img.pixels().map(|p| p.0[0]).collect();
        assert_eq!(v, vec![128, 0, 255, 255]);
    }

    #[test]
    fn fill_outside_the_image_is_ignored() {
        let mut img = RgbaImage::from_pixel(2, 2, Rgba([255, 255, 255, 255]));
        fill_rect(&mut img, [-5.0, -5.0, -1.0, -1.0], [0, 0, 0], 1.0);
        fill_rect(&mut img, [f64::NAN, 0.0, 1.0, 1.0], [0, 0, 0], 1.0);
        assert!(img.pixels().all(|p| p.0 == [255, 255, 255, 255]));
    }

    #[test]
    fn fit_cuts_long_text() {
        assert_eq!(fit("ABCDEFGH", 36.0, 1), "ABC...");
        assert_eq!(fit("AB", 36.0, 1), "AB");
    }
}
