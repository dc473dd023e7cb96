//! The reader on small hand-written parts, one construct each: where its
//! text goes, which branch is read, which properties count.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Code, Diagnostic, Dialects, Severity, SourcePart};
use signprep_template::{Format, SourceTag, Template};
use std::io::{Cursor, Write};
use zip::write::{SimpleFileOptions, ZipWriter};

fn zip_of(entries: &[(&str, String)]) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, text) in entries {
        w.start_file(*name, opts).unwrap();
        w.write_all(text.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006""#;

/// A Word template of this body and these styles.
fn docx(body: &str, styles: &str) -> Template {
    let bytes = zip_of(&[
        (
            "word/document.xml",
            format!("<w:document {W}><w:body>{body}</w:body></w:document>"),
        ),
        (
            "word/styles.xml",
            format!("<w:styles {W}>{styles}</w:styles>"),
        ),
    ]);
    Template::read(&bytes, Format::Docx).unwrap()
}

const O: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0""#;

/// An OpenDocument text of this body and these automatic styles.
fn odt(body: &str, auto: &str) -> Template {
    let bytes = zip_of(&[
        ("mimetype", "application/vnd.oasis.opendocument.text".into()),
        (
            "content.xml",
            format!(
                "<office:document-content {O}><office:automatic-styles>{auto}</office:automatic-styles><office:body><office:text>{body}</office:text></office:body></office:document-content>"
            ),
        ),
    ]);
    Template::read(&bytes, Format::Odt).unwrap()
}

fn texts(t: &Template) -> Vec<String> {
    t.paragraphs().iter().map(|p| p.text()).collect()
}

fn raws(tags: &[SourceTag]) -> Vec<&str> {
    tags.iter().map(|t| t.raw.as_str()).collect()
}

fn codes(ds: &[Diagnostic]) -> Vec<(Code, Severity)> {
    ds.iter().map(|d| (d.code, d.severity)).collect()
}

fn r(text: &str) -> String {
    format!("<w:r><w:t>{text}</w:t></w:r>")
}

#[test]
fn docx_runs_tabs_breaks_fields_links_and_content_controls() {
    let t = docx(
        &format!(
            r#"<w:p>{}<w:r><w:tab/></w:r><w:hyperlink r:id="x">{}</w:hyperlink><w:fldSimple w:instr="DATE">{}</w:fldSimple><w:sdt><w:sdtPr><w:rPr><w:vanish/></w:rPr><w:alias w:val="hidden?"/></w:sdtPr><w:sdtContent>{}</w:sdtContent></w:sdt><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE &lt;# NOT_A_TAG #&gt;</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>{}<w:r><w:br/></w:r>{}</w:p>"#,
            r("a"),
            r("&lt;# LINK #&gt;"),
            r("&lt;# FIELD #&gt;"),
            r("&lt;# SDT #&gt;"),
            r("1"),
            r("end")
        ),
        "",
    );
    assert_eq!(texts(&t), ["a\t<# LINK #><# FIELD #><# SDT #>1\nend"]);
    let tags = t.tags(Dialects::NONE);
    assert_eq!(raws(&tags), ["<# LINK #>", "<# FIELD #>", "<# SDT #>"]);
    assert!(tags.iter().all(|t| t.shows_in_pdf));
    assert!(t.findings(Dialects::NONE).is_empty());
}

#[test]
fn docx_alternate_content_is_read_once() {
    let box_xml = |text: &str| format!("<w:txbxContent><w:p>{}</w:p></w:txbxContent>", r(text));
    let t = docx(
        &format!(
            "<w:p><w:r><mc:AlternateContent><mc:Choice Requires=\"wps\">{}</mc:Choice><mc:Choice Requires=\"w14\">{}</mc:Choice><mc:Fallback>{}</mc:Fallback></mc:AlternateContent></w:r></w:p>",
            box_xml("&lt;# CHOSEN #&gt;"),
            box_xml("&lt;# SECOND #&gt;"),
            box_xml("&lt;# FALLBACK #&gt;")
        ),
        "",
    );
    let tags = t.tags(Dialects::NONE);
    assert_eq!(raws(&tags), ["<# CHOSEN #>"]);
    assert_eq!(tags[0].place.part, SourcePart::TextBox);
}

#[test]
fn docx_nested_tables_and_spans_count_grid_columns() {
    let cell = |span: u32, inner: &str| {
        format!(r#"<w:tc><w:tcPr><w:gridSpan w:val="{span}"/></w:tcPr>{inner}</w:tc>"#)
    };
    let inner_table = format!(
        "<w:tbl><w:tr>{}{}</w:tr></w:tbl>",
        cell(1, &format!("<w:p>{}</w:p>", r("x"))),
        cell(1, &format!("<w:p>{}</w:p>", r("&lt;# INNER_1_2 #&gt;")))
    );
    let t = docx(
        &format!(
            r#"<w:tbl><w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl><w:p>{}</w:p>"#,
            cell(2, &format!("<w:p>{}</w:p>", r("&lt;# R1_C2 #&gt;"))),
            cell(1, &format!("<w:p>{}</w:p>", r("&lt;# R1_C4 #&gt;"))),
            cell(1, &inner_table),
            cell(1, &format!("<w:p>{}</w:p>", r("&lt;# R2_C2 #&gt;"))),
            r("&lt;# AFTER #&gt;")
        ),
        "",
    );
    let cells: Vec<(String, Option<usize>, Option<usize>)> = t
        .tags(Dialects::NONE)
        .into_iter()
        .map(|t| (t.raw, t.place.row, t.place.column))
        .collect();
    assert_eq!(
        cells,
        [
            ("<# R1_C2 #>".to_string(), Some(1), Some(2)),
            ("<# R1_C4 #>".to_string(), Some(1), Some(4)),
            ("<# INNER_1_2 #>".to_string(), Some(1), Some(2)),
            ("<# R2_C2 #>".to_string(), Some(2), Some(2)),
            ("<# AFTER #>".to_string(), None, None),
        ]
    );
}

#[test]
fn docx_moves_count_as_revisions() {
    let t = docx(
        &format!(
            r#"<w:p><w:moveFrom w:id="1">{}</w:moveFrom></w:p><w:p><w:moveTo w:id="2">{}</w:moveTo></w:p>"#,
            r("&lt;# MOVED #&gt;"),
            r("&lt;# MOVED #&gt;")
        ),
        "",
    );
    let tags = t.tags(Dialects::NONE);
    assert_eq!(
        tags.iter().map(|t| t.shows_in_pdf).collect::<Vec<_>>(),
        [false, true]
    );
    assert_eq!(
        codes(&t.findings(Dialects::NONE)),
        [
            (Code::TemplateTagInRevision, Severity::Error),
            (Code::TemplateTagInRevision, Severity::Error)
        ]
    );
}

#[test]
fn docx_styles_resolve_through_based_on_and_defaults() {
    let styles = r#"<w:docDefaults><w:rPrDefault><w:rPr><w:color w:val="FFFFFF"/></w:rPr></w:rPrDefault></w:docDefaults>
        <w:style w:type="paragraph" w:default="1" w:styleId="Normal"/>
        <w:style w:type="paragraph" w:styleId="Base"><w:rPr><w:color w:val="000000"/></w:rPr></w:style>
        <w:style w:type="paragraph" w:styleId="Derived"><w:basedOn w:val="Base"/></w:style>
        <w:style w:type="character" w:styleId="Ghost"><w:rPr><w:specVanish/></w:rPr></w:style>"#;
    let t = docx(
        &format!(
            r#"<w:p>{}</w:p><w:p><w:pPr><w:pStyle w:val="Derived"/><w:rPr><w:vanish/></w:rPr></w:pPr>{}</w:p><w:p><w:r><w:rPr><w:rStyle w:val="Ghost"/><w:rPrChange><w:rPr/></w:rPrChange></w:rPr><w:t>&lt;# GHOST #&gt;</w:t></w:r></w:p>"#,
            r("&lt;# WHITE_BY_DEFAULT #&gt;"),
            r("&lt;# BLACK_BY_STYLE #&gt;")
        ),
        styles,
    );
    let f = t.findings(Dialects::NONE);
    let got: Vec<(Option<&str>, Code, Severity)> = f
        .iter()
        .map(|d| (d.tag.as_deref(), d.code, d.severity))
        .collect();
    // The paragraph mark's vanish hides no text; the run's style does.
    assert_eq!(
        got,
        [
            (
                Some("WHITE_BY_DEFAULT"),
                Code::TemplateTagHidden,
                Severity::Info
            ),
            (Some("GHOST"), Code::TemplateTagHidden, Severity::Error),
        ]
    );
}

#[test]
fn docx_highlight_and_font_changes_inside_a_tag() {
    let t = docx(
        &format!(
            r#"<w:p>{}<w:r><w:rPr><w:highlight w:val="yellow"/><w:rFonts w:ascii="Courier"/></w:rPr><w:t>A_1 #&gt;</w:t></w:r></w:p>"#,
            r("&lt;# SIGN")
        ),
        "",
    );
    let f = t.findings(Dialects::NONE);
    assert_eq!(
        codes(&f),
        [(Code::TemplateTagFormatChanges, Severity::Warning)]
    );
    assert!(
        f[0].message.contains("font and highlight"),
        "{}",
        f[0].message
    );
}

#[test]
fn odt_spaces_tabs_breaks_and_white_space() {
    let t = odt(
        "<text:p>  a\n   b<text:s text:c=\"3\"/>c<text:tab/>d<text:line-break/>e <text:span>&lt;#  X #&gt;</text:span></text:p>",
        "",
    );
    // XML white space collapses (ODF 1.3 part 3, 6.1.2); `text:s` does not.
    assert_eq!(texts(&t), ["a b   c\td\ne <# X #>"]);
    assert_eq!(raws(&t.tags(Dialects::NONE)), ["<# X #>"]);
}

#[test]
fn odt_repeated_columns_and_rows() {
    let cell = |attrs: &str, text: &str| {
        format!("<table:table-cell {attrs}><text:p>{text}</text:p></table:table-cell>")
    };
    let t = odt(
        &format!(
            "<table:table><table:table-row table:number-rows-repeated=\"2\">{}</table:table-row><table:table-row>{}{}</table:table-row></table:table>",
            cell("", "x"),
            cell("table:number-columns-repeated=\"3\"", ""),
            cell("", "&lt;# R3_C4 #&gt;")
        ),
        "",
    );
    let tags = t.tags(Dialects::NONE);
    assert_eq!(
        (tags[0].place.row, tags[0].place.column),
        (Some(3), Some(4))
    );
}

#[test]
fn odt_hidden_paragraphs_and_sections() {
    let t = odt(
        r#"<text:p><text:hidden-paragraph text:condition="ooow:1" text:is-hidden="true"/>&lt;# HIDDEN_PARAGRAPH #&gt;</text:p><text:section text:name="S" text:display="none"><text:p>&lt;# HIDDEN_SECTION #&gt;</text:p></text:section><text:p><text:span text:style-name="T1">&lt;# INHERITED #&gt;</text:span></text:p>"#,
        r#"<style:style style:name="P1" style:family="text"><style:text-properties text:display="none"/></style:style><style:style style:name="T1" style:family="text" style:parent-style-name="P1"/>"#,
    );
    let tags = t.tags(Dialects::NONE);
    assert_eq!(tags.len(), 3);
    assert!(tags.iter().all(|t| !t.shows_in_pdf));
    let f = t.findings(Dialects::NONE);
    assert!(
        f.iter()
            .all(|d| d.code == Code::TemplateTagHidden && d.severity == Severity::Error)
    );
    assert!(
        f[0].message.contains("hidden paragraph"),
        "{}",
        f[0].message
    );
}

#[test]
fn vendor_tags_are_found_only_for_the_dialects_asked() {
    let t = docx(
        &format!(
            "<w:p>{}</w:p>",
            r("[sig|req|signer1] {{Sig_es_:signer1:signature}}")
        ),
        "",
    );
    assert!(t.tags(Dialects::NONE).is_empty());
    let adobe = t.tags(Dialects::parse("adobe").unwrap());
    assert_eq!(raws(&adobe), ["{{Sig_es_:signer1:signature}}"]);
    assert_eq!(t.tags(Dialects::all()).len(), 2);
}

#[test]
fn autocorrect_names_near_tags_and_leaves_apostrophes() {
    let t = docx(
        &format!(
            "<w:p>{}</w:p><w:p>{}</w:p><w:p>{}</w:p>",
            r("\u{FF1C}# SIGNATURE_1 #\u{FF1E}"),
            r("{{Client\u{2019}s signature;type=signature}}"),
            r("\u{2039}# A\u{200B}B #\u{203A}")
        ),
        "",
    );
    let f = t.findings(Dialects::all());
    let tags: Vec<Option<&str>> = f.iter().map(|d| d.tag.as_deref()).collect();
    assert_eq!(tags, [Some("SIGNATURE_1"), Some("AB")]);
    assert!(
        f[1].message
            .contains("U+200B ZERO WIDTH SPACE at character 5 (should be nothing)"),
        "{}",
        f[1].message
    );
    assert!(f.iter().all(|d| d.code == Code::TemplateTagAutocorrected));
}
