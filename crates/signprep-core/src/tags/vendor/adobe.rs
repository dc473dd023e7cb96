//! Adobe Acrobat Sign text tags:
//! `{{[*|!]name[_es_][:role][:type][:directive(value)...]}}`.
//!
//! `*` makes a field required, `!` read-only; `_es_` assigns it to a
//! recipient, named by the role that follows (`signer1`, `sender`, …). The
//! type defaults to a text field. The field is as long as the tag (braces
//! and whitespace included) and as high as the font size of its first `{`.
//! Source: helpx.adobe.com/sign/using/text-tag.html and
//! helpx.adobe.com/sign/authoring/text-tags/{basics-syntax,field-types}.html.

use super::{Parsed, Problem, numbered, set_signer_index, split_outside, unquote};

/// Documented field types and their kind.
const TYPES: &[(&str, &str)] = &[
    ("signature", "signature"),
    ("optsignature", "signature"),
    ("signatureblock", "signature"),
    ("initials", "initials"),
    ("optinitials", "initials"),
    ("stampimage", "stamp"),
    ("text", "text"),
    ("date", "date_signed"),
    ("company", "company"),
    ("title", "title"),
    ("email", "email"),
    ("name", "name"),
    ("fullname", "name"),
    ("checkbox", "checkbox"),
    ("radio", "radio"),
];

/// Types a signer must complete unless the tag says otherwise.
const REQUIRED_BY_DEFAULT: &[&str] = &["signature", "initials", "signatureblock"];

fn is_role(s: &str) -> bool {
    let s = s.to_ascii_lowercase();
    s == "sender"
        || [
            "signer",
            "approver",
            "acceptor",
            "formfiller",
            "certifiedrecipient",
        ]
        .iter()
        .any(|p| numbered(&s, p).is_some())
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// An Adobe tag has no `|`, `;` or `=` outside directives, and starts with a
/// field name (after the `*` and `!` marks).
pub(super) fn claims(inner: &str) -> bool {
    let segs = split_outside(inner, ':');
    let first = segs
        .first()
        .map_or("", |s| s.trim())
        .trim_start_matches(['*', '!']);
    !first.is_empty()
        && first.chars().all(is_name_char)
        && segs
            .iter()
            .skip(1)
            .all(|s| !s.contains(['|', ';', '=']) || s.contains('('))
}

pub(super) fn parse(inner: &str) -> Parsed {
    let mut p = Parsed::default();
    let segs: Vec<&str> = split_outside(inner, ':')
        .into_iter()
        .map(str::trim)
        .collect();
    let head = segs.first().copied().unwrap_or_default();
    let marks = &head[..head.len() - head.trim_start_matches(['*', '!']).len()];
    let star = marks.contains('*');
    p.attrs.read_only = marks.contains('!');
    let name = &head[marks.len()..];
    let (name, es) = match name.find("_es_") {
        Some(i) => (&name[..i], true),
        None => (name, false),
    };
    if name.is_empty() {
        p.problem(Problem::Malformed(
            "the field has no name before `_es_`".into(),
        ));
    } else {
        p.attrs.name = Some(name.to_string());
    }
    let mut typ: Option<String> = None;
    for &seg in segs.iter().skip(1) {
        if seg.is_empty() {
            p.problem(Problem::Malformed("an empty `::` part".into()));
        } else if p.attrs.signer.is_none() && typ.is_none() && is_role(seg) {
            p.attrs.signer = Some(seg.to_string());
            if let Some(Some(n)) = numbered(&seg.to_ascii_lowercase(), "signer") {
                set_signer_index(&mut p, seg, n);
            }
        } else if let Some((key, value)) = directive(seg) {
            let base = key.to_ascii_lowercase();
            if typ.is_none() && TYPES.iter().any(|(t, _)| *t == base) {
                // `stampimage(25)`: a type with an argument.
                p.attrs.extra.insert(base.clone(), value.to_string());
                typ = Some(base);
            } else {
                match base.as_str() {
                    "label" => p.attrs.label = Some(unquote(value).to_string()),
                    "default" => p.attrs.default = Some(unquote(value).to_string()),
                    _ => {
                        p.attrs.extra.insert(base, unquote(value).to_string());
                    }
                }
            }
        } else if typ.is_none() {
            let t = seg.to_ascii_lowercase();
            if !TYPES.iter().any(|(k, _)| *k == t) {
                p.problem(Problem::UnknownType(seg.to_string()));
            }
            typ = Some(t);
        } else {
            p.problem(Problem::Malformed(format!(
                "`{seg}` after the type is neither a role nor a directive"
            )));
        }
    }
    if es && p.attrs.signer.is_none() {
        p.problem(Problem::Malformed(
            "`_es_` assigns the field to a recipient, but no role (such as `signer1`) follows"
                .into(),
        ));
    }
    let typ = typ.unwrap_or_else(|| "text".to_string());
    p.attrs.kind = TYPES
        .iter()
        .find(|(t, _)| *t == typ)
        .map_or("unknown", |(_, k)| k)
        .to_string();
    p.attrs.required = star || REQUIRED_BY_DEFAULT.contains(&typ.as_str());
    p.attrs.read_only |= typ == "date";
    p.attrs.field_type = typ;
    p
}

/// `label(Full name)` → `("label", "Full name")`.
fn directive(seg: &str) -> Option<(&str, &str)> {
    let open = seg.find('(')?;
    let inner = seg[open + 1..].strip_suffix(')')?;
    Some((seg[..open].trim(), inner))
}
