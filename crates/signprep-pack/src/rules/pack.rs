//! A v1 pack body, read leniently, and the cross-checks with its PDFs.

use super::people::{self, Person, Policy};
use super::values::{email_ok, web_url_ok};
use super::{Ctx, pdf};
use crate::codes::{Finding, PackCode, pointer};
use crate::model::pack::{LenientPack, PackDataField};
use crate::model::settings::{ChildKind, RawCreationSettings};
use crate::suggest::{closest, list, lost};
use signprep_core::Severity;
use std::collections::BTreeSet;

/// What is known of a child's fields.
enum Fields {
    /// A template without its JSON, a URL, an unreadable PDF: nothing.
    Unknown,
    /// The addressable names, those that are signatures, and (tag-syntax
    /// children) the valid tags with their first page.
    Known {
        names: Vec<String>,
        signatures: BTreeSet<String>,
        tags: Vec<(String, usize)>,
    },
}

/// Every rule of a pack body.
pub(super) fn check(ctx: &mut Ctx<'_>, pack: &LenientPack) {
    let mut found = pack.findings();
    ctx.out.append(&mut found);
    if pack
        .document_pack_name
        .as_deref()
        .is_none_or(|n| n.trim().is_empty())
    {
        ctx.push(
            Finding::new(
                PackCode::PackNameMissing,
                "the pack has no `document_pack_name`",
            )
            .at("/document_pack_name"),
        );
    }
    let docs = pack.documents.as_deref().unwrap_or_default();
    if docs.is_empty() {
        ctx.push(
            Finding::new(PackCode::DocumentsMissing, "the pack has no document").at("/documents"),
        );
    }
    let signers = pack.signatories.as_deref().unwrap_or_default();
    if signers.is_empty() {
        ctx.push(
            Finding::new(PackCode::SignersMissing, "the pack has no signatory").at("/signatories"),
        );
    }
    let kinds: Vec<Option<ChildKind>> = docs
        .iter()
        .map(|d| {
            d.document_creation_settings
                .as_ref()
                .and_then(|s| s.check("").0)
        })
        .collect();
    let has_template = kinds.contains(&Some(ChildKind::Template));
    people_rules(ctx, pack, has_template);
    settings_rules(ctx, pack);
    workspace_rules(ctx, pack);

    let uuids: BTreeSet<&str> = signers.iter().filter_map(|s| s.uuid.as_deref()).collect();
    let mut signed: BTreeSet<String> = BTreeSet::new();
    let mut all_known = !docs.is_empty();
    for (i, (d, kind)) in docs.iter().zip(&kinds).enumerate() {
        let at = format!("/documents/{i}");
        let fields = match (kind, &d.document_creation_settings) {
            (Some(kind), Some(raw)) => child_fields(ctx, &at, *kind, raw),
            _ => Fields::Unknown,
        };
        if matches!(fields, Fields::Unknown) || *kind == Some(ChildKind::Template) {
            all_known = false;
        }
        let data_fields = d.data_fields.as_deref().unwrap_or_default();
        data_field_rules(ctx, &at, data_fields, &fields, &uuids, &mut signed);
    }
    if all_known {
        for (i, s) in signers.iter().enumerate() {
            if s.uuid.as_deref().is_some_and(|u| signed.contains(u)) {
                continue;
            }
            let who = s
                .name
                .as_deref()
                .or(s.email.as_deref())
                .map_or_else(|| format!("signer {i}"), |n| format!("signer `{n}`"));
            let why = if s.uuid.is_none() {
                " (they have no `uuid`, so no data field can name them)"
            } else {
                ""
            };
            ctx.push(
                Finding::new(
                    PackCode::SignerWithoutSignatureField,
                    format!("{who} is assigned no signature field{why}"),
                )
                .at(format!("/signatories/{i}"))
                .hint("give a signature tag or field a data field with their `signatory_uuid`"),
            );
        }
    }
}

fn people_rules(ctx: &mut Ctx<'_>, pack: &LenientPack, has_template: bool) {
    let mut people = Vec::new();
    for (i, s) in pack.signatories.iter().flatten().enumerate() {
        let mut p = Person::new(
            format!("/signatories/{i}"),
            true,
            i,
            s.name.as_deref(),
            s.email.as_deref(),
        );
        p.mobile = s.mobile_number.as_deref();
        p.channel = s.primary_communication_channel.as_ref();
        p.role = s.role.as_deref();
        p.uuid = s.uuid.as_deref();
        people.push(p);
    }
    for (i, c) in pack.cc_recipients.iter().flatten().enumerate() {
        let mut p = Person::new(
            format!("/cc_recipients/{i}"),
            false,
            i,
            c.name.as_deref(),
            c.email.as_deref(),
        );
        p.mobile = c.mobile_number.as_deref();
        people.push(p);
    }
    let policy = Policy {
        email_required: true,
        two_factor: pack
            .signing_settings
            .as_ref()
            .and_then(|s| s.use_two_factor_authentication)
            == Some(true),
        has_template,
        check_uuids: true,
    };
    people::check(&people, policy, &mut ctx.out);
}

