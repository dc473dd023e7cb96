//! OpenDocument text templates: a small builder of `content.xml` and
//! `styles.xml` (with a master page's header and footer) and the fixtures
//! made with it.

use super::{esc, zip};
use crate::Error;

const NS: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3""#;
const MIME: &str = "application/vnd.oasis.opendocument.text";
const DATE: &str = "2024-01-01T00:00:00";

/// An OpenDocument text's content, as XML fragments.
#[derive(Default)]
struct Odt {
    /// Automatic styles of `content.xml`.
    styles: String,
    /// `text:tracked-changes`' regions.
    changes: String,
    /// The body.
    body: String,
    /// The master page's header and footer paragraphs.
    header: Option<String>,
    footer: Option<String>,
}

/// A paragraph of (escaped) text.
fn para(text: &str) -> String {
    format!("<text:p>{}</text:p>", esc(text))
}

/// A paragraph of XML.
fn px(xml: &str) -> String {
    format!("<text:p>{xml}</text:p>")
}

/// A span of `style`.
fn span(style: &str, text: &str) -> String {
    format!(
        r#"<text:span text:style-name="{style}">{}</text:span>"#,
        esc(text)
    )
}

/// A text style with these text properties.
fn text_style(name: &str, props: &str) -> String {
    format!(
        r#"<style:style style:name="{name}" style:family="text"><style:text-properties {props}/></style:style>"#
    )
}

impl Odt {
    fn body(paras: &[String]) -> Odt {
        Odt {
            body: paras.concat(),
            ..Odt::default()
        }
    }

    fn bytes(&self) -> Result<Vec<u8>, Error> {
        let changes = if self.changes.is_empty() {
            String::new()
        } else {
            format!(
                "<text:tracked-changes>{}</text:tracked-changes>",
                self.changes
            )
        };
        let content = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {NS}><office:font-face-decls><style:font-face style:name="DejaVu Sans" svg:font-family="'DejaVu Sans'"/></office:font-face-decls><office:automatic-styles>{}</office:automatic-styles><office:body><office:text>{changes}{}</office:text></office:body></office:document-content>"#,
            self.styles, self.body
        );
        let header = self
            .header
            .as_ref()
            .map(|h| format!("<style:header>{h}</style:header>"))
            .unwrap_or_default();
        let footer = self
            .footer
            .as_ref()
            .map(|f| format!("<style:footer>{f}</style:footer>"))
            .unwrap_or_default();
        let styles = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-styles {NS}><office:font-face-decls><style:font-face style:name="DejaVu Sans" svg:font-family="'DejaVu Sans'"/></office:font-face-decls><office:styles><style:default-style style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm"/><style:text-properties style:font-name="DejaVu Sans" fo:font-size="11pt"/></style:default-style><style:style style:name="Standard" style:family="paragraph"/><style:style style:name="Hidden_20_Text" style:display-name="Hidden Text" style:family="text"><style:text-properties text:display="none"/></style:style><style:style style:name="Secret" style:family="text" style:parent-style-name="Hidden_20_Text"><style:text-properties fo:font-style="italic"/></style:style></office:styles><office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2cm" fo:margin-bottom="2cm" fo:margin-left="2cm" fo:margin-right="2cm"/><style:header-style><style:header-footer-properties fo:min-height="0cm" fo:margin-bottom="0.5cm"/></style:header-style><style:footer-style><style:header-footer-properties fo:min-height="0cm" fo:margin-top="0.5cm"/></style:footer-style></style:page-layout></office:automatic-styles><office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">{header}{footer}</style:master-page></office:master-styles></office:document-styles>"#
        );
        let manifest = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="{MIME}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>"#
        );
        zip(&[
            ("mimetype", MIME.as_bytes().to_vec()),
            ("META-INF/manifest.xml", manifest.into_bytes()),
            ("content.xml", content.into_bytes()),
            ("styles.xml", styles.into_bytes()),
        ])
    }
}

/// A changed region: an insertion (no content) or a deletion of `deleted`.
fn region(id: &str, deleted: Option<&str>) -> String {
    let info = format!(
        "<office:change-info><dc:creator>Editor</dc:creator><dc:date>{DATE}</dc:date></office:change-info>"
    );
    match deleted {
        None => format!(
            r#"<text:changed-region xml:id="{id}" text:id="{id}"><text:insertion>{info}</text:insertion></text:changed-region>"#
        ),
        Some(t) => format!(
            r#"<text:changed-region xml:id="{id}" text:id="{id}"><text:deletion>{info}{}</text:deletion></text:changed-region>"#,
            para(t)
        ),
    }
}

