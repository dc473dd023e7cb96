//! `signprep._native`: the Rust side of the `signprep` Python package.
//!
//! Every function here takes plain arguments (paths, bytes, numbers) and returns
//! plain Python objects (dicts, lists, strings, numbers) made from the serde
//! serialisation of the library's own types, so a record is the same content
//! as one `signprep scan --format ndjson` line. Argument handling, the
//! exception classes and the documentation a Python user reads are in
//! `python/signprep/__init__.py`. The GIL is released while a PDF is read.
//!
//! # Features
//! * `scan`, `scan_many` (the batch engine: parallel, records in input
//!   order, an error record per bad file), `check`, `pack`, `migrate`,
//!   `explain`, `codes`: the CLI's commands, as Python values.
//! * `scan`, `scan_many`, `check`, `pack` (a manifest's template children)
//!   and `migrate` take Word and OpenDocument templates (`.docx`, `.odt`: by
//!   a path's extension, or by the bytes), converted by LibreOffice as the
//!   CLI converts them (`template`; `migrate` returns the PDF its request
//!   uploads).
//! * One exception class per file error code (`signprep.PdfEncrypted`, ...),
//!   each carrying the stable code; typed stubs (`_native.pyi`, `py.typed`).
//!
//! # Limitations
//! * abi3 wheels for CPython >= 3.9; no page previews (`signprep preview`
//!   is the CLI's).
//!
//! # Example
//! What `examples/readme.py` runs (CI runs every example):
//! ```python
//! import signprep
//! record = signprep.scan("testdata/fixtures/base14_courier.pdf")
//! for tag in record["tags"]:
//!     print(tag["tag_id"], "page", tag["page"], "at", tag["x"], tag["y"])
//! ```

mod batch;
mod check;
mod migrate;
mod scan;
mod template;

use pyo3::prelude::*;

/// jemalloc on Linux, as the CLI: the workers allocate in many small pieces (a key per
/// dictionary entry of every object parsed), where glibc's malloc costs 3-4% more CPU
/// (issue 36). Only Rust's allocations go through it; Python's own stay with its allocator.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<scan::Options>()?;
    m.add_class::<batch::Batch>()?;
    m.add_class::<migrate::MigrateOptions>()?;
    m.add_function(wrap_pyfunction!(scan::scan_path, m)?)?;
    m.add_function(wrap_pyfunction!(scan::scan_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(scan::scan_timed, m)?)?;
    m.add_function(wrap_pyfunction!(check::check_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(check::pack_manifest, m)?)?;
    m.add_function(wrap_pyfunction!(check::explain, m)?)?;
    m.add_function(wrap_pyfunction!(migrate::migrate_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(check::codes, m)?)?;
    m.add_function(wrap_pyfunction!(template::release_converters, m)?)?;
    m.add_function(wrap_pyfunction!(batch::prepare_templates, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The most worker threads a run may have, for `scan_many(jobs=)`'s check.
    m.add("MAX_JOBS", signprep_core::batch::MAX_JOBS)?;
    Ok(())
}
