//! `signprep serve` with templates (`.docx`, `.odt`): a body taken by its media
//! type or, as `application/octet-stream`, by its bytes; records equal to the
//! CLI's for the same file; a server without LibreOffice answering a template
//! with 422 `convert_failed` and serving PDFs as ever.
//!
//! The tests that need LibreOffice are `#[ignore]`d and named `soffice_*`: CI
//! runs them deliberately (`cargo test ... -- --ignored soffice_`), and there
//! they fail, never skip, when LibreOffice is missing.
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "serve/harness.rs"]
mod harness;

use harness::{Server, cli, read};
use serde_json::Value;

const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const ODT: &str = "application/vnd.oasis.opendocument.text";

/// The templates compared with the CLI: tags in a table and a text box, a
/// tag with a format change inside it (template findings), OpenDocument.
const TEMPLATES: &[&str] = &[
    "testdata/templates/docx_places.docx",
    "testdata/templates/docx_format_change.docx",
    "testdata/templates/odt_clean_one_page.odt",
];

fn media(path: &str) -> &'static str {
    if path.ends_with(".odt") { ODT } else { DOCX }
}

#[test]
fn a_server_without_libreoffice_answers_a_template_422_convert_failed_and_serves_pdfs() {
    let missing = common::scratch("serve-templates", "missing");
    let program = missing.join("soffice");
    let program = program.to_str().unwrap();
    let server = Server::start(&["--quiet", "--soffice", program], &[]);
    let docx = read(TEMPLATES[0]);
    let pdf = read("testdata/fixtures/base14_courier.pdf");
    // Said once at start-up: the server goes on without templates.
    let log = server.log.lock().unwrap().join("\n");
    assert!(
        log.contains(
            "warning: templates (.docx, .odt) will not be converted: cannot run LibreOffice at"
        ),
        "{log}"
    );
    assert_eq!(server.get("/readyz").json()["templates"], false);
    for (route, media) in [
        ("/v1/scan", DOCX),
        ("/v1/scan", "application/octet-stream"),
        ("/v1/check", DOCX),
        ("/v1/check", "application/octet-stream"),
        ("/v1/preview", DOCX),
    ] {
        let a = server.post(&format!("{route}?name=t.docx"), media, &docx);
        assert_eq!(a.status, 422, "{route} {media}: {}", a.text());
        let body = a.json();
        let record = if route == "/v1/check" {
            body["files"][0].clone()
        } else {
            body.clone()
        };
        assert_eq!(record["path"], "t.docx", "{route}: {body}");
        assert_eq!(record["error"]["code"], "convert_failed", "{route}: {body}");
        let message = record["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("cannot run LibreOffice at {program}")),
            "{route}: {message}"
        );
    }
    // PDFs as ever, with either type.
    for media in ["application/pdf", "application/octet-stream"] {
        let a = server.post("/v1/scan", media, &pdf);
        assert_eq!(a.status, 200, "{media}: {}", a.text());
        assert_eq!(a.json()["status"], "ok");
    }
    assert_eq!(
        server.post("/v1/check", "application/pdf", &pdf).status,
        200
    );
}

#[test]
fn a_server_not_asked_for_libreoffice_says_how_to_ask() {
    // No --soffice and no SIGNPREP_SOFFICE: LibreOffice is not looked for, even
    // where it is installed.
    let server = Server::start(&["--quiet"], &[("SIGNPREP_SOFFICE", "")]);
    let log = server.log.lock().unwrap().join("\n");
    assert!(!log.contains("templates"), "{log}");
    assert_eq!(server.get("/readyz").json()["templates"], false);
    let a = server.post("/v1/scan?name=t.odt", ODT, &read(TEMPLATES[2]));
    assert_eq!(a.status, 422, "{}", a.text());
    let record = a.json();
    assert_eq!(record["error"]["code"], "convert_failed");
    assert_eq!(
        record["error"]["message"],
        "this server converts no odt template: it was started without LibreOffice (start it with --soffice PATH, or SIGNPREP_SOFFICE=PATH); send the PDF instead"
    );
    // A PDF sent as a template type is not one: refused as a template would be.
    let a = server.post(
        "/v1/scan",
        DOCX,
        &read("testdata/fixtures/base14_courier.pdf"),
    );
    assert_eq!(a.status, 422, "{}", a.text());
    assert_eq!(a.json()["error"]["code"], "convert_failed");
}

