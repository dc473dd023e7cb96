//! Ordered streaming: work on a pool, results handed over in input order as soon
//! as they are ready, with at most `window` items between the oldest unwritten
//! one and the newest started one (memory stays flat however long the input).
//!
//! ```text
//! feeder thread:  for each item: take a credit ─▶ push (weight, i) on the waiting heap
//!                 ─▶ pool.spawn(job); at the end: End(count)
//! job (pool):     pop the heaviest waiting item j ─▶ note (j, start) in `running`
//!                 ─▶ work(item) ─▶ Done(j, item, outcome)
//! replacement:    the same as a loop, on a thread of its own, until no item is left
//! caller thread:  reorder buffer; while slot `next` is done: sink(item, outcome),
//!                 give the credit back, next += 1
//! ```
//!
//! Largest first: each spawned job takes the *heaviest* item waiting (its weight is
//! given by the caller: the file size for a scan), ties in input order. Within the
//! window, a 300-page file admitted among small ones starts as soon as a worker is
//! free instead of after everything queued before it, so it does not form a serial
//! tail at the end of the batch. Output order is unaffected (the reorder buffer).
//!
//! Only `Done` and `End` wake the caller's thread (one wake-up per item: on two
//! cores each one preempts a worker); the watchdog reads start times from the
//! `running` table when it wakes anyway, at least every tick.
//!
//! The caller's thread owns the sink (stdout, say), so a record is always written
//! whole; it checks the stop flag (Ctrl-C in the CLI, `KeyboardInterrupt` in
//! Python) between records and stops at once on a broken pipe. Neither waits for the work in flight: the pool's threads are
//! left to finish or to end with the process.
//!
//! Watchdog: the per-file time budget is cooperative (checked between content
//! operators), so a file stuck in code that never checks it would hold up every
//! record behind it. With [`Stream::watchdog`] set, the oldest unwritten item
//! is given up once it has run that long: the sink gets [`Outcome::Abandoned`]
//! with the configured limit (never the time measured: output is the same run
//! to run), writing goes on, and a late result is dropped.
//!
//! A thread cannot be killed, so the abandoned item's thread is lost to the run
//! (parked or looping for good). Each one is replaced: a worker thread of its
//! own (a one-thread pool, so its work never spreads over other threads) takes
//! waiting items until none is left, so the run keeps as many live workers as
//! it started with and ends even with `jobs(1)` and a hanging item. The
//! replacements are bounded: after [`Stream::max_stuck`] abandoned items
//! (8 by default) the next one given up on halts the run: every item after it
//! is handed over as [`Outcome::NotStarted`] (those still waiting are never
//! started; a result that came anyway is dropped), so a batch of hostile
//! inputs cannot pile up stuck threads without bound, and still ends. The
//! bound counts items, in input order, never threads or time: which items are
//! given up on, and so the whole output, is the same whatever the thread count.
//! A thread still stuck when a run ends is replaced again at the start of the
//! next run of the same [`Stream`]. (Isolate hostile inputs in processes, e.g.
//! per shard, to get the threads back.)
//!
//! Panics: this is the one place a panic is caught (libraries do not catch).
//! A job that panics gives [`Outcome::Panicked`] with the panic's text (see
//! [`panic_message`]); the run goes on with the next item.

use super::outcome::Outcome;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The default of [`Stream::max_stuck`].
pub const MAX_STUCK: usize = 8;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Every item was handed to the sink.
    Completed,
    /// The stop flag was raised (Ctrl-C, SIGTERM): the items so far were handed over.
    Interrupted,
    /// The sink's reader went away (`| head`).
    BrokenPipe,
}

/// The most worker threads a run may have ([`Stream::new`] refuses more): far
/// above any machine's cores, and far below what makes thread creation itself
/// the work (`--jobs 20000` on two cores spun for minutes before this bound).
pub const MAX_JOBS: usize = 1024;

/// The pool and the bounds of an ordered stream.
///
/// ```
/// use signprep_core::batch::{Flow, Outcome, Stream};
///
/// let stream = Stream::new(2)?;
/// let mut squares = Vec::new();
/// let flow = stream.run(
///     0..100u64,
///     |_| 0,                  // weight: equal, so input order
///     |&n, _waiting| n * n,   // the work, on the pool
///     |_, outcome| {
///         // On this thread, in input order.
///         if let Outcome::Done(sq) = outcome {
///             squares.push(sq);
///         }
///         Ok(())
///     },
/// )?;
/// assert_eq!(flow, Flow::Completed);
/// assert_eq!(squares[9], 81);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Stream {
    pool: Arc<rayon::ThreadPool>,
    window: usize,
    watchdog: Option<Duration>,
    stop: Option<Arc<AtomicBool>>,
    tick: Duration,
    max_stuck: usize,
    /// Threads still busy with an item nobody waits for (given up on, in
    /// this run or an earlier one).
    lost: Arc<AtomicUsize>,
}