/// `reply_email` and `post_signing_url` (shared with manifests).
pub(super) fn settings_rules_at(
    ctx: &mut Ctx<'_>,
    reply_email: Option<&str>,
    reply_at: &str,
    post_signing_url: Option<&str>,
    url_at: &str,
) {
    if let Some(r) = reply_email
        && !email_ok(r)
    {
        ctx.push(
            Finding::new(
                PackCode::ReplyEmailInvalid,
                format!("reply-to address `{r}` is not a valid email address"),
            )
            .at(reply_at)
            .hint("write it as name@domain.tld"),
        );
    }
    if let Some(u) = post_signing_url
        && !web_url_ok(u)
    {
        ctx.push(
            Finding::new(
                PackCode::PostSigningUrlInvalid,
                format!("`{u}` is not an absolute http(s) URL"),
            )
            .at(url_at)
            .hint("write the whole address, e.g. `https://example.com/signed`"),
        );
    }
}

fn settings_rules(ctx: &mut Ctx<'_>, pack: &LenientPack) {
    settings_rules_at(
        ctx,
        pack.mail_settings
            .as_ref()
            .and_then(|m| m.reply_email.as_deref()),
        "/mail_settings/reply_email",
        pack.signing_settings
            .as_ref()
            .and_then(|s| s.post_signing_url.as_deref()),
        "/signing_settings/post_signing_url",
    );
}

fn workspace_rules(ctx: &mut Ctx<'_>, pack: &LenientPack) {
    let values: Vec<bool> = pack
        .documents
        .iter()
        .flatten()
        .map(|d| {
            d.document_creation_settings
                .as_ref()
                .and_then(|s| s.use_workspace_default_document_settings)
                == Some(true)
        })
        .collect();
    let Some(i) = values.iter().position(|v| *v) else {
        return;
    };
    let at = format!(
        "/documents/{i}/document_creation_settings/use_workspace_default_document_settings"
    );
    if pack.team_key.as_deref().is_none_or(|t| t.trim().is_empty()) {
        ctx.push(
            Finding::new(
                PackCode::WorkspaceDefaultsWithoutTeam,
                "workspace defaults are on but the pack has no `team_key`: the personal workspace is used, and its defaults overwrite the request's values",
            )
            .at(at.clone())
            .hint("set `team_key` to the workspace whose defaults you mean"),
        );
    }
    if values.iter().any(|v| !v) {
        ctx.push(
            Finding::new(
                PackCode::WorkspaceDefaultsMixed,
                "some children use workspace defaults and some do not; a child cannot opt out individually",
            )
            .at(at),
        );
    }
}

/// Reads, scans and describes a child's document.
fn child_fields(ctx: &mut Ctx<'_>, at: &str, kind: ChildKind, raw: &RawCreationSettings) -> Fields {
    let settings_at = format!("{at}/document_creation_settings");
    if kind == ChildKind::Template {
        let key = raw.create_from_template_key.as_deref();
        return match ctx.checker.template_for(key) {
            Some(t) => {
                let fields = t.data_fields.as_deref().unwrap_or_default();
                Fields::Known {
                    names: fields
                        .iter()
                        .filter_map(|f| f.custom_id.value().cloned())
                        .collect(),
                    signatures: fields
                        .iter()
                        .filter(|f| f.kind.as_deref() == Some("signature"))
                        .filter_map(|f| f.custom_id.value().cloned())
                        .collect(),
                    tags: Vec::new(),
                }
            }
            None => Fields::Unknown,
        };
    }
    let Some(b64) = &raw.base_64_document else {
        return Fields::Unknown; // a URL: the service fetches it
    };
    let Ok(bytes) = b64.decode() else {
        return Fields::Unknown; // base64_invalid, reported by the lenient read
    };
    let b64_at = pointer(&settings_at, "base_64_document");
    let Some(facts) = pdf::load(ctx, &bytes, Some(&b64_at), None) else {
        return Fields::Unknown;
    };
    let signatures = facts.signatures();
    match kind {
        ChildKind::TagSyntax => {
            let tags = facts.tags();
            if tags.is_empty() {
                ctx.push(
                    Finding::new(
                        PackCode::DocumentWithoutTags,
                        "a tag-syntax child's PDF has no valid `<# TAG #>` tag: the service creates no field",
                    )
                    .at(b64_at)
                    .hint(if facts.scan.fields.is_empty() {
                        "add tags to the PDF"
                    } else {
                        "the PDF has form fields: send it as a form-field child"
                    }),
                );
            }
            Fields::Known {
                names: tags.iter().map(|(t, _)| t.clone()).collect(),
                signatures,
                tags,
            }
        }
        ChildKind::FormField | ChildKind::Template => {
            let names = facts.field_names();
            if names.is_empty() {
                ctx.push(
                    Finding::new(
                        PackCode::DocumentWithoutFormFields,
                        "a form-field child's PDF has no form field: the service creates no field",
                    )
                    .at(b64_at)
                    .hint(if facts.tags().is_empty() {
                        "add form fields to the PDF"
                    } else {
                        "the PDF has tags: send it as a tag-syntax child (`extract_fields_by_tag`)"
                    }),
                );
                return Fields::Unknown;
            }
            Fields::Known {
                names,
                signatures,
                tags: Vec::new(),
            }
        }
    }
}

