//! Populate-syntax bodies (template copies), checked against the template when
//! its JSON is given.

use super::Ctx;
use super::values::email_ok;
use crate::codes::{Finding, PackCode, pointer};
use crate::model::populate::PopulateKey;
use crate::suggest::{closest, list};
use crate::surface::Opt;
use serde_json::Value;
use signprep_core::Severity;
use std::collections::{BTreeMap, BTreeSet};

/// Every rule of a populate body at `at`. `template_key` is the key in the
/// request path, when known; `auto_request` is set when signature requests go
/// out at once (`auto_request_signatures_when_ready`).
pub(super) fn check(
    ctx: &mut Ctx<'_>,
    body: &Value,
    at: &str,
    template_key: Option<&str>,
    auto_request: bool,
) {
    let Some(obj) = body.as_object() else {
        ctx.push(
            Finding::new(
                PackCode::BodyInvalid,
                "a populate body is a flat JSON object",
            )
            .at(at),
        );
        return;
    };
    if obj.is_empty() {
        ctx.push(
            Finding::new(
                PackCode::PopulateBodyEmpty,
                "the populate body is empty: the copy is the template as it is, with no signer set and no field filled",
            )
            .at(at)
            .hint("add `signer_0_email`/`signer_0_name` (and the fields' values), or copy without `use_populate_syntax`"),
        );
        return;
    }
    let template = ctx.checker.template_for(template_key);
    let template_fields: Option<BTreeMap<&str, bool>> = template.map(|t| {
        t.data_fields
            .iter()
            .flatten()
            .filter_map(|f| {
                f.custom_id
                    .value()
                    .map(|c| (c.as_str(), f.kind.as_deref() == Some("signature")))
            })
            .collect()
    });
    let template_signers = template.map(|t| t.signatories.as_deref().unwrap_or_default());
    let mut signers: BTreeMap<usize, (Option<&str>, Option<&str>)> = BTreeMap::new();
    let mut ccs: BTreeSet<usize> = BTreeSet::new();
    for (k, v) in obj {
        let kat = pointer(at, k);
        let Some(v) = v.as_str() else {
            ctx.push(
                Finding::new(
                    PackCode::BodyInvalid,
                    format!("`{k}` is not a string; every value of a populate body is a string"),
                )
                .at(kat),
            );
            continue;
        };
        match PopulateKey::parse(k) {
            PopulateKey::Signer(i, email) => {
                let slot = signers.entry(i).or_default();
                if email {
                    slot.0 = Some(v);
                } else {
                    slot.1 = Some(v);
                }
                if email {
                    email_rule(ctx, k, v, &kat);
                }
                if let Some(ts) = template_signers
                    && i >= ts.len()
                {
                    ctx.push(
                        Finding::new(
                            PackCode::PopulateKeyUnknown,
                            format!(
                                "`{k}` addresses signer {i}, but the template has {} signer(s)",
                                ts.len()
                            ),
                        )
                        .at(kat)
                        .hint(format!(
                            "signer indices are zero-based: signer_0 to signer_{}",
                            ts.len().saturating_sub(1)
                        )),
                    );
                }
            }
            PopulateKey::Cc(i, email) => {
                ccs.insert(i);
                if email {
                    email_rule(ctx, k, v, &kat);
                }
            }
            PopulateKey::Field(id) => field_rule(ctx, id, v, &kat, template_fields.as_ref()),
        }
    }
    let index_of = |k: &str, cc: bool| match PopulateKey::parse(k) {
        PopulateKey::Signer(i, _) if !cc => Some(i),
        PopulateKey::Cc(i, _) if cc => Some(i),
        _ => None,
    };
    let signer_indices: BTreeSet<usize> = signers.keys().copied().collect();
    for (what, cc, indices) in [("signer", false, signer_indices), ("cc", true, ccs)] {
        let Some(missing) = (0..).find(|n| !indices.contains(n)) else {
            continue;
        };
        let Some(after) = indices.iter().copied().find(|n| *n > missing) else {
            continue;
        };
        let key_at = obj
            .keys()
            .find(|k| index_of(k, cc) == Some(after))
            .map_or_else(|| at.to_string(), |k| pointer(at, k));
        ctx.push(
            Finding::new(
                PackCode::PopulateIndexGap,
                format!("{what} indices skip {missing}: there is a `{what}_{after}_...` but no `{what}_{missing}_...`"),
            )
            .at(key_at)
            .hint("indices are zero-based positions in the template; number them without gaps"),
        );
    }
    if auto_request {
        request_rule(ctx, at, &signers, template_signers);
    }
}

