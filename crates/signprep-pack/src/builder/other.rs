//! The v0 tag-extraction create bodies and the populate-syntax body.

use super::BuildError;
use super::children::{PdfKind, names_of};
use super::{ChildInput, ChildSpec, FieldId, FieldSpec, PackBuilder, Warned, finish};
use crate::Nullable;
use crate::codes::{Finding, PackCode, pointer};
use crate::model::pack::Channel;
use crate::model::plan::{Request, Requests};
use crate::model::populate::{Party, PopulateBody};
use crate::model::v0::{V0CcRecipient, V0DataField, V0Document, V0Signatory};
use std::collections::{BTreeMap, BTreeSet};

impl PackBuilder {
    /// The v0 tag-extraction flow: one `POST /v0/documents?extract_fields_from_pdf_by_tag=true`
    /// per PDF child, its body holding the signatories (with UUIDs) and one data
    /// field per distinct valid tag (`tag_id`, `type` from the tag types, and the
    /// `signatory_uuid` and `data` of the field given for that tag), followed by
    /// the upload of the PDF.
    pub fn build_v0(mut self) -> Result<Warned<Requests<V0Document>>, BuildError> {
        let mut out = std::mem::take(&mut self.findings);
        let signers = self.resolve_signers(&mut out);
        if self.children.is_empty() {
            out.push(
                Finding::new(PackCode::DocumentsMissing, "there is no document").at("/requests"),
            );
        }
        let patterns = Self::compile(&self.fields, None, &mut out);
        let mut used = self.invalid_patterns(&patterns);
        let template = self.v0_template(&signers.signatories, &mut out);
        let mut requests = Vec::new();
        let children = std::mem::take(&mut self.children);
        for (i, spec) in children.into_iter().enumerate() {
            let at = format!("/requests/{}", requests.len());
            let label = spec
                .name
                .clone()
                .unwrap_or_else(|| spec.label().to_string());
            let ChildSpec {
                name,
                input,
                fields,
                ..
            } = spec;
            let (upload, stem) = match &input {
                ChildInput::Path(p) | ChildInput::Named(p, _)
                    if signprep_template::Format::from_path(p).is_some() =>
                {
                    out.push(Finding::new(
                        PackCode::V0NeedsPdf,
                        format!("document {i} ({}) is a Word or OpenDocument template: a v0 plan uploads a file by its path, so it needs the PDF; convert it first (`signprep scan --keep-pdf DIR`) and name that; left out", p.display()),
                    ));
                    continue;
                }
                ChildInput::Path(p) | ChildInput::Named(p, _) => (
                    p.display().to_string(),
                    p.file_stem().map(|s| s.to_string_lossy().into_owned()),
                ),
                ChildInput::Bytes(_) => (name.clone().unwrap_or_default(), None),
                ChildInput::Template(_) | ChildInput::Url(_) => {
                    out.push(
                        Finding::new(
                            PackCode::V0NeedsPdf,
                            format!("document {i} ({label}) is a template or URL child: it cannot go through the v0 tag-extraction flow; left out"),
                        ),
                    );
                    continue;
                }
            };
            let Some(pdf) = self.load_pdf(&at, input, name.as_deref(), &mut out) else {
                continue;
            };
            let names = names_of(PdfKind::TagSyntax, &pdf.scan).unwrap_or_default();
            if names.is_empty() {
                out.push(
                    Finding::new(
                        PackCode::DocumentWithoutTags,
                        format!(
                            "document {i}: no valid `<# TAG #>` tag; left out of the v0 output"
                        ),
                    )
                    .file(pdf.label.clone()),
                );
                continue;
            }
            let body_at = pointer(&at, "body");
            let own = Self::compile(&fields, Some(&pointer(&body_at, "data_fields")), &mut out);
            let placed = self.place(
                &body_at,
                &fields,
                &own,
                Some(&names),
                &patterns,
                &mut used,
                &mut out,
            );
            let by_id: BTreeMap<&str, &FieldSpec> =
                placed.iter().map(|(id, s)| (id.as_str(), *s)).collect();
            let mut seen = BTreeSet::new();
            let mut data_fields = Vec::new();
            for df in crate::data_fields(&pdf.scan, &self.tag_types) {
                let Some(tag) = df.tag_id else { continue };
                if !seen.insert(tag.clone()) {
                    continue;
                }
                let fat = format!("{body_at}/data_fields/{}", data_fields.len());
                let (uuid, data) = match by_id.get(tag.as_str()) {
                    Some(spec) => {
                        let f = Self::resolve_field(&signers, spec, &tag, &fat, &mut out);
                        (f.signatory_uuid, f.data)
                    }
                    None => (None, None),
                };
                data_fields.push(V0DataField {
                    tag_id: Some(tag),
                    kind: Some(df.kind),
                    signatory_uuid: uuid,
                    data: Nullable::from_option(data),
                    ..V0DataField::default()
                });
            }
            let mut body = template.clone();
            body.document_name = name.or(stem);
            body.data_fields = Some(data_fields);
            requests.push(Request {
                method: "POST".into(),
                path: "/v0/documents".into(),
                query: self.query("extract_fields_from_pdf_by_tag"),
                body,
                upload: Some(upload),
            });
        }
        self.report_unused(&used, &mut out);
        if requests.is_empty() && !out.iter().any(Finding::is_error) {
            // An empty plan is not written: `check` refuses it, and nothing would be sent.
            out.push(
                Finding::new(
                    PackCode::DocumentsMissing,
                    "no document can go through the v0 tag-extraction flow (no PDF child with a valid tag): the v0 output would have no request",
                )
                .at("/requests"),
            );
        }
        finish(Requests { requests }, out)
    }

