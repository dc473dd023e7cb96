//! The `NAME.expect.json` schema.

use serde::{Deserialize, Serialize};

/// Everything a scanner should report for one fixture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expect {
    pub description: String,
    pub pages: Vec<ExpectPage>,
    /// Tags in page order, then in content-stream order.
    pub tags: Vec<ExpectTag>,
    /// One entry per `<#` left without a `#>` on the same line.
    pub unterminated: Vec<ExpectUnterminated>,
    /// Form-field widgets (form fixtures only), in the scanner's output order:
    /// `/AcroForm /Fields` depth-first, then widgets only pages list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<ExpectField>>,
    /// Field findings (form fixtures only), in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_findings: Option<Vec<ExpectFinding>>,
    /// The error code the scan must fail with (e.g. `pdf_unreadable`), when
    /// the fixture is meant to be refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Other vendors' tags (vendor fixtures only), page by page in line order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor_tags: Option<Vec<ExpectVendorTag>>,
    /// One entry per vendor tag wrapped onto a second line (vendor fixtures only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor_split: Option<Vec<ExpectUnterminated>>,
    /// One entry per font whose misread text holds a `<#` that is no tag
    /// attempt (`text_unmappable` without a tag), on the first page it is
    /// read on; absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_unmappable: Option<Vec<ExpectUnmappable>>,
    /// One entry per `{{…}}` that no grammar of the document reads
    /// (`vendor_tag_unread`; vendor fixtures only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor_unread: Option<Vec<ExpectUnterminated>>,
}

/// A font without a usable Unicode mapping, named as the scanner reports it
/// (subset prefix stripped), and the first page where it reads as a `<#`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectUnmappable {
    pub font: String,
    pub page: usize,
}

/// Another vendor's tag and the field box its vendor documents, in
/// displayed-page coordinates like a tag's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectVendorTag {
    pub dialect: String,
    /// The tag text as shown, delimiters included.
    pub raw: String,
    pub page: usize,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub hidden: bool,
    /// Where the vendor places the field when not on the text's box (an
    /// explicit size, a DocuSign anchor's offsets and tab size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<ExpectBox>,
}

/// A box in displayed-page coordinates (origin top-left, y down).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ExpectBox {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// One form-field widget. The box is in displayed-page coordinates like a
/// tag's (origin top-left, y down); a widget without a page keeps its raw
/// `/Rect` (`x`, `y` = lower-left corner).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectField {
    pub name: String,
    /// `text`, `checkbox`, `radio`, `combo`, `list`, `signature`, `pushbutton`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub page: Option<usize>,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub required: bool,
    pub read_only: bool,
    pub multiline: bool,
    pub password: bool,
    pub comb: bool,
    pub multi_select: bool,
    /// Display strings of a choice field's /Opt.
    pub options: Vec<String>,
    /// Export values, when some differ from the display strings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option_values: Option<Vec<String>>,
    /// A string, a list of strings, or null.
    pub value: serde_json::Value,
    pub default_value: serde_json::Value,
    pub tooltip: Option<String>,
    pub max_len: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widget_index: Option<usize>,
}

/// A finding about a field: its code, severity and field name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ExpectFinding {
    pub code: String,
    pub severity: String,
    pub field: Option<String>,
}

/// A page as displayed: CropBox ∩ MediaBox, then /Rotate (clockwise).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectPage {
    pub index: usize,
    pub width: f64,
    pub height: f64,
    /// /Rotate normalised to 0, 90, 180 or 270.
    pub rotation: u32,
}

/// A tag's box in displayed-page coordinates (origin top-left, y down).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectTag {
    pub tag_id: String,
    pub valid: bool,
    pub page: usize,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub font: String,
    pub font_size: f64,
    pub hidden: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectUnterminated {
    pub page: usize,
}

/// `^[A-Z0-9_]+$`.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// How scanning a hostile file must end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostileExpect {
    pub description: String,
    /// `ok` or `error`.
    pub status: String,
    /// The error record's code (`status` = `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<String>,
    /// Page count (`status` = `ok`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<usize>,
    /// Every tag id found, in order (`status` = `ok`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The distinct diagnostic codes reported, sorted (`status` = `ok`).
    #[serde(default)]
    pub diagnostics: Vec<String>,
}

impl HostileExpect {
    pub(crate) fn error(description: &str, code: &str) -> Self {
        HostileExpect {
            description: description.to_string(),
            status: "error".to_string(),
            error_code: Some(code.to_string()),
            pages: None,
            tags: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    pub(crate) fn ok(description: &str, pages: usize, tags: &[&str], diagnostics: &[&str]) -> Self {
        let mut diagnostics: Vec<String> = diagnostics.iter().map(|s| s.to_string()).collect();
        diagnostics.sort();
        diagnostics.dedup();
        HostileExpect {
            description: description.to_string(),
            status: "ok".to_string(),
            error_code: None,
            pages: Some(pages),
            tags: tags.iter().map(|s| s.to_string()).collect(),
            diagnostics,
        }
    }
}
