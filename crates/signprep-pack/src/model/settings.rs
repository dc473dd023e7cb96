//! `document_creation_settings`: the typed variants and the lenient raw form.

use super::{Extra, UnknownKeys, report_extra};
use crate::codes::{Finding, PackCode, pointer};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::json;
use std::borrow::Cow;
use std::fmt;

/// A file as standard Base64 text (`base_64_document`).
///
/// Its `Debug` shows the length only, not megabytes of text.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Base64Pdf(String);

impl Base64Pdf {
    /// Encodes bytes (one allocation, of the exact output size).
    pub fn encode(bytes: &[u8]) -> Self {
        Base64Pdf(STANDARD.encode(bytes))
    }

    /// Wraps text that is already Base64, unchecked (see [`Base64Pdf::decode`]).
    pub fn from_base64(text: String) -> Self {
        Base64Pdf(text)
    }

    /// The Base64 text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Decodes the text.
    pub fn decode(&self) -> Result<Vec<u8>, Base64Error> {
        STANDARD.decode(self.0.as_bytes()).map_err(Base64Error)
    }
}

/// Why a `base_64_document` is not standard Base64, said as what to fix; the
/// base64 crate's error is the [`std::error::Error::source`].
#[derive(Debug, thiserror::Error)]
#[error("{}", base64_problem(.0))]
pub struct Base64Error(#[source] base64::DecodeError);

/// A character (a byte of the text) as a message shows it.
fn shown(byte: u8) -> String {
    match byte {
        b'!'..=b'~' => format!("`{}`", char::from(byte)),
        b' ' => "a space".into(),
        b'\n' | b'\r' => "a line break".into(),
        b'\t' => "a tab".into(),
        _ => format!("the byte 0x{byte:02X}"),
    }
}

fn base64_problem(e: &base64::DecodeError) -> String {
    match *e {
        base64::DecodeError::InvalidByte(at, byte) => {
            let why = match byte {
                b'-' | b'_' => {
                    "is from the URL-safe alphabet; the service takes standard Base64 (`+` and `/`)"
                }
                b' ' | b'\n' | b'\r' | b'\t' => {
                    "is not Base64: write the text without spaces or line breaks"
                }
                b'=' => "is padding before the end (two Base64 texts joined, or text after the end)",
                _ => "is not a Base64 character",
            };
            format!("{} at position {} {why}", shown(byte), at + 1)
        }
        base64::DecodeError::InvalidLength(n) => format!(
            "{n} Base64 characters is a length no encoder writes: the text is cut short or has a character too many"
        ),
        base64::DecodeError::InvalidLastSymbol(at, byte) => format!(
            "the last character, {} at position {}, carries bits an encoder leaves at zero: the text was cut short or altered",
            shown(byte),
            at + 1
        ),
        base64::DecodeError::InvalidPadding => {
            "the `=` padding at the end is missing or too long (standard Base64 pads to a multiple of 4 characters)".into()
        }
    }
}

impl fmt::Debug for Base64Pdf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Base64Pdf({} chars)", self.0.len())
    }
}

/// Which kind of child a `document_creation_settings` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChildKind {
    /// Copied from a template (`create_from_template_key`).
    Template,
    /// A PDF with `<# TAG #>` text tags (`extract_fields_by_tag`).
    TagSyntax,
    /// A PDF with AcroForm fields (both form-field flags).
    FormField,
}

/// Where a form-field child's PDF comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormSource {
    /// Embedded as `base_64_document`.
    Base64(Base64Pdf),
    /// Fetched by the service from `document_url`.
    Url(String),
}

/// `document_creation_settings` of a child: one variant per kind of child, each
/// serialising to exactly the flags the specification requires for it.
///
/// The fields are private and the only constructors are the ones below, so a
/// value cannot carry a forbidden combination. There is no way to put
/// `apply_extracted_fields` on a template child:
///
/// ```compile_fail
/// use signprep_pack::CreationSettings;
/// let s = CreationSettings::template("TPL").apply_extracted_fields(true);
/// ```
///
/// ```
/// use signprep_pack::CreationSettings;
/// let s = CreationSettings::template("TPL_KEY").with_workspace_defaults(true);
/// assert_eq!(
///     serde_json::to_value(&s)?,
///     serde_json::json!({"create_from_template_key": "TPL_KEY",
///                        "use_workspace_default_document_settings": true})
/// );
/// // Reading such a body strictly refuses it (a lenient read reports it instead).
/// let bad = r#"{"create_from_template_key": "T", "apply_extracted_fields": true}"#;
/// assert!(serde_json::from_str::<CreationSettings>(bad).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawCreationSettings")]
pub struct CreationSettings {
    source: Source,
    workspace_defaults: Option<bool>,
    extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    Template(String),
    TagSyntax(Base64Pdf),
    FormField(FormSource),
}

