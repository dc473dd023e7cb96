//! `scanMany`: many PDFs (and templates) on the batch engine
//! (`signprep_core::batch::Stream`, the one under `signprep scan`, as
//! `BatchScan` runs it and the Python package's `scan_many` drives it),
//! records handed to JavaScript in input order.
//!
//! ```text
//! JS: push(sources) ─▶ channel ─▶ feeder (the engine's) ─▶ Stream::run:
//! workers scan and write JSON lines ─▶ driver thread (sink, input order) ─▶
//! bounded queue ─▶ next(): a Promise, settled from the driver thread with
//! every record ready (never a libuv thread held waiting)
//! ```
//!
//! Records wanted as objects go over as tapes (`tape.rs`), which JavaScript
//! builds its objects from in a third of the time `JSON.parse` of their lines
//! takes; with `raw: true`, as their JSON lines.
//!
//! The JavaScript layer pushes sources only so far ahead of the records it has
//! taken, and the engine reads them only as far as its window, so an async
//! iterable over millions of paths is never drained into memory. Largest file
//! first within the window, the watchdog and the per-file panic boundary are
//! the engine's. `stop()` (the iterator closed, or its `AbortSignal`) raises
//! the engine's stop flag and ends the run after the files in flight.

use crate::engine::{invalid, to_json};
use crate::scan::{Input, Options, ScanOptions, record_json};
use crate::tape::{self, Encoded, Shapes};
use napi::bindgen_prelude::*;
use napi::{Env, JsDeferred};
use napi_derive::napi;
use signprep_core::Record;
use signprep_core::batch::{Outcome, PdfSource, Stream, catch_panic, watchdog_for};
use signprep_pack::ScanRecord;
use signprep_template::Format;
use signprep_template::convert::ConvertOptions;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, mpsc};

/// Records finished in order and not yet taken by JavaScript, at most.
const HANDED: usize = 64;

/// A finished record: its tape, or its JSON line (`raw`, or a record the
/// tape cannot hold).
enum Item {
    Line(String),
    Tape(Encoded),
}

/// The records one `next()` takes, and the shapes JavaScript has not seen.
struct Taken {
    items: Vec<Item>,
    shapes: Vec<Vec<String>>,
}

type Resolver = Box<dyn FnOnce(Env) -> Result<Option<Chunk>> + Send>;
type Waiter = JsDeferred<Option<Chunk>, Resolver>;

/// The records one `next()` gives: with `raw`, their JSON lines; otherwise
/// their tapes, one after the other (`tape.rs`: a record that is its JSON
/// line has the op `LINE`, its line in `texts`).
#[napi(object)]
pub struct Chunk {
    /// `raw`: each record's JSON line.
    pub lines: Option<Vec<String>>,
    /// The records' ops.
    pub ops: Option<Uint32Array>,
    /// Their numbers.
    pub nums: Option<Float64Array>,
    /// Each record's strings, one after the other (or its JSON line).
    pub texts: Option<Vec<String>>,
    /// The shapes first met since the last chunk (ids following on): each its keys.
    pub shapes: Option<Vec<Vec<String>>>,
}

impl std::fmt::Debug for Chunk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chunk")
            .field("lines", &self.lines.as_ref().map(Vec::len))
            .field("texts", &self.texts.as_ref().map(Vec::len))
            .finish_non_exhaustive()
    }
}

impl Taken {
    /// The chunk JavaScript gets: lines for `raw`, else tapes.
    fn chunk(self, raw: bool) -> Chunk {
        if raw {
            let lines = self.items.into_iter().map(|item| match item {
                Item::Line(l) => l,
                // Not made with `raw` (a tape is only made without it).
                Item::Tape(t) => t.text,
            });
            return Chunk {
                lines: Some(lines.collect()),
                ops: None,
                nums: None,
                texts: None,
                shapes: None,
            };
        }
        let (n_ops, n_nums) = self.items.iter().fold((0, 0), |(o, n), item| match item {
            Item::Line(_) => (o + 1, n),
            Item::Tape(t) => (o + t.ops.len(), n + t.nums.len()),
        });
        let mut ops = Vec::with_capacity(n_ops);
        let mut nums = Vec::with_capacity(n_nums);
        let mut texts = Vec::with_capacity(self.items.len());
        for item in self.items {
            match item {
                Item::Line(l) => {
                    ops.push(tape::LINE);
                    texts.push(l);
                }
                Item::Tape(t) => {
                    ops.extend_from_slice(&t.ops);
                    nums.extend_from_slice(&t.nums);
                    texts.push(t.text);
                }
            }
        }
        Chunk {
            lines: None,
            ops: Some(Uint32Array::new(ops)),
            nums: Some(Float64Array::new(nums)),
            texts: Some(texts),
            shapes: Some(self.shapes),
        }
    }
}

