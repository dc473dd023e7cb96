//! Documenso PDF placeholders: `{{TYPE, rN, option=value, ...}}`.
//!
//! Documenso finds `\{\{([^}]+)\}\}` in each page's text, splits the inside
//! on `,` and trims the parts: the field type (case-insensitive, or a short
//! alias: `s` signature, `fs` free_signature, `i` initials, `n` name, `e`
//! email, `d` date, `t` text, `num` number, `r` radio, `cb` checkbox, `dd`
//! dropdown), then the recipient `r1`, `r2`, ... (the n-th recipient; a
//! placeholder without one is "reserved for API use" and makes no field),
//! then options as `key=value` or `key:value` (short keys `r` required, `ro`
//! readOnly, `f` fontSize, `l` label, `p` placeholder, `id` fieldId, `ta`
//! textAlign, `va` verticalAlign, `lh` lineHeight, `ls` letterSpacing, `t`
//! text, `cl` characterLimit, `v` value, `nf` numberFormat, `min` minValue,
//! `max` maxValue, `dir` direction, `vr` validationRule, `vl`
//! validationLength, `dv` defaultValue). Booleans are `true`/`t`, anything
//! else false; label, placeholder and text turn `_` into spaces. Signature,
//! free signature, initials, name, email and date fields are always required
//! (only number, text, dropdown, radio and checkbox honour `required`); a
//! date field is filled with the signing date. The field is the box of the
//! placeholder's text, which must stay on one line.
//!
//! Sources: docs.documenso.com/users/documents/pdf-placeholders (the
//! documentation page, `apps/documentation/pages/users/documents/pdf-placeholders.mdx`),
//! and the parser in documenso/documenso: `packages/lib/server-only/pdf/auto-place-fields.ts`
//! (`extractPlaceholdersFromPDF`), `packages/lib/server-only/pdf/helpers.ts`
//! (`parseFieldTypeFromPlaceholder`, `parseFieldMetaFromPlaceholder`),
//! `packages/lib/types/field-meta.ts` (the options each type keeps) and
//! `packages/lib/utils/advanced-fields-helpers.ts` (`isRequiredField`).

use super::{Parsed, Problem, set_signer_index};

/// Documented types (and short aliases) and their kind.
const TYPES: &[(&str, &str, &str)] = &[
    ("signature", "s", "signature"),
    ("free_signature", "fs", "signature"),
    ("initials", "i", "initials"),
    ("name", "n", "name"),
    ("email", "e", "email"),
    ("date", "d", "date_signed"),
    ("text", "t", "text"),
    ("number", "num", "number"),
    ("radio", "r", "radio"),
    ("checkbox", "cb", "checkbox"),
    ("dropdown", "dd", "dropdown"),
];

/// Short option keys and the option each stands for.
const SHORT_KEYS: &[(&str, &str)] = &[
    ("r", "required"),
    ("ro", "readOnly"),
    ("f", "fontSize"),
    ("l", "label"),
    ("p", "placeholder"),
    ("id", "fieldId"),
    ("ta", "textAlign"),
    ("va", "verticalAlign"),
    ("lh", "lineHeight"),
    ("ls", "letterSpacing"),
    ("t", "text"),
    ("cl", "characterLimit"),
    ("v", "value"),
    ("nf", "numberFormat"),
    ("min", "minValue"),
    ("max", "maxValue"),
    ("dir", "direction"),
    ("vr", "validationRule"),
    ("vl", "validationLength"),
    ("dv", "defaultValue"),
];

/// Options Documenso's parser knows (after short keys are expanded).
const KEYS: &[&str] = &[
    "required",
    "readOnly",
    "fontSize",
    "label",
    "placeholder",
    "fieldId",
    "textAlign",
    "verticalAlign",
    "lineHeight",
    "letterSpacing",
    "text",
    "characterLimit",
    "value",
    "numberFormat",
    "minValue",
    "maxValue",
    "direction",
    "validationRule",
    "validationLength",
    "defaultValue",
];

/// Options coerced to numbers.
const NUMERIC: &[&str] = &[
    "fontSize",
    "minValue",
    "maxValue",
    "characterLimit",
    "lineHeight",
    "letterSpacing",
    "validationLength",
];

/// Types whose `required` option counts; every other type is required.
const OPTIONAL_CAPABLE: &[&str] = &["number", "text", "dropdown", "radio", "checkbox"];

/// `r1`, `R12` → the recipient number.
fn recipient(s: &str) -> Option<u32> {
    let rest = s.strip_prefix(['r', 'R'])?;
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    rest.parse().ok()
}

