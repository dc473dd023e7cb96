//! One file's scan record, from a path or from bytes, as the JSON text of its
//! `signprep scan --format ndjson` line.

use crate::engine::{CancelToken, Failed, failed_error, invalid, run_one, to_json};
use crate::template::convert_options;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use signprep_core::batch::{PdfSource, scan_source};
use signprep_core::{DialectError, Dialects, LoadOptions, Record, Scanner};
use signprep_pack::{AnchorFile, ScanRecord, TypeMap};
use signprep_template::Format;
use signprep_template::convert::ConvertOptions;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A file the JavaScript layer read for the call (an anchor file, a signers
/// manifest): its path, for messages and relative names, and its bytes.
#[napi(object)]
pub struct FileInput {
    /// The path as given.
    pub path: String,
    /// Its bytes.
    pub data: Uint8Array,
}

impl std::fmt::Debug for FileInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileInput")
            .field("path", &self.path)
            .field("bytes", &self.data.len())
            .finish()
    }
}

/// How to scan: `signprep scan`'s options.
#[napi(object)]
#[derive(Debug, Default)]
pub struct ScanOptions {
    /// Pixels per inch of the coordinates (default 72; 1 to 10000).
    pub dpi: Option<f64>,
    /// Scale every page to this width in pixels instead (1 to 100000).
    pub page_width: Option<f64>,
    /// Read AcroForm fields (default true; `--no-fields` is false).
    pub fields: Option<bool>,
    /// Apply a page's `/UserUnit` (default true; `--ignore-user-unit` is false).
    pub apply_user_unit: Option<bool>,
    /// Other vendors' text tags to read: `"adobe,dropbox"`, `"all"`, or none (default).
    pub dialects: Option<String>,
    /// Seconds one file may take (default 60; 0 for no limit).
    pub timeout: Option<f64>,
    /// Largest file read, in bytes.
    pub max_file_size: Option<f64>,
    /// `NAME_OR_GLOB=TYPE` rules: when given (an empty list for the default
    /// types), the record carries `data_fields` (`scan --data-fields --type-map`).
    pub type_rules: Option<Vec<String>>,
    /// DocuSign anchor files (`--anchors`), read by the caller.
    pub anchor_files: Option<Vec<FileInput>>,
    /// DocuSign quick tabs `STRING=TYPE[:SIGNER]` (`--anchor`).
    pub anchor: Option<Vec<String>>,
    /// LibreOffice's program for templates (default: `$SIGNPREP_SOFFICE`, then `PATH`).
    pub soffice: Option<String>,
    /// Seconds one template conversion may take (default 120).
    pub convert_timeout: Option<f64>,
    /// Where converted templates are kept (default: the CLI's cache folder).
    pub cache_dir: Option<String>,
    /// Keep no converted template (`--no-cache`).
    pub no_cache: Option<bool>,
}

/// [`ScanOptions`] checked: what every file of a call is scanned with.
#[derive(Clone, Debug)]
pub struct Options {
    pub scanner: Scanner,
    pub load: LoadOptions,
    /// With `type_rules`: the type map (`scan --data-fields --type-map`).
    pub data_fields: Option<TypeMap>,
    /// How templates (`.docx`, `.odt`) are converted.
    pub convert: ConvertOptions,
}

impl Options {
    /// The options checked; a `TypeError` naming the option that is wrong.
    pub fn new(o: ScanOptions) -> Result<Options> {
        let convert = convert_options(o.soffice, o.convert_timeout, o.cache_dir, o.no_cache)?;
        let dialects = dialect_list(o.dialects.as_deref().unwrap_or(""))?;
        let base = Scanner::new()
            .apply_user_unit(o.apply_user_unit.unwrap_or(true))
            .fields(o.fields.unwrap_or(true))
            .dialects(dialects);
        let mut scanner = scaled(base, o.dpi.unwrap_or(72.0), o.page_width)?;
        if let Some(a) = anchor_file(o.anchor_files, o.anchor)? {
            scanner = scanner.anchors(a.anchors);
        }
        let mut load = LoadOptions::default();
        let t = o.timeout.unwrap_or(60.0);
        let t = Duration::try_from_secs_f64(t)
            .map_err(|_| invalid(format!("timeout must be seconds >= 0, not {t}")))?;
        load.time_budget = (!t.is_zero()).then_some(t);
        if let Some(bytes) = o.max_file_size {
            if !(bytes >= 1.0 && bytes.fract() == 0.0 && bytes <= u64::MAX as f64) {
                return Err(invalid(format!(
                    "maxFileSize must be a whole number of bytes >= 1, not {bytes}"
                )));
            }
            load.max_file_bytes = bytes as u64;
        }
        let data_fields = o
            .type_rules
            .map(|rules| rules.iter().try_fold(TypeMap::new(), |map, r| map.rule(r)))
            .transpose()
            .map_err(|e| invalid(format!("typeMap: {e}")))?;
        Ok(Options {
            scanner,
            load,
            data_fields,
            convert,
        })
    }

    /// The options of a call whose `token` cancels it.
    pub fn with_cancel(&self, cancel: Option<signprep_core::Cancel>) -> Options {
        let mut o = self.clone();
        if let Some(c) = cancel {
            o.load = o.load.cancel(c);
        }
        o
    }
}

