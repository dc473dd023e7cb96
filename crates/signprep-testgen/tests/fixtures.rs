#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use signprep_testgen::{Expect, fixtures, refused_fixtures};

#[test]
fn generation_is_deterministic() {
    let a = fixtures();
    let b = fixtures();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.name, y.name);
        assert!(x.pdf == y.pdf, "{}: PDF bytes differ between runs", x.name);
        assert_eq!(x.expect_json().unwrap(), y.expect_json().unwrap());
    }
}

#[test]
fn uniquely_named_fixtures() {
    let all = fixtures();
    let names: BTreeSet<_> = all.iter().map(|f| f.name).collect();
    assert_eq!(names.len(), all.len());
    // At least the 17 tag fixtures and 14 form fixtures; one more form
    // fixture is refused.
    assert!(names.len() >= 27, "{names:?}");
    let forms = all
        .iter()
        .filter(|f| f.expect_typed().unwrap().fields.is_some())
        .count();
    assert_eq!(forms, 14);
    assert!(
        all.iter()
            .all(|f| f.expect_typed().unwrap().error.is_none())
    );
    let refused = refused_fixtures();
    assert_eq!(refused.len(), 1);
    for f in &refused {
        assert!(!names.contains(f.name), "{}", f.name);
        assert!(f.expect_typed().unwrap().error.is_some(), "{}", f.name);
    }
}

#[test]
fn form_expectations_are_consistent() {
    for f in fixtures().into_iter().chain(refused_fixtures()) {
        let e = f.expect_typed().unwrap();
        let Some(fields) = &e.fields else { continue };
        if e.error.is_some() {
            assert!(
                fields.is_empty(),
                "{}: an error fixture lists fields",
                f.name
            );
        }
        for fd in fields {
            assert!(fd.page.is_none_or(|p| p < e.pages.len()), "{}", f.name);
            assert!(fd.width >= 0.0 && fd.height >= 0.0, "{}", f.name);
            if fd.option_values.is_some() {
                assert!(!fd.options.is_empty(), "{}: {}", f.name, fd.name);
            }
        }
    }
    // The radio group of form_inheritance: three widgets, one value.
    let e = signprep_testgen::fixture("form_inheritance")
        .unwrap()
        .expect_typed()
        .unwrap();
    let radios: Vec<_> = e
        .fields
        .unwrap()
        .into_iter()
        .filter(|f| f.name == "choice")
        .collect();
    assert_eq!(radios.len(), 3);
    assert!(radios.iter().all(|r| r.value == "B"));
}

#[test]
fn no_timestamps_or_ids() {
    for f in fixtures() {
        for needle in [&b"/ID"[..], b"/CreationDate", b"/ModDate", b"/Info"] {
            assert!(
                !f.pdf.windows(needle.len()).any(|w| w == needle),
                "{} contains {}",
                f.name,
                String::from_utf8_lossy(needle)
            );
        }
    }
}

#[test]
fn expect_json_round_trips() {
    for f in fixtures() {
        let bytes = f.expect_json().unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(value, f.expect, "{}", f.name);
        let typed: Expect = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            serde_json::to_value(&typed).unwrap(),
            f.expect,
            "{}",
            f.name
        );
        assert_eq!(f.expect_typed().unwrap(), typed);
    }
}

#[test]
fn pdfs_load_and_page_counts_match() {
    for f in fixtures() {
        let doc = lopdf::Document::load_mem(&f.pdf)
            .unwrap_or_else(|e| panic!("{} does not load: {e}", f.name));
        let expect = f.expect_typed().unwrap();
        assert_eq!(doc.get_pages().len(), expect.pages.len(), "{}", f.name);
        for t in &expect.tags {
            assert!(t.page < expect.pages.len(), "{}", f.name);
            assert!(t.width > 0.0 && t.height > 0.0, "{}", f.name);
            assert!(t.font_size > 0.0, "{}", f.name);
        }
    }
}

#[test]
fn spot_values() {
    let get = |name: &str| {
        signprep_testgen::fixture(name)
            .unwrap()
            .expect_typed()
            .unwrap()
    };
    // Courier 12 at (72, 700) on an unrotated Letter page: descent -194.
    let rot = get("rotated_pages");
    let t = &rot.tags[0];
    assert_eq!((t.x, t.y, t.width, t.height), (72.0, 82.33, 79.2, 12.0));
    // Same text on the /Rotate 90 page runs downwards as displayed.
    let t = &rot.tags[1];
    assert_eq!((t.x, t.y, t.width, t.height), (697.67, 72.0, 12.0, 86.4));
    assert_eq!(rot.pages[4].rotation, 270);
    // Non-uniform Tm: width x1.5, height 2x.
    let t = &get("scaled_text").tags[0];
    assert_eq!((t.width, t.height, t.font_size), (162.0, 24.0, 24.0));
    let wrapped = get("wrapped_tag");
    assert_eq!(wrapped.unterminated.len(), 1);
    assert_eq!(wrapped.tags.len(), 1);
    let inv = get("invalid_ids");
    assert_eq!(inv.tags.iter().filter(|t| t.valid).count(), 1);
    assert!(inv.tags.iter().any(|t| t.tag_id == "SIGNÉ"));
    assert!(get("no_tags").tags.is_empty());
    assert!(get("image_only").tags.is_empty());
}

/// The copies in `testdata/fixtures` must be what the generator produces
/// (regenerate with `cargo run -p signprep-testgen -- testdata/fixtures`).
#[test]
fn checked_in_fixtures_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures");
    for f in fixtures().into_iter().chain(refused_fixtures()) {
        let pdf = std::fs::read(dir.join(format!("{}.pdf", f.name)));
        let json = std::fs::read(dir.join(format!("{}.expect.json", f.name)));
        assert!(
            pdf.ok().as_ref() == Some(&f.pdf) && json.ok() == Some(f.expect_json().unwrap()),
            "testdata/fixtures/{} is stale: run `cargo run -p signprep-testgen -- testdata/fixtures`",
            f.name
        );
    }
}
