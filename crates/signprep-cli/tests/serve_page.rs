//! `signprep serve`'s drawing and its page: `POST /v1/preview` (the PNG
//! `signprep preview` writes, byte for byte), the page at `/` with its
//! script and style, and `/openapi.json`. A server on 127.0.0.1, port 0,
//! started and stopped by each test. The page in a browser is tested by
//! `.ci/serve-page-check` (headless Chromium).
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "serve/harness.rs"]
mod harness;

use harness::{Server, cli, read};

/// `signprep preview --pages PAGE --dpi DPI FILE`'s PNG.
fn cli_png(file: &str, page: usize, dpi: &str) -> Vec<u8> {
    let dir = common::scratch("serve-preview", &format!("{page}-{dpi}"));
    std::fs::create_dir_all(&*dir).unwrap();
    let out = dir.to_str().unwrap().to_string();
    let page_s = page.to_string();
    cli(&[
        "preview", "--pages", &page_s, "--dpi", dpi, "-o", &out, file,
    ]);
    let mut pngs: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    assert_eq!(pngs.len(), 1, "{pngs:?}");
    std::fs::read(pngs.pop().unwrap()).unwrap()
}

#[test]
fn preview_is_the_clis_png_of_the_page() {
    let server = Server::start(&["--quiet"], &[]);
    for (file, page, dpi, count) in [
        ("testdata/fixtures/invalid_ids.pdf", 1, "96", "1"),
        ("testdata/fixtures/mixed_page_sizes.pdf", 2, "72", "4"),
        ("testdata/fixtures/form_geometry.pdf", 3, "150", "3"),
    ] {
        let a = server.post(
            &format!("/v1/preview?page={page}&dpi={dpi}"),
            "application/pdf",
            &read(file),
        );
        assert_eq!(a.status, 200, "{file}: {}", a.text());
        assert_eq!(a.content_type, "image/png", "{file}");
        assert_eq!(a.header("x-page-count"), Some(count), "{file}");
        assert!(
            a.body == cli_png(file, page, dpi),
            "{file} page {page} at {dpi} dpi: not the PNG `signprep preview` writes"
        );
    }
}

#[test]
fn preview_refusals_and_the_next_request() {
    let server = Server::start(&["--quiet"], &[]);
    let good = read("testdata/fixtures/mixed_page_sizes.pdf");
    let garbage = read("testdata/hostile/garbage.pdf");

    // A file that cannot be scanned: 422 and its scan record, as /v1/scan gives it.
    let a = server.post("/v1/preview?name=garbage.pdf", "application/pdf", &garbage);
    assert_eq!(a.status, 422, "{}", a.text());
    let scanned = server.post("/v1/scan?name=garbage.pdf", "application/pdf", &garbage);
    assert_eq!(a.body, scanned.body);
    assert_eq!(a.json()["error"]["code"], "pdf_unreadable");

    let pages = cli(&[
        "scan",
        "--format",
        "ndjson",
        "--no-summary",
        "testdata/fixtures/mixed_page_sizes.pdf",
    ]);
    let pages = serde_json::from_slice::<serde_json::Value>(&pages).unwrap()["pages"]
        .as_array()
        .unwrap()
        .len();
    let past = pages + 1;
    let a = server.post(
        &format!("/v1/preview?page={past}&name=m.pdf"),
        "application/pdf",
        &good,
    );
    assert_eq!(a.status, 400, "{}", a.text());
    assert_eq!(a.error_code(), "page_out_of_range");
    assert_eq!(
        a.json()["error"]["message"],
        format!("`page`: page {past} is past the end of m.pdf (it has {pages} pages)")
    );

    for (query, why) in [
        ("page=0", "page 0"),
        ("page=two", "a page that is no number"),
        ("dpi=301", "over 300 dpi"),
        ("dpi=0", "0 dpi"),
        ("pages=1", "an unknown parameter"),
    ] {
        let a = server.post(&format!("/v1/preview?{query}"), "application/pdf", &good);
        assert_eq!(a.status, 400, "{why}: {}", a.text());
        assert_eq!(a.error_code(), "bad_request", "{why}");
    }
    let a = server.post("/v1/preview", "application/json", b"{}");
    assert_eq!(a.status, 415, "{}", a.text());

    // The server answers the next request.
    let a = server.post(
        &format!("/v1/preview?page={pages}"),
        "application/pdf",
        &good,
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.content_type, "image/png");
}

