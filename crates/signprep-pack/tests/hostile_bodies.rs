//! Bodies built to make `signprep check` allocate or work without bound, each
//! of which once could: they must finish quickly, with findings.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_pack::{Checker, InputKind, read_template};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// Unoptimised test builds on a shared machine: generous.
const BOUND: Duration = Duration::from_secs(20);

fn codes(c: &signprep_pack::Checked) -> Vec<&str> {
    c.findings.iter().map(|f| f.code.as_str()).collect()
}

/// `std::fs::read` on an upload path read `/dev/zero` until memory ran out.
#[test]
fn an_upload_that_is_a_device_is_not_read() {
    let body = br#"{"requests": [{"method": "POST", "path": "/v0/documents",
        "query": {"extract_fields_from_pdf_by_tag": true}, "upload": "/dev/zero",
        "body": {"document_name": "x", "signatories": [{"name": "A", "email": "a@example.com"}]}}]}"#;
    let start = Instant::now();
    let checked = Checker::new().check_bytes(body, Path::new("plan.json"), None);
    assert!(start.elapsed() < BOUND);
    assert_eq!(checked.kind, Some(InputKind::Requests));
    let unreadable = checked
        .findings
        .iter()
        .find(|f| f.code.as_str() == "io_error")
        .expect("a finding for the upload");
    assert!(
        unreadable.message.contains("not a regular file"),
        "{}",
        unreadable.message
    );
}

/// The "did you mean" edit distance allocated a table of key length times
/// candidate length: 8 bytes per cell, gigabytes for a key of a few MB.
#[test]
fn a_long_unknown_key_gets_no_suggestion_and_costs_little() {
    let key = "signatory_uuid".repeat(300_000);
    let body = format!(r#"{{"document_pack_name": "P", "{key}": 1}}"#);
    let start = Instant::now();
    let checked = Checker::new().check_bytes(body.as_bytes(), Path::new("p.json"), None);
    assert!(start.elapsed() < BOUND);
    let unknown = checked
        .findings
        .iter()
        .find(|f| f.code.as_str() == "unknown_key")
        .expect("unknown_key");
    assert_eq!(unknown.hint, None);
}

/// Each unknown populate key was compared with every field of the template
/// and listed them all: keys times fields, in time and memory.
#[test]
fn many_unknown_keys_against_a_large_template_stay_linear() {
    let n = 20_000;
    let mut fields = String::new();
    for i in 0..n {
        let sep = if i == 0 { "" } else { "," };
        write!(
            fields,
            r#"{sep}{{"custom_id": "FIELD_{i:05}", "type": "text"}}"#
        )
        .unwrap();
    }
    let template = read_template(&format!(r#"{{"key": "T", "data_fields": [{fields}]}}"#)).unwrap();
    let mut body = String::from("{");
    for i in 0..n {
        let sep = if i == 0 { "" } else { "," };
        write!(body, r#"{sep}"FIELX_{i:05}": "v""#).unwrap();
    }
    body.push('}');
    let start = Instant::now();
    let checked = Checker::new().template(template).check_bytes(
        body.as_bytes(),
        Path::new("copy.json"),
        Some(InputKind::Populate),
    );
    assert!(start.elapsed() < BOUND, "{:?}", start.elapsed());
    let unknown = codes(&checked)
        .iter()
        .filter(|c| **c == "populate_key_unknown")
        .count();
    assert_eq!(unknown, n);
    // The first keys still get a suggestion; hints list twelve fields at most.
    let first = checked
        .findings
        .first()
        .and_then(|f| f.hint.clone())
        .unwrap();
    assert!(first.starts_with("did you mean `FIELD_00000`?"), "{first}");
    assert!(
        checked
            .findings
            .iter()
            .all(|f| f.hint.as_ref().is_none_or(|h| h.len() < 400))
    );
}
