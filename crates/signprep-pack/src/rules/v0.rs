//! v0 document bodies, and the request plans `signprep pack --v0`/`--populate` write.

use super::pack::settings_rules_at;
use super::pdf::{self, PdfFacts};
use super::people::{self, Person, Policy};
use super::values::colour_ok;
use super::{Ctx, json, placement, populate, secrets, typed, typed_in};
use crate::codes::{Finding, PackCode, pointer};
use crate::model::UnknownKeys;
use crate::model::plan::Requests;
use crate::model::v0::V0Document;
use crate::suggest::{closest, list};
use serde_json::Value;
use std::collections::BTreeSet;

/// How a v0 body is sent.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Flow {
    /// It updates an existing document (a `key`, or a PUT).
    pub(super) update: bool,
    /// Signature requests go out with it (`request_signatures`,
    /// `auto_request_signatures_when_ready`, or `status: awaiting_signatures`).
    pub(super) requests_signatures: bool,
}

impl Flow {
    /// A body on its own: an update when it has a key.
    pub(super) fn standalone(doc: &V0Document) -> Flow {
        Flow {
            update: doc.key.is_some(),
            requests_signatures: false,
        }
    }
}

/// Every rule of a v0 document body at `at`; `upload` is the PDF sent with it.
pub(super) fn check(
    ctx: &mut Ctx<'_>,
    doc: &V0Document,
    at: &str,
    flow: &Flow,
    upload: Option<(&PdfFacts, &str)>,
) {
    doc.unknown_keys_at(at, &mut ctx.out);
    let sending = flow.requests_signatures || doc.status.as_deref() == Some("awaiting_signatures");
    let mut people = Vec::new();
    for (i, s) in doc.signatories.iter().flatten().enumerate() {
        let mut p = Person::new(
            pointer(&pointer(at, "signatories"), i),
            true,
            i,
            s.name.as_deref(),
            s.email.as_deref(),
        );
        p.mobile = s.mobile_number.value().map(String::as_str);
        p.uuid = s.uuid.as_deref();
        p.role = s.role.as_deref();
        people.push(p);
    }
    for (i, c) in doc.cc_recipients.iter().flatten().enumerate() {
        let mut p = Person::new(
            pointer(&pointer(at, "cc_recipients"), i),
            false,
            i,
            c.name.as_deref(),
            c.email.as_deref(),
        );
        p.mobile = c.mobile_number.value().map(String::as_str);
        people.push(p);
    }
    let policy = Policy {
        email_required: false,
        two_factor: doc.use_two_factor_authentication == Some(true),
        has_template: false,
        check_uuids: true,
    };
    people::check(&people, policy, &mut ctx.out);
    if !sending && doc.document_type.as_deref() != Some("template") {
        // An empty address is `email_invalid` already.
        for p in people.iter().filter(|p| p.signer && p.email.is_none()) {
            ctx.push(
                Finding::new(
                    PackCode::SignatoryEmailMissing,
                    format!(
                        "{} has no email address, which the specification requires before signature requests",
                        p.label
                    ),
                )
                .at(p.at.clone())
                .hint("set the signatory's `email` before requesting signatures: the document cannot leave `setup` without it"),
            );
        }
    }
    if sending {
        for p in people
            .iter()
            .filter(|p| p.signer && p.email.is_none_or(|e| e.trim().is_empty()))
        {
            ctx.push(
                Finding::new(
                    PackCode::RequestSignaturesWithoutEmail,
                    format!(
                        "signature requests are sent, but {} has no email address",
                        p.label
                    ),
                )
                .at(p.at.clone())
                .hint("set every signatory's `email` before requesting signatures"),
            );
        }
    }
    settings_rules_at(
        ctx,
        None,
        "",
        doc.post_signing_url.as_deref(),
        &pointer(at, "post_signing_url"),
    );
    data_fields(ctx, doc, at, upload);
    outside_setup(ctx, doc, at, flow);
}

