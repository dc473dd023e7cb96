//! `signprep serve`'s forms whose manifest names templates (`.docx`, `.odt`
//! parts): `POST /v1/check` and `POST /v1/pack` convert them with the
//! server's LibreOffice and answer what `signprep check` and `signprep pack`
//! write on the same files; without LibreOffice each template child is its
//! `convert_failed` finding, as `signprep check` gives it.
//!
//! The tests that need LibreOffice are `#[ignore]`d and named `soffice_*`: CI
//! runs them deliberately (`cargo test ... -- --ignored soffice_`), and there
//! they fail, never skip, when LibreOffice is missing.
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "serve/harness.rs"]
mod harness;

use harness::{Answer, Server, cli, read};
use serde_json::Value;
use std::path::Path;

const BOUNDARY: &str = "signprep-test-templates-3kQ9";

/// The templates the manifest names, from `testdata/templates`.
const TEMPLATES: &[&str] = &["docx_clean_one_page.docx", "odt_clean_one_page.odt"];

/// A manifest of the two templates, with a fixed signer UUID: `pack` writes
/// the same bytes twice.
const MANIFEST: &str = r#"name = "Templates"

[[signers]]
handle = "client"
name = "Ann Client"
email = "ann@example.com"
uuid = "3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11"

[[fields]]
match = "*_1"
signer = "client"

[[documents]]
path = "docx_clean_one_page.docx"

[[documents]]
path = "odt_clean_one_page.odt"
name = "OpenDocument"
"#;

/// The manifest and its templates written into `dir`: the manifest's path.
fn on_disk(dir: &Path) -> String {
    for t in TEMPLATES {
        std::fs::write(dir.join(t), read(&format!("testdata/templates/{t}"))).unwrap();
    }
    let manifest = dir.join("pack.toml");
    std::fs::write(&manifest, MANIFEST).unwrap();
    manifest.to_str().unwrap().to_string()
}

/// The form of the manifest at `manifest` (its part named by that path, as
/// the CLI is given it) and a part for each template, named as it names them.
fn form(manifest: &str) -> Vec<u8> {
    let mut parts = vec![(
        "manifest",
        manifest.to_string(),
        MANIFEST.as_bytes().to_vec(),
    )];
    for t in TEMPLATES {
        parts.push((
            "pdf",
            t.to_string(),
            read(&format!("testdata/templates/{t}")),
        ));
    }
    let mut out = Vec::new();
    for (name, file, bytes) in parts {
        out.extend(format!("--{BOUNDARY}\r\n").bytes());
        out.extend(
            format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\n")
                .bytes(),
        );
        out.extend(b"Content-Type: application/octet-stream\r\n\r\n");
        out.extend(bytes);
        out.extend(b"\r\n");
    }
    out.extend(format!("--{BOUNDARY}--\r\n").bytes());
    out
}

fn post_form(server: &Server, route: &str, manifest: &str) -> Answer {
    server.post(
        route,
        &format!("multipart/form-data; boundary={BOUNDARY}"),
        &form(manifest),
    )
}

/// The status `/v1/check` gives `check --format json`'s output.
fn check_status(output: &[u8]) -> u16 {
    let v: Value = serde_json::from_slice(output).unwrap();
    if v["files"][0]["status"] == "ok" {
        200
    } else {
        422
    }
}