#[test]
fn keep_pdf_is_refused_by_the_server() {
    let out = common::run(&["serve", "--addr", "127.0.0.1:0", "--keep-pdf", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--keep-pdf is for `signprep scan` and `signprep check`"),
        "{err}"
    );
    // Hidden from the server's help: it is no option of it.
    let help = common::run(&["serve", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(!help.contains("--keep-pdf"), "{help}");
    assert!(help.contains("--soffice"), "{help}");
}

#[test]
#[ignore = "needs LibreOffice: run with -- --ignored soffice_"]
fn soffice_scan_and_check_records_equal_the_clis() {
    let soffice = common::soffice();
    let cache = common::scratch("serve-templates", "cache");
    let cache = cache.to_str().unwrap();
    let convert = ["--soffice", soffice.as_str(), "--cache-dir", cache];
    // The CLI first: it converts into the cache, where the server finds the
    // same PDFs (a conversion's PDF carries its time: two differ in bytes).
    let mut args = vec!["scan", "--format", "ndjson", "--no-summary", "--jobs", "1"];
    args.extend(convert);
    args.extend(TEMPLATES);
    let scanned = cli(&args);
    let want: Vec<&[u8]> = scanned.split_inclusive(|b| *b == b'\n').collect();
    assert_eq!(
        want.len(),
        TEMPLATES.len(),
        "{}",
        String::from_utf8_lossy(&scanned)
    );
    let mut args = vec!["--quiet"];
    args.extend(convert);
    let server = Server::start(&args, &[]);
    let log = server.log.lock().unwrap().join("\n");
    assert!(
        log.contains("templates (.docx, .odt): LibreOffice"),
        "{log}"
    );
    assert_eq!(server.get("/readyz").json()["templates"], true);
    let mut differ = Vec::new();
    for (path, want) in TEMPLATES.iter().zip(&want) {
        let record: Value = serde_json::from_slice(want).unwrap();
        assert_eq!(record["status"], "ok", "{record}");
        assert!(record["converted"].is_object(), "{record}");
        // By its media type, and by its bytes.
        for media in [media(path), "application/octet-stream"] {
            let a = server.post(&format!("/v1/scan?name={path}"), media, &read(path));
            if a.status != 200 || a.body != *want {
                differ.push(format!(
                    "scan {path} as {media}: {} {}\n  want {}",
                    a.status,
                    a.text(),
                    String::from_utf8_lossy(want)
                ));
            }
        }
        let mut args = vec!["check", "--format", "json"];
        args.extend(convert);
        args.push(path);
        let want = cli(&args);
        let a = server.post(&format!("/v1/check?name={path}"), media(path), &read(path));
        if a.status != 200 || a.body != want {
            differ.push(format!(
                "check {path}: {} {}\n  want {}",
                a.status,
                a.text(),
                String::from_utf8_lossy(&want)
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // A template's findings lead with its place in it.
    let a = server.post(
        "/v1/check?name=f.docx",
        DOCX,
        &read("testdata/templates/docx_format_change.docx"),
    );
    let findings = a.json()["files"][0]["findings"].clone();
    assert!(
        findings
            .as_array()
            .unwrap()
            .first()
            .is_some_and(
                |f| f["code"].as_str().unwrap().starts_with("template_") && f["source"].is_object()
            ),
        "{findings}"
    );
    // Drawn as the PDF it becomes.
    let a = server.post("/v1/preview?name=p.docx", DOCX, &read(TEMPLATES[0]));
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.content_type, "image/png");
    assert!(a.body.starts_with(b"\x89PNG"));
}

#[test]
#[ignore = "needs LibreOffice: run with -- --ignored soffice_"]
fn soffice_a_damaged_template_is_422_convert_failed_as_the_cli_says() {
    let soffice = common::soffice();
    let cache = common::scratch("serve-templates", "damaged");
    let cache = cache.to_str().unwrap();
    let path = "testdata/templates/docx_truncated.docx";
    let want = cli(&[
        "scan",
        "--format",
        "ndjson",
        "--no-summary",
        "--soffice",
        &soffice,
        "--cache-dir",
        cache,
        path,
    ]);
    let server = Server::start(
        &["--quiet", "--soffice", &soffice, "--cache-dir", cache],
        &[],
    );
    let a = server.post(&format!("/v1/scan?name={path}"), DOCX, &read(path));
    assert_eq!(a.status, 422, "{}", a.text());
    assert_eq!(a.text(), String::from_utf8_lossy(&want));
    assert_eq!(a.json()["error"]["code"], "convert_failed");
}

#[test]
fn migrate_refuses_a_template_in_the_apis_words() {
    let server = Server::start(&["--quiet"], &[("SIGNPREP_SOFFICE", "")]);
    let a = server.post(
        "/v1/migrate",
        "application/octet-stream",
        &read(TEMPLATES[0]),
    );
    assert_eq!(a.status, 415, "{}", a.text());
    assert_eq!(a.error_code(), "unsupported_media_type");
    let message = a.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("signprep migrate --out DIR"), "{message}");
}
