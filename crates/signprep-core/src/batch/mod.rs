//! Batch runs over many inputs: the one engine under `signprep scan`,
//! `signprep check` and the Python package's `scan_many`.
//!
//! - [`Stream`]: a generic, ordered, bounded, cancellable pool. Work runs on
//!   rayon threads, largest item first; results come back on the caller's
//!   thread in input order; a watchdog gives up on an item stuck past its
//!   limit and replaces its thread (up to [`MAX_STUCK`] items a run; past
//!   that the run halts: the items after are not started); a stop flag ([`Stream::stop_flag`]) ends the run between two
//!   results. It holds the one panic boundary of signprep: a job that panics
//!   is an [`Outcome::Panicked`], reported with [`panic_message`], and the run
//!   goes on. Nothing here draws progress or installs signal handlers: the
//!   caller's sink sees every result (count it, draw a bar), and the caller
//!   raises the flag (from a Ctrl-C handler, say).
//! - [`BatchScan`]: PDFs ([`PdfSource`]: paths or bytes in memory) to scan
//!   [`Record`](crate::Record)s on a [`Stream`], in input order, one record
//!   per source: a file that cannot be read, that panics or that the
//!   watchdog gives up on gets an error record (`io_error`, `internal_error`,
//!   `pdf_limit_exceeded`) and the batch goes on (one that a halted run did
//!   not start, `pdf_limit_exceeded` too: [`Outcome::into_result`]).
//!
//! ```
//! use signprep_core::batch::{BatchScan, PdfSource};
//! use signprep_core::{LoadOptions, Scanner, Status};
//!
//! let sources = vec![
//!     PdfSource::path("../../testdata/fixtures/base14_courier.pdf"),
//!     PdfSource::bytes("in-memory.pdf", b"not a PDF".to_vec()),
//!     PdfSource::path("../../testdata/fixtures/no_such_file.pdf"),
//! ];
//! let (records, _flow) = BatchScan::new(LoadOptions::default(), Scanner::new())
//!     .jobs(2)
//!     .collect(sources)?;
//! let codes: Vec<_> = records.iter().map(|r| r.error.as_ref().map(|e| e.code.as_str())).collect();
//! assert_eq!(codes, [None, Some("pdf_unreadable"), Some("io_error")]);
//! assert_eq!(records[0].status, Status::Ok);
//! assert_eq!(records[1].path, "in-memory.pdf");
//! # Ok::<(), std::io::Error>(())
//! ```

mod outcome;
mod scan;
mod stream;

pub use outcome::Outcome;
pub use scan::{BatchScan, PdfSource, scan_source, watchdog_for};
pub use stream::{Flow, MAX_JOBS, MAX_STUCK, Stream, catch_panic, panic_message};

/// Test hooks, compiled in with the `testing` feature only (without it this
/// does nothing and reads no environment variable): a job whose name ends
/// with the value of the environment variable `SIGNPREP_TEST_PANIC` panics,
/// so tests of the panic boundary (here, in the CLI) have a panic to catch;
/// one whose name ends with the value of `SIGNPREP_TEST_HANG` never returns
/// (its thread blocks for good), so tests of the watchdog have a file that
/// hangs. Called by every job at its start. Not a stable API.
#[doc(hidden)]
pub fn test_hook(name: &str) {
    test_hook_until(name, None);
}

/// [`test_hook`], whose hang ends when `cancel` is raised (checked every
/// 20 ms), as work on a file ends at the core's next check: for tests of
/// cancellation (`signprep serve`, a client that hangs up). Not a stable API.
#[doc(hidden)]
pub fn test_hook_until(name: &str, cancel: Option<&crate::Cancel>) {
    #[cfg(feature = "testing")]
    {
        let named = |var: &str| {
            std::env::var_os(var).is_some_and(|suffix| {
                !suffix.is_empty() && name.ends_with(&*suffix.to_string_lossy())
            })
        };
        if named("SIGNPREP_TEST_PANIC") {
            panic!("forced by SIGNPREP_TEST_PANIC for {name}");
        }
        if named("SIGNPREP_TEST_HANG") {
            while !cancel.is_some_and(crate::Cancel::is_cancelled) {
                std::thread::park_timeout(std::time::Duration::from_millis(20));
            }
        }
    }
    #[cfg(not(feature = "testing"))]
    let _ = (name, cancel);
}