fn canonical_type(written: &str) -> Option<(&'static str, &'static str)> {
    let t = written.trim().to_ascii_lowercase();
    TYPES
        .iter()
        .find(|(name, short, _)| *name == t || *short == t)
        .map(|(name, _, kind)| (*name, *kind))
}

/// A Documenso placeholder: comma-separated, with a recipient `rN` second.
/// (Without one Documenso makes no field, so it is not claimed.)
pub(super) fn claims(inner: &str) -> bool {
    let mut parts = inner.split(',').map(str::trim);
    let first = parts.next().unwrap_or_default();
    !first.is_empty()
        && !first.contains(['{', '}'])
        && parts.next().is_some_and(|r| recipient(r).is_some())
}

/// `_` → space and each word capitalised, as Documenso shows labels.
fn title_case(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut start = true;
    for c in v.chars() {
        let c = if c == '_' { ' ' } else { c };
        if start && c.is_alphanumeric() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        start = !(c.is_alphanumeric() || c == '\'');
    }
    out
}

pub(super) fn parse(inner: &str) -> Parsed {
    let mut p = Parsed::default();
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let written = parts.first().copied().unwrap_or_default();
    let typ = match canonical_type(written) {
        Some((name, kind)) => {
            p.attrs.kind = kind.to_string();
            name
        }
        None => {
            p.problem(Problem::UnknownType(written.to_string()));
            p.attrs.kind = "unknown".to_string();
            ""
        }
    };
    p.attrs.field_type = if typ.is_empty() {
        written.to_ascii_lowercase()
    } else {
        typ.to_string()
    };
    if let Some(&r) = parts.get(1) {
        p.attrs.signer = Some(r.to_ascii_lowercase());
        if let Some(n) = recipient(r) {
            set_signer_index(&mut p, r, n);
        }
    }
    let mut required: Option<bool> = None;
    let signature = matches!(typ, "signature" | "free_signature");
    for &opt in parts.iter().skip(2) {
        if opt.is_empty() {
            continue;
        }
        let (key, value) = match opt.find(['=', ':']) {
            Some(i) => (&opt[..i], &opt[i + 1..]),
            None => (opt, ""),
        };
        let key = SHORT_KEYS
            .iter()
            .find(|(short, _)| *short == key)
            .map_or(key, |(_, long)| *long);
        if signature {
            p.problem(Problem::Malformed(format!(
                "`{opt}`: Documenso keeps no options on a signature field"
            )));
            continue;
        }
        if !KEYS.contains(&key) {
            p.problem(Problem::Malformed(format!(
                "`{key}` is not a Documenso option (they are case-sensitive: `readOnly`, `fontSize`, ...); Documenso ignores it"
            )));
            p.attrs.extra.insert(key.to_string(), value.to_string());
            continue;
        }
        let truthy = value == "true" || value == "t";
        match key {
            "required" => required = Some(truthy),
            "readOnly" => p.attrs.read_only = truthy,
            "label" => p.attrs.label = Some(title_case(value)),
            "fieldId" => p.attrs.id = Some(value.to_string()),
            "text" => p.attrs.default = Some(title_case(value)),
            "value" | "defaultValue" => p.attrs.default = Some(value.to_string()),
            _ => {
                if NUMERIC.contains(&key) {
                    match value.parse::<f64>() {
                        Err(_) => p.problem(Problem::Malformed(format!(
                            "`{key}={value}` is not a number; Documenso drops it"
                        ))),
                        Ok(v) if key == "fontSize" && !(8.0..=96.0).contains(&v) => {
                            p.problem(Problem::Malformed(format!(
                                "`fontSize={value}` is outside 8 to 96; Documenso refuses the placeholder"
                            )))
                        }
                        Ok(_) => {}
                    }
                }
                let value = match (key, value) {
                    ("textAlign", "l") => "left",
                    ("textAlign", "r") => "right",
                    ("textAlign", "c") => "center",
                    ("verticalAlign", "t") => "top",
                    ("verticalAlign", "m") => "middle",
                    ("verticalAlign", "b") => "bottom",
                    ("direction", "v") => "vertical",
                    ("direction", "h") => "horizontal",
                    ("placeholder", v) => {
                        p.attrs.extra.insert(key.to_string(), title_case(v));
                        continue;
                    }
                    (_, v) => v,
                };
                p.attrs.extra.insert(key.to_string(), value.to_string());
            }
        }
    }
    p.attrs.required = if OPTIONAL_CAPABLE.contains(&typ) {
        required.unwrap_or(false)
    } else {
        true
    };
    p.attrs.read_only |= typ == "date";
    p
}
