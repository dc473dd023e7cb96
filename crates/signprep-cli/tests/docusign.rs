//! DocuSign anchors from the command line: `scan`, `migrate` and `preview`
//! with `--anchors` (the `vendor_docusign` fixture and its envelope
//! definition) and `--anchor`, and the usage errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{scratch, testdata};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .current_dir(testdata("fixtures"))
        .output()
        .expect("signprep runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const ENVELOPE: &str = "vendor_docusign.envelope.json";

#[test]
fn the_envelope_file_is_current() {
    let path = testdata("fixtures").join(ENVELOPE);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        signprep_testgen::docusign_envelope(),
        "{} is stale: run `cargo run -p signprep-testgen -- testdata/fixtures`",
        path.display()
    );
}

#[test]
fn scan_anchors_records_each_tab_with_text_and_field_boxes() {
    let o = run(&[
        "scan",
        "--anchors",
        ENVELOPE,
        "--no-fields",
        "--format",
        "json",
        "vendor_docusign.pdf",
    ]);
    // A missing anchor is a warning: exit 0.
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr)
            .contains("note: vendor_docusign.envelope.json: 1 tab(s) placed by position"),
        "{}",
        text(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    insta::assert_json_snapshot!("scan_anchors", v);
}

#[test]
fn a_quick_anchor_argument() {
    let o = run(&[
        "scan",
        "--anchor",
        "/sn1/=signHere:1",
        "--anchor",
        "/nowhere/=text",
        "--no-fields",
        "--format",
        "json",
        "vendor_docusign.pdf",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let record = &v["documents"][0];
    let tags = record["vendor_tags"].as_array().unwrap();
    let rows: Vec<String> = tags
        .iter()
        .map(|t| {
            format!(
                "{} {} p{} {}",
                t["dialect"], t["raw"], t["page"], t["attributes"]["signer"]
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "\"docusign\" \"/sn1/\" p0 \"1\"",
            "\"docusign\" \"/sn1/\" p1 \"1\""
        ]
    );
    let missing: Vec<&str> = record["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "vendor_anchor_not_found")
        .map(|d| d["tag"].as_str().unwrap())
        .collect();
    assert_eq!(missing, ["/nowhere/"]);
}

#[test]
fn usage_errors_exit_2_in_our_words() {
    for (args, want) in [
        (
            vec!["scan", "--dialect", "docusign", "vendor_docusign.pdf"],
            "DocuSign has no text-tag grammar: give its tabs with --anchors FILE",
        ),
        (
            vec![
                "migrate",
                "--dialect",
                "adobe,DocuSign",
                "vendor_docusign.pdf",
            ],
            "DocuSign has no text-tag grammar: give its tabs with --anchors FILE",
        ),
        (
            vec!["scan", "--dialect", "nonsense", "vendor_docusign.pdf"],
            "unknown dialect `nonsense`: expected all, adobe,",
        ),
        (
            vec!["scan", "--anchor", "/sn1/=bogus", "vendor_docusign.pdf"],
            "error: --anchor: `/sn1/=bogus` is not STRING=TYPE[:SIGNER]",
        ),
        (
            vec!["scan", "--anchors", "no-such.json", "vendor_docusign.pdf"],
            "error: --anchors: cannot read no-such.json",
        ),
        (
            vec![
                "migrate",
                "--anchors",
                "vendor_docusign.expect.json",
                "vendor_docusign.pdf",
            ],
            "error: --anchors: vendor_docusign.expect.json: no tab with an anchorString",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(want),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

#[test]
fn migrate_anchors_places_fields_for_the_envelopes_recipients() {
    let out = scratch("docusign", "migrate");
    let o = run(&[
        "migrate",
        "--dialect",
        "all",
        "--anchors",
        ENVELOPE,
        "vendor_docusign.pdf",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr).replace(out.to_str().unwrap(), "OUT");
    insta::assert_snapshot!("migrate_anchors_stderr", err);
    let plan: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("vendor_docusign.json")).unwrap()).unwrap();
    let emails: Vec<&str> = plan["requests"][0]["body"]["signatories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["email"].as_str().unwrap())
        .collect();
    assert_eq!(
        emails,
        ["bea@example.com", "sam@example.com", "ina@example.com"]
    );
}

#[cfg(feature = "render")]
#[test]
fn preview_anchors_draws_fields_on_their_field_boxes() {
    let out = scratch("docusign", "preview");
    let o = run(&[
        "preview",
        "--anchors",
        ENVELOPE,
        "--dpi",
        "72",
        "--overlay-json",
        "--pages",
        "2",
        "vendor_docusign.pdf",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let overlay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("vendor_docusign-p2.json")).unwrap())
            .unwrap();
    let rows: Vec<String> = overlay["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            format!(
                "{} | {} | {} | {} {} {} {}",
                b["label"].as_str().unwrap(),
                b["type"].as_str().unwrap(),
                b["signer"].as_str().unwrap_or("-"),
                b["x"],
                b["y"],
                b["width"],
                b["height"]
            )
        })
        .collect();
    insta::assert_snapshot!("preview_anchor_boxes", rows.join("\n"));
}

/// Two tabs on one anchor string (a signature and its date beside it): the
/// anchor's text is stripped once, and both tabs count it as stripped; no
/// `strip_tag_kept` for the second (its glyphs were not "lost": the first
/// took them).
#[test]
fn one_anchor_named_by_two_tabs_is_stripped_once() {
    let out = scratch("docusign", "strip-twice");
    let o = run(&[
        "migrate",
        "--anchor",
        "/sn1/=signHere:1",
        "--anchor",
        "/sn1/=text:1",
        "--strip",
        "vendor_docusign.pdf",
        "-o",
        out.to_str().unwrap(),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("strip_tag_kept"), "{err}");
    let plan: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("vendor_docusign.json")).unwrap()).unwrap();
    // Both tabs placed on each of the anchor's two pages.
    let fields = plan["requests"][0]["body"]["data_fields"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(fields, 4, "{}", plan["requests"][0]["body"]);
    // The stripped copy has no `/sn1/` left.
    let copy = out.join("vendor_docusign.pdf");
    let again = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["scan", "--anchor", "/sn1/=signHere:1", "--format", "json"])
        .arg(&copy)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        v["documents"][0]["vendor_tags"].as_array().map(Vec::len),
        Some(0),
        "{}",
        v["documents"][0]["vendor_tags"]
    );
}
