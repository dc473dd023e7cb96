//! Requests' work on the batch engine: the one pool of `--jobs` threads
//! ([`signprep_core::batch::Stream`], the engine under `scan` and `check`),
//! its watchdog and its panic boundary, and the `--max-pending` gate in
//! front of it.
//!
//! Each request runs its one input as a run of its own on a share of the
//! pool ([`Stream::share`]): its own stop flag (raised when the client goes
//! away, so work not yet started is skipped, and work started with
//! [`Engine::run_cancellable`] stops at the core's next check), the pool's threads shared by
//! all. The run's thread is a tokio blocking thread; there are at most
//! `--max-pending` of them.

use super::api::{ApiCode, ApiError};
use super::body::{BodyLimits, declared_size, read_body, refuse};
use axum::body::Body;
use axum::http::HeaderMap;
use signprep_core::Cancel;
use signprep_core::batch::{Flow, Outcome, Stream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The pool, the watchdog behind the time budget, and the gate.
#[derive(Debug)]
pub struct Engine {
    stream: Stream,
    /// `--max-pending`: requests admitted (reading their body, waiting for a
    /// worker, or worked on) at most.
    max_pending: usize,
    pending: AtomicUsize,
}

/// Why a request's work gave no result.
#[derive(Debug)]
pub enum Failed {
    /// It panicked (a bug): the message, for the `internal_error` record.
    Panicked(String),
    /// The watchdog gave up on it after this long.
    Abandoned(Duration),
    /// The engine would not start it (threads lost to stuck inputs) or
    /// could not run at all.
    Engine(String),
    /// The client went away before it ended.
    Cancelled,
}

impl Failed {
    /// A panic or the watchdog as the core's error (as the batch runner
    /// makes them: [`signprep_core::batch::Outcome::into_result`], `budget`
    /// the time budget behind the watchdog); the others as they are.
    pub fn into_error(self, budget: Option<Duration>) -> Result<signprep_core::Error, Failed> {
        use signprep_core::{Error, GivenUp};
        match self {
            Failed::Panicked(m) => Ok(Error::internal(m)),
            Failed::Abandoned(limit) => Ok(Error::given_up(GivenUp::Watchdog { limit, budget })),
            f => Err(f),
        }
    }
}

/// A request's place among the `--max-pending`; given back when dropped.
#[derive(Debug)]
pub struct Permit {
    engine: Arc<Engine>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.engine.pending.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Raises a run's stop flag when the request's future is dropped before the
/// run ended (the client hung up): its work is skipped if not started, and
/// cancelled if started ([`Engine::run_cancellable`]).
struct StopOnDrop(Option<Arc<AtomicBool>>);

impl StopOnDrop {
    /// The run ended (or the watchdog gave up on it): the flag stays down.
    /// Work the watchdog gave up on never checks the time budget (the
    /// budget's own error comes first), so it would not see the flag
    /// either: its thread stays counted as lost.
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(flag) = &self.0 {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

impl Engine {
    /// `jobs` threads (0: one per core), the watchdog's limit.
    pub fn new(
        jobs: usize,
        watchdog: Option<Duration>,
        max_pending: usize,
    ) -> std::io::Result<Engine> {
        Ok(Engine {
            stream: Stream::new(jobs)?.watchdog(watchdog),
            max_pending: max_pending.max(1),
            pending: AtomicUsize::new(0),
        })
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.stream.threads()
    }

    /// Requests admitted now.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::SeqCst)
    }

    /// Threads lost to inputs the watchdog gave up on.
    pub fn lost_threads(&self) -> usize {
        self.stream.lost_threads()
    }

    /// The admission of a route that takes a body, the one path every such route
    /// goes: what the route checked first (`checked`: its media type and query),
    /// the declared size, then a place ([`Engine::admit`]); a refusal reads the
    /// body away first ([`refuse`]). Returns what was checked, the place and the
    /// body, read within `limits`.
    ///
    /// The place is taken before the body is read and held while it arrives:
    /// bodies held in memory are then at most `--max-pending` × `--max-body`,
    /// however many clients send at once. A client that stops sending gives
    /// it back after `--body-timeout` (408).
    pub async fn admit_body<Q>(
        self: &Arc<Self>,
        limits: BodyLimits,
        headers: &HeaderMap,
        body: Body,
        checked: Result<Q, ApiError>,
    ) -> Result<(Q, Permit, Vec<u8>), ApiError> {
        let admitted = checked
            .and_then(|q| declared_size(headers, limits.max).map(|()| q))
            .and_then(|q| Ok((q, self.admit()?)));
        let (q, permit) = match admitted {
            Ok(a) => a,
            Err(e) => return Err(refuse(e, headers, body, limits).await),
        };
        let bytes = read_body(headers, body, limits).await?;
        Ok((q, permit, bytes))
    }

    /// A place for one more request, or 503 `busy` with `Retry-After`.
    pub fn admit(self: &Arc<Self>) -> Result<Permit, ApiError> {
        let before = self.pending.fetch_add(1, Ordering::SeqCst);
        let permit = Permit {
            engine: Arc::clone(self),
        };
        if before >= self.max_pending {
            drop(permit);
            let mut e = ApiError::new(
                ApiCode::Busy,
                format!(
                    "the server is working on as many requests as it takes ({} at once); try again shortly",
                    self.max_pending
                ),
            );
            e.retry_after = Some(1);
            return Err(e);
        }
        Ok(permit)
    }

    /// Runs `work` on the pool, within the panic boundary and under the
    /// watchdog. `work` gets `spread`: true when no other request is
    /// admitted, so the input's own pages may use every worker (as the CLI
    /// spreads a batch's last file).
    ///
    /// `work` is also given the request's [`Cancel`] flag
    /// (its stop flag) to put in its [`signprep_core::LoadOptions`]: raised
    /// when the client hangs up, so that work already started stops at the
    /// core's next time-budget check and its worker takes the next request.
    /// What such work returns is dropped with the request: never answered,
    /// logged or counted as a file's outcome.
    pub async fn run_cancellable<T, F>(
        self: &Arc<Self>,
        _permit: &Permit,
        work: F,
    ) -> Result<T, Failed>
    where
        T: Send + 'static,
        F: FnOnce(bool, Cancel) -> T + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let cancel = Cancel::from(Arc::clone(&stop));
        let guard = StopOnDrop(Some(Arc::clone(&stop)));
        let stream = self.stream.share().stop_flag(stop);
        let spread = self.pending() <= 1;
        let job = Mutex::new(Some(work));
        let joined = tokio::task::spawn_blocking(move || {
            let mut outcome = None;
            let flow = stream.run(
                std::iter::once(job),
                |_| 0,
                move |job, _| {
                    let work = job.lock().ok().and_then(|mut j| j.take());
                    work.map(|w| w(spread, cancel.clone()))
                },
                |_, o| {
                    outcome = Some(o);
                    Ok(())
                },
            );
            (flow, outcome)
        })
        .await;
        guard.disarm();
        match joined {
            Ok((Ok(Flow::Completed), Some(Outcome::Done(Some(t))))) => Ok(t),
            Ok((_, Some(Outcome::Panicked(m)))) => Err(Failed::Panicked(m)),
            Ok((_, Some(Outcome::Abandoned(limit)))) => Err(Failed::Abandoned(limit)),
            Ok((_, Some(Outcome::NotStarted(n)))) => Err(Failed::Engine(format!(
                "not started: the watchdog gave up on {n} inputs and their threads are lost; restart the server"
            ))),
            Ok((Ok(Flow::Interrupted), _)) => Err(Failed::Cancelled),
            Ok((Err(e), _)) => Err(Failed::Engine(format!("the worker pool failed: {e}"))),
            Ok(_) => Err(Failed::Engine("the work gave no result".into())),
            Err(e) => Err(Failed::Engine(format!("the request's thread failed: {e}"))),
        }
    }
}
