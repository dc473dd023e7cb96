//! Entry points for fuzz targets (`fuzz/`) and regression tests: thin wrappers
//! that expose internal parsers to arbitrary bytes. Not a stable API.
#![allow(clippy::disallowed_types)] // builds documents for the fuzz targets

use crate::content::interpret_page;
use crate::document::{Document, LoadOptions};
use crate::fonts::cmap::CMap;
use lopdf::{Object, Stream, dictionary};

/// Parses `data` as a CMap (ToUnicode or CID) and looks a few codes up.
pub fn cmap(data: &[u8]) {
    let cmap = CMap::parse(data);
    let mut out = String::new();
    let mut rest = data;
    for _ in 0..64 {
        if rest.is_empty() {
            break;
        }
        let (code, len) = cmap.next_code(rest, 2);
        cmap.unicode(code, len, &mut out);
        let _ = cmap.cid(code, len);
        rest = rest.get(usize::from(len.max(1))..).unwrap_or(&[]);
    }
}

/// Runs the content-stream interpreter over `content` on a page whose resources
/// hold a standard-14 font (`/F1`), a Type0 Identity-H font (`/F2`), a Type3 font
/// (`/F3`) and a Form XObject calling itself (`/X1`), then finds tags.
pub fn content(content: &[u8]) {
    let Some(doc) = page_document(content) else {
        return;
    };
    if let Ok(page) = interpret_page(&crate::resources::Resources::new(&doc), 0) {
        let _ = crate::tags::find_page_tags(0, &page);
    }
}

fn page_document(content: &[u8]) -> Option<Document> {
    let mut doc = lopdf::Document::with_version("1.7");
    let f1 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier", "Encoding" => "WinAnsiEncoding",
    });
    let tounicode = doc.add_object(Stream::new(
        dictionary! {},
        b"1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <00FF> <0000> endbfrange".to_vec(),
    ));
    let cid = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "X", "DW" => 500,
        "W" => vec![Object::Integer(1), Object::Array(vec![600.into(), 700.into()]), 10.into(), 20.into(), 300.into()],
    });
    let f2 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "X", "Encoding" => "Identity-H",
        "DescendantFonts" => vec![cid.into()], "ToUnicode" => tounicode,
    });
    let f3 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type3", "FontMatrix" => vec![0.001.into(), 0.into(), 0.into(), 0.001.into(), 0.into(), 0.into()],
        "FirstChar" => 32, "Widths" => vec![500.into(); 95],
        "Encoding" => dictionary! { "Differences" => vec![32.into(), "space".into(), "less".into(), "numbersign".into()] },
    });
    let form_id = doc.new_object_id();
    let form = Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "Resources" => dictionary! { "XObject" => dictionary! { "X1" => form_id } },
        },
        content.to_vec(),
    );
    doc.objects.insert(form_id, Object::Stream(form));
    let contents = doc.add_object(Stream::new(dictionary! {}, content.to_vec()));
    let pages_id = doc.new_object_id();
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => contents,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        "Resources" => dictionary! {
            "Font" => dictionary! { "F1" => f1, "F2" => f2, "F3" => f3 },
            "XObject" => dictionary! { "X1" => form_id },
        },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).ok()?;
    Document::from_bytes(&bytes, &LoadOptions::default()).ok()
}

/// Loads `data` as a PDF and scans it fully (tags, fields, findings).
pub fn document(data: &[u8]) {
    let options = LoadOptions {
        max_stream_bytes: 16 << 20,
        max_document_bytes: 64 << 20,
        time_budget: Some(std::time::Duration::from_secs(5)),
        ..LoadOptions::default()
    };
    if let Ok(doc) = Document::from_bytes(data, &options) {
        let _ = crate::scan::Scanner::new().parallel_pages(false).scan(&doc);
    }
}

/// Scans a one-page PDF whose objects 4, 5, ... are the pieces of `data` split
/// at `endobj` (at most 16). The catalog's `/AcroForm` is object 4 and the page's
/// `/Annots` lists objects 5 to 12, so the input writes the form dictionary,
/// the field tree and the widgets; the cross-reference table is computed, so
/// lopdf reads the objects as written.
pub fn forms(data: &[u8]) {
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    let mut push = |pdf: &mut Vec<u8>, n: usize, body: &[u8]| {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{n} 0 obj\n").as_bytes());
        pdf.extend_from_slice(body);
        pdf.extend_from_slice(b"\nendobj\n");
    };
    push(
        &mut pdf,
        1,
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm 4 0 R >>",
    );
    push(&mut pdf, 2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    push(
        &mut pdf,
        3,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [5 0 R 6 0 R 7 0 R 8 0 R 9 0 R 10 0 R 11 0 R 12 0 R] >>",
    );
    let mut rest = data;
    let mut n = 4;
    while n < 20 && !(rest.is_empty() && n > 4) {
        let (body, next) = match rest.windows(6).position(|w| w == b"endobj") {
            Some(i) => (
                rest.get(..i).unwrap_or_default(),
                rest.get(i + 6..).unwrap_or_default(),
            ),
            None => (rest, &[][..]),
        };
        push(&mut pdf, n, body);
        rest = next;
        n += 1;
    }
    let xref = pdf.len();
    pdf.extend_from_slice(format!("xref\n0 {n}\n0000000000 65535 f \n").as_bytes());
    for off in &offsets {
        pdf.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!("trailer\n<< /Size {n} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").as_bytes(),
    );
    document(&pdf);
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrappers_run_on_samples() {
        super::cmap(b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <41> <0041> endbfchar");
        super::content(b"BT /F1 12 Tf 72 700 Td (<# A #>) Tj /F2 10 Tf <00410042> Tj /F3 9 Tf (  ) Tj ET /X1 Do");
        super::document(b"%PDF-1.7 garbage");
        super::forms(
            b"<< /Fields [5 0 R] >> endobj << /T (a) /FT /Tx /Subtype /Widget /Rect [0 0 9 9] >>",
        );
        super::forms(b"");
    }
}
