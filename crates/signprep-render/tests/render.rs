//! Page previews: the overlay geometry as data (insta snapshots), reference
//! images with a pixel tolerance, and alignment of the scan's boxes with what
//! the renderer paints, on rotated and cropped pages.
//!
//! Reference images live in `testdata/preview/`; after a reviewed change,
//! rewrite them with `SIGNPREP_UPDATE_PREVIEWS=1 cargo test -p signprep-render
//! --test render` and look at them before committing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]
#![allow(clippy::disallowed_types)] // builds its inputs with lopdf

use lopdf::{Object, Stream, dictionary};
use signprep_core::{Document, LoadOptions, Scan, Scanner};
use signprep_render::{
    Image, Overlay, PageRenderer, RenderError, Style, render_page, render_page_with_overlay,
};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Loaded {
    doc: Document,
    pdf: PageRenderer,
    scan: Scan,
}

fn load_bytes(bytes: Vec<u8>, dpi: f64) -> Loaded {
    let doc = Document::from_bytes(&bytes, &LoadOptions::default()).unwrap();
    let scan = Scanner::new().dpi(dpi).scan(&doc).unwrap();
    let pdf = PageRenderer::new(bytes).unwrap();
    Loaded { doc, pdf, scan }
}

fn fixture(name: &str, dpi: f64) -> Loaded {
    let path = root().join(format!("testdata/fixtures/{name}.pdf"));
    load_bytes(std::fs::read(path).unwrap(), dpi)
}

// ---- overlay geometry as data ----------------------------------------------

#[test]
fn overlay_geometry_snapshot() {
    let cases: [(&str, Style); 7] = [
        (
            "base14_courier",
            Style::new()
                .signer("SIG_1", "tenant")
                .signer("INIT_1", "tenant")
                .signer("SIG_2", "landlord"),
        ),
        ("rotated_pages", Style::new()),
        ("cropbox_offset", Style::new()),
        ("hidden_tags", Style::new()),
        ("invalid_ids", Style::new()),
        ("form_geometry", Style::new()),
        (
            "form_signature",
            Style::new()
                .signer("signer.signature", "tenant")
                .signer("SIG_1", "agent"),
        ),
    ];
    for (name, style) in cases {
        let l = fixture(name, 96.0);
        let overlays: Vec<Overlay> = (0..l.scan.pages.len())
            .map(|p| Overlay::for_page(&l.scan, p, &style).unwrap())
            .collect();
        // Every box is the scan's box, moved to its page.
        let boxes: Vec<_> = overlays.iter().flat_map(|o| &o.boxes).collect();
        assert_eq!(
            boxes.len(),
            l.scan.tags.len() + l.scan.fields.iter().filter(|f| f.page.is_some()).count()
        );
        insta::with_settings!({ snapshot_suffix => name, prepend_module_to_snapshot => false }, {
            insta::assert_json_snapshot!("overlay", overlays);
        });
    }
}

#[test]
fn boxes_are_the_scan_boxes_on_their_page() {
    let l = fixture("mixed_page_sizes", 72.0);
    for t in &l.scan.tags {
        let o = Overlay::for_page(&l.scan, t.page, &Style::new()).unwrap();
        let b = o.boxes.iter().find(|b| b.label == t.tag_id).unwrap();
        let off = l.scan.pages[t.page].y_offset;
        assert!((b.x - t.x).abs() < 0.011 && (b.y - (t.y - off)).abs() < 0.011);
        assert_eq!((b.width, b.height), (t.width, t.height));
    }
    assert!(Overlay::for_page(&l.scan, 99, &Style::new()).is_none());
}

#[test]
fn signers_get_their_own_colours_and_findings_their_severity() {
    let l = fixture("base14_courier", 72.0);
    let style = Style::new().signer("SIG_1", "b").signer("SIG_2", "a");
    let o = Overlay::for_page(&l.scan, 0, &style).unwrap();
    let sig = o.boxes.iter().find(|b| b.label == "SIG_1").unwrap();
    let init = o.boxes.iter().find(|b| b.label == "INIT_1").unwrap();
    assert_eq!(sig.signer.as_deref(), Some("b"));
    assert_ne!(sig.colour, init.colour);
    assert_eq!(sig.caption(), "SIG_1 - signature - b");
    assert_eq!(style.signer_colour("a"), style.signer_colour("a"));
    assert_ne!(style.signer_colour("a"), style.signer_colour("b"));

    let bad = fixture("invalid_ids", 72.0);
    let o = Overlay::for_page(&bad.scan, 0, &Style::new()).unwrap();
    let lower = o.boxes.iter().find(|b| b.label == "sig_lower").unwrap();
    assert_eq!(lower.severity, Some(signprep_core::Severity::Error));
    assert_eq!(lower.kind_label, "invalid");
    assert!(lower.caption().ends_with("! tag_id_not_uppercase"));
}

// ---- reference images --------------------------------------------------------

