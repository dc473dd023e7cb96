//! Templates (`.docx`, `.odt`): converted by LibreOffice and scanned through
//! `signprep_template::scan_template`, the one way every front end scans one,
//! so a record is the CLI's for the same file. LibreOffice is looked for when
//! the first template of a call needs it; a converter (its program, version,
//! private profiles) is kept for the process and shared by every call with the
//! same options, and released when the addon is unloaded
//! (`release_converters`, from the environment's cleanup hook).

use crate::engine::invalid;
use signprep_core::batch::catch_panic;
use signprep_core::{Error, ErrorInfo, FileErrorCode, LoadOptions, Record, Scanner};
use signprep_template::convert::{
    ConvertError, ConvertOptions, DEFAULT_TIMEOUT, INSTALL_HINT, LazyConverter, default_cache_dir,
    release_shared, shared,
};
use signprep_template::{Format, Scanned, scan_template};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

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

/// How templates are converted: `soffice` (default: `$SIGNPREP_SOFFICE`, then
/// `PATH`), `timeout` in seconds (default 120), the cache folder (default:
/// the CLI's; none with `no_cache`).
pub fn convert_options(
    soffice: Option<String>,
    timeout: Option<f64>,
    cache_dir: Option<String>,
    no_cache: Option<bool>,
) -> napi::Result<ConvertOptions> {
    let timeout = match timeout {
        None => DEFAULT_TIMEOUT,
        Some(t) => Duration::try_from_secs_f64(t)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| invalid(format!("convertTimeout must be seconds > 0, not {t}")))?,
    };
    Ok(ConvertOptions {
        program: soffice.map(PathBuf::from),
        timeout,
        cache_dir: if no_cache.unwrap_or(false) {
            None
        } else {
            cache_dir.map(PathBuf::from).or_else(default_cache_dir)
        },
        ..ConvertOptions::default()
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
            let convert = convert_options(soffice, convert_timeout, cache_dir, no_cache)?;
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
            ErrorInfo::new(
                FileErrorCode::IoError,
                format!("cannot read it: {}", signprep_core::io_reason(&e)),
            ),
        ),
    }
}
