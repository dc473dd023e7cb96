//! Tags and form fields as the service's *Data field* objects
//! (`signing-service-interface.md`, "Data field").
//!
//! [`data_fields`] turns every valid tag and every placed form-field widget of
//! a scan into a [`DataField`]: `custom_id` is the full field name (`null` for
//! a tag), `tag_id` the tag id (tags only), `required` the field's Ff bit 2
//! (`false` for tags), `description` the tooltip (`/TU`), `data` the value,
//! `options_as_csv` the export values of a choice field, and `x`, `y`,
//! `width`, `height` the box in the scan's page-stacked pixels.
//!
//! # Types
//!
//! Each item's type is [`signprep_core::Tag::service_type`] or
//! [`signprep_core::Field::service_type`]: `signature` for signature fields
//! and `SIG` tags, `text` for the rest; push buttons, fields without `/FT`,
//! fields on no page and invalid tags are left out. A [`TypeMap`] overrides
//! this per name: rules `NAME_OR_GLOB=TYPE` match the full field name or the
//! tag id; the last matching rule wins; the type `none` leaves the item out.
//!
//! Patterns are `glob` patterns, as everywhere in signprep (a manifest's
//! field patterns and tag types too): `*` any run of characters, `?` one
//! character, `[abc]` one of a set, `[!abc]` none of it. A pattern that is
//! exactly the name also matches it, so a rule for a name with brackets (as
//! AcroForm names often end: `f1_01[0]`) needs no escaping; inside a pattern
//! with wildcards, write a literal `[` as `[[]` (`topmostSubform[[]0].*`).
//!
//! # Values
//!
//! `data` is the field's `/V`: text as is, a multi-select list as CSV, `null`
//! for an empty value, a button that is `Off` and a signature (whose value is
//! the signature itself, not data to fill in). CSV items holding a comma, a
//! quote or a line break are quoted, with quotes doubled (RFC 4180).

use serde::Serialize;
use signprep_core::{Field, FieldType, FieldValue, Record, Scan, ServiceTypes, Tag};

/// One Data field object for the service.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DataField {
    /// The full field name; `null` for a tag.
    pub custom_id: Option<String>,
    /// The tag id (tags only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_id: Option<String>,
    /// The service's field type: `signature` or `text` by default, or what a
    /// type map says.
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

/// One record of `signprep scan` as written: the core's record, plus the tags
/// and fields as the service's Data fields (`scan --data-fields`).
// The scan record's schema (`SchemaName::Scan`) is derived from this type and
// the core's record types, so it describes exactly what is written.
#[derive(Clone, Copy, Debug, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ScanRecord<'a> {
    /// The record: path, status, error, pages, tags, fields, diagnostics.
    #[serde(flatten)]
    pub record: &'a Record,
    /// With `--data-fields`: the tags and fields as the service's Data fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_fields: Option<&'a [DataField]>,
}

impl ScanRecord<'_> {
    /// `f` of `r` as its record is written: with its data fields, made by
    /// `map`, when one is given (`scan --data-fields --type-map`).
    pub fn with<T>(r: &Record, map: Option<&TypeMap>, f: impl FnOnce(&ScanRecord<'_>) -> T) -> T {
        let data_fields = map.map(|m| data_fields(&r.scan, m));
        f(&ScanRecord {
            record: r,
            data_fields: data_fields.as_deref(),
        })
    }
}

/// A malformed type-map rule.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TypeMapError {
    /// The rule has no `=`.
    #[error("`{rule}` is not NAME_OR_GLOB=TYPE (e.g. `client.*=text`)")]
    NotARule {
        /// The rule as given.
        rule: String,
    },
    /// Nothing before the `=`.
    #[error("`{rule}` has no name or pattern")]
    NoPattern {
        /// The rule as given.
        rule: String,
    },
    /// The type is not lower-case letters, digits and `_`.
    #[error(
        "`{kind}` in `{rule}` is not a type: use lower-case letters, digits and _ (e.g. text, signature), or none"
    )]
    BadType {
        /// The rule as given.
        rule: String,
        /// The type part.
        kind: String,
    },
    /// The pattern is not a valid glob.
    #[error("`{pattern}` in `{rule}` {}", pattern_problem(.source))]
    BadPattern {
        /// The rule as given.
        rule: String,
        /// The pattern part.
        pattern: String,
        /// Why the glob crate refused it.
        source: glob::PatternError,
    },
}

