//! Ordered streaming: work on a pool, results handed over in input order as soon
//! as they are ready, with at most `window` items between the oldest unwritten
//! one and the newest started one (memory stays flat however long the input).
//!
//! ```text
//! feeder thread:  for each item: take a credit ─▶ push (weight, i) on the waiting heap
//!                 ─▶ pool.spawn(job); at the end: End(count)
//! job (pool):     pop the heaviest waiting item j ─▶ note (j, start) in `running`
//!                 ─▶ work(item) ─▶ Done(j, item, outcome)
//! caller thread:  reorder buffer; while slot `next` is done: sink(item, outcome),
//!                 give the credit back, next += 1; slot `next` overdue: Abandoned,
//!                 and a spare worker thread runs jobs until the input is done
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
//! is given up once it has run that long: the sink gets [`Outcome::Abandoned`],
//! writing goes on, and a late result is dropped. A thread cannot be killed, so
//! the stuck one keeps its pool slot until it returns; a spare worker (a thread
//! of its own) takes its place until the input is done, so even a one-thread
//! run goes on (each stuck item costs a thread; isolate hostile inputs in
//! processes, e.g. per shard, to bound that).
//!
//! Panics: this is the one place a panic is caught (libraries do not catch).
//! A job that panics gives [`Outcome::Panicked`] with the panic's text (see
//! [`panic_message`]); the run goes on with the next item.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// What became of one item.
#[derive(Debug)]
pub enum Outcome<T> {
    /// The work returned.
    Done(T),
    /// The work panicked (the message).
    Panicked(String),
    /// The watchdog gave up after this long.
    Abandoned(Duration),
}

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
}

enum Event<I, T> {
    Done(usize, Arc<I>, Outcome<T>),
    End(usize),
}

/// Items started and not yet done: their index, the item and when it started.
type Running<I> = HashMap<usize, (Arc<I>, Instant)>;

impl Stream {
    /// `jobs` worker threads (0: one per core); a window of 32 items per worker,
    /// at least 128. The window is how far ahead of the oldest unwritten item a
    /// large file can be started: with 64, the 2.6 MB file at position 70 of the
    /// 88-file bench set started late and formed the tail of a two-thread run
    /// (~5% of its wall time); finished records waiting for an older one are
    /// what it holds in memory (a few KB each, typically).
    pub fn new(jobs: usize) -> io::Result<Stream> {
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

    /// Runs `work` over `items` on the pool and hands each item with its outcome
    /// to `sink`, in input order, on the calling thread. An error from the sink stops the run:
    /// [`Flow::BrokenPipe`] for a broken pipe, `Err` otherwise.
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
        // Raised when this function returns: the feeder stops, queued jobs skip.
        let closed = Arc::new(AtomicBool::new(false));
        let _close_on_return = CloseOnDrop(Arc::clone(&closed));
        let workers = Arc::new(Workers {
            work,
            waiting: Mutex::new(BinaryHeap::new()),
            admitted: Condvar::new(),
            fed: AtomicBool::new(false),
            running: Mutex::new(HashMap::new()),
            tx,
            closed: Arc::clone(&closed),
        });
        let feeder = Feeder {
            pool: Arc::clone(&self.pool),
            workers: Arc::clone(&workers),
            credits: credit_rx,
        };
        std::thread::Builder::new()
            .name("signprep-feeder".into())
            .spawn(move || feeder.feed(items, weight))?;

        // Done items waiting for an older one to be handed over.
        let mut done: BTreeMap<usize, (Arc<I>, Outcome<T>)> = BTreeMap::new();
        let mut next = 0usize;
        let mut end: Option<usize> = None;
        loop {
            // Hand over everything that is ready, in order.
            loop {
                if self.stopped() {
                    return Ok(Flow::Interrupted);
                }
                let (item, outcome) = match done.remove(&next) {
                    Some(ready) => ready,
                    None => match self.overdue(&workers.running, next) {
                        Some(given_up) => {
                            // Its thread is stuck: a spare one takes its place.
                            let spare = Arc::clone(&workers);
                            let _ = std::thread::Builder::new()
                                .name("signprep-spare-worker".into())
                                .spawn(move || spare.spare());
                            given_up
                        }
                        None => break,
                    },
                };
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
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::other(
                        "stream: the feeder stopped before the end of the input",
                    ));
                }
            }
        }
    }

    /// Item `i` with [`Outcome::Abandoned`] when it has run past the watchdog's limit.
    fn overdue<I, T>(&self, running: &Mutex<Running<I>>, i: usize) -> Option<(Arc<I>, Outcome<T>)> {
        let limit = self.watchdog?;
        let running = running.lock().ok()?;
        let (item, started) = running.get(&i)?;
        let elapsed = started.elapsed();
        (elapsed >= limit).then(|| (Arc::clone(item), Outcome::Abandoned(elapsed)))
    }

    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst))
    }
}

