//! Batch runs over many inputs: the pipeline of `scan` and `check` (and of
//! `pack` and `preview`, one input each, through [`guarded`]).
//!
//! ```text
//! PATH args ─ walk (parallel, ignore files, globs) ─ sort ┐
//! --files-from FILE|- (plain lines or NDJSON `path`) ─────┴─ shard ─ skip-done ─▶ Source
//! Source ─▶ Stream: a feeder thread hands items to a rayon pool as window
//!           credits allow; the caller's thread puts results back in input order
//!           and hands them to its sink at once ─▶ stdout (+ Progress on stderr)
//! ```
//!
//! - [`walk`]: [`Input`], [`walk::WalkOptions`], [`walk::expand`]: folders walked with the
//!   `ignore` crate, files kept as given, each folder's files in sorted path order.
//! - [`files_from`]: the lines of `--files-from`, read lazily (stdin may be a pipe).
//! - [`select`]: [`select::Shard`] (FNV-1a of the path string: stable across machines,
//!   runs and Rust versions) and [`select::DoneSet`] (paths an earlier report has as `ok`).
//! - [`source`]: all of the above as one iterator, [`Source`].
//! - [`Stream`] (from [`signprep_core::batch`], the engine the Python package
//!   shares): ordered streaming with a bounded reorder window, stop on Ctrl-C
//!   or a closed pipe, a watchdog for files stuck past their time budget, the
//!   one per-file panic boundary.
//! - [`progress`]: the indicatif bar (stderr, only on a terminal).
//! - [`summary`]: [`Summary`], the totals of a run.
//! - [`interrupt`]: Ctrl-C / SIGTERM as a flag.
//! - [`args`]: what [`crate::args::BatchArgs`] (the options flattened into each
//!   command, declared in `crate::args`) mean: walk options, per-file limits.
//!
//! Output is byte-identical whatever `--jobs` is: results are written in input
//! order, and nothing that depends on timing goes into json/ndjson unless
//! `--timing` asks for it.

use crate::exit::ExitStatus;
pub mod args;
pub mod files_from;
pub mod interrupt;
pub mod progress;
pub mod select;
pub mod source;
pub mod summary;
pub mod walk;

pub use progress::Progress;
pub use signprep_core::batch::{Flow, Outcome, Stream};
pub use source::Source;
pub use summary::{Summary, Tally};
pub use walk::Input;

/// How a run on the engine ended, for `scan` and `check`, which write a
/// summary after it: `Ok(interrupted)` to go on (the summary says whether
/// Ctrl-C stopped it), `Err(status)` to exit now: 0 after a closed pipe (the
/// reader went away: `| head`), 2 when the output could not be written.
pub fn ended(flow: std::io::Result<Flow>) -> Result<bool, ExitStatus> {
    match flow {
        Ok(Flow::Completed) => Ok(false),
        Ok(Flow::Interrupted) => Ok(true),
        Ok(Flow::BrokenPipe) => Err(ExitStatus::Success),
        Err(e) => Err(crate::fail(
            &format!("cannot write output: {e}"),
            ExitStatus::Error,
        )),
    }
}

/// Runs the work of a one-input command (`pack`, `preview`) on the batch engine, so a
/// panic in it (a bug) ends as `scan`'s and `check`'s do: one `error:` line
/// in the same words and exit status 1 (the input's `internal_error`, an
/// error-level result like a finding; 2 stays for usage and I/O), not an abort.
pub fn guarded(what: &str, work: impl FnOnce() -> ExitStatus + Send + 'static) -> ExitStatus {
    let stream = match Stream::new(0) {
        Ok(s) => s,
        Err(e) => {
            return crate::fail(
                &format!("cannot start worker threads: {e}"),
                ExitStatus::Error,
            );
        }
    };
    let once = std::sync::Mutex::new(Some(work));
    let mut code = None;
    let flow = stream.run(
        std::iter::once(once),
        |_| 0,
        |once, _| once.lock().ok().and_then(|mut w| w.take()).map(|w| w()),
        |_, outcome| {
            code = match outcome {
                Outcome::Done(c) => c,
                Outcome::Panicked(m) => {
                    let e = signprep_core::batch::panicked_record(what.to_string(), &m).error;
                    let message = e.map(|e| e.message).unwrap_or_default();
                    Some(crate::fail(
                        &format!("{what}: {message}"),
                        ExitStatus::Failure,
                    ))
                }
                // Not reached: no watchdog here.
                Outcome::Abandoned(_) | Outcome::NotStarted(_) => None,
            };
            Ok(())
        },
    );
    match (flow, code) {
        (Ok(_), Some(code)) => code,
        (Err(e), _) => crate::fail(&format!("{what}: {e}"), ExitStatus::Error),
        (Ok(_), None) => crate::fail(&format!("{what}: interrupted"), ExitStatus::Interrupted),
    }
}