impl CreationSettings {
    /// A child copied from the template with this key.
    pub fn template(key: impl Into<String>) -> Self {
        Self::of(Source::Template(key.into()))
    }

    /// A tag-syntax child: the PDF and `extract_fields_by_tag: true`.
    pub fn tag_syntax(document: Base64Pdf) -> Self {
        Self::of(Source::TagSyntax(document))
    }

    /// A form-field child from an embedded PDF, with both extraction flags.
    pub fn form_field(document: Base64Pdf) -> Self {
        Self::of(Source::FormField(FormSource::Base64(document)))
    }

    /// A form-field child the service fetches from a URL, with both extraction flags.
    pub fn form_field_url(url: impl Into<String>) -> Self {
        Self::of(Source::FormField(FormSource::Url(url.into())))
    }

    fn of(source: Source) -> Self {
        CreationSettings {
            source,
            workspace_defaults: None,
            extra: Extra::new(),
        }
    }

    /// Sets `use_workspace_default_document_settings`.
    #[must_use]
    pub fn with_workspace_defaults(mut self, on: bool) -> Self {
        self.workspace_defaults = Some(on);
        self
    }

    /// `use_workspace_default_document_settings`, when set.
    pub fn workspace_defaults(&self) -> Option<bool> {
        self.workspace_defaults
    }

    /// The kind of child.
    pub fn kind(&self) -> ChildKind {
        match self.source {
            Source::Template(_) => ChildKind::Template,
            Source::TagSyntax(_) => ChildKind::TagSyntax,
            Source::FormField(_) => ChildKind::FormField,
        }
    }

    /// The template key of a template child.
    pub fn template_key(&self) -> Option<&str> {
        match &self.source {
            Source::Template(k) => Some(k),
            Source::TagSyntax(_) | Source::FormField(_) => None,
        }
    }

    /// The embedded PDF, when there is one.
    pub fn base64(&self) -> Option<&Base64Pdf> {
        match &self.source {
            Source::TagSyntax(b) | Source::FormField(FormSource::Base64(b)) => Some(b),
            Source::Template(_) | Source::FormField(FormSource::Url(_)) => None,
        }
    }

    /// The URL of a form-field child fetched by the service.
    pub fn url(&self) -> Option<&str> {
        match &self.source {
            Source::FormField(FormSource::Url(u)) => Some(u),
            _ => None,
        }
    }

    /// Keys read from a body that the specification does not list (kept, and sent).
    pub fn extra(&self) -> &Extra {
        &self.extra
    }
}

/// The wire form, borrowed, so that serialising copies no Base64 text.
#[derive(Serialize)]
struct Wire<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    create_from_template_key: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    base_64_document: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    document_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extract_fields_by_tag: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extract_fields_from_form_fields_with_metadata: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apply_extracted_fields: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    use_workspace_default_document_settings: Option<bool>,
    #[serde(flatten)]
    extra: &'a Extra,
}

impl Serialize for CreationSettings {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut w = Wire {
            create_from_template_key: None,
            base_64_document: None,
            document_url: None,
            extract_fields_by_tag: None,
            extract_fields_from_form_fields_with_metadata: None,
            apply_extracted_fields: None,
            use_workspace_default_document_settings: self.workspace_defaults,
            extra: &self.extra,
        };
        match &self.source {
            Source::Template(k) => w.create_from_template_key = Some(k),
            Source::TagSyntax(b) => {
                w.base_64_document = Some(b.as_str());
                w.extract_fields_by_tag = Some(true);
            }
            Source::FormField(src) => {
                match src {
                    FormSource::Base64(b) => w.base_64_document = Some(b.as_str()),
                    FormSource::Url(u) => w.document_url = Some(u),
                }
                w.extract_fields_from_form_fields_with_metadata = Some(true);
                w.apply_extracted_fields = Some(true);
            }
        }
        w.serialize(s)
    }
}

impl UnknownKeys for CreationSettings {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        report_extra(&self.extra, at, "document_creation_settings", KEYS, out);
    }
}

const KEYS: &[&str] = &[
    "create_from_template_key",
    "base_64_document",
    "document_url",
    "extract_fields_by_tag",
    "extract_fields_from_form_fields_with_metadata",
    "apply_extracted_fields",
    "use_workspace_default_document_settings",
];

/// `document_creation_settings` as written, any combination of flags: what a
/// lenient read gives. [`RawCreationSettings::check`] reports what is wrong with
/// it, and `CreationSettings::try_from` converts it when nothing is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RawCreationSettings {
    /// Key of the template to copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub create_from_template_key: Option<String>,
    /// The PDF, Base64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_64_document: Option<Base64Pdf>,
    /// URL of the PDF (form-field children).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_url: Option<String>,
    /// Tag-syntax flag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extract_fields_by_tag: Option<bool>,
    /// Form-field flag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extract_fields_from_form_fields_with_metadata: Option<bool>,
    /// Form-field flag; forbidden on a template child.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply_extracted_fields: Option<bool>,
    /// Apply the workspace's default document settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_workspace_default_document_settings: Option<bool>,
    /// Keys the specification does not list.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: Extra,
}