struct CloseOnDrop(Arc<AtomicBool>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

struct Feeder<W, I, T> {
    pool: Arc<rayon::ThreadPool>,
    workers: Arc<Workers<W, I, T>>,
    credits: mpsc::Receiver<()>,
}

/// What the workers share: the work, the items admitted and not started
/// (heaviest on top), the items running, and the way back to the caller.
struct Workers<W, I, T> {
    work: W,
    waiting: Mutex<BinaryHeap<Waiting<I>>>,
    /// Signalled when an item is admitted and when the input ends.
    admitted: Condvar,
    /// The feeder has admitted its last item.
    fed: AtomicBool,
    running: Mutex<Running<I>>,
    tx: mpsc::Sender<Event<I, T>>,
    closed: Arc<AtomicBool>,
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

impl<W, I, T> Feeder<W, I, T>
where
    I: Send + Sync + 'static,
    T: Send + 'static,
    W: Fn(&I, usize) -> T + Send + Sync + 'static,
{
    fn feed(self, items: impl Iterator<Item = I>, weight: impl Fn(&I) -> u64) {
        let workers = &self.workers;
        let mut count = 0usize;
        for item in items {
            if self.credits.recv().is_err() || workers.closed.load(Ordering::SeqCst) {
                return;
            }
            let item = Arc::new(item);
            let waiting = Waiting {
                weight: weight(&item),
                index: count,
                item,
            };
            // A poisoned lock (a job panicked holding it: it cannot, it only
            // pops) still holds a sound heap.
            workers
                .waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(waiting);
            workers.admitted.notify_all();
            // One job per admitted item; each takes whichever waiting item is heaviest.
            let job = Arc::clone(workers);
            self.pool.spawn(move || {
                job.run_one();
            });
            count += 1;
        }
        workers.fed.store(true, Ordering::SeqCst);
        workers.admitted.notify_all();
        let _ = workers.tx.send(Event::End(count));
    }
}

impl<W, I, T> Workers<W, I, T>
where
    I: Send + Sync + 'static,
    T: Send + 'static,
    W: Fn(&I, usize) -> T + Send + Sync + 'static,
{
    /// Runs the heaviest waiting item; false when none waits (or the run is over).
    fn run_one(&self) -> bool {
        if self.closed.load(Ordering::SeqCst) {
            return false;
        }
        let next = self
            .waiting
            .lock()
            .ok()
            .and_then(|mut heap| heap.pop().map(|next| (next, heap.len())));
        let Some((Waiting { index: i, item, .. }, still_waiting)) = next else {
            return false;
        };
        if let Ok(mut running) = self.running.lock() {
            running.insert(i, (Arc::clone(&item), Instant::now()));
        }
        let outcome = match catch_panic(|| (self.work)(&item, still_waiting)) {
            Ok(t) => Outcome::Done(t),
            Err(message) => Outcome::Panicked(message),
        };
        if let Ok(mut running) = self.running.lock() {
            running.remove(&i);
        }
        let _ = self.tx.send(Event::Done(i, item, outcome));
        true
    }

    /// A spare worker, in place of one the watchdog gave up on: runs waiting
    /// items until the input is all admitted and none waits, or the run ends.
    fn spare(&self) {
        loop {
            if self.run_one() {
                continue;
            }
            if self.closed.load(Ordering::SeqCst) {
                return;
            }
            let Ok(heap) = self.waiting.lock() else {
                return;
            };
            if heap.is_empty() {
                if self.fed.load(Ordering::SeqCst) {
                    return;
                }
                // Woken by the next admission; the timeout notices the end of the run.
                let _ = self.admitted.wait_timeout(heap, Duration::from_millis(50));
            }
        }
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
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn collect(stream: &Stream, n: usize, work: fn(&usize) -> usize) -> (Flow, Vec<String>) {
        let mut out = Vec::new();
        let flow = stream
            .run(
                0..n,
                |_| 0,
                move |i, _| work(i),
                |i, o| {
                    out.push(match o {
                        Outcome::Done(v) => format!("{i}:{v}"),
                        Outcome::Panicked(m) => format!("{i}:panic {m}"),
                        Outcome::Abandoned(_) => format!("{i}:abandoned"),
                    });
                    Ok(())
                },
            )
            .unwrap();
        (flow, out)
    }

    #[test]
    fn order_is_kept_whatever_the_timing() {
        let work: fn(&usize) -> usize = |&i| {
            // Later items finish first.
            std::thread::sleep(Duration::from_micros(((50 - i % 50) * 20) as u64));
            i * 2
        };
        let stream = Stream::new(4).unwrap().window(8);
        let (flow, out) = collect(&stream, 300, work);
        assert_eq!(flow, Flow::Completed);
        let expected: Vec<String> = (0..300).map(|i| format!("{i}:{}", i * 2)).collect();
        assert_eq!(out, expected);
        let (flow, out) = collect(&stream, 0, work);
        assert_eq!((flow, out.len()), (Flow::Completed, 0));
    }

    #[test]
    fn a_panic_is_an_outcome_and_the_run_goes_on() {
        let work: fn(&usize) -> usize = |&i| {
            assert!(i != 3, "boom at 3");
            i
        };
        let (_, out) = collect(&Stream::new(2).unwrap(), 6, work);
        assert_eq!(out[3], "3:panic boom at 3");
        assert_eq!(out[5], "5:5");
    }

    #[test]
    fn the_watchdog_gives_up_on_a_stuck_item() {
        let work: fn(&usize) -> usize = |&i| {
            if i == 1 {
                std::thread::sleep(Duration::from_secs(3));
            }
            i
        };
        let stream = Stream::new(2)
            .unwrap()
            .watchdog(Some(Duration::from_millis(200)))
            .tick(Duration::from_millis(10));
        let t = Instant::now();
        let (flow, out) = collect(&stream, 5, work);
        assert_eq!(flow, Flow::Completed);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        assert_eq!(out, ["0:0", "1:abandoned", "2:2", "3:3", "4:4"]);
    }

    #[test]
    fn a_one_thread_run_goes_on_past_an_item_that_never_returns() {
        // The only worker blocks for good on item 1: a spare worker takes
        // over once the watchdog gives up on it. Run on a thread of its own,
        // so that a stall fails the test instead of hanging it.
        let (done_tx, done_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let work: fn(&usize) -> usize = |&i| {
                if i == 1 {
                    loop {
                        std::thread::park();
                    }
                }
                i
            };
            let stream = Stream::new(1)
                .unwrap()
                .watchdog(Some(Duration::from_millis(100)))
                .tick(Duration::from_millis(10));
            let _ = done_tx.send(collect(&stream, 6, work));
        });
        let (flow, out) = done_rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the run ended");
        assert_eq!(flow, Flow::Completed);
        assert_eq!(out, ["0:0", "1:abandoned", "2:2", "3:3", "4:4", "5:5"]);
    }

    #[test]
    fn stops_between_items_and_on_a_broken_pipe() {
        let flag = Arc::new(AtomicBool::new(false));
        let stream = Stream::new(2).unwrap().stop_flag(Arc::clone(&flag));
        let mut seen = 0;
        let flow = stream
            .run(
                0..10_000usize,
                |_| 0,
                |&i, _| i,
                |_, _| {
                    seen += 1;
                    if seen == 10 {
                        flag.store(true, Ordering::SeqCst);
                    }
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!((flow, seen), (Flow::Interrupted, 10));

        let stream = Stream::new(2).unwrap();
        let flow = stream
            .run(
                0..10_000usize,
                |_| 0,
                |&i, _| i,
                |i, _| {
                    if *i == 5 {
                        Err(io::Error::from(io::ErrorKind::BrokenPipe))
                    } else {
                        Ok(())
                    }
                },
            )
            .unwrap();
        assert_eq!(flow, Flow::BrokenPipe);
    }

    #[test]
    fn the_heaviest_waiting_item_starts_first_and_output_keeps_input_order() {
        let weights = [3u64, 1, 5, 3, 9, 0, 2, 7];
        let started = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&started);
        let stream = Stream::new(1).unwrap().window(16);
        let mut out = Vec::new();
        let flow = stream
            .run(
                0..weights.len(),
                move |&i| weights[i],
                move |&i, waiting| {
                    log.lock().unwrap().push((i, waiting));
                    // The first job holds the only worker until every item is waiting.
                    std::thread::sleep(Duration::from_millis(if i == 0 { 200 } else { 1 }));
                    i
                },
                |&i, _| {
                    out.push(i);
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(flow, Flow::Completed);
        assert_eq!(out, (0..weights.len()).collect::<Vec<_>>());
        let (started, waiting): (Vec<usize>, Vec<usize>) =
            started.lock().unwrap().iter().copied().unzip();
        // Whichever item the first job found, the rest start heaviest first, ties in input order.
        let rest = &started[1..];
        let mut expected = rest.to_vec();
        expected.sort_by_key(|&i| (Reverse(weights[i]), i));
        assert_eq!(rest, expected.as_slice(), "start order {started:?}");
        assert_eq!(started.len(), weights.len());
        // Each job was told how many items still waited for a worker: all the
        // others once the first job let go, none for the last.
        assert_eq!(&waiting[1..], &[6, 5, 4, 3, 2, 1, 0], "waiting {waiting:?}");
    }
}
