//! The PDFs of the pre-flight fixtures: tag-syntax, form-field, both, neither.

use lopdf::{Object, ObjectId, dictionary};

use crate::Error;
use crate::content::ContentWriter;
use crate::fonts::{inconsolata, inconsolata_dict};
use crate::geom::PageGeom;
use crate::pdfbuild::{DocBuilder, PageSpec};

const CONTRACT: &[&str] = &[
    "Services contract",
    "Client name:       <# CLIENT_NAME #>",
    "Date:              <# DATE_CLIENT #>",
    "Client signature:  <# SIG_CLIENT #>",
    "Company signature: <# SIG_COMPANY #>",
];

/// A one-page tag-syntax contract: `CLIENT_NAME`, `DATE_CLIENT`, `SIG_CLIENT`, `SIG_COMPANY`.
pub fn contract() -> Result<Vec<u8>, Error> {
    build("contract", CONTRACT, &[])
}

/// The contract plus a lower-case tag `<# witness_sig #>` (an error of the scan).
pub fn lower_tag() -> Result<Vec<u8>, Error> {
    let mut lines = CONTRACT.to_vec();
    lines.push("Witness:           <# witness_sig #>");
    build("lower_tag", &lines, &[])
}

/// Text, no tag, no form field.
pub fn no_tags() -> Result<Vec<u8>, Error> {
    build(
        "no_tags",
        &["A letter", "It has text but neither tags nor form fields."],
        &[],
    )
}

/// An AcroForm: text field `client_name`, signature field `client_signature`.
pub fn form() -> Result<Vec<u8>, Error> {
    build(
        "form",
        &["Client onboarding", "Full name", "Signature"],
        &[
            ("client_name", "Tx", 640.0),
            ("client_signature", "Sig", 600.0),
        ],
    )
}

/// Tags and a form field in one PDF.
pub fn tags_and_fields() -> Result<Vec<u8>, Error> {
    build(
        "tags_and_fields",
        &["Witness statement", "Witness signature: <# SIG_WITNESS #>"],
        &[("witness_name", "Tx", 600.0)],
    )
}

/// Letter page of Inconsolata lines (every `<# ... #>` is a tag) and form
/// fields `(name, /FT, y)`.
fn build(
    name: &'static str,
    lines: &[&str],
    fields: &[(&str, &str, f64)],
) -> Result<Vec<u8>, Error> {
    let mut b = DocBuilder::new();
    let dict = inconsolata_dict(&mut b.doc);
    let font_id = b.add(dict);
    let font = inconsolata();
    let mut w = ContentWriter::new();
    let mut y = 720.0;
    for line in lines {
        let tags = tags_in(line);
        w.bt().tf("F1", &font, 11.0).td(72.0, y);
        w.show_with_tags(line, &tags)?.et();
        y -= 28.0;
    }
    let res = dictionary! { "Font" => dictionary! { "F1" => font_id } };
    let page = b.add_page(PageSpec::new(PageGeom::letter(), res, w.finish()))?;
    if !fields.is_empty() {
        let refs = widgets(&mut b, page, fields)?;
        b.catalog_extra.set(
            "AcroForm",
            dictionary! {
                "Fields" => refs,
                "DA" => Object::string_literal("/F1 11 Tf 0 g"),
                "DR" => dictionary! { "Font" => dictionary! { "F1" => font_id } },
            },
        );
    }
    Ok(b.finish(name, "pre-flight fixture")?.pdf)
}

fn widgets(
    b: &mut DocBuilder,
    page: ObjectId,
    fields: &[(&str, &str, f64)],
) -> Result<Vec<Object>, Error> {
    let mut refs = Vec::new();
    for (name, ft, y) in fields {
        let mut field = dictionary! {
            "Type" => "Annot",
            "Subtype" => "Widget",
            "FT" => *ft,
            "T" => Object::string_literal(*name),
            "Rect" => vec![200.into(), Object::Real(*y as f32), 460.into(), Object::Real((*y + 24.0) as f32)],
            "F" => 4,
            "P" => page,
        };
        if *ft == "Tx" {
            field.set("DA", Object::string_literal("/F1 11 Tf 0 g"));
        }
        refs.push(Object::Reference(b.add(field)));
    }
    b.doc
        .get_object_mut(page)
        .and_then(Object::as_dict_mut)?
        .set("Annots", refs.clone());
    Ok(refs)
}

fn tags_in(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("<#") {
        let Some(len) = rest.get(start..).and_then(|r| r.find("#>")) else {
            break;
        };
        if let Some(tag) = rest.get(start..start + len + 2) {
            out.push(tag);
        }
        rest = rest.get(start + len + 2..).unwrap_or_default();
    }
    out
}
