//! `check`, `pack` and `explain`: the pack crate's checker and builder, and
//! the documentation of every code.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;
use signprep_core::batch::catch_panic;
use signprep_core::{Code, FileErrorCode};
use signprep_pack::{Checker, Finding, InputKind, PackCode, RandomIds, SeededIds, read_template};
use std::path::PathBuf;

/// One checked input, as `signprep check --format ndjson` writes it (without
/// the `value` the CLI looks up for each finding's pointer).
#[derive(Serialize)]
struct CheckRecord<'a> {
    path: &'a str,
    kind: Option<InputKind>,
    findings: &'a [Finding],
}

/// `check_bytes(data, path, kind, max_payload, templates)`: the findings of
/// one input (a PDF, a request body or a manifest; `path` places a manifest's
/// relative paths and names the input). `kind` is `None` to detect it; the
/// record's `kind` is `None` when it could not be told.
#[pyfunction]
#[pyo3(signature = (data, path, kind, max_payload, templates))]
pub fn check_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    path: PathBuf,
    kind: Option<&str>,
    max_payload: u64,
    templates: Vec<String>,
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
    let checked = py.detach(|| catch_panic(|| checker.check_bytes(data, &path, kind)));
    let checked = checked.map_err(|_| internal())?;
    let shown = path.display().to_string();
    let record = CheckRecord {
        path: &shown,
        kind: checked.kind,
        findings: &checked.findings,
    };
    Ok(pythonize::pythonize(py, &record)?)
}

/// `pack_manifest(data, path, seed)`: `(body, findings)`, the v1 pack body
/// (`None` when an error-level finding stops it) and every finding of the
/// manifest's check. `seed` makes the signers' UUIDs reproducible.
#[pyfunction]
#[pyo3(signature = (data, path, seed))]
pub fn pack_manifest<'py>(
    py: Python<'py>,
    data: &[u8],
    path: PathBuf,
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let work = || {
        let checker = Checker::new().surface(signprep_pack::Surface::Python);
        match seed {
            Some(s) => checker.check_manifest(data, &path, SeededIds::new(s)),
            None => checker.check_manifest(data, &path, RandomIds),
        }
    };
    let (checked, pack) = py.detach(|| catch_panic(work)).map_err(|_| internal())?;
    let body = pythonize::pythonize(py, &pack)?;
    let findings = pythonize::pythonize(py, &checked.findings)?;
    Ok((body, findings))
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