fn email_rule(ctx: &mut Ctx<'_>, k: &str, v: &str, at: &str) {
    if !email_ok(v) {
        ctx.push(
            Finding::new(
                PackCode::EmailInvalid,
                format!("`{k}`: `{v}` is not a valid email address"),
            )
            .at(at)
            .hint("write it as name@domain.tld"),
        );
    }
}

/// A key that is a template field's custom_id.
fn field_rule(
    ctx: &mut Ctx<'_>,
    id: &str,
    v: &str,
    at: &str,
    template: Option<&BTreeMap<&str, bool>>,
) {
    match template {
        Some(fields) => match fields.get(id) {
            Some(true) if !v.is_empty() => ctx.push(
                Finding::new(
                    PackCode::DataForSignatureField,
                    format!(
                        "`{id}` is a signature field of the template; a value is not a signature"
                    ),
                )
                .at(at),
            ),
            Some(_) => {}
            None => {
                // `list` shows twelve, and `...` when there are more.
                let names: Vec<&str> = fields.keys().copied().take(13).collect();
                let hint = match closest(id, fields.keys().copied(), &mut ctx.suggest_budget) {
                    Some(best) => format!(
                        "did you mean `{best}`? the template's fields: {}",
                        list(&names)
                    ),
                    None => format!("the template's fields: {}", list(&names)),
                };
                ctx.push(
                    Finding::new(
                        PackCode::PopulateKeyUnknown,
                        format!("`{id}` is not a signer or CC key, nor the custom_id of a field of the template; the service ignores it"),
                    )
                    .at(at)
                    .hint(hint),
                );
            }
        },
        None => {
            let lower = id.to_ascii_lowercase();
            if lower.starts_with("signer_") || lower.starts_with("cc_") {
                let mut f = Finding::new(
                    PackCode::PopulateKeyUnknown,
                    format!("`{id}` looks like a signer or CC key but is not `signer_<n>_email`/`_name` or `cc_<n>_email`/`_name`; it is read as a template field's custom_id"),
                )
                .at(at)
                .hint(format!(
                    "n is a zero-based index without leading zeros; pass the template's JSON with {} to check field keys",
                    ctx.checker.surface.name(Opt::Template)
                ));
                f.severity = Severity::Warning;
                ctx.push(f);
            }
        }
    }
}

/// Signature requests go out at once: every template signer needs an email,
/// from the body or the template.
fn request_rule(
    ctx: &mut Ctx<'_>,
    at: &str,
    signers: &BTreeMap<usize, (Option<&str>, Option<&str>)>,
    template_signers: Option<&[crate::model::v0::V0Signatory]>,
) {
    let missing: Vec<usize> = match template_signers {
        Some(ts) => ts
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                let body = signers.get(i).and_then(|p| p.0);
                body.or(s.email.as_deref())
                    .is_none_or(|e| e.trim().is_empty())
            })
            .map(|(i, _)| i)
            .collect(),
        None => signers
            .iter()
            .filter(|(_, (email, _))| email.is_none_or(|e| e.trim().is_empty()))
            .map(|(i, _)| *i)
            .collect(),
    };
    for i in missing {
        ctx.push(
            Finding::new(
                PackCode::RequestSignaturesWithoutEmail,
                format!("signature requests go out at once, but signer {i} has no email (no `signer_{i}_email`, none on the template)"),
            )
            .at(at)
            .hint(format!("add `signer_{i}_email`, or drop auto_request_signatures_when_ready")),
        );
    }
}
