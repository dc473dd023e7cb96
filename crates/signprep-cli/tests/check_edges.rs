//! Numbers and keys at the edges (issue 32, items 3 and 4), as a user runs
//! into them: a key given twice, a body in UTF-16, a type error's place, a
//! manifest path in another Unicode normal form, and resolutions that would
//! make coordinates infinite. Every test here failed on the code before.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[cfg(feature = "serve")]
#[path = "serve/harness.rs"]
mod harness;

use common::{root, run, scratch};
use serde_json::Value;
use std::path::Path;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `check --format json FILE`: the exit status and the file's findings.
fn check(path: &Path) -> (Option<i32>, Vec<Value>) {
    let out = run(&["check", "--format", "json", path.to_str().unwrap()]);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    let findings = v["files"][0]["findings"].as_array().unwrap().clone();
    (out.status.code(), findings)
}

/// `check --format human FILE`'s output, for a snapshot.
fn human(path: &Path, shown: &str) -> String {
    let out = run(&["check", "--format", "human", path.to_str().unwrap()]);
    text(&out.stdout).replace(path.to_str().unwrap(), shown)
}

/// `(code, pointer)` of each finding.
fn places(findings: &[Value]) -> Vec<(String, String)> {
    findings
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["pointer"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const TWICE: &str = r#"{
  "document_name": "Contract",
  "signatories": [
    {
      "uuid": "3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11",
      "email": "ann@@example",
      "name": "Ann Client",
      "email": "ann@example.com"
    }
  ]
}
"#;

#[test]
fn a_key_given_twice_is_an_error_at_its_pointer_with_both_lines() {
    let dir = scratch("edges", "twice");
    let body = dir.join("v0.json");
    std::fs::write(&body, TWICE).unwrap();
    let (status, findings) = check(&body);
    // The parser keeps the valid second `email`: before, "no problems found".
    assert_eq!(status, Some(1));
    assert_eq!(
        places(&findings),
        owned(&[("json_duplicate_key", "/signatories/0/email")])
    );
    insta::assert_snapshot!(human(&body, "v0.json"));

    // The same in a v1 pack, a populate body and a JSON manifest.
    for (name, body, pointer) in [
        (
            "pack.json",
            r#"{"document_pack_name": "P", "document_pack_name": "Q", "documents": []}"#,
            "/document_pack_name",
        ),
        (
            "populate.json",
            r#"{"signer_0_email": "a@@b", "signer_0_email": "a@example.com"}"#,
            "/signer_0_email",
        ),
        (
            "manifest.json",
            r#"{"name": "M", "signers": [{"handle": "a", "email": "a@example.com", "handle": "b"}]}"#,
            "/signers/0/handle",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let (status, findings) = check(&path);
        assert_eq!(status, Some(1), "{name}: {findings:#?}");
        let dups: Vec<&Value> = findings
            .iter()
            .filter(|f| f["code"] == "json_duplicate_key")
            .collect();
        assert_eq!(dups.len(), 1, "{name}: {findings:#?}");
        assert_eq!(dups[0]["pointer"], pointer, "{name}");
        assert!(
            dups[0]["message"]
                .as_str()
                .unwrap()
                .starts_with("line 1, column "),
            "{name}: {}",
            dups[0]["message"]
        );
    }
}

fn utf16(text: &str, bom: bool, le: bool) -> Vec<u8> {
    let units = bom
        .then_some(0xFEFF_u16)
        .into_iter()
        .chain(text.encode_utf16());
    units
        .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
        .collect()
}

#[test]
fn utf16_bodies_are_named_and_read_when_a_mark_says_which() {
    let dir = scratch("edges", "utf16");
    let body = r#"{"document_name": "Contract", "signatories": [{"uuid": "3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11", "email": "ann-at-example"}]}"#;
    // With a mark: decoded, named, and checked as any body (its bad email found).
    for (name, le) in [("le.json", true), ("be.json", false)] {
        let path = dir.join(name);
        std::fs::write(&path, utf16(body, true, le)).unwrap();
        let (status, findings) = check(&path);
        assert_eq!(status, Some(1), "{name}");
        assert_eq!(
            places(&findings),
            owned(&[
                ("text_encoding", ""),
                ("email_invalid", "/signatories/0/email")
            ]),
            "{name}"
        );
    }
    insta::assert_snapshot!("utf16_with_a_mark", human(&dir.join("le.json"), "le.json"));
    // Without: named, not guessed at.
    let path = dir.join("nomark.json");
    std::fs::write(&path, utf16(body, false, true)).unwrap();
    let (status, findings) = check(&path);
    assert_eq!(status, Some(1));
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0]["code"], "body_invalid");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("looks like UTF-16 (little-endian) without a byte order mark"),
        "{}",
        findings[0]["message"]
    );
}

