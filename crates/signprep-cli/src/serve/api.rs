//! The HTTP side of a request that is not its work: the error body every
//! failure answers with, the content types a route takes, the log line with
//! the request id. Reading a body is [`super::body`]'s; the answers given
//! before a route runs (the bearer token, 404, 405) are [`super::gate`]'s.

use super::App;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// Why a request was refused or failed before (or instead of) its record: the
/// `code` of the error body. A contract with clients: stable snake_case
/// names, listed in the README's table of `signprep serve`'s errors.
// Each written as its variant's name in snake_case, the one source of the
// names: serde writes them, schemars lists them in `/openapi.json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ApiCode {
    /// 400: a query parameter that is unknown or has a bad value.
    BadRequest,
    /// 401: the server has a token (`--token-file`) and the request has no
    /// `Authorization: Bearer` with it (the scheme in any case).
    Unauthorized,
    /// 404: no such route (or no such code for `/v1/explain/{code}`).
    NotFound,
    /// 405: the route exists, not with this method.
    MethodNotAllowed,
    /// 413: the body is larger than `--max-body`; it was not kept (the rest
    /// is read and dropped for a few seconds after the answer, then the
    /// connection is closed).
    BodyTooLarge,
    /// 415: the body's `Content-Type` is not one the route takes.
    UnsupportedMediaType,
    /// 422: a body that names files on disk (a manifest, a request plan with
    /// `upload` paths): the server reads bodies only, never paths.
    InputNamesFiles,
    /// 503: more requests than `--max-pending` are being read or worked on;
    /// `Retry-After` says when to try again.
    Busy,
    /// 503: the server is shutting down, or lost threads to stuck files.
    NotReady,
    /// 500: a bug (the work panicked; the server stays up) or the engine failed.
    InternalError,
    /// 400: the body's framing is broken (Content-Length or chunked
    /// encoding). A client that closed the connection mid-body is logged
    /// and counted as 499 (no one reads the answer).
    BodyUnreadable,
    /// 400: `/v1/preview`'s `page` is past the document's last page.
    PageOutOfRange,
    /// 422: `/v1/preview`: the document was scanned, but the renderer
    /// could not draw the page.
    PageNotDrawn,
    /// 408: no byte of the body came for `--body-timeout`; the request's
    /// place among `--max-pending` is given back and the connection closed.
    BodyTimeout,
}

