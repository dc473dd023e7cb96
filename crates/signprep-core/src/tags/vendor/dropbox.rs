//! Dropbox Sign (HelloSign) text tags: `[type|req|signerN|Label|UniqueId]`.
//!
//! Label and id are optional; the requirement is `req` or `noreq`, and
//! anything else is read as `req`. The field takes the size of the tag.
//! Source: developers.hellosign.com/docs/text-tags/walkthrough/ and
//! developers.hellosign.com/docs/adding-pre-filled-data/text-tag-prefill-data.
//!
//! Definition and reference tags: `[def:$name|type|req|signerN|Label|Id]`
//! defines a tag once (it places no field) and each `[$name]` places a field
//! with that definition, in the reference's own box; the references of one
//! definition form one checkbox group, whose requirement may be a count
//! (`req2`: exactly two checked) or a range (`req1-2`). A definition may
//! stand anywhere in the document. Source: help.dropbox.com/integrations/grouping-checkboxes-using-text-tags-dropbox-sign
//! and help.dropbox.com/integrations/grouped-checkboxes-api-dropbox-sign.

use super::{Parsed, Problem, numbered, set_signer_index, some};

const TYPES: &[(&str, &str)] = &[
    ("text", "text"),
    ("check", "checkbox"),
    ("date", "date_signed"),
    ("initial", "initials"),
    ("sig", "signature"),
    ("text-merge", "text"),
    ("checkbox-merge", "checkbox"),
];

/// `def:$name` → `name` (the name may hold letters, digits, `_` and `-`).
pub(super) fn definition(inner: &str) -> Option<&str> {
    let head = inner.split('|').next()?.trim();
    let name = head.strip_prefix("def:")?.trim_start().strip_prefix('$')?;
    is_var(name).then_some(name)
}

/// `$name` (the whole tag) → `name`.
pub(super) fn reference(inner: &str) -> Option<&str> {
    let name = inner.trim().strip_prefix('$')?;
    is_var(name).then_some(name)
}

fn is_var(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A Dropbox tag is `|`-separated and starts with a word, or is a
/// definition (`def:$name|...`) or a reference (`$name`).
pub(super) fn claims(inner: &str) -> bool {
    if reference(inner).is_some() {
        return true;
    }
    if definition(inner).is_some() {
        return inner.contains('|');
    }
    let mut parts = inner.split('|');
    let first = parts.next().unwrap_or_default().trim();
    parts.next().is_some()
        && !first.is_empty()
        && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

pub(super) fn parse(inner: &str) -> Parsed {
    if let Some(name) = reference(inner) {
        // Its attributes are the definition's, found across the document.
        let mut p = Parsed::default();
        p.attrs.field_type = format!("${name}");
        p.attrs.kind = "unknown".to_string();
        p.attrs.extra.insert("reference".into(), name.to_string());
        return p;
    }
    let (def, body) = match definition(inner) {
        Some(name) => (Some(name), inner.split_once('|').map_or("", |(_, b)| b)),
        None => (None, inner),
    };
    let mut p = parse_tag(body);
    if let Some(name) = def {
        p.attrs.extra.insert("definition".into(), name.to_string());
    }
    p
}

fn parse_tag(inner: &str) -> Parsed {
    let mut p = Parsed::default();
    let parts: Vec<&str> = inner.split('|').map(str::trim).collect();
    let typ = parts
        .first()
        .copied()
        .unwrap_or_default()
        .to_ascii_lowercase();
    p.attrs.kind = match TYPES.iter().find(|(t, _)| *t == typ) {
        Some((_, k)) => (*k).to_string(),
        None => {
            p.problem(Problem::UnknownType(typ.clone()));
            "unknown".to_string()
        }
    };
    p.attrs.read_only = typ == "date" || (typ.ends_with("-merge") && signer_is_sender(&parts));
    p.attrs.field_type = typ;
    if parts.len() < 3 {
        p.problem(Problem::Malformed(
            "a tag needs at least type, requirement and signer (`[sig|req|signer1]`)".into(),
        ));
    }
    if parts.len() > 5 {
        p.problem(Problem::Malformed(format!(
            "{} parts; the grammar has at most five (type, requirement, signer, label, id)",
            parts.len()
        )));
    }
    p.attrs.required = match parts.get(1).copied() {
        Some("noreq") => false,
        Some("req") | None => true,
        Some(other) => match group_requirement(other) {
            Some((min, _)) => {
                p.attrs
                    .extra
                    .insert("group_requirement".into(), other.to_string());
                min > 0
            }
            None => {
                p.problem(Problem::Malformed(format!(
                    "requirement `{other}` is neither `req` nor `noreq`; Dropbox Sign reads it as `req`"
                )));
                true
            }
        },
    };
    if let Some(&signer) = parts.get(2) {
        let lower = signer.to_ascii_lowercase();
        match numbered(&lower, "signer") {
            Some(Some(n)) => set_signer_index(&mut p, signer, n),
            _ if lower == "sender" => {}
            _ => p.problem(Problem::Malformed(format!(
                "signer `{signer}` is not `signerN` or `sender`"
            ))),
        }
        p.attrs.signer = some(signer);
    }
    p.attrs.label = parts.get(3).and_then(|s| some(s));
    p.attrs.id = parts.get(4).and_then(|s| some(s));
    p
}

/// A checkbox group's requirement: `req2` (exactly two), `req1-3` (one to
/// three) → (minimum, maximum).
fn group_requirement(r: &str) -> Option<(u32, Option<u32>)> {
    let rest = r.strip_prefix("req")?;
    let (lo, hi) = match rest.split_once('-') {
        Some((lo, hi)) => (lo, Some(hi)),
        None => (rest, None),
    };
    let lo: u32 = lo.parse().ok()?;
    let hi = match hi {
        Some(h) => Some(h.parse::<u32>().ok().filter(|h| *h >= lo)?),
        None => None,
    };
    Some((lo, hi))
}

fn signer_is_sender(parts: &[&str]) -> bool {
    parts
        .get(2)
        .is_some_and(|s| s.eq_ignore_ascii_case("sender"))
}
