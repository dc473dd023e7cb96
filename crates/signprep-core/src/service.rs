//! The service's field type of a tag or form field, as far as the core needs it.
//!
//! The service's request model (its *Data field* objects, type maps with
//! glob rules) lives in `signprep-pack`; previews only need the type each box
//! would get, so the core keeps the *default* type and takes a caller's
//! overrides through [`ServiceTypes`] (which the pack crate's `TypeMap`
//! implements).
//!
//! The specification confirms two service types, `signature` and `text`
//! ("Values seen"; the full list is not published), so the defaults use only
//! those:
//!
//! | source | service `type` |
//! |---|---|
//! | `text`, `combo`, `list`, `checkbox`, `radio` field | `text` |
//! | `signature` field | `signature` |
//! | `pushbutton` field, field without `/FT`, field on no page | left out |
//! | tag whose id has a `_`-separated word `SIG`, `SIGN` or `SIGNATURE` (`SIG_1`, `TENANT_SIGNATURE`) | `signature` |
//! | any other valid tag | `text` |
//! | invalid tag (the service ignores it) | left out |

use crate::forms::{Field, FieldType};
use crate::scan::Tag;
use std::fmt;

/// A caller's overrides of the service type, by tag id or full field name.
///
/// The pack crate's `TypeMap` (rules `NAME_OR_GLOB=TYPE`) is the one the
/// command line uses.
pub trait ServiceTypes: fmt::Debug + Send + Sync {
    /// The override for a tag id or full field name: `Some(Some(type))`,
    /// `Some(None)` to leave the item out, or `None` to keep its default.
    fn service_type(&self, name: &str) -> Option<Option<&str>>;
}

/// The override for `name` when there is one, else `default`.
fn resolve<'a>(
    overrides: Option<&'a dyn ServiceTypes>,
    name: &str,
    default: Option<&'static str>,
) -> Option<&'a str> {
    match overrides.and_then(|o| o.service_type(name)) {
        Some(over) => over,
        None => default,
    }
}

impl Tag {
    /// The service type of this tag: the override for its id, else
    /// `signature` when the id has a `_`-separated word `SIG`, `SIGN` or
    /// `SIGNATURE`, else `text`. `None`: left out, always for an invalid id
    /// (the service ignores it), or when an override says so.
    pub fn service_type<'a>(&self, overrides: Option<&'a dyn ServiceTypes>) -> Option<&'a str> {
        if !self.valid {
            return None;
        }
        resolve(
            overrides,
            &self.tag_id,
            Some(default_tag_type(&self.tag_id)),
        )
    }
}

impl Field {
    /// The service type of this field widget: the override for its full
    /// name, else `signature` for a signature field, `text` for text, choice
    /// and check/radio fields. `None`: left out, always for a widget on no
    /// page (it cannot be placed); by default for push buttons and fields
    /// without `/FT`; or when an override says so.
    pub fn service_type<'a>(&self, overrides: Option<&'a dyn ServiceTypes>) -> Option<&'a str> {
        self.page?;
        resolve(
            overrides,
            &self.name,
            self.kind.and_then(default_field_type),
        )
    }
}

/// The default service type of a (valid) tag id.
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

/// The default service type of a field type; `None` leaves it out.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Upper;

    impl ServiceTypes for Upper {
        fn service_type(&self, name: &str) -> Option<Option<&str>> {
            match name {
                "OUT" => Some(None),
                "IN" => Some(Some("initials")),
                _ => None,
            }
        }
    }

    #[test]
    fn defaults() {
        assert_eq!(default_tag_type("SIG_1"), "signature");
        assert_eq!(default_tag_type("TENANT_SIGNATURE"), "signature");
        assert_eq!(default_tag_type("CLIENT_SIGN_HERE"), "signature");
        assert_eq!(default_tag_type("DESIGNER"), "text");
        assert_eq!(default_tag_type("DATE"), "text");
        assert_eq!(default_field_type(FieldType::Pushbutton), None);
        assert_eq!(default_field_type(FieldType::Combo), Some("text"));
        assert_eq!(default_field_type(FieldType::Signature), Some("signature"));
    }

    #[test]
    fn overrides_win_over_defaults() {
        let o: Option<&dyn ServiceTypes> = Some(&Upper);
        assert_eq!(resolve(o, "OUT", Some("text")), None);
        assert_eq!(resolve(o, "IN", None), Some("initials"));
        assert_eq!(resolve(o, "X", Some("text")), Some("text"));
        assert_eq!(resolve(None, "OUT", Some("text")), Some("text"));
    }
}
