//! `migrate`: a PDF tagged for another vendor → the v0 request that places its
//! fields for this service (`signprep migrate`; the conversion is
//! `signprep_pack::Migrator`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use signprep_core::batch::catch_panic;
use signprep_core::{LoadOptions, Scanner};
use signprep_pack::{Migrator, SignerMap};
use std::path::PathBuf;

/// How to migrate: checked once, as `signprep migrate`'s options.
#[pyclass(frozen, skip_from_py_object, module = "signprep._native")]
#[derive(Clone, Debug)]
pub struct MigrateOptions {
    migrator: Migrator,
}

#[pymethods]
impl MigrateOptions {
    /// `signers` are `KEY=EMAIL` entries (`--signer`), `signers_file` a
    /// manifest's path and bytes (`--signers`), `map_type` `KIND=TYPE` rules
    /// (`--map-type`; `none` leaves the kind out); `anchor_files` and `anchor`
    /// DocuSign anchor tabs (`--anchors`, `--anchor`), whose recipients are
    /// signers; the rest as `scan`.
    #[new]
    #[pyo3(signature = (*, signers, signers_file, dialects, map_type, template, dpi, page_width, apply_user_unit, anchor_files=None, anchor=None))]
    #[allow(clippy::too_many_arguments)] // keyword-only, as the Python side passes them
    fn new(
        signers: Vec<String>,
        signers_file: Option<(PathBuf, Vec<u8>)>,
        dialects: &str,
        map_type: Vec<String>,
        template: bool,
        dpi: f64,
        page_width: Option<f64>,
        apply_user_unit: bool,
        anchor_files: Option<Vec<(PathBuf, Vec<u8>)>>,
        anchor: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let mut map = SignerMap::new();
        if let Some((path, bytes)) = signers_file {
            map.add_file(&path, &bytes)
                .map_err(|e| PyValueError::new_err(format!("signers_file: {e}")))?;
        }
        for s in &signers {
            map.add_arg(s)
                .map_err(|e| PyValueError::new_err(format!("signers: {e}")))?;
        }
        let dialects = crate::scan::dialect_list(dialects)?;
        let base = Scanner::new()
            .fields(false)
            .apply_user_unit(apply_user_unit)
            .dialects(dialects);
        let scanner = crate::scan::scaled(base, dpi, page_width)?;
        let mut migrator = Migrator::new(map)
            .surface(signprep_pack::Surface::Python)
            .scanner(scanner)
            .load_options(LoadOptions::default())
            .template(template);
        for rule in &map_type {
            migrator = migrator
                .map_type_rule(rule)
                .map_err(|e| PyValueError::new_err(format!("map_type: {e}")))?;
        }
        if let Some(a) = crate::scan::anchor_file(anchor_files, anchor)? {
            migrator = migrator.anchors(a);
        }
        Ok(MigrateOptions { migrator })
    }
}

/// `migrate_bytes(data, upload, name, options)`: `{"request", "findings",
/// "summary"}` for one PDF; `request` is `None` when an error-level finding
/// stops it. `upload` is the path written as the PDF to upload (`None` for
/// bytes; written absolute), `name` the document's name.
#[pyfunction]
pub fn migrate_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    upload: Option<String>,
    name: String,
    options: &MigrateOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let mut migrated = py
        .detach(|| catch_panic(|| options.migrator.migrate_pdf(data, upload.as_deref(), &name)))
        .map_err(|_| {
            PyValueError::new_err("internal_error: signprep failed on this input; please report it")
        })?;
    // The plan is returned, not written: its upload is absolute, as on
    // `signprep migrate`'s standard output.
    if let Some(plan) = &mut migrated.plan {
        plan.place_uploads(None);
    }
    let out = PyDict::new(py);
    out.set_item("request", pythonize::pythonize(py, &migrated.plan)?)?;
    out.set_item("findings", pythonize::pythonize(py, &migrated.findings)?)?;
    let s = &migrated.summary;
    let summary = PyDict::new(py);
    summary.set_item("tags", s.tags)?;
    summary.set_item("placed", s.placed)?;
    summary.set_item("left_out", s.left_out)?;
    summary.set_item("signers", s.signers)?;
    summary.set_item("signers_without_email", s.signers_without_email)?;
    out.set_item("summary", summary)?;
    Ok(out)
}