#[test]
fn a_type_error_in_a_plan_has_its_line_column_and_pointer() {
    let dir = scratch("edges", "types");
    let plan = dir.join("plan.json");
    std::fs::write(
        &plan,
        "{\"requests\": [\n  {\"method\": \"POST\", \"path\": \"/v0/documents\",\n   \"body\": {\"document_name\": \"C\",\n            \"data_fields\": [{\"type\": \"text\", \"y\": \"abc\"}]}}\n]}\n",
    )
    .unwrap();
    let (status, findings) = check(&plan);
    assert_eq!(status, Some(1));
    assert_eq!(
        places(&findings),
        owned(&[("body_invalid", "/requests/0/body/data_fields/0/y")])
    );
    assert_eq!(
        findings[0]["message"],
        "not a v0 document: line 4, column 55: the string \"abc\" where f64 should be"
    );
    // A whole body: the pointer of the value too.
    let pack = dir.join("pack.json");
    std::fs::write(
        &pack,
        "{\"document_pack_name\": \"P\",\n \"signatories\": [{\"email\": 5}],\n \"documents\": []}",
    )
    .unwrap();
    let (_, findings) = check(&pack);
    let bad = findings
        .iter()
        .find(|f| f["code"] == "body_invalid")
        .unwrap();
    assert_eq!(bad["pointer"], "/signatories/0/email");
    assert!(
        bad["message"]
            .as_str()
            .unwrap()
            .starts_with("not a v1 pack: line 2, column 28: "),
        "{}",
        bad["message"]
    );
}

#[test]
fn placed_coordinates_that_make_no_sense_are_errors() {
    let dir = scratch("edges", "coords");
    let contract = root().join("testdata/check/pdfs/contract.pdf");
    let field = |extra: &str| {
        format!(
            r#"{{"requests": [{{"method": "POST", "path": "/v0/documents",
                "query": {{"extract_fields_from_pdf_by_tag": true}},
                "upload": "{}",
                "body": {{"document_name": "C", "data_fields": [{{"type": "text", "custom_id": "a"{extra}}}]}}}}]}}"#,
            contract.display()
        )
    };
    let cases = [
        (
            "x_null",
            r#", "x": null"#,
            "data_field_position_invalid",
            "/x",
        ),
        (
            "x_negative",
            r#", "x": -50"#,
            "data_field_position_invalid",
            "/x",
        ),
        (
            "width_zero",
            r#", "width": 0"#,
            "data_field_position_invalid",
            "/width",
        ),
        ("y_far", r#", "y": 99999999"#, "data_field_off_page", "/y"),
        (
            "foot",
            r#", "x": 10, "y": 780, "width": 50, "height": 20"#,
            "data_field_off_page",
            "/height",
        ),
    ];
    let mut said = String::new();
    for (name, extra, code, key) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, field(extra)).unwrap();
        let (status, findings) = check(&path);
        assert_eq!(status, Some(1), "{name}: {findings:#?}");
        let hits: Vec<&Value> = findings.iter().filter(|f| f["code"] == code).collect();
        assert_eq!(hits.len(), 1, "{name}: {findings:#?}");
        assert_eq!(
            hits[0]["pointer"],
            format!("/requests/0/body/data_fields/0{key}"),
            "{name}"
        );
        said.push_str(&format!(
            "{name}: {}\n",
            hits[0]["message"].as_str().unwrap()
        ));
    }
    // Each message names the value and, off the page, the page's size.
    insta::assert_snapshot!(said);
}