/// What the driver thread and JavaScript share.
#[derive(Default)]
struct Queue {
    /// Finished records, in input order.
    lines: VecDeque<Item>,
    /// The shapes sent to JavaScript so far.
    shapes_sent: usize,
    /// A `next()` waiting for records.
    waiter: Option<Waiter>,
    /// The run is over: `Some(None)` when it completed, `Some(Some(why))` when it failed.
    ended: Option<Option<String>>,
    /// JavaScript stopped taking records.
    closed: bool,
}

#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when JavaScript takes records or stops.
    room: Condvar,
    /// The run's shapes (records as objects), or none (`raw`).
    shapes: Option<Arc<Shapes>>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The records of `q` that can be handed over now (each its own string of
/// text, not joined: a batch with one non-Latin-1 character would make V8 hold
/// the whole of it, and every string cut from it, as two-byte text), or `None`
/// when the run is over and every record was handed over; `Err` for a run
/// that failed.
fn take(
    q: &mut Queue,
    shapes: Option<&Shapes>,
) -> Option<std::result::Result<Option<Taken>, String>> {
    if !q.lines.is_empty() {
        let items = q.lines.drain(..).collect();
        // Read after the records: every shape they use is registered.
        let shapes = shapes.map(|s| s.since(q.shapes_sent)).unwrap_or_default();
        q.shapes_sent += shapes.len();
        return Some(Ok(Some(Taken { items, shapes })));
    }
    match &q.ended {
        None => None,
        Some(None) => Some(Ok(None)),
        Some(Some(why)) => Some(Err(why.clone())),
    }
}

fn settle(waiter: Waiter, taken: std::result::Result<Option<Taken>, String>, raw: bool) {
    match taken {
        Ok(taken) => {
            let chunk = taken.map(|t| t.chunk(raw));
            waiter.resolve(Box::new(move |_| Ok(chunk)))
        }
        Err(why) => waiter.reject(crate::engine::failure("internal_error", why)),
    }
}

/// The native side of `scanMany`'s iterator.
#[napi]
pub struct Batch {
    shared: Arc<Shared>,
    /// Sources pushed by JavaScript, read by the engine's feeder; `None` once ended.
    sources: Mutex<Option<mpsc::Sender<Input>>>,
    stop: Arc<AtomicBool>,
    /// The records as their JSON lines.
    raw: bool,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch").finish_non_exhaustive()
    }
}

/// One source pushed: a path, or bytes with the name their record shows.
#[napi(object)]
pub struct BatchSource {
    /// A file to scan (read by the worker that scans it).
    pub path: Option<String>,
    /// Bytes to scan (copied).
    pub data: Option<Uint8Array>,
    /// The record's `path` for bytes (default `-`).
    pub name: Option<String>,
}

impl std::fmt::Debug for BatchSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchSource")
            .field("path", &self.path)
            .field("bytes", &self.data.as_ref().map(|d| d.len()))
            .field("name", &self.name)
            .finish()
    }
}

