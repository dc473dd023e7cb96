//! `signprep serve` at its edges: clients that stop sending (a body, the
//! headers), a body over the limit from a client that reads only once it has
//! written everything (a raw socket, Python's `urllib`), a client that hangs
//! up mid-body, the bearer scheme's case, a query parameter given twice, a
//! form part the manifest never names. A server on 127.0.0.1, port 0, per
//! test; raw connections where an HTTP client would hide what is tested.
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "serve/harness.rs"]
mod harness;

use harness::{Answer, Server, answer, read};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const PDF: &str = "testdata/fixtures/base14_courier.pdf";

/// A raw connection to the server, its reads and writes bounded.
fn connect(server: &Server) -> TcpStream {
    let s = TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
    s
}

/// Everything the server sends until it closes the connection: the status
/// and the text, or why they could not be read (with what was).
fn read_to_close(s: &mut TcpStream) -> Result<(u16, String), String> {
    let mut got = Vec::new();
    if let Err(e) = s.read_to_end(&mut got) {
        return Err(format!("{e} after {:?}", String::from_utf8_lossy(&got)));
    }
    let text = String::from_utf8_lossy(&got).into_owned();
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|t| t.get(..3))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| format!("not an HTTP answer: {text:?}"))?;
    Ok((status, text))
}

/// The request line and headers of a POST of a PDF.
fn head(path: &str, framing: &str) -> String {
    format!("POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/pdf\r\n{framing}\r\n")
}

