//! The fixtures of `signprep check` in `testdata/check/`: request bodies,
//! manifests and PDFs.
//!
//! Write them with `cargo run -p signprep-testgen -- --preflight testdata/check`
//! (`--check` compares). The layout:
//!
//! - `pdfs/`: the PDFs the bodies embed (Base64) or name: `contract.pdf` (tags),
//!   `form.pdf` (AcroForm), `tags_and_fields.pdf`, `no_tags.pdf`.
//! - `templates/pricing.json`: a template document (`--template`).
//! - `clean/`: one body of each kind (pack, v0, populate, requests, webhook,
//!   subscription) and a manifest, none with any finding.
//! - `cases/CODE[.VARIANT].EXT`: a clean body with one change that triggers
//!   exactly the code `CODE` (a few need a second, listed by the tests).
//!
//! JSON is written with sorted keys, so that the bytes do not depend on
//! serde_json's map type.

mod cases;
mod edges;
mod pdfs;

use serde_json::{Value, json};

use crate::Error;

/// One file, its path relative to `testdata/check/`.
#[derive(Debug, Clone)]
pub struct PreflightFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Signer UUIDs of the clean bodies.
pub const ANN: &str = "3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11";
pub const BOB: &str = "b8e4d6c2-1a3f-4e5b-9c7d-2f0a8b6e4d22";

/// The PDFs, generated once.
#[derive(Debug)]
pub struct Pdfs {
    pub contract: Vec<u8>,
    pub form: Vec<u8>,
    pub no_tags: Vec<u8>,
    pub tags_and_fields: Vec<u8>,
    pub lower_tag: Vec<u8>,
}

impl Pdfs {
    fn new() -> Result<Pdfs, Error> {
        Ok(Pdfs {
            contract: pdfs::contract()?,
            form: pdfs::form()?,
            no_tags: pdfs::no_tags()?,
            tags_and_fields: pdfs::tags_and_fields()?,
            lower_tag: pdfs::lower_tag()?,
        })
    }
}

/// Every file of `testdata/check/`.
pub fn files() -> Result<Vec<PreflightFile>, Error> {
    let p = Pdfs::new()?;
    let mut out = Vec::new();
    let mut file = |path: &str, bytes: Vec<u8>| {
        out.push(PreflightFile {
            path: path.to_string(),
            bytes,
        });
    };
    file("pdfs/contract.pdf", p.contract.clone());
    file("pdfs/form.pdf", p.form.clone());
    file("pdfs/no_tags.pdf", p.no_tags.clone());
    file("pdfs/tags_and_fields.pdf", p.tags_and_fields.clone());
    file("templates/pricing.json", json_bytes(&template()));
    file("clean/pack.json", json_bytes(&pack(&p)));
    file("clean/v0.json", json_bytes(&v0()));
    file("clean/populate.json", json_bytes(&populate()));
    file("clean/requests.json", json_bytes(&requests()));
    file("clean/webhook.json", json_bytes(&webhook()));
    file("clean/subscription.json", json_bytes(&subscription()));
    file("clean/manifest.toml", MANIFEST.as_bytes().to_vec());
    for (name, bytes) in cases::all(&p)?.into_iter().chain(edges::all()?) {
        file(&format!("cases/{name}"), bytes);
    }
    Ok(out)
}

