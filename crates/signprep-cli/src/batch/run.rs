//! [`Runner`]: the one path every command's inputs take through the engine:
//! `scan`, `check`, `report` and `migrate` (their files), `pack` (its one
//! manifest) and `preview` (one run per step: the request, each document,
//! its pages, all on one `Runner`).
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

use super::{Flow, Progress, Stream, interrupt};
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

    /// A runner on the same pool, stopped by Ctrl-C too, without the
    /// watchdog: for one input that is a whole request naming any number of
    /// PDFs (`pack`, `preview --manifest`), which a watchdog sized for one
    /// file would give up on when it is large and fine. Each PDF is still
    /// read under the core's own time budget.
    pub fn without_watchdog(&self) -> Runner {
        Runner {
            stream: self
                .stream
                .share()
                .watchdog(None)
                .stop_flag(interrupt::flag()),
            budget: None,
            output: self.output.clone(),
        }
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
    /// A command may run several times on one `Runner` (`preview`: a
    /// document, then its pages), all on its one pool.
    pub fn run<I, T, G, W, S>(
        &self,
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
