//! `signprep check` and `signprep explain` as a user runs them.
//!
//! The fixtures in `testdata/check/` are generated
//! (`cargo run -p signprep-testgen -- --preflight testdata/check`): `clean/`
//! holds one body of each kind with no finding, `cases/CODE[.VARIANT].EXT` a
//! clean body with one change that triggers exactly `CODE`. Each case's human
//! and JSON output is an insta snapshot (`tests/snapshots/check__CASE.snap`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::run;

use serde_json::{Value, json};
use signprep_pack::PackCode;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const TEMPLATE: &str = "testdata/check/templates/pricing.json";

/// Codes a case (by its code, or `CODE.VARIANT`) triggers besides its own,
/// because they cannot be told apart.
const COMPANIONS: &[(&str, &[&str])] = &[
    // sms needs both a mobile number and the channel enabled on the account.
    ("channel_needs_mobile", &["channel_needs_enablement"]),
    (
        "mobile_not_international.sms",
        &["channel_needs_enablement"],
    ),
    // A data field with neither data nor a signer names nothing real either.
    ("custom_id_not_in_document.empty", &["data_field_empty"]),
    // The signer whose fields name nobody, and one of two signers sharing a
    // handle, are left with nowhere to sign.
    (
        "data_field_signer_unknown.manifest",
        &["signer_without_signature_field"],
    ),
    (
        "signer_handle_duplicate",
        &["signer_without_signature_field"],
    ),
    // A signatory with neither contact has no email either.
    ("two_factor_without_contact", &["signatory_email_missing"]),
];

/// Codes `signprep check` cannot report: only `signprep pack --v0`/`--populate` do.
const PACK_ONLY: &[PackCode] = &[
    PackCode::V0NeedsPdf,
    PackCode::SettingDropped,
    PackCode::PopulateSignerIgnored,
    PackCode::PopulateIgnored,
];

/// The rules issue 5 lists, each of which must be a code.
const ISSUE_RULES: &[&str] = &[
    "signer_email_missing",
    "email_invalid",
    "mobile_not_international",
    "channel_unknown",
    "channel_needs_mobile",
    "channel_needs_enablement",
    "signer_uuid_invalid",
    "signer_uuid_duplicate",
    "signer_without_signature_field",
    "role_missing_for_template",
    "data_field_signer_unknown",
    "custom_id_not_in_document",
    "data_for_signature_field",
    "background_colour_invalid",
    "tag_without_data_field",
    "template_with_apply_extracted_fields",
    "syntax_doc_missing_extract_flag",
    "form_doc_missing_flags",
    "document_source_ambiguous",
    "document_source_missing",
    "base64_invalid",
    "document_without_tags",
    "document_without_form_fields",
    "workspace_defaults_without_team",
    "payload_large",
    "post_signing_url_invalid",
    "reply_email_invalid",
    "two_factor_without_contact",
    "populate_key_unknown",
    "populate_index_gap",
    "v0_tag_not_in_pdf",
    "request_signatures_without_email",
    "update_field_outside_setup",
    "callback_not_https",
    "callback_localhost",
    "entity_key_missing",
    "secret_in_body",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// `check --format json`: the exit status and the parsed output.
fn check_json(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = run(&all);
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&out)));
    (out.status.code(), v)
}

/// The codes of every finding of every file.
fn codes(v: &Value) -> BTreeSet<String> {
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["findings"].as_array().unwrap().iter())
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

fn severities(v: &Value) -> BTreeSet<String> {
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["findings"].as_array().unwrap().iter())
        .map(|f| f["severity"].as_str().unwrap().to_string())
        .collect()
}

fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("testdata/check/cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// `payload_large.json` → `payload_large`; `callback_not_https.subscription.json` → `callback_not_https`.
fn code_of(path: &Path) -> String {
    let name = path.file_name().unwrap().to_str().unwrap();
    name.split('.').next().unwrap().to_string()
}

fn extra_args(code: &str) -> Vec<&'static str> {
    match code {
        "payload_large" => vec!["--max-payload", "1K"],
        _ => Vec::new(),
    }
}

#[test]
fn fixtures_are_current() {
    let dir = root().join("testdata/check");
    let files = signprep_testgen::preflight::files().unwrap();
    let mut expected = BTreeSet::new();
    for f in &files {
        let path = dir.join(&f.path);
        assert!(
            std::fs::read(&path).ok().as_deref() == Some(f.bytes.as_slice()),
            "{} is stale: run `cargo run -p signprep-testgen -- --preflight testdata/check`",
            path.display()
        );
        expected.insert(path);
    }
    for sub in ["cases", "clean", "pdfs", "templates"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let p = e.unwrap().path();
            assert!(expected.contains(&p), "{} is not generated", p.display());
        }
    }
}

