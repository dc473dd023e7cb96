//! Preview labels stay legible: on a page of stacked small fields
//! (`form_stacked`), no label covers another label or another box, none
//! leaves the page, and a shortened one keeps the start of its caption (the
//! overlay data keeps the whole). Checked on the overlay's data and on the
//! pixels drawn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Document, LoadOptions, Scan, Scanner};
use signprep_render::{
    LabelTab, MIN_SHOWN, Overlay, OverlayBox, PageRenderer, Style, render_page_with_overlay,
};
use std::path::Path;

fn load(name: &str, dpi: f64) -> (Document, PageRenderer, Scan) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/fixtures")
        .join(format!("{name}.pdf"));
    let bytes = std::fs::read(path).unwrap();
    let doc = Document::from_bytes(&bytes, &LoadOptions::default()).unwrap();
    let scan = Scanner::new().dpi(dpi).scan(&doc).unwrap();
    (doc, PageRenderer::new(bytes).unwrap(), scan)
}

type R = [f64; 4];

fn tab_rect(t: &LabelTab) -> R {
    [t.x, t.y, t.x + t.width, t.y + t.height]
}

/// A box with its outline (doubled for a box with a finding), at `scale`.
fn outline(b: &OverlayBox, scale: f64) -> R {
    let s = if b.severity.is_some() {
        2.0 * scale
    } else {
        scale
    };
    [b.x - s, b.y - s, b.x + b.width + s, b.y + b.height + s]
}

fn overlap(a: &R, b: &R) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Every label: inside the page, over no other label and no other box (its
/// outline included), showing its caption or the caption's start and `...`.
fn assert_legible(o: &Overlay, scale: f64, case: &str) {
    let tabs: Vec<(usize, R)> = o
        .boxes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.tab.as_ref().map(|t| (i, tab_rect(t))))
        .collect();
    for (i, r) in &tabs {
        let b = &o.boxes[*i];
        let at = format!("{case}: label of `{}` at {r:?}", b.label);
        assert!(
            r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= o.width && r[3] <= o.height,
            "{at} leaves the {} x {} page",
            o.width,
            o.height
        );
        for (j, other) in &tabs {
            assert!(
                j == i || !overlap(r, other),
                "{at} covers the label of `{}` at {other:?}",
                o.boxes[*j].label
            );
        }
        for (j, other) in o.boxes.iter().enumerate() {
            let ob = outline(other, scale);
            assert!(
                j == *i || !overlap(r, &ob),
                "{at} covers the box of `{}` at {ob:?}",
                other.label
            );
        }
        let text = &b.tab.as_ref().unwrap().text;
        let caption = b.caption();
        match text.strip_suffix("...") {
            Some(start) if *text != caption => {
                assert!(caption.starts_with(start), "{at}: {text:?} of {caption:?}");
                assert!(start.chars().count() >= MIN_SHOWN, "{at}: {text:?}");
            }
            _ => assert_eq!(*text, caption, "{at}"),
        }
    }
}

/// At 72 to 300 dpi (label scale 1 to 3): the labels cover nothing and stay
/// on the page; every field of the stacked column (beside its box where
/// there is no room above or below) and the corner field has one, the long
/// names shortened; the data keeps every whole name.
#[test]
fn stacked_labels_cover_nothing_and_stay_on_the_page() {
    for (dpi, scale) in [(72.0, 1.0), (96.0, 1.0), (150.0, 2.0), (300.0, 3.0)] {
        let case = format!("form_stacked at {dpi} dpi");
        let (_, _, scan) = load("form_stacked", dpi);
        let o = Overlay::for_page(&scan, 0, &Style::new()).unwrap();
        assert_legible(&o, scale, &case);
        let names: Vec<&str> = scan.fields.iter().map(|f| f.name.as_str()).collect();
        let boxed: Vec<&str> = o.boxes.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(boxed, names, "{case}: whole names in the data");
        for b in o
            .boxes
            .iter()
            .filter(|b| b.label.starts_with("applicant.") || b.label.starts_with("header."))
        {
            assert!(b.tab.is_some(), "{case}: `{}` has no label", b.label);
        }
        let shortened = o
            .boxes
            .iter()
            .filter_map(|b| b.tab.as_ref())
            .filter(|t| t.text.ends_with("..."))
            .count();
        assert!(shortened > 0, "{case}: no label was shortened");
    }
}

/// The check boxes 4 pt apart: as many labels as fit, none over another.
#[test]
fn a_dense_row_gets_the_labels_it_has_room_for() {
    let (_, _, scan) = load("form_stacked", 72.0);
    let o = Overlay::for_page(&scan, 0, &Style::new()).unwrap();
    let row: Vec<&OverlayBox> = o
        .boxes
        .iter()
        .filter(|b| b.label.starts_with("options."))
        .collect();
    assert_eq!(row.len(), 8);
    let labelled = row.iter().filter(|b| b.tab.is_some()).count();
    assert!(
        (3..8).contains(&labelled),
        "{labelled} of 8 labelled: {:?}",
        row.iter().map(|b| &b.tab).collect::<Vec<_>>()
    );
    assert_eq!(o.labels_left_out(), 8 - labelled);
    // Without labels, none is placed.
    let bare = Overlay::for_page(&scan, 0, &Style::new().labels(false)).unwrap();
    assert!(bare.boxes.iter().all(|b| b.tab.is_none()));
}

/// What is painted: inside every box, only the box's own light fill (the
/// fixture's page is blank), never a label's dark tab or its text.
#[test]
fn no_label_is_painted_inside_another_box() {
    for dpi in [72.0, 96.0] {
        let (doc, pdf, scan) = load("form_stacked", dpi);
        let style = Style::new().legend(false);
        let img = render_page_with_overlay(&doc, &pdf, 0, &scan, &style).unwrap();
        let o = Overlay::for_page(&scan, 0, &style).unwrap();
        for b in &o.boxes {
            // The interior, a pixel in from each edge.
            let (x0, y0) = ((b.x + 1.0).ceil() as u32, (b.y + 1.0).ceil() as u32);
            let (x1, y1) = (
                (b.x + b.width - 1.0).floor() as u32,
                (b.y + b.height - 1.0).floor() as u32,
            );
            for y in y0..y1 {
                for x in x0..x1.min(img.width()) {
                    let px = img.pixel(x, y).unwrap();
                    assert!(
                        px[0] >= 150 && px[1] >= 150 && px[2] >= 150,
                        "{dpi} dpi: pixel ({x}, {y}) inside `{}` is {px:?}: a label is painted there",
                        b.label
                    );
                }
            }
        }
    }
}
