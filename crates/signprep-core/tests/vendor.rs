//! Vendor-tag fixtures (`vendor_*`): every dialect's tags are found with the
//! box their vendor documents, within 0.5 pt of the generator's independent
//! expectation, and a scan without dialects does no vendor work.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Code, Dialects, Document, LoadOptions, Scanner};
use signprep_testgen::{Expect, fixtures};

const TOL: f64 = 0.5;

#[test]
fn vendor_fixtures_match_their_expectations() {
    let mut checked = 0;
    let mut failures = Vec::new();
    // The contracts `signprep migrate` is shown on are held to the same oracle.
    let contracts = signprep_testgen::try_migrate_contracts().unwrap();
    for fx in fixtures().into_iter().chain(contracts) {
        let expect: Expect = fx.expect_typed().unwrap();
        let Some(want) = expect.vendor_tags else {
            continue;
        };
        let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).unwrap();
        let scan = Scanner::new().dialects(Dialects::all()).scan(&doc).unwrap();
        let got = scan.vendor_tags.clone().unwrap_or_default();
        let name = fx.name;
        let raws = |v: Vec<&str>| v.join(" ");
        if got.len() != want.len() {
            failures.push(format!(
                "{name}: found {}\n    expected {}",
                raws(got.iter().map(|t| t.raw.as_str()).collect()),
                raws(want.iter().map(|t| t.raw.as_str()).collect())
            ));
            continue;
        }
        for (g, w) in got.iter().zip(&want) {
            let off = scan.pages.get(g.page).map_or(0.0, |p| p.y_offset);
            let ok = g.dialect.as_str() == w.dialect
                && g.raw == w.raw
                && g.page == w.page
                && g.hidden == w.hidden
                && (g.x - w.x).abs() <= TOL
                && (g.y - off - w.y).abs() <= TOL
                && (g.width - w.width).abs() <= TOL
                && (g.height - w.height).abs() <= TOL;
            if !ok {
                failures.push(format!("{name}: got {g:?}\n    expected {w:?}"));
            }
            checked += 1;
        }
        let split = scan
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::VendorTagSplitAcrossLines)
            .count();
        let want_split = expect.vendor_split.map_or(0, |v| v.len());
        if split != want_split {
            failures.push(format!("{name}: {split} split tags, expected {want_split}"));
        }
        let visible = scan
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::VendorTagVisible)
            .count();
        let want_visible = want.iter().filter(|t| !t.hidden).count();
        if visible != want_visible {
            failures.push(format!(
                "{name}: {visible} vendor_tag_visible, expected {want_visible}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 16, "only {checked} vendor tags checked");
}

#[test]
fn every_dialect_has_a_fixture_tag() {
    let mut seen = std::collections::BTreeSet::new();
    for fx in fixtures() {
        for t in fx.expect_typed().unwrap().vendor_tags.unwrap_or_default() {
            seen.insert(t.dialect);
        }
    }
    let want: std::collections::BTreeSet<String> = signprep_core::Dialect::ALL
        .iter()
        .map(|d| d.as_str().to_string())
        .collect();
    assert_eq!(seen, want);
}

#[test]
fn without_dialects_there_are_no_vendor_tags_or_findings() {
    let fx = signprep_testgen::fixture("vendor_adobe_dropbox").unwrap();
    let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).unwrap();
    let scan = Scanner::new().scan(&doc).unwrap();
    assert_eq!(scan.vendor_tags, None);
    assert!(
        !scan
            .diagnostics
            .iter()
            .any(|d| d.code.as_str().starts_with("vendor_tag"))
    );
    // One dialect reads only its own tags.
    let only = Scanner::new()
        .dialects(Dialects::parse("dropbox").unwrap())
        .scan(&doc)
        .unwrap();
    let dialects: Vec<&str> = only
        .vendor_tags
        .unwrap()
        .iter()
        .map(|t| t.dialect.as_str())
        .collect();
    assert_eq!(dialects, ["dropbox", "dropbox", "dropbox", "dropbox"]);
}

#[test]
fn documented_attributes_survive_the_pdf() {
    let fx = signprep_testgen::fixture("vendor_brace_dialects").unwrap();
    let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).unwrap();
    let scan = Scanner::new().dialects(Dialects::all()).scan(&doc).unwrap();
    let rows: Vec<String> = scan
        .vendor_tags
        .unwrap()
        .iter()
        .map(|t| {
            let a = &t.attributes;
            format!(
                "{} {} {} {} {}",
                t.dialect,
                a.kind,
                a.signer.as_deref().unwrap_or("-"),
                a.required,
                a.label.as_deref().or(a.name.as_deref()).unwrap_or("-")
            )
        })
        .collect();
    insta::assert_snapshot!(rows.join("\n"));
}
