//! A vendor tag as a scan writes it: [`VendorTag`], its box in page-stacked
//! output pixels (as [`crate::Tag`]), and where its field goes ([`FieldBox`]).

use super::{Dialect, FoundVendorTag, VendorAttributes};
use crate::source::SourcePlace;
use schemars::JsonSchema;
use serde::Serialize;

/// A vendor tag in a scan, in page-stacked output pixels (as [`crate::Tag`]).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct VendorTag {
    /// Whose grammar read it.
    pub dialect: Dialect,
    /// The tag as written, delimiters included.
    pub raw: String,
    /// What it says.
    pub attributes: VendorAttributes,
    /// 0-based page index.
    pub page: usize,
    /// Left edge of the tag's text, pixels.
    pub x: f64,
    /// Top edge of the tag's text, pixels from the top of page 0 (pages stacked).
    pub y: f64,
    /// Width of the tag's text, pixels.
    pub width: f64,
    /// Height of the tag's text, pixels.
    pub height: f64,
    /// Where the vendor places the field, when that is not the text's box:
    /// an explicit size (signNow `w:`/`h:`, DocuSeal `width=`/`height=`),
    /// DocuSign's anchor offsets and tab sizes. `migrate` and `preview`
    /// place the field here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<FieldBox>,
    /// Font of the first glyph, without a subset prefix.
    pub font: String,
    /// Effective font size of the first glyph, in points.
    pub font_size: f64,
    /// Painted invisibly (white, transparent or render mode 3/7).
    pub hidden: bool,
    /// Where the tag stands in the template the PDF was converted from (a
    /// `.docx` or `.odt` input); absent for a PDF input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourcePlace>,
}

/// A field's place in page-stacked output pixels.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FieldBox {
    /// Left edge, pixels.
    pub x: f64,
    /// Top edge, pixels from the top of page 0 (pages stacked).
    pub y: f64,
    /// Width, pixels.
    pub width: f64,
    /// Height, pixels.
    pub height: f64,
}

impl VendorTag {
    /// A tag of this dialect, as written (`raw`), on a page (0-based) with
    /// its text at `text` (page-stacked pixels): no attributes, no field box,
    /// no font, visible. Set the public fields for the rest.
    pub fn new(dialect: Dialect, raw: impl Into<String>, page: usize, text: FieldBox) -> VendorTag {
        VendorTag {
            dialect,
            raw: raw.into(),
            attributes: VendorAttributes::default(),
            page,
            x: text.x,
            y: text.y,
            width: text.width,
            height: text.height,
            field: None,
            font: String::new(),
            font_size: 0.0,
            hidden: false,
            source: None,
        }
    }

    /// Where the field goes: the `field` box, or the text's box.
    pub fn field_box(&self) -> FieldBox {
        self.field.unwrap_or(FieldBox {
            x: self.x,
            y: self.y,
            width: self.width,
            height: self.height,
        })
    }
}

impl FoundVendorTag {
    /// Scaled by `f` and moved down the stack by `off` (both in pixels).
    pub(crate) fn output(self, page: usize, f: f64, off: f64) -> VendorTag {
        use crate::geometry::round2;
        let (x, y, width, height) = self.bbox.stacked(f, off);
        let field = self.field.map(|r| {
            let (x, y, width, height) = r.stacked(f, off);
            FieldBox {
                x: round2(x),
                y: round2(y),
                width: round2(width),
                height: round2(height),
            }
        });
        VendorTag {
            dialect: self.dialect,
            raw: self.raw,
            attributes: self.attrs,
            page,
            x: round2(x),
            y: round2(y),
            width: round2(width),
            height: round2(height),
            field,
            font: self.font,
            font_size: round2(self.font_size),
            hidden: self.hidden,
            source: None,
        }
    }
}
