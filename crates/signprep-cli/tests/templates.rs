//! `.docx` and `.odt` inputs on the command line: LibreOffice found or the run's one
//! error, conversion failures as records, the round trip (every tag the template holds is
//! where a plain scan of LibreOffice's own PDF puts it), sources and findings per fixture.
//!
//! Tests that convert need LibreOffice: they are `#[ignore]`d and named `soffice_`, and CI
//! runs them by name after installing it (`.ci/run`), where a missing LibreOffice fails
//! them. The fixtures are generated (`signprep-testgen --templates testdata/templates`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{run, scratch};
use serde_json::Value;

const TEMPLATES: &str = "testdata/templates";

fn records(stdout: &[u8]) -> Vec<Value> {
    std::str::from_utf8(stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("path").is_some())
        .collect()
}

#[test]
fn a_missing_libreoffice_is_the_runs_one_error_with_the_install_command() {
    let out = run(&[
        "scan",
        "--soffice",
        "/nonexistent/soffice",
        &format!("{TEMPLATES}/docx_places.docx"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "error: cannot run LibreOffice at /nonexistent/soffice: no such program\n"
    );
    assert!(out.stdout.is_empty());
    // check, the same; SIGNPREP_SOFFICE names the program when no option does. (Not
    // found anywhere, the message is the install command: convert.rs's unit test.)
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["check", &format!("{TEMPLATES}/docx_places.docx")])
        .current_dir(common::root())
        .env("SIGNPREP_SOFFICE", "/nonexistent/lo")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: cannot run LibreOffice at /nonexistent/lo: no such program\n"
    );
}