#[test]
fn a_manifest_path_in_nfc_finds_its_file_named_in_nfd() {
    let dir = scratch("edges", "nfd");
    // `signé` with `e` and U+0301 (NFD, as macOS names files).
    std::fs::copy(
        root().join("testdata/check/pdfs/contract.pdf"),
        dir.join("contrat signe\u{301}.pdf"),
    )
    .unwrap();
    let manifest = dir.join("pack.toml");
    std::fs::write(
        &manifest,
        "name = \"NFC\"\n\n[[signers]]\nhandle = \"client\"\nemail = \"ann@example.com\"\n\n[[documents]]\npath = \"contrat sign\u{e9}.pdf\"\n",
    )
    .unwrap();
    let (_, findings) = check(&manifest);
    let codes: Vec<&str> = findings
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert!(!codes.contains(&"manifest_no_match"), "{findings:#?}");
    let f = findings
        .iter()
        .find(|f| f["code"] == "manifest_path_normalised")
        .unwrap_or_else(|| panic!("{findings:#?}"));
    assert_eq!(f["severity"], "info");
    assert_eq!(f["pointer"], "/documents/0/path");
}

#[test]
fn a_resolution_that_would_overflow_is_refused_with_its_range() {
    let pdf = "testdata/check/pdfs/contract.pdf";
    let mut said = String::new();
    for args in [
        &["scan", "--dpi", "1e308", pdf][..],
        &["scan", "--dpi", "0.5", pdf],
        &["scan", "--dpi", "NaN", pdf],
        &["scan", "--page-width", "1e308", pdf],
        &["migrate", "--dpi", "1e308", pdf],
    ] {
        let out = run(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
        said.push_str(&format!("{}: {}", args.join(" "), text(&out.stderr)));
    }
    insta::assert_snapshot!(said);
    // The top of the range still gives finite numbers everywhere.
    let out = run(&["scan", "--format", "json", "--dpi", "10000", pdf]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains("null"), "{}", text(&out.stdout));
}

#[test]
fn the_library_scanner_never_gives_an_infinite_coordinate() {
    use signprep_core::{Document, LoadOptions, Scanner};
    let doc = Document::open(
        root().join("testdata/check/pdfs/contract.pdf"),
        &LoadOptions::default(),
    )
    .unwrap();
    assert!(Scanner::new().try_dpi(1e308).is_err());
    assert!(Scanner::new().try_page_width(f64::INFINITY).is_err());
    for scanner in [
        Scanner::new().dpi(1e308),
        Scanner::new().dpi(f64::NAN),
        Scanner::new().page_width(1e308),
    ] {
        let scan = scanner.scan(&doc).unwrap();
        let numbers = scan
            .pages
            .iter()
            .flat_map(|p| [p.width, p.height, p.y_offset])
            .chain(scan.tags.iter().flat_map(|t| [t.x, t.y, t.width, t.height]));
        for n in numbers {
            assert!(n.is_finite(), "{scanner:?}: {n}");
        }
        assert!(!scan.tags.is_empty());
    }
}

#[cfg(feature = "serve")]
#[test]
fn a_query_dpi_that_would_overflow_is_refused_with_its_range() {
    let server = harness::Server::start(&["--quiet"], &[]);
    let pdf = std::fs::read(root().join("testdata/check/pdfs/contract.pdf")).unwrap();
    let a = server.post("/v1/scan?dpi=1e308", "application/pdf", &pdf);
    assert_eq!(a.status, 400, "{}", a.text());
    assert!(
        a.text()
            .contains("`1e308` is out of range: the resolution is from 1 to 10000 dpi"),
        "{}",
        a.text()
    );
    let a = server.post("/v1/scan?page_width=0", "application/pdf", &pdf);
    assert_eq!(a.status, 400, "{}", a.text());
    assert!(a.text().contains("from 1 to 100000 px"), "{}", a.text());
}
