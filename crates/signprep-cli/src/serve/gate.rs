//! What answers a request before its route runs: the bearer token
//! (`--token-file`), 404 and 405. Each refusal reads and drops the body
//! first, within the limits ([`super::body::refuse`]), so the client reads
//! the answer. Above [`super::api`] (the error body) and [`super::body`].

use super::App;
use super::api::{ApiCode, ApiError};
use super::body::refuse;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// `--token-file`: every route but `/healthz`, `/readyz` and the page's
/// files needs `Authorization: Bearer TOKEN`.
pub async fn authorize(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let Some(token) = &app.token else {
        return next.run(req).await;
    };
    let path = req.uri().path();
    if path == "/healthz" || path == "/readyz" || super::page::is_page(path) {
        return next.run(req).await;
    }
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    let e = match given {
        Some(g) if same(g.as_bytes(), token.as_bytes()) => return next.run(req).await,
        Some(_) => ApiError::new(
            ApiCode::Unauthorized,
            "the bearer token is not this server's",
        ),
        None => ApiError::new(
            ApiCode::Unauthorized,
            "this server needs an `Authorization: Bearer TOKEN` header with its token",
        ),
    };
    let (parts, body) = req.into_parts();
    refuse(e, &parts.headers, body, app.body)
        .await
        .into_response()
}

/// The token of an `Authorization` value with the `Bearer` scheme, the
/// scheme in any case (RFC 9110, 11.1), one or more spaces after it.
fn bearer(v: &str) -> Option<&str> {
    let v = v.trim();
    let (scheme, token) = v.split_once([' ', '\t'])?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// Equality that takes as long whatever the first differing byte.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Any other route: 404 in our words.
pub async fn not_found(State(app): State<Arc<App>>, req: Request) -> ApiError {
    let e = ApiError::new(
        ApiCode::NotFound,
        format!(
            "no route {} {}; the API is POST /v1/scan, POST /v1/check, POST /v1/preview, POST /v1/pack, POST /v1/migrate, GET /v1/codes, GET /v1/explain/{{code}}, GET /healthz, /readyz, /metrics, /openapi.json (the page is at /)",
            req.method(),
            crate::text::clean(req.uri().path())
        ),
    );
    let (parts, body) = req.into_parts();
    refuse(e, &parts.headers, body, app.body).await
}

/// A route asked with another method: 405 in our words.
pub async fn method_not_allowed(State(app): State<Arc<App>>, req: Request) -> ApiError {
    let e = ApiError::new(
        ApiCode::MethodNotAllowed,
        format!(
            "{} does not take {}",
            crate::text::clean(req.uri().path()),
            req.method()
        ),
    );
    let (parts, body) = req.into_parts();
    refuse(e, &parts.headers, body, app.body).await
}
