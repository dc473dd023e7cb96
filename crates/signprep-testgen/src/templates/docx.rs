//! Word templates: a small builder of the parts (document, styles, header,
//! footer, footnotes, comments) and the fixtures made with it.

use super::{esc, ole_file, zip};
use crate::Error;

const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const CT: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml";
const DATE: &str = "2024-01-01T00:00:00Z";

/// A Word document's parts, as XML fragments.
#[derive(Default)]
struct Docx {
    /// The body's paragraphs and tables.
    body: String,
    /// The default header's paragraphs.
    header: Option<String>,
    /// The default footer's paragraphs.
    footer: Option<String>,
    /// Each footnote's paragraphs (ids from 1).
    footnotes: Vec<String>,
    /// Each endnote's paragraphs (ids from 1).
    endnotes: Vec<String>,
    /// Each comment's paragraphs (ids from 0).
    comments: Vec<String>,
}

/// A run of text.
fn r(text: &str) -> String {
    format!(
        r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#,
        esc(text)
    )
}

/// A run with run properties.
fn rp(props: &str, text: &str) -> String {
    format!(
        r#"<w:r><w:rPr>{props}</w:rPr><w:t xml:space="preserve">{}</w:t></w:r>"#,
        esc(text)
    )
}

/// A paragraph of runs.
fn p(runs: &str) -> String {
    format!("<w:p>{runs}</w:p>")
}

/// A paragraph of one run of text.
fn para(text: &str) -> String {
    p(&r(text))
}

