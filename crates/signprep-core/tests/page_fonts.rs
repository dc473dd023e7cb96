//! The interpreter's per-page font table: a text state holds an index into the
//! page's fonts, found by the address of the font resource entry. These pin the
//! cases that table must get right: more fonts than it remembers, `q`/`Q`
//! restoring a font, and one resource name meaning another font inside a Form
//! XObject.
#![allow(clippy::disallowed_types)] // builds its inputs with lopdf
#![allow(clippy::unwrap_used, clippy::expect_used)]

use lopdf::{Object, Stream, dictionary};
use signprep_core::{Document, LoadOptions};

/// Base-14 fonts that differ in name and widths.
const FACES: [&str; 3] = ["Courier", "Helvetica-Bold", "Times-Roman"];

fn font(doc: &mut lopdf::Document, face: &str) -> Object {
    doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => face,
        "Encoding" => "WinAnsiEncoding",
    })
    .into()
}

/// A one-page PDF: `fonts` resources `/F0`.. cycling through [`FACES`], the
/// page content `content`, and a Form XObject `/X` whose own `/F0` is
/// Times-Roman and which shows `(x)` in it.
fn pdf(fonts: usize, content: &str) -> Vec<u8> {
    let mut doc = lopdf::Document::with_version("1.7");
    let mut font_dict = lopdf::Dictionary::new();
    for i in 0..fonts {
        let f = font(&mut doc, FACES[i % FACES.len()]);
        font_dict.set(format!("F{i}"), f);
    }
    let times = font(&mut doc, "Times-Roman");
    let form = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "F0" => times } },
        },
        b"BT /F0 10 Tf 72 600 Td (x) Tj ET".to_vec(),
    ));
    let contents = doc.add_object(Stream::new(dictionary! {}, content.as_bytes().to_vec()));
    let pages_id = doc.new_object_id();
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => contents,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        "Resources" => dictionary! {
            "Font" => Object::Dictionary(font_dict),
            "XObject" => dictionary! { "X" => form },
        },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// Text and font of every glyph of page 0; the lazy and the eager loader agree.
fn fonts_shown(bytes: &[u8]) -> Vec<(String, String)> {
    let shown = |doc: Document| -> Vec<(String, String)> {
        doc.glyphs(0)
            .unwrap()
            .into_iter()
            .map(|g| (g.text, g.font))
            .collect()
    };
    let options = LoadOptions::default();
    let lazy = shown(Document::from_bytes(bytes, &options).unwrap());
    let eager = shown(Document::from_bytes_eager(bytes, &options).unwrap());
    assert_eq!(lazy, eager);
    lazy
}

#[test]
fn more_fonts_than_the_page_table_remembers() {
    // 100 font resources, each used twice (the second use of the first ones
    // comes after the table is full), in both Tj and TJ.
    let n = 100;
    let mut content = String::from("BT 72 700 Td\n");
    for round in 0..2 {
        for i in 0..n {
            let op = if round == 0 {
                "(a) Tj"
            } else {
                "[(a) -10 (b)] TJ"
            };
            content.push_str(&format!("/F{i} 10 Tf {op}\n"));
        }
    }
    content.push_str("ET\n");
    let shown = fonts_shown(&pdf(n, &content));
    let mut want = Vec::new();
    for round in 0..2 {
        for i in 0..n {
            let face = FACES[i % FACES.len()].to_string();
            want.push(("a".to_string(), face.clone()));
            if round == 1 {
                want.push(("b".to_string(), face));
            }
        }
    }
    assert_eq!(shown, want);
}

#[test]
fn q_and_q_restore_the_font_and_forms_use_their_own_resources() {
    // /F0 is Courier on the page and Times-Roman inside the form.
    let content = "BT /F1 10 Tf 72 700 Td (a) Tj ET\n\
                   q BT /F0 10 Tf 72 680 Td (b) Tj ET Q\n\
                   BT 72 660 Td (c) Tj ET\n\
                   /X Do\n\
                   BT /F0 10 Tf 72 640 Td (d) Tj ET\n";
    let shown = fonts_shown(&pdf(3, content));
    let faces: Vec<(&str, &str)> = shown
        .iter()
        .map(|(t, f)| (t.as_str(), f.as_str()))
        .collect();
    assert_eq!(
        faces,
        [
            ("a", "Helvetica-Bold"),
            ("b", "Courier"),
            // Q brought back the font set before q.
            ("c", "Helvetica-Bold"),
            ("x", "Times-Roman"),
            ("d", "Courier"),
        ]
    );
}
