//! PandaDoc field tags: `{fieldType[:*]:role[:optId]____}`, also written in
//! square brackets (`[textfield:user:name___]`).
//!
//! `*` makes the field optional (fields are required otherwise); roles take
//! no `_`; trailing underscores only widen the field; a trailing `:` is not
//! allowed. The field scales to the tag. Source:
//! developers.pandadoc.com/docs/field-tags (the page's list of types was not
//! retrievable: the types below are the ones its text and examples name).

use super::{Parsed, Problem, some};

const TYPES: &[(&str, &str)] = &[
    ("signature", "signature"),
    ("s", "signature"),
    ("initials", "initials"),
    ("text", "text"),
    ("textfield", "text"),
    ("date", "date"),
    ("checkbox", "checkbox"),
    ("dropdown", "dropdown"),
];

/// A PandaDoc tag is `:`-separated and starts with a word (no `|`, `;`).
pub(super) fn claims(inner: &str) -> bool {
    let mut parts = inner.split(':');
    let first = parts.next().unwrap_or_default();
    parts.next().is_some()
        && !inner.contains(['|', ';', '=', ' ', '"'])
        && !first.is_empty()
        && first.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
}

pub(super) fn parse(inner: &str) -> Parsed {
    let mut p = Parsed::default();
    let trimmed = inner.trim_end_matches('_');
    if trimmed.ends_with(':') {
        p.problem(Problem::Malformed("a trailing `:` is not allowed".into()));
    }
    let mut parts: Vec<&str> = trimmed.split(':').collect();
    let typ = parts.remove(0).to_ascii_lowercase();
    p.attrs.kind = match TYPES.iter().find(|(t, _)| *t == typ) {
        Some((_, k)) => (*k).to_string(),
        None => {
            p.problem(Problem::UnknownType(typ.clone()));
            "unknown".to_string()
        }
    };
    p.attrs.required = true;
    if parts.first() == Some(&"*") {
        p.attrs.required = false;
        parts.remove(0);
    }
    match parts.first().and_then(|r| some(r)) {
        Some(role) => {
            if role.contains('_') {
                p.problem(Problem::Malformed(format!(
                    "role `{role}` has `_`, which PandaDoc does not accept in role names"
                )));
            }
            p.attrs.signer = Some(role);
        }
        None => p.problem(Problem::Malformed("no role after the type".into())),
    }
    p.attrs.id = parts.get(1).and_then(|s| some(s));
    if parts.len() > 2 {
        p.problem(Problem::Malformed(format!(
            "{} parts after the type; the grammar has `[*:]role[:optId]`",
            parts.len()
        )));
    }
    p.attrs.field_type = typ;
    p
}