    /// The template copy with the populate syntax:
    /// `POST /v0/documents/{template_key}/new_document_from_template?use_populate_syntax=true`
    /// with the signers' and CC recipients' emails and names by index, and the
    /// `data` of the fields of the template children with this key. Other
    /// children, pack-wide fields (they apply to scanned PDFs) and v1 settings
    /// are left out, each with an info finding.
    pub fn build_populate(
        mut self,
        template_key: &str,
    ) -> Result<Warned<Requests<PopulateBody>>, BuildError> {
        let mut out = std::mem::take(&mut self.findings);
        let mut body = PopulateBody::default();
        for (i, s) in self.signers.iter().enumerate() {
            let sig = &s.signatory;
            if sig.email.is_some() || sig.name.is_some() {
                body.signers.insert(
                    i,
                    Party {
                        email: sig.email.clone(),
                        name: sig.name.clone(),
                    },
                );
            }
        }
        for (i, c) in self.pack.cc_recipients.iter().flatten().enumerate() {
            if c.email.is_some() || c.name.is_some() {
                body.cc.insert(
                    i,
                    Party {
                        email: c.email.clone(),
                        name: c.name.clone(),
                    },
                );
            }
        }
        let body_at = "/requests/0/body";
        if !self.fields.is_empty() {
            out.push(Finding::new(
                PackCode::PopulateIgnored,
                format!(
                    "{} pack-wide field(s) apply to scanned PDFs, not to template `{template_key}`; left out",
                    self.fields.len()
                ),
            ));
        }
        let mut fields: Vec<&FieldSpec> = Vec::new();
        for (i, c) in self.children.iter().enumerate() {
            match &c.input {
                ChildInput::Template(k) if k == template_key => fields.extend(&c.fields),
                _ => out.push(Finding::new(
                    PackCode::PopulateIgnored,
                    format!(
                        "document {i} ({}) is not template `{template_key}`; left out",
                        c.name.as_deref().unwrap_or_else(|| c.label())
                    ),
                )),
            }
        }
        for spec in fields {
            let id = match &spec.id {
                FieldId::Exact(id) => id,
                FieldId::Pattern(p) => {
                    out.push(
                        Finding::new(
                            PackCode::FieldPatternNeedsScan,
                            format!("field pattern `{p}` cannot be expanded against a template"),
                        )
                        .at(body_at),
                    );
                    continue;
                }
            };
            let at = pointer(body_at, id);
            if spec.signer.is_some() || spec.signer_uuid.is_some() {
                out.push(
                    Finding::new(
                        PackCode::PopulateSignerIgnored,
                        format!("the signer of `{id}` is left to the template"),
                    )
                    .at(at.clone()),
                );
            }
            match &spec.data {
                Some(d) if body.fields.insert(id.clone(), d.clone()).is_some() => {
                    out.push(
                        Finding::new(
                            PackCode::DataFieldDuplicate,
                            format!("`{id}` is given twice"),
                        )
                        .at(at),
                    );
                }
                Some(_) => {}
                None if spec.signer.is_none() && spec.signer_uuid.is_none() => {
                    out.push(
                        Finding::new(
                            PackCode::DataFieldEmpty,
                            format!("field `{id}` has no data"),
                        )
                        .at(at),
                    );
                }
                None => {}
            }
        }
        let mut dropped = Vec::new();
        if self.pack.mail_settings.is_some() {
            dropped.push("mail_settings".to_string());
        }
        if self.pack.signing_settings.is_some() {
            dropped.push("signing_settings".to_string());
        }
        if self.pack.team_key.is_some() {
            dropped.push("team_key".to_string());
        }
        report_dropped(&dropped, "the populate body", &mut out);
        let request = Request {
            method: "POST".into(),
            path: format!(
                "/v0/documents/{}/new_document_from_template",
                encode_segment(template_key)
            ),
            query: self.query("use_populate_syntax"),
            body,
            upload: None,
        };
        finish(
            Requests {
                requests: vec![request],
            },
            out,
        )
    }

