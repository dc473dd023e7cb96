//! [`Runner`]: the one path every batch command's inputs take through the
//! engine (`scan`, `check`, `report`, `migrate`, and `pack`'s and
//! `preview`'s one input through [`guarded`]).
//!
//! ```text
//! Runner::new(--jobs, time budget) ─ the pool, the watchdog (twice the budget + 5 s),
//!                                    Ctrl-C / SIGTERM as the stop flag
//! Runner::run(items, weight, work, progress, sink)
//!   work(item) on the pool ─▶ Outcome ─▶ into_result: Ok(T) | Err(core Error:
//!   internal_error for a panic, pdf_limit_exceeded for the watchdog)
//!   ─▶ sink(item, result, progress) on this thread, in input order
//!   ─▶ Ended::{Completed, Interrupted}, or the exit status with its last line
//!      printed (0 after a closed pipe, 2 for output that cannot be written)
//! ```
//!
//! A command keeps only what is its own: how it reads one input (the work),
//! what it writes for one result (the sink), and its summary.

use super::{Flow, Outcome, Progress, Stream, interrupt};
use crate::exit::ExitStatus;
use signprep_core::batch::watchdog_for;
use signprep_core::{Error, LoadOptions};
use std::io;
use std::time::Duration;

/// How a run that a command goes on from ended: the command writes its
/// summary, and says `interrupted` last when Ctrl-C stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every input was handed to the sink.
    Completed,
    /// Ctrl-C or SIGTERM stopped the run between two inputs.
    Interrupted,
}

/// The engine set up for one command's run.
#[derive(Debug)]
pub struct Runner {
    stream: Stream,
    /// The time budget behind the watchdog, named in its records.
    budget: Option<Duration>,
    /// What a sink's write error is about (`cannot write output: ...`).
    output: String,
}

impl Runner {
    /// `jobs` threads (none: one per core), a watchdog behind `options`'
    /// time budget, stopped by Ctrl-C or SIGTERM between two inputs. When
    /// the threads cannot be started, the last line is printed and the
    /// status (2) returned.
    pub fn new(jobs: Option<usize>, options: &LoadOptions) -> Result<Runner, ExitStatus> {
        let stream = Stream::new(jobs.unwrap_or(0)).map_err(|e| {
            crate::exit::fail(
                &format!("cannot start worker threads: {e}"),
                ExitStatus::Error,
            )
        })?;
        Ok(Runner {
            stream: stream
                .watchdog(watchdog_for(options))
                .stop_flag(interrupt::flag()),
            budget: options.time_budget,
            output: "output".into(),
        })
    }

    /// At most `n` inputs in flight or done and waiting for an older one.
    #[cfg(feature = "render")]
    #[must_use]
    pub fn window(mut self, n: usize) -> Runner {
        self.stream = self.stream.window(n);
        self
    }

    /// What the sink writes to, as the last line names it when a write
    /// fails (`cannot write {output}: ...`; default `output`).
    #[cfg(feature = "render")]
    #[must_use]
    pub fn output(mut self, what: impl Into<String>) -> Runner {
        self.output = what.into();
        self
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.stream.threads()
    }

    /// Runs `work` over `items` (the heaviest by `weight` first) and hands
    /// each result to `sink` in input order, a failure as the core's
    /// [`Error`]; `progress` is the sink's to count with, and is finished
    /// here. A sink error ends the run: a closed pipe with status 0 (the
    /// reader went away: `| head`), another with status 2 and its last line.
    pub fn run<I, T, G, W, S>(
        self,
        items: impl Iterator<Item = I> + Send + 'static,
        weight: G,
        work: W,
        mut progress: Progress,
        mut sink: S,
    ) -> Result<Ended, ExitStatus>
    where
        I: Send + Sync + 'static,
        T: Send + 'static,
        G: Fn(&I) -> u64 + Send + 'static,
        W: Fn(&I, usize) -> T + Send + Sync + 'static,
        S: FnMut(&I, Result<T, Error>, &mut Progress) -> io::Result<()>,
    {
        let budget = self.budget;
        let flow = self.stream.run(items, weight, work, |item, outcome| {
            sink(item, outcome.into_result(budget), &mut progress)
        });
        progress.finish();
        match flow {
            Ok(Flow::Completed) => Ok(Ended::Completed),
            Ok(Flow::Interrupted) => Ok(Ended::Interrupted),
            Ok(Flow::BrokenPipe) => Err(ExitStatus::Success),
            Err(e) => Err(crate::exit::fail(
                &format!("cannot write {}: {e}", self.output),
                ExitStatus::Error,
            )),
        }
    }
}

/// The last line of a batch that Ctrl-C stopped after its summary (`scan`,
/// `check`: whole records so far, then the summary with `interrupted`),
/// and its status, 130.
pub fn interrupted() -> ExitStatus {
    crate::exit::fail(
        "interrupted; the output holds the records written so far",
        ExitStatus::Interrupted,
    )
}

/// Runs the work of a one-input command (`pack`, `preview`) on the batch engine, so a
/// panic in it (a bug) ends as `scan`'s and `check`'s do: one `error:` line
/// in the same words and exit status 1 (the input's `internal_error`, an
/// error-level result like a finding; 2 stays for usage and I/O), not an
/// abort. No watchdog and no stop flag: Ctrl-C ends the process as before.
pub fn guarded(what: &str, work: impl FnOnce() -> ExitStatus + Send + 'static) -> ExitStatus {
    let stream = match Stream::new(0) {
        Ok(s) => s,
        Err(e) => {
            return crate::exit::fail(
                &format!("cannot start worker threads: {e}"),
                ExitStatus::Error,
            );
        }
    };
    let once = std::sync::Mutex::new(Some(work));
    let mut status = None;
    let flow = stream.run(
        std::iter::once(once),
        |_| 0,
        |once, _| once.lock().ok().and_then(|mut w| w.take()).map(|w| w()),
        |_, outcome: Outcome<Option<ExitStatus>>| {
            status = match outcome.into_result(None) {
                Ok(s) => s,
                Err(e) => Some(crate::exit::fail(
                    &format!("{what}: {}", e.message()),
                    ExitStatus::Failure,
                )),
            };
            Ok(())
        },
    );
    match (flow, status) {
        (Ok(_), Some(status)) => status,
        (Err(e), _) => crate::exit::fail(&format!("{what}: {e}"), ExitStatus::Error),
        (Ok(_), None) => {
            crate::exit::fail(&format!("{what}: interrupted"), ExitStatus::Interrupted)
        }
    }
}
