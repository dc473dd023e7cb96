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

/// Every record the scanner writes for the fixtures (with `data_fields`, and
/// with every dialect so that `vendor_tags` is there too) is valid under the
/// scan schema, which rejects unknown keys: the schema is derived from the
/// record types, and this checks the derivation against real output.
#[test]
fn scan_records_are_valid_under_the_schema() {
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&SchemaName::Scan.schema())
        .unwrap();
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
    let scanner = Scanner::new().dialects(Dialects::all());
    let mut invalid = Vec::new();
    let mut vendor_tags = 0;
    for path in &files {
        let record = Record::scan_file(path, &LoadOptions::default(), &scanner);
        vendor_tags += record.scan.vendor_tags.as_ref().map_or(0, Vec::len);
        let fields = data_fields(&record.scan, &TypeMap::new());
        for data_fields in [None, Some(fields.as_slice())] {
            let written = ScanRecord {
                record: &record,
                data_fields,
            };
            let v = serde_json::to_value(written).unwrap();
            for e in validator.iter_errors(&v) {
                invalid.push(format!("{}: {e} at {}", path.display(), e.instance_path()));
            }
        }
    }
    assert!(vendor_tags > 0, "no fixture has a vendor tag to check");
    let missing = Record::scan_file(
        Path::new("/nonexistent.pdf"),
        &LoadOptions::default(),
        &scanner,
    );
    let v = serde_json::to_value(&missing).unwrap();
    for e in validator.iter_errors(&v) {
        invalid.push(format!("error record: {e} at {}", e.instance_path()));
    }
    assert!(invalid.is_empty(), "{}", invalid.join("\n"));
}

/// A broken copy of a good record: what is broken, and how.
type Edit = (&'static str, fn(&mut serde_json::Value));

/// The schema is strict enough to fail: an unknown key, a wrong type, a
/// missing property, an unknown code are each refused.
#[test]
fn the_scan_schema_refuses_what_is_not_written() {
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&SchemaName::Scan.schema())
        .unwrap();
    let scanner = Scanner::new();
    let path = root().join("testdata/fixtures/form_signature.pdf");
    let record = Record::scan_file(&path, &LoadOptions::default(), &scanner);
    let fields = data_fields(&record.scan, &TypeMap::new());
    let good = serde_json::to_value(ScanRecord {
        record: &record,
        data_fields: Some(&fields),
    })
    .unwrap();
    assert!(validator.is_valid(&good));
    let edits: [Edit; 6] = [
        ("unknown top-level key", |v| v["extra"] = 1.into()),
        ("unknown tag key", |v| v["tags"][0]["colour"] = "red".into()),
        ("tag x a string", |v| v["tags"][0]["x"] = "12".into()),
        ("field without a name", |v| {
            v["fields"][0].as_object_mut().unwrap().remove("name");
        }),
        ("unknown status", |v| v["status"] = "maybe".into()),
        ("data field type null", |v| {
            v["data_fields"][0]["type"] = serde_json::Value::Null;
        }),
    ];
    for (what, edit) in edits {
        let mut bad = good.clone();
        edit(&mut bad);
        assert!(!validator.is_valid(&bad), "{what} was accepted");
    }
    let mut bad = good.clone();
    bad["diagnostics"] =
        serde_json::json!([{"severity": "info", "code": "no_such_code", "message": "m"}]);
    assert!(!validator.is_valid(&bad), "an unknown code was accepted");
    let mut error = good.clone();
    error["status"] = "error".into();
    error["error"] = serde_json::json!({"code": "io_error", "message": "cannot read file"});
    assert!(validator.is_valid(&error), "a real error code was refused");
    error["error"]["code"] = "disk_on_fire".into();
    assert!(
        !validator.is_valid(&error),
        "an unknown file error code was accepted"
    );
}