/// User overrides of the service type, per name or glob pattern (see the
/// module documentation for the pattern syntax).
///
/// ```
/// use signprep_pack::TypeMap;
/// let map = TypeMap::new().rule("client.*=text")?.rule("SIG_?=signature")?.rule("btn*=none")?;
/// assert_eq!(map.lookup("client.email"), Some(Some("text")));
/// assert_eq!(map.lookup("SIG_1"), Some(Some("signature")));
/// assert_eq!(map.lookup("btnReset"), Some(None));
/// assert_eq!(map.lookup("other"), None);
/// // a name with brackets matches itself; in a glob, `[[]` is a literal `[`
/// let map = TypeMap::new().rule("f1[0]=signature")?.rule("page[[]0].*=none")?;
/// assert_eq!(map.lookup("f1[0]"), Some(Some("signature")));
/// assert_eq!(map.lookup("page[0].name"), Some(None));
/// # Ok::<(), signprep_pack::TypeMapError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeMap {
    /// `(pattern, type)`; `None` leaves matching items out.
    rules: Vec<(NamePattern, Option<String>)>,
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
            return Err(TypeMapError::NotARule { rule: rule.into() });
        };
        if pattern.is_empty() {
            return Err(TypeMapError::NoPattern { rule: rule.into() });
        }
        let valid = kind.starts_with(|c: char| c.is_ascii_lowercase())
            && kind
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(TypeMapError::BadType {
                rule: rule.into(),
                kind: kind.into(),
            });
        }
        let compiled = NamePattern::new(pattern).map_err(|source| TypeMapError::BadPattern {
            rule: rule.into(),
            pattern: pattern.into(),
            source,
        })?;
        let kind = (kind != "none").then(|| kind.to_string());
        self.rules.push((compiled, kind));
        Ok(())
    }

    /// The override for a name: `Some(Some(type))`, `Some(None)` to leave it
    /// out, or `None` when no rule matches.
    pub fn lookup(&self, name: &str) -> Option<Option<&str>> {
        self.rules
            .iter()
            .rev()
            .find(|(p, _)| p.matches(name))
            .map(|(_, k)| k.as_deref())
    }
}

impl ServiceTypes for TypeMap {
    fn service_type(&self, name: &str) -> Option<Option<&str>> {
        self.lookup(name)
    }
}

/// A glob over tag ids and field names that also matches the one name it
/// spells: `f1[0]` matches the name `f1[0]` (and, as a glob, `f10`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct NamePattern {
    text: String,
    glob: glob::Pattern,
}

impl NamePattern {
    /// Compiles `text` as a glob.
    pub(crate) fn new(text: &str) -> Result<Self, glob::PatternError> {
        Ok(NamePattern {
            text: text.to_string(),
            glob: glob::Pattern::new(text)?,
        })
    }

    /// The name is the pattern's text, or the glob matches it.
    pub(crate) fn matches(&self, name: &str) -> bool {
        name == self.text || self.glob.matches(name)
    }
}

/// Why a glob (a field pattern, a manifest's document path) is refused, in our
/// words: `is not a valid pattern (at character N): WHY`, the glob crate's reason
/// said as what to write instead.
pub(crate) fn pattern_problem(e: &glob::PatternError) -> String {
    let why = match e.msg {
        "invalid range pattern" => {
            "a `[` opens a set such as `[0-9]`; write a literal `[` as `[[]`"
        }
        "wildcards are either regular `*` or recursive `**`" => {
            "`*` stands for any characters and `**` for any folders; three or more in a row mean nothing"
        }
        "recursive wildcards must form a single path component" => {
            "`**` must stand alone between slashes, as in `docs/**/a.pdf`"
        }
        _ => "a pattern is written with `*`, `?`, `[...]` and `**`",
    };
    format!("is not a valid pattern (at character {}): {why}", e.pos + 1)
}

/// Tags, then form-field widgets, as the service's Data field objects, typed
/// by [`signprep_core::Tag::service_type`] and
/// [`signprep_core::Field::service_type`] with `map`'s overrides; items whose
/// type is `none` (or left out by default) are not listed.
pub fn data_fields(scan: &Scan, map: &TypeMap) -> Vec<DataField> {
    let types: Option<&dyn ServiceTypes> = Some(map);
    let tags = scan
        .tags
        .iter()
        .filter_map(|t| Some(tag_data_field(t, t.service_type(types)?)));
    let fields = scan
        .fields
        .iter()
        .filter_map(|f| Some(field_data_field(f, f.service_type(types)?)));
    tags.chain(fields).collect()
}

