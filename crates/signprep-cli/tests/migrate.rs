//! `signprep migrate` as a user runs it on the generated vendor-tagged
//! contracts (`testdata/migrate`), then `signprep check` on its output, and
//! `signprep scan --dialect` on the same files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{scratch, testdata};
use std::path::Path;
use std::process::{Command, Output};

/// `signprep ARGS` in `testdata/migrate` (so uploads are written as the
/// file names given).
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("signprep runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const SIGNERS: [&str; 4] = [
    "--signer",
    "signer1=client@example.com",
    "--signer",
    "signer2=Wendy Ward <wendy@example.com>",
];

#[test]
fn contracts_are_current() {
    for f in signprep_testgen::try_migrate_contracts().unwrap() {
        let path = testdata("migrate").join(format!("{}.pdf", f.name));
        assert!(
            std::fs::read(&path).ok().as_deref() == Some(f.pdf.as_slice()),
            "{} is stale: run `cargo run -p signprep-testgen -- --migrate testdata/migrate`",
            path.display()
        );
    }
}

#[test]
fn migrated_contracts_pass_check_and_do_not_depend_on_threads() {
    let dir = testdata("migrate");
    let one = scratch("migrate", "one");
    let two = scratch("migrate", "two");
    for (out, jobs) in [(&one, "1"), (&two, "2")] {
        let mut args = vec![
            "migrate",
            "adobe_contract.pdf",
            "dropbox_contract.pdf",
            "-q",
            "-j",
            jobs,
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend(SIGNERS);
        let o = run_in(&dir, &args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let err = text(&o.stderr).replace(out.to_str().unwrap(), "OUT");
        insta::assert_snapshot!("migrate_stderr", err);
    }
    for name in ["adobe_contract.json", "dropbox_contract.json"] {
        let a = std::fs::read_to_string(one.join(name)).unwrap();
        let b = std::fs::read_to_string(two.join(name)).unwrap();
        assert_eq!(a, b, "{name} differs between -j 1 and -j 2");
        let mut v: serde_json::Value = serde_json::from_str(&a).unwrap();
        // The upload is written from the plan's folder (which depends on
        // where the target folder is): checked here, redacted below.
        let upload = v["requests"][0]["upload"].as_str().unwrap();
        assert_eq!(
            one.join(upload).canonicalize().unwrap(),
            dir.join(name.replace(".json", ".pdf"))
                .canonicalize()
                .unwrap()
        );
        v["requests"][0]["upload"] = "[the PDF, from the plan's folder]".into();
        insta::with_settings!({ snapshot_suffix => name.trim_end_matches(".json") }, {
            insta::assert_json_snapshot!("migrate", v);
        });
        // The same rules as any other body: every signer has an email, so clean.
        let c = run_in(
            &dir,
            &[
                "check",
                "--format",
                "json",
                one.join(name).to_str().unwrap(),
            ],
        );
        assert_eq!(c.status.code(), Some(0), "{name}: {}", text(&c.stdout));
        let report: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap();
        let findings = report.to_string();
        assert!(!findings.contains("\"severity\":\"error\""), "{findings}");
    }
}

#[test]
fn a_migrated_plan_travels_its_upload_relative_to_the_plan() {
    let dir = testdata("migrate");
    let out = scratch("migrate", "upload");
    let plans = out.join("plans");
    let mut args = vec![
        "migrate",
        "dropbox_contract.pdf",
        "-q",
        "-o",
        plans.to_str().unwrap(),
    ];
    args.extend(SIGNERS);
    assert_eq!(run_in(&dir, &args).status.code(), Some(0));
    let body = plans.join("dropbox_contract.json");
    let plan: serde_json::Value = serde_json::from_slice(&std::fs::read(&body).unwrap()).unwrap();
    let upload = plan["requests"][0]["upload"].as_str().unwrap();
    assert!(Path::new(upload).is_relative(), "{upload}");
    assert_eq!(
        plans.join(upload).canonicalize().unwrap(),
        dir.join("dropbox_contract.pdf").canonicalize().unwrap(),
        "{upload} is the PDF, from the plan's folder"
    );
    // Checked from another folder (the plan's own, the scratch folder, the
    // root), by a relative and an absolute path: the upload is read.
    for (cwd, path) in [
        (&*plans, "dropbox_contract.json".to_string()),
        (&*out, "plans/dropbox_contract.json".to_string()),
        (Path::new("/"), body.to_str().unwrap().to_string()),
    ] {
        let c = run_in(cwd, &["check", "--format", "json", &path]);
        assert_eq!(
            c.status.code(),
            Some(0),
            "{}: {}",
            cwd.display(),
            text(&c.stdout)
        );
        assert!(!text(&c.stdout).contains("io_error"));
    }
    // Moved with its PDF, it still checks: the plan names the PDF beside it.
    let moved = out.join("moved");
    std::fs::create_dir_all(moved.join("plans")).unwrap();
    std::fs::copy(dir.join("dropbox_contract.pdf"), moved.join("x.pdf")).unwrap();
    let mut plan = plan;
    plan["requests"][0]["upload"] = "../x.pdf".into();
    std::fs::write(moved.join("plans/p.json"), plan.to_string()).unwrap();
    let c = run_in(
        Path::new("/"),
        &["check", moved.join("plans/p.json").to_str().unwrap()],
    );
    assert_eq!(c.status.code(), Some(0), "{}", text(&c.stdout));
}

#[test]
fn a_plan_on_standard_output_names_its_upload_absolutely() {
    let dir = testdata("migrate");
    let mut args = vec!["migrate", "dropbox_contract.pdf", "-q"];
    args.extend(SIGNERS);
    let o = run_in(&dir, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let plan: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let upload = plan["requests"][0]["upload"].as_str().unwrap();
    assert_eq!(
        Path::new(upload),
        dir.canonicalize().unwrap().join("dropbox_contract.pdf")
    );
    // Saved anywhere, it checks from anywhere.
    let out = scratch("migrate", "stdout");
    std::fs::write(out.join("plan.json"), &o.stdout).unwrap();
    let c = run_in(
        Path::new("/"),
        &["check", out.join("plan.json").to_str().unwrap()],
    );
    assert_eq!(c.status.code(), Some(0), "{}", text(&c.stdout));
}

/// `migrate dropbox_contract.pdf -o DIR ARGS` in `testdata/migrate`: exit
/// status, stderr, and the files written.
fn migrate_signers(name: &str, extra: &[&str]) -> (Option<i32>, String, usize) {
    let out = scratch("migrate", name);
    let mut args = vec![
        "migrate",
        "dropbox_contract.pdf",
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = run_in(&testdata("migrate"), &args);
    let err = text(&o.stderr).replace(out.to_str().unwrap(), "OUT");
    (
        o.status.code(),
        err,
        std::fs::read_dir(&*out).unwrap().count(),
    )
}

#[test]
fn signer_map_mistakes_stop_the_pdf_and_nothing_is_written() {
    let bad_file = scratch("migrate", "signers-file");
    let file = bad_file.join("signers.toml");
    std::fs::write(
        &file,
        "[[signers]]\nhandle = \"signer1\"\nemail = \"wendy@example\"\n",
    )
    .unwrap();
    let cases: [(&str, Vec<&str>); 4] = [
        (
            "not_an_email",
            vec![
                "--signer",
                "signer1=not-an-email",
                "--signer",
                "2=b@example.com",
            ],
        ),
        (
            "no_tld",
            vec![
                "--signer",
                "signer1=c@example.com",
                "--signer",
                "signer2=wendy@example",
            ],
        ),
        (
            "unknown_key",
            [&SIGNERS[..], &["--signer", "signer9=c@example.com"]].concat(),
        ),
        ("file", vec!["--signers", file.to_str().unwrap()]),
    ];
    for (name, args) in cases {
        let (status, err, written) = migrate_signers(name, &args);
        assert_eq!(status, Some(1), "{name}: {err}");
        assert_eq!(written, 0, "{name}: nothing written");
        // The error-level findings and the last lines: the snapshot of the mistake.
        let mut keep = false;
        let shown: Vec<&str> = err
            .lines()
            .filter(|l| {
                if l.starts_with("warning[") || l.starts_with("info[") {
                    keep = false;
                } else if !l.starts_with("  ") {
                    keep = true;
                }
                keep
            })
            .collect();
        insta::assert_snapshot!(format!("signer_map_{name}"), shown.join("\n"));
    }
    // A name with a space is a name with no address, as documented before: a warning.
    let (status, err, written) = migrate_signers(
        "name_only",
        &[
            "--signer",
            "signer1=c@example.com",
            "--signer",
            "signer2=Wendy Ward",
        ],
    );
    assert_eq!((status, written), (Some(0), 1), "{err}");
    assert!(err.contains("warning[migrate_signer_unmapped]"), "{err}");
}

#[test]
fn check_warns_of_signatories_without_email_and_errors_when_it_requests_signatures() {
    let out = scratch("migrate", "no-email");
    let o = run_in(
        &testdata("migrate"),
        &[
            "migrate",
            "dropbox_contract.pdf",
            "-q",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let plan_path = out.join("dropbox_contract.json");
    let c = run_in(
        &out,
        &["check", "--format", "human", "dropbox_contract.json"],
    );
    assert_eq!(c.status.code(), Some(0), "{}", text(&c.stdout));
    insta::assert_snapshot!("check_signatory_email_missing", text(&c.stdout));
    // The same plan asking for signatures when ready: an error.
    let mut plan: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&plan_path).unwrap()).unwrap();
    plan["requests"][0]["query"] = serde_json::json!({"auto_request_signatures_when_ready": true});
    std::fs::write(out.join("sending.json"), plan.to_string()).unwrap();
    let c = run_in(&out, &["check", "--format", "json", "sending.json"]);
    assert_eq!(c.status.code(), Some(1), "{}", text(&c.stdout));
    let v: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap();
    let codes: Vec<&str> = v["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "request_signatures_without_email",
            "request_signatures_without_email"
        ],
        "{v:#}"
    );
}

#[test]
fn a_pdf_without_vendor_tags_is_an_error_and_nothing_is_written() {
    let out = scratch("migrate", "empty");
    let fixtures = testdata("fixtures");
    let o = run_in(
        &fixtures,
        &["migrate", "base14_courier.pdf", "-o", out.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("error[migrate_no_fields]"), "{err}");
    assert!(
        err.contains(
            "base14_courier.pdf: 0 vendor tags -> 0 fields, 0 left out; 0 signers -> not written"
        ),
        "{err}"
    );
    assert!(
        err.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("error: base14_courier.pdf not migrated")
    );
    assert_eq!(std::fs::read_dir(&*out).unwrap().count(), 0);
}

#[test]
fn usage_errors_exit_2() {
    let dir = testdata("migrate");
    let two = run_in(
        &dir,
        &["migrate", "adobe_contract.pdf", "dropbox_contract.pdf"],
    );
    assert_eq!(two.status.code(), Some(2));
    assert!(text(&two.stderr).contains("no --out DIR"));
    let bad = run_in(
        &dir,
        &["migrate", "adobe_contract.pdf", "--signer", "nobody"],
    );
    assert_eq!(bad.status.code(), Some(2));
    let missing = run_in(&dir, &["migrate", "no_such.pdf"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn help_carries_the_type_table() {
    let o = run_in(&testdata("migrate"), &["migrate", "--help"]);
    let help = text(&o.stdout);
    for row in signprep_pack::migrate::TYPE_TABLE {
        assert!(
            help.contains(&format!(
                "{:<12} -> {:<10}",
                row.kind,
                row.service.unwrap_or("(left out)")
            )),
            "--help lacks {}",
            row.kind
        );
    }
    // The table is on one page of the README or the guide, whichever holds it.
    let guide = common::guide();
    for row in signprep_pack::migrate::TYPE_TABLE {
        let service = row
            .service
            .map_or("left out".to_string(), |s| format!("`{s}`"));
        assert!(
            guide
                .iter()
                .flat_map(|(_, t)| t.lines())
                .any(|l| l.starts_with("| ")
                    && l.split('|').nth(1).is_some_and(|k| k.contains(row.kind))
                    && l.contains(&format!("| {service} |"))),
            "no table in the README or docs/src has {} -> {service}",
            row.kind
        );
    }
}

#[test]
fn scan_dialect_records() {
    let o = run_in(
        &testdata("migrate"),
        &[
            "scan",
            "--dialect",
            "all",
            "--no-fields",
            "--format",
            "json",
            "dropbox_contract.pdf",
            "adobe_contract.pdf",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    insta::assert_json_snapshot!("scan_dialect_all", v);
}

#[test]
fn preview_draws_the_migrated_fields_over_their_tags() {
    let out = scratch("migrate", "preview");
    let o = run_in(
        &testdata("migrate"),
        &[
            "preview",
            "--dialect",
            "all",
            "--dpi",
            "72",
            "--overlay-json",
            "dropbox_contract.pdf",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(out.join("dropbox_contract-p1.png").exists());
    let overlay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("dropbox_contract-p1.json")).unwrap())
            .unwrap();
    // At 72 dpi the boxes are the migrate output's own coordinates (snapshot
    // `migrate@dropbox_contract`): each placed field sits on its tag.
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
    insta::assert_snapshot!("preview_dialect_boxes", rows.join("\n"));
}

/// `migrate PDFS... -q SIGNERS -o DIR` with a test hook (`SIGNPREP_TEST_PANIC`
/// or `SIGNPREP_TEST_HANG`) set to `dropbox_contract.pdf`: its stderr and exit status,
/// and the files written.
fn migrate_with_hook(
    hook: &str,
    pdfs: [&str; 2],
    extra: &[&str],
) -> (Option<i32>, String, Vec<String>) {
    let out = scratch("migrate", hook);
    let o = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .arg("migrate")
        .args(pdfs)
        .arg("-q")
        .args(extra)
        .args(SIGNERS)
        .arg("-o")
        .arg(&*out)
        .env(hook, "dropbox_contract.pdf")
        .current_dir(testdata("migrate"))
        .output()
        .unwrap();
    let written: Vec<String> = std::fs::read_dir(&*out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    (o.status.code(), text(&o.stderr), written)
}

#[test]
fn a_panic_is_one_pdf_not_migrated_with_exit_1() {
    // SIGNPREP_TEST_PANIC (test builds only: the core's `testing` feature) forces a panic for this input:
    // it is that PDF's internal error (exit status 1, as in `scan`, `check`
    // and `pack`), and the other PDF is migrated.
    let (status, err, written) = migrate_with_hook(
        "SIGNPREP_TEST_PANIC",
        ["adobe_contract.pdf", "dropbox_contract.pdf"],
        &[],
    );
    assert_eq!(status, Some(1), "{err}");
    let internal = "dropbox_contract.pdf: internal error (please report it with the file): signprep stopped on an unexpected state";
    assert!(err.contains(&format!("{internal}\n")), "{err}");
    // The last line says why in `scan`'s and `report`'s words (one summary).
    assert!(
        err.ends_with("error: dropbox_contract.pdf could not be migrated (internal_error)\n"),
        "the last line says why: {err}"
    );
    assert_eq!(written, ["adobe_contract.json"]);
}

#[test]
fn a_pdf_that_hangs_with_one_worker_is_given_up_on_with_exit_1() {
    // SIGNPREP_TEST_HANG (test builds only: the core's `testing` feature) makes this input block for good;
    // the watchdog gives up on it after twice --timeout-per-file plus 5 s (its
    // words name that limit, never a measured time), a replacement worker
    // migrates the PDF after it, and the exit status is 1, as for a panic.
    let (status, err, written) = migrate_with_hook(
        "SIGNPREP_TEST_HANG",
        ["dropbox_contract.pdf", "adobe_contract.pdf"],
        &["--jobs", "1", "--timeout-per-file", "100ms"],
    );
    assert_eq!(status, Some(1), "{err}");
    let given_up = "dropbox_contract.pdf: no result within the 5.2 s watchdog (time budget 0.1 s): the file was given up on and the batch went on";
    assert!(err.contains(&format!("{given_up}\n")), "{err}");
    assert!(
        err.ends_with("error: dropbox_contract.pdf could not be migrated (pdf_limit_exceeded)\n"),
        "the last line says why: {err}"
    );
    assert_eq!(written, ["adobe_contract.json"]);
}

#[test]
fn scan_table_counts_vendor_tag_pages_from_1() {
    // As every other line for people does (`page` column, messages, previews).
    let o = run_in(
        &testdata("migrate"),
        &[
            "scan",
            "--dialect",
            "all",
            "--no-fields",
            "--format",
            "table",
            "dropbox_contract.pdf",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    let vendor: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  dropbox "))
        .collect();
    assert!(!vendor.is_empty());
    insta::assert_snapshot!("scan_dialect_table", vendor.join("\n"));
}

#[test]
fn migrate_says_its_notes_in_one_line_per_code_unless_verbose() {
    let dir = testdata("migrate");
    let out = scratch("migrate", "brief");
    let mut args = vec!["migrate", "adobe_contract.pdf", "-o", out.to_str().unwrap()];
    args.extend(SIGNERS);
    let brief = run_in(&dir, &args);
    assert_eq!(brief.status.code(), Some(0), "{}", text(&brief.stderr));
    let brief = text(&brief.stderr).replace(out.to_str().unwrap(), "OUT");
    insta::assert_snapshot!("migrate_stderr_brief", brief);

    args.push("--verbose");
    let verbose = run_in(&dir, &args);
    assert_eq!(verbose.status.code(), Some(0));
    let verbose = text(&verbose.stderr).replace(out.to_str().unwrap(), "OUT");
    // Every note in full: its line, where it is and a hint.
    let notes = verbose.matches("info[vendor_tag_visible]").count();
    assert!(notes > 1, "{verbose}");
    assert!(verbose.matches("  = hint: ").count() >= notes, "{verbose}");
    assert!(
        brief.contains(&format!("info[vendor_tag_visible]: {notes} notes on page")),
        "{brief}"
    );
    assert_eq!(brief.matches("info[vendor_tag_visible]").count(), 1);
}

#[test]
fn strip_writes_a_copy_without_the_vendor_tags_and_uploads_it() {
    let dir = testdata("migrate");
    let out = scratch("migrate", "strip");
    let input = dir.join("strip_contract.pdf");
    let before = std::fs::read(&input).unwrap();
    let o = run_in(
        &dir,
        &[
            "migrate",
            "strip_contract.pdf",
            "--strip",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    for code in ["strip_tag_kept", "strip_refused", "strip_signature"] {
        assert!(!err.contains(code), "nothing kept or refused: {err}");
    }
    // A stripped tag no longer shows, so it is not reported visible.
    assert!(
        !err.contains("{{Seller;type=signature;role=Seller}}` is painted"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&input).unwrap(),
        before,
        "the input is untouched"
    );
    let copy = out.join("strip_contract.pdf");
    let plan: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("strip_contract.json")).unwrap()).unwrap();
    // The plan uploads the copy, named from the plan's folder as every
    // upload is (the plan travels with it).
    assert_eq!(
        plan["requests"][0]["upload"].as_str(),
        Some("strip_contract.pdf"),
        "the plan uploads the copy"
    );
    let s = run_in(&dir, &["scan", "--dialect", "all", copy.to_str().unwrap()]);
    assert_eq!(s.status.code(), Some(0), "{}", text(&s.stderr));
    let record = text(&s.stdout);
    // Every vendor tag goes, the ones left out of the request (read-only,
    // initials unmapped) too: their syntax would stay printed on the upload.
    for gone in [
        "{{Client",
        "{{Date",
        "{{City",
        "{{Seller",
        "{{Ref",
        "{{Initials",
    ] {
        assert!(
            !record.contains(gone),
            "{gone} is still in the copy: {record}"
        );
    }
    let c = run_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            out.join("strip_contract.json").to_str().unwrap(),
        ],
    );
    assert!(
        !text(&c.stdout).contains("\"severity\":\"error\""),
        "{}",
        text(&c.stdout)
    );
}

#[test]
fn strip_needs_an_out_folder() {
    let o = run_in(
        &testdata("migrate"),
        &["migrate", "strip_contract.pdf", "--strip"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

#[test]
fn strip_takes_out_the_dropbox_definitions_with_their_references() {
    let dir = testdata("fixtures");
    let out = scratch("migrate", "strip_defs");
    let o = run_in(
        &dir,
        &[
            "migrate",
            "vendor_dropbox_defs.pdf",
            "--dialect",
            "dropbox",
            "--strip",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(!err.contains("strip_tag_kept"), "{err}");
    let copy = out.join("vendor_dropbox_defs.pdf");
    let s = run_in(
        &dir,
        &["scan", "--dialect", "dropbox", copy.to_str().unwrap()],
    );
    assert_eq!(s.status.code(), Some(0), "{}", text(&s.stderr));
    let record = text(&s.stdout);
    // `[$nm]` became a text field: it goes, and so does its (white)
    // definition on page 2; the signature goes too; and so do the
    // checkboxes (no service type: left out of the request) and their
    // definitions.
    for gone in [
        "[$nm]",
        "[def:$nm|",
        "[sig|req|signer1",
        "[def:$chk|check|req2|signer1]",
        "[$chk]",
        "[def:$chk2|",
        "[$chk2]",
    ] {
        assert!(
            !record.contains(gone),
            "{gone} is still in the copy: {record}"
        );
    }
}

/// A plan that cannot be written (its name taken by a folder) is one PDF not
/// migrated: the total counts it once (it counted it twice: `3 PDFs, 2
/// migrated, 1 not` for two PDFs).
#[test]
fn a_plan_that_cannot_be_written_is_counted_once() {
    let dir = testdata("migrate");
    let out = scratch("migrate", "unwritable");
    std::fs::create_dir_all(out.join("dropbox_contract.json")).unwrap();
    let mut args = vec![
        "migrate",
        "adobe_contract.pdf",
        "dropbox_contract.pdf",
        "-q",
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend(SIGNERS);
    let o = run_in(&dir, &args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    let total = err
        .lines()
        .find(|l| l.starts_with("migrate: "))
        .unwrap_or_else(|| panic!("no total line in {err}"));
    assert!(
        total.starts_with("migrate: 2 PDFs, 1 migrated, 1 not;"),
        "{total}"
    );
}
