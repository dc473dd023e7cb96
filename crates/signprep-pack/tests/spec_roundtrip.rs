//! Each JSON shape of the specification, read and written again, is unchanged
//! (same keys, same values); nothing is reported as unknown; and unknown keys
//! survive a round trip and are reported where they are.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use signprep_pack::{
    CreationSettings, DocumentPack, LenientPack, PopulateBody, UnknownKeys, V0Document, read_pack,
    read_v0_document,
};
use std::path::Path;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/spec")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Numbers compared by value: `72` and `72.0` are the same number.
fn normalise(v: &Value) -> Value {
    match v {
        Value::Number(n) => n.as_f64().map_or(v.clone(), |f| serde_json::json!(f)),
        Value::Array(a) => Value::Array(a.iter().map(normalise).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), normalise(v))).collect())
        }
        _ => v.clone(),
    }
}

fn round_trip<T: Serialize + DeserializeOwned>(name: &str) -> T {
    let text = fixture(name);
    let original: Value = serde_json::from_str(&text).unwrap();
    let typed: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let again = serde_json::to_value(&typed).unwrap();
    assert_eq!(
        normalise(&again),
        normalise(&original),
        "{name} changed in a round trip"
    );
    typed
}

#[test]
fn pack_round_trips_strictly_and_leniently() {
    let pack: DocumentPack = round_trip("pack.json");
    assert!(pack.unknown_keys().is_empty());
    let docs = pack.documents.as_deref().unwrap();
    let kinds: Vec<_> = docs
        .iter()
        .map(|d| d.document_creation_settings.kind())
        .collect();
    use signprep_pack::ChildKind::*;
    assert_eq!(kinds, [Template, TagSyntax, FormField, FormField]);
    assert_eq!(
        docs[3].document_creation_settings.url(),
        Some("https://example.invalid/form.pdf")
    );
    assert_eq!(
        docs[1]
            .document_creation_settings
            .base64()
            .unwrap()
            .decode()
            .unwrap(),
        b"%PDF-1.7\n"
    );

    let lenient: LenientPack = round_trip("pack.json");
    assert!(lenient.findings().is_empty(), "{:?}", lenient.findings());
    assert_eq!(lenient.into_typed().unwrap(), pack);
}

#[test]
fn v0_shapes_round_trip() {
    for name in [
        "v0_document.json",
        "v0_create_tag_flow.json",
        "v0_status_only.json",
    ] {
        let doc: V0Document = round_trip(name);
        assert!(doc.unknown_keys().is_empty(), "{name}");
    }
}

#[test]
fn explicit_nulls_survive() {
    let doc: V0Document = round_trip("v0_document.json");
    let v = serde_json::to_value(&doc).unwrap();
    assert_eq!(v["filename"], Value::Null);
    assert_eq!(v["signatories"][0]["user_key"], Value::Null);
    assert_eq!(v["data_fields"][0]["z"], Value::Null);
    // and absent stays absent
    let small: V0Document = round_trip("v0_create_tag_flow.json");
    let v = serde_json::to_value(&small).unwrap();
    assert!(v.get("filename").is_none());
    assert!(v["data_fields"][1].get("signatory_uuid").is_none());
}

#[test]
fn populate_round_trips() {
    let body: PopulateBody = round_trip("populate.json");
    assert_eq!(body.signers.len(), 2);
    assert_eq!(body.cc.len(), 1);
    assert_eq!(body.fields.len(), 2);
}

#[test]
fn unknown_keys_are_kept_and_reported_where_they_are() {
    let mut v: Value = serde_json::from_str(&fixture("pack.json")).unwrap();
    v["signatories"][0]["emial"] = "x".into();
    v["documents"][1]["data_fields"][0]["custom-id"] = "SIG_1".into();
    v["documents"][2]["document_creation_settings"]["extract_fields_by_tags"] = true.into();
    v["mystery"] = 1.into();
    let text = v.to_string();

    let read = read_pack(&text).unwrap();
    let found: Vec<(String, String, Option<String>)> = read
        .findings
        .iter()
        .map(|f| {
            (
                f.code.to_string(),
                f.pointer.clone().unwrap(),
                f.hint.clone(),
            )
        })
        .collect();
    let expected = [
        ("unknown_key", "/mystery", None),
        (
            "unknown_key",
            "/signatories/0/emial",
            Some("did you mean `email`?"),
        ),
        (
            "unknown_key",
            "/documents/1/data_fields/0/custom-id",
            Some("did you mean `custom_id`?"),
        ),
        (
            "unknown_key",
            "/documents/2/document_creation_settings/extract_fields_by_tags",
            Some("did you mean `extract_fields_by_tag`?"),
        ),
    ];
    let expected: Vec<(String, String, Option<String>)> = expected
        .iter()
        .map(|(c, p, h)| (c.to_string(), p.to_string(), h.map(str::to_string)))
        .collect();
    assert_eq!(found, expected);

    // Kept: the typed pack writes them back.
    let typed = read.value.into_typed().unwrap();
    let again = serde_json::to_value(&typed).unwrap();
    assert_eq!(normalise(&again), normalise(&v));
    let strict: DocumentPack = serde_json::from_str(&text).unwrap();
    assert_eq!(strict, typed);
}

