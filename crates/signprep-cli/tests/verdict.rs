//! One verdict everywhere (issue 20): `pack` and `check` agree on every
//! manifest, an input with nothing in it fails, and every non-zero exit says
//! why in the last line on stderr. Each case's exit status and stderr is an
//! insta snapshot (`tests/snapshots/verdict__*.snap`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::root;

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs signprep in `dir` with `stdin` as standard input.
fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("signprep runs");
    let mut input = child.stdin.take().unwrap();
    // The command may not read it all (or at all).
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

fn run(args: &[&str]) -> Output {
    run_in(&root(), args, b"")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `status: N` and the stderr, for a snapshot.
fn shown(out: &Output) -> String {
    format!(
        "status: {:?}\n--- stderr ---\n{}",
        out.status.code(),
        text(&out.stderr)
    )
}

/// The last line of stderr.
fn last_line(out: &Output) -> String {
    text(&out.stderr)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

/// Every manifest input `check` knows: the cases, the clean manifest, the example.
fn manifests() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("testdata/check/cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| {
            p.strip_prefix(root())
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    out.sort();
    out.push("testdata/check/clean/manifest.toml".into());
    out.push("testdata/example/pack.toml".into());
    out
}

#[test]
fn pack_and_check_give_one_verdict_on_every_manifest() {
    let dir = common::scratch("verdict", "agree");
    let mut refused = 0;
    for manifest in manifests() {
        let check = run(&["check", "--format", "human", &manifest]);
        let written = dir.join("pack.json");
        let _ = std::fs::remove_file(&written);
        let pack = run(&["pack", &manifest, "-o", written.to_str().unwrap()]);
        let check_status = check.status.code().unwrap();
        let pack_status = pack.status.code().unwrap();
        assert!(
            check_status <= 1,
            "{manifest}: check: {}",
            text(&check.stderr)
        );
        assert_eq!(
            pack_status,
            check_status,
            "{manifest}: {}",
            text(&pack.stderr)
        );
        assert_eq!(written.exists(), pack_status == 0, "{manifest}: written");
        // The same findings, word for word, located in the manifest: `check`
        // on standard output before its summary line, `pack` on standard
        // error before its verdict line.
        let check_out = text(&check.stdout);
        let findings = check_out
            .rsplit_once("checked 1 file")
            .map(|(f, _)| f)
            .unwrap();
        let pack_err = text(&pack.stderr);
        let pack_findings = if pack_status == 0 {
            pack_err.as_str()
        } else {
            refused += 1;
            let (f, last) = pack_err
                .trim_end()
                .rsplit_once('\n')
                .unwrap_or(("", &pack_err));
            assert!(
                last.starts_with("error: ") && last.ends_with("; nothing written"),
                "{manifest}: {last}"
            );
            f
        };
        assert_eq!(
            pack_findings.trim_end(),
            findings.trim_end(),
            "{manifest}: pack and check disagree"
        );
        assert!(
            !findings.contains("#/documents/") || !findings.contains("data_fields"),
            "{manifest}: a pointer into the pack, not the manifest:\n{findings}"
        );
    }
    assert!(refused >= 15, "only {refused} manifests refused");
}

#[test]
fn manifest_findings_point_into_the_manifest() {
    let out = run(&[
        "pack",
        "testdata/check/cases/data_field_signer_unknown.manifest.toml",
    ]);
    insta::assert_snapshot!("pack_unknown_signer", shown(&out));
    let err = text(&out.stderr);
    assert!(err.contains("data_field_signer_unknown.manifest.toml#/fields/1/signer"));
    let out = run(&["pack", "testdata/check/cases/email_invalid.manifest.toml"]);
    insta::assert_snapshot!("pack_email_invalid", shown(&out));
    assert!(text(&out.stderr).contains("email_invalid.manifest.toml#/signers/1/email"));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_data_field_that_loses_a_value_is_an_error() {
    let out = run(&[
        "check",
        "--format",
        "human",
        "testdata/check/cases/custom_id_not_in_document.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("error[custom_id_not_in_document]"));
    let out = run(&[
        "check",
        "--format",
        "human",
        "testdata/check/cases/custom_id_not_in_document.empty.json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("warning[custom_id_not_in_document]"));
}

#[test]
fn nothing_to_scan_or_check_is_an_error() {
    let dir = common::scratch("verdict", "empty");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    std::fs::create_dir_all(dir.join("notes")).unwrap();
    std::fs::write(dir.join("notes/readme.txt"), "not a PDF").unwrap();
    std::fs::write(dir.join("list.txt"), "").unwrap();
    let cases: &[(&str, &[&str])] = &[
        (
            "scan_empty_folder",
            &["scan", "--format", "ndjson", "empty"],
        ),
        ("check_empty_folder", &["check", "empty"]),
        (
            "scan_glob_matches_nothing",
            &["scan", "notes", "-g", "*.PDF"],
        ),
        (
            "scan_files_from_empty_list",
            &["scan", "--files-from", "list.txt"],
        ),
        (
            "scan_files_from_empty_stdin",
            &["scan", "--files-from", "-"],
        ),
        ("check_folder_of_other_files", &["check", "notes"]),
        ("report_empty_folder", &["report", "empty", "-o", "r.html"]),
        ("migrate_empty_folder", &["migrate", "empty"]),
        ("preview_empty_folder", &["preview", "empty", "-o", "png"]),
    ];
    for (name, args) in cases {
        let out = run_in(&dir, args, b"");
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(last_line(&out).starts_with("error: nothing to "), "{name}");
        assert!(!dir.join("r.html").exists());
        insta::assert_snapshot!(*name, shown(&out));
    }
    for args in [
        &["scan", "--allow-empty", "--format", "ndjson", "empty"][..],
        &["check", "--allow-empty", "empty"],
        &["scan", "--allow-empty", "--files-from", "list.txt"],
    ] {
        let out = run_in(&dir, args, b"");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn every_failure_says_why_in_its_last_line() {
    let dir = common::scratch("verdict", "why");
    // A flat JSON object of strings that is no request: never "no problems found".
    std::fs::write(
        dir.join("package.json"),
        r#"{"name": "pkg", "version": "1.0.0"}"#,
    )
    .unwrap();
    // Nothing to send: an empty request plan, and a manifest whose only child
    // is a template (nothing for --v0).
    std::fs::write(dir.join("plan.json"), r#"{"requests": []}"#).unwrap();
    std::fs::write(
        dir.join("template.toml"),
        "name = \"x\"\n[[signers]]\nhandle = \"a\"\nemail = \"a@example.com\"\nrole = \"Client\"\n[[documents]]\ntemplate = \"TPL\"\n",
    )
    .unwrap();
    let fixtures = root().join("testdata/fixtures");
    let check = root().join("testdata/check");
    let f = |p: &Path| p.to_str().unwrap().to_string();
    let lower = f(&check.join("cases/tag_id_not_uppercase.pdf"));
    let clean = f(&check.join("clean"));
    let cases: Vec<(&str, Vec<String>, u8)> = vec![
        (
            "report_missing_file",
            vec!["report".into(), "nonexist.pdf".into()],
            2,
        ),
        (
            "scan_missing_file",
            vec!["scan".into(), "nonexist.pdf".into()],
            2,
        ),
        (
            "check_missing_file",
            vec!["check".into(), "nonexist.pdf".into()],
            2,
        ),
        (
            "pack_missing_manifest",
            vec!["pack".into(), "nonexist.toml".into()],
            2,
        ),
        (
            "preview_error_findings",
            vec!["preview".into(), lower.clone(), "-o".into(), "png".into()],
            1,
        ),
        (
            "scan_error_findings",
            vec![
                "scan".into(),
                "--format".into(),
                "ndjson".into(),
                lower.clone(),
            ],
            1,
        ),
        (
            "check_error_findings",
            vec![
                "check".into(),
                "--format".into(),
                "ndjson".into(),
                lower.clone(),
            ],
            1,
        ),
        (
            "check_deny_warnings",
            vec![
                "check".into(),
                "--format".into(),
                "ndjson".into(),
                "--deny".into(),
                "warnings".into(),
                f(&check.join("cases/signers_missing.json")),
            ],
            1,
        ),
        (
            "report_error_findings",
            vec![
                "report".into(),
                lower.clone(),
                "-o".into(),
                "r.html".into(),
                "--max-pages".into(),
                "0".into(),
            ],
            1,
        ),
        (
            "preview_no_page",
            vec![
                "preview".into(),
                f(&root().join("testdata/hostile/pagetree_declared_empty.pdf")),
                "-o".into(),
                "png".into(),
            ],
            1,
        ),
        (
            "scan_no_page",
            vec![
                "scan".into(),
                "--format".into(),
                "ndjson".into(),
                f(&root().join("testdata/hostile/pagetree_declared_empty.pdf")),
            ],
            1,
        ),
        ("check_empty_stdin", vec!["check".into(), "-".into()], 2),
        (
            "check_empty_request_plan",
            vec!["check".into(), "plan.json".into()],
            1,
        ),
        (
            "pack_v0_nothing_to_send",
            vec![
                "pack".into(),
                "template.toml".into(),
                "--v0".into(),
                "-o".into(),
                "v0.json".into(),
            ],
            1,
        ),
        (
            "preview_manifest_nothing_to_draw",
            vec![
                "preview".into(),
                "--manifest".into(),
                "template.toml".into(),
                "-o".into(),
                "png".into(),
            ],
            1,
        ),
        (
            "preview_pages_past_every_child",
            vec![
                "preview".into(),
                "--manifest".into(),
                f(&root().join("testdata/example/pack.toml")),
                "--pages".into(),
                "5".into(),
                "-o".into(),
                "png".into(),
            ],
            2,
        ),
        (
            "check_package_json",
            vec!["check".into(), "package.json".into()],
            2,
        ),
        ("pack_no_manifest", vec!["pack".into()], 2),
        (
            "preview_folder_of_pdfs",
            vec!["preview".into(), f(&fixtures), "-o".into(), "png".into()],
            2,
        ),
        (
            "preview_manifest_is_a_folder",
            vec!["preview".into(), "--manifest".into(), f(&check)],
            2,
        ),
        (
            "explain_unknown_code",
            vec!["explain".into(), "tag_id_lowercase".into()],
            2,
        ),
        (
            "dpi_negative",
            vec!["scan".into(), "--dpi".into(), "-5".into(), f(&fixtures)],
            2,
        ),
        (
            "jobs_negative",
            vec!["check".into(), "--jobs".into(), "-1".into(), clean],
            2,
        ),
    ];
    for (name, args, status) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_in(&dir, &args, b"");
        assert_eq!(
            out.status.code(),
            Some(i32::from(status)),
            "{name}: {}",
            text(&out.stderr)
        );
        let last = last_line(&out);
        assert!(last.starts_with("error: "), "{name}: {last}");
        let shown = shown(&out).replace(&f(&root()), "ROOT");
        insta::assert_snapshot!(name, shown);
    }
    assert!(
        !dir.join("v0.json").exists(),
        "an empty v0 plan is not written"
    );
}