enum Event<I, T> {
    Done(usize, Arc<I>, Outcome<T>),
    End(usize),
    /// The feeder stopped before the end of the input (the items' iterator
    /// or the weight panicked).
    Failed,
}

impl Stream {
    /// `jobs` worker threads (0: one per core); a window of 32 items per worker,
    /// at least 128. The window is how far ahead of the oldest unwritten item a
    /// large file can be started: with 64, the 2.6 MB file at position 70 of the
    /// 88-file bench set started late and formed the tail of a two-thread run
    /// (~5% of its wall time); finished records waiting for an older one are
    /// what it holds in memory (a few KB each, typically).
    pub fn new(jobs: usize) -> io::Result<Stream> {
        if jobs > MAX_JOBS {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{jobs} worker threads is more than the {MAX_JOBS} a run may have"),
            ));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .thread_name(|i| format!("signprep-worker-{i}"))
            .build()
            .map_err(io::Error::other)?;
        let window = (pool.current_num_threads() * 32).max(128);
        Ok(Stream {
            pool: Arc::new(pool),
            window,
            watchdog: None,
            stop: None,
            tick: Duration::from_millis(50),
            max_stuck: MAX_STUCK,
            lost: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// Most items in flight or waiting to be written (at least 1): the bound
    /// on memory held by finished results waiting for an older one.
    #[must_use]
    pub fn window(mut self, n: usize) -> Stream {
        self.window = n.max(1);
        self
    }

    /// Give up on the oldest unwritten item after it has run this long.
    #[must_use]
    pub fn watchdog(mut self, limit: Option<Duration>) -> Stream {
        self.watchdog = limit;
        self
    }

    /// Most items one run gives up on and replaces the thread of (at least 1;
    /// [`MAX_STUCK`] by default): the next one given up on halts the run,
    /// every later item is [`Outcome::NotStarted`]. A count of items, never
    /// of threads, so the output does not depend on the thread count.
    #[must_use]
    pub fn max_stuck(mut self, n: usize) -> Stream {
        self.max_stuck = n.max(1);
        self
    }

    /// Stop between two items once this flag is raised.
    #[must_use]
    pub fn stop_flag(mut self, flag: Arc<AtomicBool>) -> Stream {
        self.stop = Some(flag);
        self
    }

    /// How often the sink's thread wakes while waiting (progress, stop flag,
    /// watchdog); 50 ms by default.
    #[must_use]
    pub fn tick(mut self, tick: Duration) -> Stream {
        self.tick = tick;
        self
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// A stream on the same pool (and the same count of lost threads) with
    /// the same window, watchdog and tick, but no stop flag: what a server
    /// runs each request on, so that each request has its own stop flag
    /// (a client that went away) while all of them share the `jobs` threads.
    /// Runs of shares may overlap; each replaces the threads lost so far at
    /// its start, as any run does.
    #[must_use]
    pub fn share(&self) -> Stream {
        Stream {
            pool: Arc::clone(&self.pool),
            window: self.window,
            watchdog: self.watchdog,
            stop: None,
            tick: self.tick,
            max_stuck: self.max_stuck,
            lost: Arc::clone(&self.lost),
        }
    }

    /// Threads still busy with an item nobody waits for any more (the
    /// watchdog gave up on it): lost to the pool until the work returns, if
    /// ever. A long-running caller watches it (a server reports itself not
    /// ready past a bound, so it is restarted).
    pub fn lost_threads(&self) -> usize {
        self.lost.load(Ordering::SeqCst)
    }

    /// Runs `work` over `items` on the pool and hands each item with its outcome
    /// to `sink`, in input order, on the calling thread. An error from the sink stops the run:
    /// [`Flow::BrokenPipe`] for a broken pipe, `Err` otherwise (or threads
    /// that could not be started).
    ///
    /// The heaviest waiting item starts first (`weight` is called once per item,
    /// on the feeder thread: a file's size, say; a constant keeps input order).
    /// `work` gets the item and how many admitted items were still waiting for
    /// a worker when it started: 0 means the other workers may have nothing
    /// to do, so the item's own work may be spread over them.
    pub fn run<I, T, G, W, S>(
        &self,
        items: impl Iterator<Item = I> + Send + 'static,
        weight: G,
        work: W,
        mut sink: S,
    ) -> io::Result<Flow>
    where
        I: Send + Sync + 'static,
        T: Send + 'static,
        G: Fn(&I) -> u64 + Send + 'static,
        W: Fn(&I, usize) -> T + Send + Sync + 'static,
        S: FnMut(&I, Outcome<T>) -> io::Result<()>,
    {
        let (tx, rx) = mpsc::channel::<Event<I, T>>();
        let (credit_tx, credit_rx) = mpsc::sync_channel::<()>(self.window);
        for _ in 0..self.window {
            let _ = credit_tx.try_send(());
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            work,
            tx,
            lost: Arc::clone(&self.lost),
        });
        // When this function returns: the feeder stops, queued jobs skip,
        // replacements end.
        let _close_on_return = CloseOnDrop(&shared);
        // Threads an earlier run lost still hold their slots in the pool.
        for _ in 0..self.lost.load(Ordering::SeqCst).min(self.max_stuck) {
            replace(&shared)?;
        }
        let feeder = Feeder {
            pool: Arc::clone(&self.pool),
            shared: Arc::clone(&shared),
            credits: credit_rx,
        };
        std::thread::Builder::new()
            .name("signprep-feeder".into())
            .spawn(move || feeder.feed(items, weight))?;

        // Done items waiting for an older one to be handed over.
        let mut done: BTreeMap<usize, (Arc<I>, Outcome<T>)> = BTreeMap::new();
        let mut next = 0usize;
        let mut end: Option<usize> = None;
        // Items given up on so far, and the one that halted the run.
        let mut abandoned = 0usize;
        let mut halted_at: Option<usize> = None;
        loop {
            // Hand over everything that is ready, in order.
            loop {
                if self.stopped() {
                    return Ok(Flow::Interrupted);
                }
                let ready = match halted_at {
                    Some(k) if next > k => not_started(&shared, &mut done, next, abandoned),
                    _ => match done.remove(&next) {
                        Some(ready) => Some(ready),
                        None => self.overdue(&shared, next),
                    },
                };
                let Some((item, outcome)) = ready else {
                    break;
                };
                if matches!(outcome, Outcome::Abandoned(_)) {
                    abandoned += 1;
                    if abandoned > self.max_stuck {
                        halted_at = Some(next);
                        halt(&shared, &mut done, abandoned);
                    } else {
                        replace(&shared)?;
                    }
                }
                match sink(&item, outcome) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                        return Ok(Flow::BrokenPipe);
                    }
                    Err(e) => return Err(e),
                }
                next += 1;
                let _ = credit_tx.try_send(());
            }
            if end == Some(next) {
                return Ok(Flow::Completed);
            }
            match rx.recv_timeout(self.tick) {
                // A late result of an abandoned item is dropped.
                Ok(Event::Done(i, item, o)) => {
                    if i >= next {
                        done.insert(i, (item, o));
                    }
                }
                Ok(Event::End(n)) => end = Some(n),
                Err(RecvTimeoutError::Timeout) => {}
                Ok(Event::Failed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::other(
                        "stream: the feeder stopped before the end of the input",
                    ));
                }
            }
        }
    }

    /// Item `i` with [`Outcome::Abandoned`] when it has run past the
    /// watchdog's limit; its thread is counted as lost.
    fn overdue<I, T, W>(&self, shared: &Shared<I, T, W>, i: usize) -> Option<(Arc<I>, Outcome<T>)> {
        let limit = self.watchdog?;
        let mut state = shared.lock()?;
        let running = state.running.get_mut(&i)?;
        if running.started.elapsed() < limit {
            return None;
        }
        running.given_up = true;
        shared.lost.fetch_add(1, Ordering::SeqCst);
        Some((Arc::clone(&running.item), Outcome::Abandoned(limit)))
    }

    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst))
    }
}

