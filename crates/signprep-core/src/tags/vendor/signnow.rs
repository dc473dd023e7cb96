//! signNow simple text tags: `{{t:s;r:y;o:"Role";l:"Label";w:100;h:15;}}`.
//!
//! Keys in order: `t` type (`s` signature, `i` initials, `t` text, `d`
//! dropdown, `c` checkbox, `f` file), `r` required (`y`/`n`), `o` role,
//! `l` label, `dd` dropdown options, `f` file, `w` width, `h` height, `v`
//! validator id. `t`, `r` and `o` are needed for every field. `w`/`h` set
//! the size; without them the field follows the tag.
//! `p` is the prefilled text. Besides double braces, signNow reads a simple
//! tag in single braces (`{t:s;r:y;o:"Client";}`), single square brackets
//! (`[t:s;r:y;o:"Client";]`) and double square brackets; a tag may go on over
//! several lines, broken before or after a `:` or `;`, and is then read
//! whole (its field starts where the tag starts).
//! Source: docs.signnow.com/text-tags,
//! campus.barracuda.com/product/campus/doc/45023279/how-to-generate-text-tags-on-a-document
//! (other brackets), helpcenter.signnow.com/en/articles/13158901-automate-fields-with-text-tags
//! (line breaks) and blog.signnow.com/signnow-api-simple-text-tags (`p:`).
//!
//! Complex text tags are a bare name (`{{tag_name}}`, `[[tag_name]]`):
//! the document holds only the place; the field's type, role, label and
//! size are given in the `tags` of the `POST /document/fieldextract`
//! request. Source: docs.signnow.com/code-examples/documents-templates-fields/add-text-tags.

use super::{Parsed, Problem, split_outside, unquote};

const TYPES: &[(&str, &str)] = &[
    ("s", "signature"),
    ("i", "initials"),
    ("t", "text"),
    ("d", "dropdown"),
    ("c", "checkbox"),
    ("f", "file"),
];

/// A simple signNow tag starts with the type key `t:`.
pub(super) fn is_simple(inner: &str) -> bool {
    inner
        .strip_prefix('t')
        .is_some_and(|r| r.trim_start().starts_with(':'))
}

/// A complex tag's name: letters, digits, `_`, `-`, `.` and inner spaces.
pub(super) fn complex_name(inner: &str) -> Option<&str> {
    let name = inner.trim();
    (!name.is_empty()
        && name.starts_with(|c: char| c.is_alphanumeric() || c == '_')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ' ')))
    .then_some(name)
}

/// A simple tag (`t:...`) or a complex tag's bare name.
pub(super) fn claims(inner: &str) -> bool {
    is_simple(inner) || complex_name(inner).is_some()
}

/// signNow reads a tag broken over lines when every break falls before or
/// after a `:` or `;` (`pieces`: the tag's text line by line).
pub(super) fn reads_wrapped(pieces: &[&str]) -> bool {
    pieces.windows(2).all(|w| match w {
        [a, b] => a.trim_end().ends_with([':', ';']) || b.trim_start().starts_with([':', ';']),
        _ => true,
    })
}

pub(super) fn parse(inner: &str) -> Parsed {
    let mut p = Parsed::default();
    if !is_simple(inner)
        && let Some(name) = complex_name(inner)
    {
        p.attrs.field_type = "complex".to_string();
        p.attrs.kind = "unknown".to_string();
        p.attrs.name = Some(name.to_string());
        p.problem(Problem::DefinedElsewhere(
            "a signNow complex text tag: its type, role and label are given in the `tags` of the fieldextract request, not in the document".into(),
        ));
        return p;
    }
    let (mut typ, mut req) = (None, None);
    for part in split_outside(inner, ';').into_iter().map(str::trim) {
        if part.is_empty() {
            continue;
        }
        let Some((key, value)) = part.split_once(':') else {
            p.problem(Problem::Malformed(format!(
                "`{part}` is not a `key:value` pair"
            )));
            continue;
        };
        let (key, raw_value) = (key.trim().to_ascii_lowercase(), value.trim());
        let value = unquote(raw_value);
        match key.as_str() {
            "t" => typ = Some(value.to_ascii_lowercase()),
            "r" => req = Some(value.to_ascii_lowercase()),
            "o" => p.attrs.signer = (!value.is_empty()).then(|| value.to_string()),
            "l" => p.attrs.label = (!value.is_empty()).then(|| value.to_string()),
            "p" => p.attrs.default = (!value.is_empty()).then(|| value.to_string()),
            "dd" => {
                p.attrs.options = value
                    .split(',')
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            "w" | "h" => match value.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => {
                    if key == "w" {
                        p.attrs.width = Some(v);
                    } else {
                        p.attrs.height = Some(v);
                    }
                }
                _ => p.problem(Problem::Malformed(format!(
                    "`{key}:{raw_value}` is not a positive number"
                ))),
            },
            "v" => {
                p.attrs
                    .extra
                    .insert("validator_id".into(), value.to_string());
            }
            _ => {
                p.attrs.extra.insert(key, value.to_string());
            }
        }
    }
    let typ = typ.unwrap_or_default();
    p.attrs.kind = match TYPES.iter().find(|(t, _)| *t == typ) {
        Some((_, k)) => (*k).to_string(),
        None => {
            p.problem(Problem::UnknownType(typ.clone()));
            "unknown".to_string()
        }
    };
    p.attrs.required = match req.as_deref() {
        Some("y") => true,
        Some("n") => false,
        Some(other) => {
            p.problem(Problem::Malformed(format!(
                "`r:{other}`: expected `y` or `n`"
            )));
            false
        }
        None => {
            p.problem(Problem::Malformed(
                "no `r:` (required) key; signNow needs it on every field".into(),
            ));
            false
        }
    };
    if p.attrs.signer.is_none() {
        p.problem(Problem::Malformed(
            "no `o:` (role) key; signNow needs it on every field".into(),
        ));
    }
    if typ == "d" && p.attrs.options.is_empty() {
        p.problem(Problem::Malformed(
            "a dropdown (`t:d`) needs `dd:\"a,b\"`".into(),
        ));
    }
    p.attrs.field_type = typ;
    p
}