#[napi]
impl Batch {
    /// `new Batch(options, jobs, window, raw, linesFirstBytes)`: `jobs` worker threads (0: one
    /// per core), `window` the engine's bound (default: its own); `raw`: the
    /// records as their JSON lines, else as tapes, the first `linesFirstBytes`
    /// bytes of them as JSON lines (default `tape::LINES_FIRST`; 0 when the
    /// tapes pay from the first record: a long list, or a process whose tape
    /// reader is warm). The run starts at once and waits for sources.
    #[napi(constructor)]
    pub fn new(
        options: ScanOptions,
        jobs: Option<u32>,
        window: Option<u32>,
        raw: Option<bool>,
        lines_first_bytes: Option<u32>,
    ) -> Result<Self> {
        let options = Options::new(options)?;
        let jobs = jobs.unwrap_or(0) as usize;
        let stop = Arc::new(AtomicBool::new(false));
        // As `BatchScan::run` sets up its stream: the watchdog of the time
        // budget, the window, the stop flag.
        let mut engine = Stream::new(jobs)
            .map_err(|e| invalid(format!("cannot start worker threads: {e}")))?
            .watchdog(watchdog_for(&options.load))
            .stop_flag(Arc::clone(&stop));
        if let Some(n) = window {
            engine = engine.window(n.max(1) as usize);
        }
        let (tx, rx) = mpsc::channel::<Input>();
        let raw = raw.unwrap_or(false);
        let lines_budget = lines_first_bytes.map_or(tape::LINES_FIRST, |n| n as usize);
        let shapes = (!raw).then(|| Arc::new(Shapes::new(lines_budget)));
        let work_shapes = shapes.clone();
        let shared = Arc::new(Shared {
            shapes,
            ..Shared::default()
        });
        let sink_shared = Arc::clone(&shared);
        let end_shared = Arc::clone(&shared);
        let budget = options.load.time_budget;
        std::thread::Builder::new()
            .name("signprep-node-batch".into())
            .spawn(move || {
                let work_options = options.clone();
                // As `signprep scan` does, each worker scans, writes its
                // record's JSON and drops the record: this thread only hands
                // lines over (the JSON written in parallel, and a record's
                // memory freed by the thread that allocated it).
                let run = engine.run(
                    rx.into_iter(),
                    |input: &Input| input.source().size(),
                    move |input, waiting| {
                        let r = input.record(&work_options, waiting == 0);
                        item(&r, &work_options, work_shapes.as_deref())
                    },
                    |input, outcome: Outcome<std::result::Result<Item, String>>| {
                        let item = match outcome.into_result(budget) {
                            Ok(item) => item,
                            Err(e) => {
                                let r = Record::from_result(input.source().name(), Err(e));
                                record_json(&r, &options)
                                    .map(Item::Line)
                                    .map_err(|e| e.reason)
                            }
                        };
                        hand_over(&sink_shared, item.map_err(std::io::Error::other)?, raw)
                    },
                );
                let mut q = end_shared.lock();
                q.ended = Some(match run {
                    Ok(_) => None,
                    Err(e) => Some(format!("scanMany stopped: {e}")),
                });
                // A waiting `next()` gets what is left (records are never taken
                // without one: they wait for the next call).
                if let Some(w) = q.waiter.take() {
                    match take(&mut q, end_shared.shapes.as_deref()) {
                        Some(taken) => {
                            drop(q);
                            settle(w, taken, raw);
                        }
                        None => q.waiter = Some(w),
                    }
                }
            })
            .map_err(|e| invalid(format!("cannot start a thread: {e}")))?;
        Ok(Batch {
            shared,
            sources: Mutex::new(Some(tx)),
            stop,
            raw,
        })
    }

    /// Adds sources at the end of the input.
    #[napi]
    pub fn push(&self, sources: Vec<BatchSource>) -> Result<()> {
        let guard = self.sources.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(tx) = guard.as_ref() else {
            // After `stop()` nothing more is scanned; after `end()` it is a mistake.
            if self.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            return Err(invalid("scanMany: a source pushed after the end"));
        };
        for s in sources {
            let source = match (s.path, s.data) {
                (Some(p), None) => PdfSource::Path(p.into()),
                (None, Some(d)) => PdfSource::bytes(s.name.unwrap_or_else(|| "-".into()), &d[..]),
                _ => return Err(invalid("a source is a path or bytes")),
            };
            // The run is over (stopped): nothing more to scan.
            if tx.send(Input::of(source)).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// No more sources: the run ends after the last one pushed.
    #[napi]
    pub fn end(&self) {
        self.sources
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }

    /// The records ready, as soon as there is one (one Promise for all of
    /// them); `null` when the run is over and every record was taken.
    #[napi(ts_return_type = "Promise<Chunk | null>")]
    pub fn next<'env>(&self, env: &'env Env) -> Result<Object<'env>> {
        let (deferred, promise) = env.create_deferred::<Option<Chunk>, Resolver>()?;
        let mut q = self.shared.lock();
        if q.waiter.is_some() {
            drop(q);
            deferred.reject(invalid("scanMany: next() called while another waits"));
            return Ok(promise);
        }
        match take(&mut q, self.shared.shapes.as_deref()) {
            Some(taken) => {
                drop(q);
                self.shared.room.notify_all();
                settle(deferred, taken, self.raw);
            }
            None => q.waiter = Some(deferred),
        }
        Ok(promise)
    }

