//! The page at `/` for people without a terminal: drop PDFs (and a request
//! body), see each page drawn with its tags and fields (`/v1/preview`), the
//! findings beside it with their explanations (`/v1/check`,
//! `/v1/explain/{code}`), a verdict at the top, and the data fields to
//! download (`/v1/scan?data_fields=true`); a manifest (`.toml`) dropped with
//! the PDFs it names is checked with them and its v1 pack body offered for
//! download (`/v1/check` and `/v1/pack` with a form). Three files compiled into the
//! binary, no external asset (it works offline), and a strict
//! Content-Security-Policy: scripts and styles from this server only, none
//! inline; images from it or from the page's own `blob:` URLs.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/app.css");

/// The page's policy: nothing but this server (and the images the script
/// makes from the server's answers), no inline script or style, no frames,
/// no form posts elsewhere.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

fn asset(body: &'static str, media: &'static str) -> Response {
    let mut r = Response::new(axum::body::Body::from(body));
    *r.status_mut() = StatusCode::OK;
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    r
}

/// `GET /`: the page.
pub async fn index() -> Response {
    asset(INDEX, "text/html; charset=utf-8")
}

/// `GET /app.js`: its script.
pub async fn script() -> Response {
    asset(SCRIPT, "text/javascript; charset=utf-8")
}

/// `GET /app.css`: its style.
pub async fn style() -> Response {
    asset(STYLE, "text/css; charset=utf-8")
}

/// The paths of the page and its files: open without the bearer token (they
/// hold no data; the page asks for the token when the API answers 401).
pub fn is_page(path: &str) -> bool {
    matches!(path, "/" | "/app.js" | "/app.css")
}
