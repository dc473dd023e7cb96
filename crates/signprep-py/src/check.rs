//! `check`, `pack` and `explain`: the pack crate's checker and builder (a
//! manifest's `.docx` and `.odt` children converted as the CLI converts
//! them), and the documentation of every code.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;
use signprep_core::batch::catch_panic;
use signprep_core::{Code, FileErrorCode, LoadOptions, Scanner};
use signprep_pack::{
    Checked, Checker, Finding, InputKind, Manifest, PackCode, RandomIds, SeededIds, read_template,
};
use signprep_template::convert::LazyConverter;
use signprep_template::{Format, Scanned};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One checked input, as `signprep check --format ndjson` writes it (without
/// the `value` the CLI looks up for each finding's pointer); `error` for a
/// template that could not be converted (`convert_failed`; the Python side
/// raises).
#[derive(Serialize)]
struct CheckRecord<'a> {
    path: &'a str,
    kind: Option<InputKind>,
    findings: &'a [Finding],
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Failure>,
}

/// Why a template has no check record.
#[derive(Serialize)]
struct Failure {
    code: FileErrorCode,
    message: String,
}

/// `check_bytes(data, path, kind, max_payload, templates, template, soffice,
/// convert_timeout, cache_dir, no_cache)`: the findings of one input (a PDF, a
/// request body or a manifest; `path` places a manifest's relative paths and
/// names the input). `kind` is `None` to detect it; the record's `kind` is
/// `None` when it could not be told. `template` is `docx` or `odt` for a file
/// of that extension, `sniff` for bytes (a template when they are one): a
/// template is converted as `scan` converts it and checked as the PDF it
/// becomes, as `signprep check` does.
#[pyfunction]
#[pyo3(signature = (data, path, kind, max_payload, templates, template=None, soffice=None, convert_timeout=None, cache_dir=None, no_cache=false))]
#[allow(clippy::too_many_arguments)] // keyword arguments, as the Python side passes them
pub fn check_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    path: PathBuf,
    kind: Option<&str>,
    max_payload: u64,
    templates: Vec<String>,
    template: Option<&str>,
    soffice: Option<PathBuf>,
    convert_timeout: Option<f64>,
    cache_dir: Option<PathBuf>,
    no_cache: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = match kind {
        None => None,
        Some(k) => Some(
            InputKind::ALL
                .iter()
                .copied()
                .find(|c| c.as_str() == k)
                .ok_or_else(|| {
                    let all: Vec<&str> = InputKind::ALL.iter().map(|c| c.as_str()).collect();
                    PyValueError::new_err(format!(
                        "unknown kind `{k}`: expected one of {}",
                        all.join(", ")
                    ))
                })?,
        ),
    };
    let mut checker = Checker::new()
        .surface(signprep_pack::Surface::Python)
        .payload_limit(max_payload);
    for (i, t) in templates.iter().enumerate() {
        let doc =
            read_template(t).map_err(|e| PyValueError::new_err(format!("templates[{i}]: {e}")))?;
        checker = checker.template(doc);
    }
    let format = match template {
        Some("docx") => Some(Format::Docx),
        Some("odt") => Some(Format::Odt),
        Some("sniff") => Format::sniff(data),
        _ => None,
    }
    .filter(|_| kind.is_none_or(|k| k == InputKind::Pdf));
    let shown = path.display().to_string();
    let checked = match format {
        None => py.detach(|| catch_panic(|| Ok(checker.check_bytes(data, &path, kind)))),
        Some(format) => {
            let convert =
                crate::scan::convert_options(soffice, convert_timeout, cache_dir, no_cache)?;
            py.detach(|| {
                let (load, scanner) = (LoadOptions::default(), Scanner::new());
                let scanned = crate::template::scanned(
                    shown.clone(),
                    data,
                    format,
                    &convert,
                    &load,
                    &scanner,
                );
                catch_panic(|| check_template(&checker, &path, scanned))
            })
        }
    };
    let (checked, error) = match checked.map_err(|_| internal())? {
        Ok(c) => (c, None),
        Err(failure) => (
            Checked {
                kind: Some(InputKind::Pdf),
                findings: Vec::new(),
                source: None,
            },
            Some(failure),
        ),
    };
    let record = CheckRecord {
        path: &shown,
        kind: checked.kind,
        findings: &checked.findings,
        error,
    };
    Ok(pythonize::pythonize(py, &record)?)
}

