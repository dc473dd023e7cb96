//! `scan_many`: many PDFs (and templates) on the batch engine
//! (`signprep_core::batch::Stream`, the one under `signprep scan`, as
//! `BatchScan` runs it, with templates scanned by `signprep_template` beside
//! the PDFs), records handed to Python in input order.
//!
//! ```text
//! Python iterator ─(feeder thread, GIL taken per item)─▶ Stream::run on the
//! driver thread ─ sink ─▶ bounded channel ─▶ Batch.__next__ (GIL released while it waits)
//! ```
//!
//! The engine reads sources only as far as its window (plus this channel), so
//! a generator over millions of paths is never drained into memory; largest
//! file first within the window, the watchdog and the per-file panic boundary
//! are the engine's. Dropping the iterator raises the engine's stop flag and
//! closes the channel: the run ends after the files in flight.

use crate::scan::{Options, to_python};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use signprep_core::Record;
use signprep_core::batch::{Outcome, PdfSource, Stream, catch_panic, scan_source, watchdog_for};
use signprep_template::Format;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

/// Records finished in order and not yet taken by Python, at most.
const HANDED: usize = 16;

/// The iterator `signprep.scan_many` returns.
#[pyclass(module = "signprep._native")]
#[derive(Debug)]
pub struct Batch {
    /// A mutex only to make the class `Sync`, as PyO3 requires: `__next__`
    /// takes `&mut self`, so it is never contended.
    records: Option<Mutex<mpsc::Receiver<Record>>>,
    /// An exception the source iterator raised: raised after the records of
    /// the sources before it.
    raised: Arc<Mutex<Option<PyErr>>>,
    /// How the run ended, when it failed (threads that could not start).
    failed: Arc<Mutex<Option<String>>>,
    stop: Arc<AtomicBool>,
    window: Option<usize>,
    /// What the records are converted with (`data_fields`).
    options: Options,
}

/// One input: a PDF, or a template (`.docx`, `.odt`) by its extension or its
/// bytes.
enum Input {
    Pdf(PdfSource),
    Template(PdfSource, Format),
}

impl Input {
    fn source(&self) -> &PdfSource {
        match self {
            Input::Pdf(s) | Input::Template(s, _) => s,
        }
    }

    fn of(source: PdfSource) -> Input {
        let format = match &source {
            PdfSource::Path(p) => Format::from_path(p),
            PdfSource::Bytes { bytes, .. } => Format::sniff(bytes),
        };
        match format {
            Some(f) => Input::Template(source, f),
            None => Input::Pdf(source),
        }
    }

    /// Its record: a PDF's as `scan_source` makes it, a template's as
    /// `signprep_template::scan_template` does (the CLI's, both).
    fn record(&self, options: &Options, spread: bool) -> Record {
        match self {
            Input::Pdf(s) => scan_source(s, &options.load, &options.scanner, spread),
            Input::Template(PdfSource::Path(p), f) => crate::template::record_of_path(
                p,
                p.display().to_string(),
                *f,
                &options.convert,
                &options.load,
                &options.scanner,
            ),
            Input::Template(PdfSource::Bytes { name, bytes }, f) => {
                crate::template::record_of_bytes(
                    name.clone(),
                    bytes,
                    *f,
                    &options.convert,
                    &options.load,
                    &options.scanner,
                )
            }
        }
    }
}

/// The sources, read from Python by the engine's feeder thread.
struct Sources {
    inputs: Option<Py<PyAny>>,
    raised: Arc<Mutex<Option<PyErr>>>,
}

impl Iterator for Sources {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        let inputs = self.inputs.as_ref()?;
        let next = Python::attach(|py| -> PyResult<Option<PdfSource>> {
            let Some(item) = inputs.bind(py).try_iter()?.next() else {
                return Ok(None);
            };
            // (path, None, shown) or (None, data, shown), as signprep._resolve gives.
            let (path, data, shown) =
                item?.extract::<(Option<PathBuf>, Option<Bound<'_, PyBytes>>, String)>()?;
            Ok(Some(match (path, data) {
                (Some(p), _) if p.display().to_string() == shown => PdfSource::Path(p),
                (_, Some(d)) => PdfSource::bytes(shown, d.as_bytes()),
                _ => return Err(PyValueError::new_err("a source is a path or bytes")),
            }))
        });
        match next {
            Ok(Some(s)) => Some(Input::of(s)),
            Ok(None) => {
                self.inputs = None;
                None
            }
            Err(e) => {
                self.inputs = None;
                if let Ok(mut slot) = self.raised.lock() {
                    *slot = Some(e);
                }
                None
            }
        }
    }
}

