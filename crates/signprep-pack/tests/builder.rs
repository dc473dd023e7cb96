//! PackBuilder and manifests: structural rules, every problem at once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_pack::{
    Channel, ChildKind, ChildSpec, Error, FieldSpec, Finding, LenientPack, Manifest, PackBuilder,
    PackCode, PackPlace, PdfKind, SeededIds, SignerSpec,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(root().join("testdata/fixtures").join(name)).unwrap()
}

fn example(name: &str) -> PathBuf {
    root().join("testdata/example").join(name)
}

fn codes(findings: &[Finding]) -> BTreeSet<String> {
    findings.iter().map(|f| f.code.to_string()).collect()
}

fn ann() -> SignerSpec {
    SignerSpec::new("ann").name("Ann").email("ann@example.com")
}

#[test]
fn build_reports_every_problem_at_once() {
    let err = PackBuilder::new(" ")
        .ids(SeededIds::new(1))
        .signer(ann().uuid("3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11"))
        .signer(SignerSpec::new("bob").uuid("3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11"))
        .signer(
            SignerSpec::new("bob")
                .uuid("not-a-uuid")
                .channel(Channel::parse("fax")),
        )
        .document(
            ChildSpec::pdf_bytes("contract", fixture("base14_courier.pdf"))
                .field(FieldSpec::new("SIG_1").signer("carol"))
                .field(FieldSpec::new("SIG_2"))
                .field(FieldSpec::new("NOPE").data("x"))
                .field(FieldSpec::new("SIG_1").signer_uuid("00000000-0000-4000-8000-000000000000")),
        )
        .document(ChildSpec::pdf_bytes("not a pdf", b"hello".to_vec()))
        .document(ChildSpec::pdf_bytes("empty", fixture("no_tags.pdf")))
        .document(ChildSpec::pdf("/nonexistent/x.pdf"))
        .field(FieldSpec::matching("[").data("x"))
        .build()
        .unwrap_err();
    let expected: BTreeSet<String> = [
        "pack_name_missing",
        "signer_uuid_duplicate",
        "signer_uuid_invalid",
        "signer_handle_duplicate",
        "channel_unknown",
        "data_field_signer_unknown",
        "data_field_empty",
        "custom_id_not_in_document",
        "data_field_duplicate",
        "pdf_unreadable",
        "document_kind_unknown",
        "io_error",
        "pattern_invalid",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(codes(&err.findings), expected, "{:#?}", err.findings);
    let unknown = err
        .findings
        .iter()
        .find(|f| f.code.as_str() == "data_field_signer_unknown")
        .unwrap();
    assert_eq!(
        unknown.pointer.as_deref(),
        Some("/documents/0/data_fields/0/signatory_uuid")
    );
    let not_pdf = err
        .findings
        .iter()
        .find(|f| f.code.as_str() == "pdf_unreadable")
        .unwrap();
    assert_eq!(not_pdf.pointer.as_deref(), Some("/documents/1"));
    let errors = err.findings.iter().filter(|f| f.is_error()).count();
    assert!(
        err.to_string()
            .starts_with(&format!("{errors} error(s) in the pack; first: error["))
    );
}

#[test]
fn kinds_are_detected_from_the_scan_and_can_be_overridden() {
    let built = PackBuilder::new("P")
        .signer(ann())
        .document(ChildSpec::pdf(example("contracts/nda.pdf")))
        .document(ChildSpec::pdf(example("forms/onboarding.pdf")))
        .document(ChildSpec::pdf(example("contracts/services.pdf")).kind(PdfKind::FormField))
        .document(ChildSpec::url("remote", "https://example.invalid/f.pdf"))
        .document(ChildSpec::template("t", "TPL"))
        .build()
        .unwrap();
    let docs = built.output.documents.unwrap();
    let kinds: Vec<ChildKind> = docs
        .iter()
        .map(|d| d.document_creation_settings.kind())
        .collect();
    use ChildKind::*;
    assert_eq!(
        kinds,
        [TagSyntax, FormField, FormField, FormField, Template]
    );
    assert_eq!(docs[0].document_name.as_deref(), Some("nda"));
    // the forced form-field child has no form field: a warning, not an error
    assert_eq!(
        codes(&built.warnings),
        BTreeSet::from(["document_without_form_fields".to_string()])
    );
}

#[test]
fn signer_uuids_are_generated_and_reproducible() {
    let make = || {
        PackBuilder::new("P")
            .ids(SeededIds::new(9))
            .signer(ann())
            .signer(SignerSpec::new("bob").email("bob@example.com"))
            .document(ChildSpec::template("t", "TPL"))
            .build()
            .unwrap()
            .output
    };
    let (a, b) = (make(), make());
    assert_eq!(a, b);
    let sigs = a.signatories.unwrap();
    let u0 = uuid::Uuid::parse_str(sigs[0].uuid.as_deref().unwrap()).unwrap();
    let u1 = uuid::Uuid::parse_str(sigs[1].uuid.as_deref().unwrap()).unwrap();
    assert_eq!(u0.get_version_num(), 4);
    assert_ne!(u0, u1);
    // random by default
    let r = PackBuilder::new("P")
        .signer(ann())
        .document(ChildSpec::template("t", "T"))
        .build()
        .unwrap();
    let ru = r.output.signatories.unwrap()[0].uuid.clone().unwrap();
    assert_eq!(uuid::Uuid::parse_str(&ru).unwrap().get_version_num(), 4);
}

#[test]
fn pack_wide_fields_go_where_their_tags_are() {
    let built = PackBuilder::new("P")
        .ids(SeededIds::new(2))
        .signer(ann())
        .signer(SignerSpec::new("acme").email("a@acme.example"))
        .document(ChildSpec::pdf(example("contracts/nda.pdf")))
        .document(ChildSpec::pdf(example("contracts/services.pdf")))
        .field(FieldSpec::matching("*_CLIENT").signer("ann"))
        .field(FieldSpec::new("FEE").data("100"))
        .field(FieldSpec::new("NOWHERE").data("x"))
        .build()
        .unwrap();
    let docs = built.output.documents.as_ref().unwrap();
    let ids = |i: usize| -> Vec<String> {
        docs[i]
            .data_fields
            .iter()
            .flatten()
            .map(|f| f.custom_id.clone().unwrap())
            .collect()
    };
    assert_eq!(ids(0), ["SIG_CLIENT", "DATE_CLIENT"]);
    assert_eq!(ids(1), ["SIG_CLIENT", "FEE"]);
    let w: Vec<&str> = built.warnings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        w,
        ["pack-wide field `NOWHERE` matches no tag or form field of any scanned document"]
    );
}

