//! `signprep serve`'s forms (`multipart/form-data`): a manifest with the
//! PDFs it names for `POST /v1/check` and `POST /v1/pack`, a PDF with a
//! signer map for `POST /v1/migrate`; the answers equal what the CLI writes
//! on the same files. A server on 127.0.0.1, port 0, per test.
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "serve/harness.rs"]
mod harness;

use harness::{Answer, Server, cli, files, read};
use serde_json::Value;

const BOUNDARY: &str = "signprep-test-7MA4YWxkTrZu0gW";

/// A form body of `(part name, file name, bytes)`.
fn form(parts: &[(&str, Option<&str>, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, file, bytes) in parts {
        out.extend(format!("--{BOUNDARY}\r\n").bytes());
        match file {
            Some(f) => out.extend(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\n")
                    .bytes(),
            ),
            None => {
                out.extend(format!("Content-Disposition: form-data; name=\"{name}\"\r\n").bytes())
            }
        }
        out.extend(b"Content-Type: application/octet-stream\r\n\r\n");
        out.extend(bytes);
        out.extend(b"\r\n");
    }
    out.extend(format!("--{BOUNDARY}--\r\n").bytes());
    out
}

fn post_form(server: &Server, path: &str, parts: &[(&str, Option<&str>, Vec<u8>)]) -> Answer {
    server.post(
        path,
        &format!("multipart/form-data; boundary={BOUNDARY}"),
        &form(parts),
    )
}

/// The manifest at `path` (from the repository's root) and each PDF of
/// `testdata/check/pdfs` it names, named as it names them (`../pdfs/NAME`).
/// Only those: a PDF the manifest never names is a finding of its own
/// (`form_part_unused`), which `check` of the files on disk has not.
fn manifest_form(path: &str) -> Vec<(&'static str, Option<String>, Vec<u8>)> {
    let manifest = read(path);
    let text = String::from_utf8_lossy(&manifest).into_owned();
    let mut parts = vec![("manifest", Some(path.to_string()), manifest)];
    for pdf in files("check/pdfs", ".pdf") {
        let name = format!("../pdfs/{}", pdf.rsplit('/').next().unwrap());
        if text.contains(&format!("\"{name}\"")) {
            parts.push(("pdf", Some(name), read(&pdf)));
        }
    }
    parts
}

fn borrowed<'a>(
    parts: &'a [(&'static str, Option<String>, Vec<u8>)],
) -> Vec<(&'static str, Option<&'a str>, Vec<u8>)> {
    parts
        .iter()
        .map(|(n, f, b)| (*n, f.as_deref(), b.clone()))
        .collect()
}

/// Drops the hints of `manifest_no_match` findings (the server's names the
/// PDFs given; the CLI's has none).
fn without_no_match_hints(mut v: Value) -> Value {
    for file in v["files"].as_array_mut().unwrap() {
        for f in file["findings"].as_array_mut().unwrap() {
            if f["code"] == "manifest_no_match" {
                f.as_object_mut().unwrap().remove("hint");
            }
        }
    }
    v
}