#[test]
fn a_panic_while_drawing_is_500_and_the_server_stays_up() {
    let server = Server::start(&["--quiet"], &[("SIGNPREP_TEST_PANIC", "boom.pdf")]);
    let good = read("testdata/fixtures/base14_courier.pdf");
    let a = server.post("/v1/preview?name=boom.pdf", "application/pdf", &good);
    assert_eq!(a.status, 500, "{}", a.text());
    assert_eq!(a.json()["error"]["code"], "internal_error");
    let a = server.post("/v1/preview?name=fine.pdf", "application/pdf", &good);
    assert_eq!(a.status, 200, "{}", a.text());
}

#[test]
fn the_page_and_its_files_are_served_under_a_strict_policy() {
    let dir = common::scratch("serve-page", "token");
    std::fs::create_dir_all(&*dir).unwrap();
    let token = dir.join("token");
    std::fs::write(&token, "s3cret\n").unwrap();
    let server = Server::start(&["--quiet", "--token-file", token.to_str().unwrap()], &[]);
    let page = server.get("/");
    assert_eq!(page.status, 200, "{}", page.text());
    assert_eq!(page.content_type, "text/html; charset=utf-8");
    let csp = page.header("content-security-policy").unwrap_or_default();
    for want in [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' blob:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(want), "{want} not in {csp}");
    }
    assert!(!csp.contains("unsafe"), "{csp}");
    let html = page.text();
    // No inline script or style, nothing from elsewhere.
    assert!(
        html.contains(r#"<script src="/app.js" defer></script>"#),
        "{html}"
    );
    assert_eq!(html.matches("<script").count(), 1, "{html}");
    assert!(
        !html.contains("style=") && !html.contains("<style"),
        "{html}"
    );
    assert!(
        !html.contains("http:") && !html.contains("https:") && !html.contains("//"),
        "{html}"
    );
    for (path, media, marker) in [
        (
            "/app.js",
            "text/javascript; charset=utf-8",
            "/v1/preview?page=",
        ),
        ("/app.css", "text/css; charset=utf-8", "#verdict"),
    ] {
        let a = server.get(path);
        assert_eq!(a.status, 200, "{path}");
        assert_eq!(a.content_type, media, "{path}");
        assert!(a.text().contains(marker), "{path}");
        assert!(!a.text().contains("http"), "{path} names another origin");
    }
    // The page is open (it holds no data); the API behind it needs the token.
    assert_eq!(server.get("/v1/codes").status, 401);
}

/// `/openapi.json` with `{"$ref": "#/components/schemas/NAME"}` at its root:
/// a validator of NAME that resolves the document's references.
fn validator(doc: &serde_json::Value, name: &str) -> jsonschema::Validator {
    let mut root = doc.clone();
    root["$ref"] = format!("#/components/schemas/{name}").into();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&root)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn invalid(v: &jsonschema::Validator, what: &str, answer: &harness::Answer) -> Vec<String> {
    v.iter_errors(&answer.json())
        .map(|e| format!("{what}: {e} at {}", e.instance_path()))
        .collect()
}

/// What kind of check answer `a` is, for the tally of kinds validated:
/// `clean`, `findings`, `unreadable` (a finding with the code of a PDF that
/// cannot be read), `skipped`, `error` (no result).
fn check_kind(a: &harness::Answer) -> Option<&'static str> {
    let record = a.json().get("files")?.get(0)?.clone();
    let findings = record["findings"].as_array()?.clone();
    let file_code = |f: &serde_json::Value| {
        signprep_core::FileErrorCode::from_name(f["code"].as_str().unwrap_or_default()).is_some()
    };
    Some(match record["status"].as_str()? {
        "error" => "error",
        "skipped" => "skipped",
        _ if findings.iter().any(file_code) => "unreadable",
        _ if findings.is_empty() => "clean",
        _ => "findings",
    })
}

