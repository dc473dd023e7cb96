//! `round_trip` on scans built by hand: which scanned tag learns which
//! place, and which template tags are reported lost (with the page of what
//! the PDF kept of them).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{
    Code, Diagnostic, Dialect, Dialects, FieldBox, Scan, SourcePart, Tag, VendorTag,
};
use signprep_template::{Format, Template, round_trip};
use std::path::Path;

fn template(name: &str) -> Template {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/templates")
        .join(name);
    let bytes = std::fs::read(&path).expect("the fixture exists (signprep-testgen --templates)");
    Template::read(&bytes, Format::from_path(&path).expect("extension")).expect("reads")
}

fn tag(id: &str, page: usize) -> Tag {
    Tag::new(id, format!("<# {id} #>"), page)
}

fn places(scan: &Scan) -> Vec<String> {
    scan.tags
        .iter()
        .map(|t| {
            format!(
                "page {} {} <- {}",
                t.page,
                t.raw,
                t.source
                    .as_ref()
                    .map_or("(none)".to_string(), |p| p.to_string())
            )
        })
        .collect()
}

fn lost(scan: &Scan) -> Vec<&Diagnostic> {
    scan.diagnostics
        .iter()
        .filter(|d| d.code == Code::TemplateTagLost)
        .collect()
}

#[test]
fn every_tag_found_learns_its_place_and_headers_repeat() {
    let t = template("docx_places.docx");
    let mut scan = Scan::default();
    // As LibreOffice draws docx_places over two pages: the header and footer
    // on each, the text box last; the converter spaced one tag differently.
    for (id, page) in [
        ("HEADER_1", 0),
        ("BODY_1", 0),
        ("CELL_1_3", 0),
        ("CELL_2_2", 0),
        ("CELL_2_3", 0),
        ("FOOTNOTE_1", 0),
        ("FOOTER_1", 0),
        ("TEXTBOX_1", 0),
        ("ENDNOTE_1", 1),
        ("HEADER_1", 1),
        ("BODY_2", 1),
        ("FOOTER_1", 1),
    ] {
        scan.tags.push(tag(id, page));
    }
    if let Some(t) = scan.tags.get_mut(1) {
        t.raw = "<#BODY_1  #>".to_string();
    }
    round_trip(&t, Dialects::NONE, &mut scan);
    assert!(lost(&scan).is_empty(), "{:?}", lost(&scan));
    assert!(scan.tags.iter().all(|t| t.source.is_some()));
    insta::assert_snapshot!("round_trip_docx_places", places(&scan).join("\n"));
    let header_pages: Vec<usize> = scan
        .tags
        .iter()
        .filter(|t| {
            t.source
                .as_ref()
                .is_some_and(|p| p.part == SourcePart::Header)
        })
        .map(|t| t.page)
        .collect();
    assert_eq!(header_pages, [0, 1]);
}

#[test]
fn tags_missing_or_broken_in_the_pdf_are_lost() {
    let t = template("docx_places.docx");
    let mut scan = Scan::default();
    for id in [
        "HEADER_1",
        "BODY_1",
        "CELL_1_3",
        "CELL_2_2",
        "FOOTNOTE_1",
        "FOOTER_1",
        "TEXTBOX_1",
        "ENDNOTE_1",
    ] {
        scan.tags.push(tag(id, 0));
    }
    // BODY_2 wrapped over two lines on page 2; CELL_2_3 nowhere.
    scan.diagnostics.push(
        Diagnostic::new(
            Code::TagUnterminated,
            "page 2: tag `<# BODY_ 2 #>` is broken across lines",
        )
        .page(1)
        .tag("BODY_ 2"),
    );
    round_trip(&t, Dialects::NONE, &mut scan);
    let lost: Vec<String> = lost(&scan)
        .iter()
        .map(|d| format!("{:?} {}", d.page, d.message))
        .collect();
    insta::assert_snapshot!("round_trip_lost", lost.join("\n"));
    let body_2 = scan
        .diagnostics
        .iter()
        .find(|d| d.tag.as_deref() == Some("BODY_2"))
        .expect("BODY_2 is lost");
    assert_eq!(body_2.page, Some(1));
    assert_eq!(body_2.source.as_ref().map(|p| p.paragraph), Some(10));
}

#[test]
fn vendor_tags_pair_with_vendor_tags() {
    let t = template("docx_vendor_adobe.docx");
    let mut scan = Scan::default();
    let b = FieldBox {
        x: 0.0,
        y: 0.0,
        width: 10.0,
        height: 10.0,
    };
    // A native tag with the same text is no match for a vendor's.
    scan.vendor_tags = Some(vec![VendorTag::new(
        Dialect::Adobe,
        "{{ Sig_es_:signer1:signature }}",
        0,
        b,
    )]);
    round_trip(&t, Dialects::all(), &mut scan);
    let v = scan
        .vendor_tags
        .as_ref()
        .and_then(|v| v.first())
        .expect("one");
    assert_eq!(v.source.as_ref().map(|p| p.paragraph), Some(2));
    assert!(lost(&scan).is_empty());
    // Without the vendor tag in the scan, it is lost.
    let mut empty = Scan::default();
    round_trip(&t, Dialects::all(), &mut empty);
    assert_eq!(lost(&empty).len(), 1);
}

#[test]
fn hidden_and_commented_tags_are_not_expected_in_the_pdf() {
    let t = template("docx_comment.docx");
    let mut scan = Scan::default();
    scan.tags.push(tag("COMMENTED_1", 0));
    scan.tags.push(tag("PLAIN_1", 0));
    round_trip(&t, Dialects::NONE, &mut scan);
    assert!(
        lost(&scan).is_empty(),
        "the comment's own tag is not expected"
    );

    let t = template("docx_tracked_deletion.docx");
    let mut scan = Scan::default();
    // LibreOffice draws the deletion struck through: the tag is there.
    scan.tags.push(tag("DELETED_1", 0));
    scan.tags.push(tag("SIGN_OLD_NEW", 0));
    scan.tags.push(tag("KEPT_1", 0));
    round_trip(&t, Dialects::NONE, &mut scan);
    let deleted = scan.tags.first().and_then(|t| t.source.clone());
    assert_eq!(
        deleted.map(|p| p.paragraph),
        Some(2),
        "a drawn deletion gets its place"
    );
    let lost: Vec<Option<&str>> = lost(&scan).iter().map(|d| d.tag.as_deref()).collect();
    assert_eq!(lost, [Some("SIGN_NEW")]);
}
