#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use signprep_core::{Dialect, FieldBox, VendorAttributes};

fn tag(
    dialect: Dialect,
    raw: &str,
    kind: &str,
    signer: Option<&str>,
    idx: Option<u32>,
) -> VendorTag {
    let text = FieldBox {
        x: 10.0,
        y: 20.0,
        width: 100.0,
        height: 12.0,
    };
    let mut t = VendorTag::new(dialect, raw, 0, text);
    let mut a = VendorAttributes::default();
    a.field_type = kind.into();
    a.kind = kind.into();
    a.signer = signer.map(str::to_string);
    a.signer_index = idx;
    a.required = true;
    t.attributes = a;
    t.font = "Courier".into();
    t.font_size = 12.0;
    t
}

fn scan(tags: Vec<VendorTag>) -> Scan {
    let mut scan = Scan::default();
    scan.vendor_tags = Some(tags);
    scan
}

fn codes(m: &Migrated) -> Vec<&'static str> {
    m.findings.iter().map(|f| f.code.as_str()).collect()
}

#[test]
fn types_are_mapped_or_reported_and_signers_linked() {
    let mut signers = SignerMap::new();
    signers.add_arg("1=a@example.com").unwrap();
    let s = scan(vec![
        tag(
            Dialect::Dropbox,
            "[sig|req|signer1]",
            "signature",
            Some("signer1"),
            Some(1),
        ),
        tag(
            Dialect::Dropbox,
            "[initial|req|signer2]",
            "initials",
            Some("signer2"),
            Some(2),
        ),
        tag(Dialect::Docuseal, "{{Name}}", "text", None, None),
        tag(
            Dialect::Docuseal,
            "{{Who;role=Client}}",
            "name",
            Some("Client"),
            None,
        ),
        tag(
            Dialect::Dropbox,
            "[text-merge|req|sender]",
            "text",
            Some("sender"),
            None,
        ),
    ]);
    let m = Migrator::new(signers).migrate_scan(&s, &[7; 32], Some("a.pdf"), "a");
    assert_eq!(
        codes(&m),
        [
            "migrate_type_unmapped",
            "migrate_signer_defaulted",
            "migrate_field_read_only",
            "migrate_signer_unmapped"
        ]
    );
    let body = &m.plan.as_ref().unwrap().requests[0].body;
    let sigs = body.signatories.as_ref().unwrap();
    // signer1 (from the map, with the defaulted tag), then the role Client.
    let roles: Vec<_> = sigs.iter().map(|s| s.role.as_deref().unwrap()).collect();
    assert_eq!(roles, ["signer1", "Client"]);
    assert_eq!(sigs[0].email.as_deref(), Some("a@example.com"));
    let fields = body.data_fields.as_ref().unwrap();
    let kinds: Vec<_> = fields.iter().map(|f| f.kind.as_deref().unwrap()).collect();
    assert_eq!(kinds, ["signature", "text", "text"]);
    assert_eq!(fields[1].signatory_uuid, sigs[0].uuid);
    assert_eq!(fields[2].signatory_uuid, sigs[1].uuid);
    assert_eq!(
        m.summary,
        MigrateSummary {
            files: 1,
            tags: 5,
            placed: 3,
            left_out: 2,
            signers: 2,
            signers_without_email: 1,
            failed: 0
        }
    );
}

#[test]
fn uuids_depend_on_the_pdf_and_the_signer_only() {
    let s = scan(vec![tag(
        Dialect::Adobe,
        "{{S_es_:signer1:signature}}",
        "signature",
        Some("signer1"),
        Some(1),
    )]);
    let uuid = |digest: [u8; 32]| {
        let m = Migrator::new(SignerMap::new()).migrate_scan(&s, &digest, None, "x");
        m.plan.unwrap().requests[0]
            .body
            .signatories
            .as_ref()
            .unwrap()[0]
            .uuid
            .clone()
            .unwrap()
    };
    assert_eq!(uuid([1; 32]), uuid([1; 32]));
    assert_ne!(uuid([1; 32]), uuid([2; 32]));
    assert_eq!(
        uuid::Uuid::parse_str(&uuid([1; 32]))
            .unwrap()
            .get_version_num(),
        4
    );
}

#[test]
fn nothing_to_migrate_is_an_error_and_writes_nothing() {
    let m = Migrator::new(SignerMap::new()).migrate_scan(
        &scan(Vec::new()),
        &[0; 32],
        Some("e.pdf"),
        "e",
    );
    assert_eq!(codes(&m), ["migrate_no_fields"]);
    assert!(m.plan.is_none());
    assert_eq!(m.summary.failed, 1);
    let only_checkbox = scan(vec![tag(
        Dialect::Dropbox,
        "[check|req|signer1]",
        "checkbox",
        Some("signer1"),
        Some(1),
    )]);
    let m = Migrator::new(SignerMap::new()).migrate_scan(&only_checkbox, &[0; 32], None, "c");
    assert_eq!(codes(&m), ["migrate_type_unmapped", "migrate_no_fields"]);
    assert!(
        m.findings[1]
            .message
            .contains("all 1 vendor tags were left out")
    );
}

#[test]
fn a_mapped_choice_carries_its_options() {
    let mut t = tag(
        Dialect::Docuseal,
        "{{Pick;type=select;options=A,B}}",
        "dropdown",
        Some("Client"),
        None,
    );
    t.attributes.options = vec!["A".into(), "B".into()];
    let m = Migrator::new(SignerMap::new())
        .map_type("dropdown", Some("dropdown"))
        .migrate_scan(&scan(vec![t]), &[0; 32], None, "d");
    let plan = m.plan.unwrap();
    let f = &plan.requests[0].body.data_fields.as_ref().unwrap()[0];
    assert_eq!(f.kind.as_deref(), Some("dropdown"));
    assert_eq!(f.options_as_csv.as_deref(), Some("A,B"));
}

#[test]
fn an_unreadable_pdf_is_a_finding() {
    let m = Migrator::new(SignerMap::new()).migrate_pdf(b"not a pdf", Some("bad.pdf"), "bad");
    assert_eq!(codes(&m), ["pdf_unreadable"]);
    assert!(m.plan.is_none());
}

#[test]
fn a_field_box_places_the_field_and_the_text_box_does_not() {
    let mut t = tag(
        Dialect::Signnow,
        "{{t:s;r:y;o:\"CEO\";w:100;h:15;}}",
        "signature",
        Some("CEO"),
        None,
    );
    t.field = Some(FieldBox {
        x: 10.0,
        y: 20.0,
        width: 100.0,
        height: 15.0,
    });
    let m = Migrator::new(SignerMap::new()).migrate_scan(&scan(vec![t]), &[0; 32], None, "d");
    let f = &m.plan.unwrap().requests[0]
        .body
        .data_fields
        .clone()
        .unwrap()[0];
    assert_eq!(
        (f.x, f.y, f.width, f.height),
        (Some(10.0), Some(20.0), Some(100.0), Some(15.0))
    );
}
