//! BoldSign text tags: `{{type|signerIndex|required|label|id}}`.
//!
//! The signer index (from 1) is required; `*` marks the field required; the
//! fourth part is the placeholder (the date format for `editdate`); the id
//! takes `A-Z a-z 0-9 - _`. Radio buttons and checkboxes need definition
//! tags, which are not text tags. The field takes the size of the tag.
//! Source: developers.boldsign.com/text-tags/introduction and
//! developers.boldsign.com/text-tags/supported-fields/.

use super::{Parsed, Problem, set_signer_index, some};

const TYPES: &[(&str, &str)] = &[
    ("text", "text"),
    ("sign", "signature"),
    ("init", "initials"),
    ("date", "date_signed"),
    ("editdate", "date"),
    ("title", "title"),
    ("company", "company"),
];

/// A BoldSign tag is `|`-separated and starts with a word.
pub(super) fn claims(inner: &str) -> bool {
    let mut parts = inner.split('|');
    let first = parts.next().unwrap_or_default().trim();
    parts.next().is_some() && !first.is_empty() && first.chars().all(|c| c.is_ascii_alphanumeric())
}

pub(super) fn parse(inner: &str) -> Parsed {
    let mut p = Parsed::default();
    let parts: Vec<&str> = inner.split('|').collect();
    let typ = parts.first().map_or("", |s| s.trim()).to_ascii_lowercase();
    p.attrs.kind = match TYPES.iter().find(|(t, _)| *t == typ) {
        Some((_, k)) => (*k).to_string(),
        None => {
            p.problem(Problem::UnknownType(typ.clone()));
            "unknown".to_string()
        }
    };
    p.attrs.read_only = typ == "date";
    match parts.get(1).map(|s| s.trim()) {
        None | Some("") => p.problem(Problem::Malformed(
            "the signer index (second part, from 1) is required".into(),
        )),
        Some(s) => {
            p.attrs.signer = Some(s.to_string());
            match s.parse::<u32>() {
                Ok(n) => set_signer_index(&mut p, s, n),
                Err(_) => p.problem(Problem::Malformed(format!(
                    "signer index `{s}` is not a number"
                ))),
            }
        }
    }
    p.attrs.required = match parts.get(2).map(|s| s.trim()) {
        Some("*") => true,
        None | Some("") => false,
        Some(other) => {
            p.problem(Problem::Malformed(format!(
                "required part `{other}` is neither `*` nor blank"
            )));
            false
        }
    };
    if let Some(label) = parts.get(3).and_then(|s| some(s)) {
        if typ == "editdate" {
            p.attrs.extra.insert("date_format".into(), label);
        } else {
            p.attrs.label = Some(label);
        }
    }
    if let Some(id) = parts.get(4).and_then(|s| some(s)) {
        if !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            p.problem(Problem::Malformed(format!(
                "field id `{id}` has characters other than A-Z, a-z, 0-9, - and _"
            )));
        }
        p.attrs.id = Some(id);
    }
    if parts.len() > 5 {
        p.problem(Problem::Malformed(format!(
            "{} parts; the grammar has at most five (type, signer, required, label, id)",
            parts.len()
        )));
    }
    p.attrs.field_type = typ;
    p
}
