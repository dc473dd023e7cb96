//! DocuSign anchors end to end: the `vendor_docusign` fixture's envelope
//! definition read by `AnchorFile`, its anchors found by the core's scanner
//! with the text box and field box the generator worked out independently
//! (within 0.5 pt), DocuSign's matching rules each seen in the result, and
//! the migration placing fields on the field boxes for the file's recipients.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Code, Document, LoadOptions, Scan, Scanner, VendorTag};
use signprep_pack::{AnchorFile, Migrator, SignerMap};
use signprep_testgen::Expect;
use std::path::Path;

const TOL: f64 = 0.5;

fn anchors() -> AnchorFile {
    let mut f = AnchorFile::new();
    f.add_file(
        Path::new("vendor_docusign.envelope.json"),
        signprep_testgen::docusign_envelope().as_bytes(),
    )
    .unwrap();
    f
}

fn scan() -> Scan {
    let fx = signprep_testgen::fixture("vendor_docusign").unwrap();
    let doc = Document::from_bytes(&fx.pdf, &LoadOptions::default()).unwrap();
    Scanner::new()
        .fields(false)
        .anchors(anchors().anchors)
        .scan(&doc)
        .unwrap()
}

fn tags(scan: &Scan) -> Vec<VendorTag> {
    scan.vendor_tags.clone().unwrap_or_default()
}

#[test]
fn anchors_match_the_generators_boxes() {
    let fx = signprep_testgen::fixture("vendor_docusign").unwrap();
    let want = fx
        .expect_typed()
        .map(|e: Expect| e.vendor_tags)
        .unwrap()
        .unwrap();
    let scan = scan();
    let got = tags(&scan);
    let raws = |v: Vec<&str>| v.join(" ");
    assert_eq!(
        raws(got.iter().map(|t| t.raw.as_str()).collect()),
        raws(want.iter().map(|t| t.raw.as_str()).collect())
    );
    let mut failures = Vec::new();
    for (g, w) in got.iter().zip(&want) {
        let off = scan.pages[g.page].y_offset;
        let f = g.field.expect("every anchor tab has a field box");
        let wf = w.field.expect("the oracle has one too");
        let ok = g.dialect.as_str() == "docusign"
            && g.page == w.page
            && g.hidden == w.hidden
            && (g.x - w.x).abs() <= TOL
            && (g.y - off - w.y).abs() <= TOL
            && (g.width - w.width).abs() <= TOL
            && (g.height - w.height).abs() <= TOL
            && (f.x - wf.x).abs() <= TOL
            && (f.y - off - wf.y).abs() <= TOL
            && (f.width - wf.width).abs() <= TOL
            && (f.height - wf.height).abs() <= TOL;
        if !ok {
            failures.push(format!("got {g:?}\n    expected {w:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let visible = scan
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::VendorTagVisible)
        .count();
    assert_eq!(visible, want.iter().filter(|t| !t.hidden).count());
}

#[test]
fn docusigns_matching_rules_each_show() {
    let scan = scan();
    let got = tags(&scan);
    let on = |raw: &str| -> Vec<usize> {
        got.iter()
            .filter(|t| t.raw == raw)
            .map(|t| t.page)
            .collect()
    };
    // Every occurrence on every page.
    assert_eq!(on("/sn1/"), [0, 1]);
    // Case-insensitive by default: `/fullname/` finds `/FullName/` (raw is the document's text).
    assert_eq!(on("/FullName/"), [0]);
    // Case-sensitive when asked: `/TITLE/` does not find `/Title/`.
    assert!(on("/Title/").is_empty() && on("/TITLE/").is_empty());
    // Whole word: the `sig2` inside `redesignsig2ed` is not an anchor.
    assert_eq!(on("sig2"), [0]);
    // Not whole word: `init3` inside `preinit3x` is.
    assert_eq!(on("init3"), [0]);
    // A missing anchor is reported unless the tab says to ignore it.
    let missing: Vec<&str> = scan
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::VendorAnchorNotFound)
        .filter_map(|d| d.tag.as_deref())
        .collect();
    assert_eq!(missing, ["/missing/"]);
    // Attributes: kinds, signers, roles, labels, choices.
    let row = |raw: &str| {
        let t = got.iter().find(|t| t.raw == raw).unwrap();
        let a = &t.attributes;
        format!(
            "{} {} {} {} {} {}",
            a.field_type,
            a.kind,
            a.signer.as_deref().unwrap_or("-"),
            a.required,
            a.name.as_deref().unwrap_or("-"),
            a.options.join("|")
        )
    };
    let rows: Vec<String> = got.iter().map(|t| row(&t.raw)).collect();
    insta::assert_snapshot!(rows.join("\n"));
}

#[test]
fn migrate_places_fields_on_the_field_boxes_for_the_files_recipients() {
    let fx = signprep_testgen::fixture("vendor_docusign").unwrap();
    let mut signers = SignerMap::new();
    // A role name in the signer map wins over the file's email.
    signers
        .add_arg("Seller=Other Seller <other@example.com>")
        .unwrap();
    let migrated = Migrator::new(signers).anchors(anchors()).migrate_pdf(
        &fx.pdf,
        Some("vendor_docusign.pdf"),
        "vendor_docusign",
    );
    let plan = migrated.plan.as_ref().expect("a plan");
    let body = &plan.requests[0].body;
    let people: Vec<String> = body
        .signatories
        .as_ref()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s.role.as_deref().unwrap_or("-"),
                s.email.as_deref().unwrap_or("-")
            )
        })
        .collect();
    assert_eq!(
        people,
        [
            "Buyer bea@example.com",
            "Seller other@example.com",
            "Witness ina@example.com"
        ]
    );
    // The buyer's signature lands on the sign-here tab's box, not on the 2.25 pt anchor.
    let scan = scan();
    let sn1 = tags(&scan).into_iter().find(|t| t.raw == "/sn1/").unwrap();
    let field = sn1.field.unwrap();
    let sig = &body.data_fields.as_ref().unwrap()[0];
    assert_eq!(
        (sig.kind.as_deref(), sig.x, sig.y, sig.width, sig.height),
        (
            Some("signature"),
            Some(field.x),
            Some(field.y),
            Some(field.width),
            Some(field.height)
        )
    );
    let codes: Vec<String> = migrated
        .findings
        .iter()
        .map(|f| format!("{} {}", f.code.as_str(), f.tag.as_deref().unwrap_or("-")))
        .collect();
    insta::assert_snapshot!(codes.join("\n"));
    insta::assert_json_snapshot!(plan);
}
