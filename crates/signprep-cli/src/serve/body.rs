//! Reading a request's body: within `--max-body` (413 `body_too_large`),
//! within `--body-timeout` between two reads and at `--body-min-rate` over the
//! whole body (408 `body_timeout`), a client that hangs up mid-body told apart
//! from a body that cannot be read; and the lingering read after a refusal
//! answered before its body was read.
//!
//! A refusal answered while the client is still sending is followed by a
//! bounded read of the rest ([`linger`]), in the background, as nginx's
//! lingering close: a client that writes its whole body before reading the
//! answer (Python's `urllib`, a raw socket) reads the 413 instead of losing
//! it to a connection reset.

use super::api::{ApiCode, ApiError};
use axum::body::Body;
use axum::http::{HeaderMap, header};
use http_body_util::BodyExt;
use std::time::Duration;

/// How bodies are read: `--max-body`, `--body-timeout`, `--body-min-rate`.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimits {
    /// The largest body taken, in bytes.
    pub max: u64,
    /// The longest wait for the next bytes of a body (nginx's
    /// `client_body_timeout`: between two reads, not for the whole body).
    pub timeout: Duration,
    /// Bytes a second a body must arrive at, over the whole body, after the
    /// first `timeout` (Apache's `mod_reqtimeout` `MinRate`: each
    /// `min_rate` bytes received extend the body's time by a second); 0: no
    /// minimum. A client that trickles a byte now and then, each within
    /// `timeout`, would otherwise hold its place for as long as it likes.
    pub min_rate: u64,
}

impl BodyLimits {
    /// The time a body may have taken once `read` bytes of it came:
    /// `timeout` plus a second per `min_rate` bytes; `None` without a
    /// minimum rate.
    fn allowance(&self, read: u64) -> Option<Duration> {
        if self.min_rate == 0 {
            return None;
        }
        let earned = Duration::from_millis(read.saturating_mul(1000) / self.min_rate);
        Some(self.timeout.saturating_add(earned))
    }
}

/// What a body being read may wait for next: the timeout between two
/// reads, or less when the whole body's allowance ends sooner (`slow`).
struct Wait {
    wait: Duration,
    slow: bool,
}

/// The next wait for a body that started at `started` and has `read` bytes.
fn next_wait(limits: &BodyLimits, started: tokio::time::Instant, read: u64) -> Wait {
    let left = limits
        .allowance(read)
        .map(|a| a.saturating_sub(started.elapsed()));
    match left {
        Some(left) if left < limits.timeout => Wait {
            wait: left,
            slow: true,
        },
        _ => Wait {
            wait: limits.timeout,
            slow: false,
        },
    }
}

/// The longest a refused body is read on after its answer ([`linger`]).
pub const LINGER_TIME: Duration = Duration::from_secs(5);

/// The most bytes of a refused body read after its answer ([`linger`]).
pub const LINGER_BYTES: u64 = 64 << 20;

