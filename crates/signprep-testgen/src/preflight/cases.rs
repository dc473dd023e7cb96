//! `cases/`: a clean body with one change each, named after the code it triggers.

use serde_json::{Value, json};

use super::{
    ANN, MANIFEST, Pdfs, base64, json_bytes, pack, populate, requests, subscription, v0, webhook,
};
use crate::Error;

/// Sets the value at a JSON pointer (the parent must exist; an object key is
/// added, an array index replaced, `-` appends).
fn set(v: &mut Value, ptr: &str, new: Value) -> Result<(), Error> {
    let (parent, key) = ptr
        .rsplit_once('/')
        .ok_or_else(|| Error::new(format!("bad pointer {ptr}")))?;
    let target = v
        .pointer_mut(parent)
        .ok_or_else(|| Error::new(format!("no {parent}")))?;
    match target {
        Value::Object(m) => {
            m.insert(key.to_string(), new);
        }
        Value::Array(items) if key == "-" => items.push(new),
        Value::Array(items) => {
            let slot = key
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .ok_or_else(|| Error::new(format!("no {ptr}")))?;
            *slot = new;
        }
        _ => return Err(Error::new(format!("{parent} is not a container"))),
    }
    Ok(())
}

/// Removes the value at a JSON pointer.
fn remove(v: &mut Value, ptr: &str) -> Result<(), Error> {
    let (parent, key) = ptr
        .rsplit_once('/')
        .ok_or_else(|| Error::new(format!("bad pointer {ptr}")))?;
    let gone = match v.pointer_mut(parent) {
        Some(Value::Object(m)) => m.remove(key).is_some(),
        Some(Value::Array(items)) => match key.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    };
    if gone {
        Ok(())
    } else {
        Err(Error::new(format!("nothing at {ptr}")))
    }
}

/// A copy of `base` with `change` applied.
fn with(
    base: &Value,
    change: impl FnOnce(&mut Value) -> Result<(), Error>,
) -> Result<Vec<u8>, Error> {
    let mut v = base.clone();
    change(&mut v)?;
    Ok(json_bytes(&v))
}

/// The clean manifest with `old` replaced by `new` (which must be there).
fn manifest(old: &str, new: &str) -> Result<Vec<u8>, Error> {
    if !MANIFEST.contains(old) {
        return Err(Error::new(format!("{old:?} is not in the manifest")));
    }
    Ok(MANIFEST.replacen(old, new, 1).into_bytes())
}

/// The clean manifest with `tail` appended.
fn manifest_plus(tail: &str) -> Vec<u8> {
    format!("{MANIFEST}\n{tail}").into_bytes()
}

const ROLES: (&str, &str) = (
    "handle = \"client\"\n",
    "handle = \"client\"\nrole = \"Client\"\n",
);