impl RawCreationSettings {
    /// The kind these settings make, if any, and every finding about them, each
    /// located under the JSON pointer `at` (the settings object).
    pub fn check(&self, at: &str) -> (Option<ChildKind>, Vec<Finding>) {
        let mut out = Vec::new();
        let sources = [
            self.create_from_template_key.is_some(),
            self.base_64_document.is_some(),
            self.document_url.is_some(),
        ];
        let count = sources.iter().filter(|s| **s).count();
        if count == 0 {
            out.push(
                Finding::new(
                    PackCode::DocumentSourceMissing,
                    "no `create_from_template_key`, `base_64_document` or `document_url`",
                )
                .at(at),
            );
            return (None, out);
        }
        if count > 1 {
            out.push(
                Finding::new(
                    PackCode::DocumentSourceAmbiguous,
                    "more than one of `create_from_template_key`, `base_64_document`, `document_url`",
                )
                .at(at)
                .hint("keep exactly one document source per child"),
            );
            return (None, out);
        }
        let unexpected = |flag: &str, why: &str, out: &mut Vec<Finding>| {
            out.push(
                Finding::new(
                    PackCode::CreationFlagUnexpected,
                    format!("`{flag}` {why}; the typed model drops it"),
                )
                .at(pointer(at, flag)),
            );
        };
        let (tag, form, apply) = (
            self.extract_fields_by_tag,
            self.extract_fields_from_form_fields_with_metadata,
            self.apply_extracted_fields,
        );
        let kind = if self.create_from_template_key.is_some() {
            if apply.is_some() {
                out.push(
                    Finding::new(
                        PackCode::TemplateWithApplyExtractedFields,
                        "a template child carries `apply_extracted_fields`; it may keep the pack in `setup`",
                    )
                    .at(pointer(at, "apply_extracted_fields"))
                    .hint("remove it: template fields are configured on the template"),
                );
            }
            if tag.is_some() {
                unexpected(
                    "extract_fields_by_tag",
                    "has no meaning for a template child",
                    &mut out,
                );
            }
            if form.is_some() {
                unexpected(
                    "extract_fields_from_form_fields_with_metadata",
                    "has no meaning for a template child",
                    &mut out,
                );
            }
            ChildKind::Template
        } else if self.document_url.is_some() || form == Some(true) || apply == Some(true) {
            if form != Some(true) || apply != Some(true) {
                out.push(
                    Finding::new(
                        PackCode::FormDocMissingFlags,
                        "a form-field child needs `extract_fields_from_form_fields_with_metadata: true` and `apply_extracted_fields: true`",
                    )
                    .at(at),
                );
            }
            if tag.is_some() {
                unexpected(
                    "extract_fields_by_tag",
                    "has no meaning for a form-field child",
                    &mut out,
                );
            }
            ChildKind::FormField
        } else {
            if tag != Some(true) {
                out.push(
                    Finding::new(
                        PackCode::SyntaxDocMissingExtractFlag,
                        "a `base_64_document` child without form-field flags needs `extract_fields_by_tag: true`",
                    )
                    .at(at)
                    .hint("add `\"extract_fields_by_tag\": true`, or both form-field flags for an AcroForm PDF"),
                );
            }
            for (flag, v) in [
                ("extract_fields_from_form_fields_with_metadata", form),
                ("apply_extracted_fields", apply),
            ] {
                if v.is_some() {
                    unexpected(
                        flag,
                        "is false, so this is read as a tag-syntax child",
                        &mut out,
                    );
                }
            }
            ChildKind::TagSyntax
        };
        (Some(kind), out)
    }
}

/// The settings as a lenient read of their JSON gives them: exactly the keys
/// they serialise to (the inverse of `CreationSettings::try_from`).
impl From<CreationSettings> for RawCreationSettings {
    fn from(s: CreationSettings) -> Self {
        let mut raw = RawCreationSettings {
            use_workspace_default_document_settings: s.workspace_defaults,
            extra: s.extra,
            ..RawCreationSettings::default()
        };
        match s.source {
            Source::Template(k) => raw.create_from_template_key = Some(k),
            Source::TagSyntax(b) => {
                raw.base_64_document = Some(b);
                raw.extract_fields_by_tag = Some(true);
            }
            Source::FormField(src) => {
                match src {
                    FormSource::Base64(b) => raw.base_64_document = Some(b),
                    FormSource::Url(u) => raw.document_url = Some(u),
                }
                raw.extract_fields_from_form_fields_with_metadata = Some(true);
                raw.apply_extracted_fields = Some(true);
            }
        }
        raw
    }
}