#[test]
fn v0_unknown_keys_are_reported() {
    let read = read_v0_document(
        r#"{"document_name": "x", "data_fields": [{"tag_id": "A", "tpye": "text"}]}"#,
    )
    .unwrap();
    assert_eq!(read.findings.len(), 1);
    assert_eq!(
        read.findings[0].pointer.as_deref(),
        Some("/data_fields/0/tpye")
    );
    assert_eq!(
        read.findings[0].hint.as_deref(),
        Some("did you mean `type`?")
    );
}

#[test]
fn forbidden_combinations_are_refused_strictly_and_reported_leniently() {
    let cases = [
        (
            r#"{"create_from_template_key": "T", "apply_extracted_fields": true}"#,
            vec!["template_with_apply_extracted_fields"],
        ),
        (
            r#"{"base_64_document": "JVBERi0xLjcK"}"#,
            vec!["syntax_doc_missing_extract_flag"],
        ),
        (
            r#"{"base_64_document": "JVBERi0xLjcK", "extract_fields_by_tag": false}"#,
            vec!["syntax_doc_missing_extract_flag"],
        ),
        (
            r#"{"document_url": "https://x.invalid/a.pdf", "apply_extracted_fields": true}"#,
            vec!["form_doc_missing_flags"],
        ),
        (
            r#"{"base_64_document": "JVBERi0xLjcK", "extract_fields_from_form_fields_with_metadata": true}"#,
            vec!["form_doc_missing_flags"],
        ),
        (
            r#"{"use_workspace_default_document_settings": true}"#,
            vec!["document_source_missing"],
        ),
        (
            r#"{"create_from_template_key": "T", "document_url": "https://x.invalid/a.pdf"}"#,
            vec!["document_source_ambiguous"],
        ),
        (
            r#"{"create_from_template_key": "T", "extract_fields_by_tag": true}"#,
            vec!["creation_flag_unexpected"],
        ),
        (
            r#"{"base_64_document": "JVBERi0xLjcK", "extract_fields_by_tag": true, "apply_extracted_fields": false}"#,
            vec!["creation_flag_unexpected"],
        ),
    ];
    for (json, codes) in cases {
        assert!(
            serde_json::from_str::<CreationSettings>(json).is_err(),
            "strict read accepted {json}"
        );
        let body = format!(r#"{{"documents": [{{"document_creation_settings": {json}}}]}}"#);
        let read = read_pack(&body).unwrap();
        let got: Vec<&str> = read.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(got, codes, "{json}");
        assert!(
            read.findings[0]
                .pointer
                .as_deref()
                .unwrap()
                .starts_with("/documents/0/document_creation_settings")
        );
        assert!(read.value.into_typed().is_err(), "{json}");
    }
}

#[test]
fn invalid_base64_and_unknown_channels_are_reported() {
    let body = r#"{"signatories": [{"primary_communication_channel": "fax"}],
        "documents": [{"document_creation_settings": {"base_64_document": "not base64!", "extract_fields_by_tag": true}},
                      {"document_name": "no settings"}]}"#;
    let read = read_pack(body).unwrap();
    let got: Vec<(&str, &str)> = read
        .findings
        .iter()
        .map(|f| (f.code.as_str(), f.pointer.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        got,
        [
            (
                "channel_unknown",
                "/signatories/0/primary_communication_channel"
            ),
            (
                "base64_invalid",
                "/documents/0/document_creation_settings/base_64_document"
            ),
            ("document_source_missing", "/documents/1"),
        ]
    );
    // The unknown channel is kept as written.
    let again = serde_json::to_value(&read.value).unwrap();
    assert_eq!(
        again["signatories"][0]["primary_communication_channel"],
        "fax"
    );
}
