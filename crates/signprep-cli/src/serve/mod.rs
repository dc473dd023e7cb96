//! `signprep serve`: the pre-flight gate as an HTTP service, a front end like
//! the command line (ARCHITECTURE.md): it parses requests, runs the same work
//! on the same engine and writes the same records.
//!
//! - [`listen`]: the accept loop: hyper's HTTP/1 per connection, the
//!   header-read timeout, graceful shutdown.
//! - [`api`]: the error body and its codes, content types, the log line.
//! - [`body`]: reading a body within `--max-body` and `--body-timeout`, and
//!   reading on after a refusal (a lingering close).
//! - [`gate`]: the answers before a route runs: the bearer token, 404, 405.
//! - [`engine`]: the batch engine's pool shared by every request, the
//!   watchdog, the panic boundary, the `--max-pending` gate.
//! - [`routes`]: `POST /v1/scan` and `POST /v1/check`.
//! - [`form`]: multipart forms (a manifest or signer map with its PDFs), in memory.
//! - [`build`]: `POST /v1/check` with a form, `POST /v1/pack`, `POST /v1/migrate`.
//! - [`query`]: what the routes share: the query string read, a check record's
//!   or an engine failure's answer (a leaf below `routes`, `build`, `preview`).
//! - [`openapi`]: `/openapi.json`, the paths written, the schemas generated.
//! - [`page`]: the page at `/` for people, its script and style.
//! - [`preview`]: `POST /v1/preview`, a page drawn as `signprep preview` draws it.
//! - [`template`]: `.docx` and `.odt` bodies (by media type, else sniffed) and
//!   the server's LibreOffice, looked for once at start-up when asked (also
//!   the converter of a form manifest's template parts).
//! - [`meta`]: `/healthz`, `/readyz`, `/metrics`, `/v1/codes`, `/v1/explain/{code}`.
//! - [`metrics`]: the counters behind `/metrics` (Prometheus text).
//!
//! ```text
//! TCP ─ hyper (HTTP/1, --header-timeout) ─ request id ─ log ─ token ─ route: media type, query,
//!   admit (--max-pending, else 503) ─ body (--max-body, else 413; --body-timeout and --body-min-rate, else 408)
//!   ─ Engine::run: a one-item run of core::batch::Stream on the shared pool
//!   ─ the CLI's writer (scan's ndjson record, check's json or sarif) ─ response
//! ```
//!
//! Nothing is written to disk but LibreOffice's scratch files and its cache of
//! converted templates (`--cache-dir`, `--no-cache`); a request names no path
//! (bodies only); CORS is off.

use crate::exit::ExitStatus;
mod api;
mod body;
mod build;
mod engine;
mod form;
mod gate;
mod listen;
mod meta;
mod metrics;
mod openapi;
mod page;
mod preview;
mod query;
mod routes;
mod template;

use crate::args::ServeArgs;
use axum::Router;
use axum::routing::{get, post};
use engine::Engine;
use signprep_core::LoadOptions;
use signprep_core::batch::watchdog_for;
use signprep_pack::Checker;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};

/// What every request shares.
#[derive(Debug)]
pub struct App {
    engine: Arc<Engine>,
    token: Option<String>,
    /// `--max-body`, `--body-timeout`.
    body: body::BodyLimits,
    options: LoadOptions,
    checker: Arc<Checker>,
    /// `.docx` and `.odt` bodies: LibreOffice when asked for.
    templates: Arc<template::ServeTemplates>,
    metrics: metrics::Metrics,
    quiet: bool,
    /// SIGTERM or Ctrl-C came: `/readyz` answers 503.
    stopping: AtomicBool,
}

/// Exit status: 0 after a clean shutdown, 2 when the server cannot start
/// (bad token file, address in use).
pub fn run(args: &ServeArgs) -> ExitStatus {
    if args.convert.keep_pdf.is_some() {
        return crate::exit::fail(
            "--keep-pdf is for `signprep scan` and `signprep check`: a server writes no file a request asks for",
            ExitStatus::Error,
        );
    }
    let mut options = LoadOptions::default();
    if let Some(t) = args.timeout_per_file {
        options.time_budget = (!t.is_zero()).then_some(t);
    }
    let token = match &args.token_file {
        None => None,
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) if !t.trim().is_empty() => Some(t.trim().to_string()),
            Ok(_) => {
                return crate::exit::fail(
                    &format!("--token-file {}: the file is empty", p.display()),
                    ExitStatus::Error,
                );
            }
            Err(e) => {
                return crate::exit::fail(
                    &format!(
                        "--token-file {}: cannot read: {}",
                        p.display(),
                        signprep_core::io_reason(&e)
                    ),
                    ExitStatus::Error,
                );
            }
        },
    };
    let engine = match Engine::new(
        args.jobs.unwrap_or(0),
        watchdog_for(&options),
        args.max_pending,
    ) {
        Ok(e) => Arc::new(e),
        Err(e) => {
            return crate::exit::fail(
                &format!("cannot start worker threads: {e}"),
                ExitStatus::Error,
            );
        }
    };
    let (templates, said) = template::ServeTemplates::start(&args.convert);
    if let Some(line) = said {
        say(&line);
    }
    // As `check`'s defaults: the same findings for the same input; a form
    // manifest's template parts converted with the server's LibreOffice.
    let checker = Checker::new()
        .surface(signprep_pack::Surface::Http)
        .payload_limit(10 << 20)
        .load_options(options.clone())
        .converter(templates.lazy());
    let app = Arc::new(App {
        engine,
        token,
        body: body::BodyLimits {
            max: args.max_body,
            timeout: args.body_timeout,
            min_rate: args.body_min_rate,
        },
        options,
        checker: Arc::new(checker),
        templates: Arc::new(templates),
        metrics: metrics::Metrics::default(),
        quiet: args.quiet,
        stopping: AtomicBool::new(false),
    });
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("signprep-serve")
        .enable_io()
        .enable_time()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            return crate::exit::fail(
                &format!("cannot start the server's runtime: {e}"),
                ExitStatus::Error,
            );
        }
    };
    let status = runtime.block_on(serve(
        app,
        args.addr,
        args.header_timeout,
        args.shutdown_timeout,
    ));
    // Work still running after the bound is not waited for.
    runtime.shutdown_background();
    status
}