/// DocuSign anchor files and `STRING=TYPE[:SIGNER]` tabs, or `None` when
/// neither is given.
pub fn anchor_file(
    files: Option<Vec<FileInput>>,
    args: Option<Vec<String>>,
) -> Result<Option<AnchorFile>> {
    let (files, args) = (files.unwrap_or_default(), args.unwrap_or_default());
    if files.is_empty() && args.is_empty() {
        return Ok(None);
    }
    let mut out = AnchorFile::new();
    for f in &files {
        out.add_file(std::path::Path::new(&f.path), &f.data)
            .map_err(|e| invalid(format!("anchors: {e}")))?;
    }
    for a in &args {
        out.add_arg(a)
            .map_err(|e| invalid(format!("anchor: {e}")))?;
    }
    Ok(Some(out))
}

/// A scanner at `dpi`, or at `page_width` when given.
pub fn scaled(scanner: Scanner, dpi: f64, page_width: Option<f64>) -> Result<Scanner> {
    let scanner = scanner
        .try_dpi(dpi)
        .map_err(|e| invalid(format!("dpi: {e}")))?;
    match page_width {
        Some(w) => scanner
            .try_page_width(w)
            .map_err(|e| invalid(format!("pageWidth: {e}"))),
        None => Ok(scanner),
    }
}

/// A `dialects` list (the core's one parser, as `--dialect`); `docusign` is
/// refused with the options DocuSign's tabs are given with.
pub fn dialect_list(list: &str) -> Result<Dialects> {
    Dialects::parse(list).map_err(|e| {
        invalid(match e {
            DialectError::Docusign => "DocuSign has no text-tag grammar: give its tabs with `anchors: FILE` (an envelope definition or template) or `anchor: [\"STRING=TYPE[:SIGNER]\"]`".to_string(),
            e => e.to_string(),
        })
    })
}

/// A PDF or a template, by a path's extension or by the bytes.
#[derive(Debug)]
pub enum Input {
    Pdf(PdfSource),
    Template(PdfSource, Format),
}

impl Input {
    /// A path (shown as given) or bytes called `name`.
    pub fn of(source: PdfSource) -> Input {
        let format = match &source {
            PdfSource::Path(p) => Format::from_path(p),
            PdfSource::Bytes { bytes, .. } => Format::sniff(bytes),
        };
        match format {
            Some(f) => Input::Template(source, f),
            None => Input::Pdf(source),
        }
    }

    pub fn source(&self) -> &PdfSource {
        match self {
            Input::Pdf(s) | Input::Template(s, _) => s,
        }
    }

    /// Its record: a PDF's as `scan_source` makes it, a template's as
    /// `signprep_template::scan_template` does (the CLI's, both). A panic is
    /// left to the engine's boundary.
    pub fn record(&self, options: &Options, spread: bool) -> Record {
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

/// A record as the JSON text of its `scan --format ndjson` line (with its
/// `data_fields` when the options ask for them).
pub fn record_json(r: &Record, options: &Options) -> Result<String> {
    ScanRecord::with(r, options.data_fields.as_ref(), |record| to_json(record))
}

/// One scan on the engine: the record's JSON text.
#[derive(Debug)]
pub struct ScanTask {
    input: Option<Input>,
    /// The record's `path` for a file (the path as given, or the caller's name).
    shown: Option<String>,
    options: Options,
    token: Option<CancelToken>,
}

impl Task for ScanTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        let Some(input) = self.input.take() else {
            return Err(crate::engine::failure("internal_error", "scanned twice"));
        };
        let name = self.shown.take().unwrap_or_else(|| input.source().name());
        let options = self.options.clone();
        let work_name = name.clone();
        let run = run_one(self.token.as_ref(), move |spread, cancel| {
            let options = options.with_cancel(cancel);
            let mut r = input.record(&options, spread);
            r.path = work_name;
            (r, options)
        });
        let (record, options) = match run {
            Ok(done) => done,
            // A panic is the file's internal error record, as the batch engine makes it.
            Err(Failed::Panicked(m)) => (
                Record::from_result(name, Err(signprep_core::Error::internal(m))),
                self.options.clone(),
            ),
            Err(f) => return Err(failed_error(f)),
        };
        record_json(&record, &options)
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// `scanPath(path, name, options, token)`: the JSON record of one file (an
/// error record when it cannot be scanned; the JavaScript layer throws);
/// `name` is the record's `path` (default: the path as given).
#[napi(ts_return_type = "Promise<string>")]
pub fn scan_path(
    path: String,
    name: Option<String>,
    options: ScanOptions,
    token: Option<&CancelToken>,
) -> Result<AsyncTask<ScanTask>> {
    let options = Options::new(options)?;
    let path = PathBuf::from(path);
    let shown = name.unwrap_or_else(|| path.display().to_string());
    Ok(AsyncTask::new(ScanTask {
        input: Some(Input::of(PdfSource::Path(path))),
        shown: Some(shown),
        options,
        token: token.cloned(),
    }))
}

/// `scanBuffer(data, name, options, token)`: the JSON record of a PDF (or
/// template) in memory, called `name` (default `-`). The bytes are copied.
#[napi(ts_return_type = "Promise<string>")]
pub fn scan_buffer(
    data: Uint8Array,
    name: Option<String>,
    options: ScanOptions,
    token: Option<&CancelToken>,
) -> Result<AsyncTask<ScanTask>> {
    let options = Options::new(options)?;
    let bytes: Arc<[u8]> = Arc::from(&data[..]);
    let name = name.unwrap_or_else(|| "-".into());
    Ok(AsyncTask::new(ScanTask {
        input: Some(Input::of(PdfSource::bytes(name, bytes))),
        shown: None,
        options,
        token: token.cloned(),
    }))
}
