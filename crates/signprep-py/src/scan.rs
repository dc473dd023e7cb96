//! One file's scan record, from a path or from bytes.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use signprep_core::batch::{PdfSource, catch_panic, scan_source};
use signprep_core::{DialectError, Dialects, Error, LoadOptions, Record, Scanner};
use signprep_pack::{AnchorFile, ScanRecord, TypeMap};
use signprep_template::Format;
use signprep_template::convert::{ConvertOptions, DEFAULT_TIMEOUT, default_cache_dir};
use std::path::PathBuf;
use std::time::Duration;

/// How to scan: the `signprep scan` options, checked once and shared by every
/// file of a call.
#[pyclass(frozen, skip_from_py_object, module = "signprep._native")]
#[derive(Clone, Debug)]
pub struct Options {
    pub scanner: Scanner,
    pub load: LoadOptions,
    /// With `data_fields`: the type map (`scan --data-fields --type-map`).
    pub data_fields: Option<TypeMap>,
    /// How templates (`.docx`, `.odt`) are converted.
    pub convert: ConvertOptions,
}

#[pymethods]
impl Options {
    /// `dpi`, `page_width`, `fields`, `apply_user_unit` and `dialects` are
    /// `scan`'s; `timeout` (seconds, 0 for none) and `max_file_size` (bytes)
    /// are the per-file limits of `scan --timeout-per-file/--max-file-size`;
    /// `data_fields`, when given, the `NAME_OR_GLOB=TYPE` rules of
    /// `scan --data-fields --type-map` (an empty list: the default types);
    /// `anchor_files` DocuSign anchor files as (path, bytes) (`--anchors`),
    /// `anchor` quick tabs `STRING=TYPE[:SIGNER]` (`--anchor`); `soffice`,
    /// `convert_timeout` (seconds), `cache_dir` and `no_cache` how templates are
    /// converted (`--soffice`, `--convert-timeout`, `--cache-dir`, `--no-cache`).
    #[new]
    #[pyo3(signature = (*, dpi, page_width, fields, apply_user_unit, dialects, timeout, max_file_size, data_fields=None, anchor_files=None, anchor=None, soffice=None, convert_timeout=None, cache_dir=None, no_cache=false))]
    #[allow(clippy::too_many_arguments)] // keyword-only, as the Python side passes them
    fn new(
        dpi: f64,
        page_width: Option<f64>,
        fields: bool,
        apply_user_unit: bool,
        dialects: &str,
        timeout: Option<f64>,
        max_file_size: Option<u64>,
        data_fields: Option<Vec<String>>,
        anchor_files: Option<Vec<(PathBuf, Vec<u8>)>>,
        anchor: Option<Vec<String>>,
        soffice: Option<PathBuf>,
        convert_timeout: Option<f64>,
        cache_dir: Option<PathBuf>,
        no_cache: bool,
    ) -> PyResult<Self> {
        let convert = convert_options(soffice, convert_timeout, cache_dir, no_cache)?;
        let dialects = dialect_list(dialects)?;
        let base = Scanner::new()
            .apply_user_unit(apply_user_unit)
            .fields(fields)
            .dialects(dialects);
        let mut scanner = scaled(base, dpi, page_width)?;
        if let Some(a) = anchor_file(anchor_files, anchor)? {
            scanner = scanner.anchors(a.anchors);
        }
        let mut load = LoadOptions::default();
        if let Some(t) = timeout {
            let t = Duration::try_from_secs_f64(t).map_err(|_| {
                PyValueError::new_err(format!("timeout must be seconds >= 0, not {t}"))
            })?;
            load.time_budget = (!t.is_zero()).then_some(t);
        }
        if let Some(bytes) = max_file_size {
            load.max_file_bytes = bytes;
        }
        let data_fields = data_fields
            .map(|rules| rules.iter().try_fold(TypeMap::new(), |map, r| map.rule(r)))
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("type_map: {e}")))?;
        Ok(Options {
            scanner,
            load,
            data_fields,
            convert,
        })
    }
}

/// How templates are converted: `soffice` (default: `$SIGNPREP_SOFFICE`, then
/// `PATH`), `timeout` in seconds (default 120), the cache folder (default:
/// the CLI's, `$XDG_CACHE_HOME/signprep/convert`; none with `no_cache`).
pub fn convert_options(
    soffice: Option<PathBuf>,
    timeout: Option<f64>,
    cache_dir: Option<PathBuf>,
    no_cache: bool,
) -> PyResult<ConvertOptions> {
    let timeout = match timeout {
        None => DEFAULT_TIMEOUT,
        Some(t) => Duration::try_from_secs_f64(t)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| {
                PyValueError::new_err(format!("convert_timeout must be seconds > 0, not {t}"))
            })?,
    };
    Ok(ConvertOptions {
        program: soffice,
        timeout,
        cache_dir: if no_cache {
            None
        } else {
            cache_dir.or_else(default_cache_dir)
        },
        ..ConvertOptions::default()
    })
}