#[test]
fn openapi_names_every_route_and_real_answers_fit_its_schemas() {
    let server = Server::start(&["--quiet"], &[("SIGNPREP_TEST_PANIC", "boom.pdf")]);
    let a = server.get("/openapi.json");
    assert_eq!(a.status, 200);
    let doc = a.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for route in [
        "/",
        "/v1/scan",
        "/v1/check",
        "/v1/preview",
        "/v1/pack",
        "/v1/migrate",
        "/v1/codes",
        "/v1/explain/{code}",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
    ] {
        assert!(paths.contains(&route), "{route} not in {paths:?}");
    }
    // Every path in the document is a route of the server (none answers 404).
    for path in &paths {
        let asked = path.replace("{code}", "tag_unterminated");
        let status = if doc["paths"][path].get("get").is_some() {
            server.get(&asked).status
        } else {
            server.post(&asked, "application/pdf", b"").status
        };
        assert_ne!(status, 404, "{path}");
    }
    let mut wrong = Vec::new();
    let scan = validator(&doc, "Scan");
    let check = validator(&doc, "CheckOutput");
    let error = validator(&doc, "ErrorBody");
    // The validators reject what does not fit.
    assert!(!scan.is_valid(&serde_json::json!({"status": 7})));
    assert!(!check.is_valid(&serde_json::json!({"files": 3})));
    assert!(!error.is_valid(&serde_json::json!({"error": {"code": 1}})));
    // An error body's code is one of the server's (`ApiCode`).
    assert!(error.is_valid(&serde_json::json!({"error": {"code": "busy", "message": "m"}})));
    assert!(!error.is_valid(&serde_json::json!({"error": {"code": "nope", "message": "m"}})));
    // The check output's schema is the real types': exact to the code and
    // the key (a fitting answer, then each change of it refused).
    let fits = serde_json::json!({
        "files": [{"path": "-", "kind": "pdf", "status": "ok", "findings": [
            {"severity": "error", "code": "tag_id_not_uppercase", "message": "m", "page": 0},
            {"severity": "error", "code": "pdf_unreadable", "message": "m"},
            {"severity": "warning", "code": "unknown_key", "message": "m", "pointer": "/a", "value": 3}
        ]}],
        "summary": {"files": 1, "findings": {"error": 2, "warning": 1}, "failed": 0, "skipped": 0}
    });
    assert!(
        check.is_valid(&fits),
        "{:?}",
        check
            .iter_errors(&fits)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    for (pointer, changed) in [
        (
            "/files/0/findings/0/code",
            serde_json::json!("no_such_code"),
        ),
        ("/files/0/findings/0/severity", serde_json::json!("fatal")),
        ("/files/0/status", serde_json::json!("maybe")),
        ("/files/0/kind", serde_json::json!("spreadsheet")),
        ("/files/0/findings/0/extra", serde_json::json!(1)),
        (
            "/files/0/error",
            serde_json::json!({"code": "bad_request", "message": "m"}),
        ),
        ("/summary/findings/fatal", serde_json::json!(1)),
        ("/summary/extra", serde_json::json!(1)),
    ] {
        let mut v = fits.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        v.pointer_mut(parent).unwrap()[key] = changed;
        assert!(!check.is_valid(&v), "{pointer}: {v}");
    }
    let mut kinds = std::collections::BTreeSet::new();
    let mut check_answer = |what: String, a: &harness::Answer, wrong: &mut Vec<String>| {
        let errors = invalid(&check, &what, a);
        if errors.is_empty() {
            kinds.extend(check_kind(a));
        }
        wrong.extend(errors);
    };
    let mut pdfs = harness::files("fixtures", ".pdf");
    pdfs.extend(harness::files("hostile", ".pdf"));
    for path in &pdfs {
        let body = read(path);
        let a = server.post(
            "/v1/scan?data_fields=true&dialect=all",
            "application/pdf",
            &body,
        );
        wrong.extend(invalid(&scan, &format!("scan {path}"), &a));
        let a = server.post("/v1/check", "application/pdf", &body);
        check_answer(format!("check {path}"), &a, &mut wrong);
    }
    // A panic's record (`status: error`, `internal_error`).
    let a = server.post(
        "/v1/check?name=boom.pdf",
        "application/pdf",
        &read(&pdfs[0]),
    );
    assert_eq!(a.status, 500, "{}", a.text());
    check_answer("check boom.pdf".into(), &a, &mut wrong);
    for path in harness::files("check/cases", ".json") {
        let a = server.post(
            &format!("/v1/check?name={path}"),
            "application/json",
            &read(&path),
        );
        if a.status == 422 && a.json().get("error").is_some() && a.json().get("files").is_none() {
            wrong.extend(invalid(&error, &format!("check {path}"), &a));
        } else {
            check_answer(format!("check {path}"), &a, &mut wrong);
        }
    }
    let plan = validator(&doc, "V0Plan");
    let pack = validator(&doc, "Pack");
    for pdf in harness::files("migrate", ".pdf") {
        let a = server.post("/v1/migrate", "application/pdf", &read(&pdf));
        if a.status == 200 {
            wrong.extend(invalid(&plan, &format!("migrate {pdf}"), &a));
        } else {
            check_answer(format!("migrate {pdf}"), &a, &mut wrong);
        }
    }
    // Every kind of check answer was among those validated.
    for kind in ["clean", "findings", "unreadable", "error"] {
        assert!(
            kinds.contains(kind),
            "no {kind} answer validated: {kinds:?}"
        );
    }
    let packed = cli(&["pack", "testdata/check/clean/manifest.toml"]);
    wrong.extend(
        pack.iter_errors(&serde_json::from_slice(&packed).unwrap())
            .map(|e| format!("pack: {e} at {}", e.instance_path())),
    );
    for (path, name) in [
        ("/v1/codes", "Codes"),
        ("/v1/explain/tag_unterminated", "Explained"),
        ("/readyz", "Ready"),
        ("/nope", "ErrorBody"),
    ] {
        wrong.extend(invalid(&validator(&doc, name), path, &server.get(path)));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_client_that_hangs_up_frees_its_place_and_is_logged_as_499() {
    // One place: the next request is answered only if the hung-up one gave it back.
    let server = Server::start(
        &["--max-pending", "1"],
        &[("SIGNPREP_TEST_HANG", "hang.pdf")],
    );
    let good = read("testdata/fixtures/base14_courier.pdf");
    let impatient: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(1)))
        .build()
        .into();
    let gone = impatient
        .post(format!("{}/v1/scan?name=hang.pdf", server.url))
        .header("Content-Type", "application/pdf")
        .send(&good[..]);
    assert!(gone.is_err(), "the hung file was answered: {gone:?}");
    let start = std::time::Instant::now();
    while server.get("/readyz").json()["requests_in_flight"] != 0 {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "the hung-up request kept its place"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let next = server.post("/v1/scan", "application/pdf", &good);
    assert_eq!(next.status, 200, "{}", next.text());
    let metrics = server.get("/metrics").text();
    assert!(
        metrics.contains(r#"route="/v1/scan",status="499"} 1"#),
        "{metrics}"
    );
    let log = server.log.lock().unwrap().clone();
    assert!(
        log.iter().any(|l| l.contains(" POST /v1/scan 499 ")
            && l.ends_with("(the client went away before the answer)")),
        "{log:?}"
    );
}
