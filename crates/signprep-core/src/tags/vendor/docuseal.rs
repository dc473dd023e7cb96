//! DocuSeal embedded text field tags: `{{Name;key=value;...}}`.
//!
//! Keys: `name`, `type`, `role`, `default`, `required` (default true),
//! `readonly` (default false), `options` (comma list), `width`, `height`
//! (absolute, in pixels). The type defaults to a text field. Without
//! `width` the field is as wide as the tag; without `height`, as high as
//! the font size. Source: docuseal.co/guides/use-embedded-text-field-tags-in-the-pdf-to-create-a-fillable-form.
//! DocuSeal's parser (`lib/templates/find_text_tags.rb` in docusealco/docuseal)
//! joins each line's text nodes and matches `\{\{([^{}]+)\}\}` within the
//! line, so a tag wrapped onto the next line is not read; it also reads a
//! key without a value as `true` and the attributes in `MORE_KEYS`.

use super::{Parsed, Problem, some};

const TYPES: &[(&str, &str)] = &[
    ("text", "text"),
    ("signature", "signature"),
    ("initials", "initials"),
    ("date", "date"),
    ("datenow", "date_signed"),
    ("image", "image"),
    ("file", "file"),
    ("payment", "payment"),
    ("stamp", "stamp"),
    ("select", "dropdown"),
    ("checkbox", "checkbox"),
    ("multiple", "multiple"),
    ("radio", "radio"),
    ("phone", "phone"),
];

/// Attributes DocuSeal's tag parser reads besides the documented ones
/// (`lib/templates/find_text_tags.rb` in docusealco/docuseal): kept in
/// `extra`, not reported.
const MORE_KEYS: &[&str] = &[
    "uuid",
    "title",
    "description",
    "default_value",
    "value",
    "values",
    "font_size",
    "font_type",
    "font",
    "color",
    "background",
    "align",
    "valign",
    "format",
    "price",
    "currency",
    "mask",
    "reasons",
];

/// A key DocuSeal reads (`-` and case as its parser folds them).
pub(super) fn is_attribute(key: &str) -> bool {
    let k = key.trim().replace('-', "_").to_ascii_lowercase();
    matches!(
        k.as_str(),
        "name"
            | "type"
            | "role"
            | "default"
            | "required"
            | "readonly"
            | "options"
            | "width"
            | "height"
    ) || MORE_KEYS.contains(&k.as_str())
}

/// A DocuSeal tag has no `|`: a name, `key=value` attributes, or both.
pub(super) fn claims(inner: &str) -> bool {
    !inner.is_empty()
        && !inner.contains(['|', '{', '}'])
        && !super::signnow::is_simple(inner)
        && inner.split(';').next().is_some_and(|first| {
            let first = first.trim();
            !first.is_empty() && !first.starts_with(['#', '/', '!', '*', '>', '^'])
        })
}

pub(super) fn parse(inner: &str) -> Parsed {
    let mut p = Parsed::default();
    let mut typ: Option<String> = None;
    p.attrs.required = true;
    for (i, part) in inner.split(';').map(str::trim).enumerate() {
        if part.is_empty() {
            continue;
        }
        // A key without a value is `true` (`{{Sign;readonly}}`).
        let (key, value) = match part.split_once('=') {
            Some(kv) => kv,
            None if i == 0 => {
                p.attrs.name = Some(part.to_string());
                continue;
            }
            None if is_attribute(part) => (part, "true"),
            None => {
                p.problem(Problem::Malformed(format!(
                    "`{part}` is not a `key=value` attribute"
                )));
                continue;
            }
        };
        let (key, value) = (
            key.trim().replace('-', "_").to_ascii_lowercase(),
            value.trim(),
        );
        match key.as_str() {
            "name" => p.attrs.name = some(value),
            "type" => typ = Some(value.to_ascii_lowercase()),
            "role" => p.attrs.signer = some(value),
            "default" => p.attrs.default = some(value),
            "required" | "readonly" => match value.to_ascii_lowercase().as_str() {
                "true" => set_flag(&mut p, &key, true),
                "false" => set_flag(&mut p, &key, false),
                _ => p.problem(Problem::Malformed(format!(
                    "`{key}={value}`: expected true or false"
                ))),
            },
            "options" => {
                p.attrs.options = value
                    .split(',')
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            "width" | "height" => match value.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => {
                    if key == "width" {
                        p.attrs.width = Some(v);
                    } else {
                        p.attrs.height = Some(v);
                    }
                }
                _ => p.problem(Problem::Malformed(format!(
                    "`{key}={value}` is not a positive number"
                ))),
            },
            "default_value" | "value" => p.attrs.default = some(value),
            "values" => {
                p.attrs.options = value
                    .split(',')
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            k if MORE_KEYS.contains(&k) => {
                p.attrs.extra.insert(key, value.to_string());
            }
            _ => {
                p.problem(Problem::Malformed(format!(
                    "`{key}` is not a DocuSeal attribute"
                )));
                p.attrs.extra.insert(key, value.to_string());
            }
        }
    }
    let typ = typ.unwrap_or_else(|| "text".to_string());
    p.attrs.kind = match TYPES.iter().find(|(t, _)| *t == typ) {
        Some((_, k)) => (*k).to_string(),
        None => {
            p.problem(Problem::UnknownType(typ.clone()));
            "unknown".to_string()
        }
    };
    if matches!(typ.as_str(), "select" | "radio") && p.attrs.options.is_empty() {
        p.problem(Problem::Malformed(format!(
            "a `{typ}` field needs `options=` (a comma-separated list)"
        )));
    }
    p.attrs.read_only |= typ == "datenow";
    p.attrs.field_type = typ;
    p
}

fn set_flag(p: &mut Parsed, key: &str, v: bool) {
    if key == "required" {
        p.attrs.required = v;
    } else {
        p.attrs.read_only = v;
    }
}