/// Item `i` of a halted run, as soon as it is known (done, running or
/// drained from the waiting heap), with [`Outcome::NotStarted`]: the same
/// record whether or not it ran, whatever the timing.
fn not_started<I, T, W>(
    shared: &Shared<I, T, W>,
    done: &mut BTreeMap<usize, (Arc<I>, Outcome<T>)>,
    i: usize,
    abandoned: usize,
) -> Option<(Arc<I>, Outcome<T>)> {
    if let Some((item, _)) = done.remove(&i) {
        return Some((item, Outcome::NotStarted(abandoned)));
    }
    let mut state = shared.lock()?;
    let running = state.running.get_mut(&i)?;
    // Nobody waits for its result any more.
    running.given_up = true;
    shared.lost.fetch_add(1, Ordering::SeqCst);
    Some((Arc::clone(&running.item), Outcome::NotStarted(abandoned)))
}

/// Stops starting items: those waiting are handed over as not started, the
/// feeder passes the rest straight through, the replacements end.
fn halt<I, T, W>(
    shared: &Shared<I, T, W>,
    done: &mut BTreeMap<usize, (Arc<I>, Outcome<T>)>,
    abandoned: usize,
) {
    if let Some(mut state) = shared.lock() {
        state.halted = Some(abandoned);
        for w in std::mem::take(&mut state.waiting) {
            done.insert(w.index, (w.item, Outcome::NotStarted(abandoned)));
        }
    }
    shared.wake.notify_all();
}

