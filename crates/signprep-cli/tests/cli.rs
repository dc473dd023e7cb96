//! The `signprep` binary as a user runs it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures")
}

fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(fixtures())
        .output()
        .expect("signprep runs")
}

/// The file records of ndjson output (the last line, `{"summary": ...}`, left out).
fn records(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("each line is JSON"))
        .filter(|r| r.get("summary").is_none())
        .collect()
}

#[test]
fn output_is_identical_whatever_the_thread_count() {
    let one = run(&["scan", "--format", "ndjson", "--jobs", "1", "."]);
    let four = run(&["scan", "--format", "ndjson", "--jobs", "4", "."]);
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, four.stdout);
    let json1 = run(&["scan", "--format", "json", "--jobs", "1", "."]);
    let json4 = run(&["scan", "--format", "json", "--jobs", "3", "."]);
    assert_eq!(json1.stdout, json4.stdout);
}

#[test]
fn folders_are_walked_in_sorted_order() {
    let out = run(&["scan", "--format", "ndjson", "."]);
    let paths: Vec<String> = records(&out)
        .iter()
        .map(|r| r["path"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(paths.len() >= 17, "{paths:?}");
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert!(paths.iter().all(|p| p.ends_with(".pdf")));
}

#[test]
fn exit_codes_follow_findings() {
    // Clean file: 0.
    let clean = run(&["scan", "--format", "ndjson", "base14_courier.pdf"]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
    // Error-level findings (lower-case id...): 1.
    let bad = run(&["scan", "--format", "ndjson", "invalid_ids.pdf"]);
    assert_eq!(bad.status.code(), Some(1));
    let rec = &records(&bad)[0];
    assert_eq!(rec["status"], "ok");
    let codes: Vec<&str> = rec["diagnostics"]
        .as_array()
        .map(|a| a.iter().filter_map(|d| d["code"].as_str()).collect())
        .unwrap_or_default();
    assert!(codes.contains(&"tag_id_not_uppercase"), "{codes:?}");
    // A path that does not exist: a record naming it, the others still scanned, exit 2.
    let missing = run(&[
        "scan",
        "--format",
        "ndjson",
        "no_such.pdf",
        "base14_courier.pdf",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    let recs = records(&missing);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["path"], "no_such.pdf");
    assert_eq!(recs[0]["error"]["code"], "io_error");
    assert_eq!(recs[1]["status"], "ok");
    // Usage error: 2.
    let usage = run(&["scan", "--dpi", "-3", "base14_courier.pdf"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn a_broken_file_gets_an_error_record_and_the_batch_goes_on() {
    let dir = std::env::temp_dir().join(format!("signprep-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = std::fs::read(fixtures().join("base14_courier.pdf")).expect("fixture");
    std::fs::write(
        dir.join("a_garbage.pdf"),
        b"\x89PNG\r\n\x1a\nnot a pdf at all",
    )
    .expect("write");
    std::fs::write(dir.join("b_empty.pdf"), b"").expect("write");
    std::fs::write(dir.join("c_truncated.pdf"), &good[..good.len() / 3]).expect("write");
    std::fs::write(dir.join("d_good.pdf"), &good).expect("write");
    let out = bin()
        .args(["scan", "--format", "ndjson"])
        .arg(&dir)
        .output()
        .expect("runs");
    let recs = records(&out);
    assert_eq!(recs.len(), 4, "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(recs[0]["status"], "error");
    assert_eq!(recs[0]["error"]["code"], "pdf_unreadable");
    assert!(
        recs[0]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("not a PDF"))
    );
    assert_eq!(recs[1]["status"], "error");
    assert_eq!(recs[3]["status"], "ok");
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn table_output_snapshot() {
    let out = run(&[
        "scan",
        "--format",
        "table",
        "invalid_ids.pdf",
        "wrapped_tag.pdf",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    // The summary line carries a wall time; keep it out of the snapshot.
    let stable: Vec<&str> = text.lines().filter(|l| !l.contains("pages/s")).collect();
    insta::assert_snapshot!(stable.join("\n"));
}

#[test]
fn json_wraps_documents_and_summary() {
    let out = run(&[
        "scan",
        "--format",
        "json",
        "base14_courier.pdf",
        "wrapped_tag.pdf",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["documents"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["summary"]["files"], 2);
    assert!(v["summary"]["tags"].as_u64().is_some_and(|n| n > 0));
}

/// `--no-fields`: the same tags, no fields and no field findings; the other
/// findings unchanged.
#[test]
fn no_fields_finds_tags_only() {
    let all = run(&["scan", "--format", "ndjson", "."]);
    let tags_only = run(&["scan", "--format", "ndjson", "--no-fields", "."]);
    let (all, tags_only) = (records(&all), records(&tags_only));
    assert_eq!(all.len(), tags_only.len());
    let is_field_code = |d: &serde_json::Value| {
        let code = d["code"].as_str().unwrap_or_default();
        code.starts_with("field_")
            || code == "widget_not_in_acroform"
            || code == "widget_not_on_page"
            || code == "xfa_form"
    };
    let mut had_fields = 0;
    for (a, t) in all.iter().zip(&tags_only) {
        assert_eq!(a["path"], t["path"]);
        assert_eq!(a["tags"], t["tags"], "{}", a["path"]);
        assert_eq!(t["fields"], serde_json::json!([]), "{}", t["path"]);
        if a["fields"].as_array().is_some_and(|f| !f.is_empty()) {
            had_fields += 1;
        }
        let kept: Vec<&serde_json::Value> = a["diagnostics"]
            .as_array()
            .map(|d| d.iter().filter(|d| !is_field_code(d)).collect())
            .unwrap_or_default();
        let got: Vec<&serde_json::Value> = t["diagnostics"]
            .as_array()
            .map(|d| d.iter().collect())
            .unwrap_or_default();
        assert_eq!(kept, got, "{}", a["path"]);
    }
    assert!(had_fields >= 5, "only {had_fields} fixtures with fields");

    // The summary says the fields were not read, rather than counting none.
    let summary = |out: &Output| -> serde_json::Value {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let last = text.lines().last().unwrap_or_default().to_string();
        serde_json::from_str(&last).unwrap()
    };
    let s = summary(&run(&["scan", "--format", "ndjson", "--no-fields", "."]));
    assert_eq!(s["summary"]["fields_skipped"], true);
    assert_eq!(s["summary"]["fields"], 0);
    let s = summary(&run(&["scan", "--format", "ndjson", "."]));
    assert!(s["summary"].get("fields_skipped").is_none(), "{s}");
    let table = run(&[
        "scan",
        "--format",
        "table",
        "--no-fields",
        "form_choices.pdf",
    ]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("form_choices.pdf: 1 page, 0 tags, fields not read"),
        "{text}"
    );
}

#[test]
fn user_unit_is_applied_unless_ignored() {
    // user_unit.pdf: MediaBox [0 0 306 396] with /UserUnit 2, displayed as Letter.
    let size = |args: &[&str]| {
        let mut all = vec!["scan", "--format", "ndjson"];
        all.extend_from_slice(args);
        all.push("user_unit.pdf");
        let out = run(&all);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let rec = &records(&out)[0];
        let page = &rec["pages"][0];
        assert_eq!(page["user_unit"], 2.0, "{args:?}");
        (
            page["width"].as_f64().unwrap_or_default(),
            page["height"].as_f64().unwrap_or_default(),
            rec["tags"][0]["width"].as_f64().unwrap_or_default(),
        )
    };
    let shown = size(&[]);
    assert_eq!((shown.0, shown.1), (612.0, 792.0));
    let raw = size(&["--ignore-user-unit"]);
    assert_eq!((raw.0, raw.1), (306.0, 396.0));
    assert!((shown.2 - 2.0 * raw.2).abs() < 0.03, "{shown:?} vs {raw:?}");
    // The old opt-in is still accepted, and is the default now.
    assert_eq!(size(&["--apply-user-unit"]), shown);
    let both = run(&[
        "scan",
        "--apply-user-unit",
        "--ignore-user-unit",
        "user_unit.pdf",
    ]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn help_says_what_signprep_does() {
    // Not the crate's one-line description ("The signprep command-line tool").
    let out = run(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.starts_with("Prepare PDFs for the e-signature service"),
        "{help}"
    );
}

#[test]
fn help_shows_no_empty_default() {
    // A `[default: ""]` after "Default: none" reads as a bug; each
    // subcommand's help says its defaults in words.
    for sub in [
        "scan", "check", "pack", "migrate", "preview", "report", "schema", "explain",
    ] {
        let out = run(&[sub, "--help"]);
        assert!(out.status.success(), "{sub}");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(!help.contains("[default: \"\"]"), "{sub} --help:\n{help}");
    }
}

/// The last line on stderr.
fn last_error_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn every_size_option_reads_the_same_units() {
    // Units only scan's parser read before: a space, lowercase `mb`, terabytes.
    let check_spaced = run(&["check", "--max-payload", "10 mb", "base14_courier.pdf"]);
    assert_eq!(
        check_spaced.status.code(),
        Some(0),
        "{}",
        last_error_line(&check_spaced)
    );
    let check_tera = run(&["check", "--max-payload", "1T", "base14_courier.pdf"]);
    assert_eq!(
        check_tera.status.code(),
        Some(0),
        "{}",
        last_error_line(&check_tera)
    );
    let scan_tera = run(&[
        "scan",
        "--max-file-size",
        "2TiB",
        "--format",
        "ndjson",
        "base14_courier.pdf",
    ]);
    assert_eq!(
        scan_tera.status.code(),
        Some(0),
        "{}",
        last_error_line(&scan_tera)
    );
    // --max-body is read (clap goes on to the next argument, whose error is the one given).
    let serve = run(&["serve", "--max-body", "2 tb", "--addr", "nowhere"]);
    assert_eq!(serve.status.code(), Some(2));
    assert!(
        last_error_line(&serve).starts_with("error: invalid value 'nowhere' for '--addr <ADDR>'"),
        "{}",
        last_error_line(&serve)
    );

    // `iB` alone is no unit: refused alike by all three.
    let refusals = [
        (
            &["scan", "--max-file-size", "10iB", "base14_courier.pdf"][..],
            "--max-file-size",
        ),
        (
            &["check", "--max-payload", "10iB", "base14_courier.pdf"][..],
            "--max-payload",
        ),
        (&["serve", "--max-body", "10iB"][..], "--max-body"),
    ];
    for (args, option) in refusals {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{option}");
        assert_eq!(
            last_error_line(&out),
            format!(
                "error: invalid value '10iB' for '{option} <SIZE>': `10iB`: unknown unit (use K, M, G or T) (`signprep --help` for more)"
            ),
            "{option}"
        );
    }
}