/// The `convert_failed` findings of a check output, with their pointers.
fn convert_failed(v: &Value) -> Vec<(String, String)> {
    v["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "convert_failed")
        .map(|f| {
            (
                f["pointer"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_server_whose_libreoffice_is_missing_answers_template_parts_as_check_does() {
    let dir = common::scratch("serve-template-forms", "missing");
    let manifest = on_disk(&dir);
    let program = dir.join("no-such-soffice");
    let program = program.to_str().unwrap();
    let want = cli(&["check", "--format", "json", "--soffice", program, &manifest]);
    let failed = convert_failed(&serde_json::from_slice(&want).unwrap());
    assert_eq!(failed.len(), 2, "{}", String::from_utf8_lossy(&want));
    assert_eq!(failed[0].0, "/documents/0");
    assert!(
        failed[0]
            .1
            .contains(&format!("cannot run LibreOffice at {program}")),
        "{failed:?}"
    );
    let server = Server::start(&["--quiet", "--soffice", program], &[]);
    let a = post_form(&server, "/v1/check", &manifest);
    assert_eq!(a.status, check_status(&want), "{}", a.text());
    assert_eq!(a.text(), String::from_utf8_lossy(&want));
    // Nothing built: every finding, as the check gives them.
    let a = post_form(&server, "/v1/pack", &manifest);
    assert_eq!(a.status, 422, "{}", a.text());
    assert_eq!(a.text(), String::from_utf8_lossy(&want));
    // The server goes on.
    assert_eq!(server.get("/readyz").status, 200);
}

#[test]
fn a_server_not_asked_for_libreoffice_names_each_template_part_convert_failed() {
    let server = Server::start(&["--quiet"], &[("SIGNPREP_SOFFICE", "")]);
    let a = post_form(&server, "/v1/pack", "pack.toml");
    assert_eq!(a.status, 422, "{}", a.text());
    let body = a.json();
    let failed = convert_failed(&body);
    assert_eq!(
        failed,
        vec![
            (
                "/documents/0".to_string(),
                "docx_clean_one_page.docx is a Word or OpenDocument template (docx), and this build was given no LibreOffice to convert it".to_string()
            ),
            (
                "/documents/1".to_string(),
                "odt_clean_one_page.odt is a Word or OpenDocument template (odt), and this build was given no LibreOffice to convert it".to_string()
            ),
        ],
        "{body}"
    );
    let finding = &body["files"][0]["findings"][0];
    assert_eq!(finding["severity"], "error", "{body}");
    assert_eq!(finding["file"], "docx_clean_one_page.docx", "{body}");
    // The same form on /v1/check: the same findings, in full.
    let a = post_form(&server, "/v1/check", "pack.toml");
    assert_eq!(convert_failed(&a.json()), failed, "{}", a.text());
}

#[test]
#[ignore = "needs LibreOffice: run with -- --ignored soffice_"]
fn soffice_pack_and_check_of_a_form_naming_templates_equal_the_clis() {
    let soffice = common::soffice();
    let dir = common::scratch("serve-template-forms", "soffice");
    let manifest = on_disk(&dir);
    let cache = dir.join("cache");
    let cache = cache.to_str().unwrap();
    let convert = ["--soffice", soffice.as_str(), "--cache-dir", cache];
    // The CLI first: it converts into the cache, where the server finds the
    // same PDFs (a conversion's PDF carries its time: two differ in bytes).
    let mut args = vec!["pack"];
    args.extend(convert);
    args.push(&manifest);
    let packed = cli(&args);
    let mut args = vec!["check", "--format", "json"];
    args.extend(convert);
    args.push(&manifest);
    let checked = cli(&args);
    let record: Value = serde_json::from_slice(&checked).unwrap();
    assert!(
        record["files"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["severity"] != "error"),
        "{record}"
    );
    let pack: Value = serde_json::from_slice(&packed).unwrap();
    assert_eq!(pack["documents"].as_array().unwrap().len(), 2, "{pack}");
    assert!(
        pack["documents"][0]["data_fields"]
            .as_array()
            .is_some_and(|f| !f.is_empty()),
        "the template's tags are fields: {pack}"
    );

    let mut args = vec!["--quiet"];
    args.extend(convert);
    let server = Server::start(&args, &[]);
    let a = post_form(&server, "/v1/pack", &manifest);
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.text(), String::from_utf8_lossy(&packed));
    // Its findings (the templates' fonts) named in the header, as ever.
    let codes = a.header("x-findings").unwrap_or("");
    assert!(codes.contains("tag_font_proportional"), "{codes}");

    let a = post_form(&server, "/v1/check", &manifest);
    assert_eq!(a.status, check_status(&checked), "{}", a.text());
    assert_eq!(a.text(), String::from_utf8_lossy(&checked));
    // A finding about a template's tag names its place in the template.
    let findings = a.json()["files"][0]["findings"].clone();
    assert!(
        findings
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["source"]["snippet"].is_string()),
        "{findings}"
    );
}