fn data_fields(ctx: &mut Ctx<'_>, doc: &V0Document, at: &str, upload: Option<(&PdfFacts, &str)>) {
    let signatories = doc.signatories.as_deref().unwrap_or_default();
    let uuids: BTreeSet<&str> = signatories
        .iter()
        .filter_map(|s| s.uuid.as_deref())
        .collect();
    let fields = doc.data_fields.as_deref().unwrap_or_default();
    let tags = upload.map(|(f, _)| f.tags());
    // Looked up once per data field: a set, not a scan of the tags.
    let tag_set: BTreeSet<&str> = tags.iter().flatten().map(|(t, _)| t.as_str()).collect();
    let mut signed = BTreeSet::new();
    let mut named = BTreeSet::new();
    for (j, f) in fields.iter().enumerate() {
        let fat = pointer(&pointer(at, "data_fields"), j);
        let id = f
            .custom_id
            .value()
            .or(f.tag_id.as_ref())
            .map_or_else(|| format!("data field {j}"), |i| format!("`{i}`"));
        if let Some(u) = f.signatory_uuid.as_deref()
            && !uuids.contains(u)
        {
            ctx.push(
                Finding::new(
                    PackCode::DataFieldSignerUnknown,
                    format!("{id} names signatory `{u}`, which no signatory of the document has"),
                )
                .at(pointer(&fat, "signatory_uuid"))
                .hint(format!(
                    "signatory uuids: {}",
                    list(&uuids.iter().take(13).collect::<Vec<_>>())
                )),
            );
        }
        if let Some(c) = &f.background_colour
            && !colour_ok(c)
        {
            ctx.push(
                Finding::new(
                    PackCode::BackgroundColourInvalid,
                    format!("{id}: background colour `{c}` is not in # notation"),
                )
                .at(pointer(&fat, "background_colour"))
                .hint("write `#RGB` or `#RRGGBB`, e.g. `#FFF2CC`"),
            );
        }
        let signature = f.kind.as_deref() == Some("signature");
        if signature && f.data.value().is_some_and(|d| !d.is_empty()) {
            ctx.push(
                Finding::new(
                    PackCode::DataForSignatureField,
                    format!("{id} is a signature field; its `data` is not a signature"),
                )
                .at(pointer(&fat, "data"))
                .hint("leave `data` out: the signer signs there"),
            );
        }
        if signature && let Some(u) = &f.signatory_uuid {
            signed.insert(u.as_str());
        }
        let Some(tag) = f.tag_id.as_deref() else {
            continue;
        };
        named.insert(tag);
        if !signprep_core::id_is_valid(tag) {
            ctx.push(
                Finding::new(
                    PackCode::DataFieldTagIdInvalid,
                    format!("tag id `{tag}` is not upper-case ASCII (A-Z, 0-9, _)"),
                )
                .at(pointer(&fat, "tag_id"))
                .hint(format!(
                    "write it as `{}`, as in the PDF",
                    tag.to_ascii_uppercase()
                )),
            );
        } else if let (Some(tags), Some((_, upload_at))) = (&tags, upload)
            && !tag_set.contains(tag)
        {
            // `list` shows twelve, and `...` when there are more.
            let names: Vec<&str> = tags.iter().map(|(t, _)| t.as_str()).take(13).collect();
            let all = tags.iter().map(|(t, _)| t.as_str());
            let hint = match closest(tag, all, &mut ctx.suggest_budget) {
                Some(best) => format!("did you mean `{best}`? the PDF has: {}", list(&names)),
                None => format!("the PDF has: {}", list(&names)),
            };
            let mut finding = Finding::new(
                PackCode::V0TagNotInPdf,
                format!("tag `{tag}` is not in the uploaded PDF: the field is not placed"),
            )
            .at(pointer(&fat, "tag_id"))
            .hint(hint);
            finding.file = Some(upload_at.to_string());
            ctx.push(finding);
        }
    }
    if !fields.is_empty() {
        for (i, s) in signatories.iter().enumerate() {
            if s.uuid.as_deref().is_some_and(|u| signed.contains(u)) {
                continue;
            }
            let who = s
                .name
                .as_deref()
                .or(s.email.as_deref())
                .map_or_else(|| format!("signatory {i}"), |n| format!("signatory `{n}`"));
            ctx.push(
                Finding::new(
                    PackCode::SignerWithoutSignatureField,
                    format!("{who} is assigned no data field of type `signature`"),
                )
                .at(pointer(&pointer(at, "signatories"), i))
                .hint("add a `signature` data field with their `signatory_uuid`"),
            );
        }
    }
    if let (Some(tags), Some((_, file))) = (tags, upload) {
        if tags.is_empty() {
            ctx.push(
                Finding::new(
                    PackCode::DocumentWithoutTags,
                    "the uploaded PDF has no valid `<# TAG #>` tag: tag extraction creates no field",
                )
                .at(pointer(at, "data_fields"))
                .file(file),
            );
        }
        for (tag, page) in tags.iter().filter(|(t, _)| !named.contains(t.as_str())) {
            let mut f = Finding::new(
                PackCode::TagWithoutDataField,
                format!("tag `{tag}` of the uploaded PDF has no data field"),
            )
            .at(pointer(at, "data_fields"))
            .file(file);
            f.page = Some(*page);
            f.tag = Some(tag.clone());
            ctx.push(f);
        }
    }
}

