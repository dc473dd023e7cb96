//! [`Nullable`]: a field that may be absent, `null`, or a value.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// A field the specification types as "T or null": absent, `null`, or a value.
///
/// `Option<T>` cannot tell an absent key from an explicit `null`, so a body read
/// and written again would lose the `null`. Use it as
/// `#[serde(default, skip_serializing_if = "Nullable::is_absent")]`.
///
/// ```
/// use signprep_pack::Nullable;
/// let n: Nullable<String> = serde_json::from_str("null")?;
/// assert_eq!(n, Nullable::Null);
/// assert_eq!(Nullable::from("x").value(), Some(&"x".to_string()));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Nullable<T> {
    /// The key is not there (never written).
    #[default]
    Absent,
    /// The key holds `null`.
    Null,
    /// The key holds a value.
    Value(T),
}

impl<T> Nullable<T> {
    /// True when the key is absent (used by `skip_serializing_if`).
    pub fn is_absent(&self) -> bool {
        matches!(self, Nullable::Absent)
    }

    /// The value, if there is one.
    pub fn value(&self) -> Option<&T> {
        match self {
            Nullable::Value(v) => Some(v),
            Nullable::Absent | Nullable::Null => None,
        }
    }

    /// `Some(v)` becomes a value, `None` stays absent.
    pub fn from_option(v: Option<T>) -> Self {
        v.map_or(Nullable::Absent, Nullable::Value)
    }
}

impl From<&str> for Nullable<String> {
    fn from(v: &str) -> Self {
        Nullable::Value(v.to_string())
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Value(v) => v.serialize(s),
            Nullable::Absent | Nullable::Null => s.serialize_none(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<T>::deserialize(d)? {
            Some(v) => Nullable::Value(v),
            None => Nullable::Null,
        })
    }
}

/// "T or null". The null branch is written `{"const": null}` so that the schema
/// post-processing, which takes `null` out of omitted-when-unset `Option`
/// properties, leaves it alone.
impl<T: JsonSchema> JsonSchema for Nullable<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Nullable_{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let sub = generator.subschema_for::<T>().to_value();
        match serde_json::json!({"anyOf": [sub, {"const": null}]}) {
            serde_json::Value::Object(m) => Schema::from(m),
            _ => Schema::default(),
        }
    }
}