/// Every case, `(file name, bytes)`.
pub fn all(p: &Pdfs) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let pk = pack(p);
    let doc0 = "/documents/0/document_creation_settings";
    let doc1 = "/documents/1/document_creation_settings";
    let template_child = json!({"document_name": "Pricing schedule",
                                "document_creation_settings": {"create_from_template_key": "TPL_PRICING"}});
    let mut out: Vec<(&str, Vec<u8>)> = vec![
        // Bodies.
        (
            "unknown_key.json",
            with(&pk, |v| set(v, "/signatories/0/nmae", json!("Ann")))?,
        ),
        (
            "body_invalid.json",
            with(&pk, |v| set(v, "/documents", json!("contract.pdf")))?,
        ),
        (
            "body_invalid.syntax.json",
            b"{\"document_pack_name\": \"Broken\",\n \"documents\": [\n".to_vec(),
        ),
        ("payload_large.json", json_bytes(&pk)),
        (
            "secret_in_body.json",
            with(&pk, |v| set(v, "/api_key", json!("sk_live_0123456789")))?,
        ),
        // Signers.
        (
            "signers_missing.json",
            with(&pk, |v| {
                remove(v, "/signatories")?;
                set(v, "/documents", json!([template_child.clone()]))
            })?,
        ),
        (
            "signer_email_missing.json",
            with(&pk, |v| {
                remove(v, "/signatories/1/email")?;
                set(v, "/signatories/1/mobile_number", json!("+15555550123"))
            })?,
        ),
        (
            "email_invalid.json",
            with(&pk, |v| {
                set(v, "/signatories/0/email", json!("ann@@example.com"))
            })?,
        ),
        (
            "mobile_not_international.json",
            with(&pk, |v| {
                set(v, "/signatories/0/mobile_number", json!("07700 900123"))
            })?,
        ),
        (
            "channel_unknown.json",
            with(&pk, |v| {
                set(
                    v,
                    "/signatories/0/primary_communication_channel",
                    json!("pigeon"),
                )
            })?,
        ),
        (
            "channel_needs_mobile.json",
            with(&pk, |v| {
                set(
                    v,
                    "/signatories/1/primary_communication_channel",
                    json!("sms"),
                )
            })?,
        ),
        (
            "channel_needs_enablement.json",
            with(&pk, |v| {
                set(
                    v,
                    "/signatories/0/primary_communication_channel",
                    json!("whatsapp"),
                )
            })?,
        ),
        (
            "signer_uuid_invalid.json",
            with(&pk, |v| {
                set(v, "/signatories/1/uuid", json!("bob"))?;
                set(v, "/documents/0/data_fields/3/signatory_uuid", json!("bob"))
            })?,
        ),
        (
            "signer_uuid_duplicate.json",
            with(&pk, |v| {
                set(v, "/signatories/1/uuid", json!(ANN))?;
                set(v, "/documents/0/data_fields/3/signatory_uuid", json!(ANN))
            })?,
        ),
        (
            "signer_without_signature_field.json",
            with(&pk, |v| {
                set(v, "/documents/0/data_fields/3/signatory_uuid", json!(ANN))
            })?,
        ),
        (
            "role_missing_for_template.json",
            with(&pk, |v| set(v, "/documents/-", template_child.clone()))?,
        ),
        // Data fields.
        (
            "data_field_signer_unknown.json",
            with(&pk, |v| {
                set(
                    v,
                    "/documents/0/data_fields/0/signatory_uuid",
                    json!("00000000-0000-4000-8000-000000000000"),
                )
            })?,
        ),
        (
            "data_field_custom_id_missing.json",
            with(&pk, |v| {
                set(v, "/documents/0/data_fields/-", json!({"data": "orphan"}))
            })?,
        ),
        (
            "data_field_duplicate.json",
            with(&pk, |v| {
                set(
                    v,
                    "/documents/0/data_fields/-",
                    json!({"custom_id": "CLIENT_NAME", "data": "Ann"}),
                )
            })?,
        ),
        (
            "data_field_empty.json",
            with(&pk, |v| {
                remove(v, "/documents/0/data_fields/1/signatory_uuid")
            })?,
        ),
        (
            "custom_id_not_in_document.json",
            with(&pk, |v| {
                set(
                    v,
                    "/documents/0/data_fields/-",
                    json!({"custom_id": "CLIENT_EMAIL", "data": "ann@example.com"}),
                )
            })?,
        ),
        (
            "custom_id_not_in_document.empty.json",
            with(&pk, |v| {
                set(
                    v,
                    "/documents/0/data_fields/-",
                    json!({"custom_id": "CLIENT_EMAIL"}),
                )
            })?,
        ),
        (
            "data_for_signature_field.json",
            with(&pk, |v| {
                set(v, "/documents/0/data_fields/2/data", json!("Ann Client"))
            })?,
        ),
        (
            "tag_without_data_field.json",
            with(&pk, |v| remove(v, "/documents/0/data_fields/1"))?,
        ),
        // Children.
        (
            "template_with_apply_extracted_fields.json",
            with(&pk, |v| {
                set(v, "/signatories/0/role", json!("Client"))?;
                set(v, "/signatories/1/role", json!("Company"))?;
                set(v, "/documents/-", template_child.clone())?;
                set(
                    v,
                    "/documents/2/document_creation_settings/apply_extracted_fields",
                    json!(true),
                )
            })?,
        ),
        (
            "syntax_doc_missing_extract_flag.json",
            with(&pk, |v| remove(v, &format!("{doc0}/extract_fields_by_tag")))?,
        ),
        (
            "form_doc_missing_flags.json",
            with(&pk, |v| {
                remove(v, &format!("{doc1}/apply_extracted_fields"))
            })?,
        ),
        (
            "document_source_missing.json",
            with(&pk, |v| remove(v, &format!("{doc0}/base_64_document")))?,
        ),
        (
            "document_source_ambiguous.json",
            with(&pk, |v| {
                set(
                    v,
                    &format!("{doc0}/create_from_template_key"),
                    json!("TPL_PRICING"),
                )
            })?,
        ),
        (
            "creation_flag_unexpected.json",
            with(&pk, |v| {
                set(v, &format!("{doc0}/apply_extracted_fields"), json!(false))
            })?,
        ),
        (
            "base64_invalid.json",
            with(&pk, |v| {
                set(
                    v,
                    &format!("{doc0}/base_64_document"),
                    json!("JVBERi0x*not base64*"),
                )
            })?,
        ),
        (
            "pdf_unreadable.json",
            with(&pk, |v| {
                set(
                    v,
                    &format!("{doc0}/base_64_document"),
                    json!(base64(b"Dear Ann, please sign.")),
                )
            })?,
        ),
        (
            "document_without_tags.json",
            with(&pk, |v| {
                set(
                    v,
                    "/documents/-",
                    json!({"document_name": "Letter",
            "document_creation_settings": {"base_64_document": base64(&p.no_tags), "extract_fields_by_tag": true}}),
                )
            })?,
        ),
        (
            "document_without_form_fields.json",
            with(&pk, |v| {
                set(
                    v,
                    "/documents/-",
                    json!({"document_name": "Letter",
            "document_creation_settings": {"base_64_document": base64(&p.no_tags),
                "extract_fields_from_form_fields_with_metadata": true, "apply_extracted_fields": true}}),
                )
            })?,
        ),
        (
            "pack_name_missing.json",
            with(&pk, |v| remove(v, "/document_pack_name"))?,
        ),
        (
            "documents_missing.json",
            with(&pk, |v| set(v, "/documents", json!([])))?,
        ),
        (
            "workspace_defaults_without_team.json",
            with(&pk, |v| {
                set(
                    v,
                    &format!("{doc0}/use_workspace_default_document_settings"),
                    json!(true),
                )?;
                set(
                    v,
                    &format!("{doc1}/use_workspace_default_document_settings"),
                    json!(true),
                )
            })?,
        ),
        (
            "workspace_defaults_mixed.json",
            with(&pk, |v| {
                set(v, "/team_key", json!("TEAM_KEY"))?;
                set(
                    v,
                    &format!("{doc0}/use_workspace_default_document_settings"),
                    json!(true),
                )
            })?,
        ),
        (
            "tag_id_not_uppercase.json",
            with(&pk, |v| {
                set(
                    v,
                    &format!("{doc0}/base_64_document"),
                    json!(base64(&p.lower_tag)),
                )
            })?,
        ),
        ("tag_id_not_uppercase.pdf", p.lower_tag.clone()),
        (
            "pdf_unreadable.pdf",
            b"Dear Ann,\nplease sign the contract.\n".to_vec(),
        ),
        // Settings and mail.
        (
            "post_signing_url_invalid.json",
            with(&pk, |v| {
                set(
                    v,
                    "/signing_settings/post_signing_url",
                    json!("example.com/signed"),
                )
            })?,
        ),
        (
            "reply_email_invalid.json",
            with(&pk, |v| {
                set(v, "/mail_settings/reply_email", json!("legal at acme"))
            })?,
        ),
        // v0 bodies.
        (
            "two_factor_without_contact.json",
            with(&v0(), |v| remove(v, "/signatories/1/email"))?,
        ),
        (
            "signatory_email_missing.json",
            with(&v0(), |v| {
                set(v, "/use_two_factor_authentication", json!(false))?;
                remove(v, "/signatories/1/email")
            })?,
        ),
        (
            "request_signatures_without_email.json",
            with(&v0(), |v| {
                set(v, "/status", json!("awaiting_signatures"))?;
                set(v, "/use_two_factor_authentication", json!(false))?;
                remove(v, "/signatories/1/email")
            })?,
        ),
        (
            "update_field_outside_setup.json",
            with(&v0(), |v| {
                set(v, "/key", json!("DOCUMENT_KEY"))?;
                set(v, "/status", json!("awaiting_signatures"))?;
                set(v, "/signatories/0/email_send_count", json!(1))
            })?,
        ),
        (
            "background_colour_invalid.json",
            with(&v0(), |v| {
                set(v, "/data_fields/2/background_colour", json!("yellow"))
            })?,
        ),
        (
            "data_field_tag_id_invalid.json",
            with(&v0(), |v| {
                set(v, "/data_fields/1/tag_id", json!("date_client"))
            })?,
        ),
        // Request plans and populate bodies.
        (
            "v0_tag_not_in_pdf.json",
            with(&requests(), |v| {
                set(
                    v,
                    "/requests/0/body/data_fields/-",
                    json!({"tag_id": "DATE_SIGNED", "type": "text"}),
                )
            })?,
        ),
        (
            "io_error.json",
            with(&requests(), |v| {
                set(v, "/requests/0/upload", json!("../pdfs/missing.pdf"))
            })?,
        ),
        (
            "request_unknown.json",
            with(&requests(), |v| {
                set(
                    v,
                    "/requests/-",
                    json!({"method": "GET", "path": "/v0/documents/DOCUMENT_KEY", "body": {}}),
                )
            })?,
        ),
        (
            "populate_key_unknown.json",
            with(&populate(), |v| set(v, "/discont", json!("5%")))?,
        ),
        (
            "populate_body_empty.requests.json",
            with(&requests(), |v| set(v, "/requests/1/body", json!({})))?,
        ),
        (
            "populate_index_gap.json",
            with(&populate(), |v| {
                remove(v, "/cc_0_email")?;
                remove(v, "/cc_0_name")?;
                set(v, "/cc_1_email", json!("legal@acme.example"))
            })?,
        ),
        // Webhooks and subscriptions.
        (
            "callback_not_https.json",
            with(&webhook(), |v| {
                set(
                    v,
                    "/webhook/callback",
                    json!("http://hooks.example.com/signing"),
                )
            })?,
        ),
        (
            "callback_not_https.subscription.json",
            with(&subscription(), |v| {
                set(
                    v,
                    "/subscription/callback",
                    json!("http://hooks.example.com/signing"),
                )
            })?,
        ),
        (
            "callback_localhost.json",
            with(&webhook(), |v| {
                set(
                    v,
                    "/webhook/callback",
                    json!("https://localhost:8443/signing"),
                )
            })?,
        ),
        (
            "callback_missing.json",
            with(&webhook(), |v| remove(v, "/webhook/callback"))?,
        ),
        (
            "entity_key_missing.json",
            with(&webhook(), |v| remove(v, "/webhook/entity_key"))?,
        ),
        // Manifests.
        (
            "manifest_invalid.toml",
            manifest(
                "name = \"Pre-flight clean manifest\"",
                "name = \"Pre-flight clean manifest",
            )?,
        ),
        (
            "manifest_no_match.toml",
            manifest_plus("[[documents]]\npath = \"../pdfs/missing*.pdf\"\n"),
        ),
        (
            "pattern_invalid.toml",
            manifest_plus("[[fields]]\nmatch = \"SIG_[\"\nsigner = \"client\"\n"),
        ),
        (
            "manifest_document_source.toml",
            manifest_plus(
                "[[documents]]\npath = \"../pdfs/form.pdf\"\nurl = \"https://example.com/form.pdf\"\n",
            ),
        ),
        (
            "manifest_field_id.toml",
            manifest_plus(
                "[[fields]]\ncustom_id = \"CLIENT_NAME\"\nmatch = \"CLIENT_*\"\ndata = \"Ann\"\n",
            ),
        ),
        (
            "manifest_tag_type_invalid.toml",
            manifest_plus("[tag_types]\n\"SIG_*\" = \"Signature!\"\n"),
        ),
        (
            "manifest_key_unknown.toml",
            manifest(
                "sequential_signing = true\n",
                "sequential_signing = true\nseqential_signing = true\n",
            )?,
        ),
        (
            "field_unused.toml",
            manifest_plus("[[fields]]\ncustom_id = \"WITNESS_SIG\"\nsigner = \"company\"\n"),
        ),
        (
            "document_kind_unknown.toml",
            manifest_plus("[[documents]]\npath = \"../pdfs/no_tags.pdf\"\n"),
        ),
        (
            "document_has_tags_and_fields.toml",
            manifest_plus("[[documents]]\npath = \"../pdfs/tags_and_fields.pdf\"\n"),
        ),
        (
            "signer_handle_duplicate.toml",
            manifest(
                "[[cc]]",
                "[[signers]]\nhandle = \"client\"\nname = \"Ann Again\"\nemail = \"ann.again@example.com\"\n\n[[cc]]",
            )?,
        ),
        // The same rules in manifests: `signprep pack` refuses what `check` fails.
        (
            "signer_email_missing.manifest.toml",
            manifest(
                "email = \"bob@acme.example\"\n",
                "mobile_number = \"+15555550123\"\n",
            )?,
        ),
        (
            "email_invalid.manifest.toml",
            manifest("email = \"bob@acme.example\"", "email = \"bob-at-acme\"")?,
        ),
        (
            "mobile_not_international.sms.manifest.toml",
            manifest(
                "mobile_number = \"+447700900123\"\n",
                "mobile_number = \"07700 900123\"\nchannel = \"sms\"\n",
            )?,
        ),
        (
            "channel_unknown.manifest.toml",
            manifest(ROLES.0, "handle = \"client\"\nchannel = \"pigeon\"\n")?,
        ),
        (
            "channel_needs_mobile.manifest.toml",
            manifest(
                "handle = \"company\"\n",
                "handle = \"company\"\nchannel = \"sms\"\n",
            )?,
        ),
        (
            "data_field_signer_unknown.manifest.toml",
            manifest(
                "match = \"*_COMPANY\"\nsigner = \"company\"",
                "match = \"*_COMPANY\"\nsigner = \"compnay\"",
            )?,
        ),
        (
            "custom_id_not_in_document.manifest.toml",
            manifest_plus(
                "[[documents.fields]]\ncustom_id = \"client_email\"\ndata = \"ann@example.com\"\n",
            ),
        ),
        (
            "reply_email_invalid.manifest.toml",
            manifest(
                "reply_email = \"legal@acme.example\"",
                "reply_email = \"legal at acme\"",
            )?,
        ),
        (
            "post_signing_url_invalid.manifest.toml",
            manifest(
                "post_signing_url = \"https://example.com/signed\"",
                "post_signing_url = \"example.com/signed\"",
            )?,
        ),
        ("field_pattern_needs_scan.toml", {
            let text = String::from_utf8(manifest_plus(
                "[[documents]]\ntemplate = \"TPL_PRICING\"\n\n[[documents.fields]]\nmatch = \"disc*\"\ndata = \"10%\"\n",
            ))
            .map_err(|e| Error::new(e.to_string()))?;
            text.replacen(ROLES.0, ROLES.1, 1)
                .replacen(
                    "handle = \"company\"\n",
                    "handle = \"company\"\nrole = \"Company\"\n",
                    1,
                )
                .into_bytes()
        }),
    ];
    Ok(out.drain(..).map(|(n, b)| (n.to_string(), b)).collect())
}