impl ApiCode {
    pub fn status(self) -> StatusCode {
        match self {
            ApiCode::BadRequest | ApiCode::BodyUnreadable | ApiCode::PageOutOfRange => {
                StatusCode::BAD_REQUEST
            }
            ApiCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiCode::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            ApiCode::NotFound => StatusCode::NOT_FOUND,
            ApiCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiCode::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiCode::InputNamesFiles | ApiCode::PageNotDrawn => StatusCode::UNPROCESSABLE_ENTITY,
            ApiCode::Busy | ApiCode::NotReady => StatusCode::SERVICE_UNAVAILABLE,
            ApiCode::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A refusal or failure: `{"error": {"code": ..., "message": ...}}` with the
/// code's status.
#[derive(Debug)]
pub struct ApiError {
    pub code: ApiCode,
    pub message: String,
    /// Seconds for `Retry-After` (503).
    pub retry_after: Option<u32>,
    /// The body was left unread: `Connection: close`, so that no client
    /// sends another request on a connection the server closes.
    pub close: bool,
    /// The client went away (it closed the connection mid-body): the answer
    /// is logged and counted as 499, as a request whose client hung up
    /// during its work.
    pub gone: bool,
}

/// A response's mark that its client went away before it ([`ApiError::gone`]):
/// the log line and the metrics say 499.
#[derive(Clone, Copy, Debug)]
pub struct ClientGone;

impl ApiError {
    pub fn new(code: ApiCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            retry_after: None,
            close: matches!(code, ApiCode::BodyTooLarge | ApiCode::BodyTimeout),
            gone: false,
        }
    }

    /// The client went away: logged and counted as 499.
    #[must_use]
    pub fn gone(mut self) -> ApiError {
        self.gone = true;
        self
    }
}

/// Every refusal and failure: `{"error": {"code": ..., "message": ...}}`.
#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct ErrorBody<'a> {
    error: ErrorInfo<'a>,
}

/// What went wrong.
#[derive(Serialize, schemars::JsonSchema)]
struct ErrorInfo<'a> {
    /// Stable snake_case code.
    code: ApiCode,
    /// In our words.
    message: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorInfo {
                code: self.code,
                message: &self.message,
            },
        };
        let mut r = json_response(self.code.status(), json_bytes(&body));
        if let Some(s) = self.retry_after {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        if self.close {
            r.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        if self.gone {
            r.extensions_mut().insert(ClientGone);
        }
        if self.code == ApiCode::Unauthorized {
            r.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        r
    }
}

/// Serialises a value of ours (none can fail: no map with non-string keys).
pub fn json_bytes(v: &impl Serialize) -> Vec<u8> {
    let mut out = serde_json::to_vec(v).unwrap_or_default();
    out.push(b'\n');
    out
}

/// A response with a JSON body.
pub fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

/// The media type of the body, lower-cased, without parameters (`application/pdf`).
pub fn media_type(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    Some(v.split(';').next()?.trim().to_ascii_lowercase())
}

/// 415 unless the body's media type is one of `accepted`.
pub fn require_media_type(headers: &HeaderMap, accepted: &[&str]) -> Result<String, ApiError> {
    match media_type(headers) {
        Some(m) if accepted.contains(&m.as_str()) => Ok(m),
        found => Err(ApiError::new(
            ApiCode::UnsupportedMediaType,
            format!(
                "this route takes a body of type {}; the request's Content-Type is {}",
                accepted.join(" or "),
                found.map_or("missing".to_string(), |m| format!("`{m}`"))
            ),
        )),
    }
}

/// One line on stderr per request, with its id (`x-request-id`, set by
/// tower-http, also returned to the client), and the request counted in the
/// metrics; headers every response carries. A request whose client went
/// away before its answer is logged and counted too, as status 499 (nginx's
/// "client closed request"): mid-work (hyper drops its future; its work was
/// skipped if not started) or mid-body (its answer is marked [`ClientGone`]).
pub async fn log(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-")
        .to_string();
    let route = req
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or("unmatched", |m| m.as_str())
        .to_string();
    let mut line = LogLine {
        app: Arc::clone(&app),
        id,
        method: req.method().to_string(),
        path: req.uri().path().to_string(),
        route,
        start: Instant::now(),
        status: None,
        gone: false,
    };
    let mut response = next.run(req).await;
    line.status = Some(response.status().as_u16());
    line.gone = response.extensions().get::<ClientGone>().is_some();
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A request's log line and count, written when it ends: with its status,
/// or as 499 when its future was dropped or its answer is [`ClientGone`]
/// (the client went away).
struct LogLine {
    app: Arc<App>,
    id: String,
    method: String,
    path: String,
    route: String,
    start: Instant,
    status: Option<u16>,
    /// Answered, but the client had gone ([`ClientGone`]): 499.
    gone: bool,
}

impl Drop for LogLine {
    fn drop(&mut self) {
        let elapsed = self.start.elapsed();
        let status = match self.status {
            Some(s) if !self.gone => s,
            _ => 499,
        };
        self.app.metrics.request(&self.route, status, elapsed);
        if self.app.quiet {
            return;
        }
        let gone = if status == 499 {
            " (the client went away before the answer)"
        } else {
            ""
        };
        #[allow(clippy::print_stderr)]
        {
            eprintln!(
                "signprep serve: {} {} {} {status} {:.1}ms{gone}",
                self.id,
                self.method,
                crate::text::clean(&self.path),
                elapsed.as_secs_f64() * 1000.0
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ApiCode;
    use signprep_core::{Code, FileErrorCode};

    /// A code naming a condition the core names too is written as the
    /// core writes it; the others as their variant in snake_case.
    #[test]
    fn codes_shared_with_the_core_are_its_names() {
        let name = |c: ApiCode| serde_json::to_value(c).ok();
        assert_eq!(
            name(ApiCode::InternalError),
            Some(FileErrorCode::InternalError.as_str().into())
        );
        assert_eq!(
            name(ApiCode::PageNotDrawn),
            Some(Code::PageNotDrawn.as_str().into())
        );
        assert_eq!(
            name(ApiCode::UnsupportedMediaType),
            Some("unsupported_media_type".into())
        );
    }
}
