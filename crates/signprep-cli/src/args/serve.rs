//! `signprep serve`.

use super::values::{count, duration, jobs, size};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Args)]
// A server writes no file a request asks for: `--keep-pdf` is the command line's.
#[command(mut_arg("keep_pdf", |a| a.hide(true)))]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port (the URL printed on
    /// stderr says which). Anything but a loopback address exposes the server
    /// to the network: put it behind a proxy that terminates TLS, and set
    /// --token-file.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Worker threads for the work of all requests together [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Largest request body (bytes, or with K, M, G or T, powers of 1024: 500K,
    /// 20MB, 1GiB): a larger one is refused with 413 and not read.
    #[arg(long, value_name = "SIZE", default_value = "10M", value_parser = size)]
    pub max_body: u64,
    /// Most requests admitted at once (reading a body, waiting or worked on);
    /// one more is refused with 503 and `Retry-After`. Bodies held in memory
    /// are at most this many times --max-body.
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = count)]
    pub max_pending: usize,
    /// Wait this long at most for the next bytes of a request's body
    /// (seconds, or 500ms, 30s, 2m; between two reads, as nginx's
    /// client_body_timeout, not for the whole body): a client that stops
    /// sending is answered 408 and its place among --max-pending given back.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = timeout)]
    pub body_timeout: Duration,
    /// Bytes a second a request's body must arrive at, over the whole body,
    /// after its first --body-timeout (as Apache's mod_reqtimeout MinRate:
    /// each RATE bytes received give the body another second; K, M for
    /// powers of 1024; 0: no minimum): a client that trickles a byte now and
    /// then is answered 408 instead of holding its place for as long as it likes.
    #[arg(long, value_name = "RATE", default_value = "500", value_parser = size)]
    pub body_min_rate: u64,
    /// Wait this long at most for a request's headers, from its first byte
    /// (or, on a kept-alive connection, from the end of the last answer):
    /// the connection is closed.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = timeout)]
    pub header_timeout: Duration,
    /// Give up on a file after this long (seconds, or 500ms, 30s, 2m): its
    /// time budget, and the watchdog behind it, as `scan --timeout-per-file`.
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout_per_file: Option<Duration>,
    /// Require `Authorization: Bearer TOKEN` on every route but /healthz,
    /// /readyz and the page's files (/, /app.js, /app.css: the page asks for
    /// the token), TOKEN being this file's content (surrounding whitespace removed).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// On SIGTERM or Ctrl-C, wait this long at most for the requests in
    /// flight before exiting.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = duration)]
    pub shutdown_timeout: Duration,
    /// No log line per request on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    // Templates (`.docx`, `.odt` bodies): LibreOffice is looked for once, at
    // start-up, and only when --soffice or $SIGNPREP_SOFFICE names it; without
    // it the server answers a template with 422 `convert_failed`. `--keep-pdf`
    // is hidden and refused (the server writes no file a request asks for).
    #[command(flatten)]
    pub convert: super::ConvertArgs,
}

/// A timeout of the server's reads: a duration above zero.
fn timeout(s: &str) -> Result<Duration, String> {
    match duration(s)? {
        d if d.is_zero() => Err(format!(
            "`{s}`: a timeout above zero (without one, a client that stops sending holds its place for ever)"
        )),
        d => Ok(d),
    }
}
