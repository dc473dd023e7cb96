//! `migrate`: a PDF tagged for another vendor → the v0 request that places its
//! fields for this service (`signprep migrate`; the conversion is
//! `signprep_pack::Migrator`). A template (`.docx`, `.odt`) is converted and
//! scanned as `signprep migrate` does it (the CLI's `migrate_template`): its
//! request uploads the PDF LibreOffice made, returned as `pdf`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use signprep_core::batch::catch_panic;
use signprep_core::{ErrorInfo, LoadOptions, Scanner};
use signprep_pack::{Migrated, Migrator, SignerMap};
use signprep_template::Format;
use signprep_template::convert::ConvertOptions;
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
    /// signers; `strip` a copy without the vendor tags' text to upload
    /// (`--strip`); the rest as `scan`.
    #[new]
    #[pyo3(signature = (*, signers, signers_file, dialects, map_type, template, dpi, page_width, apply_user_unit, anchor_files=None, anchor=None, strip=false))]
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
        strip: bool,
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
            .template(template)
            .strip(strip);
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

/// `migrate_bytes(data, upload, name, options, format, soffice,
/// convert_timeout, cache_dir, no_cache)`: `{"request", "findings",
/// "summary", "pdf"}` for one PDF or template; `request` is `None` when an
/// error-level finding stops it. `upload` is the path written as the PDF to
/// upload (`None` for bytes; written absolute), `name` the document's name.
/// `format` is `docx` or `odt` for a file of that extension, `sniff` for
/// bytes (a template when they are one): the template is converted (the
/// other arguments, as `scan`'s), scanned with the migration's scanner and
/// migrated as `signprep migrate` does; its request uploads the PDF made,
/// `pdf`. `pdf` is the bytes the request uploads when they are not the file
/// given (the converted template, or with `strip` the stripped copy; the
/// request then has no `upload`), else `None`. A template that cannot be
/// converted or read gives `{"error": {"code", "message"}}` alone.
#[pyfunction]
#[pyo3(signature = (data, upload, name, options, format=None, soffice=None, convert_timeout=None, cache_dir=None, no_cache=false))]
#[allow(clippy::too_many_arguments)] // keyword arguments, as the Python side passes them
pub fn migrate_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    upload: Option<String>,
    name: String,
    options: &MigrateOptions,
    format: Option<&str>,
    soffice: Option<PathBuf>,
    convert_timeout: Option<f64>,
    cache_dir: Option<PathBuf>,
    no_cache: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let format = match format {
        Some("docx") => Some(Format::Docx),
        Some("odt") => Some(Format::Odt),
        Some("sniff") => Format::sniff(data),
        _ => None,
    };
    let convert = match format {
        Some(f) => Some((
            f,
            crate::scan::convert_options(soffice, convert_timeout, cache_dir, no_cache)?,
        )),
        None => None,
    };
    let m = &options.migrator;
    let work = || match &convert {
        Some((format, convert)) => migrate_template(m, data, *format, convert, &name),
        None => Ok((m.migrate_pdf(data, upload.as_deref(), &name), None)),
    };
    let done = py.detach(|| catch_panic(work)).map_err(|_| {
        PyValueError::new_err("internal_error: signprep failed on this input; please report it")
    })?;
    let out = PyDict::new(py);
    let (mut migrated, converted) = match done {
        Ok(done) => done,
        Err(e) => {
            out.set_item("error", pythonize::pythonize(py, &e)?)?;
            return Ok(out);
        }
    };
    // The bytes to upload when they are not the file given: the stripped copy,
    // else the converted template.
    let pdf = migrated.stripped.take().or(converted);
    if let Some(plan) = &mut migrated.plan {
        // The plan is returned, not written: its upload is absolute, as on
        // `signprep migrate`'s standard output; none when it uploads `pdf`.
        plan.place_uploads(None);
        if pdf.is_some()
            && let Some(request) = plan.requests.first_mut()
        {
            request.upload = None;
        }
    }
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
    out.set_item("pdf", pdf.map(|p| pyo3::types::PyBytes::new(py, &p)))?;
    Ok(out)
}

/// A template migrated as `signprep migrate` migrates one (the CLI's
/// `migrate_template`, kept in step with it): converted, scanned with the
/// migration's scanner (so its findings carry their place in the template),
/// migrated from that scan; the PDF made returned beside it, as the request
/// uploads it. Why not, when it cannot be converted or its PDF read.
fn migrate_template(
    m: &Migrator,
    data: &[u8],
    format: Format,
    convert: &ConvertOptions,
    name: &str,
) -> Result<(Migrated, Option<Vec<u8>>), ErrorInfo> {
    let (scanner, load) = m.pdf_reader();
    let scanned = crate::template::scanned(name.to_string(), data, format, convert, load, scanner);
    let (pdf, scan) = scanned.into_pdf()?;
    let migrated = m.migrate_scanned(&pdf, &scan, None, name);
    Ok((migrated, Some(pdf)))
}
