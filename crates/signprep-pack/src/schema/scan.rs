//! The scan record, described for its schema.
//!
//! signprep-core's record types only serialise; these mirror them field for
//! field (a test scans every fixture and checks that each record reads into
//! [`ScanRecord`] and writes back unchanged, so the two cannot drift apart).
//! Form fields are still growing, so their extra properties are allowed.

use crate::Nullable;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What `signprep scan` prints for one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScanRecord {
    /// The path as given.
    pub path: String,
    /// `ok`, or `error` when the file could not be scanned.
    pub status: Status,
    /// Present when `status` is `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// Pages, in order.
    pub pages: Vec<Page>,
    /// `<# TAG #>` tags, page by page in content order.
    pub tags: Vec<Tag>,
    /// With `--dialect`: other vendors' text tags, page by page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor_tags: Option<Vec<VendorTag>>,
    /// AcroForm field widgets.
    pub fields: Vec<FormField>,
    /// Findings.
    pub diagnostics: Vec<Diagnostic>,
    /// With `--data-fields`: the tags and fields as the service's Data fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_fields: Option<Vec<DataField>>,
}

/// Whether the file was scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Scanned (possibly with findings).
    Ok,
    /// Not scanned.
    Error,
}

/// Why a file could not be scanned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorInfo {
    /// `pdf_unreadable`, `pdf_encrypted`, `pdf_limit_exceeded` or `io_error`.
    pub code: String,
    /// What went wrong.
    pub message: String,
}

/// A displayed page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// 0-based index.
    pub index: u64,
    /// Displayed width, pixels.
    pub width: f64,
    /// Displayed height, pixels.
    pub height: f64,
    /// `/Rotate`, normalised to 0, 90, 180 or 270.
    pub rotation: u16,
    /// Sum of the displayed heights of the pages before it.
    pub y_offset: f64,
    /// `/UserUnit`, when the page has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_unit: Option<f64>,
}

/// A text tag `<# TAG_ID #>` and its box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tag {
    /// The id between the delimiters, trimmed.
    pub tag_id: String,
    /// The tag as written.
    pub raw: String,
    /// The id is upper-case ASCII letters, digits and `_`.
    pub valid: bool,
    /// 0-based page.
    pub page: u64,
    /// Left, pixels from the left of page 0.
    pub x: f64,
    /// Top, pixels from the top of page 0 (pages stacked).
    pub y: f64,
    /// Width, pixels.
    pub width: f64,
    /// Height, pixels.
    pub height: f64,
    /// Font name, without a subset prefix.
    pub font: String,
    /// Effective font size.
    pub font_size: f64,
    /// Painted invisibly.
    pub hidden: bool,
}

/// An AcroForm field widget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FormField {
    /// Fully qualified name.
    pub name: String,
    /// `text`, `checkbox`, `radio`, `combo`, `list`, `signature`, `pushbutton`.
    #[serde(rename = "type", default, skip_serializing_if = "Nullable::is_absent")]
    pub kind: Nullable<String>,
    /// 0-based page of the widget, `null` when no page shows it.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub page: Nullable<u64>,
    /// Left, pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// Top, pixels (pages stacked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// Width, pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Height, pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// Ff bit 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Further properties (flags, options, values).
    #[serde(flatten)]
    pub more: serde_json::Map<String, serde_json::Value>,
}

/// A finding of the scan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Diagnostic {
    /// `error`, `warning` or `info`.
    pub severity: Severity,
    /// Stable snake_case code (see the README's table).
    #[schemars(regex(pattern = r"^[a-z][a-z0-9_]*$"))]
    pub code: String,
    /// Human message.
    pub message: String,
    /// 0-based page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
    /// Tag id concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Field name concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What to do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Severity of a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The service will reject or mishandle it.
    Error,
    /// Probably wrong.
    Warning,
    /// Worth knowing.
    Info,
}

/// A tag or form field as the service's Data field object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataField {
    /// Full field name; `null` for a tag.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub custom_id: Nullable<String>,
    /// Tag id (tags only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_id: Option<String>,
    /// Service field type.
    #[serde(rename = "type")]
    pub kind: String,
    /// Required.
    pub required: bool,
    /// Options of a choice field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options_as_csv: Option<String>,
    /// Tooltip.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<String>,
    /// Value.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub data: Nullable<String>,
    /// Left, pixels.
    pub x: f64,
    /// Top, pixels (pages stacked).
    pub y: f64,
    /// Width, pixels.
    pub width: f64,
    /// Height, pixels.
    pub height: f64,
}

/// Another vendor's text tag (`scan --dialect`) and the box its vendor gives
/// the field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VendorTag {
    /// Whose grammar read it.
    pub dialect: Dialect,
    /// The tag as written, delimiters included.
    pub raw: String,
    /// What the tag says.
    pub attributes: VendorAttributes,
    /// 0-based page.
    pub page: u64,
    /// Left, pixels from the left of the page.
    pub x: f64,
    /// Top, pixels from the top of page 0 (pages stacked).
    pub y: f64,
    /// Width, pixels.
    pub width: f64,
    /// Height, pixels.
    pub height: f64,
    /// Font of the first glyph, without a subset prefix.
    pub font: String,
    /// Effective font size of the first glyph.
    pub font_size: f64,
    /// Painted invisibly.
    pub hidden: bool,
}

/// A vendor whose text tags signprep reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// Adobe Acrobat Sign `{{name_es_:signer1:signature}}`.
    Adobe,
    /// Dropbox Sign `[sig|req|signer1]`.
    Dropbox,
    /// BoldSign `{{sign|1|*|Label|id}}`.
    Boldsign,
    /// DocuSeal `{{Name;type=signature;role=Client}}`.
    Docuseal,
    /// signNow `{{t:s;r:y;o:"Client";}}`.
    Signnow,
    /// PandaDoc `{signature:Client___}`.
    Pandadoc,
}

/// A vendor tag's parsed attributes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VendorAttributes {
    /// The field type as written in the tag.
    #[serde(rename = "type")]
    pub field_type: String,
    /// The type across vendors: `signature`, `initials`, `text`, `date`,
    /// `date_signed`, `checkbox`, `radio`, `dropdown`, `file`, `image`,
    /// `stamp`, `name`, `email`, `company`, `title`, `phone`, `payment`,
    /// `multiple` or `unknown`.
    pub kind: String,
    /// Signer or role as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer: Option<String>,
    /// 1-based signer number, where the grammar numbers signers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer_index: Option<u32>,
    /// Must be filled in.
    pub required: bool,
    /// Cannot be changed by the signer.
    pub read_only: bool,
    /// Label or placeholder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Field name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Field id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Choices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// Explicit width written in the tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Explicit height written in the tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// Other settings of the tag.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub extra: std::collections::BTreeMap<String, String>,
}