/// The clean v1 pack: a tag-syntax child (`contract.pdf`) and a form-field
/// child (`form.pdf`), every tag with a data field, both signers with a
/// signature field, two-factor authentication on.
pub fn pack(p: &Pdfs) -> Value {
    json!({
        "document_pack_name": "Pre-flight clean pack",
        "signatories": [
            {"name": "Ann Client", "email": "ann@example.com", "mobile_number": "+447700900123", "uuid": ANN},
            {"name": "Bob Acme", "email": "bob@acme.example", "uuid": BOB}
        ],
        "cc_recipients": [{"name": "Acme legal", "email": "legal@acme.example"}],
        "mail_settings": {"subject": "Please sign", "reply_email": "legal@acme.example"},
        "signing_settings": {
            "sequential_signing": true,
            "use_two_factor_authentication": true,
            "post_signing_url": "https://example.com/signed"
        },
        "documents": [
            {
                "document_name": "Contract",
                "document_creation_settings": {"base_64_document": base64(&p.contract), "extract_fields_by_tag": true},
                "data_fields": [
                    {"custom_id": "CLIENT_NAME", "data": "Ann Client"},
                    {"custom_id": "DATE_CLIENT", "signatory_uuid": ANN},
                    {"custom_id": "SIG_CLIENT", "signatory_uuid": ANN},
                    {"custom_id": "SIG_COMPANY", "signatory_uuid": BOB}
                ]
            },
            {
                "document_name": "Onboarding form",
                "document_creation_settings": {
                    "base_64_document": base64(&p.form),
                    "extract_fields_from_form_fields_with_metadata": true,
                    "apply_extracted_fields": true
                },
                "data_fields": [
                    {"custom_id": "client_name", "data": "Ann Client"},
                    {"custom_id": "client_signature", "signatory_uuid": ANN}
                ]
            }
        ]
    })
}

/// The clean v0 document body for the tag-extraction flow of `contract.pdf`.
pub fn v0() -> Value {
    json!({
        "document_name": "Contract",
        "status": "setup",
        "use_two_factor_authentication": true,
        "post_signing_url": "https://example.com/signed",
        "signatories": [
            {"uuid": ANN, "name": "Ann Client", "email": "ann@example.com", "mobile_number": "+447700900123"},
            {"uuid": BOB, "name": "Bob Acme", "email": "bob@acme.example"}
        ],
        "cc_recipients": [{"name": "Acme legal", "email": "legal@acme.example"}],
        "data_fields": [
            {"tag_id": "CLIENT_NAME", "type": "text", "data": "Ann Client"},
            {"tag_id": "DATE_CLIENT", "type": "text", "signatory_uuid": ANN},
            {"tag_id": "SIG_CLIENT", "type": "signature", "signatory_uuid": ANN, "background_colour": "#FFF2CC"},
            {"tag_id": "SIG_COMPANY", "type": "signature", "signatory_uuid": BOB}
        ]
    })
}

/// The template `TPL_PRICING`, as `GET /v0/documents/TPL_PRICING` returns it.
pub fn template() -> Value {
    json!({
        "key": "TPL_PRICING",
        "document_type": "template",
        "document_name": "Pricing schedule",
        "status": "setup",
        "signatories": [
            {"uuid": "5d0c1a3e-8f2b-4c6d-9e1a-7b3c5d7e9f01", "role": "Client"},
            {"uuid": "6e1d2b4f-9a3c-4d7e-8f2b-8c4d6e8fa012", "role": "Company"}
        ],
        "data_fields": [
            {"custom_id": "discount", "type": "text"},
            {"custom_id": "client_signature", "type": "signature", "signatory_uuid": "5d0c1a3e-8f2b-4c6d-9e1a-7b3c5d7e9f01"},
            {"custom_id": "company_signature", "type": "signature", "signatory_uuid": "6e1d2b4f-9a3c-4d7e-8f2b-8c4d6e8fa012"}
        ]
    })
}

/// The clean populate body for `TPL_PRICING`.
pub fn populate() -> Value {
    json!({
        "signer_0_email": "ann@example.com",
        "signer_0_name": "Ann Client",
        "signer_1_email": "bob@acme.example",
        "signer_1_name": "Bob Acme",
        "cc_0_email": "legal@acme.example",
        "cc_0_name": "Acme legal",
        "discount": "10%"
    })
}

