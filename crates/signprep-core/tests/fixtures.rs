//! Every generated fixture is scanned and compared with the expectation its
//! generator computed from its own layout (an oracle independent of our parser),
//! and the JSON record is snapshotted: one test module per fixture
//! (`per_fixture!`), so `cargo test -p signprep-core --test fixtures NAME`
//! runs one and a failure names its fixture.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use signprep_core::{Code, Document, LoadOptions, Scan, Scanner};
use signprep_testgen::{Expect, Fixture, fixtures};

const TOL: f64 = 0.02;

fn scan(pdf: &[u8]) -> Scan {
    let doc = Document::from_bytes(pdf, &LoadOptions::default()).expect("fixture loads");
    Scanner::new().scan(&doc).expect("fixture scans")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL
}

/// One module of tests per fixture, so that a failure names its fixture; the
/// list is checked against the generator's (`every_fixture_is_listed`).
macro_rules! per_fixture {
    ($($name:ident),* $(,)?) => {
        const LISTED: &[&str] = &[$(stringify!($name)),*];
        $(
            mod $name {
                #[test]
                fn matches_its_expectation() {
                    super::matches_its_expectation(stringify!($name));
                }

                #[test]
                fn record_snapshot() {
                    super::record_snapshot(stringify!($name));
                }

                #[test]
                fn bundled_file_is_the_generated_one() {
                    super::bundled_file_is_the_generated_one(stringify!($name));
                }
            }
        )*
    };
}

per_fixture! {
    base14_courier,
    cropbox_offset,
    form_buttons,
    form_choices,
    form_duplicate_names,
    form_geometry,
    form_hierarchy,
    form_inheritance,
    form_names,
    form_no_rotate,
    form_signature,
    form_stacked,
    form_two_widgets,
    form_widget_placement,
    form_xfa_hybrid,
    form_xfa_only,
    form_xobject,
    garbled_text,
    hidden_tags,
    image_only,
    invalid_ids,
    mixed_page_sizes,
    multi_tags_one_line,
    near_miss_tags,
    no_tags,
    rotated_pages,
    scaled_text,
    split_tj_kerning,
    truetype_widths,
    type0_identity_h,
    type3_font,
    user_unit,
    vendor_adobe_dropbox,
    vendor_brace_dialects,
    vendor_documenso,
    vendor_docusign,
    vendor_dropbox_defs,
    vendor_mixups,
    vendor_signnow_forms,
    vendor_wrapped,
    wrapped_tag,
}

#[test]
fn every_fixture_is_listed() {
    let generated: BTreeSet<&str> = fixtures().iter().map(|f| f.name).collect();
    let listed: BTreeSet<&str> = LISTED.iter().copied().collect();
    assert_eq!(
        listed, generated,
        "list every generated fixture in `per_fixture!`"
    );
}

fn fixture(name: &str) -> Fixture {
    signprep_testgen::fixture(name).unwrap_or_else(|| panic!("no fixture {name}"))
}

/// The scan matches the expectation the generator computed from its own layout.
fn matches_its_expectation(name: &str) {
    let fx = fixture(name);
    let expect: Expect = fx.expect_typed().expect("expectation parses");
    let scan = scan(&fx.pdf);
    let mut failures = Vec::new();
    if scan.pages.len() != expect.pages.len() {
        failures.push(format!(
            "{} pages, expected {}",
            scan.pages.len(),
            expect.pages.len()
        ));
    }
    for (got, exp) in scan.pages.iter().zip(&expect.pages) {
        if !close(got.width, exp.width)
            || !close(got.height, exp.height)
            || u32::from(got.rotation) != exp.rotation
        {
            failures.push(format!("page {} is {got:?}, expected {exp:?}", exp.index));
        }
    }
    if scan.tags.len() == expect.tags.len() {
        for (got, exp) in scan.tags.iter().zip(&expect.tags) {
            let y_offset = scan.pages.get(got.page).map_or(0.0, |p| p.y_offset);
            let ok = got.tag_id == exp.tag_id
                && got.page == exp.page
                && got.valid == exp.valid
                && got.hidden == exp.hidden
                && got.font == exp.font
                && close(got.font_size, exp.font_size)
                && close(got.x, exp.x)
                && close(got.y - y_offset, exp.y)
                && close(got.width, exp.width)
                && close(got.height, exp.height);
            if !ok {
                failures.push(format!("got {got:?}\n    expected {exp:?}"));
            }
        }
    } else {
        failures.push(format!(
            "found {:?}, expected {:?}",
            scan.tags.iter().map(|t| &t.tag_id).collect::<Vec<_>>(),
            expect.tags.iter().map(|t| &t.tag_id).collect::<Vec<_>>()
        ));
    }
    let unterminated = scan
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::TagUnterminated)
        .count();
    if unterminated != expect.unterminated.len() {
        failures.push(format!(
            "{unterminated} tag_unterminated, expected {}",
            expect.unterminated.len()
        ));
    }
    // The per-font `text_unmappable` (no tag): its page, and the font it names.
    let per_font: Vec<(Option<usize>, &str)> = scan
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::TextUnmappable && d.tag.is_none())
        .map(|d| (d.page, d.message.as_str()))
        .collect();
    let expected = expect.text_unmappable.unwrap_or_default();
    let same = per_font.len() == expected.len()
        && per_font.iter().zip(&expected).all(|((page, msg), e)| {
            *page == Some(e.page) && msg.contains(&format!("font `{}`", e.font))
        });
    if !same {
        failures.push(format!(
            "text_unmappable per font: {per_font:?}, expected {expected:?}"
        ));
    }
    assert!(failures.is_empty(), "{name}: {}", failures.join("\n"));
}

