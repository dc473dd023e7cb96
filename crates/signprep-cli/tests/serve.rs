//! `signprep serve` over HTTP: a server on a loopback port (127.0.0.1, port
//! 0) started and stopped by each test, called with a real HTTP client.
//! Every route, every error status, and the records equal to the CLI's.
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "serve/harness.rs"]
mod harness;

use harness::{Server, answer, cli, files, read};
use std::time::Duration;

/// `scan --format ndjson`'s records of `paths`, one per path, in order.
fn cli_scan(extra: &[&str], paths: &[String]) -> Vec<Vec<u8>> {
    let mut args = vec!["scan", "--format", "ndjson", "--no-summary", "--jobs", "1"];
    args.extend(extra);
    args.extend(paths.iter().map(String::as_str));
    let out = cli(&args);
    let lines: Vec<Vec<u8>> = out
        .split_inclusive(|b| *b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    assert_eq!(
        lines.len(),
        paths.len(),
        "{}",
        String::from_utf8_lossy(&out)
    );
    lines
}

/// POSTs each PDF to `/v1/scan?name=PATH&QUERY` and lists every answer that
/// is not the CLI's record byte for byte (or whose status does not say what
/// the record says: 200 for `ok`, 422 for `error`).
fn scan_differences(
    server: &Server,
    query: &str,
    paths: &[String],
    want: &[Vec<u8>],
) -> Vec<String> {
    let mut differ = Vec::new();
    for (path, want) in paths.iter().zip(want) {
        let a = server.post(
            &format!("/v1/scan?name={path}{query}"),
            "application/pdf",
            &read(path),
        );
        let record: serde_json::Value = serde_json::from_slice(want).unwrap();
        let status = if record["status"] == "ok" { 200 } else { 422 };
        if a.status != status || &a.body != want || a.content_type != "application/json" {
            differ.push(format!(
                "{path}: {} {}\n  want {status} {}",
                a.status,
                a.text(),
                String::from_utf8_lossy(want)
            ));
        }
    }
    differ
}

#[test]
fn scan_records_equal_the_clis_on_the_fixtures() {
    let server = Server::start(&["--quiet"], &[]);
    let paths = files("fixtures", ".pdf");
    let want = cli_scan(&[], &paths);
    let differ = scan_differences(&server, "", &paths, &want);
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn scan_records_equal_the_clis_on_the_hostile_files() {
    let server = Server::start(&["--quiet"], &[]);
    let paths = files("hostile", ".pdf");
    let want = cli_scan(&[], &paths);
    let differ = scan_differences(&server, "", &paths, &want);
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn scan_query_options_are_the_clis_flags() {
    let server = Server::start(&["--quiet"], &[]);
    let paths = files("fixtures", ".pdf");
    let want = cli_scan(
        &[
            "--dpi",
            "96",
            "--data-fields",
            "--type-map",
            "SIG*=signature",
            "--dialect",
            "all",
            "--no-fields",
        ],
        &paths,
    );
    let differ = scan_differences(
        &server,
        "&dpi=96&data_fields=true&type_map=SIG*%3Dsignature&dialect=all&fields=false",
        &paths,
        &want,
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    let want = cli_scan(&["--page-width", "800"], &paths);
    let differ = scan_differences(&server, "&page_width=800", &paths, &want);
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn check_output_equals_the_clis_on_the_check_cases() {
    let server = Server::start(&["--quiet"], &[]);
    let mut paths = files("check/cases", ".json");
    paths.extend(files("check/cases", ".pdf"));
    let mut differ = Vec::new();
    let mut refused = Vec::new();
    for path in &paths {
        let want = cli(&["check", "--format", "json", path]);
        let kind =
            serde_json::from_slice::<serde_json::Value>(&want).unwrap()["files"][0]["kind"].clone();
        let media = if path.ends_with(".pdf") {
            "application/pdf"
        } else {
            "application/json"
        };
        let a = server.post(&format!("/v1/check?name={path}"), media, &read(path));
        if kind == "requests" || kind == "manifest" {
            // They name files on disk: the server reads bodies only.
            if a.status != 422 || a.error_code() != "input_names_files" {
                differ.push(format!("{path} ({kind}): {} {}", a.status, a.text()));
            }
            refused.push(path.clone());
            continue;
        }
        if a.status != 200 || a.body != want {
            differ.push(format!(
                "{path}: {} {}\n  want {}",
                a.status,
                a.text(),
                String::from_utf8_lossy(&want)
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(refused.len() < paths.len() / 4, "{refused:?}");
}

#[test]
fn check_sarif_equals_the_clis() {
    let server = Server::start(&["--quiet"], &[]);
    let path = "testdata/check/cases/email_invalid.json";
    let want = cli(&["check", "--format", "sarif", path]);
    let a = server.post(
        &format!("/v1/check?name={path}&format=sarif"),
        "application/json",
        &read(path),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.content_type, "application/sarif+json");
    assert_eq!(a.text(), String::from_utf8_lossy(&want));
}

#[test]
fn unreadable_and_encrypted_pdfs_are_422_with_their_error_record() {
    let server = Server::start(&["--quiet"], &[]);
    for (path, code) in [
        ("testdata/hostile/garbage.pdf", "pdf_unreadable"),
        (
            "testdata/hostile/encrypted_user_password_empty_owner.pdf",
            "pdf_encrypted",
        ),
    ] {
        let a = server.post("/v1/scan", "application/pdf", &read(path));
        assert_eq!(a.status, 422, "{path}: {}", a.text());
        let r = a.json();
        assert_eq!(r["status"], "error", "{r}");
        assert_eq!(r["error"]["code"], code, "{r}");
        assert_eq!(r["path"], "-", "{r}");
    }
    assert_eq!(
        server
            .post(
                "/v1/scan",
                "application/pdf",
                &read("testdata/fixtures/base14_courier.pdf")
            )
            .status,
        200
    );
}

#[test]
fn refusals_are_json_errors_in_our_words_and_the_server_goes_on() {
    let server = Server::start(&["--quiet", "--max-body", "64K"], &[]);
    let good = read("testdata/fixtures/base14_courier.pdf");
    let cases: Vec<(&str, harness::Answer, u16, &str)> = vec![
        ("unknown route", server.get("/nope"), 404, "not_found"),
        (
            "wrong method",
            server.get("/v1/scan"),
            405,
            "method_not_allowed",
        ),
        (
            "wrong content type",
            server.post("/v1/scan", "text/plain", &good),
            415,
            "unsupported_media_type",
        ),
        (
            "no content type",
            answer(
                harness::agent()
                    .post(format!("{}/v1/check", server.url))
                    .send(&good[..]),
            ),
            415,
            "unsupported_media_type",
        ),
        (
            "unknown query parameter",
            server.post("/v1/scan?dpy=96", "application/pdf", &good),
            400,
            "bad_request",
        ),
        (
            "bad query value",
            server.post("/v1/scan?dpi=-1", "application/pdf", &good),
            400,
            "bad_request",
        ),
        (
            "body over --max-body (Content-Length)",
            server.post("/v1/scan", "application/pdf", &vec![b'%'; 100 << 10]),
            413,
            "body_too_large",
        ),
        (
            "body over --max-body (chunked, no length)",
            answer(
                harness::agent()
                    .post(format!("{}/v1/scan", server.url))
                    .header("Content-Type", "application/pdf")
                    .send(ureq::SendBody::from_reader(&mut &vec![b'%'; 100 << 10][..])),
            ),
            413,
            "body_too_large",
        ),
        (
            "a manifest names files",
            server.post(
                "/v1/check?kind=manifest",
                "application/json",
                &read("testdata/check/cases/email_invalid.json"),
            ),
            422,
            "input_names_files",
        ),
        (
            "unknown code",
            server.get("/v1/explain/no_such_code"),
            404,
            "not_found",
        ),
    ];
    for (what, a, status, code) in cases {
        assert_eq!(a.status, status, "{what}: {}", a.text());
        assert_eq!(a.content_type, "application/json", "{what}");
        assert_eq!(a.error_code(), code, "{what}: {}", a.text());
        let message = a.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.len() > 10, "{what}: {message}");
        // The next request is answered as ever.
        let next = server.post("/v1/scan", "application/pdf", &good);
        assert_eq!(next.status, 200, "after {what}: {}", next.text());
    }
}

#[test]
fn a_dialect_list_is_read_as_dialect_reads_it_and_docusign_is_refused_in_the_apis_words() {
    let server = Server::start(&["--quiet"], &[]);
    let pdf = read("testdata/fixtures/base14_courier.pdf");
    for (path, want) in [
        (
            "/v1/scan?dialect=nonsense",
            "`dialect`: unknown dialect `nonsense`: expected all, adobe, dropbox, boldsign, docuseal, signnow, pandadoc or documenso",
        ),
        (
            "/v1/scan?dialect=docusign",
            "`dialect`: DocuSign has no text-tag grammar, and this server takes no anchor tabs: give them to `signprep scan` or `signprep migrate` with --anchors FILE (an envelope definition or template)",
        ),
        (
            "/v1/migrate?dialect=adobe,DocuSign",
            "`dialect`: DocuSign has no text-tag grammar, and this server takes no anchor tabs: give them to `signprep scan` or `signprep migrate` with --anchors FILE (an envelope definition or template)",
        ),
    ] {
        let a = server.post(path, "application/pdf", &pdf);
        assert_eq!(
            (a.status, a.error_code()),
            (400, "bad_request".to_string()),
            "{path}: {}",
            a.text()
        );
        assert_eq!(a.json()["error"]["message"], want, "{path}");
    }
    // The list is the CLI's: names, aliases, `all`, any case, commas or spaces.
    let a = server.post(
        "/v1/scan?dialect=HelloSign%20acrobat,all",
        "application/pdf",
        &pdf,
    );
    assert_eq!(a.status, 200, "{}", a.text());
}

#[test]
fn meta_routes() {
    let server = Server::start(&[], &[]);
    let a = server.get("/healthz");
    assert_eq!((a.status, a.json()["status"].clone()), (200, "ok".into()));
    let a = server.get("/readyz");
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.json()["status"], "ready");
    let codes = server.get("/v1/codes").json();
    let names: Vec<&str> = codes["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect();
    let listed = String::from_utf8(cli(&["explain", "--list"])).unwrap();
    let cli_names: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, cli_names);
    let a = server.get("/v1/explain/tag_id_not_uppercase");
    assert_eq!(a.status, 200);
    let e = a.json();
    assert_eq!(e["code"], "tag_id_not_uppercase");
    let doc = e["doc"].as_str().unwrap();
    let cli_doc = String::from_utf8(cli(&["explain", "tag_id_not_uppercase"])).unwrap();
    assert!(cli_doc.contains(doc), "{doc}");
    let a = server.get("/v1/explain/tag_id_not_upercase");
    assert_eq!(a.status, 404);
    assert!(
        a.text().contains("did you mean `tag_id_not_uppercase`"),
        "{}",
        a.text()
    );

    // The request id is answered and logged.
    let a = server.post(
        "/v1/scan",
        "application/pdf",
        &read("testdata/fixtures/base14_courier.pdf"),
    );
    let id = a.request_id.clone().expect("x-request-id");
    std::thread::sleep(Duration::from_millis(200));
    let log = server.log.lock().unwrap().clone();
    assert!(
        log.iter()
            .any(|l| l.contains(&id) && l.contains("POST /v1/scan 200")),
        "{log:#?}"
    );
    assert_eq!(server.get("/nope").status, 404);
    let m = server.get("/metrics");
    assert_eq!(m.status, 200);
    assert!(
        m.content_type.starts_with("text/plain; version=0.0.4"),
        "{}",
        m.content_type
    );
    let text = m.text();
    for line in [
        "signprep_http_requests_total{route=\"/v1/scan\",status=\"200\"} 1",
        "signprep_http_requests_total{route=\"unmatched\",status=\"404\"}",
        "signprep_files_total{status=\"ok\"} 1",
        "signprep_http_request_duration_seconds_count",
        "signprep_requests_in_flight 0",
    ] {
        assert!(text.contains(line), "no `{line}` in\n{text}");
    }
}

#[test]
fn a_bearer_token_guards_every_route_but_the_probes() {
    let dir = common::scratch("serve", "token");
    let token = dir.join("token");
    std::fs::write(&token, "s3cret\n").unwrap();
    let server = Server::start(&["--quiet", "--token-file", token.to_str().unwrap()], &[]);
    let good = read("testdata/fixtures/base14_courier.pdf");
    let a = server.post("/v1/scan", "application/pdf", &good);
    assert_eq!(
        (a.status, a.error_code()),
        (401, "unauthorized".into()),
        "{}",
        a.text()
    );
    let wrong = answer(
        harness::agent()
            .post(format!("{}/v1/scan", server.url))
            .header("Content-Type", "application/pdf")
            .header("Authorization", "Bearer nope")
            .send(&good[..]),
    );
    assert_eq!(wrong.status, 401);
    let right = answer(
        harness::agent()
            .post(format!("{}/v1/scan", server.url))
            .header("Content-Type", "application/pdf")
            .header("Authorization", "Bearer s3cret")
            .send(&good[..]),
    );
    assert_eq!(right.status, 200, "{}", right.text());
    assert_eq!(server.get("/healthz").status, 200);
    assert_eq!(server.get("/readyz").status, 200);
    assert_eq!(server.get("/v1/codes").status, 401);
}

#[test]
fn past_max_pending_is_503_and_a_stuck_file_is_the_watchdogs_422() {
    let server = Server::start(
        &["--quiet", "--max-pending", "1", "--timeout-per-file", "0.1"],
        &[("SIGNPREP_TEST_HANG", "hang.pdf")],
    );
    let good = read("testdata/fixtures/base14_courier.pdf");
    let url = server.url.clone();
    let body = good.clone();
    let stuck = std::thread::spawn(move || {
        answer(
            harness::agent()
                .post(format!("{url}/v1/scan?name=hang.pdf"))
                .header("Content-Type", "application/pdf")
                .send(&body[..]),
        )
    });
    server.wait_in_flight(1);
    let busy = server.post("/v1/scan", "application/pdf", &good);
    assert_eq!(busy.status, 503, "{}", busy.text());
    assert_eq!(busy.error_code(), "busy");
    assert_eq!(busy.retry_after.as_deref(), Some("1"));
    let stuck = stuck.join().unwrap();
    assert_eq!(stuck.status, 422, "{}", stuck.text());
    let r = stuck.json();
    assert_eq!(r["path"], "hang.pdf");
    common::assert_abandoned(&r);
    // The lost thread is replaced: the next request is answered.
    let next = server.post("/v1/scan", "application/pdf", &good);
    assert_eq!(next.status, 200, "{}", next.text());
    let ready = server.get("/readyz").json();
    assert_eq!(ready["worker_threads_lost"], 1, "{ready}");
}

#[test]
fn a_client_that_hangs_up_cancels_its_work_and_frees_the_worker() {
    // One worker, and a watchdog (2 x 300 s + 5 s) no test waits for: the
    // next request is answered only if the hung-up work stopped.
    let server = Server::start(
        &["--quiet", "--jobs", "1", "--timeout-per-file", "300"],
        &[("SIGNPREP_TEST_HANG", "hang.pdf")],
    );
    let good = read("testdata/fixtures/base14_courier.pdf");
    let patient: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let expected = server.post("/v1/scan?name=a.pdf", "application/pdf", &good);
    assert_eq!(expected.status, 200, "{}", expected.text());
    for path in ["/v1/scan?name=hang.pdf", "/v1/preview?name=hang.pdf"] {
        server.hang_up(path, &good);
        server.wait_in_flight(0);
        let next = answer(
            patient
                .post(format!("{}/v1/scan?name=a.pdf", server.url))
                .header("Content-Type", "application/pdf")
                .send(&good[..]),
        );
        assert_eq!(next.status, 200, "after {path}: {}", next.text());
        // The one worker's answer, not a record of the cancelled work.
        assert_eq!(next.body, expected.body, "after {path}");
        let ready = server.get("/readyz").json();
        assert_eq!(ready["worker_threads_lost"], 0, "after {path}: {ready}");
    }
    let metrics = server.get("/metrics").text();
    assert!(
        metrics.contains(r#"route="/v1/scan",status="499"} 1"#)
            && metrics.contains(r#"route="/v1/preview",status="499"} 1"#),
        "{metrics}"
    );
    // The cancelled work is no file's outcome: only the three answered files count.
    assert!(
        metrics.contains(r#"signprep_files_total{status="ok"} 3"#)
            && !metrics.contains(r#"signprep_files_total{status="error"}"#),
        "{metrics}"
    );
}

#[test]
fn a_panic_is_500_internal_error_and_the_server_stays_up() {
    let server = Server::start(&["--quiet"], &[("SIGNPREP_TEST_PANIC", "boom.pdf")]);
    let good = read("testdata/fixtures/base14_courier.pdf");
    let a = server.post("/v1/scan?name=boom.pdf", "application/pdf", &good);
    assert_eq!(a.status, 500, "{}", a.text());
    let r = a.json();
    assert_eq!(
        (r["status"].clone(), r["error"]["code"].clone()),
        ("error".into(), "internal_error".into()),
        "{r}"
    );
    assert!(
        !a.text().contains("SIGNPREP_TEST_PANIC"),
        "the panic's text stays out: {r}"
    );
    let a = server.post("/v1/check?name=boom.pdf", "application/pdf", &good);
    assert_eq!(a.status, 500, "{}", a.text());
    assert_eq!(a.json()["files"][0]["error"]["code"], "internal_error");
    let next = server.post("/v1/scan", "application/pdf", &good);
    assert_eq!(next.status, 200, "{}", next.text());
    assert_eq!(server.get("/healthz").status, 200);
}

#[test]
fn sigterm_finishes_the_request_in_flight_and_exits_0() {
    let server = Server::start(
        &["--timeout-per-file", "0.1"],
        &[("SIGNPREP_TEST_HANG", "hang.pdf")],
    );
    let good = read("testdata/fixtures/base14_courier.pdf");
    let url = server.url.clone();
    let in_flight = std::thread::spawn(move || {
        answer(
            harness::agent()
                .post(format!("{url}/v1/scan?name=hang.pdf"))
                .header("Content-Type", "application/pdf")
                .send(&good[..]),
        )
    });
    server.wait_in_flight(1);
    let url = server.url.clone();
    let (code, log) = server.terminate();
    assert_eq!(code, Some(0), "{log:#?}");
    let a = in_flight.join().unwrap();
    assert_eq!(a.status, 422, "{}", a.text());
    common::assert_abandoned(&a.json());
    assert!(
        log.iter()
            .any(|l| l.contains("stopping: no new connections")),
        "{log:#?}"
    );
    assert!(
        log.last().is_some_and(|l| l.ends_with("stopped")),
        "{log:#?}"
    );
    assert!(
        harness::agent()
            .get(format!("{url}/healthz"))
            .call()
            .is_err()
    );
}

/// A request of the load test: name, body, the status it must get, the body
/// when it must be exact.
type Request = (String, Vec<u8>, u16, Option<Vec<u8>>);

/// 2,000 requests at concurrency 32, mixing good, broken, encrypted and
/// oversized PDFs, against `--jobs 2 --max-pending 24`: no 5xx but the
/// designed 503 `busy`, every other answer the one it must be, every good
/// answer the CLI's record byte for byte. Bounded: 2,000 requests, a
/// 120 s timeout on each (no timing is asserted).
#[test]
fn load_2000_requests_at_concurrency_32() {
    const REQUESTS: usize = 2000;
    const CLIENTS: usize = 32;
    let server = Server::start(
        &[
            "--quiet",
            "--jobs",
            "2",
            "--max-pending",
            "24",
            "--max-body",
            "64K",
        ],
        &[],
    );
    let paths = files("fixtures", ".pdf");
    let want = cli_scan(&[], &paths);
    let mut mix: Vec<Request> = paths
        .iter()
        .zip(&want)
        .map(|(p, w)| {
            let ok = serde_json::from_slice::<serde_json::Value>(w).unwrap()["status"] == "ok";
            (
                p.clone(),
                read(p),
                if ok { 200 } else { 422 },
                Some(w.clone()),
            )
        })
        .collect();
    mix.push((
        "broken".into(),
        read("testdata/hostile/garbage.pdf"),
        422,
        None,
    ));
    mix.push((
        "encrypted".into(),
        read("testdata/hostile/encrypted_user_password_empty_owner.pdf"),
        422,
        None,
    ));
    mix.push(("oversized".into(), vec![b'%'; 100 << 10], 413, None));
    let mix = std::sync::Arc::new(mix);
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (mix, next, url) = (mix.clone(), next.clone(), server.url.clone());
            std::thread::spawn(move || {
                let agent = harness::agent();
                let mut seen: Vec<(u16, String)> = Vec::new();
                let mut wrong = Vec::new();
                let mut prev: Option<String> = None;
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if i >= REQUESTS {
                        break;
                    }
                    let (name, body, status, exact) = &mix[i % mix.len()];
                    let last_name = prev.replace(name.clone());
                    let a = harness::try_answer(
                        agent
                            .post(format!("{url}/v1/scan?name={name}"))
                            .header("Content-Type", "application/pdf")
                            .send(&body[..]),
                    );
                    let a = match a {
                        Ok(a) => a,
                        Err(e) => {
                            // A client still sending a body the server refused
                            // may find the connection closed before it reads
                            // the 413 (the server reads no further).
                            if *status != 413 {
                                wrong.push(format!("{name}: no answer: {e} (after {last_name:?})"));
                            }
                            seen.push((0, e));
                            continue;
                        }
                    };
                    let code = if a.status >= 400 && a.status != 422 {
                        a.error_code()
                    } else {
                        String::new()
                    };
                    let ok = if a.status == 503 {
                        // A polite client waits before its next request.
                        std::thread::sleep(Duration::from_millis(20));
                        code == "busy"
                    } else {
                        a.status == *status && exact.as_ref().is_none_or(|e| *e == a.body)
                    };
                    if !ok {
                        wrong.push(format!("{name}: {} {}", a.status, a.text()));
                    }
                    seen.push((a.status, code));
                }
                (seen, wrong)
            })
        })
        .collect();
    let mut by_status = std::collections::BTreeMap::<u16, usize>::new();
    let mut wrong = Vec::new();
    for c in clients {
        let (seen, w) = c.join().unwrap();
        for (s, _) in seen {
            *by_status.entry(s).or_default() += 1;
        }
        wrong.extend(w);
    }
    assert!(
        wrong.is_empty(),
        "{} wrong answers: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
    assert_eq!(by_status.values().sum::<usize>(), REQUESTS);
    for status in [200, 413, 422] {
        assert!(
            by_status.get(&status).is_some_and(|n| *n > 0),
            "{by_status:?}"
        );
    }
    assert!(
        by_status
            .keys()
            .all(|s| [0, 200, 413, 422, 503].contains(s)),
        "{by_status:?}"
    );
    eprintln!("load: {by_status:?}");
    // The server is still answering, and nothing is left in flight.
    let ready = server.get("/readyz").json();
    assert_eq!(ready["requests_in_flight"], 0, "{ready}");
}
