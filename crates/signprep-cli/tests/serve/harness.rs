//! A `signprep serve` on a loopback port (127.0.0.1, port 0), started and
//! stopped by the test, and a real HTTP client (ureq) to call it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, no trailing slash.
    pub url: String,
    /// Every line the server wrote on stderr so far.
    pub log: Arc<Mutex<Vec<String>>>,
    agent: ureq::Agent,
}

/// The answer: status, headers that tests read, body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub retry_after: Option<String>,
    pub request_id: Option<String>,
    /// Every header, names lower-case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// A header's value (the first), by its lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The `error.code` of an error body.
    pub fn error_code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or_else(|| panic!("no error code: {}", self.text()))
            .to_string()
    }
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

impl Server {
    /// `signprep serve --addr 127.0.0.1:0 ARGS` with `env` set; waits for
    /// the URL on stderr.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_signprep"));
        cmd.args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .current_dir(super::common::root())
            .env_remove("SIGNPREP_TEST_PANIC")
            .env_remove("SIGNPREP_TEST_HANG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start signprep serve");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let lines = Arc::clone(&log);
        // Drains stderr for the server's whole life (a full pipe would stop it).
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("http://") {
                    let url = line[at..].split_whitespace().next().unwrap_or("");
                    let _ = tx.send(url.trim_end_matches('/').to_string());
                }
                lines.lock().unwrap().push(line);
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no URL on stderr: {:?}", log.lock().unwrap()));
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        Server {
            child,
            url,
            log,
            agent: agent(),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Polls `/readyz` until `n` requests are in flight (at most 30 s).
    pub fn wait_in_flight(&self, n: u64) {
        let start = std::time::Instant::now();
        while self.get("/readyz").json()["requests_in_flight"] != n {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(30),
                "never {n} in flight"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Sends `path` with a client that gives up after 1 s; the file never
    /// ends on its own (`SIGNPREP_TEST_HANG`), so the client hangs up.
    pub fn hang_up(&self, path: &str, body: &[u8]) {
        let impatient: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(std::time::Duration::from_secs(1)))
            .build()
            .into();
        let gone = impatient
            .post(format!("{}{path}", self.url))
            .header("Content-Type", "application/pdf")
            .send(body);
        assert!(
            gone.is_err(),
            "{path}: the hung file was answered: {gone:?}"
        );
    }

    pub fn get(&self, path: &str) -> Answer {
        answer(self.agent.get(format!("{}{path}", self.url)).call())
    }

    /// POST `body` with `Content-Type: media`.
    pub fn post(&self, path: &str, media: &str, body: &[u8]) -> Answer {
        answer(
            self.agent
                .post(format!("{}{path}", self.url))
                .header("Content-Type", media)
                .send(body),
        )
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn terminate(mut self) -> (Option<i32>, Vec<String>) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let code = self.child.wait().unwrap().code();
        // Let the drain thread take the last lines.
        std::thread::sleep(Duration::from_millis(100));
        let lines = self.log.lock().unwrap().clone();
        (code, lines)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn answer(r: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
    try_answer(r).expect("an HTTP answer")
}

/// The answer, or why there was none (the connection closed, say).
pub fn try_answer(
    r: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<Answer, String> {
    let mut r = r.map_err(|e| e.to_string())?;
    let header = |name: &str| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let content_type = header("content-type").unwrap_or_default();
    let retry_after = header("retry-after");
    let request_id = header("x-request-id");
    let headers = r
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let status = r.status().as_u16();
    let body = r
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_vec()
        .map_err(|e| e.to_string())?;
    Ok(Answer {
        status,
        content_type,
        retry_after,
        request_id,
        headers,
        body,
    })
}

/// `signprep ARGS` run from the repository's root: its stdout.
pub fn cli(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .current_dir(super::common::root())
        .env_remove("SIGNPREP_TEST_PANIC")
        .env_remove("SIGNPREP_TEST_HANG")
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "signprep {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The files of a `testdata/` folder ending in `ext`, as paths from the
/// repository's root (`testdata/fixtures/x.pdf`), sorted.
pub fn files(folder: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(super::common::testdata(folder))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(ext))
        .map(|n| format!("testdata/{folder}/{n}"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no {ext} in testdata/{folder}");
    out
}

pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(super::common::root().join(path)).unwrap()
}
