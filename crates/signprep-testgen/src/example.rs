//! The PDFs of the worked example in `testdata/example/` (the manifest
//! `pack.toml` beside them is written by hand), and numbered contracts for
//! bulk tests.
//!
//! Write them with `cargo run -p signprep-testgen -- --example testdata/example`
//! (`--check` compares). Tags are set in Inconsolata, as the service asks.

use lopdf::{Document, Object, dictionary};

use crate::Error;
use crate::content::ContentWriter;
use crate::fonts::{base14_dict, helvetica, inconsolata, inconsolata_dict};
use crate::geom::PageGeom;
use crate::pdfbuild::{DocBuilder, PageSpec};

/// One file of the example: its path relative to the example folder.
#[derive(Debug, Clone)]
pub struct ExampleFile {
    pub path: &'static str,
    pub bytes: Vec<u8>,
}

/// Every PDF of the worked example.
pub fn files() -> Result<Vec<ExampleFile>, Error> {
    Ok(vec![
        ExampleFile {
            path: "contracts/nda.pdf",
            bytes: nda()?,
        },
        ExampleFile {
            path: "contracts/services.pdf",
            bytes: services()?,
        },
        ExampleFile {
            path: "forms/onboarding.pdf",
            bytes: onboarding()?,
        },
    ])
}

/// A one-page tag-syntax PDF saying "Contract {n}", with `<# SIG_1 #>` and
/// `<# DATE_1 #>`; distinct bytes for every `n`.
pub fn numbered_contract(n: usize) -> Result<Vec<u8>, Error> {
    let lines = [
        format!("Contract {n}"),
        "Signed: <# SIG_1 #>".to_string(),
        "Date:   <# DATE_1 #>".to_string(),
    ];
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    tag_pdf("numbered_contract", &[&refs])
}

fn nda() -> Result<Vec<u8>, Error> {
    tag_pdf(
        "nda",
        &[&[
            "Mutual non-disclosure agreement",
            "Client name:       <# CLIENT_NAME #>",
            "Client signature:  <# SIG_CLIENT #>",
            "Date:              <# DATE_CLIENT #>",
            "Company signature: <# SIG_COMPANY #>",
        ]],
    )
}

fn services() -> Result<Vec<u8>, Error> {
    tag_pdf(
        "services",
        &[
            &[
                "Services agreement",
                "Monthly fee (EUR): <# FEE #>",
                "Start date:        <# START_DATE #>",
            ],
            &[
                "Signatures",
                "Client:  <# SIG_CLIENT #>",
                "Company: <# SIG_COMPANY #>",
            ],
        ],
    )
}

/// Letter pages of Inconsolata lines; every `<# ... #>` in a line is a tag.
fn tag_pdf(name: &'static str, pages: &[&[&str]]) -> Result<Vec<u8>, Error> {
    let mut b = DocBuilder::new();
    let dict = inconsolata_dict(&mut b.doc);
    let font_id = b.add(dict);
    let font = inconsolata();
    for lines in pages {
        let mut w = ContentWriter::new();
        let mut y = 720.0;
        for line in lines.iter() {
            let tags = tags_in(line);
            w.bt().tf("F1", &font, 11.0).td(72.0, y);
            w.show_with_tags(line, &tags)?.et();
            y -= 28.0;
        }
        let res = dictionary! { "Font" => dictionary! { "F1" => font_id } };
        b.add_page(PageSpec::new(PageGeom::letter(), res, w.finish()))?;
    }
    Ok(b.finish(name, "worked example")?.pdf)
}

fn tags_in(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("<#") {
        let Some(len) = rest[start..].find("#>") else {
            break;
        };
        out.push(&rest[start..start + len + 2]);
        rest = &rest[start + len + 2..];
    }
    out
}

/// An AcroForm PDF: text fields `client_name` and `iban`, a signature field
/// `client_signature`, with labels drawn beside them.
fn onboarding() -> Result<Vec<u8>, Error> {
    let mut doc = Document::with_version("1.7");
    doc.reference_table.cross_reference_type = lopdf::xref::XrefType::CrossReferenceTable;
    let pages_id = doc.new_object_id();
    let page_id = doc.new_object_id();
    let helv = helvetica();
    let font_id = doc.add_object(base14_dict("Helvetica", Some("WinAnsiEncoding")));
    let mut w = ContentWriter::new();
    w.bt()
        .tf("F1", &helv, 16.0)
        .td(72.0, 720.0)
        .show("Client onboarding")?
        .et();
    let fields = [
        ("client_name", "Tx", "Full name", 660.0),
        ("iban", "Tx", "IBAN", 620.0),
        ("client_signature", "Sig", "Signature", 560.0),
    ];
    let mut refs = Vec::new();
    for (name, ft, label, y) in fields {
        w.bt()
            .tf("F1", &helv, 11.0)
            .td(72.0, y + 6.0)
            .show(label)?
            .et();
        let mut field = dictionary! {
            "Type" => "Annot",
            "Subtype" => "Widget",
            "FT" => ft,
            "T" => Object::string_literal(name),
            "Rect" => vec![200.into(), Object::Real(y as f32), 460.into(), Object::Real((y + 24.0) as f32)],
            "F" => 4,
            "P" => page_id,
        };
        if ft == "Tx" {
            field.set("DA", Object::string_literal("/F1 11 Tf 0 g"));
            field.set("Ff", 2);
        }
        refs.push(Object::Reference(doc.add_object(field)));
    }
    let content = doc.add_object(lopdf::Stream::new(
        dictionary! {},
        w.finish().streams.concat(),
    ));
    let page = dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font_id } },
        "Contents" => content,
        "Annots" => refs.clone(),
    };
    doc.objects.insert(page_id, Object::Dictionary(page));
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![Object::Reference(page_id)],
            "Count" => 1,
        }),
    );
    let acroform = dictionary! {
        "Fields" => refs,
        "DA" => Object::string_literal("/F1 11 Tf 0 g"),
        "DR" => dictionary! { "Font" => dictionary! { "F1" => font_id } },
    };
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages_id,
        "AcroForm" => acroform,
    });
    doc.trailer.set("Root", catalog);
    let mut pdf = Vec::new();
    doc.save_to(&mut pdf)?;
    Ok(pdf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_found_in_lines() {
        assert_eq!(
            tags_in("a <# X #> b <# Y_2 #>"),
            vec!["<# X #>", "<# Y_2 #>"]
        );
        assert!(tags_in("no tags").is_empty());
    }

    #[test]
    fn numbered_contracts_differ() -> Result<(), Error> {
        assert_ne!(numbered_contract(1)?, numbered_contract(2)?);
        assert_eq!(numbered_contract(3)?, numbered_contract(3)?);
        Ok(())
    }
}
