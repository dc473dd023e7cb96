//! `strip_vendor_tags` (`migrate --strip`) seen by the renderer: every pixel
//! outside the stripped tags' boxes is painted as before (the text side is
//! signprep-core's `tests/strip.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{
    Dialects, Document, LoadOptions, Rect, Scan, Scanner, VendorTag, strip_vendor_tags,
};
use signprep_render::{PageRenderer, render_page};
use std::path::Path;

fn open(bytes: &[u8]) -> Document {
    Document::from_bytes(bytes, &LoadOptions::default()).unwrap()
}

fn scan(doc: &Document) -> Scan {
    Scanner::new().dialects(Dialects::all()).scan(doc).unwrap()
}

/// The box of a tag (72 dpi: pixels are points), in page coordinates.
fn tag_box(t: &VendorTag, s: &Scan) -> Rect {
    let off = s.pages[t.page].y_offset;
    Rect::new(t.x, t.y - off, t.x + t.width, t.y - off + t.height)
}

/// Pixels outside the stripped tags' boxes (grown by 2 px for anti-aliasing)
/// are painted as before; inside them something changed.
#[test]
fn rendering_outside_the_tags_is_unchanged() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/migrate/strip_contract.pdf");
    let bytes = std::fs::read(path).unwrap();
    let doc = open(&bytes);
    let s = scan(&doc);
    // The tags migration places (all but the read-only `{{Ref...}}`).
    let placed: Vec<VendorTag> = s
        .vendor_tags
        .clone()
        .unwrap()
        .into_iter()
        .filter(|t| !t.raw.starts_with("{{Ref"))
        .collect();
    let copy = strip_vendor_tags(&doc, &s.pages, &placed, &[])
        .unwrap()
        .pdf
        .unwrap();
    let doc2 = open(&copy);
    let s2 = scan(&doc2);
    let r1 = PageRenderer::new(bytes).unwrap();
    let r2 = PageRenderer::new(copy).unwrap();
    for page in 0..doc.page_count() {
        let a = render_page(&doc, &r1, page, &s).unwrap();
        let b = render_page(&doc2, &r2, page, &s2).unwrap();
        assert_eq!((a.width(), a.height()), (b.width(), b.height()));
        let boxes: Vec<Rect> = placed
            .iter()
            .filter(|t| t.page == page)
            .map(|t| tag_box(t, &s))
            .collect();
        let (mut outside_diff, mut inside_diff) = (0, 0);
        for (i, (pa, pb)) in a.as_rgba().chunks(4).zip(b.as_rgba().chunks(4)).enumerate() {
            let (x, y) = (i as u32 % a.width(), i as u32 / a.width());
            let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let inside = boxes.iter().any(|r| {
                fx >= r.x0 - 2.0 && fx <= r.x1 + 2.0 && fy >= r.y0 - 2.0 && fy <= r.y1 + 2.0
            });
            if pa != pb {
                if inside {
                    inside_diff += 1;
                } else {
                    outside_diff += 1;
                }
            }
        }
        assert_eq!(
            outside_diff, 0,
            "page {page}: pixels changed outside the tags"
        );
        // White text paints nothing; the visible tags do.
        assert!(
            inside_diff > 0,
            "page {page}: nothing changed inside the tags"
        );
    }
}