#[test]
fn every_case_triggers_exactly_its_code() {
    for path in case_files() {
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let code = code_of(&path);
        let mut args = vec!["--template", TEMPLATE];
        args.extend(extra_args(&code));
        args.push(&rel);
        let (status, v) = check_json(&args);
        let mut expected: BTreeSet<String> = BTreeSet::from([code.clone()]);
        let name = path.file_name().unwrap().to_str().unwrap();
        for (c, more) in COMPANIONS {
            if *c == code || (c.contains('.') && name.starts_with(&format!("{c}."))) {
                expected.extend(more.iter().map(|m| m.to_string()));
            }
        }
        assert_eq!(codes(&v), expected, "{rel}");
        let sev = severities(&v);
        assert_eq!(
            status,
            Some(i32::from(sev.contains("error"))),
            "{rel}: exit status"
        );
        let mut denied = vec!["--deny", "warnings"];
        denied.extend_from_slice(&args);
        let (status, _) = check_json(&denied);
        let fails = sev.contains("error") || sev.contains("warning");
        assert_eq!(
            status,
            Some(i32::from(fails)),
            "{rel}: exit status with --deny warnings"
        );

        let mut human = vec!["check", "--format", "human"];
        human.extend_from_slice(&args);
        let text = stdout(&run(&human));
        let snapshot = format!(
            "{text}\n---- json ----\n{}\n",
            serde_json::to_string_pretty(&v["files"][0]).unwrap()
        );
        let name = path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .replace('.', "_");
        insta::assert_snapshot!(name, snapshot);
    }
}

#[test]
fn clean_fixtures_have_no_finding() {
    let (status, v) = check_json(&[
        "--deny",
        "warnings",
        "--template",
        TEMPLATE,
        "testdata/check/clean",
        "testdata/check/pdfs",
        "testdata/check/templates",
    ]);
    assert_eq!(status, Some(0), "{v:#}");
    assert!(codes(&v).is_empty(), "{v:#}");
    let kinds: BTreeSet<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    let all = [
        "manifest",
        "pack",
        "pdf",
        "populate",
        "requests",
        "subscription",
        "v0",
        "webhook",
    ];
    assert_eq!(kinds, BTreeSet::from(all), "one clean input of each kind");
    assert_eq!(v["summary"]["files"], 12);
}

#[test]
fn every_rule_has_a_case() {
    for name in ISSUE_RULES {
        assert!(PackCode::from_name(name).is_some(), "no code {name}");
    }
    let cases: BTreeSet<String> = case_files().iter().map(|p| code_of(p)).collect();
    let missing: Vec<&str> = PackCode::ALL
        .iter()
        .filter(|c| !PACK_ONLY.contains(c))
        .map(|c| c.as_str())
        // `migrate_*` codes are made by `signprep migrate`, not by a check
        // rule; tests/migrate.rs covers them.
        .filter(|c| !c.starts_with("migrate_"))
        // `kind_unknown` skips a file, and a file alone is "nothing to
        // check" (exit 2); `check_classifies_before_it_judges` covers it.
        .filter(|c| *c != "kind_unknown")
        // `manifest_path_normalised` needs a file named in NFD, which a
        // checkout may not keep; check_edges.rs makes one at test time.
        .filter(|c| *c != "manifest_path_normalised")
        // `form_part_unused` is made by `signprep serve`'s forms alone (a PDF
        // part no manifest path names); serve_edges.rs covers it.
        .filter(|c| *c != "form_part_unused")
        .filter(|c| !cases.contains(*c))
        .collect();
    // A PDF that cannot be read has the core's code in `check` as in `scan`
    // (a non-PDF embedded and alone, a missing upload).
    for file_code in ["pdf_unreadable", "io_error"] {
        assert!(cases.contains(file_code), "no case {file_code}");
    }
    assert!(missing.is_empty(), "codes without a case: {missing:?}");
    // A scan diagnostic surfaced from an embedded PDF, and from a PDF alone.
    assert!(cases.contains("tag_id_not_uppercase"));
}