#[test]
fn check_of_a_manifest_form_equals_the_clis_on_the_files() {
    let server = Server::start(&["--quiet"], &[]);
    let mut manifests = files("check/cases", ".toml");
    manifests.push("testdata/check/clean/manifest.toml".into());
    let mut differ = Vec::new();
    for path in &manifests {
        let want = cli(&["check", "--format", "json", path]);
        let a = post_form(&server, "/v1/check", &borrowed(&manifest_form(path)));
        let record: Value = serde_json::from_slice(&want).unwrap();
        let status = if record["files"][0]["status"] == "ok" {
            200
        } else {
            422
        };
        let same = if want.windows(17).any(|w| w == b"manifest_no_match") {
            a.status == 200 && without_no_match_hints(a.json()) == record
        } else {
            a.status == status && a.body == want
        };
        if !same {
            differ.push(format!(
                "{path}: {} {}\n  want {status} {}",
                a.status,
                a.text(),
                String::from_utf8_lossy(&want)
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // A manifest naming a PDF the form lacks: the CLI's finding, with the names given.
    let path = "testdata/check/clean/manifest.toml";
    let a = post_form(
        &server,
        "/v1/check",
        &[
            ("manifest", Some(path), read(path)),
            (
                "pdf",
                Some("contract.pdf"),
                read("testdata/check/pdfs/contract.pdf"),
            ),
        ],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let findings = a.json()["files"][0]["findings"].clone();
    let missing: Vec<&Value> = findings
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "manifest_no_match")
        .collect();
    assert_eq!(missing.len(), 2, "{findings}");
    assert_eq!(
        missing[0]["message"],
        "`../pdfs/contract.pdf` matches no file"
    );
    assert_eq!(
        missing[0]["hint"],
        "the PDFs given with the manifest: contract.pdf (name each as the manifest's path)"
    );
}

/// Signer UUIDs the manifest does not give are random: blanked.
fn without_uuids(text: &str) -> Value {
    fn blank(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k.ends_with("uuid") && x.is_string() {
                        *x = Value::String("UUID".into());
                    } else {
                        blank(x);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(blank),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(text).unwrap();
    blank(&mut v);
    v
}

#[test]
fn pack_of_a_manifest_form_is_what_signprep_pack_writes_or_422_with_every_finding() {
    let server = Server::start(&["--quiet"], &[]);
    let path = "testdata/check/clean/manifest.toml";
    let want = String::from_utf8(cli(&["pack", path])).unwrap();
    let a = post_form(&server, "/v1/pack", &borrowed(&manifest_form(path)));
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.content_type, "application/json");
    assert_eq!(without_uuids(&a.text()), without_uuids(&want));
    assert!(
        a.text().starts_with("{\n  \""),
        "indented as `pack` writes it"
    );
    let a = post_form(
        &server,
        "/v1/pack?compact=true",
        &borrowed(&manifest_form(path)),
    );
    assert_eq!(a.status, 200);
    assert_eq!(a.text().lines().count(), 1);

    // Error-level findings: nothing built, every finding as `check` lists them.
    let path = "testdata/check/cases/email_invalid.manifest.toml";
    let a = post_form(&server, "/v1/pack", &borrowed(&manifest_form(path)));
    assert_eq!(a.status, 422, "{}", a.text());
    assert_eq!(
        a.text(),
        String::from_utf8(cli(&["check", "--format", "json", path])).unwrap()
    );
}

#[test]
fn migrate_answers_the_plan_signprep_migrate_writes() {
    let server = Server::start(&["--quiet"], &[]);
    for pdf in files("migrate", ".pdf") {
        let want = cli(&["migrate", &pdf]);
        let name = pdf.rsplit('/').next().unwrap();
        let a = server.post(
            &format!("/v1/migrate?name={name}"),
            "application/pdf",
            &read(&pdf),
        );
        if want.is_empty() {
            assert_eq!(a.status, 422, "{pdf}: {}", a.text());
            continue;
        }
        assert_eq!(a.status, 200, "{pdf}: {}", a.text());
        let mut want: Value = serde_json::from_slice(&want).unwrap();
        let mut got = a.json();
        // The CLI's upload is the PDF's absolute path; the server's, its name.
        assert_eq!(got["requests"][0]["upload"], name, "{pdf}");
        for v in [&mut want, &mut got] {
            v["requests"][0].as_object_mut().unwrap().remove("upload");
        }
        assert_eq!(got, want, "{pdf}");
    }
}

#[test]
fn migrate_with_a_signer_map_form_and_its_mistakes() {
    let server = Server::start(&["--quiet"], &[]);
    let pdf = "testdata/migrate/dropbox_contract.pdf";
    let signers =
        b"[[signers]]\nhandle = \"signer1\"\nname = \"Ann Client\"\nemail = \"ann@example.com\"\n"
            .to_vec();
    let a = post_form(
        &server,
        "/v1/migrate",
        &[
            ("signers", Some("signers.toml"), signers.clone()),
            ("pdf", Some("dropbox_contract.pdf"), read(pdf)),
        ],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("ann@example.com"), "{}", a.text());

    // A signer the PDF does not have stops it: 422 with the findings.
    let a = post_form(
        &server,
        "/v1/migrate?signer=signer9%3Dc%40example.com",
        &[("pdf", Some("dropbox_contract.pdf"), read(pdf))],
    );
    assert_eq!(a.status, 422, "{}", a.text());
    let codes: Vec<String> = a.json()["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect();
    assert!(
        codes.contains(&"migrate_signer_unknown".to_string()),
        "{codes:?}"
    );
}

#[test]
fn form_mistakes_are_400_in_our_words_and_the_server_goes_on() {
    let server = Server::start(&["--quiet"], &[]);
    let manifest = read("testdata/check/clean/manifest.toml");
    let pdf = read("testdata/check/pdfs/contract.pdf");
    let cases: Vec<(&str, Answer, &str)> = vec![
        (
            "no manifest",
            post_form(&server, "/v1/pack", &[("pdf", Some("a.pdf"), pdf.clone())]),
            "no `manifest` part",
        ),
        (
            "an unknown part",
            post_form(
                &server,
                "/v1/check",
                &[("manifesto", Some("m.toml"), manifest.clone())],
            ),
            "part 1 of the form is named `manifesto`",
        ),
        (
            "a PDF without a file name",
            post_form(
                &server,
                "/v1/pack",
                &[
                    ("manifest", None, manifest.clone()),
                    ("pdf", None, pdf.clone()),
                ],
            ),
            "part 2 (`pdf`) has no file name",
        ),
        (
            "two PDFs of one name",
            post_form(
                &server,
                "/v1/pack",
                &[
                    ("pdf", Some("a.pdf"), pdf.clone()),
                    ("pdf", Some("a.pdf"), pdf.clone()),
                ],
            ),
            "two PDFs are named `a.pdf`",
        ),
        (
            "no boundary",
            server.post(
                "/v1/pack",
                "multipart/form-data",
                &form(&[("pdf", Some("a.pdf"), pdf.clone())]),
            ),
            "has no `boundary=`",
        ),
        (
            "not a form at all",
            server.post(
                "/v1/pack",
                &format!("multipart/form-data; boundary={BOUNDARY}"),
                b"hello",
            ),
            "part 1 of the form cannot be read",
        ),
        (
            "two PDFs to migrate",
            post_form(
                &server,
                "/v1/migrate",
                &[
                    ("pdf", Some("a.pdf"), pdf.clone()),
                    ("pdf", Some("b.pdf"), pdf.clone()),
                ],
            ),
            "exactly one `pdf` part",
        ),
    ];
    for (why, a, words) in &cases {
        assert_eq!(a.status, 400, "{why}: {}", a.text());
        assert_eq!(a.error_code(), "bad_request", "{why}");
        let message = a.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains(words), "{why}: {message}");
    }
    let a = server.post("/v1/pack", "application/json", b"{}");
    assert_eq!(a.status, 415, "{}", a.text());
    // The server answers the next request.
    let a = post_form(
        &server,
        "/v1/check",
        &borrowed(&manifest_form("testdata/check/clean/manifest.toml")),
    );
    assert_eq!(a.status, 200, "{}", a.text());
}

/// Every hint of an HTTP answer that names an option names the query parameter,
/// never the CLI's flag; the CLI's own answer for the same input names the flag.
#[test]
fn http_hints_name_the_query_parameter_not_the_clis_flag() {
    let server = Server::start(&["--quiet"], &[]);
    let hints = |v: &serde_json::Value| -> Vec<String> {
        let mut out = Vec::new();
        for f in v["files"][0]["findings"].as_array().unwrap() {
            if let Some(h) = f["hint"].as_str() {
                out.push(format!("{}: {h}", f["code"].as_str().unwrap()));
            }
        }
        out
    };
    // A signer the PDF does not have stops it (422, every finding in full); the
    // others are unmapped, and their hint says how to map one.
    let pdf = "testdata/migrate/dropbox_contract.pdf";
    let a = server.post(
        "/v1/migrate?signer=signer9%3Dc%40example.com",
        "application/pdf",
        &read(pdf),
    );
    assert_eq!(a.status, 422, "{}", a.text());
    let got = hints(&a.json());
    assert!(
        got.iter().any(|h| h.starts_with(
            "migrate_signer_unmapped: add the query parameter `signer=signer1=EMAIL`"
        )),
        "{got:#?}"
    );
    assert!(got.iter().all(|h| !h.contains("`--")), "{got:#?}");
    assert!(
        got.iter().any(|h| h.starts_with("migrate_type_unmapped: place it by hand, or the query parameter `map_type=checkbox=TYPE`")),
        "{got:#?}"
    );
    let cli = common::run(&["migrate", pdf, "--signer", "signer9=c@example.com"]);
    let cli = String::from_utf8(cli.stderr).unwrap();
    assert!(cli.contains("add `--signer signer1=EMAIL`"), "{cli}");
    assert!(cli.contains("`--map-type checkbox=TYPE`"), "{cli}");

    // A body whose kind cannot be told: the hint names `kind`.
    let a = server.post("/v1/check", "application/json", br#"{"hello": 1}"#);
    let text = a.text();
    assert!(
        text.contains("name it with the query parameter `kind` to check it as one"),
        "{text}"
    );
    assert!(!text.contains("--kind"), "{text}");
}
