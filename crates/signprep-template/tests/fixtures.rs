//! One snapshot per template fixture (`testdata/templates`, written by
//! `signprep-testgen --templates`): the tags it holds, with their places,
//! and its findings, every dialect read.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::Dialects;
use signprep_template::{Format, Template};
use std::fmt::Write;
use std::path::Path;

fn render(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/templates")
        .join(file);
    let bytes = std::fs::read(&path).expect("the fixture exists (signprep-testgen --templates)");
    let format = Format::from_path(&path).expect("a template extension");
    assert_eq!(Format::sniff(&bytes), Some(format), "sniffed as named");
    let t = Template::read(&bytes, format).expect("the fixture reads");
    let dialects = Dialects::all();
    let mut out = String::from("tags:\n");
    for tag in t.tags(dialects) {
        let who = match (&tag.tag_id, tag.dialect) {
            (Some(id), _) => format!("id {id}"),
            (None, Some(d)) => format!("dialect {d}"),
            (None, None) => String::from("?"),
        };
        let _ = writeln!(
            out,
            "  {} | {who} | {} | shows_in_pdf={}",
            tag.raw, tag.place, tag.shows_in_pdf
        );
    }
    out.push_str("findings:\n");
    for f in t.findings(dialects) {
        let _ = writeln!(
            out,
            "  {} {} [{}]: {}",
            f.severity,
            f.code,
            f.tag.as_deref().unwrap_or(""),
            f.message
        );
        assert!(f.source.is_some(), "every template finding has its place");
    }
    out
}

macro_rules! snapshots {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                insta::assert_snapshot!(stringify!($test), render($file));
            }
        )*
    };
}

snapshots! {
    docx_clean_one_page => "docx_clean_one_page.docx",
    docx_places => "docx_places.docx",
    docx_format_change => "docx_format_change.docx",
    docx_tracked_insertion => "docx_tracked_insertion.docx",
    docx_tracked_deletion => "docx_tracked_deletion.docx",
    docx_comment => "docx_comment.docx",
    docx_vanish => "docx_vanish.docx",
    docx_white_text => "docx_white_text.docx",
    docx_text_box => "docx_text_box.docx",
    docx_wrapped_cell => "docx_wrapped_cell.docx",
    docx_curly_quotes => "docx_curly_quotes.docx",
    docx_en_dash => "docx_en_dash.docx",
    docx_ellipsis => "docx_ellipsis.docx",
    docx_nbsp => "docx_nbsp.docx",
    docx_fullwidth_hash => "docx_fullwidth_hash.docx",
    docx_vendor_adobe => "docx_vendor_adobe.docx",
    docx_vendor_dropbox => "docx_vendor_dropbox.docx",
    docx_vendor_boldsign => "docx_vendor_boldsign.docx",
    docx_vendor_docuseal => "docx_vendor_docuseal.docx",
    docx_vendor_signnow => "docx_vendor_signnow.docx",
    docx_vendor_pandadoc => "docx_vendor_pandadoc.docx",
    docx_vendor_documenso => "docx_vendor_documenso.docx",
    docx_thirty_pages => "docx_thirty_pages.docx",
    odt_clean_one_page => "odt_clean_one_page.odt",
    odt_places => "odt_places.odt",
    odt_format_change => "odt_format_change.odt",
    odt_tracked_changes => "odt_tracked_changes.odt",
    odt_comment => "odt_comment.odt",
    odt_hidden => "odt_hidden.odt",
    odt_white_text => "odt_white_text.odt",
    odt_autocorrected => "odt_autocorrected.odt",
    odt_thirty_pages => "odt_thirty_pages.odt",
}
