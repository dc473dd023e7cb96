//! `docs/schema/` is current, and the scan record schema matches what
//! signprep-core writes.
//!
//! Regenerate with `cargo run -p signprep-cli -- schema --write docs/schema`
//! (or `UPDATE_SCHEMAS=1 cargo test -p signprep-pack --test schemas`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Dialects, LoadOptions, Record, Scanner};
use signprep_pack::{ScanRecord, SchemaName};
use signprep_pack::{TypeMap, data_fields};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn committed_schemas_are_current() {
    let dir = root().join("docs/schema");
    let update = std::env::var_os("UPDATE_SCHEMAS").is_some();
    let mut stale = Vec::new();
    for s in SchemaName::ALL {
        let path = dir.join(s.file_name());
        let text = s.text();
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale schemas {stale:?}: run `cargo run -p signprep-cli -- schema --write docs/schema`"
    );
}

#[test]
fn every_schema_names_itself_and_parses() {
    for s in SchemaName::ALL {
        let v = s.schema();
        assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert!(v["title"].as_str().unwrap().starts_with("signprep: "));
        assert_eq!(SchemaName::from_name(s.as_str()), Some(*s));
    }
}

/// Every record the scanner writes for the fixtures reads into [`ScanRecord`]
/// (which rejects unknown keys) and writes back unchanged: the hand-written
/// schema types cannot drift from the real records.
#[test]
fn scan_records_match_the_schema_types() {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [
        "testdata/fixtures",
        "testdata/example/contracts",
        "testdata/example/forms",
    ] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pdf") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 10);
    // With every dialect, so that `vendor_tags` is checked too.
    let scanner = Scanner::new().dialects(Dialects::all());
    for path in files {
        let record = Record::scan_file(&path, &LoadOptions::default(), &scanner);
        let mut v = serde_json::to_value(&record).unwrap();
        v["data_fields"] =
            serde_json::to_value(data_fields(&record.scan, &TypeMap::new())).unwrap();
        let typed: ScanRecord = serde_json::from_value(v.clone()).unwrap_or_else(|e| {
            panic!(
                "{}: the record does not fit the schema types: {e}",
                path.display()
            )
        });
        assert_eq!(
            serde_json::to_value(&typed).unwrap(),
            v,
            "{}",
            path.display()
        );
    }
    let missing = Record::scan_file(
        Path::new("/nonexistent.pdf"),
        &LoadOptions::default(),
        &scanner,
    );
    let v = serde_json::to_value(&missing).unwrap();
    let typed: ScanRecord = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), v);
}