/// Every OpenDocument fixture, by name.
pub(crate) fn all() -> Result<Vec<(&'static str, Vec<u8>)>, Error> {
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
    out.push((
        "odt_clean_one_page",
        Odt::body(&[
            para("Service agreement"),
            para("The parties agree to the terms below."),
            para("Signature: <# SIGNATURE_1 #>"),
            para("Date: <# DATE_1 #>"),
        ])
        .bytes()?,
    ));
    let cell = |xml: &str| {
        format!(r#"<table:table-cell office:value-type="string">{xml}</table:table-cell>"#)
    };
    out.push((
        "odt_places",
        Odt {
            body: [
                para("Body: <# BODY_1 #>"),
                format!(
                    r#"<table:table table:name="Table1"><table:table-column table:number-columns-repeated="3"/><table:table-row><table:table-cell table:number-columns-spanned="2" office:value-type="string">{}</table:table-cell><table:covered-table-cell/>{}</table:table-row><table:table-row>{}{}{}</table:table-row></table:table>"#,
                    para("Merged across two columns"),
                    cell(&para("<# CELL_1_3 #>")),
                    cell(&para("Name")),
                    cell(&para("<# CELL_2_2 #>")),
                    cell(&para("<# CELL_2_3 #>")),
                ),
                px(&format!(
                    r#"With a note<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body>{}</text:note-body></text:note>"#,
                    para("Note: <# FOOTNOTE_1 #>")
                )),
                px(&format!(
                    r#"With an endnote<text:note text:id="edn1" text:note-class="endnote"><text:note-citation>i</text:note-citation><text:note-body>{}</text:note-body></text:note>"#,
                    para("Endnote: <# ENDNOTE_1 #>")
                )),
                px(&format!(
                    r#"A text box: <draw:frame draw:name="Frame1" text:anchor-type="as-char" svg:width="10cm" svg:height="1.5cm" draw:z-index="0"><draw:text-box>{}</draw:text-box></draw:frame>"#,
                    para("<# TEXTBOX_1 #>")
                )),
                para("Last body paragraph <# BODY_2 #>"),
            ]
            .concat(),
            header: Some(para("Header <# HEADER_1 #>")),
            footer: Some(para("Footer <# FOOTER_1 #>")),
            ..Odt::default()
        }
        .bytes()?,
    ));
    out.push((
        "odt_format_change",
        Odt {
            styles: text_style("T1", r##"fo:font-size="14pt" fo:color="#c00000""##),
            body: [
                para("Format changes inside the tag below."),
                px(&format!(
                    "Sign: {}{}",
                    esc("<# SIGN"),
                    span("T1", "ATURE_1 #>")
                )),
                para("Same format: <# SIGNATURE_2 #>"),
            ]
            .concat(),
            ..Odt::default()
        }
        .bytes()?,
    ));
    out.push((
        "odt_tracked_changes",
        Odt {
            changes: [region("ct1", None), region("ct2", Some("<# DELETED_1 #>"))].concat(),
            body: [
                para("Tags in tracked changes:"),
                px(&format!(
                    r#"Sign here: <text:change-start text:change-id="ct1"/>{}<text:change-end text:change-id="ct1"/>"#,
                    esc("<# INSERTED_1 #>")
                )),
                px(r#"Old: <text:change text:change-id="ct2"/> (gone)"#),
                para("Kept: <# KEPT_1 #>"),
            ]
            .concat(),
            ..Odt::default()
        }
        .bytes()?,
    ));
    out.push((
        "odt_comment",
        Odt::body(&[
            para("Comments and tags:"),
            px(&format!(
                r#"Commented: <office:annotation office:name="c1"><dc:creator>Reviewer</dc:creator><dc:date>{DATE}</dc:date>{}</office:annotation>{}<office:annotation-end office:name="c1"/>"#,
                para("Put <# IN_COMMENT_1 #> here?"),
                esc("<# COMMENTED_1 #>")
            )),
            para("Plain: <# PLAIN_1 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "odt_hidden",
        Odt {
            styles: text_style("T1", r#"text:display="none""#),
            body: [
                para("Hidden text holds tags:"),
                px(&format!("Direct: {}", span("T1", "<# HIDDEN_1 #>"))),
                px(&format!("By style: {}", span("Secret", "<# HIDDEN_2 #>"))),
                px(r#"Field: <text:hidden-text text:condition="ooow:1" text:string-value="&lt;# HIDDEN_3 #&gt;" text:is-hidden="true"/>"#),
                para("Visible: <# VISIBLE_1 #>"),
            ]
            .concat(),
            ..Odt::default()
        }
        .bytes()?,
    ));
    out.push((
        "odt_white_text",
        Odt {
            styles: text_style("T1", r##"fo:color="#ffffff""##),
            body: [
                para("White tags, the documented way to hide them:"),
                px(&format!("Direct: {}", span("T1", "<# WHITE_1 #>"))),
            ]
            .concat(),
            ..Odt::default()
        }
        .bytes()?,
    ));
    out.push((
        "odt_autocorrected",
        Odt::body(&[
            para("Look-alikes:"),
            para("{{t:s;r:y;o:\u{201C}Client\u{201D};}}"),
            para("Sign: <\u{FF03} SIGNATURE_3 \u{FF03}>"),
            para("Spaces: <#\u{00A0}SIGNATURE_4 #>"),
        ])
        .bytes()?,
    ));
    let mut pages = Vec::new();
    for i in 1..=30 {
        let brk = if i > 1 {
            r#" text:style-name="PageBreak""#
        } else {
            ""
        };
        pages.push(format!("<text:p{brk}>Page {i}</text:p>"));
        for k in 1..=6 {
            pages.push(para(&format!(
                "Clause {i}.{k}. The parties agree that this clause is filler text, long enough to wrap once or twice on an A4 page set in eleven point type."
            )));
        }
        pages.push(para(&format!(
            "Initials: <# INITIALS_{i} #>   Date: <# DATE_{i} #>"
        )));
    }
    out.push((
        "odt_thirty_pages",
        Odt {
            styles: r#"<style:style style:name="PageBreak" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:break-before="page"/></style:style>"#.to_string(),
            body: pages.concat(),
            ..Odt::default()
        }
        .bytes()?,
    ));
    out.push((
        "odt_not_text",
        zip(&[
            (
                "mimetype",
                b"application/vnd.oasis.opendocument.spreadsheet".to_vec(),
            ),
            (
                "content.xml",
                b"<?xml version=\"1.0\"?><office:document-content/>".to_vec(),
            ),
        ])?,
    ));
    Ok(out)
}