/// DocuSign anchor files (path, bytes) and `STRING=TYPE[:SIGNER]` tabs, or
/// `None` when neither is given; a `ValueError` names what is wrong.
pub fn anchor_file(
    files: Option<Vec<(PathBuf, Vec<u8>)>>,
    args: Option<Vec<String>>,
) -> PyResult<Option<AnchorFile>> {
    let (files, args) = (files.unwrap_or_default(), args.unwrap_or_default());
    if files.is_empty() && args.is_empty() {
        return Ok(None);
    }
    let mut out = AnchorFile::new();
    for (path, bytes) in &files {
        out.add_file(path, bytes)
            .map_err(|e| PyValueError::new_err(format!("anchors: {e}")))?;
    }
    for a in &args {
        out.add_arg(a)
            .map_err(|e| PyValueError::new_err(format!("anchor: {e}")))?;
    }
    Ok(Some(out))
}

/// A scanner at `dpi`, or at `page_width` when given: a `ValueError` naming
/// the argument and its range (the core's: 1 to 10000 dpi, 1 to 100000 px,
/// which keep every coordinate finite) when the value is out of it.
pub fn scaled(scanner: Scanner, dpi: f64, page_width: Option<f64>) -> PyResult<Scanner> {
    let scanner = scanner
        .try_dpi(dpi)
        .map_err(|e| PyValueError::new_err(format!("dpi: {e}")))?;
    match page_width {
        Some(w) => scanner
            .try_page_width(w)
            .map_err(|e| PyValueError::new_err(format!("page_width: {e}"))),
        None => Ok(scanner),
    }
}

/// Scans one source on the calling thread (its pages in parallel), a panic
/// caught at the file boundary as the batch engine catches it: one record,
/// never an unwinding into Python.
pub fn record_of(source: &PdfSource, options: &Options) -> Record {
    catch_panic(|| scan_source(source, &options.load, &options.scanner, true))
        .unwrap_or_else(|panic| Record::from_result(source.name(), Err(Error::internal(panic))))
}

/// The record of the file at `path`, its `path` shown as `shown` (the path as
/// given, or the name the caller chose); a template by its extension.
fn record_of_path(path: PathBuf, shown: String, options: &Options) -> Record {
    if let Some(format) = Format::from_path(&path) {
        return crate::template::record_of_path(
            &path,
            shown,
            format,
            &options.convert,
            &options.load,
            &options.scanner,
        );
    }
    let mut r = record_of(&PdfSource::Path(path), options);
    r.path = shown;
    r
}

/// The record of bytes called `shown`: a template when they are one
/// ([`Format::sniff`]), else a PDF.
fn record_of_bytes(data: &[u8], shown: String, options: &Options) -> Record {
    match Format::sniff(data) {
        Some(format) => crate::template::record_of_bytes(
            shown,
            data,
            format,
            &options.convert,
            &options.load,
            &options.scanner,
        ),
        None => record_of(&PdfSource::bytes(shown, data), options),
    }
}

/// A record as a Python dict: the content of its `scan --format ndjson` line
/// (with its `data_fields` when the options ask for them). Converted value by
/// value (pythonize) with the GIL held: measured 1.7-3x faster than
/// serialising to JSON on the worker and parsing it with `json.loads`.
pub fn to_python<'py>(
    py: Python<'py>,
    r: &Record,
    options: &Options,
) -> PyResult<Bound<'py, PyAny>> {
    ScanRecord::with(r, options.data_fields.as_ref(), |record| {
        Ok(pythonize::pythonize(py, record)?)
    })
}

/// `scan_path(path, shown, options)`: the record of one file (an error record
/// when it cannot be scanned; the Python side raises).
#[pyfunction]
pub fn scan_path<'py>(
    py: Python<'py>,
    path: PathBuf,
    shown: String,
    options: &Options,
) -> PyResult<Bound<'py, PyAny>> {
    let r = py.detach(|| record_of_path(path, shown, options));
    to_python(py, &r, options)
}

/// `scan_bytes(data, shown, options)`: the record of a PDF (or template) in memory.
#[pyfunction]
pub fn scan_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    shown: String,
    options: &Options,
) -> PyResult<Bound<'py, PyAny>> {
    let r = py.detach(|| record_of_bytes(data, shown, options));
    to_python(py, &r, options)
}

/// `_scan_timed(path, shown, options)`: `(start, end, record)`, the wall-clock
/// nanoseconds at which the scan began and ended with the GIL released. For
/// the test that two threads' scans overlap in time (the GIL is released).
#[pyfunction]
#[pyo3(name = "_scan_timed")]
pub fn scan_timed<'py>(
    py: Python<'py>,
    path: PathBuf,
    shown: String,
    options: &Options,
) -> PyResult<(u128, u128, Bound<'py, PyAny>)> {
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    };
    let (start, r, end) = py.detach(|| {
        let start = now();
        let r = record_of_path(path, shown, options);
        (start, r, now())
    });
    Ok((start, end, to_python(py, &r, options)?))
}

/// A `dialects` list (the core's one parser, as `--dialect`); `docusign` is
/// refused with the arguments DocuSign's tabs are given with.
pub(crate) fn dialect_list(list: &str) -> PyResult<Dialects> {
    Dialects::parse(list).map_err(|e| {
        PyValueError::new_err(match e {
            DialectError::Docusign => "DocuSign has no text-tag grammar: give its tabs with anchors=FILE (an envelope definition or template) or anchor=[\"STRING=TYPE[:SIGNER]\"]".to_string(),
            e => e.to_string(),
        })
    })
}
