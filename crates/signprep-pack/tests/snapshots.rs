//! Snapshots of the bodies: each child variant, a whole pack, the v0 create
//! requests and the populate request. Review changes with `cargo insta review`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;
use signprep_pack::{
    Base64Pdf, ChildDocument, ChildSpec, CreationSettings, FieldSpec, MailSettings, PackBuilder,
    PackCcRecipient, PackDataField, SeededIds, SignerSpec, SigningSettings,
};
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/example")
        .join(name)
}

/// Base64 payloads replaced by their decoded length and first bytes, so that the
/// snapshot shows the structure, not kilobytes of text.
fn redact(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "base_64_document"
                    && let Some(s) = x.as_str()
                {
                    let bytes = Base64Pdf::from_base64(s.to_string()).decode().unwrap();
                    let head = String::from_utf8_lossy(&bytes[..8.min(bytes.len())]).into_owned();
                    *x = format!("[base64 of {} bytes starting {head:?}]", bytes.len()).into();
                } else if k == "upload"
                    && let Some(s) = x.as_str()
                {
                    *x = s.rsplit("testdata/").next().unwrap_or(s).into();
                } else {
                    redact(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(redact),
        _ => {}
    }
}

fn child(settings: CreationSettings) -> ChildDocument {
    ChildDocument {
        document_name: Some("Contract".into()),
        document_creation_settings: settings,
        data_fields: Some(vec![PackDataField {
            custom_id: Some("SIG_1".into()),
            data: None,
            signatory_uuid: Some("3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11".into()),
            extra: Default::default(),
        }]),
        key: None,
        serve_pdf_url: None,
        extra: Default::default(),
    }
}

#[test]
fn child_variants() {
    let pdf = Base64Pdf::encode(b"%PDF-1.7\n%%EOF\n");
    insta::assert_json_snapshot!(
        "child_template",
        child(CreationSettings::template("TPL_KEY"))
    );
    insta::assert_json_snapshot!(
        "child_template_workspace_defaults",
        child(CreationSettings::template("TPL_KEY").with_workspace_defaults(true))
    );
    insta::assert_json_snapshot!(
        "child_tag_syntax",
        child(CreationSettings::tag_syntax(pdf.clone()))
    );
    insta::assert_json_snapshot!(
        "child_form_field_base64",
        child(CreationSettings::form_field(pdf))
    );
    insta::assert_json_snapshot!(
        "child_form_field_url",
        child(
            CreationSettings::form_field_url("https://example.invalid/form.pdf")
                .with_workspace_defaults(false)
        )
    );
}

fn builder() -> PackBuilder {
    PackBuilder::new("Acme onboarding")
        .ids(SeededIds::new(2025))
        .auto_request_signatures(true)
        .signer(
            SignerSpec::new("client")
                .name("Ann Client")
                .email("ann@example.com")
                .mobile_number("+447700900123"),
        )
        .signer(
            SignerSpec::new("acme")
                .name("Bob Acme")
                .email("bob@acme.example"),
        )
        .cc(PackCcRecipient {
            email: Some("legal@acme.example".into()),
            name: Some("Acme legal".into()),
            can_track_progress: Some(true),
            ..Default::default()
        })
        .mail_settings(MailSettings {
            subject: Some("Please sign".into()),
            sender_name: Some("Acme".into()),
            ..Default::default()
        })
        .signing_settings(SigningSettings {
            sequential_signing: Some(true),
            ..Default::default()
        })
        .field(FieldSpec::matching("*_CLIENT").signer("client"))
        .field(FieldSpec::matching("*_COMPANY").signer("acme"))
        .field(FieldSpec::new("CLIENT_NAME").data("Ann Client"))
        .document(ChildSpec::pdf(example("contracts/nda.pdf")))
        .document(
            ChildSpec::pdf(example("forms/onboarding.pdf"))
                .name("Client onboarding")
                .field(FieldSpec::new("client_signature").signer("client")),
        )
        .document(
            ChildSpec::template("Pricing", "TPL_PRICING")
                .field(FieldSpec::new("discount").data("10%")),
        )
}

#[test]
fn whole_pack() {
    let built = builder().build().unwrap();
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    let mut v = serde_json::to_value(&built.output).unwrap();
    redact(&mut v);
    insta::assert_json_snapshot!("pack", v);
}

#[test]
fn v0_create_requests() {
    let built = builder().build_v0().unwrap();
    let codes: Vec<&str> = built.warnings.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(
        codes,
        ["setting_dropped", "document_without_tags", "v0_needs_pdf"]
    );
    let mut v = serde_json::to_value(&built.output).unwrap();
    redact(&mut v);
    insta::assert_json_snapshot!("v0_requests", v);
}

#[test]
fn populate_request() {
    let built = builder().build_populate("TPL_PRICING").unwrap();
    let codes: Vec<&str> = built.warnings.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "populate_ignored",
            "populate_ignored",
            "populate_ignored",
            "setting_dropped"
        ]
    );
    insta::assert_json_snapshot!("populate_request", built.output);
}