/// `update_field_outside_setup`.
fn outside_setup(ctx: &mut Ctx<'_>, doc: &V0Document, at: &str, flow: &Flow) {
    let Some(status) = doc.status.as_deref() else {
        return;
    };
    if !flow.update || status == "setup" {
        return;
    }
    let sent = doc.signatories.iter().flatten().any(|s| {
        s.email_send_count.is_some_and(|n| n > 0)
            || s.status.as_deref().is_some_and(|st| st != "setup")
    });
    if status == "awaiting_signatures" && !sent {
        return;
    }
    let fields = doc.data_fields.as_deref().unwrap_or_default();
    if let Some(j) = fields.iter().position(|f| f.data.value().is_some()) {
        ctx.push(
            Finding::new(
                PackCode::UpdateFieldOutsideSetup,
                format!("this update sets field values, but the document is `{status}`{}: field values change only in `setup`", if sent { " and its requests have gone out" } else { "" }),
            )
            .at(pointer(&pointer(&pointer(at, "data_fields"), j), "data"))
            .hint("revert the document to `setup` (PUT with status `setup`), update the fields, then request signatures again"),
        );
    }
}

/// A `{"requests": [...]}` plan: each request's body by its path, and the PDFs
/// it uploads.
pub(super) fn check_plan(ctx: &mut Ctx<'_>, text: &str, value: &Value) {
    let Some(plan) = typed::<Requests<Value>>(ctx, text, value, "a request plan") else {
        return;
    };
    if plan.requests.is_empty() {
        // An empty input never passes: nothing would be sent.
        ctx.push(
            Finding::new(
                PackCode::DocumentsMissing,
                "the request plan has no request: no document would be created",
            )
            .at("/requests"),
        );
    }
    for (i, r) in plan.requests.iter().enumerate() {
        let at = format!("/requests/{i}");
        let body_at = pointer(&at, "body");
        let size = serde_json::to_string(&r.body).map_or(0, |s| s.len() as u64);
        ctx.payload(size, &format!("request {i}'s body"), Some(body_at.clone()));
        let q = |k: &str| r.query.get(k) == Some(&true);
        let auto = q("auto_request_signatures_when_ready");
        let segments: Vec<&str> = r.path.trim_matches('/').split('/').collect();
        let method = r.method.to_ascii_uppercase();
        match (method.as_str(), segments.as_slice()) {
            ("POST", ["v0", "documents", key, "new_document_from_template"])
                if q("use_populate_syntax") =>
            {
                secrets::check(ctx, &r.body, &body_at, "a populate body");
                populate::check(ctx, &r.body, &body_at, Some(key), auto);
            }
            ("POST", ["v0", "documents"])
            | ("POST", ["v0", "documents", _, "new_document_from_template"])
            | ("PUT", ["v0", "documents", _])
            | ("PUT", ["v0", "documents", _, "request_signatures"]) => {
                if r.body.as_object().is_some_and(|o| o.is_empty()) {
                    continue;
                }
                secrets::check(ctx, &r.body, &body_at, "a document body");
                let span = json::span_of(text, &body_at).unwrap_or((0, 0));
                let Some(doc) =
                    typed_in::<V0Document>(ctx, text, span, &r.body, &body_at, "a v0 document")
                else {
                    continue;
                };
                let flow = Flow {
                    update: method == "PUT",
                    requests_signatures: auto || segments.last() == Some(&"request_signatures"),
                };
                let upload_at = pointer(&at, "upload");
                let facts = r
                    .upload
                    .as_deref()
                    .and_then(|u| pdf::load_path(ctx, u, &upload_at));
                let shown = r
                    .upload
                    .as_deref()
                    .map(|u| pdf::resolve(ctx, u).display().to_string());
                let pages = facts.as_ref().map(|f| f.scan.pages.as_slice());
                placement::check(ctx, &r.body, &body_at, pages);
                let upload = match (&facts, &shown) {
                    (Some(f), Some(s)) if q("extract_fields_from_pdf_by_tag") => {
                        Some((f, s.as_str()))
                    }
                    _ => None,
                };
                check(ctx, &doc, &body_at, &flow, upload);
            }
            _ => ctx.push(
                Finding::new(
                    PackCode::RequestUnknown,
                    format!(
                        "`{} {}` is not a request signprep knows; its body is not checked",
                        r.method, r.path
                    ),
                )
                .at(pointer(&at, "path")),
            ),
        }
    }
    secrets::drop_shadowed(&mut ctx.out);
}
