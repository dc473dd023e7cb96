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