/// The routes, with the layers around them.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/app.css", get(page::style))
        .route("/v1/scan", post(routes::scan))
        .route("/v1/check", post(routes::check))
        .route("/v1/preview", post(preview::preview))
        .route("/v1/pack", post(build::pack))
        .route("/v1/migrate", post(build::migrate))
        .route("/v1/codes", get(meta::codes))
        .route("/v1/explain/{code}", get(meta::explain))
        .route("/healthz", get(meta::healthz))
        .route("/readyz", get(meta::readyz))
        .route("/metrics", get(meta::metrics))
        .route("/openapi.json", get(openapi::openapi))
        .fallback(gate::not_found)
        .method_not_allowed_fallback(gate::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            gate::authorize,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            api::log,
        ))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .with_state(app)
}

async fn serve(
    app: Arc<App>,
    addr: SocketAddr,
    header_timeout: Duration,
    grace: Duration,
) -> ExitStatus {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            return crate::exit::fail(
                &format!("cannot listen on {addr}: {}", signprep_core::io_reason(&e)),
                ExitStatus::Error,
            );
        }
    };
    let bound = listener.local_addr().unwrap_or(addr);
    let signalled = Arc::clone(&app);
    let stop = async move {
        stop_signal().await;
        signalled.stopping.store(true, Ordering::SeqCst);
    };
    #[allow(clippy::print_stderr)]
    {
        eprintln!(
            "signprep serve: listening on http://{bound}/ ({} worker threads; Ctrl-C or SIGTERM stops it)",
            app.engine.threads()
        );
    }
    if let Some(warning) = exposed(bound, app.token.is_some()) {
        say(&warning);
    }
    let open = listen::accept(
        listener,
        router(Arc::clone(&app)),
        Arc::clone(&app),
        header_timeout,
        stop,
    )
    .await;
    say(&format!(
        "stopping: no new connections; waiting up to {:.0} s for {} request(s) in flight",
        grace.as_secs_f64(),
        app.engine.pending()
    ));
    if tokio::time::timeout(grace, open.shutdown()).await.is_err() {
        say(&format!(
            "stopped with {} request(s) unfinished after {:.0} s",
            app.engine.pending(),
            grace.as_secs_f64()
        ));
    } else {
        say("stopped");
    }
    ExitStatus::Success
}

/// The start-up warning of a server reachable beyond this machine (any
/// address but a loopback one: `0.0.0.0`, `::`, a LAN address) with no
/// token: anyone who reaches it can use it.
fn exposed(bound: SocketAddr, token: bool) -> Option<String> {
    (!bound.ip().is_loopback() && !token).then(|| {
        format!(
            "warning: {} is reachable beyond this machine and this server has no token: anyone who reaches it can use it; give --token-file FILE (and put a proxy that terminates TLS in front)",
            bound.ip()
        )
    })
}

#[allow(clippy::print_stderr)]
fn say(line: &str) {
    eprintln!("signprep serve: {line}");
}

/// SIGTERM or SIGINT (Ctrl-C).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::exposed;

    #[test]
    fn a_server_reachable_beyond_loopback_without_a_token_is_warned_about() {
        let at = |a: &str| a.parse().unwrap_or_else(|e| panic!("{a}: {e}"));
        for open in [
            "0.0.0.0:8080",
            "[::]:8080",
            "192.168.1.20:8080",
            "10.0.0.5:80",
        ] {
            let warning = exposed(at(open), false);
            assert!(
                warning
                    .as_deref()
                    .is_some_and(|w| w.contains("--token-file")),
                "{open}: {warning:?}"
            );
            assert_eq!(exposed(at(open), true), None, "{open} with a token");
        }
        for local in ["127.0.0.1:8080", "127.0.0.2:1", "[::1]:8080"] {
            assert_eq!(exposed(at(local), false), None, "{local}");
        }
    }
}