#[pymethods]
impl Batch {
    /// `Batch(inputs, options, jobs, window)`: `inputs` an iterator of
    /// `(path, data, shown)`, `jobs` worker threads (0: one per core),
    /// `window` the engine's bound (None: its default).
    #[new]
    #[pyo3(signature = (inputs, options, jobs, window=None))]
    fn new(
        inputs: Bound<'_, PyAny>,
        options: &Options,
        jobs: usize,
        window: Option<usize>,
    ) -> PyResult<Self> {
        let raised = Arc::new(Mutex::new(None));
        let failed = Arc::new(Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let sources = Sources {
            inputs: Some(inputs.try_iter()?.into_any().unbind()),
            raised: Arc::clone(&raised),
        };
        // As `BatchScan::run` sets up its stream: the watchdog of the time
        // budget, the window, the stop flag.
        let mut engine = Stream::new(jobs)
            .map_err(|e| PyValueError::new_err(format!("cannot start worker threads: {e}")))?
            .watchdog(watchdog_for(&options.load))
            .stop_flag(Arc::clone(&stop));
        if let Some(n) = window {
            engine = engine.window(n);
        }
        let (tx, rx) = mpsc::sync_channel::<Record>(HANDED);
        let failed_slot = Arc::clone(&failed);
        let work_options = options.clone();
        let budget = options.load.time_budget;
        std::thread::Builder::new()
            .name("signprep-py-batch".into())
            .spawn(move || {
                let run = engine.run(
                    sources,
                    |input: &Input| input.source().size(),
                    move |input, waiting| input.record(&work_options, waiting == 0),
                    |input, outcome: Outcome<Record>| {
                        let r = outcome
                            .into_result(budget)
                            .unwrap_or_else(|e| Record::from_result(input.source().name(), Err(e)));
                        // Python dropped the iterator: end the run.
                        tx.send(r)
                            .map_err(|_| std::io::ErrorKind::BrokenPipe.into())
                    },
                );
                if let (Err(e), Ok(mut slot)) = (run, failed_slot.lock()) {
                    *slot = Some(e.to_string());
                }
            })
            .map_err(|e| PyValueError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(Batch {
            records: Some(Mutex::new(rx)),
            raised,
            failed,
            stop,
            window,
            options: options.clone(),
        })
    }

    /// The engine's window, when one was given.
    #[getter]
    fn window(&self) -> Option<usize> {
        self.window
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(rx) = &self.records else {
            return Ok(None);
        };
        let next = py.detach(|| rx.lock().ok().and_then(|rx| rx.recv().ok()));
        if let Some(r) = next {
            return to_python(py, &r, &self.options).map(Some);
        }
        // The run is over: every record was handed over.
        self.records = None;
        if let Some(e) = self.raised.lock().ok().and_then(|mut s| s.take()) {
            return Err(e);
        }
        if let Some(m) = self.failed.lock().ok().and_then(|mut s| s.take()) {
            return Err(PyValueError::new_err(format!("scan_many stopped: {m}")));
        }
        Ok(None)
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// `prepare_templates(paths, options)`: converts the templates among `paths`
/// (`.docx`, `.odt`, by extension) ahead of a `scan_many`, several per
/// LibreOffice process and as many processes at once as the converter has
/// slots, into the conversion cache, where the batch's workers then find
/// them: as `signprep scan` does before a batch whose list it knows (starting
/// LibreOffice is most of a conversion's time). Without a cache
/// (`cache_dir=False`), or without LibreOffice, nothing is done here (each
/// template is then converted, or reported, in its turn). Returns how many
/// were converted. The GIL is released meanwhile.
#[pyfunction]
pub fn prepare_templates(py: Python<'_>, paths: Vec<PathBuf>, options: &Options) -> usize {
    let templates: Vec<(PathBuf, Format)> = paths
        .into_iter()
        .filter_map(|p| Format::from_path(&p).map(|f| (p, f)))
        .collect();
    if templates.is_empty() || options.convert.cache_dir.is_none() {
        return 0;
    }
    let Ok(lazy) = crate::template::lazy(&options.convert) else {
        return 0;
    };
    py.detach(|| match lazy.get() {
        Ok(c) => catch_panic(|| c.prepare(&templates)).unwrap_or(0),
        Err(_) => 0,
    })
}
