//! Templates (`.docx`, `.odt`): converted by LibreOffice and scanned through
//! `signprep_template::scan_template`, the one way every front end scans one,
//! so a record is the CLI's for the same file. LibreOffice is looked for when
//! the first template of a call needs it; a converter (its program, version,
//! private profiles) is kept for the process and shared by every call with the
//! same options, and released when the addon is unloaded
//! (`release_converters`, from the environment's cleanup hook).

use crate::scan::{Options, ScanOptions};
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Task};
use napi_derive::napi;
use signprep_core::batch::catch_panic;
use signprep_core::{Error, ErrorInfo, FileErrorCode, LoadOptions, Record, Scanner};
use signprep_template::convert::{
    ConvertError, ConvertOptions, INSTALL_HINT, LazyConverter, release_shared, shared,
};
use signprep_template::{Format, Scanned, scan_template};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The converter for `options`, made on first use; why not, in our words (with
/// the install hint and the argument that names the program when LibreOffice
/// was not found). A failure is not kept: a later call looks again.
pub fn converter(options: &ConvertOptions) -> Result<Arc<LazyConverter>, String> {
    shared(options).map_err(|e| match &e {
        ConvertError::NotInstalled { .. } => format!("{e}, or pass `soffice: PATH`"),
        // A program named that is not there: LibreOffice is missing all the same.
        ConvertError::NotRunnable { source, .. }
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            format!("{e}: {INSTALL_HINT}, or pass `soffice: PATH` naming its `soffice` program")
        }
        _ => e.to_string(),
    })
}

/// A template's format with how it is to be converted (`soffice`,
/// `convertTimeout`, `cacheDir`, `noCache`, as the calls take them); `None`
/// for a PDF, which needs no converter.
pub fn conversion(
    format: Option<Format>,
    soffice: Option<String>,
    convert_timeout: Option<f64>,
    cache_dir: Option<String>,
    no_cache: Option<bool>,
) -> napi::Result<Option<(Format, ConvertOptions)>> {
    format
        .map(|f| {
            let convert =
                crate::scan::convert_options(soffice, convert_timeout, cache_dir, no_cache)?;
            Ok((f, convert))
        })
        .transpose()
}

/// Drops the converters kept (their scratch folders and profiles are removed
/// with them). Called when the addon's environment is torn down.
pub fn release_converters() {
    release_shared();
}

/// A template's scan (record and PDF), `name` its record's `path`; the
/// `convert_failed` record when LibreOffice cannot be had; a panic caught as
/// the batch engine catches it.
pub fn scanned(
    name: String,
    bytes: &[u8],
    format: Format,
    convert: &ConvertOptions,
    load: &LoadOptions,
    scanner: &Scanner,
) -> Scanned {
    let failed = |code, why: String| Scanned {
        record: Record::failed(name.clone(), ErrorInfo::new(code, why)),
        pdf: None,
    };
    let lazy = match converter(convert) {
        Ok(c) => c,
        Err(why) => return failed(FileErrorCode::ConvertFailed, why),
    };
    let c = match lazy.get() {
        Ok(c) => c,
        Err(e) => return failed(FileErrorCode::ConvertFailed, e.to_string()),
    };
    catch_panic(|| scan_template(name.clone(), bytes, format, c, load, scanner)).unwrap_or_else(
        |panic| Scanned {
            record: Record::from_result(name.clone(), Err(Error::internal(panic))),
            pdf: None,
        },
    )
}

/// A template's scan record, from its bytes.
pub fn record_of_bytes(
    name: String,
    bytes: &[u8],
    format: Format,
    convert: &ConvertOptions,
    load: &LoadOptions,
    scanner: &Scanner,
) -> Record {
    scanned(name, bytes, format, convert, load, scanner).record
}

/// A template's scan record, from its file (`io_error` when it cannot be read).
pub fn record_of_path(
    path: &Path,
    shown: String,
    format: Format,
    convert: &ConvertOptions,
    load: &LoadOptions,
    scanner: &Scanner,
) -> Record {
    match std::fs::read(path) {
        Ok(bytes) => record_of_bytes(shown, &bytes, format, convert, load, scanner),
        Err(e) => Record::failed(
            shown,
            ErrorInfo::new(FileErrorCode::IoError, format!("cannot read it: {e}")),
        ),
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
        let Ok(lazy) = converter(&self.convert) else {
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
