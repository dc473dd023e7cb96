//! The pre-flight rules through the library: what the CLI fixtures do not show.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::Severity;
use signprep_pack::{Checker, Finding, InputKind, read_template};
use std::path::Path;

fn found(checked: &[Finding]) -> Vec<(String, Option<String>, Severity)> {
    checked
        .iter()
        .map(|f| (f.code.to_string(), f.pointer.clone(), f.severity))
        .collect()
}

#[test]
fn populate_keys_without_a_template_are_only_suspicious() {
    let body = br#"{"signer_0_email": "ann@example.com", "signer_01_name": "Ann", "FEE": "100"}"#;
    let checked = Checker::new().check_bytes(body, Path::new("copy.json"), None);
    assert_eq!(checked.kind, Some(InputKind::Populate));
    assert_eq!(
        found(&checked.findings),
        [(
            "populate_key_unknown".into(),
            Some("/signer_01_name".into()),
            Severity::Warning
        )]
    );
}

#[test]
fn populate_keys_with_a_template_are_checked_against_it() {
    let template = read_template(
        r#"{"data": {"document": {"key": "TPL", "signatories": [{"role": "Client"}],
            "data_fields": [{"custom_id": "FEE", "type": "text"}]}}}"#,
    )
    .unwrap();
    let checker = Checker::new().template(template);
    let body = br#"{"signer_0_email": "ann@example.com", "signer_1_email": "bob@example.com", "FEES": "100"}"#;
    let checked = checker.check_bytes(body, Path::new("copy.json"), Some(InputKind::Populate));
    let codes: Vec<(String, Option<String>, Severity)> = found(&checked.findings);
    assert_eq!(
        codes,
        [
            (
                "populate_key_unknown".into(),
                Some("/FEES".into()),
                Severity::Error
            ),
            (
                "populate_key_unknown".into(),
                Some("/signer_1_email".into()),
                Severity::Error
            ),
        ]
    );
    assert_eq!(
        checked.findings[0].hint.as_deref(),
        Some("did you mean `FEE`? the template's fields: FEE")
    );
}

#[test]
fn manifest_findings_point_into_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("contract.pdf"),
        signprep_testgen::example::numbered_contract(1).unwrap(),
    )
    .unwrap();
    // CLIENT_NAME is no tag of the PDF: reported at the document's own field.
    // SIG_1 is a signature tag: a value on it is reported at the pack-wide
    // field that put it there.
    let manifest = r#"
name = "P"
[[signers]]
handle = "ann"
email = "ann@example.com"
[[fields]]
custom_id = "SIG_1"
data = "Ann"
signer = "ann"
[[documents]]
path = "contract.pdf"
[[documents.fields]]
custom_id = "DATE_1"
data = "today"
[[documents.fields]]
custom_id = "CLIENT_NAME"
data = "Ann"
"#;
    let path = dir.path().join("pack.toml");
    std::fs::write(&path, manifest).unwrap();
    let checked = Checker::new().check_file(&path, None).unwrap();
    assert_eq!(checked.kind, Some(InputKind::Manifest));
    let got = found(&checked.findings);
    assert_eq!(
        got,
        [
            // It carries a value the service would drop: an error.
            (
                "custom_id_not_in_document".into(),
                Some("/documents/0/fields/1".into()),
                Severity::Error
            ),
            (
                "data_for_signature_field".into(),
                Some("/fields/0/data".into()),
                Severity::Warning
            ),
        ],
        "{:#?}",
        checked.findings
    );
    assert!(
        checked.findings[0]
            .file
            .as_deref()
            .is_some_and(|f| f.ends_with("contract.pdf"))
    );

    // Without CLIENT_NAME: the value on the signature is all that is left.
    let fixed = manifest.replace(
        "[[documents.fields]]\ncustom_id = \"CLIENT_NAME\"\ndata = \"Ann\"\n",
        "",
    );
    std::fs::write(&path, fixed).unwrap();
    let checked = Checker::new().check_file(&path, None).unwrap();
    assert_eq!(
        found(&checked.findings),
        [(
            "data_for_signature_field".into(),
            Some("/fields/0/data".into()),
            Severity::Warning
        )],
        "{:#?}",
        checked.findings
    );
}

#[test]
fn subscriptions_may_use_http_but_not_localhost() {
    let body = br#"{"client_id": "I", "client_secret": "S",
                    "subscription": {"entity_key": "DOC", "callback": "http://[::1]:8080/cb"}}"#;
    let checked = Checker::new().check_bytes(body, Path::new("sub.json"), None);
    assert_eq!(checked.kind, Some(InputKind::Subscription));
    assert_eq!(
        found(&checked.findings),
        [
            (
                "callback_not_https".into(),
                Some("/subscription/callback".into()),
                Severity::Warning
            ),
            (
                "callback_localhost".into(),
                Some("/subscription/callback".into()),
                Severity::Error
            ),
        ]
    );
}

#[test]
fn mobile_numbers_that_deliver_the_request_are_errors() {
    let body = br#"{"document_pack_name": "P", "signatories": [
        {"name": "Ann", "mobile_number": "07700 900123", "primary_communication_channel": "sms"}],
        "documents": [{"document_name": "T", "document_creation_settings": {"create_from_template_key": "K"}}]}"#;
    let checked = Checker::new().check_bytes(body, Path::new("p.json"), None);
    let got = found(&checked.findings);
    assert!(got.contains(&(
        "mobile_not_international".into(),
        Some("/signatories/0/mobile_number".into()),
        Severity::Error
    )));
    assert!(got.contains(&(
        "role_missing_for_template".into(),
        Some("/signatories/0".into()),
        Severity::Warning
    )));
}

#[test]
fn json_manifests_are_detected_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pack.json");
    std::fs::write(
        &path,
        r#"{"name": "P", "signers": [{"handle": "ann", "email": "ann@example"}],
            "documents": [{"template": "TPL", "fields": [{"custom_id": "FEE", "data": "1"}]}]}"#,
    )
    .unwrap();
    let checked = Checker::new().check_file(&path, None).unwrap();
    assert_eq!(checked.kind, Some(InputKind::Manifest));
    let got = found(&checked.findings);
    assert_eq!(
        got,
        [
            (
                "email_invalid".into(),
                Some("/signers/0/email".into()),
                Severity::Error
            ),
            (
                "role_missing_for_template".into(),
                Some("/signers/0".into()),
                Severity::Warning
            ),
        ]
    );
}