/// Pixels whose channels differ by more than 24 count as different; at most
/// 0.5 % may (anti-aliasing differs a little between SIMD levels).
fn assert_close(name: &str, got: &Image) {
    let path = root().join(format!("testdata/preview/{name}.png"));
    if std::env::var_os("SIGNPREP_UPDATE_PREVIEWS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got.to_png().unwrap()).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let want = image::load_from_memory(&std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; write it with SIGNPREP_UPDATE_PREVIEWS=1",
            path.display()
        )
    }))
    .unwrap()
    .to_rgba8();
    assert_eq!(
        want.dimensions(),
        (got.width(), got.height()),
        "{name}: size"
    );
    let differ = differing(want.as_raw(), got.as_rgba());
    let limit = (want.width() * want.height()) as usize / 200;
    assert!(
        differ <= limit,
        "{name}: {differ} pixels differ (limit {limit}); if the change is intended, rewrite with SIGNPREP_UPDATE_PREVIEWS=1 and review"
    );
}

/// Pixels (4 bytes each) whose channels differ by more than 24.
fn differing(want: &[u8], got: &[u8]) -> usize {
    want.chunks(4)
        .zip(got.chunks(4))
        .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 24))
        .count()
}

#[test]
fn reference_previews() {
    let style = Style::new()
        .signer("SIG_1", "tenant")
        .signer("SIG_2", "landlord");
    for (name, page) in [
        ("base14_courier", 0),
        ("rotated_pages", 1),
        ("cropbox_offset", 0),
        ("hidden_tags", 0),
    ] {
        let l = fixture(name, 72.0);
        let img = render_page_with_overlay(&l.doc, &l.pdf, page, &l.scan, &style).unwrap();
        assert_close(&format!("{name}-p{}", page + 1), &img);
    }
}

/// `testdata/preview/form_signature-signers-96dpi.png`: what `signprep preview
/// testdata/fixtures/form_signature.pdf --signer SIG_1=tenant ... --signer
/// witness=witness` draws at 96 dpi, signers' colours included (the guide's
/// pictures are drawn afresh at each build; this one is the reviewed reference).
#[test]
fn signers_sample_is_current() {
    let style = Style::new()
        .signer("SIG_1", "tenant")
        .signer("DATE", "tenant")
        .signer("full_name", "tenant")
        .signer("signer.signature", "tenant")
        .signer("witness", "witness");
    let l = fixture("form_signature", 96.0);
    let img = render_page_with_overlay(&l.doc, &l.pdf, 0, &l.scan, &style).unwrap();
    let path = root().join("testdata/preview/form_signature-signers-96dpi.png");
    if std::env::var_os("SIGNPREP_UPDATE_PREVIEWS").is_some() {
        std::fs::write(&path, img.to_png().unwrap()).unwrap();
    }
    assert!(
        std::fs::metadata(&path).unwrap().len() < 150_000,
        "keep the reference image small"
    );
    let want = image::open(&path).unwrap().to_rgba8();
    assert_eq!(want.dimensions(), (img.width(), img.height()));
    let differ = differing(want.as_raw(), img.as_rgba());
    assert!(
        differ <= (img.width() * img.height()) as usize / 200,
        "{differ} pixels differ"
    );
}

// ---- alignment: what the renderer paints is where the scan says ---------------

/// A one-page PDF: a black rectangle at `rect` with a widget on it, and a
/// Courier tag, on a page with this CropBox and /Rotate.
fn probe_pdf(rotate: i64, crop: Option<[f64; 4]>, pages: usize) -> Vec<u8> {
    let mut doc = lopdf::Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier",
    });
    let mut kids = Vec::new();
    let mut fields = Vec::new();
    for i in 0..pages {
        let mut content = String::from("0 0 0 rg 150 300 160 40 re f\n");
        content.push_str(&format!(
            "BT /F1 14 Tf 120 500 Td (<# PROBE_{i} #>) Tj ET\n"
        ));
        for line in 0..40 {
            content.push_str(&format!(
                "BT /F1 9 Tf 60 {} Td (Line {line} of page {i}: filler text for the renderer.) Tj ET\n",
                260 - line * 6
            ));
        }
        let contents = doc.add_object(Stream::new(dictionary! {}, content.into_bytes()));
        let page_id = doc.new_object_id();
        let widget = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx",
            "T" => Object::string_literal(format!("box{i}")),
            "Rect" => vec![150.into(), 300.into(), 310.into(), 340.into()],
            "P" => page_id,
        });
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => pages_id,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Rotate" => rotate,
            "Contents" => contents,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
            "Annots" => vec![widget.into()],
        };
        if let Some(c) = crop {
            page.set(
                "CropBox",
                c.iter()
                    .map(|v| Object::Real(*v as f32))
                    .collect::<Vec<_>>(),
            );
        }
        doc.objects.insert(page_id, Object::Dictionary(page));
        kids.push(Object::Reference(page_id));
        fields.push(Object::Reference(widget));
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => pages as i64,
        }),
    );
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog", "Pages" => pages_id,
        "AcroForm" => dictionary! { "Fields" => fields },
    });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// Bounding box `[x0, y0, x1, y1)` of the dark pixels inside a window.
