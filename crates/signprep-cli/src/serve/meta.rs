//! The routes about the server and the codes: `/healthz`, `/readyz`,
//! `/metrics`, `/v1/codes`, `/v1/explain/{code}`.

use super::App;
use super::api::{ApiCode, ApiError, json_bytes, json_response};
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// `GET /healthz`: the process answers.
pub async fn healthz() -> Response {
    json_response(StatusCode::OK, b"{\"status\":\"ok\"}\n".to_vec())
}

/// `/readyz`'s answer while the server takes work.
#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Ready {
    /// `ready`.
    status: &'static str,
    /// `--jobs`.
    worker_threads: usize,
    /// Requests admitted now.
    requests_in_flight: usize,
    /// Threads lost to files the watchdog gave up on.
    worker_threads_lost: usize,
    /// Templates (`.docx`, `.odt`) are converted: the server was started with
    /// LibreOffice (`--soffice`, `$SIGNPREP_SOFFICE`) and found it. Without it
    /// a template is answered 422 `convert_failed`.
    templates: bool,
}

/// `GET /readyz`: 200 while the server takes work; 503 `not_ready` once it
/// is stopping, or when as many worker threads as it has are lost to inputs
/// the watchdog gave up on (restart it: a thread cannot be killed).
pub async fn readyz(State(app): State<Arc<App>>) -> Response {
    let threads = app.engine.threads();
    let lost = app.engine.lost_threads();
    if app.stopping.load(Ordering::SeqCst) {
        return ApiError::new(ApiCode::NotReady, "the server is stopping").into_response();
    }
    if lost >= threads {
        return ApiError::new(
            ApiCode::NotReady,
            format!("{lost} worker threads are stuck on inputs the watchdog gave up on; restart the server"),
        )
        .into_response();
    }
    let body = Ready {
        status: "ready",
        worker_threads: threads,
        requests_in_flight: app.engine.pending(),
        worker_threads_lost: lost,
        templates: app.templates.available(),
    };
    json_response(StatusCode::OK, json_bytes(&body))
}

/// `GET /metrics`: Prometheus text.
pub async fn metrics(State(app): State<Arc<App>>) -> Response {
    let text = app
        .metrics
        .render(app.engine.pending(), app.engine.lost_threads());
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    r
}

/// One code of `/v1/codes`.
#[derive(Serialize, schemars::JsonSchema)]
struct CodeEntry {
    /// Stable snake_case code.
    code: &'static str,
    /// `error`, `warning` or `info`.
    severity: &'static str,
    /// Where it comes from (`scan`, `check`, ...).
    section: &'static str,
}

/// `/v1/codes`'s answer.
#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Codes {
    /// Every code, as `signprep explain --list`.
    codes: Vec<CodeEntry>,
}

/// `GET /v1/codes`: every code, as `signprep explain --list`.
pub async fn codes() -> Response {
    let codes = crate::explain_cmd::listing()
        .into_iter()
        .map(|(code, severity, section)| CodeEntry {
            code,
            severity,
            section,
        })
        .collect();
    json_response(StatusCode::OK, json_bytes(&Codes { codes }))
}

/// `/v1/explain/{code}`'s answer.
#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Explained<'a> {
    /// The code.
    code: &'a str,
    /// `error`, `warning` or `info`.
    severity: &'static str,
    /// Where it comes from.
    section: &'static str,
    /// The documentation (Markdown), as `signprep explain CODE` prints it.
    doc: String,
}

/// `GET /v1/explain/{code}`: a code's documentation, or 404.
pub async fn explain(Path(code): Path<String>) -> Response {
    let name = code.trim().to_ascii_lowercase().replace('-', "_");
    match crate::explain_cmd::describe(&name) {
        Some(d) => json_response(
            StatusCode::OK,
            json_bytes(&Explained {
                code: &name,
                severity: d.severity,
                section: d.section,
                doc: d.doc,
            }),
        ),
        None => {
            let shown = crate::text::clean(&code);
            let message = match crate::explain_cmd::suggest(&name) {
                Some(n) => {
                    format!("no code `{shown}`; did you mean `{n}`? (GET /v1/codes lists them)")
                }
                None => format!("no code `{shown}` (GET /v1/codes lists them)"),
            };
            ApiError::new(ApiCode::NotFound, message).into_response()
        }
    }
}