/// Starts a worker thread in place of one lost to an abandoned item: a
/// one-thread pool (the work's own parallel parts stay on it) whose one job
/// takes waiting items until none is left or the run ends.
fn replace<I, T, W>(shared: &Arc<Shared<I, T, W>>) -> io::Result<()>
where
    I: Send + Sync + 'static,
    T: Send + 'static,
    W: Fn(&I, usize) -> T + Send + Sync + 'static,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(|_| "signprep-worker-replacement".into())
        .build()
        .map_err(io::Error::other)?;
    let shared = Arc::clone(shared);
    // The pool lives until its spawned job returns (rayon keeps it), then ends.
    pool.spawn(move || shared.replacement());
    Ok(())
}

/// What the feeder, the jobs, the replacements and the caller's thread share
/// during one run.
struct Shared<I, T, W> {
    state: Mutex<State<I>>,
    /// Wakes the replacements: an item was admitted, or the run ended.
    wake: Condvar,
    work: W,
    tx: mpsc::Sender<Event<I, T>>,
    lost: Arc<AtomicUsize>,
}

struct State<I> {
    /// Items admitted but not started, heaviest on top.
    waiting: BinaryHeap<Waiting<I>>,
    /// Items started and not yet done.
    running: HashMap<usize, Running<I>>,
    /// The feeder admitted its last item.
    fed: bool,
    /// The run returned.
    closed: bool,
    /// The run stopped starting items after giving up on this many.
    halted: Option<usize>,
}

impl<I> Default for State<I> {
    fn default() -> Self {
        State {
            waiting: BinaryHeap::new(),
            running: HashMap::new(),
            fed: false,
            closed: false,
            halted: None,
        }
    }
}

/// A started item.
struct Running<I> {
    item: Arc<I>,
    started: Instant,
    /// The caller no longer waits for it: its thread counts as lost until
    /// the work returns.
    given_up: bool,
}

impl<I, T, W> Shared<I, T, W> {
    /// The state; None only if a thread panicked holding the lock (none
    /// does: work and panics happen outside it).
    fn lock(&self) -> Option<MutexGuard<'_, State<I>>> {
        self.state.lock().ok()
    }
}

impl<I, T, W> Shared<I, T, W>
where
    I: Send + Sync + 'static,
    T: Send + 'static,
    W: Fn(&I, usize) -> T + Send + Sync + 'static,
{
    /// Takes the heaviest waiting item and notes it as running: its index,
    /// the item and how many still wait.
    fn start(state: &mut State<I>) -> Option<(usize, Arc<I>, usize)> {
        let Waiting { index, item, .. } = state.waiting.pop()?;
        let running = Running {
            item: Arc::clone(&item),
            started: Instant::now(),
            given_up: false,
        };
        state.running.insert(index, running);
        Some((index, item, state.waiting.len()))
    }

    /// Works on a started item, inside the panic boundary, and sends its outcome.
    fn finish(&self, (i, item, still_waiting): (usize, Arc<I>, usize)) {
        let outcome = match catch_panic(|| (self.work)(&item, still_waiting)) {
            Ok(t) => Outcome::Done(t),
            Err(message) => Outcome::Panicked(message),
        };
        if let Some(mut state) = self.lock()
            && state.running.remove(&i).is_some_and(|r| r.given_up)
        {
            // The thread is back.
            self.lost.fetch_sub(1, Ordering::SeqCst);
        }
        let _ = self.tx.send(Event::Done(i, item, outcome));
    }

    /// A pool job: the heaviest waiting item, if any is left.
    fn job(&self) {
        let next = self.lock().and_then(|mut state| {
            if state.closed {
                None
            } else {
                Self::start(&mut state)
            }
        });
        if let Some(next) = next {
            self.finish(next);
        }
    }

    /// A replacement's job: waiting items until none is left or the run ends.
    fn replacement(&self) {
        loop {
            let Some(mut state) = self.lock() else {
                return;
            };
            let next = loop {
                if state.closed || state.halted.is_some() {
                    return;
                }
                if let Some(next) = Self::start(&mut state) {
                    break next;
                }
                if state.fed {
                    return;
                }
                state = match self.wake.wait(state) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            };
            drop(state);
            self.finish(next);
        }
    }
}

