//! PDFs to scan records on a [`Stream`]: what `signprep scan` and the Python
//! package's `scan_many` run.

use super::outcome::Outcome;
use super::stream::{Flow, Stream};
use crate::document::{Document, LoadOptions};
use crate::record::Record;
use crate::scan::Scanner;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One PDF of a batch: a file, or bytes already in memory.
#[derive(Clone, Debug)]
pub enum PdfSource {
    /// A file, read by the worker that scans it; its record's `path` is the
    /// path as given.
    Path(PathBuf),
    /// A PDF in memory; its record's `path` is `name`.
    Bytes {
        /// What the record calls it.
        name: String,
        /// The file's bytes.
        bytes: Arc<[u8]>,
    },
}

impl PdfSource {
    /// A file.
    pub fn path(path: impl Into<PathBuf>) -> PdfSource {
        PdfSource::Path(path.into())
    }

    /// Bytes in memory, shown as `name` in the record.
    pub fn bytes(name: impl Into<String>, bytes: impl Into<Arc<[u8]>>) -> PdfSource {
        PdfSource::Bytes {
            name: name.into(),
            bytes: bytes.into(),
        }
    }

    /// The name its record shows: the path as given, or the name of the bytes.
    pub fn name(&self) -> String {
        match self {
            PdfSource::Path(p) => p.display().to_string(),
            PdfSource::Bytes { name, .. } => name.clone(),
        }
    }

    /// Its size in bytes (0 when the file cannot be read): the weight that
    /// starts the largest file first.
    pub fn size(&self) -> u64 {
        match self {
            PdfSource::Path(p) => std::fs::metadata(p).map_or(0, |m| m.len()),
            PdfSource::Bytes { bytes, .. } => bytes.len() as u64,
        }
    }
}

impl From<PathBuf> for PdfSource {
    fn from(p: PathBuf) -> Self {
        PdfSource::Path(p)
    }
}

impl From<&Path> for PdfSource {
    fn from(p: &Path) -> Self {
        PdfSource::Path(p.to_path_buf())
    }
}

/// Scans one source on the calling thread. A file that cannot be read or
/// scanned gives an error record; a panic is **not** caught here (run it in a
/// [`Stream`], whose per-item boundary turns it into an internal error:
/// [`Outcome::into_result`]).
///
/// `spread`: spread the file's pages over the pool's other threads (when no
/// other file waits for a worker: a batch's last files, a single file).
pub fn scan_source(
    source: &PdfSource,
    options: &LoadOptions,
    scanner: &Scanner,
    spread: bool,
) -> Record {
    let name = source.name();
    super::test_hook_until(&name, options.cancel.as_ref());
    let options = options.clone().parallel(spread);
    let scanner = scanner.clone().parallel_pages(spread);
    let result = match source {
        PdfSource::Path(p) => Document::open(p, &options),
        PdfSource::Bytes { bytes, .. } => Document::from_bytes(bytes, &options),
    }
    .and_then(|doc| scanner.scan(&doc));
    Record::from_result(name, result)
}

/// The hard limit behind the cooperative time budget: twice the budget plus
/// 5 s, so the budget's own error (which says where the time went) normally
/// comes first. None without a budget.
pub fn watchdog_for(options: &LoadOptions) -> Option<Duration> {
    options
        .time_budget
        .map(|b| b.saturating_mul(2).saturating_add(Duration::from_secs(5)))
}

/// Scans many PDFs on a [`Stream`]: one [`Record`] per source, in input order,
/// whatever the number of threads (see the [module example](super)).
#[derive(Clone, Debug)]
pub struct BatchScan {
    options: LoadOptions,
    scanner: Scanner,
    jobs: usize,
    window: Option<usize>,
    stop: Option<Arc<AtomicBool>>,
}

impl BatchScan {
    /// Every source opened with `options` and scanned with `scanner`; one
    /// thread per core, the watchdog from the time budget ([`watchdog_for`]).
    pub fn new(options: LoadOptions, scanner: Scanner) -> BatchScan {
        BatchScan {
            options,
            scanner,
            jobs: 0,
            window: None,
            stop: None,
        }
    }

    /// Worker threads (0: one per core).
    #[must_use]
    pub fn jobs(mut self, jobs: usize) -> BatchScan {
        self.jobs = jobs;
        self
    }

    /// Most records in flight or finished and waiting for an older one
    /// (default: 32 per thread, at least 128): the bound on memory.
    #[must_use]
    pub fn window(mut self, n: usize) -> BatchScan {
        self.window = Some(n);
        self
    }

    /// Stop between two records once this flag is raised ([`Flow::Interrupted`]).
    #[must_use]
    pub fn stop_flag(mut self, flag: Arc<AtomicBool>) -> BatchScan {
        self.stop = Some(flag);
        self
    }