/// A table cell (`span` grid columns wide) of paragraphs.
fn tc(span: usize, paras: &str) -> String {
    let grid = if span > 1 {
        format!(r#"<w:gridSpan w:val="{span}"/>"#)
    } else {
        String::new()
    };
    format!(r#"<w:tc><w:tcPr><w:tcW w:w="0" w:type="auto"/>{grid}</w:tcPr>{paras}</w:tc>"#)
}

/// A table of rows of cells, `cols` grid columns.
fn table(cols: usize, rows: &[Vec<String>]) -> String {
    let grid: String = (0..cols).map(|_| r#"<w:gridCol w:w="3000"/>"#).collect();
    let rows: String = rows
        .iter()
        .map(|cells| format!("<w:tr>{}</w:tr>", cells.concat()))
        .collect();
    format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:left w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:right w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="000000"/></w:tblBorders></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{rows}</w:tbl>"#
    )
}

/// A run holding an inline text box with `text`: the `wps` shape as the
/// chosen branch, a VML one as the fallback (readers take one, not both).
fn text_box(text: &str) -> String {
    let t = esc(text);
    format!(
        r##"<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="3600000" cy="540000"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="1" name="Text Box 1"/><wp:cNvGraphicFramePr/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3600000" cy="540000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:ln w="6350"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln></wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t xml:space="preserve">{t}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr rot="0" vert="horz" wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" anchor="t"><a:noAutofit/></wps:bodyPr></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape id="TextBox1" o:spid="_x0000_s1026" type="#_x0000_t202" style="width:283pt;height:42pt"><v:textbox><w:txbxContent><w:p><w:r><w:t xml:space="preserve">{t}</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"##
    )
}

const STYLES: &str = r#"<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="DejaVu Sans" w:hAnsi="DejaVu Sans" w:cs="DejaVu Sans"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="32"/></w:rPr></w:style><w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/></w:style><w:style w:type="character" w:styleId="Secret"><w:name w:val="Secret"/><w:rPr><w:vanish/></w:rPr></w:style><w:style w:type="character" w:styleId="SecretNote"><w:name w:val="Secret Note"/><w:basedOn w:val="Secret"/><w:rPr><w:i/></w:rPr></w:style><w:style w:type="character" w:styleId="Invisible"><w:name w:val="Invisible"/><w:rPr><w:color w:val="FFFFFF"/></w:rPr></w:style><w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>"#;

impl Docx {
    fn body(paras: &[String]) -> Docx {
        Docx {
            body: paras.concat(),
            ..Docx::default()
        }
    }

    fn root(tag: &str, inner: &str) -> Vec<u8> {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:{tag} xmlns:w="{W}" xmlns:r="{R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">{inner}</w:{tag}>"#
        )
        .into_bytes()
    }

    fn bytes(&self) -> Result<Vec<u8>, Error> {
        let mut overrides = format!(
            r#"<Override PartName="/word/document.xml" ContentType="{CT}.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="{CT}.styles+xml"/>"#
        );
        let mut rels =
            format!(r#"<Relationship Id="rIdStyles" Type="{REL}/styles" Target="styles.xml"/>"#);
        let mut refs = String::new();
        let mut parts: Vec<(&str, Vec<u8>)> = Vec::new();
        if let Some(h) = &self.header {
            overrides.push_str(&format!(
                r#"<Override PartName="/word/header1.xml" ContentType="{CT}.header+xml"/>"#
            ));
            rels.push_str(&format!(
                r#"<Relationship Id="rIdHeader1" Type="{REL}/header" Target="header1.xml"/>"#
            ));
            refs.push_str(r#"<w:headerReference w:type="default" r:id="rIdHeader1"/>"#);
            parts.push(("word/header1.xml", Docx::root("hdr", h)));
        }
        if let Some(f) = &self.footer {
            overrides.push_str(&format!(
                r#"<Override PartName="/word/footer1.xml" ContentType="{CT}.footer+xml"/>"#
            ));
            rels.push_str(&format!(
                r#"<Relationship Id="rIdFooter1" Type="{REL}/footer" Target="footer1.xml"/>"#
            ));
            refs.push_str(r#"<w:footerReference w:type="default" r:id="rIdFooter1"/>"#);
            parts.push(("word/footer1.xml", Docx::root("ftr", f)));
        }
        for (kind, notes) in [("footnote", &self.footnotes), ("endnote", &self.endnotes)] {
            if notes.is_empty() {
                continue;
            }
            let (file, root) = if kind == "footnote" {
                ("word/footnotes.xml", "footnotes")
            } else {
                ("word/endnotes.xml", "endnotes")
            };
            overrides.push_str(&format!(
                r#"<Override PartName="/{file}" ContentType="{CT}.{root}+xml"/>"#
            ));
            rels.push_str(&format!(
                r#"<Relationship Id="rId{root}" Type="{REL}/{root}" Target="{root}.xml"/>"#
            ));
            let mut x = format!(
                r#"<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}><w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:{kind}>"#,
            );
            for (i, f) in notes.iter().enumerate() {
                x.push_str(&format!(r#"<w:{kind} w:id="{}">{f}</w:{kind}>"#, i + 1));
            }
            parts.push((file, Docx::root(root, &x)));
        }
        if !self.comments.is_empty() {
            overrides.push_str(&format!(
                r#"<Override PartName="/word/comments.xml" ContentType="{CT}.comments+xml"/>"#
            ));
            rels.push_str(&format!(
                r#"<Relationship Id="rIdComments" Type="{REL}/comments" Target="comments.xml"/>"#
            ));
            let mut x = String::new();
            for (i, c) in self.comments.iter().enumerate() {
                x.push_str(&format!(
                    r#"<w:comment w:id="{i}" w:author="Reviewer" w:date="{DATE}" w:initials="R">{c}</w:comment>"#
                ));
            }
            parts.push(("word/comments.xml", Docx::root("comments", &x)));
        }
        let content_types = format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>{overrides}</Types>"#
        );
        let package_rels = format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>"#
        );
        let doc_rels = format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>"#
        );
        let sect = format!(
            r#"<w:sectPr>{refs}<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>"#
        );
        let document = Docx::root("document", &format!("<w:body>{}{sect}</w:body>", self.body));
        let mut entries: Vec<(&str, Vec<u8>)> = vec![
            ("[Content_Types].xml", content_types.into_bytes()),
            ("_rels/.rels", package_rels.into_bytes()),
            ("word/document.xml", document),
            ("word/_rels/document.xml.rels", doc_rels.into_bytes()),
            ("word/styles.xml", Docx::root("styles", STYLES)),
        ];
        entries.extend(parts);
        zip(&entries)
    }
}

/// A footnote or endnote reference run (`kind` is `footnote` or `endnote`).
fn note_ref(kind: &str, id: usize) -> String {
    format!(
        r#"<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:{kind}Reference w:id="{id}"/></w:r>"#
    )
}

/// A note's paragraph: its mark, then `text`.
fn note(kind: &str, text: &str) -> String {
    p(&format!(
        r#"<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:{kind}Ref/></w:r>{}"#,
        r(text)
    ))
}

fn ins(text: &str) -> String {
    format!(
        r#"<w:ins w:id="101" w:author="Editor" w:date="{DATE}">{}</w:ins>"#,
        r(text)
    )
}

fn del(text: &str) -> String {
    format!(
        r#"<w:del w:id="102" w:author="Editor" w:date="{DATE}"><w:r><w:delText xml:space="preserve">{}</w:delText></w:r></w:del>"#,
        esc(text)
    )
}

/// Every Word fixture, by name.
pub(crate) fn all() -> Result<Vec<(&'static str, Vec<u8>)>, Error> {
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
    let clean = Docx::body(&[
        p(&rp(r#"<w:b/><w:sz w:val="32"/>"#, "Service agreement")),
        para("The parties agree to the terms below."),
        para("Signature: <# SIGNATURE_1 #>"),
        para("Date: <# DATE_1 #>"),
    ]);
    let clean_bytes = clean.bytes()?;
    out.push(("docx_clean_one_page", clean_bytes.clone()));

    let places = Docx {
        body: [
            para("Body: <# BODY_1 #>"),
            table(
                3,
                &[
                    vec![
                        tc(2, &para("Merged across two columns")),
                        tc(1, &para("<# CELL_1_3 #>")),
                    ],
                    vec![
                        tc(1, &para("Name")),
                        tc(1, &para("<# CELL_2_2 #>")),
                        tc(1, &para("<# CELL_2_3 #>")),
                    ],
                ],
            ),
            p(&format!("{}{}", r("With a note"), note_ref("footnote", 1))),
            p(&format!(
                "{}{}",
                r("With an endnote"),
                note_ref("endnote", 1)
            )),
            p(&format!(
                "{}{}",
                r("A text box: "),
                text_box("<# TEXTBOX_1 #>")
            )),
            para("Last body paragraph <# BODY_2 #>"),
        ]
        .concat(),
        header: Some(para("Header <# HEADER_1 #>")),
        footer: Some(para("Footer <# FOOTER_1 #>")),
        footnotes: vec![note("footnote", " Note: <# FOOTNOTE_1 #>")],
        endnotes: vec![note("endnote", " Endnote: <# ENDNOTE_1 #>")],
        comments: Vec::new(),
    };
    out.push(("docx_places", places.bytes()?));

    out.push((
        "docx_format_change",
        Docx::body(&[
            para("Format changes inside the tag below."),
            p(&format!(
                "{}{}{}",
                r("Sign: "),
                r("<# SIGN"),
                rp(
                    r#"<w:sz w:val="28"/><w:color w:val="C00000"/>"#,
                    "ATURE_1 #>"
                )
            )),
            para("Same format: <# SIGNATURE_2 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_tracked_insertion",
        Docx::body(&[
            para("A tag inserted with track changes on:"),
            p(&format!("{}{}", r("Sign here: "), ins("<# INSERTED_1 #>"))),
            para("Accepted text: <# PLAIN_1 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_tracked_deletion",
        Docx::body(&[
            para("A tag deleted with track changes on:"),
            p(&format!(
                "{}{}{}",
                r("Old: "),
                del("<# DELETED_1 #>"),
                r(" (gone)")
            )),
            p(&format!(
                "{}{}{}",
                r("Edited: <# SIGN"),
                del("_OLD"),
                r("_NEW #>")
            )),
            para("Kept: <# KEPT_1 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_comment",
        Docx {
            body: [
                para("Comments and tags:"),
                p(&format!(
                    r#"{}<w:commentRangeStart w:id="0"/>{}<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>"#,
                    r("Commented: "),
                    r("<# COMMENTED_1 #>")
                )),
                para("Plain: <# PLAIN_1 #>"),
            ]
            .concat(),
            comments: vec![para("Put <# IN_COMMENT_1 #> here?")],
            ..Docx::default()
        }
        .bytes()?,
    ));
    out.push((
        "docx_vanish",
        Docx::body(&[
            para("Hidden text holds tags:"),
            p(&format!(
                "{}{}",
                r("Direct: "),
                rp("<w:vanish/>", "<# VANISHED_1 #>")
            )),
            p(&format!(
                "{}{}",
                r("By style: "),
                rp(r#"<w:rStyle w:val="SecretNote"/>"#, "<# VANISHED_2 #>")
            )),
            para("Visible: <# VISIBLE_1 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_white_text",
        Docx::body(&[
            para("White tags, the documented way to hide them:"),
            p(&format!(
                "{}{}",
                r("Direct: "),
                rp(r#"<w:color w:val="FFFFFF"/>"#, "<# WHITE_1 #>")
            )),
            p(&format!(
                "{}{}",
                r("By style: "),
                rp(r#"<w:rStyle w:val="Invisible"/>"#, "<# WHITE_2 #>")
            )),
        ])
        .bytes()?,
    ));
    // A tag in a cell too narrow for it (a fixed 1.1 cm column): the converted PDF
    // wraps it over lines, so it places no field: `template_tag_lost`, both places.
    out.push((
        "docx_wrapped_cell",
        Docx::body(&[
            para("A narrow column:"),
            format!(
                r#"<w:tbl><w:tblPr><w:tblW w:w="1200" w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr><w:tblGrid><w:gridCol w:w="600"/><w:gridCol w:w="600"/></w:tblGrid><w:tr>{}{}</w:tr></w:tbl>"#,
                r#"<w:tc><w:tcPr><w:tcW w:w="600" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>Sign</w:t></w:r></w:p></w:tc>"#,
                r#"<w:tc><w:tcPr><w:tcW w:w="600" w:type="dxa"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">&lt;# CLIENT_SIGNATURE #&gt;</w:t></w:r></w:p></w:tc>"#,
            ),
            para("Fits: <# DATE_1 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_text_box",
        Docx::body(&[
            para("A tag in a text box:"),
            p(&text_box("<# BOXED_1 #>")),
            para("In the body: <# BODY_1 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_curly_quotes",
        Docx::body(&[
            para("signNow, AutoCorrected:"),
            para("{{t:s;r:y;o:\u{201C}Client\u{201D};}}"),
            para("signNow, typed plain: {{t:s;r:y;o:\"Client\";}}"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_en_dash",
        Docx::body(&[
            para("BoldSign with an en dash in its id:"),
            para("{{sign|1|*|Sign here|sig\u{2013}1}}"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_ellipsis",
        Docx::body(&[
            para("DocuSeal with an ellipsis:"),
            para("{{Sign here\u{2026};type=signature;role=Client}}"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_nbsp",
        Docx::body(&[
            para("A no-break space inside a tag:"),
            para("Sign: <#\u{00A0}SIGNATURE_2 #>"),
        ])
        .bytes()?,
    ));
    out.push((
        "docx_fullwidth_hash",
        Docx::body(&[
            para("Full-width number signs:"),
            para("Sign: <\u{FF03} SIGNATURE_3 \u{FF03}>"),
        ])
        .bytes()?,
    ));
    for (name, tag) in [
        ("docx_vendor_adobe", "{{Sig_es_:signer1:signature}}"),
        ("docx_vendor_dropbox", "[sig|req|signer1]"),
        ("docx_vendor_boldsign", "{{sign|1|*|Sign here|sig1}}"),
        (
            "docx_vendor_docuseal",
            "{{Client;type=signature;role=Client}}",
        ),
        ("docx_vendor_signnow", "{{t:s;r:y;o:\"Client\";}}"),
        ("docx_vendor_pandadoc", "{signature:Client___}"),
        ("docx_vendor_documenso", "{{signature, r1}}"),
    ] {
        out.push((
            name,
            Docx::body(&[para("Vendor tag below."), para(&format!("Sign: {tag}"))]).bytes()?,
        ));
    }
    let mut pages = Vec::new();
    for i in 1..=30 {
        if i > 1 {
            pages.push(p(r#"<w:r><w:br w:type="page"/></w:r>"#));
        }
        pages.push(p(&rp(r#"<w:b/>"#, &format!("Page {i}"))));
        for k in 1..=6 {
            pages.push(para(&format!(
                "Clause {i}.{k}. The parties agree that this clause is filler text, long enough to wrap once or twice on an A4 page set in eleven point type."
            )));
        }
        pages.push(para(&format!(
            "Initials: <# INITIALS_{i} #>   Date: <# DATE_{i} #>"
        )));
    }
    out.push(("docx_thirty_pages", Docx::body(&pages).bytes()?));

    // Files a reader refuses.
    let half = clean_bytes
        .get(..clean_bytes.len() / 2)
        .unwrap_or_default()
        .to_vec();
    out.push(("docx_truncated", half));
    out.push((
        "docx_damaged_xml",
        Docx::body(&["<w:p><w:r><w:t>The XML stops here".to_string()]).bytes()?,
    ));
    out.push((
        "docx_not_word",
        zip(&[("readme.txt", b"This zip holds no Word document.\n".to_vec())])?,
    ));
    out.push(("docx_ole", ole_file()));
    Ok(out)
}