fn ink_bbox(img: &Image, win: [f64; 4]) -> Option<[f64; 4]> {
    let mut bb: Option<[f64; 4]> = None;
    let clamp = |v: f64, hi: u32| (v.max(0.0) as u32).min(hi);
    for y in clamp(win[1], img.height())..clamp(win[3], img.height()) {
        for x in clamp(win[0], img.width())..clamp(win[2], img.width()) {
            if img.pixel(x, y).unwrap()[0] < 128 {
                let (fx, fy) = (f64::from(x), f64::from(y));
                bb = Some(match bb {
                    None => [fx, fy, fx + 1.0, fy + 1.0],
                    Some(b) => [
                        b[0].min(fx),
                        b[1].min(fy),
                        b[2].max(fx + 1.0),
                        b[3].max(fy + 1.0),
                    ],
                });
            }
        }
    }
    bb
}

#[test]
fn boxes_sit_on_the_rendered_ink_rotated_and_cropped() {
    for rotate in [0, 90, 180, 270, -90] {
        for crop in [None, Some([36.0, 50.0, 576.0, 742.0])] {
            for dpi in [72.0, 96.0] {
                let case = format!("rotate {rotate}, crop {crop:?}, {dpi} dpi");
                let l = load_bytes(probe_pdf(rotate, crop, 1), dpi);
                let img = render_page(&l.doc, &l.pdf, 0, &l.scan).unwrap();
                let page = &l.scan.pages[0];
                assert_eq!(
                    (img.width(), img.height()),
                    (page.width.ceil() as u32, page.height.ceil() as u32),
                    "{case}"
                );
                // The widget: its box is exactly the painted rectangle.
                let f = &l.scan.fields[0];
                let fb = [
                    f.x,
                    f.y - page.y_offset,
                    f.x + f.width,
                    f.y - page.y_offset + f.height,
                ];
                let ink = ink_bbox(&img, [fb[0] - 6.0, fb[1] - 6.0, fb[2] + 6.0, fb[3] + 6.0])
                    .unwrap_or_else(|| panic!("{case}: nothing painted at the field"));
                for (a, b) in ink.iter().zip(fb) {
                    assert!((a - b).abs() <= 1.0, "{case}: field {fb:?}, ink {ink:?}");
                }
                // The tag: its glyphs are inside its box and fill most of it.
                let t = &l.scan.tags[0];
                let tb = [
                    t.x,
                    t.y - page.y_offset,
                    t.x + t.width,
                    t.y - page.y_offset + t.height,
                ];
                let ink = ink_bbox(&img, [tb[0] - 8.0, tb[1] - 8.0, tb[2] + 8.0, tb[3] + 8.0])
                    .unwrap_or_else(|| panic!("{case}: nothing painted at the tag"));
                assert!(
                    ink[0] >= tb[0] - 1.0
                        && ink[1] >= tb[1] - 1.0
                        && ink[2] <= tb[2] + 1.0
                        && ink[3] <= tb[3] + 1.0,
                    "{case}: tag {tb:?}, ink {ink:?}"
                );
                let area = |r: [f64; 4]| (r[2] - r[0]) * (r[3] - r[1]);
                assert!(
                    area(ink) >= 0.4 * area(tb),
                    "{case}: tag {tb:?}, ink {ink:?}"
                );
            }
        }
    }
}

#[test]
fn mismatched_bytes_and_missing_pages_are_errors() {
    let one = load_bytes(probe_pdf(0, None, 1), 72.0);
    let two = PageRenderer::new(probe_pdf(0, None, 2)).unwrap();
    let e = render_page(&one.doc, &two, 0, &one.scan).unwrap_err();
    assert!(matches!(e, RenderError::PageCountMismatch { .. }), "{e}");
    assert_eq!(e.code().as_str(), "page_not_drawn");
    let e = render_page(&one.doc, &one.pdf, 3, &one.scan).unwrap_err();
    assert!(matches!(e, RenderError::NoSuchPage { .. }), "{e}");
    assert!(PageRenderer::new(b"not a pdf".to_vec()).is_err());
}

#[test]
fn renderer_is_shareable_across_threads() {
    fn check<T: Send + Sync>() {}
    check::<PageRenderer>();
}

/// The benchmark note in the README: `cargo test --release -p signprep-render
/// --test render -- --ignored --nocapture render_speed`.
#[test]
#[ignore = "timing; run by hand in release mode"]
fn render_speed() {
    let l = load_bytes(probe_pdf(0, None, 10), 96.0);
    let style = Style::new();
    for round in 0..3 {
        let start = std::time::Instant::now();
        let mut bytes = 0;
        for p in 0..10 {
            let img = render_page_with_overlay(&l.doc, &l.pdf, p, &l.scan, &style).unwrap();
            bytes += img.to_png().unwrap().len();
        }
        let all = start.elapsed();
        let start = std::time::Instant::now();
        for p in 0..10 {
            render_page_with_overlay(&l.doc, &l.pdf, p, &l.scan, &style).unwrap();
        }
        eprintln!(
            "round {round}: 10 pages at 96 dpi, one thread: {:.0} ms rendered + drawn, {:.0} ms with PNG encoding ({bytes} bytes)",
            start.elapsed().as_secs_f64() * 1000.0,
            all.as_secs_f64() * 1000.0
        );
    }
}