#[test]
fn workspace_defaults_rules() {
    let built = PackBuilder::new("P")
        .signer(ann())
        .document(ChildSpec::template("a", "A").use_workspace_defaults(true))
        .document(ChildSpec::template("b", "B"))
        .build()
        .unwrap();
    assert_eq!(
        codes(&built.warnings),
        [
            "workspace_defaults_mixed",
            "workspace_defaults_without_team"
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    );
    let ok = PackBuilder::new("P")
        .team_key("TEAM")
        .use_workspace_defaults(true)
        .signer(ann())
        .document(ChildSpec::template("a", "A"))
        .document(ChildSpec::template("b", "B"))
        .build()
        .unwrap();
    assert!(ok.warnings.is_empty());
    let json = serde_json::to_value(&ok.output).unwrap();
    assert_eq!(
        json["documents"][1]["document_creation_settings"]["use_workspace_default_document_settings"],
        true
    );
}

#[test]
fn manifest_problems_are_located_in_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"
        name = "P"
        [[signers]]
        handle = "ann"
        email = "ann@example.com"
        [mail]
        subjetc = "typo"
        [tag_types]
        "SIG_*" = "Signature"
        [[fields]]
        custom_id = "A"
        match = "B*"
        [[documents]]
        path = "missing/*.pdf"
        [[documents]]
        template = "T"
        url = "https://example.invalid"
        [[documents]]
        template = "T2"
        [[documents.fields]]
        custom_id = "x"
        signer = "bob"
    "#;
    let m = Manifest::from_toml(text).unwrap();
    let err = m.builder(dir.path(), "pack.toml").build().unwrap_err();
    let got: Vec<(String, Option<String>, Option<String>)> = err
        .findings
        .iter()
        .map(|f| (f.code.to_string(), f.pointer.clone(), f.file.clone()))
        .collect();
    let m = |c: &str, p: &str| {
        (
            c.to_string(),
            Some(p.to_string()),
            Some("pack.toml".to_string()),
        )
    };
    assert_eq!(
        got,
        [
            m("manifest_key_unknown", "/mail/subjetc"),
            m("manifest_tag_type_invalid", "/tag_types/SIG_*"),
            m("manifest_field_id", "/fields/0"),
            m("manifest_no_match", "/documents/0/path"),
            m("manifest_document_source", "/documents/1"),
            (
                "data_field_signer_unknown".to_string(),
                Some("/documents/0/data_fields/0/signatory_uuid".to_string()),
                None
            ),
        ]
    );
}