    /// Scans `sources` and hands each record to `sink` in input order, on the
    /// calling thread. An error from the sink ends the run (a broken pipe as
    /// [`Flow::BrokenPipe`]); `Err` is a sink error or threads that could not
    /// be started.
    pub fn run<S>(
        &self,
        sources: impl IntoIterator<Item = PdfSource, IntoIter: Send + 'static>,
        mut sink: S,
    ) -> io::Result<Flow>
    where
        S: FnMut(Record) -> io::Result<()>,
    {
        let mut stream = Stream::new(self.jobs)?.watchdog(watchdog_for(&self.options));
        if let Some(n) = self.window {
            stream = stream.window(n);
        }
        if let Some(flag) = &self.stop {
            stream = stream.stop_flag(Arc::clone(flag));
        }
        let (options, scanner) = (self.options.clone(), self.scanner.clone());
        let budget = self.options.time_budget;
        stream.run(
            sources.into_iter(),
            PdfSource::size,
            move |source, waiting| scan_source(source, &options, &scanner, waiting == 0),
            |source, outcome: Outcome<Record>| {
                sink(
                    outcome
                        .into_result(budget)
                        .unwrap_or_else(|e| Record::from_result(source.name(), Err(e))),
                )
            },
        )
    }

    /// All the records, in input order, and how the run ended (fewer records
    /// than sources after [`Flow::Interrupted`]).
    pub fn collect(
        &self,
        sources: impl IntoIterator<Item = PdfSource, IntoIter: Send + 'static>,
    ) -> io::Result<(Vec<Record>, Flow)> {
        let mut records = Vec::new();
        let flow = self.run(sources, |r| {
            records.push(r);
            Ok(())
        })?;
        Ok((records, flow))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn one_record_per_source_in_input_order_whatever_the_threads() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures");
        let mut sources: Vec<PdfSource> = Vec::new();
        for name in ["base14_courier.pdf", "missing.pdf", "base14_courier.pdf"] {
            sources.push(PdfSource::path(fixtures.join(name)));
        }
        sources.push(PdfSource::bytes("junk", b"%PDF-1.4 junk".to_vec()));
        let run = |jobs| {
            BatchScan::new(LoadOptions::default(), Scanner::new())
                .jobs(jobs)
                .collect(sources.clone())
                .unwrap()
        };
        let (one, flow) = run(1);
        assert_eq!(flow, Flow::Completed);
        let codes: Vec<Option<&str>> = one
            .iter()
            .map(|r| r.error.as_ref().map(|e| e.code.as_str()))
            .collect();
        assert_eq!(
            codes,
            [None, Some("io_error"), None, Some("pdf_unreadable")]
        );
        assert_eq!(one[3].path, "junk");
        assert!(!one[0].scan.tags.is_empty());
        assert_eq!(run(3).0, one);
    }

    #[test]
    fn a_stop_flag_raised_before_the_run_gives_no_record() {
        let flag = Arc::new(AtomicBool::new(true));
        let (records, flow) = BatchScan::new(LoadOptions::default(), Scanner::new())
            .stop_flag(flag)
            .collect(vec![PdfSource::bytes("a", b"x".to_vec())])
            .unwrap();
        assert_eq!((records.len(), flow), (0, Flow::Interrupted));
    }

    #[test]
    fn a_panic_and_a_file_given_up_on_are_error_records() {
        let record = |o: Outcome<Record>, budget| {
            let r = o
                .into_result(budget)
                .unwrap_or_else(|e| Record::from_result("x.pdf".into(), Err(e)));
            let e = r.error.unwrap();
            (e.code.as_str(), e.message)
        };
        let (code, message) = record(Outcome::Panicked("index out of bounds".into()), None);
        assert_eq!(code, "internal_error");
        assert_eq!(
            message,
            "internal error (please report it with the file): signprep stopped on an unexpected state"
        );
        let (code, message) = record(
            Outcome::Abandoned(Duration::from_millis(11_000)),
            Some(Duration::from_secs(3)),
        );
        assert_eq!(code, "pdf_limit_exceeded");
        assert_eq!(
            message,
            "no result within the 11.0 s watchdog (time budget 3.0 s): the file was given up on and the batch went on"
        );
        let (_, message) = record(Outcome::Abandoned(Duration::from_secs(5)), None);
        assert_eq!(
            message,
            "no result within the 5.0 s watchdog: the file was given up on and the batch went on"
        );
        let (code, message) = record(Outcome::NotStarted(9), None);
        assert_eq!(code, "pdf_limit_exceeded");
        assert_eq!(
            message,
            "not scanned: the batch stopped starting files after the watchdog gave up on 9 (each one holds a thread for good); scan it in a run of its own"
        );
    }
}