    /// Stops the run: no more file is started, the files in flight finish,
    /// a waiting `next()` gets `null`.
    #[napi]
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.end();
        let mut q = self.shared.lock();
        q.closed = true;
        q.lines.clear();
        let waiter = q.waiter.take();
        drop(q);
        self.shared.room.notify_all();
        if let Some(w) = waiter {
            w.resolve(Box::new(|_| Ok(None)));
        }
    }
}

/// A worker's record as JavaScript is to get it: its tape, or with `raw`
/// (no `shapes`) its JSON line, as it is too for a run's first records
/// (`tape::LINES_FIRST`) and when the tape cannot hold it.
fn item(
    r: &Record,
    options: &Options,
    shapes: Option<&Shapes>,
) -> std::result::Result<Item, String> {
    // The data fields are made once, for the tape and for a line alike.
    ScanRecord::with(r, options.data_fields.as_ref(), |record| {
        if let Some(shapes) = shapes.filter(|s| !s.lines_first())
            && let Ok(t) = tape::encode(record, shapes)
        {
            return Ok(Item::Tape(t));
        }
        let line = to_json(record).map_err(|e| e.reason)?;
        if let Some(shapes) = shapes {
            shapes.line_sent(line.len());
        }
        Ok(Item::Line(line))
    })
}

/// The sink's side: queues a record (waiting while the queue is full) and
/// settles a waiting `next()`; a broken pipe once JavaScript stopped.
fn hand_over(shared: &Shared, line: Item, raw: bool) -> std::io::Result<()> {
    let mut q = shared.lock();
    while q.lines.len() >= HANDED && !q.closed {
        q = shared.room.wait(q).unwrap_or_else(PoisonError::into_inner);
    }
    if q.closed {
        return Err(std::io::ErrorKind::BrokenPipe.into());
    }
    q.lines.push_back(line);
    if let Some(w) = q.waiter.take() {
        let taken = take(&mut q, shared.shapes.as_deref());
        drop(q);
        if let Some(t) = taken {
            settle(w, t, raw);
        }
    }
    Ok(())
}

impl Drop for Batch {
    fn drop(&mut self) {
        // Garbage-collected without being stopped: end the run.
        self.stop.store(true, Ordering::SeqCst);
        self.shared.lock().closed = true;
        self.shared.room.notify_all();
    }
}

/// Converts a list's templates ahead of a `scanMany` ([`prepare_templates`]).
#[derive(Debug)]
pub struct PrepareTask {
    templates: Vec<(PathBuf, Format)>,
    convert: ConvertOptions,
}

impl Task for PrepareTask {
    type Output = u32;
    type JsValue = u32;

    fn compute(&mut self) -> napi::Result<u32> {
        if self.templates.is_empty() || self.convert.cache_dir.is_none() {
            return Ok(0);
        }
        let Ok(lazy) = crate::template::converter(&self.convert) else {
            return Ok(0);
        };
        let templates = &self.templates;
        let done = catch_panic(|| match lazy.get() {
            Ok(c) => c.prepare(templates),
            Err(_) => 0,
        })
        .unwrap_or(0);
        Ok(u32::try_from(done).unwrap_or(u32::MAX))
    }

    fn resolve(&mut self, _env: Env, done: u32) -> napi::Result<u32> {
        Ok(done)
    }
}

/// `prepareTemplates(paths, options)`: converts the templates among `paths`
/// (`.docx`, `.odt`, by extension) into the conversion cache before a
/// `scanMany` of a list scans them, several per LibreOffice process and as
/// many processes at once as the converter has, as `signprep scan` does
/// before a batch whose list it knows (starting LibreOffice is most of a
/// conversion's time). Nothing is done without a cache (`cacheDir: false`)
/// or without LibreOffice (each template is then converted, or reported, in
/// its turn). Resolves to how many were converted; runs off the event loop.
#[napi(ts_return_type = "Promise<number>")]
pub fn prepare_templates(
    paths: Vec<String>,
    options: ScanOptions,
) -> napi::Result<AsyncTask<PrepareTask>> {
    let convert = Options::new(options)?.convert;
    let templates = paths
        .into_iter()
        .map(PathBuf::from)
        .filter_map(|p| Format::from_path(&p).map(|f| (p, f)))
        .collect();
    Ok(AsyncTask::new(PrepareTask { templates, convert }))
}
