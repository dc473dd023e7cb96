//! Tags and form fields as the service's Data field objects
//! (`signprep_pack::data_fields`), with the default types and a type map.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Document, LoadOptions, Scan, Scanner};
use signprep_pack::{TypeMap, data_fields};
use std::path::Path;

fn scan(name: &str) -> Scan {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/fixtures")
        .join(format!("{name}.pdf"));
    let doc = Document::open(&path, &LoadOptions::default()).unwrap();
    Scanner::new().scan(&doc).unwrap()
}

fn kinds(scan: &Scan, map: &TypeMap) -> Vec<(String, String)> {
    data_fields(scan, map)
        .into_iter()
        .map(|d| (d.custom_id.or(d.tag_id).unwrap(), d.kind))
        .collect()
}

fn pairs(want: &[(&str, &str)]) -> Vec<(String, String)> {
    want.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn data_fields_snapshot() {
    let scan = scan("form_signature");
    insta::assert_json_snapshot!(
        "data_fields_form_signature",
        data_fields(&scan, &TypeMap::new())
    );
    let map = TypeMap::new()
        .rule("*=text")
        .and_then(|m| m.rule("witness=none"))
        .and_then(|m| m.rule("SIG_?=signature"))
        .unwrap();
    let want = [
        ("SIG_1", "signature"),
        ("DATE", "text"),
        ("signer.signature", "text"),
        ("full_name", "text"),
        ("reset", "text"),
    ];
    assert_eq!(kinds(&scan, &map), pairs(&want));
    let choices = data_fields(&self::scan("form_choices"), &TypeMap::new());
    insta::assert_json_snapshot!("data_fields_form_choices", choices);
}

/// LiveCycle-style names (`form1[0].page1[0].name[0]`): a rule spelling the
/// whole name matches it; in a glob, `[[]` is a literal `[` and `[0]` a set.
#[test]
fn bracketed_names() {
    let scan = scan("form_xfa_hybrid");
    let defaults = [
        ("form1[0].page1[0].name[0]", "text"),
        ("form1[0].page1[0].date[0]", "text"),
    ];
    assert_eq!(kinds(&scan, &TypeMap::new()), pairs(&defaults));
    let map = TypeMap::new()
        .rule("form1[[]0].*=signature")
        .and_then(|m| m.rule("form1[0].page1[0].date[0]=date"))
        .unwrap();
    let want = [
        ("form1[0].page1[0].name[0]", "signature"),
        ("form1[0].page1[0].date[0]", "date"),
    ];
    assert_eq!(kinds(&scan, &map), pairs(&want));
    // `[0]` unescaped is the set {0}: `form1[0].*` means `form10.*`
    let map = TypeMap::new().rule("form1[0].*=none").unwrap();
    assert_eq!(kinds(&scan, &map), pairs(&defaults));
}

/// A button's `/Opt` export values are its `options_as_csv`, and its state
/// is sent as the export value it maps to; an unset button sends no data.
#[test]
fn buttons_send_their_export_values() {
    let fields = data_fields(&scan("form_buttons"), &TypeMap::new());
    let sent: Vec<(String, Option<String>, Option<String>)> = fields
        .into_iter()
        .map(|d| (d.custom_id.unwrap(), d.options_as_csv, d.data))
        .collect();
    let row = |name: &str, options: Option<&str>, data: Option<&str>| {
        (
            name.to_string(),
            options.map(str::to_string),
            data.map(str::to_string),
        )
    };
    let payment = row("payment", Some("Card,Transfer,Cash"), Some("Transfer"));
    let size = row("size", None, None);
    let tier = row("tier", Some("gold,silver"), Some("gold"));
    assert_eq!(
        sent,
        [
            payment.clone(),
            payment.clone(),
            payment,
            row("terms", None, None),
            size.clone(),
            size.clone(),
            size,
            row("newsletter", Some("\"Ja, bitte\""), Some("Ja, bitte")),
            tier.clone(),
            tier,
        ]
    );
}
