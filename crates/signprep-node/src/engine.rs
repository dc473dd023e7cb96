//! Where a single call's work runs: one process-wide pool of signprep's own
//! worker threads (one per core), shared by every call, whatever the number
//! of calls Node has in flight and the size of libuv's pool.
//!
//! ```text
//! JS thread: arguments checked ─▶ AsyncTask queued ─▶ (Promise)
//! libuv thread (AsyncTask::compute): run_one ─ waits, using no CPU
//!     └─▶ a pool thread: the work, within the panic boundary, its pages
//!         spread over the pool when no other call is in flight
//! JS thread: AsyncTask::resolve ─▶ the Promise settles
//! ```
//!
//! As the Python package runs a single file (and the CLI its last one): the
//! core's `scan_source` inside `catch_panic`, the per-file time budget and the
//! call's [`CancelToken`] checked cooperatively by the core. A one-item run of
//! the batch engine (`Stream`, as `signprep serve` runs a request) was tried
//! first and measured, release build, on bytes the core refuses at once (the
//! call's overhead alone): 150-500 µs a call (a feeder thread and channels set
//! up and torn down each time), against 50-60 µs here and 40 µs with the work
//! on the libuv thread itself. The engine's watchdog (a hard limit for code
//! that never checks the budget) is `scanMany`'s, as it is the CLI's.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use signprep_core::Cancel;
use signprep_core::batch::catch_panic;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The pool every single call runs on: one worker per core.
static POOL: OnceLock<std::result::Result<rayon::ThreadPool, String>> = OnceLock::new();

/// Calls running or waiting for a worker.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

fn pool() -> std::result::Result<&'static rayon::ThreadPool, String> {
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("signprep-node-{i}"))
            .build()
            .map_err(|e| format!("cannot start signprep's worker threads: {e}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// A flag that cancels the work of the calls it is given to (the JavaScript
/// layer raises it when the call's `AbortSignal` aborts).
#[napi]
#[derive(Debug, Clone, Default)]
pub struct CancelToken {
    flag: Arc<AtomicBool>,
}

#[napi]
impl CancelToken {
    /// A flag not raised.
    #[napi(constructor)]
    pub fn new() -> Self {
        CancelToken::default()
    }

    /// Raises the flag: work that carries it stops at its next check.
    #[napi]
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// True once raised.
    #[napi(getter)]
    pub fn cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

impl CancelToken {
    /// The flag as the core's [`Cancel`] (for [`signprep_core::LoadOptions::cancel`]).
    pub fn as_cancel(&self) -> Cancel {
        Cancel::from(Arc::clone(&self.flag))
    }
}

/// Why a call's work gave no result.
#[derive(Debug)]
pub enum Failed {
    /// The pool could not be started.
    Pool(String),
    /// The cancel flag was raised before the work started.
    Cancelled,
    /// The work panicked (the message).
    Panicked(String),
}

/// Keeps [`IN_FLIGHT`] right however the work ends.
struct InFlight;

impl InFlight {
    /// Counts a call in; true when it is the only one.
    fn enter() -> (InFlight, bool) {
        (InFlight, IN_FLIGHT.fetch_add(1, Ordering::SeqCst) == 0)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `work` on the pool within the panic boundary. `work` gets `spread`
/// (no other call is in flight: its pages may use every worker) and the
/// call's [`Cancel`] flag for its load options. Blocks the calling thread (a
/// libuv thread) until the work ends.
pub fn run_one<T, F>(token: Option<&CancelToken>, work: F) -> std::result::Result<T, Failed>
where
    T: Send,
    F: FnOnce(bool, Option<Cancel>) -> T + Send,
{
    let pool = pool().map_err(Failed::Pool)?;
    if token.is_some_and(CancelToken::cancelled) {
        return Err(Failed::Cancelled);
    }
    let cancel = token.map(CancelToken::as_cancel);
    let (_counted, alone) = InFlight::enter();
    pool.install(|| catch_panic(|| work(alone, cancel)))
        .map_err(Failed::Panicked)
}

/// An error about an argument: thrown as a `TypeError` by the JavaScript
/// layer (napi's `InvalidArg` status is its marker).
pub fn invalid(message: impl Into<String>) -> Error {
    Error::new(Status::InvalidArg, message.into())
}

/// An error of the call itself (not of the file): the JavaScript layer makes
/// it a `SignprepError` with `code` taken from the message's `[code]` suffix.
pub fn failure(code: &str, message: impl std::fmt::Display) -> Error {
    Error::new(Status::GenericFailure, format!("{message} [{code}]"))
}

/// A call's failure as the error the JavaScript layer raises: `AbortError`'s
/// marker for a cancelled call, else `internal_error` (the core's words for a
/// panic: [`signprep_core::Error::internal`]).
pub fn failed_error(f: Failed) -> Error {
    match f {
        Failed::Pool(m) => failure("internal_error", m),
        Failed::Cancelled => Error::new(Status::Cancelled, "the operation was aborted"),
        Failed::Panicked(m) => {
            let e = signprep_core::Error::internal(m);
            match signprep_core::Record::from_result(String::new(), Err(e)).error {
                Some(i) => failure(i.code.as_str(), i.message),
                None => failure("internal_error", "the work gave no result"),
            }
        }
    }
}

/// An input given as a path (read by the task, off the JavaScript thread) or
/// as bytes (copied when the call is made).
#[derive(Debug)]
pub enum Source {
    /// A file to read.
    Path(std::path::PathBuf),
    /// Its bytes.
    Data(Vec<u8>),
}

impl Source {
    /// A path (`string`) or bytes (`Uint8Array`, `Buffer`) from JavaScript.
    pub fn of(input: Either<String, Uint8Array>) -> Source {
        match input {
            Either::A(path) => Source::Path(path.into()),
            Either::B(data) => Source::Data(data.to_vec()),
        }
    }

    /// The bytes: `io_error` in the CLI's words when the file cannot be read.
    pub fn read(self) -> Result<Vec<u8>> {
        match self {
            Source::Path(p) => std::fs::read(&p).map_err(|e| {
                failure(
                    "io_error",
                    format!("cannot read: {}", signprep_core::io_reason(&e)),
                )
            }),
            Source::Data(d) => Ok(d),
        }
    }
}

/// JSON text of a serialisable value (serde_json, as the CLI writes it).
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| {
        failure(
            "internal_error",
            format!("cannot write the record as JSON: {e}"),
        )
    })
}
