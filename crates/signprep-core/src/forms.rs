//! AcroForm fields and their widgets.
//!
//! Placeholder until the forms issue lands: the record's `fields` array is empty.

use crate::diag::Diagnostic;
use crate::document::{Document, Error};
use crate::geometry::Rect;
use serde::Serialize;

/// One form-field widget (a field with two widgets gives two entries).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    /// Fully qualified name.
    pub name: String,
}

/// Maps a displayed rectangle on a page to output `(x, y, width, height)`.
pub(crate) type ToPixels<'a> = dyn Fn(usize, &Rect) -> (f64, f64, f64, f64) + 'a;

/// Extracts every field widget.
pub(crate) fn extract(
    _doc: &Document,
    _to_px: &ToPixels<'_>,
) -> Result<(Vec<Field>, Vec<Diagnostic>), Error> {
    Ok((Vec::new(), Vec::new()))
}