/// Builds the example's pack, v0 and populate outputs into a temporary folder.
fn example_outputs(dir: &Path) -> [(String, PathBuf); 3] {
    let mut out = Vec::new();
    for (name, extra) in [
        ("pack.json", &[][..]),
        ("v0.json", &["--v0"][..]),
        ("populate.json", &["--populate", "TPL_PRICING"][..]),
    ] {
        let path = dir.join(name);
        let mut args = vec![
            "pack",
            "testdata/example/pack.toml",
            "-o",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        out.push((name.to_string(), path));
    }
    out.try_into().unwrap()
}

#[test]
fn the_example_checks_clean_and_tampered_copies_yield_their_code() {
    let dir = tempfile::tempdir().unwrap();
    let outputs = example_outputs(dir.path());
    let mut baseline = std::collections::BTreeMap::new();
    for (name, path) in &outputs {
        let (status, v) = check_json(&["--deny", "warnings", path.to_str().unwrap()]);
        assert_eq!(status, Some(0), "{name}: {v:#}");
        assert_eq!(
            severities(&v).into_iter().collect::<Vec<_>>(),
            if codes(&v).is_empty() {
                Vec::<String>::new()
            } else {
                vec!["info".to_string()]
            },
            "{name}"
        );
        baseline.insert(name.clone(), codes(&v));
    }
    // The manifest itself, and the example folder as a whole.
    let (status, v) = check_json(&["--deny", "warnings", "testdata/example"]);
    assert_eq!(status, Some(0), "{v:#}");
    assert_eq!(
        codes(&v),
        BTreeSet::from(["tag_without_data_field".to_string()]),
        "only START_DATE of services.pdf has no data field"
    );

    for (i, line) in TAMPERED
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        let (left, expected) = line.split_once("=>").unwrap();
        let (name, changes) = left.trim().split_once(' ').unwrap();
        let (_, original) = outputs.iter().find(|(n, _)| n == name).unwrap();
        let mut v: Value = serde_json::from_slice(&std::fs::read(original).unwrap()).unwrap();
        for c in changes.split(';') {
            match c.trim().split_once(" = ") {
                Some((pointer, new)) => {
                    change(&mut v, pointer, Some(serde_json::from_str(new).unwrap()))
                }
                None => change(&mut v, c.trim().trim_end_matches(" -"), None),
            }
        }
        let path = dir.path().join(format!("tampered_{i}_{name}"));
        std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
        let (_, out) = check_json(&[path.to_str().unwrap()]);
        let new: BTreeSet<String> = codes(&out).difference(&baseline[name]).cloned().collect();
        let expected: BTreeSet<String> = expected.split_whitespace().map(String::from).collect();
        assert_eq!(new, expected, "{line}: {out:#}");
    }
}

/// Tampered copies of the example's outputs: `OUTPUT POINTER = JSON` (or
/// `POINTER -` to remove; several separated by `;`) `=>` the codes it adds.
const TAMPERED: &str = r#"
pack.json /documents/3/document_creation_settings/apply_extracted_fields = true => template_with_apply_extracted_fields
pack.json /documents/0/document_creation_settings/extract_fields_by_tag - => syntax_doc_missing_extract_flag
pack.json /documents/2/document_creation_settings/apply_extracted_fields - => form_doc_missing_flags
pack.json /documents/2/document_creation_settings/document_url = "https://example.com/a.pdf" => document_source_ambiguous
pack.json /documents/0/document_creation_settings/base_64_document = "%%%" => base64_invalid
pack.json /documents/0/data_fields/1/custom_id = "SIG_CLIEN" => custom_id_not_in_document
pack.json /documents/0/data_fields/1/signatory_uuid = "0f0f0f0f-0000-4000-8000-000000000000" => data_field_signer_unknown
pack.json /documents/0/data_fields/0/data = "Ann" => data_for_signature_field
pack.json /signatories/0/email = "ann(at)example.com" => email_invalid
pack.json /signatories/0/mobile_number = "07700 900123" => mobile_not_international
pack.json /signatories/1/primary_communication_channel = "sms" => channel_needs_mobile channel_needs_enablement
pack.json /signatories/1/uuid = "bob" => signer_uuid_invalid data_field_signer_unknown
pack.json /signatories/1/role - => role_missing_for_template
pack.json /signatories/1/email - => signer_email_missing
pack.json /signing_settings/post_signing_url = "/done" => post_signing_url_invalid
pack.json /mail_settings/reply_email = "legal" => reply_email_invalid
pack.json /client_secret = "s3cr3t" => secret_in_body
pack.json /documents/0/document_creation_settings/use_workspace_default_document_settings = true; /documents/1/document_creation_settings/use_workspace_default_document_settings = true; /documents/2/document_creation_settings/use_workspace_default_document_settings = true; /documents/3/document_creation_settings/use_workspace_default_document_settings = true => workspace_defaults_without_team
v0.json /requests/0/body/signatories/1/email - => request_signatures_without_email
v0.json /requests/0/body/data_fields/- = {"tag_id": "WITNESS", "type": "text"} => v0_tag_not_in_pdf
v0.json /requests/0/body/data_fields/0/background_colour = "red" => background_colour_invalid
populate.json /requests/0/body/signer_3_email = "carol@example.com" => populate_index_gap
populate.json /requests/0/body/signer_0_email = "ann@" => email_invalid
"#;

/// Sets (or with `None` removes) the value at a JSON pointer; `-` appends.
fn change(v: &mut Value, pointer: &str, new: Option<Value>) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    match (v.pointer_mut(parent).unwrap(), new) {
        (Value::Object(m), Some(n)) => {
            m.insert(key.to_string(), n);
        }
        (Value::Object(m), None) => {
            m.remove(key).expect("something to remove");
        }
        (Value::Array(a), Some(n)) if key == "-" => a.push(n),
        (Value::Array(a), Some(n)) => a[key.parse::<usize>().unwrap()] = n,
        (other, _) => panic!("{pointer}: {other}"),
    }
}

