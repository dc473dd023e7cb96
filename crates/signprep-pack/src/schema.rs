//! JSON Schemas of what signprep reads and writes (`signprep schema NAME`),
//! derived (schemars) from the types that are read or written: the scan
//! record's from [`crate::ScanRecord`] and the core's record types, for what
//! they serialise.

use crate::datafields::ScanRecord;
use crate::manifest::Manifest;
use crate::model::pack::DocumentPack;
use crate::model::plan::Requests;
use crate::model::populate::PopulateBody;
use crate::model::v0::V0Document;
use schemars::{JsonSchema, SchemaGenerator, generate::SchemaSettings};
use serde_json::{Value, json};

/// A schema signprep publishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemaName {
    /// The v1 pack body `signprep pack` writes.
    Pack,
    /// The manifest `signprep pack` reads.
    Manifest,
    /// One record of `signprep scan`.
    Scan,
    /// What `signprep pack --v0` writes: v0 create requests.
    V0,
    /// What `signprep pack --populate` writes: the template-copy request.
    Populate,
}

impl SchemaName {
    /// Every schema.
    pub const ALL: &'static [SchemaName] = &[
        SchemaName::Pack,
        SchemaName::Manifest,
        SchemaName::Scan,
        SchemaName::V0,
        SchemaName::Populate,
    ];

    /// The name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            SchemaName::Pack => "pack",
            SchemaName::Manifest => "manifest",
            SchemaName::Scan => "scan",
            SchemaName::V0 => "v0",
            SchemaName::Populate => "populate",
        }
    }

    /// Looks a schema up by its command-line name.
    pub fn from_name(name: &str) -> Option<SchemaName> {
        SchemaName::ALL.iter().copied().find(|s| s.as_str() == name)
    }

    /// The file under `docs/schema/`.
    pub fn file_name(self) -> String {
        format!("{}.schema.json", self.as_str())
    }

    /// The schema (JSON Schema 2020-12).
    pub fn schema(self) -> serde_json::Value {
        let generator = || SchemaGenerator::new(SchemaSettings::draft2020_12());
        let title = self.title();
        let mut schema = match self {
            SchemaName::Pack => root::<DocumentPack>(generator()),
            SchemaName::Manifest => root::<Manifest>(generator()),
            SchemaName::Scan => root::<ScanRecord<'static>>(SchemaGenerator::new(
                SchemaSettings::draft2020_12().for_serialize(),
            )),
            SchemaName::V0 => root::<Requests<V0Document>>(generator()),
            SchemaName::Populate => root::<Requests<PopulateBody>>(generator()),
        };
        if let Some(obj) = schema.as_object_mut() {
            obj.insert("title".into(), title.into());
        }
        schema
    }

    fn title(self) -> &'static str {
        match self {
            SchemaName::Pack => "signprep: v1 document pack body",
            SchemaName::Manifest => "signprep: pack manifest",
            SchemaName::Scan => "signprep: scan record",
            SchemaName::V0 => "signprep: v0 tag-extraction requests",
            SchemaName::Populate => "signprep: populate-syntax template copy request",
        }
    }

    /// The schema as committed: pretty JSON and a final newline.
    pub fn text(self) -> String {
        let mut s = serde_json::to_string_pretty(&self.schema()).unwrap_or_default();
        s.push('\n');
        s
    }
}

fn root<T: JsonSchema>(generator: SchemaGenerator) -> serde_json::Value {
    let mut v = generator.into_root_schema_for::<T>().to_value();
    strip_optional_null(&mut v);
    v
}

/// schemars lets every `Option` be `null`; ours are omitted when unset, never
/// sent as `null`, so optional properties lose their `null` branch. ("Or null"
/// fields are [`crate::Nullable`], whose null branch is `{"const": null}`.)
fn strip_optional_null(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let required: Vec<String> = match m.get("required") {
                Some(Value::Array(r)) => r
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                _ => Vec::new(),
            };
            if let Some(Value::Object(props)) = m.get_mut("properties") {
                for (k, p) in props.iter_mut() {
                    if !required.contains(k) {
                        drop_null(p);
                    }
                }
            }
            for child in m.values_mut() {
                strip_optional_null(child);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strip_optional_null),
        _ => {}
    }
}

fn drop_null(p: &mut Value) {
    let Value::Object(obj) = p else { return };
    let null = json!({"type": "null"});
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            obj.insert("type".into(), only);
        }
    } else if let Some(Value::Array(any)) = obj.get("anyOf")
        && any.len() == 2
        && any.contains(&null)
    {
        let other = any.iter().find(|x| **x != null).cloned();
        obj.remove("anyOf");
        if let Some(Value::Object(o)) = other {
            for (k, v) in o {
                obj.entry(k).or_insert(v);
            }
        }
    }
}