/// The JSON record, snapshotted as `scan@NAME.snap`.
fn record_snapshot(name: &str) {
    let scan = scan(&fixture(name).pdf);
    insta::with_settings!({ snapshot_suffix => name, prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("scan", scan);
    });
}

/// The sample runs of the README and the guide (docs/src) read testdata/fixtures;
/// it must hold what the generator makes today (CI also runs `signprep-testgen --check`).
fn bundled_file_is_the_generated_one(name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures");
    let on_disk = std::fs::read(dir.join(format!("{name}.pdf"))).expect("fixture file exists");
    assert!(
        on_disk == fixture(name).pdf,
        "{name} on disk differs from the generator's output: run `cargo run -p signprep-testgen -- testdata/fixtures`"
    );
}

#[test]
fn dpi_and_page_width_scale_every_length() {
    let fx = signprep_testgen::fixture("mixed_page_sizes").expect("fixture exists");
    let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).expect("loads");
    let base = Scanner::new().scan(&doc).expect("scans");
    let double = Scanner::new().dpi(144.0).scan(&doc).expect("scans");
    for (a, b) in base.tags.iter().zip(&double.tags) {
        assert!(
            (b.x - 2.0 * a.x).abs() < 0.03 && (b.y - 2.0 * a.y).abs() < 0.03,
            "{a:?} vs {b:?}"
        );
        assert!((b.width - 2.0 * a.width).abs() < 0.03 && (b.height - 2.0 * a.height).abs() < 0.03);
    }
    let web = Scanner::new().page_width(800.0).scan(&doc).expect("scans");
    let mut y = 0.0;
    for p in &web.pages {
        assert!((p.width - 800.0).abs() < 0.01, "{p:?}");
        assert!((p.y_offset - y).abs() < 0.03, "{p:?} expected y_offset {y}");
        y += p.height;
    }
}

#[test]
fn user_unit_is_applied_by_default_and_ignored_on_request() {
    // The default is what viewers display (the expectation: a 306 x 396
    // MediaBox with /UserUnit 2 is a 612 x 792 page); apply_user_unit(false)
    // reads the page in its own user-space units, every length halved.
    let fx = signprep_testgen::fixture("user_unit").expect("fixture exists");
    let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).expect("loads");
    let shown = Scanner::new().scan(&doc).expect("scans");
    let raw = Scanner::new()
        .apply_user_unit(false)
        .scan(&doc)
        .expect("scans");
    assert_eq!(shown.pages[0].user_unit, Some(2.0));
    assert_eq!(raw.pages[0].user_unit, Some(2.0));
    assert_eq!(
        (shown.pages[0].width, shown.pages[0].height),
        (612.0, 792.0)
    );
    assert_eq!((raw.pages[0].width, raw.pages[0].height), (306.0, 396.0));
    for (a, b) in raw.tags.iter().zip(&shown.tags) {
        for (r, s) in [
            (a.x, b.x),
            (a.y, b.y),
            (a.width, b.width),
            (a.height, b.height),
        ] {
            assert!((s - 2.0 * r).abs() < 0.03, "{a:?} vs {b:?}");
        }
        assert_eq!(a.font_size, b.font_size);
    }
    assert_eq!(raw.tags.len(), 2);
}