    fn query(&self, flag: &str) -> BTreeMap<String, bool> {
        let mut q = BTreeMap::from([(flag.to_string(), true)]);
        if self.auto_request {
            q.insert("auto_request_signatures_when_ready".into(), true);
        }
        q
    }

    /// The parts of a v0 body shared by every request, reporting the v1-only
    /// settings that v0 has no place for.
    fn v0_template(
        &self,
        signatories: &[crate::PackSignatory],
        out: &mut Vec<Finding>,
    ) -> V0Document {
        let mut dropped = Vec::new();
        let mut doc = V0Document {
            team_key: self.pack.team_key.clone(),
            document_type: self.pack.document_type.clone(),
            ..V0Document::default()
        };
        doc.signatories = Some(
            signatories
                .iter()
                .map(|s| {
                    if matches!(s.primary_communication_channel, Some(ref c) if *c != Channel::Email) {
                        dropped.push("signatories[].primary_communication_channel".to_string());
                    }
                    V0Signatory {
                        uuid: s.uuid.clone(),
                        role: s.role.clone(),
                        name: s.name.clone(),
                        email: s.email.clone(),
                        mobile_number: Nullable::from_option(s.mobile_number.clone()),
                        ..V0Signatory::default()
                    }
                })
                .collect(),
        );
        if let Some(cc) = &self.pack.cc_recipients {
            doc.cc_recipients = Some(
                cc.iter()
                    .map(|c| {
                        if c.can_track_progress.is_some() {
                            dropped.push("cc_recipients[].can_track_progress".to_string());
                        }
                        V0CcRecipient {
                            email: c.email.clone(),
                            name: c.name.clone(),
                            mobile_number: Nullable::from_option(c.mobile_number.clone()),
                            ..V0CcRecipient::default()
                        }
                    })
                    .collect(),
            );
        }
        if let Some(m) = &self.pack.mail_settings {
            doc.message = m.message.clone();
            doc.subject = Nullable::from_option(m.subject.clone());
            doc.exclude_created_by_from_final_mail = m.exclude_created_by_from_final_mail;
            for (k, set) in [
                (
                    "include_attachments_in_final_mail",
                    m.include_attachments_in_final_mail.is_some(),
                ),
                ("reply_email", m.reply_email.is_some()),
                ("sender_name", m.sender_name.is_some()),
            ] {
                if set {
                    dropped.push(format!("mail_settings.{k}"));
                }
            }
        }
        if let Some(s) = &self.pack.signing_settings {
            doc.sequential_signing = s.sequential_signing;
            doc.can_use_drawn_signature = s.can_use_drawn_signature;
            doc.can_use_typed_signature = s.can_use_typed_signature;
            doc.can_use_uploaded_signature = s.can_use_uploaded_signature;
            doc.use_signing_wizard = s.use_signing_wizard;
            doc.use_two_factor_authentication = s.use_two_factor_authentication;
            doc.post_signing_url = s.post_signing_url.clone();
            for (k, set) in [
                (
                    "attachments_visible_to_all_signers",
                    s.attachments_visible_to_all_signers.is_some(),
                ),
                ("branding_key", !s.branding_key.is_absent()),
                (
                    "can_use_one_click_initial",
                    s.can_use_one_click_initial.is_some(),
                ),
                (
                    "can_use_one_click_signature",
                    s.can_use_one_click_signature.is_some(),
                ),
                (
                    "first_signer_has_multi_edit_role",
                    s.first_signer_has_multi_edit_role.is_some(),
                ),
            ] {
                if set {
                    dropped.push(format!("signing_settings.{k}"));
                }
            }
        }
        if self.workspace_defaults.is_some()
            || self.children.iter().any(|c| c.workspace_defaults.is_some())
        {
            dropped.push("use_workspace_default_document_settings".to_string());
        }
        dropped.dedup();
        report_dropped(&dropped, "a v0 document", out);
        doc
    }
}

fn report_dropped(dropped: &[String], what: &str, out: &mut Vec<Finding>) {
    if !dropped.is_empty() {
        out.push(Finding::new(
            PackCode::SettingDropped,
            format!("{what} has no place for {}; left out", dropped.join(", ")),
        ));
    }
}

/// Percent-encodes a path segment (everything but unreserved characters).
fn encode_segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