fn data_field_rules(
    ctx: &mut Ctx<'_>,
    at: &str,
    fields: &[PackDataField],
    known: &Fields,
    uuids: &BTreeSet<&str>,
    signed: &mut BTreeSet<String>,
) {
    let mut seen = BTreeSet::new();
    // Looked up once per data field: a set, not a scan of the names.
    let name_set: BTreeSet<&str> = match known {
        Fields::Known { names, .. } => names.iter().map(String::as_str).collect(),
        Fields::Unknown => BTreeSet::new(),
    };
    for (j, f) in fields.iter().enumerate() {
        let fat = format!("{at}/data_fields/{j}");
        let id = f.custom_id.as_deref().filter(|c| !c.trim().is_empty());
        let Some(id) = id else {
            ctx.push(
                Finding::new(
                    PackCode::DataFieldCustomIdMissing,
                    "a data field has no `custom_id`, so it matches no field",
                )
                .at(if f.custom_id.is_some() {
                    pointer(&fat, "custom_id")
                } else {
                    fat.clone()
                }),
            );
            continue;
        };
        if !seen.insert(id) {
            ctx.push(
                Finding::new(
                    PackCode::DataFieldDuplicate,
                    format!("`{id}` is given twice in this child"),
                )
                .at(pointer(&fat, "custom_id")),
            );
        }
        if f.data.is_none() && f.signatory_uuid.is_none() {
            ctx.push(
                Finding::new(
                    PackCode::DataFieldEmpty,
                    format!("data field `{id}` has neither `data` nor `signatory_uuid`; it changes nothing"),
                )
                .at(fat.clone()),
            );
        }
        if let Some(u) = f.signatory_uuid.as_deref()
            && !uuids.contains(u)
        {
            let hint = if uuids.is_empty() {
                "no signatory has a `uuid`".to_string()
            } else {
                format!(
                    "signatory uuids: {}",
                    // `list` shows twelve, and `...` when there are more.
                    list(&uuids.iter().take(13).collect::<Vec<_>>())
                )
            };
            ctx.push(
                Finding::new(
                    PackCode::DataFieldSignerUnknown,
                    format!("data field `{id}` names signatory `{u}`, which no signatory of the pack has"),
                )
                .at(pointer(&fat, "signatory_uuid"))
                .hint(hint),
            );
        }
        if let Fields::Known {
            names, signatures, ..
        } = known
        {
            if !name_set.contains(id) {
                let hint = match closest(
                    id,
                    names.iter().map(String::as_str),
                    &mut ctx.suggest_budget,
                ) {
                    Some(best) => {
                        format!("did you mean `{best}`? the document has: {}", list(names))
                    }
                    None => format!("the document has: {}", list(names)),
                };
                let carries = f.data.is_some() || f.signatory_uuid.is_some();
                let mut finding = Finding::new(
                    PackCode::CustomIdNotInDocument,
                    format!(
                        "`{id}` is not a tag or form field of this child's document; the service ignores it{}",
                        lost(carries)
                    ),
                )
                .at(pointer(&fat, "custom_id"))
                .hint(hint);
                if !carries {
                    finding.severity = Severity::Warning;
                }
                ctx.push(finding);
            }
            if signatures.contains(id) {
                if f.data.is_some() {
                    ctx.push(
                        Finding::new(
                            PackCode::DataForSignatureField,
                            format!("`{id}` is a signature field; its `data` is not a signature"),
                        )
                        .at(pointer(&fat, "data"))
                        .hint("leave `data` out and assign the field with `signatory_uuid`"),
                    );
                }
                if let Some(u) = &f.signatory_uuid {
                    signed.insert(u.clone());
                }
            }
        }
    }
    if let Fields::Known { tags, .. } = known {
        for (tag, page) in tags {
            if !seen.contains(tag.as_str()) {
                let mut f = Finding::new(
                    PackCode::TagWithoutDataField,
                    format!("tag `{tag}` has no data field: its field is created with no value and no signer"),
                )
                .at(format!("{at}/data_fields"));
                f.page = Some(*page);
                f.tag = Some(tag.clone());
                ctx.push(f);
            }
        }
    }
}