#[test]
fn a_thousand_inputs_stream_with_no_progress_bar_off_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let uuid = "3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11";
    for i in 0..1000 {
        let pdf = signprep_testgen::example::numbered_contract(i).unwrap();
        if i % 3 == 0 {
            let pack = json!({
                "document_pack_name": format!("Pack {i}"),
                "signatories": [{"name": "Ann", "email": "ann@example.com", "uuid": uuid}],
                "documents": [{
                    "document_name": format!("Contract {i}"),
                    "document_creation_settings": {
                        "base_64_document": signprep_testgen::preflight::base64(&pdf),
                        "extract_fields_by_tag": true
                    },
                    "data_fields": [
                        {"custom_id": "SIG_1", "signatory_uuid": uuid},
                        {"custom_id": "DATE_1", "data": "2025-01-31"}
                    ]
                }]
            });
            std::fs::write(dir.path().join(format!("{i:04}.json")), pack.to_string()).unwrap();
        } else {
            std::fs::write(dir.path().join(format!("{i:04}.pdf")), pdf).unwrap();
        }
    }
    let out = run(&["check", "--format", "ndjson", dir.path().to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "no progress bar when stderr is not a terminal"
    );
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 1000);
    let paths: Vec<&str> = records
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted, "input order");
    assert!(
        records
            .iter()
            .all(|r| r["findings"].as_array().unwrap().is_empty())
    );
    assert_eq!(records.iter().filter(|r| r["kind"] == "pack").count(), 334);
}

