//! The populate-syntax body of a template copy.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::json;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// The flat populate-syntax body: `signer_<n>_email`, `signer_<n>_name`,
/// `cc_<n>_email`, `cc_<n>_name` (n zero-based), and every other key a template
/// data field's `custom_id` with its value as a string.
///
/// ```
/// use signprep_pack::{Party, PopulateBody};
/// let mut body = PopulateBody::default();
/// body.signers.insert(0, Party { email: Some("a@example.com".into()), name: Some("Ann".into()) });
/// body.fields.insert("FEE".into(), "100".into());
/// let v = serde_json::to_value(&body)?;
/// assert_eq!(v, serde_json::json!({"signer_0_email": "a@example.com", "signer_0_name": "Ann", "FEE": "100"}));
/// assert_eq!(serde_json::from_value::<PopulateBody>(v)?, body);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PopulateBody {
    /// Signers by index.
    pub signers: BTreeMap<usize, Party>,
    /// CC recipients by index.
    pub cc: BTreeMap<usize, Party>,
    /// Template data field values by `custom_id`.
    pub fields: BTreeMap<String, String>,
}

/// A signer's or CC recipient's email and name in a populate body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Party {
    /// `signer_<n>_email` / `cc_<n>_email`.
    pub email: Option<String>,
    /// `signer_<n>_name` / `cc_<n>_name`.
    pub name: Option<String>,
}

/// What a populate key addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopulateKey<'a> {
    /// `signer_<n>_email` or `signer_<n>_name`: index, is-email.
    Signer(usize, bool),
    /// `cc_<n>_email` or `cc_<n>_name`: index, is-email.
    Cc(usize, bool),
    /// Any other key: a template field's custom_id.
    Field(&'a str),
}

impl<'a> PopulateKey<'a> {
    /// Classifies a key. The index must be written without leading zeros.
    pub fn parse(key: &'a str) -> PopulateKey<'a> {
        let party = |rest: &str| -> Option<(usize, bool)> {
            let (n, what) = rest.split_once('_')?;
            let canonical = !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
                && (n == "0" || !n.starts_with('0'));
            let email = match what {
                "email" => true,
                "name" => false,
                _ => return None,
            };
            canonical
                .then(|| n.parse().ok())
                .flatten()
                .map(|i| (i, email))
        };
        if let Some((i, e)) = key.strip_prefix("signer_").and_then(party) {
            PopulateKey::Signer(i, e)
        } else if let Some((i, e)) = key.strip_prefix("cc_").and_then(party) {
            PopulateKey::Cc(i, e)
        } else {
            PopulateKey::Field(key)
        }
    }
}

impl Serialize for PopulateBody {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        for (prefix, parties) in [("signer", &self.signers), ("cc", &self.cc)] {
            for (i, p) in parties {
                if let Some(e) = &p.email {
                    m.serialize_entry(&format!("{prefix}_{i}_email"), e)?;
                }
                if let Some(n) = &p.name {
                    m.serialize_entry(&format!("{prefix}_{i}_name"), n)?;
                }
            }
        }
        for (k, v) in &self.fields {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for PopulateBody {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PopulateBody;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a flat object of string values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PopulateBody, A::Error> {
                let mut body = PopulateBody::default();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    let slot = match PopulateKey::parse(&k) {
                        PopulateKey::Signer(i, e) => Some((body.signers.entry(i).or_default(), e)),
                        PopulateKey::Cc(i, e) => Some((body.cc.entry(i).or_default(), e)),
                        PopulateKey::Field(_) => None,
                    };
                    match slot {
                        Some((p, true)) => p.email = Some(v),
                        Some((p, false)) => p.name = Some(v),
                        None => {
                            body.fields.insert(k, v);
                        }
                    }
                }
                Ok(body)
            }
        }
        d.deserialize_map(V)
    }
}

impl JsonSchema for PopulateBody {
    fn schema_name() -> Cow<'static, str> {
        "PopulateBody".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        match json!({
            "description": "Populate-syntax body of a template copy: signer_<n>_email, signer_<n>_name, cc_<n>_email, cc_<n>_name (n zero-based), and any other key the custom_id of a template data field, all with string values.",
            "type": "object",
            "patternProperties": {
                "^signer_(0|[1-9][0-9]*)_(email|name)$": {"type": "string"},
                "^cc_(0|[1-9][0-9]*)_(email|name)$": {"type": "string"}
            },
            "additionalProperties": {"type": "string"}
        }) {
            serde_json::Value::Object(m) => Schema::from(m),
            _ => Schema::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        assert_eq!(
            PopulateKey::parse("signer_0_email"),
            PopulateKey::Signer(0, true)
        );
        assert_eq!(PopulateKey::parse("cc_12_name"), PopulateKey::Cc(12, false));
        for k in [
            "signer_01_email",
            "signer__email",
            "signer_0_phone",
            "cc_x_name",
            "FEE",
        ] {
            assert_eq!(PopulateKey::parse(k), PopulateKey::Field(k), "{k}");
        }
    }
}
