//! Templates (`.docx`, `.odt`): converted by LibreOffice and scanned through
//! `signprep_template::scan_template`, the one way every front end scans one,
//! so a record is the CLI's for the same file. LibreOffice is looked for when
//! the first template of a call needs it; a converter (its program, version,
//! private profiles) is kept for the process and shared by every call with the
//! same options (scans, and the pack crate's checker and builder for a
//! manifest's template children: `lazy`), and released at exit
//! (`release_converters`, from `atexit`).

use pyo3::prelude::*;
use signprep_core::batch::catch_panic;
use signprep_core::{Error, ErrorInfo, FileErrorCode, LoadOptions, Record, Scanner};
use signprep_template::convert::{
    ConvertError, ConvertOptions, INSTALL_HINT, LazyConverter, release_shared, shared,
};
use signprep_template::{Format, Scanned, scan_template};
use std::path::Path;
use std::sync::Arc;

/// The converter for `options`, made on first use (as the pack crate takes
/// it: its `get` is `Ok`); why not, in our words (with the install hint and
/// the argument that names the program when LibreOffice was not found). A
/// failure is not kept: a later call looks again.
pub fn lazy(options: &ConvertOptions) -> Result<Arc<LazyConverter>, String> {
    shared(options).map_err(|e| in_our_words(&e))
}

/// Why LibreOffice cannot be had, naming the keyword argument that names it.
fn in_our_words(e: &ConvertError) -> String {
    match e {
        ConvertError::NotInstalled { .. } => format!("{e}, or pass soffice=PATH"),
        // A program named that is not there: LibreOffice is missing all the same.
        ConvertError::NotRunnable { source, .. }
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            format!("{e}: {INSTALL_HINT}, or pass soffice=PATH naming its `soffice` program")
        }
        _ => e.to_string(),
    }
}

/// `release_converters()`: drops the converters kept (their scratch folders
/// and profiles are removed with them). Called at exit.
#[pyfunction]
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
    let lazy = match lazy(convert) {
        Ok(c) => c,
        Err(why) => return failed(FileErrorCode::ConvertFailed, why),
    };
    let c = match lazy.get() {
        Ok(c) => c,
        Err(e) => return failed(FileErrorCode::ConvertFailed, in_our_words(e)),
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