/// The clean request plan: the v0 tag-extraction create of `contract.pdf`
/// (signature requests sent when ready), and a populate copy of `TPL_PRICING`.
pub fn requests() -> Value {
    json!({
        "requests": [
            {
                "method": "POST",
                "path": "/v0/documents",
                "query": {"extract_fields_from_pdf_by_tag": true, "auto_request_signatures_when_ready": true},
                "body": v0(),
                "upload": "../pdfs/contract.pdf"
            },
            {
                "method": "POST",
                "path": "/v0/documents/TPL_PRICING/new_document_from_template",
                "query": {"use_populate_syntax": true},
                "body": populate()
            }
        ]
    })
}

/// The clean webhook body.
pub fn webhook() -> Value {
    json!({
        "client_id": "CLIENT_ID",
        "client_secret": "CLIENT_SECRET",
        "webhook": {"entity_key": "PACK_KEY", "callback": "https://hooks.example.com/signing"}
    })
}

/// The clean subscription body.
pub fn subscription() -> Value {
    json!({
        "client_id": "CLIENT_ID",
        "client_secret": "CLIENT_SECRET",
        "subscription": {"entity_key": "DOCUMENT_KEY", "callback": "https://hooks.example.com/signing"}
    })
}

/// The clean manifest (paths relative to `clean/` and `cases/`).
pub const MANIFEST: &str = r#"# A clean manifest: `signprep check` finds nothing in it.
name = "Pre-flight clean manifest"

[[signers]]
handle = "client"
name = "Ann Client"
email = "ann@example.com"
mobile_number = "+447700900123"
uuid = "3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11"

[[signers]]
handle = "company"
name = "Bob Acme"
email = "bob@acme.example"
uuid = "b8e4d6c2-1a3f-4e5b-9c7d-2f0a8b6e4d22"

[[cc]]
name = "Acme legal"
email = "legal@acme.example"

[mail]
subject = "Please sign"
reply_email = "legal@acme.example"

[signing]
sequential_signing = true
post_signing_url = "https://example.com/signed"

[[fields]]
match = "*_CLIENT"
signer = "client"

[[fields]]
match = "*_COMPANY"
signer = "company"

[[fields]]
custom_id = "CLIENT_NAME"
data = "Ann Client"

[[documents]]
path = "../pdfs/contract.pdf"

[[documents]]
path = "../pdfs/form.pdf"
name = "Onboarding form"

[[documents.fields]]
custom_id = "client_name"
data = "Ann Client"

[[documents.fields]]
custom_id = "client_signature"
signer = "client"
"#;

/// Pretty JSON with sorted keys and a final newline.
pub fn json_bytes(v: &Value) -> Vec<u8> {
    let mut s = String::new();
    write_json(v, 0, &mut s);
    s.push('\n');
    s.into_bytes()
}

fn write_json(v: &Value, depth: usize, out: &mut String) {
    let pad = |d: usize| "  ".repeat(d);
    match v {
        Value::Object(m) if !m.is_empty() => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push_str("{\n");
            for (i, k) in keys.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push_str(": ");
                if let Some(child) = m.get(*k) {
                    write_json(child, depth + 1, out);
                }
                out.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, child) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                write_json(child, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Standard Base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sym = |i: u32| char::from(ABC.get((i & 63) as usize).copied().unwrap_or(b'='));
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (b(0) << 16) | (b(1) << 8) | b(2);
        out.push(sym(n >> 18));
        out.push(sym(n >> 12));
        out.push(if chunk.len() > 1 { sym(n >> 6) } else { '=' });
        out.push(if chunk.len() > 2 { sym(n) } else { '=' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn json_keys_are_sorted() {
        let v = json!({"b": [1, {"d": null, "c": true}], "a": {}, "e": []});
        let text = String::from_utf8(json_bytes(&v)).unwrap_or_default();
        assert_eq!(
            text,
            "{\n  \"a\": {},\n  \"b\": [\n    1,\n    {\n      \"c\": true,\n      \"d\": null\n    }\n  ],\n  \"e\": []\n}\n"
        );
    }
}
