//! Files a template reader refuses, each with its kind and a message in our
//! words (the zip or XML reader's own message kept as `source()` only).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_template::{Format, Limits, Template, TemplateError, TemplateErrorKind};
use std::error::Error as _;
use std::io::{Cursor, Write};
use std::path::Path;
use zip::write::{SimpleFileOptions, ZipWriter};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/templates")
        .join(name);
    std::fs::read(path).expect("the fixture exists (signprep-testgen --templates)")
}

fn refuse(bytes: &[u8], format: Format) -> TemplateError {
    match Template::read(bytes, format) {
        Ok(_) => panic!("read a file that should be refused"),
        Err(e) => e,
    }
}

/// A stored zip of these entries.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in entries {
        w.start_file(*name, opts).expect("zip entry");
        w.write_all(bytes).expect("zip write");
    }
    w.finish().expect("zip").into_inner()
}

/// The dependency's message is kept as the source and is not ours.
fn source_kept_apart(e: &TemplateError) {
    let source = e
        .source()
        .expect("the reader's error is kept as the source");
    assert!(!e.to_string().contains(&source.to_string()), "{e}");
}

#[test]
fn truncated_zip_is_not_a_zip() {
    let e = refuse(&fixture("docx_truncated.docx"), Format::Docx);
    assert_eq!(e.kind(), TemplateErrorKind::NotZip);
    source_kept_apart(&e);
    insta::assert_snapshot!("error_docx_truncated", e.to_string());
}

#[test]
fn plain_bytes_are_not_a_zip() {
    let e = refuse(b"%PDF-1.7 not a template", Format::Docx);
    assert_eq!(e.kind(), TemplateErrorKind::NotZip);
    insta::assert_snapshot!("error_plain_bytes", e.to_string());
}

#[test]
fn zip_without_a_document_is_no_template() {
    let e = refuse(&fixture("docx_not_word.docx"), Format::Docx);
    assert_eq!(e.kind(), TemplateErrorKind::NotTemplate);
    assert_eq!(Format::sniff(&fixture("docx_not_word.docx")), None);
    insta::assert_snapshot!("error_docx_not_word", e.to_string());
}

#[test]
fn ole_file_is_protected_or_legacy() {
    let e = refuse(&fixture("docx_ole.docx"), Format::Docx);
    assert_eq!(e.kind(), TemplateErrorKind::Protected);
    insta::assert_snapshot!("error_docx_ole", e.to_string());
}

#[test]
fn damaged_xml_names_its_part() {
    let e = refuse(&fixture("docx_damaged_xml.docx"), Format::Docx);
    assert_eq!(e.kind(), TemplateErrorKind::Damaged);
    assert_eq!(e.part(), Some("word/document.xml"));
    insta::assert_snapshot!("error_docx_damaged_xml", e.to_string());
}

#[test]
fn opendocument_spreadsheet_is_no_text() {
    let e = refuse(&fixture("odt_not_text.odt"), Format::Odt);
    assert_eq!(e.kind(), TemplateErrorKind::NotTemplate);
    insta::assert_snapshot!("error_odt_not_text", e.to_string());
}

#[test]
fn a_format_named_wrongly_says_which_it_is() {
    let e = refuse(&fixture("docx_places.docx"), Format::Odt);
    assert_eq!(e.kind(), TemplateErrorKind::NotTemplate);
    assert!(e.to_string().contains(".docx"), "{e}");
    let e = refuse(&fixture("odt_places.odt"), Format::Docx);
    assert!(e.to_string().contains(".odt"), "{e}");
}

#[test]
fn encrypted_opendocument_is_protected() {
    let manifest = br#"<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry></manifest:manifest>"#;
    let bytes = zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("META-INF/manifest.xml", manifest),
        ("content.xml", b"\x8f\x01 encrypted bytes"),
    ]);
    let e = refuse(&bytes, Format::Odt);
    assert_eq!(e.kind(), TemplateErrorKind::Protected);
}

#[test]
fn inflating_past_the_limit_stops() {
    let bytes = fixture("docx_thirty_pages.docx");
    let limits = Limits::default().max_inflated(10_000);
    let e = Template::read_with(&bytes, Format::Docx, limits).expect_err("over the limit");
    assert_eq!(e.kind(), TemplateErrorKind::Limit);
    insta::assert_snapshot!("error_inflate_limit", e.to_string());
}

#[test]
fn a_zip_bomb_stops_at_the_default_limit() {
    // 300 MiB of zeros deflate to some 300 KB: a bomb as such files come.
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    w.start_file("word/document.xml", opts).expect("zip entry");
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..300 {
        w.write_all(&chunk).expect("zip write");
    }
    let bytes = w.finish().expect("zip").into_inner();
    let e = refuse(&bytes, Format::Docx);
    assert_eq!(e.kind(), TemplateErrorKind::Limit);
}

#[test]
fn too_many_entries_is_over_the_limit() {
    let bytes = fixture("docx_places.docx");
    let e = Template::read_with(&bytes, Format::Docx, Limits::default().max_entries(3))
        .expect_err("over the limit");
    assert_eq!(e.kind(), TemplateErrorKind::Limit);
}

#[test]
fn deep_nesting_is_over_the_limit() {
    let mut xml = String::from(r#"<w:document xmlns:w="x"><w:body>"#);
    for _ in 0..300 {
        xml.push_str("<w:sdt><w:sdtContent>");
    }
    for _ in 0..300 {
        xml.push_str("</w:sdtContent></w:sdt>");
    }
    xml.push_str("</w:body></w:document>");
    let bytes = zip_of(&[("word/document.xml", xml.as_bytes())]);
    let e = refuse(&bytes, Format::Docx);
    assert_eq!(e.kind(), TemplateErrorKind::Limit);
    insta::assert_snapshot!("error_deep_nesting", e.to_string());
}
