//! A manifest over a folder of 100 generated PDFs builds a pack whose Base64
//! payloads decode to the original bytes, in file-name order.
//!
//! Memory (a note, not a timed test): children are read, scanned and encoded one
//! at a time (`PackBuilder::build` drops each PDF's bytes once encoded), so a
//! build holds one PDF plus the pack, which is the size of the output; the CLI
//! then streams the pack into the output file without another copy.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_pack::{Manifest, SeededIds};

#[test]
fn hundred_pdfs_round_trip_through_base64() {
    let dir = tempfile::tempdir().unwrap();
    let contracts = dir.path().join("contracts");
    std::fs::create_dir(&contracts).unwrap();
    let mut originals = Vec::new();
    for i in 0..100 {
        let bytes = signprep_testgen::example::numbered_contract(i).unwrap();
        let name = format!("contract_{i:03}");
        std::fs::write(contracts.join(format!("{name}.pdf")), &bytes).unwrap();
        originals.push((name, bytes));
    }
    std::fs::write(contracts.join("notes.txt"), "not matched").unwrap();
    let manifest = Manifest::from_toml(
        r#"
        name = "Bulk"
        [[signers]]
        handle = "ann"
        email = "ann@example.com"
        [[fields]]
        match = "SIG_*"
        signer = "ann"
        [[documents]]
        path = "contracts/*.pdf"
        "#,
    )
    .unwrap();
    let built = manifest
        .builder(dir.path(), "bulk.toml")
        .ids(SeededIds::new(1))
        .build()
        .unwrap();
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    let docs = built.output.documents.unwrap();
    assert_eq!(docs.len(), 100);
    let uuid = built.output.signatories.unwrap()[0].uuid.clone();
    for (doc, (name, bytes)) in docs.iter().zip(&originals) {
        assert_eq!(doc.document_name.as_deref(), Some(name.as_str()));
        let settings = &doc.document_creation_settings;
        assert_eq!(settings.kind(), signprep_pack::ChildKind::TagSyntax);
        assert_eq!(
            &settings.base64().unwrap().decode().unwrap(),
            bytes,
            "{name}"
        );
        let fields = doc.data_fields.as_deref().unwrap();
        assert_eq!(fields.len(), 1);
        assert_eq!(fields[0].custom_id.as_deref(), Some("SIG_1"));
        assert_eq!(fields[0].signatory_uuid, uuid);
    }
}