#[test]
fn exit_statuses_and_failures() {
    let dir = tempfile::tempdir().unwrap();
    let unknown = dir.path().join("numbers.json");
    std::fs::write(&unknown, "[1, 2, 3]").unwrap();
    let out = run(&["check", "--format", "ndjson", unknown.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // Named, of no kind `check` checks: skipped with a `kind_unknown` note;
    // nothing was checked, which never passes.
    let r: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(r["status"], "skipped");
    assert_eq!(r["findings"][0]["code"], "kind_unknown");

    let out = run(&["check", "--format", "ndjson", "no/such/file.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("\"io_error\""));

    let out = run(&[
        "check",
        "--template",
        "no/such/template.json",
        "testdata/check/clean",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["check", "--max-payload", "lots", "testdata/check/clean"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["check", "--deny", "everything", "testdata/check/clean"]);
    assert_eq!(out.status.code(), Some(2));

    // A folder: files of unknown kind are skipped, not failed.
    std::fs::copy(
        root().join("testdata/check/clean/webhook.json"),
        dir.path().join("hook.json"),
    )
    .unwrap();
    let (status, v) = check_json(&[dir.path().to_str().unwrap()]);
    assert_eq!(status, Some(0), "{v:#}");
    assert_eq!(v["summary"]["files"], 1);
    assert_eq!(v["summary"]["skipped"], 1);
}

#[test]
fn kind_overrides_detection_and_stdin_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("body.json");
    // Only v0 keys: it looks like a v0 document, but it is a populate body
    // for a template whose fields are called `status` and `message`.
    std::fs::write(&body, r#"{"status": "gold", "message": "Hello"}"#).unwrap();
    let (_, v) = check_json(&[body.to_str().unwrap()]);
    assert_eq!(v["files"][0]["kind"], "v0");
    let (status, v) = check_json(&["--kind", "populate", body.to_str().unwrap()]);
    assert_eq!(status, Some(0));
    assert_eq!(v["files"][0]["kind"], "populate");
    assert!(codes(&v).is_empty(), "{v:#}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["check", "--format", "ndjson", "-"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // Its `error:` line belongs to this test, not the test log.
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"webhook": {"entity_key": "K", "callback": "http://127.0.0.1/hook"}}"#)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: "));
    let r: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(r["path"], "-");
    assert_eq!(r["kind"], "webhook");
    let found: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(found, ["callback_not_https", "callback_localhost"]);
    assert_eq!(r["findings"][0]["value"], "http://127.0.0.1/hook");
}

#[test]
fn explain_prints_a_codes_documentation() {
    let out = run(&["explain", "custom_id_not_in_document"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.starts_with("custom_id_not_in_document (error; Data fields)\n\n"),
        "{text}"
    );
    assert!(text.contains("silently ignores it"), "{text}");
    let out = run(&["explain", "tag_id_not_uppercase"]);
    assert!(stdout(&out).contains("contains lower-case letters"));
    let out = run(&["explain", "pdf_encrypted"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["explain", "custom_id_not_in_documnet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("did you mean `custom_id_not_in_document`?")
    );
    let out = run(&["explain", "--list"]);
    assert!(stdout(&out).lines().count() > 80);
}

/// `docs/src/reference/diagnostics.md` is generated; regenerate it with
/// `cargo run -p signprep-cli -- explain --markdown > docs/src/reference/diagnostics.md`
/// (or `UPDATE_DIAGNOSTICS=1 cargo test -p signprep-cli --test check`).
#[test]
fn diagnostics_md_is_current() {
    let out = run(&["explain", "--markdown"]);
    assert_eq!(out.status.code(), Some(0));
    let path = root().join("docs/src/reference/diagnostics.md");
    if std::env::var_os("UPDATE_DIAGNOSTICS").is_some() {
        std::fs::write(&path, &out.stdout).unwrap();
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == out.stdout,
        "docs/src/reference/diagnostics.md is stale: run `cargo run -p signprep-cli -- explain --markdown > docs/src/reference/diagnostics.md`"
    );
    let text = stdout(&out);
    for c in PackCode::ALL {
        assert!(
            text.contains(&format!("### `{}`", c.as_str())),
            "{c} missing"
        );
    }
    for c in signprep_core::Code::ALL {
        assert!(
            text.contains(&format!("### `{}`", c.as_str())),
            "{c} missing"
        );
    }
}

/// `n` copies of one small tagged PDF, with long names (so the output of a
/// few hundred fills a pipe), in `dir`.
fn many_pdfs(dir: &Path, n: usize) {
    let pdf = signprep_testgen::example::numbered_contract(1).unwrap();
    for i in 0..n {
        let name = format!("contract-for-a-customer-with-a-rather-long-name-{i:05}.pdf");
        std::fs::write(dir.join(name), &pdf).unwrap();
    }
}

#[test]
fn output_is_byte_identical_whatever_the_jobs() {
    for format in ["ndjson", "json", "human", "sarif"] {
        let out = |jobs: &str| {
            let out = run(&[
                "check",
                "--format",
                format,
                "--jobs",
                jobs,
                "testdata/check",
            ]);
            assert_eq!(out.status.code(), Some(1), "{format}, --jobs {jobs}");
            out.stdout
        };
        let one = out("1");
        assert!(one.len() > 1000, "{format}");
        assert!(one == out("2"), "{format}: --jobs 1 and --jobs 2 differ");
        assert!(one == out("3"), "{format}: --jobs 1 and --jobs 3 differ");
    }
}

#[test]
fn a_panic_is_one_internal_error_record_and_the_run_goes_on() {
    // SIGNPREP_TEST_PANIC (test builds only: the core's `testing` feature) makes the input whose name ends
    // with it panic inside the worker: the batch engine's boundary catches it.
    let panicking = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_signprep"))
            .args(args)
            .env("SIGNPREP_TEST_PANIC", "clean/pack.json")
            .current_dir(root())
            .output()
            .unwrap()
    };
    let out = panicking(&["check", "--format", "ndjson", "testdata/check/clean"]);
    assert_eq!(out.status.code(), Some(1));
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(records.len() > 3, "the run went on");
    let failed: Vec<&Value> = records.iter().filter(|r| r["status"] == "error").collect();
    assert_eq!(failed.len(), 1, "{records:#?}");
    assert_eq!(failed[0]["path"], "testdata/check/clean/pack.json");
    assert_eq!(failed[0]["error"]["code"], "internal_error");
    assert_eq!(
        failed[0]["error"]["message"],
        "internal error (please report it with the file): signprep stopped on an unexpected state"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.ends_with("error: 1 error-level finding in testdata/check/clean/pack.json\n"),
        "{stderr}"
    );

    // One file, named: the same record, no abort.
    let out = panicking(&[
        "check",
        "--format",
        "ndjson",
        "testdata/check/clean/pack.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(r["error"]["code"], "internal_error");

    // `scan` goes through the same boundary, with the same message.
    let pdf = "testdata/fixtures/base14_courier.pdf";
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["scan", "--format", "ndjson", "--no-summary", pdf])
        .env("SIGNPREP_TEST_PANIC", "base14_courier.pdf")
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(r["path"], pdf);
    assert_eq!(r["status"], "error");
    assert_eq!(r["error"]["code"], "internal_error");
    assert_eq!(r["error"]["message"], failed[0]["error"]["message"]);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_check_with_whole_records_and_a_summary() {
    use std::io::{BufRead, BufReader, Read};
    let dir = tempfile::tempdir().unwrap();
    many_pdfs(dir.path(), 3000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["check", "--format", "json", "--jobs", "2"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert_eq!(first, "{\"files\": [\n");
    // The pipe is full by now: the writer waits for us while the signal arrives.
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert_eq!(
        stderr,
        "error: interrupted; the output holds the records written so far\n"
    );
    let v: Value = serde_json::from_str(&(first + &rest)).expect("one whole JSON document");
    let files = v["files"].as_array().unwrap();
    assert_eq!(v["summary"]["interrupted"], true);
    assert_eq!(v["summary"]["files"], files.len());
    assert!(files.len() < 3000, "stopped early: {}", files.len());
    let paths: Vec<&str> = files.iter().map(|r| r["path"].as_str().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted, "input order");
}

/// The lines of a child's stdout, read on a thread so the test can wait for
/// each with a timeout: a generous one, only there to fail instead of hanging
/// if the child never writes.
fn line_reader(stdout: std::process::ChildStdout) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The next line, or `None` at the end of the output.
fn next_line(lines: &std::sync::mpsc::Receiver<String>) -> Option<String> {
    use std::sync::mpsc::RecvTimeoutError;
    match lines.recv_timeout(std::time::Duration::from_secs(300)) {
        Ok(line) => Some(line),
        Err(RecvTimeoutError::Disconnected) => None,
        Err(RecvTimeoutError::Timeout) => panic!("no output for 5 minutes"),
    }
}

/// The names of the files in `dir`, sorted.
fn sorted_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn the_first_record_comes_before_the_last_input_is_read() {
    // A folder of 1,000 inputs, named on standard input (`--files-from -`):
    // the first record must arrive while the list is still open.
    let dir = tempfile::tempdir().unwrap();
    many_pdfs(dir.path(), 1000);
    let names = sorted_names(dir.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["check", "--format", "ndjson", "--jobs", "2"])
        .args(["--files-from", "-"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut list = child.stdin.take().unwrap();
    let lines = line_reader(child.stdout.take().unwrap());
    for name in &names[..3] {
        writeln!(list, "{name}").unwrap();
    }
    list.flush().unwrap();
    // The list is still open: this blocks until check has answered.
    let first: Value = serde_json::from_str(&next_line(&lines).expect("a record")).unwrap();
    assert_eq!(first["path"], names[0].as_str());
    assert_eq!(first["status"], "ok");
    for name in &names[3..] {
        writeln!(list, "{name}").unwrap();
    }
    drop(list);
    let mut paths = vec![names[0].clone()];
    while let Some(line) = next_line(&lines) {
        let r: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(r["status"], "ok", "{line}");
        paths.push(r["path"].as_str().unwrap().to_string());
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(paths.len(), 1000);
    assert!(paths == names, "one record per listed input, in list order");
}

#[test]
fn files_from_a_file_and_its_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    many_pdfs(dir.path(), 2);
    let names = sorted_names(dir.path());
    let list = format!(
        "{}\n\n{{\"path\": \"{}\"}}\nno_such.pdf\n",
        names[1], names[0]
    );
    std::fs::write(dir.path().join("list.txt"), list).unwrap();
    let check = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_signprep"))
            .args(["check", "--format", "ndjson"])
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    // The list's order, a missing file's io_error record, exit 2 for it.
    let out = check(&["--files-from", "list.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let paths: Vec<&str> = records
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [names[1].as_str(), names[0].as_str(), "no_such.pdf"]);
    assert_eq!(records[2]["error"]["code"], "io_error");
    // Standard input cannot be both the list and an input.
    let out = check(&["--files-from", "-", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: standard input cannot be both the --files-from list and an input (`-`)\n"
    );
    // An empty list is nothing to check (no `.` is added for it).
    std::fs::write(dir.path().join("empty.txt"), "").unwrap();
    let out = check(&["--files-from", "empty.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: nothing to check: --files-from empty.txt lists no file; pass --allow-empty if that is fine\n"
    );
}

/// `check --format json --jobs JOBS --timeout-per-file 100ms` over six PDFs,
/// those at `hanging` named `...-NNNNN-x.pdf`, with SIGNPREP_TEST_HANG (debug
/// builds only) set to `-x.pdf`: each of them blocks for good. The watchdog
/// gives up on each after twice --timeout-per-file plus 5 s, replaces its
/// thread, and the run goes on: every record in input order, exit status 1.
fn assert_hanging_files_are_abandoned(jobs: &str, hanging: &[usize]) {
    let dir = tempfile::tempdir().unwrap();
    many_pdfs(dir.path(), 6);
    for &i in hanging {
        let name = |suffix: &str| {
            dir.path().join(format!(
                "contract-for-a-customer-with-a-rather-long-name-{i:05}{suffix}"
            ))
        };
        std::fs::rename(name(".pdf"), name("-x.pdf")).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["check", "--format", "json", "--jobs", jobs])
        .args(["--timeout-per-file", "100ms"])
        .arg(dir.path())
        .env("SIGNPREP_TEST_HANG", "-x.pdf")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let n = hanging.len();
    if let [i] = hanging {
        // One file: the last line names it.
        assert!(
            stderr.starts_with("error: 1 error-level finding in ")
                && stderr.ends_with(&format!("{i:05}-x.pdf\n")),
            "{stderr}"
        );
    } else {
        assert_eq!(
            stderr,
            format!("error: {n} error-level findings in {n} files\n")
        );
    }
    let v: Value = serde_json::from_slice(&out.stdout).expect("one whole JSON document");
    let files = v["files"].as_array().unwrap();
    let paths: Vec<&str> = files.iter().map(|r| r["path"].as_str().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted, "input order");
    assert_eq!(files.len(), 6, "every input has its record");
    for (i, r) in files.iter().enumerate() {
        if hanging.contains(&i) {
            assert!(paths[i].ends_with(&format!("{i:05}-x.pdf")), "{}", paths[i]);
            common::assert_abandoned(r);
        } else {
            assert_eq!(r["status"], "ok", "{r}");
        }
    }
    assert_eq!(
        v["summary"],
        json!({"files": 6, "findings": {"error": n}, "failed": 0, "skipped": 0})
    );
}

#[test]
fn a_file_that_hangs_is_abandoned_by_the_watchdog() {
    assert_hanging_files_are_abandoned("2", &[2]);
}

#[test]
fn a_file_that_hangs_with_one_worker_is_abandoned_and_the_run_ends() {
    // The one worker is stuck for good: a replacement checks the files after it.
    assert_hanging_files_are_abandoned("1", &[2]);
}

#[test]
fn two_files_that_hang_with_one_worker_are_abandoned_and_the_run_ends() {
    // The replacement gets stuck too, and is replaced in turn.
    assert_hanging_files_are_abandoned("1", &[1, 4]);
}

/// `check .` in a repository: a `Cargo.toml`, a `pyproject.toml`, a
/// `package.json` and a `tsconfig.json` (JSON with comments) are no manifest
/// or body, so each is skipped with a `kind_unknown` note and the one plan is
/// checked: exit 0. Named with `--kind manifest`, a TOML is judged as one.
#[test]
fn check_classifies_before_it_judges() {
    let dir = common::scratch("check", "classify");
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(dir.join("pdfs")).unwrap();
    let clean = root().join("testdata/check");
    std::fs::copy(
        clean.join("pdfs/contract.pdf"),
        dir.join("pdfs/contract.pdf"),
    )
    .unwrap();
    std::fs::copy(clean.join("clean/requests.json"), repo.join("plan.json")).unwrap();
    let files = [
        (
            "Cargo.toml",
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\nserde = \"1\"\n",
        ),
        (
            "pyproject.toml",
            "[build-system]\nrequires = [\"maturin>=1.5\"]\nbuild-backend = \"maturin\"\n\n[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
        ),
        (
            "package.json",
            "{\"name\": \"app\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"jest\"}}\n",
        ),
        (
            "tsconfig.json",
            "{\n  // Visit https://aka.ms/tsconfig to read more\n  \"compilerOptions\": {\n    \"target\": \"es2016\", /* the output */\n    \"strict\": true,\n  },\n}\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(repo.join(name), text).unwrap();
    }
    let in_repo = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_signprep"))
            .args(args)
            .current_dir(&repo)
            .output()
            .unwrap()
    };
    let out = in_repo(&["check", "--format", "json", "."]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{v:#}\n{err}");
    let records = v["files"].as_array().unwrap();
    let seen: Vec<(&str, &str, Vec<&str>)> = records
        .iter()
        .map(|r| {
            let codes = r["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["code"].as_str().unwrap())
                .collect();
            (
                r["path"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
                codes,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("./Cargo.toml", "skipped", vec!["kind_unknown"]),
            ("./package.json", "skipped", vec!["kind_unknown"]),
            ("./plan.json", "ok", vec![]),
            ("./pyproject.toml", "skipped", vec!["kind_unknown"]),
            ("./tsconfig.json", "skipped", vec!["kind_unknown"]),
        ],
        "{v:#}"
    );
    for r in records.iter().filter(|r| r["status"] == "skipped") {
        assert_eq!(r["findings"][0]["severity"], "info", "{r}");
    }
    assert_eq!(v["summary"]["files"], 1);
    assert_eq!(v["summary"]["skipped"], 4);
    // The human summary says so.
    let human = in_repo(&["check", "--format", "human", "."]);
    let text = stdout(&human);
    assert!(
        text.contains("info[kind_unknown]: a TOML file that is not a manifest (top-level keys dependencies, package"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "checked 1 file: no problems found; 4 files skipped (not a PDF, body or manifest)\n"
        ),
        "{text}"
    );
    // Named, as a pre-commit hook names them: the same.
    let named = in_repo(&["check", "Cargo.toml", "tsconfig.json", "plan.json"]);
    assert_eq!(named.status.code(), Some(0), "{}", stdout(&named));
    // Named alone: nothing was checked, and an empty gate never passes.
    let alone = in_repo(&["check", "Cargo.toml"]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&alone.stderr).ends_with(
            "error: nothing to check: Cargo.toml: a TOML file that is not a manifest (top-level keys dependencies, package; a manifest has `name`, `signers`, `documents`, ...): skipped; name it with `--kind` to check it as one\n"
        ),
        "{}",
        String::from_utf8_lossy(&alone.stderr)
    );
    // `--kind manifest` judges it as one.
    let judged = in_repo(&[
        "check",
        "--format",
        "ndjson",
        "--kind",
        "manifest",
        "Cargo.toml",
    ]);
    assert_eq!(judged.status.code(), Some(1));
    assert!(
        stdout(&judged).contains("\"manifest_invalid\""),
        "{}",
        stdout(&judged)
    );
    // A manifest with a wrong key, or one that does not parse, is still one.
    std::fs::write(
        repo.join("pack.toml"),
        "name = \"P\"\n[[signer]]\nhandle = \"a\"\n",
    )
    .unwrap();
    std::fs::write(repo.join("broken.toml"), "name = \"P\n").unwrap();
    for name in ["pack.toml", "broken.toml"] {
        let out = in_repo(&["check", "--format", "ndjson", name]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(
            stdout(&out).contains("\"manifest_invalid\""),
            "{name}: {}",
            stdout(&out)
        );
    }
}

/// The pre-commit hook of `.pre-commit-hooks.yaml`, run as pre-commit runs
/// it on a commit that stages only a `Cargo.toml` (its `files` pattern takes
/// every `.toml`): the file is skipped as `kind_unknown` and the hook
/// passes. Before, every TOML was a manifest (`manifest_invalid`, exit 1).
#[test]
fn the_pre_commit_hook_passes_a_commit_of_other_toml_and_json() {
    let hooks = std::fs::read_to_string(common::root().join(".pre-commit-hooks.yaml")).unwrap();
    let entry = hooks
        .lines()
        .find_map(|l| l.trim().strip_prefix("entry: "))
        .unwrap();
    let mut words = entry.split_whitespace();
    assert_eq!(words.next(), Some("signprep"));
    let args: Vec<&str> = words.collect();
    let repo = tempfile::tempdir().unwrap();
    std::fs::write(
        repo.path().join("Cargo.toml"),
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    std::fs::write(repo.path().join("package.json"), "{\"name\": \"app\"}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(&args)
        .args(["Cargo.toml", "package.json"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("info[kind_unknown]"),
        "{}",
        stdout(&out)
    );
}

/// The `.pre-commit-config.yaml` sample (README or guide) pins `rev` to what
/// pre-commit takes as immutable (its `WarnMutableRev` rule: a `rev` with a
/// `.` or of hexadecimal digits only), so pasting it draws no
/// mutable-reference warning: a full commit hash while no release is
/// tagged. Before, it said `rev: main` (warned), then `v0.1.0` (no such tag).
#[test]
fn the_readme_pins_the_pre_commit_hook_to_an_immutable_rev() {
    // Every sample, on whichever page of the README or the guide it is.
    let mut samples = Vec::new();
    for (page, text) in common::guide() {
        for s in text.split("# .pre-commit-config.yaml").skip(1) {
            samples.push((page.clone(), s.split("```").next().unwrap().to_string()));
        }
    }
    assert!(
        !samples.is_empty(),
        "no `# .pre-commit-config.yaml` sample in the README or docs/src"
    );
    for (page, sample) in samples {
        let rev = sample
            .lines()
            .find_map(|l| l.trim().strip_prefix("rev: "))
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("{page}: a pre-commit sample without `rev:`"));
        assert!(
            rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit()),
            "{page}: `rev: {rev}` is not a full commit hash"
        );
    }
}

/// A `custom_id` with a zero-width space inside: the message writes it as
/// `U+200B` (it showed as `CLIENTNAME`, the space invisible), in the JSON
/// record as on the terminal; the excerpt of the body too. The data stays
/// exact: the body is not changed, and the finding's pointer names the field.
#[test]
fn invisible_characters_in_a_message_are_written_as_code_points() {
    let dir = common::scratch("check", "invisible");
    let case = common::testdata("check/cases/custom_id_not_in_document.json");
    let mut body: Value = serde_json::from_str(&std::fs::read_to_string(case).unwrap()).unwrap();
    body["documents"][0]["data_fields"][0]["custom_id"] = json!("CLIENT\u{200B}NAME");
    let path = dir.join("zw.json");
    std::fs::write(&path, serde_json::to_string_pretty(&body).unwrap()).unwrap();

    let o = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let messages: Vec<&str> = v["documents"][0]["findings"]
        .as_array()
        .or_else(|| v["files"][0]["findings"].as_array())
        .or_else(|| v["findings"].as_array())
        .unwrap_or_else(|| panic!("no findings in {v}"))
        .iter()
        .filter(|f| f["pointer"] == "/documents/0/data_fields/0/custom_id")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "`CLIENTU+200BNAME` is not a tag or form field of this child's document; the service ignores it, and its value or signer with it"
        ]
    );

    let o = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["check", "--format", "human"])
        .arg(&path)
        .output()
        .unwrap();
    let human = String::from_utf8(o.stdout).unwrap();
    assert!(!human.contains('\u{200B}'), "{human}");
    assert!(
        human.contains("error[custom_id_not_in_document]: `CLIENTU+200BNAME` is not a tag"),
        "{human}"
    );
}