#[test]
fn manifests_reject_unknown_keys_and_accept_json() {
    let dir = tempfile::tempdir().unwrap();
    let toml_path = dir.path().join("m.toml");
    std::fs::write(&toml_path, "name = \"P\"\nsigner = []\n").unwrap();
    let e = Manifest::load(&toml_path).unwrap_err();
    assert!(matches!(e, Error::ManifestToml { .. }));
    assert!(e.to_string().contains("signer"), "{e}");
    assert_eq!(e.code(), "manifest_invalid");

    let json_path = dir.path().join("m.json");
    std::fs::write(
        &json_path,
        r#"{"name": "P", "documents": [{"template": "T"}], "signers": [{"handle": "a"}]}"#,
    )
    .unwrap();
    let m = Manifest::load(&json_path).unwrap();
    assert_eq!(m.documents[0].template.as_deref(), Some("T"));
    assert!(matches!(
        Manifest::load(&dir.path().join("none.toml")),
        Err(Error::Io { .. })
    ));
}

#[test]
fn tag_type_rules_keep_file_order() {
    let m = Manifest::from_toml(
        "name = \"P\"\n[tag_types]\n\"Z*\" = \"text\"\n\"A*\" = \"signature\"\n",
    )
    .unwrap();
    let order: Vec<&str> = m.tag_types.0.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(order, ["Z*", "A*"]);
}

/// A typed pack converts to the lenient pack a read of its JSON gives, and
/// back: every kind of child (template, tag-syntax, form-field, URL).
#[test]
fn a_typed_pack_is_the_lenient_pack_its_json_reads_as() {
    let built = PackBuilder::new("All kinds")
        .ids(SeededIds::new(3))
        .signer(ann())
        .document(
            ChildSpec::pdf_bytes("tags", fixture("base14_courier.pdf"))
                .field(FieldSpec::matching("SIG_*").signer("ann")),
        )
        .document(ChildSpec::pdf_bytes("form", fixture("form_signature.pdf")))
        .document(ChildSpec::template("Schedule", "TPL"))
        .document(ChildSpec::url("Remote", "https://example.com/a.pdf"))
        .use_workspace_defaults(true)
        .build()
        .unwrap()
        .output;
    let json = serde_json::to_value(&built).unwrap();
    let read: LenientPack = serde_json::from_value(json.clone()).unwrap();
    let lenient = LenientPack::from(built.clone());
    assert_eq!(lenient, read);
    assert_eq!(serde_json::to_value(&lenient).unwrap(), json);
    assert_eq!(lenient.into_typed().unwrap(), built);
}

#[test]
fn findings_name_their_child_and_data_field() {
    let at = |p: &str| {
        Finding::new(PackCode::DataFieldEmpty, "m")
            .at(p)
            .pack_place()
    };
    let place = |document, data_field| {
        Some(PackPlace {
            document,
            data_field,
        })
    };
    assert_eq!(at("/documents/2"), place(2, None));
    assert_eq!(at("/documents/0/document_name"), place(0, None));
    assert_eq!(at("/documents/1/data_fields"), place(1, None));
    assert_eq!(
        at("/documents/1/data_fields/3/custom_id"),
        place(1, Some(3))
    );
    assert_eq!(at("/documents/1/data_fields/-"), place(1, None));
    assert_eq!(at("/documents/01"), None);
    assert_eq!(at("/documents/-"), None);
    assert_eq!(at("/documents"), None);
    assert_eq!(at("/signatories/0"), None);
    assert_eq!(at(""), None);
    // A request plan: request N's body is document N.
    assert_eq!(at("/requests/1/body/data_fields/3/type"), place(1, Some(3)));
    assert_eq!(at("/requests/0/upload"), place(0, None));
    assert_eq!(at("/requests/2/body/signatories/0"), place(2, None));
    assert_eq!(at("/requests"), None);
    assert_eq!(
        Finding::new(PackCode::DataFieldEmpty, "m").pack_place(),
        None
    );
}
