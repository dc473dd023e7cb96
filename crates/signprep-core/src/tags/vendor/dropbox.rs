//! Dropbox Sign (HelloSign) text tags: `[type|req|signerN|Label|UniqueId]`.
//!
//! Label and id are optional; the requirement is `req` or `noreq`, and
//! anything else is read as `req`. The field takes the size of the tag.
//! Source: developers.hellosign.com/docs/text-tags/walkthrough/ and
//! developers.hellosign.com/docs/adding-pre-filled-data/text-tag-prefill-data.

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

/// A Dropbox tag is `|`-separated and starts with a word.
pub(super) fn claims(inner: &str) -> bool {
    let mut parts = inner.split('|');
    let first = parts.next().unwrap_or_default().trim();
    parts.next().is_some()
        && !first.is_empty()
        && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

pub(super) fn parse(inner: &str) -> Parsed {
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
        Some(other) => {
            p.problem(Problem::Malformed(format!(
                "requirement `{other}` is neither `req` nor `noreq`; Dropbox Sign reads it as `req`"
            )));
            true
        }
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

fn signer_is_sender(parts: &[&str]) -> bool {
    parts
        .get(2)
        .is_some_and(|s| s.eq_ignore_ascii_case("sender"))
}
