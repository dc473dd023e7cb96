//! Tags and form fields as the service's *Data field* objects
//! (`signing-service-interface.md`, "Data field").
//!
//! [`Scan::data_fields`] turns every valid tag and every placed form-field
//! widget into a [`DataField`]: `custom_id` is the full field name (`null`
//! for a tag), `tag_id` the tag id (tags only), `required` the field's Ff
//! bit 2 (`false` for tags), `description` the tooltip (`/TU`), `data` the
//! value, `options_as_csv` the export values of a choice field, and `x`, `y`,
//! `width`, `height` the box in the scan's page-stacked pixels.
//!
//! # Types
//!
//! The specification confirms two service types, `signature` and `text`
//! ("Values seen"; the full list is not published), so the default mapping
//! uses only those:
//!
//! | source | service `type` |
//! |---|---|
//! | `text`, `combo`, `list`, `checkbox`, `radio` field | `text` (choices in `options_as_csv`, value in `data`) |
//! | `signature` field | `signature` |
//! | `pushbutton` field, field without `/FT` | left out (no data to collect) |
//! | tag whose id has a `_`-separated word `SIG`, `SIGN` or `SIGNATURE` (`SIG_1`, `TENANT_SIGNATURE`) | `signature` |
//! | any other tag | `text` |
//!
//! A [`TypeMap`] overrides this per name: rules `NAME_OR_GLOB=TYPE` match the
//! full field name or the tag id (`*` any run of characters, `?` one
//! character); the last matching rule wins; the type `none` leaves the item
//! out. Also left out: invalid tags (the service ignores them) and fields
//! that no page shows (they cannot be placed).
//!
//! # Values
//!
//! `data` is the field's `/V`: text as is, a multi-select list as CSV, `null`
//! for an empty value, a button that is `Off` and a signature (whose value is
//! the signature itself, not data to fill in). CSV items holding a comma, a
//! quote or a line break are quoted, with quotes doubled (RFC 4180).

use crate::forms::{Field, FieldType, FieldValue};
use crate::scan::{Scan, Tag};
use serde::Serialize;
use std::fmt;

/// One Data field object for the service.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DataField {
    /// The full field name; `null` for a tag.
    pub custom_id: Option<String>,
    /// The tag id (tags only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_id: Option<String>,
    /// The service's field type (see the module documentation).
    #[serde(rename = "type")]
    pub kind: String,
    /// Ff bit 2 of a field; `false` for a tag.
    pub required: bool,
    /// Comma-separated option values of a choice field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options_as_csv: Option<String>,
    /// The field's tooltip (`/TU`).
    pub description: Option<String>,
    /// The field's value, to pre-populate.
    pub data: Option<String>,
    /// Left edge, page-stacked pixels.
    pub x: f64,
    /// Top edge, page-stacked pixels.
    pub y: f64,
    /// Width, pixels.
    pub width: f64,
    /// Height, pixels.
    pub height: f64,
}

/// A malformed type-map rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeMapError(String);

impl fmt::Display for TypeMapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TypeMapError {}

/// User overrides of the service type, per name or glob pattern.
///
/// ```
/// use signprep_core::TypeMap;
/// let map = TypeMap::new().rule("client.*=text")?.rule("SIG_?=signature")?.rule("btn*=none")?;
/// assert_eq!(map.lookup("client.email"), Some(Some("text")));
/// assert_eq!(map.lookup("SIG_1"), Some(Some("signature")));
/// assert_eq!(map.lookup("btnReset"), Some(None));
/// assert_eq!(map.lookup("other"), None);
/// # Ok::<(), signprep_core::TypeMapError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeMap {
    /// `(pattern, type)`; `None` leaves matching items out.
    rules: Vec<(String, Option<String>)>,
}

impl TypeMap {
    /// No overrides: the default mapping.
    pub fn new() -> Self {
        TypeMap::default()
    }

    /// Adds a rule written `NAME_OR_GLOB=TYPE` (split at the last `=`). TYPE
    /// is lower-case ASCII letters, digits and `_`, or `none`.
    pub fn rule(mut self, rule: &str) -> Result<Self, TypeMapError> {
        self.add(rule)?;
        Ok(self)
    }

    /// Adds a rule in place; see [`TypeMap::rule`].
    pub fn add(&mut self, rule: &str) -> Result<(), TypeMapError> {
        let Some((pattern, kind)) = rule.rsplit_once('=') else {
            return Err(TypeMapError(format!(
                "`{rule}` is not NAME_OR_GLOB=TYPE (e.g. `client.*=text`)"
            )));
        };
        if pattern.is_empty() {
            return Err(TypeMapError(format!("`{rule}` has no name or pattern")));
        }
        let valid = kind.starts_with(|c: char| c.is_ascii_lowercase())
            && kind
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(TypeMapError(format!(
                "`{kind}` in `{rule}` is not a type: use lower-case letters, digits and _ (e.g. text, signature), or none"
            )));
        }
        let kind = (kind != "none").then(|| kind.to_string());
        self.rules.push((pattern.to_string(), kind));
        Ok(())
    }

    /// The override for a name: `Some(Some(type))`, `Some(None)` to leave it
    /// out, or `None` when no rule matches.
    pub fn lookup(&self, name: &str) -> Option<Option<&str>> {
        self.rules
            .iter()
            .rev()
            .find(|(p, _)| glob_match(p, name))
            .map(|(_, k)| k.as_deref())
    }

    fn resolve(&self, name: &str, default: Option<&str>) -> Option<String> {
        match self.lookup(name) {
            Some(over) => over.map(str::to_string),
            None => default.map(str::to_string),
        }
    }
}

