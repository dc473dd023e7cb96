//! The text of annotation appearances: what a page's annotations (other than
//! form widgets) draw over it, each read apart from the page's own content.
//!
//! A viewer draws an annotation's normal appearance (`/AP /N`, the state
//! `/AS` names when `/N` is a dictionary of states) as a Form XObject mapped
//! into the annotation's `/Rect`: ISO 32000-1 §12.5.5, Algorithm 8.1 (the
//! form's `/BBox` transformed by its `/Matrix`, then scaled and moved onto
//! `/Rect`). Annotations flagged Hidden (bit 2) or NoView (bit 6) are not
//! drawn, and neither are popups (drawn only when opened). A scan of tags
//! never reads these (a page's tags are its content's, as pdf.js, MuPDF and
//! pdfium extract a page's text); only the vendor-tag check does, to report
//! tag text an annotation draws.

use super::provenance::NoTrace;
use super::{Interp, PageText};
use crate::document::{Dict, Error, Obj, ObjectId, StreamError, matrix_of};
use crate::geometry::{Matrix, Rect};
use crate::resources::Resources;
use crate::stream_cache::Reuse;

/// Annotation flags (ISO 32000-1, Table 165): Hidden and NoView.
const NOT_DRAWN: i64 = 2 | 32;

/// The text one annotation's normal appearance draws on its page.
#[derive(Debug)]
pub(crate) struct Appearance {
    /// The annotation's `/Subtype` (`FreeText`, `Stamp`, ...).
    pub(crate) subtype: String,
    /// The annotation object, when it is not inline in `/Annots`.
    pub(crate) id: Option<ObjectId>,
    /// Its glyphs, in the page's displayed coordinates.
    pub(crate) text: PageText,
}

/// The appearances of page `index`'s drawn, non-widget annotations that show
/// any glyph, in `/Annots` order. A damaged appearance is skipped (the page's
/// findings already cover damaged content); limits are fatal, as on a page.
pub(crate) fn interpret_appearances(
    res: &Resources<'_>,
    index: usize,
) -> Result<Vec<Appearance>, Error> {
    let doc = res.doc();
    let Some(page) = doc.pages.get(index) else {
        return Ok(Vec::new());
    };
    let Some(annots) = doc
        .page_dict(page)
        .and_then(|d| doc.get_array(d, b"Annots"))
    else {
        return Ok(Vec::new());
    };
    let display = page.geometry.display_matrix();
    let mut out = Vec::new();
    for a in annots {
        let Some((id, dict)) = annotation(res, a) else {
            continue;
        };
        let subtype = doc.get_name(dict, b"Subtype").unwrap_or_default();
        if matches!(subtype, b"Widget" | b"Popup") {
            continue;
        }
        let flags = doc
            .get(dict, b"F")
            .and_then(Obj::as_i64)
            .unwrap_or_default();
        if flags & NOT_DRAWN != 0 {
            continue;
        }
        let Some(text) = run_appearance(res, index, display, dict)? else {
            continue;
        };
        if text.glyphs.is_empty() {
            continue;
        }
        out.push(Appearance {
            subtype: String::from_utf8_lossy(subtype).into_owned(),
            id,
            text,
        });
    }
    Ok(out)
}

/// An `/Annots` entry, resolved to its dictionary.
fn annotation<'a>(res: &Resources<'a>, a: Obj<'a>) -> Option<(Option<ObjectId>, Dict<'a>)> {
    let doc = res.doc();
    let id = a.as_reference();
    Some((id, doc.resolve(a)?.as_dict()?))
}

/// Runs the normal appearance of annotation `dict`; `None` when it has none
/// that can be drawn (no stream, no `/BBox` or `/Rect`, a damaged stream).
fn run_appearance<'a>(
    res: &'a Resources<'a>,
    index: usize,
    display: Matrix,
    dict: Dict<'a>,
) -> Result<Option<PageText>, Error> {
    let doc = res.doc();
    let Some(normal) = doc.get_dict(dict, b"AP").and_then(|ap| ap.get(b"N")) else {
        return Ok(None);
    };
    // `/N` is the form itself, or a dictionary of states that `/AS` picks from.
    let form = match doc.resolve_stream(normal) {
        Some(s) => Some(s),
        None => doc
            .resolve(normal)
            .and_then(Obj::as_dict)
            .zip(doc.get_name(dict, b"AS"))
            .and_then(|(states, state)| states.get(state))
            .and_then(|s| doc.resolve_stream(s)),
    };
    let Some((id, stream)) = form else {
        return Ok(None);
    };
    let (Some(rect), Some(bbox)) = (
        doc.get(dict, b"Rect").and_then(|r| rect_of(res, r)),
        doc.get(stream.dict(), b"BBox")
            .and_then(|r| rect_of(res, r)),
    ) else {
        return Ok(None);
    };
    let matrix = doc
        .get_array(stream.dict(), b"Matrix")
        .and_then(|a| matrix_of(doc, a))
        .unwrap_or(Matrix::IDENTITY);
    let data = match res.decoded_stream(id, stream, Reuse::Form) {
        Ok(d) => d,
        Err(StreamError::Limit(limit)) => return Err(Error::limit_on_page(limit, index)),
        Err(StreamError::DocumentLimit(limit)) => return Err(Error::limit(limit)),
        Err(StreamError::Corrupt(_)) => return Ok(None),
    };
    let mut it = Interp::new(res, index, display, NoTrace);
    it.gs.ctm = matrix.then(&onto(&matrix.apply_rect(&bbox), &rect));
    it.forms.push(id.unwrap_or((0, 0)));
    let resources = doc.get_dict(stream.dict(), b"Resources");
    it.run(&data, resources)?;
    it.report_full();
    Ok(Some(it.out))
}

/// Algorithm 8.1's matrix A: the transformed box `from` scaled and moved
/// onto the annotation's rectangle `to`.
fn onto(from: &Rect, to: &Rect) -> Matrix {
    let sx = if from.width() > 0.0 {
        to.width() / from.width()
    } else {
        1.0
    };
    let sy = if from.height() > 0.0 {
        to.height() / from.height()
    } else {
        1.0
    };
    Matrix::new(sx, 0.0, 0.0, sy, to.x0 - from.x0 * sx, to.y0 - from.y0 * sy)
}

/// A four-number rectangle, normalised; `None` unless all four are numbers.
fn rect_of(res: &Resources<'_>, obj: Obj<'_>) -> Option<Rect> {
    let doc = res.doc();
    let arr = obj.as_array()?;
    let mut v = [0.0; 4];
    if arr.len() < 4 {
        return None;
    }
    for (slot, o) in v.iter_mut().zip(arr) {
        *slot = doc.resolve(o).and_then(Obj::as_number)?;
    }
    v.iter()
        .all(|x| x.is_finite())
        .then(|| Rect::new(v[0], v[1], v[2], v[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_mapped_onto_the_rectangle() {
        let m = onto(
            &Rect::new(0.0, 0.0, 100.0, 20.0),
            &Rect::new(50.0, 700.0, 250.0, 720.0),
        );
        assert_eq!(m.apply(0.0, 0.0), (50.0, 700.0));
        assert_eq!(m.apply(100.0, 20.0), (250.0, 720.0));
    }
}