/// Polls `/metrics` until it contains `line` (or 30 s pass); the text.
fn wait_metric(server: &Server, line: &str) -> String {
    let start = Instant::now();
    loop {
        let text = server.get("/metrics").text();
        if text.contains(line) || start.elapsed() > Duration::from_secs(30) {
            return text;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// N connections that announce 100 bytes and send 5 fill a `--max-pending N`
/// server. Each is answered 408 `body_timeout` after `--body-timeout` and its
/// place given back: a good request is answered within the timeout and a
/// margin (it was 503 for as long as the stalled clients stayed, 600 s and
/// more, while `/readyz` said ready).
#[test]
fn stalled_uploads_are_answered_408_and_give_their_places_back() {
    const N: u64 = 3;
    const TIMEOUT: Duration = Duration::from_secs(1);
    const MARGIN: Duration = Duration::from_secs(2);
    let server = Server::start(
        &["--quiet", "--max-pending", "3", "--body-timeout", "1"],
        &[],
    );
    let good = read(PDF);
    let start = Instant::now();
    let mut stalled: Vec<TcpStream> = (0..N)
        .map(|_| {
            let mut s = connect(&server);
            s.write_all(head("/v1/scan", "Content-Length: 100\r\n").as_bytes())
                .unwrap();
            s.write_all(b"%PDF-").unwrap();
            s
        })
        .collect();
    server.wait_in_flight(N);
    assert_eq!(server.get("/readyz").status, 200);
    let busy = server.post("/v1/scan", "application/pdf", &good);
    assert_eq!(busy.status, 503, "{}", busy.text());
    // Retried as a client told `Retry-After` would, only faster.
    let answered = loop {
        let a = server.post("/v1/scan", "application/pdf", &good);
        if a.status != 503 || start.elapsed() > TIMEOUT + MARGIN {
            break a;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = start.elapsed();
    assert_eq!(answered.status, 200, "after {took:?}: {}", answered.text());
    assert!(took < TIMEOUT + MARGIN, "answered after {took:?}");
    eprintln!(
        "{N} stalled uploads against --max-pending {N}, --body-timeout 1: a good request answered 200 after {took:?}"
    );
    for (i, s) in stalled.iter_mut().enumerate() {
        let (status, text) = read_to_close(s).unwrap();
        assert_eq!(status, 408, "stalled upload {i}: {text}");
        assert!(
            text.contains(r#""code":"body_timeout""#) && text.contains("for 1 s"),
            "stalled upload {i}: {text}"
        );
    }
    let metrics = wait_metric(&server, r#"route="/v1/scan",status="408"} 3"#);
    assert!(
        metrics.contains(r#"route="/v1/scan",status="408"} 3"#),
        "{metrics}"
    );
    assert_eq!(server.get("/readyz").json()["requests_in_flight"], 0);
}

/// A client that trickles its body, a byte every 200 ms (each well within
/// `--body-timeout 1`), is answered 408 once the body falls behind
/// `--body-min-rate` (100 bytes a second after the first second: at about
/// 1.05 s), where it used to hold its place until its 1,000 bytes were in
/// (200 s). A slow but steady upload of the same server's limits is taken.
#[test]
fn a_trickled_body_is_answered_408_at_the_minimum_rate() {
    const LIMIT: Duration = Duration::from_secs(6);
    let server = Server::start(
        &["--quiet", "--body-timeout", "1", "--body-min-rate", "100"],
        &[],
    );
    let mut s = connect(&server);
    s.write_all(head("/v1/scan", "Content-Length: 1000\r\n").as_bytes())
        .unwrap();
    let start = Instant::now();
    let mut sent = 0;
    // Bounded: at most LIMIT / 200 ms bytes; the server closes long before.
    while start.elapsed() < LIMIT && s.write_all(b"%").is_ok() {
        sent += 1;
        std::thread::sleep(Duration::from_millis(200));
        if server_answered(&s) {
            break;
        }
    }
    let took = start.elapsed();
    let (status, text) = read_to_close(&mut s).unwrap();
    assert_eq!(status, 408, "after {took:?}, {sent} bytes sent: {text}");
    assert!(
        text.contains(r#""code":"body_timeout""#)
            && text.contains("the body arrived too slowly")
            && text.contains("minimum of 100 bytes a second after the first 1 s"),
        "{text}"
    );
    assert!(took < Duration::from_secs(3), "answered after {took:?}");
    eprintln!("a body trickled a byte every 200 ms: 408 after {took:?} ({sent} bytes sent)");

    // Steady: the fixture in four parts 300 ms apart (pauses within the
    // timeout, ~1 KiB a second on average: above the minimum).
    let pdf = read(PDF);
    let mut s = connect(&server);
    let framing = format!("Content-Length: {}\r\n", pdf.len());
    s.write_all(head("/v1/scan", &framing).as_bytes()).unwrap();
    for part in pdf.chunks(pdf.len().div_ceil(4)) {
        s.write_all(part).unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    let mut got = [0u8; 12];
    s.read_exact(&mut got).unwrap();
    assert_eq!(
        &got,
        b"HTTP/1.1 200",
        "a steady upload of {} bytes",
        pdf.len()
    );
}

/// Whether the server has written to `s` (without consuming it).
fn server_answered(s: &TcpStream) -> bool {
    let mut byte = [0u8; 1];
    s.set_nonblocking(true).unwrap();
    let answered = matches!(s.peek(&mut byte), Ok(n) if n > 0);
    s.set_nonblocking(false).unwrap();
    answered
}

/// A request whose headers never end: the connection is closed after
/// `--header-timeout`, and counted.
#[test]
fn headers_that_never_end_close_the_connection_after_the_header_timeout() {
    let server = Server::start(&["--quiet", "--header-timeout", "1"], &[]);
    let mut s = connect(&server);
    let start = Instant::now();
    s.write_all(b"POST /v1/scan HTTP/1.1\r\nHost: test\r\nContent-Ty")
        .unwrap();
    let mut got = Vec::new();
    let read = s.read_to_end(&mut got);
    let took = start.elapsed();
    assert!(read.is_ok() && got.is_empty(), "{read:?} {got:?}");
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(5),
        "closed after {took:?}"
    );
    let metrics = wait_metric(&server, "signprep_http_header_timeouts_total 1");
    assert!(
        metrics.contains("signprep_http_header_timeouts_total 1"),
        "{metrics}"
    );
    // Others are served as ever.
    assert_eq!(
        server
            .post("/v1/scan", "application/pdf", &read_pdf())
            .status,
        200
    );
}

fn read_pdf() -> Vec<u8> {
    read(PDF)
}

/// Writes `framing`'s head and all of `body` (as `urllib` does: everything
/// before reading), then reads the answer.
fn send_all_then_read(
    server: &Server,
    framing: &str,
    body: &[u8],
) -> Result<(u16, String), String> {
    let mut s = connect(server);
    s.write_all(head("/v1/scan", framing).as_bytes())
        .map_err(|e| format!("writing the head: {e}"))?;
    s.write_all(body)
        .map_err(|e| format!("writing the body: {e}"))?;
    read_to_close(&mut s)
}

fn chunked(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in body.chunks(64 << 10) {
        out.extend(format!("{:x}\r\n", chunk.len()).bytes());
        out.extend(chunk);
        out.extend(b"\r\n");
    }
    out.extend(b"0\r\n\r\n");
    out
}

/// The 413 of a body over `--max-body` reaches a client that writes the
/// whole body before it reads: the rest is read and dropped after the
/// answer (a lingering close), where it was a reset (a broken pipe).
#[test]
fn a_body_over_the_limit_is_answered_413_to_a_client_that_writes_it_all_first() {
    let server = Server::start(&["--quiet", "--max-body", "64K"], &[]);
    let body = vec![b'%'; 8 << 20];
    let declared = send_all_then_read(
        &server,
        &format!("Content-Length: {}\r\n", body.len()),
        &body,
    );
    let (status, text) = declared.unwrap_or_else(|e| panic!("with Content-Length: {e}"));
    assert_eq!(status, 413, "with Content-Length: {text}");
    assert!(text.contains(r#""code":"body_too_large""#), "{text}");
    // The limit as the client sees it, not the server's flag.
    assert!(
        text.contains("65536 bytes at most") && !text.contains("--max-body"),
        "{text}"
    );
    let (status, text) =
        send_all_then_read(&server, "Transfer-Encoding: chunked\r\n", &chunked(&body))
            .unwrap_or_else(|e| panic!("chunked: {e}"));
    assert_eq!(status, 413, "chunked: {text}");
    // A client that waits for `100 Continue` sends nothing: answered at once.
    let mut s = connect(&server);
    s.write_all(
        head(
            "/v1/scan",
            &format!("Content-Length: {}\r\nExpect: 100-continue\r\n", body.len()),
        )
        .as_bytes(),
    )
    .unwrap();
    let (status, text) = read_to_close(&mut s).unwrap();
    assert_eq!(status, 413, "Expect: 100-continue: {text}");
    assert!(!text.contains("100 Continue"), "{text}");
    assert_eq!(
        server
            .post("/v1/scan", "application/pdf", &read_pdf())
            .status,
        200
    );
}

/// Python's `urllib` posts the whole body, then reads: it gets the 413 and
/// its error body (it was `BrokenPipeError`). CI has python3 (`.ci/run`).
#[test]
fn pythons_urllib_reads_the_413_of_a_body_over_the_limit() {
    let server = Server::start(&["--quiet", "--max-body", "64K"], &[]);
    let script = r#"
import sys, urllib.request, urllib.error
req = urllib.request.Request(sys.argv[1], data=b"%" * (8 << 20),
                             headers={"Content-Type": "application/pdf"})
try:
    urllib.request.urlopen(req, timeout=60)
    print("200")
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode())
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script, &format!("{}/v1/scan", server.url)])
        .output()
        .expect("python3 (CI has it)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.starts_with("413 ") && stdout.contains("body_too_large"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A client that hangs up mid-body is logged and counted as 499 (the
/// client closed the request), as one that hangs up mid-work: not 400.
#[test]
fn a_client_that_hangs_up_mid_body_or_mid_work_is_logged_and_counted_499() {
    let server = Server::start(
        &["--jobs", "1", "--timeout-per-file", "300"],
        &[("SIGNPREP_TEST_HANG", "hang.pdf")],
    );
    // Mid-body: 1,000 bytes of 100,000, then the connection closed.
    let mut s = connect(&server);
    s.write_all(head("/v1/scan?name=cut.pdf", "Content-Length: 100000\r\n").as_bytes())
        .unwrap();
    s.write_all(&[b'%'; 1000]).unwrap();
    server.wait_in_flight(1);
    drop(s);
    let metrics = wait_metric(&server, r#"route="/v1/scan",status="499"} 1"#);
    assert!(
        metrics.contains(r#"route="/v1/scan",status="499"} 1"#)
            && !metrics.contains(r#"status="400""#),
        "{metrics}"
    );
    // Mid-work: a file that never ends, a client that gives up after 1 s.
    server.hang_up("/v1/scan?name=hang.pdf", &read_pdf());
    let metrics = wait_metric(&server, r#"route="/v1/scan",status="499"} 2"#);
    assert!(
        metrics.contains(r#"route="/v1/scan",status="499"} 2"#),
        "{metrics}"
    );
    let (_, log) = server.terminate();
    let gone: Vec<&String> = log
        .iter()
        .filter(|l| l.contains(" POST /v1/scan "))
        .collect();
    assert_eq!(gone.len(), 2, "{log:#?}");
    for line in gone {
        assert!(
            line.contains(" 499 ") && line.ends_with("(the client went away before the answer)"),
            "{line}"
        );
    }
}

fn with_authorization(server: &Server, value: &str) -> Answer {
    answer(
        harness::agent()
            .get(format!("{}/v1/codes", server.url))
            .header("Authorization", value)
            .call(),
    )
}

/// The scheme of `Authorization` is case-insensitive (RFC 9110, 11.1):
/// `bearer` and `BEARER` are `Bearer`.
#[test]
fn the_bearer_scheme_is_taken_in_any_case() {
    let dir = common::scratch("serve-edges", "token");
    let token = dir.join("token");
    std::fs::write(&token, "s3cret\n").unwrap();
    let server = Server::start(&["--quiet", "--token-file", token.to_str().unwrap()], &[]);
    assert_eq!(with_authorization(&server, "Bearer s3cret").status, 200);
    assert_eq!(with_authorization(&server, "bearer s3cret").status, 200);
    assert_eq!(with_authorization(&server, "BEARER s3cret").status, 200);
    assert_eq!(with_authorization(&server, "bEaReR   s3cret").status, 200);
    assert_eq!(with_authorization(&server, "Basic s3cret").status, 401);
    assert_eq!(with_authorization(&server, "Bearers3cret").status, 401);
    let missing = server.get("/v1/codes");
    assert_eq!(missing.status, 401);
    // The client is told what to send, not the server's flag.
    let message = missing.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        message.contains("Authorization: Bearer") && !message.contains("--"),
        "{message}"
    );
}

/// A query parameter given twice is refused naming it, as the command line
/// refuses a repeated `--dpi` (the last one was taken); the repeatable ones
/// (`type_map`, as `--type-map`) are taken.
#[test]
fn a_query_parameter_given_twice_is_400_naming_it() {
    let server = Server::start(&["--quiet"], &[]);
    let good = read_pdf();
    let a = server.post("/v1/scan?dpi=72&dpi=96", "application/pdf", &good);
    assert_eq!(a.status, 400, "{}", a.text());
    assert_eq!(a.error_code(), "bad_request");
    assert_eq!(
        a.json()["error"]["message"],
        "`dpi`: the query parameter is given 2 times (`72`, `96`); give it once"
    );
    let a = server.post("/v1/preview?page=1&dpi=96&page=2", "application/pdf", &good);
    assert_eq!(a.status, 400, "{}", a.text());
    assert!(
        a.text()
            .contains("`page`: the query parameter is given 2 times"),
        "{}",
        a.text()
    );
    let a = server.post(
        "/v1/check?format=json&format=sarif",
        "application/pdf",
        &good,
    );
    assert_eq!(a.status, 400, "{}", a.text());
    assert!(a.text().contains("`format`"), "{}", a.text());
    let a = server.post(
        "/v1/scan?data_fields=true&type_map=A*%3Dtext&type_map=S*%3Dsignature",
        "application/pdf",
        &good,
    );
    assert_eq!(a.status, 200, "{}", a.text());
}

const BOUNDARY: &str = "signprep-edges-7MA4YWxkTrZu0gW";

/// A form body of `(part name, file name, bytes)`.
fn form(parts: &[(&str, &str, Vec<u8>)]) -> Vec<u8> {
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

/// A `pdf` part no path of the manifest names is a warning,
/// `form_part_unused`, naming it: in `/v1/check`'s findings, and in
/// `/v1/pack`'s `x-findings` (the pack is still built); it was ignored
/// without a word.
#[test]
fn a_form_pdf_the_manifest_never_names_is_a_warning() {
    let server = Server::start(&["--quiet"], &[]);
    let manifest = "testdata/check/clean/manifest.toml";
    let parts = [
        ("manifest", manifest, read(manifest)),
        (
            "pdf",
            "../pdfs/contract.pdf",
            read("testdata/check/pdfs/contract.pdf"),
        ),
        (
            "pdf",
            "../pdfs/form.pdf",
            read("testdata/check/pdfs/form.pdf"),
        ),
        (
            "pdf",
            "../pdfs/contract_v2.pdf",
            read("testdata/check/pdfs/contract.pdf"),
        ),
    ];
    let media = format!("multipart/form-data; boundary={BOUNDARY}");
    let a = server.post("/v1/check", &media, &form(&parts));
    assert_eq!(a.status, 200, "{}", a.text());
    let findings = a.json()["files"][0]["findings"].clone();
    let unused: Vec<&serde_json::Value> = findings
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "form_part_unused")
        .collect();
    assert_eq!(unused.len(), 1, "{findings}");
    assert_eq!(unused[0]["severity"], "warning");
    assert_eq!(
        unused[0]["message"],
        "the PDF `../pdfs/contract_v2.pdf` given with the manifest is named by no document's `path`: it is not used"
    );
    let a = server.post("/v1/pack", &media, &form(&parts));
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(
        a.header("x-findings"),
        Some("form_part_unused"),
        "{:?}",
        a.headers
    );
    // Every part named: no finding, no header.
    let a = server.post("/v1/pack", &media, &form(&parts[..3]));
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.header("x-findings"), None, "{:?}", a.headers);
}