#[test]
fn a_folder_walk_takes_templates_only_when_asked() {
    // Without --type, a folder of templates holds nothing to scan.
    let out = run(&["scan", "--format", "ndjson", TEMPLATES]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no PDF"), "{err}");
}

/// Every template fixture with its tags' sources and the codes of its findings, in a
/// snapshot per fixture; and every tag is where a plain scan of the PDF LibreOffice made
/// of it puts it (the round trip: within 0.5 pt).
macro_rules! fixture {
    ($($name:ident => $file:literal,)*) => {$(
        #[test]
        #[ignore = "needs LibreOffice: run by CI with --ignored soffice_"]
        fn $name() {
            common::soffice_required("these tests");
            let tmp = scratch("templates", stringify!($name));
            let kept = tmp.join("kept");
            let path = format!("{TEMPLATES}/{}", $file);
            let out = run(&[
                "scan", "--format", "ndjson", "--no-cache", "--keep-pdf",
                kept.to_str().unwrap(), "--dialect", "all", &path,
            ]);
            let all = records(&out.stdout);
            let [record] = all.as_slice() else { panic!("{all:?}") };
            insta::assert_json_snapshot!(
                stringify!($name),
                summary(record),
            );
            if record["status"] == "ok" {
                let stem = std::path::Path::new($file).file_stem().unwrap();
                let pdf = kept.join(stem).with_extension("pdf");
                let plain = run(&["scan", "--format", "ndjson", "--dialect", "all", pdf.to_str().unwrap()]);
                let plain = records(&plain.stdout);
                let [plain] = plain.as_slice() else { panic!("{plain:?}") };
                same_boxes(record, plain);
            }
        }
    )*};
}

/// What a snapshot keeps of a template's record: status and error code, each tag's id
/// or raw text with its source, each finding's code, severity and source. Boxes are left
/// to the round trip (they depend on the fonts LibreOffice finds).
fn summary(r: &Value) -> Value {
    let tags: Vec<Value> = r["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(r["vendor_tags"].as_array().into_iter().flatten())
        .map(|t| serde_json::json!({"raw": t["raw"], "page": t["page"], "source": t["source"]}))
        .collect();
    let findings: Vec<Value> = r["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| serde_json::json!({"code": d["code"], "severity": d["severity"], "source": d["source"]}))
        .collect();
    serde_json::json!({
        "status": r["status"],
        "error": r["error"]["code"],
        "converted": r["converted"]["format"],
        "tags": tags,
        "findings": findings,
    })
}

/// Every tag (ours and vendors') of the template's record at the box the plain scan of
/// the kept PDF gives, within 0.5 pt.
fn same_boxes(template: &Value, plain: &Value) {
    for key in ["tags", "vendor_tags"] {
        let a = template[key].as_array().cloned().unwrap_or_default();
        let b = plain[key].as_array().cloned().unwrap_or_default();
        assert_eq!(a.len(), b.len(), "{key}: {a:?} vs {b:?}");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x["raw"], y["raw"]);
            for k in ["x", "y", "width", "height"] {
                let d = (x[k].as_f64().unwrap() - y[k].as_f64().unwrap()).abs();
                assert!(d <= 0.5, "{key} {} {k}: {} vs {}", x["raw"], x[k], y[k]);
            }
        }
    }
}

fixture! {
    soffice_docx_places => "docx_places.docx",
    soffice_docx_clean_one_page => "docx_clean_one_page.docx",
    soffice_docx_comment => "docx_comment.docx",
    soffice_docx_curly_quotes => "docx_curly_quotes.docx",
    soffice_docx_ellipsis => "docx_ellipsis.docx",
    soffice_docx_en_dash => "docx_en_dash.docx",
    soffice_docx_format_change => "docx_format_change.docx",
    soffice_docx_fullwidth_hash => "docx_fullwidth_hash.docx",
    soffice_docx_nbsp => "docx_nbsp.docx",
    soffice_docx_text_box => "docx_text_box.docx",
    soffice_docx_wrapped_cell => "docx_wrapped_cell.docx",
    soffice_docx_tracked_deletion => "docx_tracked_deletion.docx",
    soffice_docx_tracked_insertion => "docx_tracked_insertion.docx",
    soffice_docx_vanish => "docx_vanish.docx",
    soffice_docx_white_text => "docx_white_text.docx",
    soffice_docx_vendor_adobe => "docx_vendor_adobe.docx",
    soffice_docx_vendor_boldsign => "docx_vendor_boldsign.docx",
    soffice_docx_vendor_documenso => "docx_vendor_documenso.docx",
    soffice_docx_vendor_docuseal => "docx_vendor_docuseal.docx",
    soffice_docx_vendor_dropbox => "docx_vendor_dropbox.docx",
    soffice_docx_vendor_pandadoc => "docx_vendor_pandadoc.docx",
    soffice_docx_vendor_signnow => "docx_vendor_signnow.docx",
    soffice_docx_not_word => "docx_not_word.docx",
    soffice_docx_ole => "docx_ole.docx",
    soffice_docx_truncated => "docx_truncated.docx",
    soffice_docx_damaged_xml => "docx_damaged_xml.docx",
    soffice_odt_places => "odt_places.odt",
    soffice_odt_clean_one_page => "odt_clean_one_page.odt",
    soffice_odt_autocorrected => "odt_autocorrected.odt",
    soffice_odt_comment => "odt_comment.odt",
    soffice_odt_format_change => "odt_format_change.odt",
    soffice_odt_hidden => "odt_hidden.odt",
    soffice_odt_tracked_changes => "odt_tracked_changes.odt",
    soffice_odt_white_text => "odt_white_text.odt",
    soffice_odt_not_text => "odt_not_text.odt",
}

/// A batch of templates: converted ahead in groups, every record in input order, a bad
/// one an error record and the batch goes on; a second run takes every PDF from the cache
/// and gives byte-identical output.
#[test]
#[ignore = "needs LibreOffice: run by CI with --ignored soffice_"]
fn soffice_a_batch_goes_on_past_a_bad_template_and_a_rerun_converts_nothing() {
    common::soffice_required("these tests");
    let tmp = scratch("templates", "batch");
    let cache = tmp.join("cache");
    let args = |jobs: &str| {
        vec![
            "scan".to_string(),
            "--format".into(),
            "ndjson".into(),
            "--jobs".into(),
            jobs.into(),
            "--type".into(),
            "docx,odt".into(),
            "--cache-dir".into(),
            cache.to_str().unwrap().into(),
            TEMPLATES.into(),
        ]
    };
    let a: Vec<String> = args("2");
    let first = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        first.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let recs = records(&first.stdout);
    let n = std::fs::read_dir(common::root().join(TEMPLATES))
        .unwrap()
        .count();
    assert_eq!(recs.len(), n);
    let paths: Vec<&str> = recs.iter().map(|r| r["path"].as_str().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted);
    let failed: Vec<&str> = recs
        .iter()
        .filter(|r| r["status"] == "error")
        .map(|r| r["error"]["code"].as_str().unwrap())
        .collect();
    assert!(
        !failed.is_empty() && failed.iter().all(|c| *c == "convert_failed"),
        "{failed:?}"
    );
    let b: Vec<String> = args("1");
    let second = run(&b.iter().map(String::as_str).collect::<Vec<_>>());
    // Every PDF from the cache: the records are the same bytes whatever the jobs (the
    // summary line's time aside).
    let strip = |o: &[u8]| records(o).iter().map(Value::to_string).collect::<Vec<_>>();
    // LibreOffice writes a new document id and date into every PDF it makes, so equal
    // `pdf_sha256`s mean the second run converted nothing.
    assert_eq!(strip(&first.stdout), strip(&second.stdout));
}

/// `migrate` of a template: the plan uploads the PDF LibreOffice made (written beside it,
/// stripped with --strip), which `check` passes and a scan finds no vendor tag in; the
/// findings name the template's paragraph; a template with an error is not written.
#[test]
#[ignore = "needs LibreOffice: run by CI with --ignored soffice_"]
fn soffice_migrate_of_a_template_uploads_its_pdf_stripped() {
    common::soffice_required("these tests");
    let tmp = scratch("templates", "migrate");
    let out = tmp.join("out");
    let o = run(&[
        "migrate",
        "--no-cache",
        "--out",
        out.to_str().unwrap(),
        "--strip",
        "--verbose",
        "--signer",
        "signer1=a@example.com",
        &format!("{TEMPLATES}/docx_vendor_dropbox.docx"),
        &format!("{TEMPLATES}/docx_curly_quotes.docx"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains(
            "error[template_tag_autocorrected]: body, paragraph 2 (\"{{t:s;r:y;o:“Client”;}}\")"
        ),
        "{err}"
    );
    assert!(
        err.contains("  --> template: body, paragraph 3 (\"signNow, typed plain: {{t:s;r:y;o:\"Client\";}}\")"),
        "{err}"
    );
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        ["docx_vendor_dropbox.json", "docx_vendor_dropbox.pdf"]
    );
    let plan = out.join("docx_vendor_dropbox.json");
    let c = run(&["check", "--format", "ndjson", plan.to_str().unwrap()]);
    assert_eq!(
        c.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&c.stdout)
    );
    let s = run(&[
        "scan",
        "--format",
        "ndjson",
        "--dialect",
        "all",
        out.join("docx_vendor_dropbox.pdf").to_str().unwrap(),
    ]);
    let recs = records(&s.stdout);
    assert_eq!(recs[0]["vendor_tags"], serde_json::json!([]), "{recs:?}");
}

/// `preview` draws a template's pages (the PDF LibreOffice made) and `report` lists its
/// findings led by their place in the template; a template that cannot be read is the
/// report's `convert_failed` section and the report goes on.
#[test]
#[ignore = "needs LibreOffice: run by CI with --ignored soffice_"]
fn soffice_preview_and_report_take_templates() {
    common::soffice_required("these tests");
    let tmp = scratch("templates", "preview");
    let o = run(&[
        "preview",
        "--no-cache",
        &format!("{TEMPLATES}/odt_places.odt"),
        "--out-dir",
        tmp.to_str().unwrap(),
    ]);
    assert!(
        tmp.join("odt_places-p1.png").is_file(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let html = tmp.join("r.html");
    let o = run(&[
        "report",
        "--no-cache",
        "-o",
        html.to_str().unwrap(),
        &format!("{TEMPLATES}/docx_places.docx"),
        &format!("{TEMPLATES}/docx_ole.docx"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<span class=\"source\">body, table row 2 column 2, paragraph 5 (&quot;&lt;# CELL_2_2 #&gt;&quot;)</span>"),
        "no source in the report"
    );
    assert!(page.contains("convert_failed"));
}

/// `check`, `report` and `migrate` walk folders for templates with `--type`, as `scan`.
#[test]
#[ignore = "needs LibreOffice: run by CI with --ignored soffice_"]
fn soffice_check_walks_a_folder_for_templates_with_type() {
    common::soffice_required("these tests");
    let o = run(&[
        "check", "--format", "ndjson", "--type", "docx,odt", TEMPLATES,
    ]);
    let recs = records(&o.stdout);
    let n = std::fs::read_dir(common::root().join(TEMPLATES))
        .unwrap()
        .count();
    assert_eq!(recs.len(), n, "{}", String::from_utf8_lossy(&o.stderr));
    let failed: Vec<&str> = recs
        .iter()
        .filter(|r| r["status"] == "error")
        .map(|r| r["error"]["code"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["convert_failed"; 5], "{recs:?}");
    // Without --type, a folder of templates has nothing to check.
    let o = run(&["check", "--format", "ndjson", TEMPLATES]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_type_option_names_what_it_takes() {
    let o = run(&["check", "--type", "doc", "."]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("invalid value 'doc' for '--type <TYPE[,TYPE]>'"),
        "{err}"
    );
    assert!(err.contains("[possible values: pdf, docx, odt]"), "{err}");
}