impl<I, T, W> Shared<I, T, W> {
    /// Ends the run for everyone: queued jobs skip, replacements return.
    fn close(&self) {
        if let Some(mut state) = self.lock() {
            state.closed = true;
        }
        self.wake.notify_all();
    }
}

struct CloseOnDrop<'a, I, T, W>(&'a Shared<I, T, W>);

impl<I, T, W> Drop for CloseOnDrop<'_, I, T, W> {
    fn drop(&mut self) {
        self.0.close();
    }
}

struct Feeder<I, T, W> {
    pool: Arc<rayon::ThreadPool>,
    shared: Arc<Shared<I, T, W>>,
    credits: mpsc::Receiver<()>,
}

/// An admitted item waiting for a worker: ordered by weight, then by input
/// order (the earlier first).
struct Waiting<I> {
    weight: u64,
    index: usize,
    item: Arc<I>,
}

impl<I> Waiting<I> {
    fn key(&self) -> (u64, Reverse<usize>) {
        (self.weight, Reverse(self.index))
    }
}

impl<I> PartialEq for Waiting<I> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl<I> Eq for Waiting<I> {}

impl<I> PartialOrd for Waiting<I> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<I> Ord for Waiting<I> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// Sends [`Event::Failed`] unless disarmed: the feeder's thread ended
/// (a panic in the items' iterator or the weight) before `End`.
struct FailOnDrop<I, T>(Option<mpsc::Sender<Event<I, T>>>);

impl<I, T> Drop for FailOnDrop<I, T> {
    fn drop(&mut self) {
        if let Some(tx) = self.0.take() {
            let _ = tx.send(Event::Failed);
        }
    }
}

impl<I, T, W> Feeder<I, T, W>
where
    I: Send + Sync + 'static,
    T: Send + 'static,
    W: Fn(&I, usize) -> T + Send + Sync + 'static,
{
    fn feed(self, items: impl Iterator<Item = I>, weight: impl Fn(&I) -> u64) {
        let mut unfinished = FailOnDrop(Some(self.shared.tx.clone()));
        let mut count = 0usize;
        for item in items {
            if self.credits.recv().is_err() {
                return;
            }
            let weight = weight(&item);
            let item = Arc::new(item);
            let Some(mut state) = self.shared.lock() else {
                return;
            };
            if state.closed {
                return;
            }
            if let Some(abandoned) = state.halted {
                // Not started: straight to the caller.
                drop(state);
                let outcome = Outcome::NotStarted(abandoned);
                let _ = self.shared.tx.send(Event::Done(count, item, outcome));
            } else {
                state.waiting.push(Waiting {
                    weight,
                    index: count,
                    item,
                });
                drop(state);
                self.shared.wake.notify_one();
                // One job per admitted item; each takes whichever waiting item is heaviest.
                let shared = Arc::clone(&self.shared);
                self.pool.spawn(move || shared.job());
            }
            count += 1;
        }
        if let Some(mut state) = self.shared.lock() {
            state.fed = true;
        }
        self.shared.wake.notify_all();
        unfinished.0 = None;
        let _ = self.shared.tx.send(Event::End(count));
    }
}

/// Runs `work` and returns its result, or the message of the panic that
/// ended it ([`panic_message`]). The one place signprep catches a panic:
/// [`Stream`] calls it for each item; code that runs one input outside a
/// stream at a boundary of its own (a Python binding's one-file call) calls
/// it directly. What `work` touched may be left half-updated: use its
/// result only, never state it shared.
///
/// ```
/// use signprep_core::batch::catch_panic;
///
/// assert_eq!(catch_panic(|| 2 + 2), Ok(4));
/// let r: Result<u8, String> = catch_panic(|| panic!("boom"));
/// assert_eq!(r, Err("boom".to_string()));
/// ```
pub fn catch_panic<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .map_err(|payload| panic_message(payload.as_ref()))
}

/// The text of a panic payload (`panic!("...")` carries a `&str` or a
/// `String`; anything else is just "panic"). The one formatter: every caught
/// panic is reported with it.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

#[cfg(test)]
mod tests;