/// A template's findings, as `signprep check` gives them (the CLI's
/// `templates::check_scanned`, kept in step with it): the PDF it became
/// checked by every rule of a PDF, led by the template's own findings
/// (`template_*`); a finding about a tag names its place in the template.
fn check_template(checker: &Checker, path: &Path, scanned: Scanned) -> Result<Checked, Failure> {
    let (pdf, scan) = scanned.into_pdf().map_err(|e| Failure {
        code: FileErrorCode::ConvertFailed,
        message: e.message,
    })?;
    Ok(checker.check_converted(&pdf, &scan, path))
}

/// `pack_manifest(data, path, seed, soffice, convert_timeout, cache_dir,
/// no_cache)`: `(body, findings, convert_failed)`, the v1 pack body (`None`
/// when an error-level finding stops it) and every finding of the manifest's
/// check. `seed` makes the signers' UUIDs reproducible. `.docx` and `.odt`
/// children are converted by LibreOffice as `signprep pack` converts them
/// (the converter `scan` uses for the same options); a manifest naming one
/// where LibreOffice cannot be had builds nothing: `convert_failed` is then
/// why (the Python side raises `ConvertFailed`), as `signprep pack` stops.
#[pyfunction]
#[pyo3(signature = (data, path, seed, soffice=None, convert_timeout=None, cache_dir=None, no_cache=false))]
#[allow(clippy::too_many_arguments)] // keyword arguments, as the Python side passes them
#[allow(clippy::type_complexity)] // the tuple the Python side unpacks
pub fn pack_manifest<'py>(
    py: Python<'py>,
    data: &[u8],
    path: PathBuf,
    seed: Option<u64>,
    soffice: Option<PathBuf>,
    convert_timeout: Option<f64>,
    cache_dir: Option<PathBuf>,
    no_cache: bool,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Option<String>)> {
    let convert = crate::scan::convert_options(soffice, convert_timeout, cache_dir, no_cache)?;
    let work = || {
        // As `signprep pack`: LibreOffice looked for now when the manifest names a
        // template (a manifest that cannot be parsed is the check's to report),
        // else only when a template child comes.
        let converter = if Manifest::from_bytes(data, &path).is_ok_and(|m| m.names_templates()) {
            crate::template::lazy(&convert)?
        } else {
            Arc::new(LazyConverter::new(convert.clone()))
        };
        let checker = Checker::new()
            .surface(signprep_pack::Surface::Python)
            .converter(Some(converter));
        Ok(match seed {
            Some(s) => checker.check_manifest(data, &path, SeededIds::new(s)),
            None => checker.check_manifest(data, &path, RandomIds),
        })
    };
    let done: Result<_, String> = py.detach(|| catch_panic(work)).map_err(|_| internal())?;
    let (checked, pack) = match done {
        Ok(built) => built,
        Err(why) => {
            let none = py.None().into_bound(py);
            let findings = pyo3::types::PyList::empty(py).into_any();
            return Ok((none, findings, Some(why)));
        }
    };
    let body = pythonize::pythonize(py, &pack)?;
    let findings = pythonize::pythonize(py, &checked.findings)?;
    Ok((body, findings, None))
}

/// `explain(code)`: `{"code", "severity", "doc"}`, or `None` for an unknown code
/// (case and `-`/`_` do not matter).
#[pyfunction]
pub fn explain<'py>(py: Python<'py>, code: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
    let name = code.trim().to_ascii_lowercase().replace('-', "_");
    let found = if let Some(c) = PackCode::from_name(&name) {
        Some((c.as_str(), c.severity().as_str(), c.doc()))
    } else if let Some(c) = Code::from_name(&name) {
        Some((c.as_str(), c.severity().as_str(), c.doc()))
    } else {
        FileErrorCode::from_name(&name).map(|c| (c.as_str(), c.severity().as_str(), c.doc()))
    };
    let Some((name, severity, doc)) = found else {
        return Ok(None);
    };
    let doc: Vec<&str> = doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    let d = PyDict::new(py);
    d.set_item("code", name)?;
    d.set_item("severity", severity)?;
    d.set_item("doc", doc.join("\n").trim())?;
    Ok(Some(d))
}

/// `codes()`: every documented code, pack and check rules, scan findings,
/// then the codes of error records.
#[pyfunction]
pub fn codes() -> Vec<&'static str> {
    let pack = PackCode::ALL.iter().map(|c| c.as_str());
    let scan = Code::ALL.iter().map(|c| c.as_str());
    let file = FileErrorCode::ALL.iter().map(|c| c.as_str());
    pack.chain(scan).chain(file).collect()
}

fn internal() -> PyErr {
    PyValueError::new_err("internal_error: signprep failed on this input; please report it")
}