impl TryFrom<RawCreationSettings> for CreationSettings {
    type Error = SettingsError;

    /// Converts settings that [`RawCreationSettings::check`] finds nothing wrong
    /// with; otherwise the error lists every finding.
    fn try_from(raw: RawCreationSettings) -> Result<Self, SettingsError> {
        let (kind, findings) = raw.check("");
        let Some(kind) = kind.filter(|_| findings.is_empty()) else {
            return Err(SettingsError(findings));
        };
        let workspace_defaults = raw.use_workspace_default_document_settings;
        let source = match (kind, raw.create_from_template_key, raw.base_64_document) {
            (ChildKind::Template, Some(k), _) => Source::Template(k),
            (ChildKind::TagSyntax, _, Some(b)) => Source::TagSyntax(b),
            (ChildKind::FormField, _, Some(b)) => Source::FormField(FormSource::Base64(b)),
            (ChildKind::FormField, _, None) => match raw.document_url {
                Some(u) => Source::FormField(FormSource::Url(u)),
                None => return Err(SettingsError(findings)),
            },
            _ => return Err(SettingsError(findings)),
        };
        Ok(CreationSettings {
            source,
            workspace_defaults,
            extra: raw.extra,
        })
    }
}

/// Why raw settings do not convert: the findings, at least one.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingsError(pub Vec<Finding>);

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msgs: Vec<String> = self.0.iter().map(|x| x.to_string()).collect();
        f.write_str(&msgs.join("; "))
    }
}

impl std::error::Error for SettingsError {}

impl UnknownKeys for RawCreationSettings {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        report_extra(&self.extra, at, "document_creation_settings", KEYS, out);
    }
}

impl JsonSchema for CreationSettings {
    fn schema_name() -> Cow<'static, str> {
        "CreationSettings".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let workspace = json!({
            "type": "boolean",
            "description": "Apply the workspace's default document settings after the request's values (they overwrite them); needs the pack's team_key."
        });
        let v = json!({
            "description": "How a child document is created: exactly one of the three kinds, each with exactly its flags.",
            "oneOf": [
                {
                    "title": "Template",
                    "type": "object",
                    "properties": {
                        "create_from_template_key": {"type": "string", "description": "Key of the template to copy."},
                        "use_workspace_default_document_settings": workspace,
                    },
                    "required": ["create_from_template_key"],
                    "additionalProperties": false
                },
                {
                    "title": "Tag-syntax document",
                    "type": "object",
                    "properties": {
                        "base_64_document": {"type": "string", "description": "The PDF, standard Base64."},
                        "extract_fields_by_tag": {"const": true},
                        "use_workspace_default_document_settings": workspace,
                    },
                    "required": ["base_64_document", "extract_fields_by_tag"],
                    "additionalProperties": false
                },
                {
                    "title": "Form-field document",
                    "type": "object",
                    "properties": {
                        "base_64_document": {"type": "string", "description": "The PDF, standard Base64."},
                        "document_url": {"type": "string", "description": "URL the service fetches the PDF from."},
                        "extract_fields_from_form_fields_with_metadata": {"const": true},
                        "apply_extracted_fields": {"const": true},
                        "use_workspace_default_document_settings": workspace,
                    },
                    "required": ["extract_fields_from_form_fields_with_metadata", "apply_extracted_fields"],
                    "oneOf": [{"required": ["base_64_document"]}, {"required": ["document_url"]}],
                    "additionalProperties": false
                }
            ]
        });
        match v {
            serde_json::Value::Object(m) => Schema::from(m),
            _ => Schema::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Base64Pdf;

    fn said(text: &str) -> String {
        match Base64Pdf::from_base64(text.to_string()).decode() {
            Ok(_) => panic!("`{text}` decoded"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_refused_base64_text_is_said_as_what_to_fix() {
        assert_eq!(
            said("JVBERi0x*not"),
            "`*` at position 9 is not a Base64 character"
        );
        assert!(
            said("JVBE-i0x").contains("URL-safe alphabet"),
            "{}",
            said("JVBE-i0x")
        );
        assert!(
            said("JVBE\nRi0x").starts_with("a line break at position 5"),
            "{}",
            said("JVBE\nRi0x")
        );
        assert!(said("JVBERi0").contains("padding"), "{}", said("JVBERi0"));
        assert!(
            said("JVBERi0x1").contains("length no encoder writes"),
            "{}",
            said("JVBERi0x1")
        );
        assert!(
            said("JVBERi1=").contains("carries bits"),
            "{}",
            said("JVBERi1=")
        );
        assert!(
            !said("JVBE\u{e9}i0x").contains("Invalid"),
            "{}",
            said("JVBE\u{e9}i0x")
        );
    }
}