/// 413 when the body's `Content-Length` is over `max`: refused before the
/// request is admitted, and before a byte of it is read.
pub fn declared_size(headers: &HeaderMap, max: u64) -> Result<(), ApiError> {
    match declared_length(headers) {
        Some(n) if n > max => Err(too_large(max)),
        _ => Ok(()),
    }
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// The client said `Expect: 100-continue`: it waits for a word before it
/// sends the body, and stops at a refusal (nothing to read on after it).
fn expects_continue(headers: &HeaderMap) -> bool {
    headers
        .get(header::EXPECT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("100-continue"))
}

fn too_large(max: u64) -> ApiError {
    ApiError::new(
        ApiCode::BodyTooLarge,
        format!("the body is larger than this server takes ({max} bytes at most); it was not kept"),
    )
}

fn timed_out(timeout: Duration) -> ApiError {
    ApiError::new(
        ApiCode::BodyTimeout,
        format!(
            "the body stopped arriving: no byte of it came for {} s (this server's body timeout); send the whole body without pausing",
            seconds(timeout)
        ),
    )
}

fn too_slow(limits: &BodyLimits, read: u64, took: Duration) -> ApiError {
    ApiError::new(
        ApiCode::BodyTimeout,
        format!(
            "the body arrived too slowly: {read} bytes in {:.1} s, under this server's minimum of {} bytes a second after the first {} s; send the whole body at once",
            took.as_secs_f64(),
            limits.min_rate,
            seconds(limits.timeout)
        ),
    )
}

/// A duration in seconds as people write it (`1`, `0.5`, `60`).
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

/// Why a body's frame could not be read: the client closed the connection
/// before its end (`gone`: no one reads the answer, logged and counted 499),
/// or what it sent is not a body (400 `body_unreadable`).
fn unreadable(e: &axum::Error) -> ApiError {
    let mut e = if hung_up(e) {
        ApiError::new(
            ApiCode::BodyUnreadable,
            "the client closed the connection before the end of the body",
        )
        .gone()
    } else {
        ApiError::new(
            ApiCode::BodyUnreadable,
            "the body could not be read to its end: its framing (Content-Length or chunked encoding) is broken",
        )
    };
    e.close = true;
    e
}

/// The error is the connection ending (end of file before the body's
/// length, a reset), not a malformed body.
fn hung_up(e: &axum::Error) -> bool {
    use std::error::Error as _;
    use std::io::ErrorKind;
    let mut cause: Option<&(dyn std::error::Error + 'static)> = e.source();
    while let Some(c) = cause {
        if let Some(h) = c.downcast_ref::<hyper::Error>()
            && (h.is_incomplete_message() || h.is_canceled() || h.is_closed())
        {
            return true;
        }
        if let Some(io) = c.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                ErrorKind::UnexpectedEof
                    | ErrorKind::ConnectionReset
                    | ErrorKind::ConnectionAborted
                    | ErrorKind::BrokenPipe
            )
        {
            return true;
        }
        cause = c.source();
    }
    false
}

/// The whole body, refused with 413 as soon as it is known to be over the
/// limit: by its `Content-Length` before any byte is read, or once the
/// bytes read pass it (the rest is read and dropped after the answer,
/// [`linger`]); 408 when no byte comes for `--body-timeout`, or the body
/// comes slower than `--body-min-rate` ([`BodyLimits::min_rate`]).
pub async fn read_body(
    headers: &HeaderMap,
    mut body: Body,
    limits: BodyLimits,
) -> Result<Vec<u8>, ApiError> {
    if let Err(e) = declared_size(headers, limits.max) {
        return Err(linger(e, headers, body));
    }
    let max = usize::try_from(limits.max).unwrap_or(usize::MAX);
    let declared = declared_length(headers)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    let mut out = Vec::with_capacity(declared.min(max));
    let started = tokio::time::Instant::now();
    loop {
        let read = out.len() as u64;
        let next = next_wait(&limits, started, read);
        let frame = match tokio::time::timeout(next.wait, body.frame()).await {
            Err(_) if next.slow => return Err(too_slow(&limits, read, started.elapsed())),
            Err(_) => return Err(timed_out(limits.timeout)),
            Ok(None) => return Ok(out),
            Ok(Some(Err(e))) => return Err(unreadable(&e)),
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        if out.len().saturating_add(data.len()) > max {
            return Err(linger(too_large(limits.max), headers, body));
        }
        out.extend_from_slice(&data);
    }
}

/// A refusal answered before its body was read (401, 404, 405, 415, 400,
/// 503): the body is read and dropped first, within the limits, so the
/// connection stays usable. A body over the limit, or one that stops
/// arriving, is answered at once and the connection closed after the
/// answer (a body over the limit is read on in the background: [`linger`]).
pub async fn refuse(
    e: ApiError,
    headers: &HeaderMap,
    mut body: Body,
    limits: BodyLimits,
) -> ApiError {
    if declared_length(headers).is_some_and(|n| n > limits.max) {
        return linger(e, headers, body);
    }
    let mut e = e;
    let mut read = 0u64;
    let started = tokio::time::Instant::now();
    loop {
        let next = next_wait(&limits, started, read);
        match tokio::time::timeout(next.wait, body.frame()).await {
            Ok(None) => return e,
            Ok(Some(Ok(frame))) => {
                let n = frame.data_ref().map_or(0, |d| d.len() as u64);
                read = read.saturating_add(n);
                if read > limits.max {
                    return linger(e, headers, body);
                }
            }
            Ok(Some(Err(err))) => {
                e.close = true;
                if hung_up(&err) {
                    e = e.gone();
                }
                return e;
            }
            Err(_) => {
                e.close = true;
                return e;
            }
        }
    }
}

/// Answers `e` now and closes the connection after it, while the rest of
/// the body is read and dropped in the background for at most
/// [`LINGER_TIME`] and [`LINGER_BYTES`] (nothing kept): a client that sends
/// its whole body before reading (Python's `urllib`) then finds the answer
/// waiting, where closing a connection with unread bytes in it resets it and
/// the answer is lost. A client that said `Expect: 100-continue` sent no
/// body: nothing is read.
fn linger(mut e: ApiError, headers: &HeaderMap, mut body: Body) -> ApiError {
    e.close = true;
    if expects_continue(headers) {
        return e;
    }
    tokio::spawn(async move {
        let deadline = tokio::time::Instant::now() + LINGER_TIME;
        let mut read = 0u64;
        while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(deadline, body.frame()).await {
            read = read.saturating_add(frame.data_ref().map_or(0, |d| d.len() as u64));
            if read > LINGER_BYTES {
                break;
            }
        }
    });
    e
}
