//! Vendor-tag fixtures (`vendor_*`): every dialect's tags are found with the
//! box of their text and the field box their vendor documents, within 0.5 pt
//! of the generator's independent expectation, and a scan without dialects
//! does no vendor work. (DocuSign anchors need their envelope file, read by
//! the pack crate: `signprep-pack/tests/docusign.rs` checks those.)

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
        let want: Vec<_> = want
            .into_iter()
            .filter(|t| t.dialect != "docusign")
            .collect();
        if want.is_empty() {
            continue;
        }
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
                && (g.height - w.height).abs() <= TOL
                && match (&g.field, &w.field) {
                    (None, None) => true,
                    (Some(g), Some(w)) => {
                        (g.x - w.x).abs() <= TOL
                            && (g.y - off - w.y).abs() <= TOL
                            && (g.width - w.width).abs() <= TOL
                            && (g.height - w.height).abs() <= TOL
                    }
                    _ => false,
                };
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
        let unread = scan
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::VendorTagUnread)
            .count();
        let want_unread = expect.vendor_unread.map_or(0, |v| v.len());
        if unread != want_unread {
            failures.push(format!(
                "{name}: {unread} vendor_tag_unread, expected {want_unread}"
            ));
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
        .chain([&signprep_core::Dialect::Docusign])
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

/// A page with four Dropbox tags: one shown under a clip box it lies
/// outside of, one inside that box, one under an empty nested clip, one
/// after `Q` restores the whole page.
#[allow(clippy::disallowed_types)] // builds its input with lopdf
fn clipped_page() -> Vec<u8> {
    use lopdf::{Dictionary, Object};
    use signprep_testgen::content::ContentWriter;
    use signprep_testgen::fonts::{base14_dict, courier};
    use signprep_testgen::geom::PageGeom;
    use signprep_testgen::pdfbuild::{DocBuilder, PageSpec};
    let mut b = DocBuilder::new();
    let font = b.add(base14_dict("Courier", None));
    let mut fonts = Dictionary::new();
    fonts.set("F1", Object::Reference(font));
    let mut res = Dictionary::new();
    res.set("Font", fonts);
    let cour = courier(false);
    let mut w = ContentWriter::new();
    // Clip to the lower half (PDF y 0..400), then a nested clip that leaves
    // nothing (an empty intersection) for the last shown tag inside it.
    w.raw("q 0 0 612 400 re W n");
    w.bt().tf("F1", &cour, 10.0).td(72.0, 700.0);
    w.show("[sig|req|signer1]").unwrap();
    w.et();
    w.bt().tf("F1", &cour, 10.0).td(72.0, 300.0);
    w.show("[text|req|signer1]").unwrap();
    w.et();
    w.raw("q 300 500 100 100 re W n");
    w.bt().tf("F1", &cour, 10.0).td(72.0, 200.0);
    w.show("[text|req|signer3]").unwrap();
    w.et();
    w.raw("Q Q");
    w.bt().tf("F1", &cour, 10.0).td(72.0, 600.0);
    w.show("[text|noreq|signer2]").unwrap();
    w.et();
    b.add_page(PageSpec::new(PageGeom::letter(), res, w.finish()))
        .unwrap();
    b.finish("clipped", "clip test").unwrap().pdf
}

#[test]
fn a_tag_outside_the_clip_is_not_reported_visible() {
    let pdf = clipped_page();
    let doc = Document::from_bytes(&pdf, &LoadOptions::default()).unwrap();
    let scan = Scanner::new().dialects(Dialects::all()).scan(&doc).unwrap();
    let raws: Vec<&str> = scan
        .vendor_tags
        .as_deref()
        .unwrap()
        .iter()
        .map(|t| t.raw.as_str())
        .collect();
    // Clipped tags are still read (the vendor would read them too).
    assert_eq!(raws.len(), 4, "{raws:?}");
    let visible: Vec<&str> = scan
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::VendorTagVisible)
        .filter_map(|d| d.tag.as_deref())
        .collect();
    assert_eq!(visible, ["[text|req|signer1]", "[text|noreq|signer2]"]);
}

/// DocuSeal tags wrapping in a table of two columns
/// (`testdata/migrate/docuseal_table.pdf`): each is one
/// `vendor_tag_split_across_lines` finding with its own pieces, paired by
/// column, never by text order (row 1 is drawn line by line across the
/// columns, page 2's continuations right column first), over three lines,
/// and over the page break; none is dropped.
#[test]
fn wrapped_tags_in_table_columns_are_paired_by_column_and_page() {
    let fx = signprep_testgen::migrate_contract("docuseal_table").unwrap();
    let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).unwrap();
    let scan = Scanner::new().dialects(Dialects::all()).scan(&doc).unwrap();
    let split: Vec<(usize, &str, &str)> = scan
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::VendorTagSplitAcrossLines)
        .map(|d| {
            (
                d.page.unwrap_or(usize::MAX),
                d.tag.as_deref().unwrap_or_default(),
                d.message.as_str(),
            )
        })
        .collect();
    let tags: Vec<(usize, &str)> = split.iter().map(|(p, t, _)| (*p, *t)).collect();
    assert_eq!(
        tags,
        [
            (0, "{{ClientSignature;type=signature;role=Client}}"),
            (0, "{{SigningDate;type=date;role=Client}}"),
            (0, "{{WitnessSignature;type=signature;role=Witness}}"),
            (0, "{{ClientInitials;type=initials;role=Client}}"),
            (0, "{{CompanyName;type=text;role=Client}}"),
        ],
        "{split:#?}"
    );
    let message = |tag: &str| {
        split
            .iter()
            .find(|(_, t, _)| *t == tag)
            .map(|(_, _, m)| m.to_string())
            .unwrap_or_default()
    };
    let three = message("{{WitnessSignature;type=signature;role=Witness}}");
    assert!(
        three.contains("is broken over 3 lines: `{{WitnessSig` (page 1 at ")
            && three.contains("then `nature;type=signa` (page 1 at ")
            && three.contains("then `ture;role=Witness}}` (page 1 at "),
        "{three}"
    );
    let right = message("{{CompanyName;type=text;role=Client}}");
    assert!(
        right.contains("is broken across a page break: `{{Company` (page 1 at (")
            && right.contains("then `Name;type=text;role=Client}}` (page 2 at (320.0, "),
        "{right}"
    );
    let left = message("{{ClientInitials;type=initials;role=Client}}");
    assert!(
        left.contains("then `tials;type=initials;role=Client}}` (page 2 at (72.0, "),
        "{left}"
    );
    // The one tag on a line of its own is a field.
    let placed: Vec<&str> = scan
        .vendor_tags
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(|t| t.raw.as_str())
        .collect();
    assert_eq!(placed, ["{{Seller;type=signature;role=Seller}}"]);
}