fn tag_data_field(t: &Tag, kind: &str) -> DataField {
    DataField {
        custom_id: None,
        tag_id: Some(t.tag_id.clone()),
        kind: kind.to_string(),
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

fn field_data_field(f: &Field, kind: &str) -> DataField {
    let button = matches!(f.kind, Some(FieldType::Checkbox | FieldType::Radio));
    // A choice field's value is an export value (`option_values`); a
    // button's is a state name, whose export value is in `options`.
    let options = match &f.option_values {
        Some(values) if !button => values,
        _ => &f.options,
    };
    let data = match (&f.value, f.kind) {
        (_, Some(FieldType::Signature)) | (None, _) => None,
        (Some(FieldValue::Text(s)), _) if button && s == "Off" => None,
        (Some(FieldValue::Text(s)), _) if button => Some(export_value(f, s)),
        (Some(FieldValue::Text(s)), _) => Some(s.clone()),
        (Some(FieldValue::List(items)), _) => Some(csv(items)),
    };
    DataField {
        custom_id: Some(f.name.clone()),
        tag_id: None,
        kind: kind.to_string(),
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

/// The export value of a button's state: the entry of `options` (its
/// `/Opt`) at the state's place in `option_values`; the state itself when
/// the field has no `/Opt` or the state is not among them.
fn export_value(f: &Field, state: &str) -> String {
    f.option_values
        .as_ref()
        .and_then(|states| states.iter().position(|s| s == state))
        .and_then(|i| f.options.get(i))
        .map_or_else(|| state.to_string(), String::clone)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, name: &str) -> bool {
        match NamePattern::new(pattern) {
            Ok(p) => p.matches(name),
            Err(e) => panic!("`{pattern}`: {e}"),
        }
    }

    #[test]
    fn a_refused_pattern_is_said_in_our_words() {
        let said = |p: &str| match NamePattern::new(p) {
            Ok(_) => panic!("`{p}` was taken"),
            Err(e) => pattern_problem(&e),
        };
        assert_eq!(
            said("SIG_["),
            "is not a valid pattern (at character 5): a `[` opens a set such as `[0-9]`; write a literal `[` as `[[]`"
        );
        assert!(
            said("a***").contains("three or more in a row"),
            "{}",
            said("a***")
        );
        assert!(
            said("a**b").contains("stand alone between slashes"),
            "{}",
            said("a**b")
        );
    }

    #[test]
    fn patterns() {
        assert!(matches("client.*", "client.address.city"));
        assert!(matches("*", ""));
        assert!(matches("SIG_?", "SIG_1"));
        assert!(!matches("SIG_?", "SIG_12"));
        assert!(matches("*name*", "client.name.first"));
        assert!(matches("a*b*c", "aXbYbZc"));
        assert!(!matches("a*b*c", "aXbYbZ"));
        assert!(matches("exact", "exact"));
        assert!(!matches("exact", "exactly"));
        assert!(matches("é*", "été"));
        // brackets: the name itself, a set, an escaped literal
        assert!(matches("f1[0]", "f1[0]"));
        assert!(matches("f1[0]", "f10"));
        assert!(!matches("f?[0]", "f1[0]"));
        assert!(matches("f?[[]0]", "f1[0]"));
        assert!(matches("f[0-9]_*", "f3_name"));
        assert!(matches("form1[[]0].*", "form1[0].Page1[0].Name[0]"));
        assert!(!matches("form1[[]0].*", "form10.Page1"));
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
        for bad in ["text", "=text", "x=Text", "x=", "x=1a", "x=a-b", "a[=text"] {
            assert!(TypeMap::new().rule(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_say_what_to_write() {
        let e = TypeMap::new().rule("f[0=text").err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "`f[0` in `f[0=text` is not a valid pattern (at character 2): a `[` opens a set \
                 such as `[0-9]`; write a literal `[` as `[[]`"
            )
        );
    }

    #[test]
    fn csv_quotes() {
        let items = ["a".to_string(), "b,c".into(), "say \"hi\"".into()];
        assert_eq!(csv(&items), "a,\"b,c\",\"say \"\"hi\"\"\"");
    }
}