impl Scan {
    /// Tags, then form-field widgets, as the service's Data field objects.
    ///
    /// Types default to `text` for text, choice and button fields and for
    /// tags, and to `signature` for signature fields and for tags with a
    /// `_`-separated word `SIG`, `SIGN` or `SIGNATURE`; push buttons, fields
    /// without `/FT`, fields on no page and invalid tags are left out. The
    /// [`TypeMap`] overrides this per name or glob (README, "Form fields and
    /// data fields").
    pub fn data_fields(&self, map: &TypeMap) -> Vec<DataField> {
        let tags = self.tags.iter().filter(|t| t.valid).filter_map(|t| {
            let kind = map.resolve(&t.tag_id, Some(default_tag_type(&t.tag_id)))?;
            Some(tag_data_field(t, kind))
        });
        let fields = self
            .fields
            .iter()
            .filter(|f| f.page.is_some())
            .filter_map(|f| {
                let kind = map.resolve(&f.name, f.kind.and_then(default_field_type))?;
                Some(field_data_field(f, kind))
            });
        tags.chain(fields).collect()
    }
}

fn tag_data_field(t: &Tag, kind: String) -> DataField {
    DataField {
        custom_id: None,
        tag_id: Some(t.tag_id.clone()),
        kind,
        required: false,
        options_as_csv: None,
        description: None,
        data: None,
        x: t.x,
        y: t.y,
        width: t.width,
        height: t.height,
    }
}

fn field_data_field(f: &Field, kind: String) -> DataField {
    let options = f.option_values.as_ref().unwrap_or(&f.options);
    let data = match (&f.value, f.kind) {
        (_, Some(FieldType::Signature)) | (None, _) => None,
        (Some(FieldValue::Text(s)), Some(FieldType::Checkbox | FieldType::Radio)) if s == "Off" => {
            None
        }
        (Some(FieldValue::Text(s)), _) => Some(s.clone()),
        (Some(FieldValue::List(items)), _) => Some(csv(items)),
    };
    DataField {
        custom_id: Some(f.name.clone()),
        tag_id: None,
        kind,
        required: f.required,
        options_as_csv: (!options.is_empty()).then(|| csv(options)),
        description: f.tooltip.clone(),
        data: data.filter(|d| !d.is_empty()),
        x: f.x,
        y: f.y,
        width: f.width,
        height: f.height,
    }
}

/// The default service type of a tag.
fn default_tag_type(id: &str) -> &'static str {
    if id
        .split('_')
        .any(|w| matches!(w, "SIG" | "SIGN" | "SIGNATURE"))
    {
        "signature"
    } else {
        "text"
    }
}

/// The default service type of a field; `None` leaves it out.
fn default_field_type(kind: FieldType) -> Option<&'static str> {
    match kind {
        FieldType::Signature => Some("signature"),
        FieldType::Pushbutton => None,
        FieldType::Text
        | FieldType::Checkbox
        | FieldType::Radio
        | FieldType::Combo
        | FieldType::List => Some("text"),
    }
}

/// Items joined with `,`, quoted when they hold `,`, `"` or a line break.
fn csv(items: &[String]) -> String {
    items
        .iter()
        .map(|s| {
            if s.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `*` matches any run of characters (also none), `?` exactly one; anything
/// else matches itself. Linear backtracking on the last `*`.
fn glob_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if c == '?' || Some(&c) == n.get(ni) => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..)
        .is_some_and(|rest| rest.iter().all(|&c| c == '*'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("client.*", "client.address.city"));
        assert!(glob_match("*", ""));
        assert!(glob_match("SIG_?", "SIG_1"));
        assert!(!glob_match("SIG_?", "SIG_12"));
        assert!(glob_match("*name*", "client.name.first"));
        assert!(glob_match("a*b*c", "aXbYbZc"));
        assert!(!glob_match("a*b*c", "aXbYbZ"));
        assert!(glob_match("exact", "exact"));
        assert!(!glob_match("exact", "exactly"));
        assert!(glob_match("f?[0]", "f1[0]"));
        assert!(glob_match("é*", "été"));
    }

    #[test]
    fn rules_parse_and_last_wins() {
        let map = TypeMap::new()
            .rule("*=text")
            .and_then(|m| m.rule("sig*=signature"))
            .and_then(|m| m.rule("a=b=none"));
        let Ok(map) = map else {
            panic!("rules rejected: {map:?}");
        };
        assert_eq!(map.lookup("sig1"), Some(Some("signature")));
        assert_eq!(map.lookup("x"), Some(Some("text")));
        assert_eq!(map.lookup("a=b"), Some(None));
        for bad in ["text", "=text", "x=Text", "x=", "x=1a", "x=a-b"] {
            assert!(TypeMap::new().rule(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn defaults_and_csv() {
        assert_eq!(default_tag_type("SIG_1"), "signature");
        assert_eq!(default_tag_type("TENANT_SIGNATURE"), "signature");
        assert_eq!(default_tag_type("CLIENT_SIGN_HERE"), "signature");
        assert_eq!(default_tag_type("DESIGNER"), "text");
        assert_eq!(default_tag_type("DATE"), "text");
        assert_eq!(default_field_type(FieldType::Pushbutton), None);
        assert_eq!(default_field_type(FieldType::Combo), Some("text"));
        let items = ["a".to_string(), "b,c".into(), "say \"hi\"".into()];
        assert_eq!(csv(&items), "a,\"b,c\",\"say \"\"hi\"\"\"");
    }
}
