//! Every generated fixture is scanned and compared with the expectation its
//! generator computed from its own layout (an oracle independent of our parser),
//! and the JSON record is snapshotted.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Code, Document, LoadOptions, Scan, Scanner};
use signprep_testgen::{Expect, fixtures};

const TOL: f64 = 0.02;

fn scan(pdf: &[u8]) -> Scan {
    let doc = Document::from_bytes(pdf, &LoadOptions::default()).expect("fixture loads");
    Scanner::new().scan(&doc).expect("fixture scans")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL
}

#[test]
fn fixtures_match_their_expectations() {
    let mut failures = Vec::new();
    for fx in fixtures() {
        let expect: Expect = fx.expect_typed().expect("expectation parses");
        let scan = scan(&fx.pdf);
        let name = fx.name;
        if scan.pages.len() != expect.pages.len() {
            failures.push(format!(
                "{name}: {} pages, expected {}",
                scan.pages.len(),
                expect.pages.len()
            ));
        }
        for (got, exp) in scan.pages.iter().zip(&expect.pages) {
            if !close(got.width, exp.width)
                || !close(got.height, exp.height)
                || u32::from(got.rotation) != exp.rotation
            {
                failures.push(format!(
                    "{name}: page {} is {got:?}, expected {exp:?}",
                    exp.index
                ));
            }
        }
        if scan.tags.len() != expect.tags.len() {
            failures.push(format!(
                "{name}: found {:?}, expected {:?}",
                scan.tags.iter().map(|t| &t.tag_id).collect::<Vec<_>>(),
                expect.tags.iter().map(|t| &t.tag_id).collect::<Vec<_>>()
            ));
            continue;
        }
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
                failures.push(format!("{name}: got {got:?}\n    expected {exp:?}"));
            }
        }
        let unterminated = scan
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::TagUnterminated)
            .count();
        if unterminated != expect.unterminated.len() {
            failures.push(format!(
                "{name}: {unterminated} tag_unterminated, expected {}",
                expect.unterminated.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixture_records_snapshot() {
    for fx in fixtures() {
        let scan = scan(&fx.pdf);
        insta::with_settings!({ snapshot_suffix => fx.name, prepend_module_to_snapshot => false }, {
            insta::assert_json_snapshot!("scan", scan);
        });
    }
}

#[test]
fn the_bundled_files_are_the_generated_ones() {
    // The README's sample run reads testdata/fixtures; it must hold what the
    // generator makes today (CI also runs `signprep-testgen --check`).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures");
    for fx in fixtures() {
        let on_disk =
            std::fs::read(dir.join(format!("{}.pdf", fx.name))).expect("fixture file exists");
        assert!(
            on_disk == fx.pdf,
            "{} on disk differs from the generator's output",
            fx.name
        );
    }
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
fn user_unit_is_reported_and_applied_on_request() {
    let fx = signprep_testgen::fixture("user_unit").expect("fixture exists");
    let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).expect("loads");
    let plain = Scanner::new().scan(&doc).expect("scans");
    let applied = Scanner::new()
        .apply_user_unit(true)
        .scan(&doc)
        .expect("scans");
    let unit = plain
        .pages
        .iter()
        .find_map(|p| p.user_unit)
        .expect("a page with /UserUnit");
    assert!(unit > 1.0);
    let (a, b) = (&plain.tags[0], &applied.tags[0]);
    assert!((b.width - unit * a.width).abs() < 0.05, "{a:?} vs {b:?}");
}
