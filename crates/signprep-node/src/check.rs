//! `check`, `pack`, `explain` and `codes`: the pack crate's checker and
//! builder, and the documentation of every code.

use crate::engine::{CancelToken, Source, failed_error, failure, invalid, run_one, to_json};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde::Serialize;
use signprep_core::{Code, FileErrorCode, LoadOptions, Scanner};
use signprep_pack::{
    Checked, Checker, Finding, InputKind, PackCode, RandomIds, SeededIds, Surface, read_template,
};
use signprep_template::convert::ConvertOptions;
use signprep_template::{Format, Scanned};
use std::path::{Path, PathBuf};

/// How to check: `signprep check`'s options.
#[napi(object)]
#[derive(Debug, Default)]
pub struct CheckOptions {
    /// `pdf`, `pack`, `v0`, `populate`, `requests`, `webhook`, `subscription`
    /// or `manifest` (default: detected).
    pub kind: Option<String>,
    /// Largest request body, in bytes (default 10 MiB).
    pub max_payload: Option<f64>,
    /// Template documents (JSON text) that populate keys are checked against.
    pub templates: Option<Vec<String>>,
    /// `docx` or `odt` for a template file, `sniff` for bytes that may be one.
    pub template: Option<String>,
    /// LibreOffice's program for templates (as `scan`).
    pub soffice: Option<String>,
    /// Seconds one template conversion may take (default 120).
    pub convert_timeout: Option<f64>,
    /// Where converted templates are kept.
    pub cache_dir: Option<String>,
    /// Keep no converted template.
    pub no_cache: Option<bool>,
}

/// One checked input, as `signprep check --format ndjson` writes it (without
/// the `value` the CLI looks up for each finding's pointer); `error` for a
/// template that could not be converted (`convert_failed`; the JavaScript
/// layer throws).
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

/// A check on the engine.
#[derive(Debug)]
pub struct CheckTask {
    data: Option<Source>,
    path: PathBuf,
    kind: Option<InputKind>,
    checker: Option<Checker>,
    template: Option<(Format, ConvertOptions)>,
    token: Option<CancelToken>,
}

impl Task for CheckTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        let Some(data) = self.data.take() else {
            return Err(failure("internal_error", "checked twice"));
        };
        let data = data.read()?;
        let (path, kind, template) = (self.path.clone(), self.kind, self.template.take());
        let Some(checker) = self.checker.take() else {
            return Err(failure("internal_error", "checked twice"));
        };
        let checked = run_one(self.token.as_ref(), move |_, _| match template {
            None => Ok(checker.check_bytes(&data, &path, kind)),
            Some((format, convert)) => {
                let (load, scanner) = (LoadOptions::default(), Scanner::new());
                let shown = path.display().to_string();
                let scanned =
                    crate::template::scanned(shown, &data, format, &convert, &load, &scanner);
                check_template(&checker, &path, scanned)
            }
        })
        .map_err(failed_error)?;
        let (checked, error) = match checked {
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
        to_json(&CheckRecord {
            path: &self.path.display().to_string(),
            kind: checked.kind,
            findings: &checked.findings,
            error,
        })
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// A template's findings, as `signprep check` gives them (the CLI's
/// `templates::check_scanned`, kept in step with it, as the Python package's
/// is): the PDF it became checked by every rule of a PDF, led by the
/// template's own findings; a finding about a tag names its place.
fn check_template(
    checker: &Checker,
    path: &Path,
    scanned: Scanned,
) -> std::result::Result<Checked, Failure> {
    let (pdf, scan) = scanned.into_pdf().map_err(|e| Failure {
        code: FileErrorCode::ConvertFailed,
        message: e.message,
    })?;
    Ok(checker.check_converted(&pdf, &scan, path))
}

/// `checkInput(input, path, options, token)`: the JSON of the findings of one
/// input (a PDF, a template, a request body or a manifest: a file's path, or
/// its bytes); `path` places a manifest's relative paths and names the input.
/// The record's `kind` is `null` when it could not be told.
#[napi(ts_return_type = "Promise<string>")]
pub fn check_input(
    input: Either<String, Uint8Array>,
    path: String,
    options: CheckOptions,
    token: Option<&CancelToken>,
) -> Result<AsyncTask<CheckTask>> {
    let kind = match options.kind.as_deref() {
        None => None,
        Some(k) => Some(
            InputKind::ALL
                .iter()
                .copied()
                .find(|c| c.as_str() == k)
                .ok_or_else(|| {
                    let all: Vec<&str> = InputKind::ALL.iter().map(|c| c.as_str()).collect();
                    invalid(format!(
                        "unknown kind `{k}`: expected one of {}",
                        all.join(", ")
                    ))
                })?,
        ),
    };
    let max_payload = options.max_payload.unwrap_or(10.0 * 1024.0 * 1024.0);
    if !(max_payload >= 0.0 && max_payload.fract() == 0.0 && max_payload <= u64::MAX as f64) {
        return Err(invalid(format!(
            "maxPayload must be a whole number of bytes, not {max_payload}"
        )));
    }
    let mut checker = Checker::new()
        .surface(Surface::Node)
        .payload_limit(max_payload as u64);
    for (i, t) in options.templates.unwrap_or_default().iter().enumerate() {
        let doc = read_template(t).map_err(|e| invalid(format!("templates[{i}]: {e}")))?;
        checker = checker.template(doc);
    }
    let format = match options.template.as_deref() {
        Some("docx") => Some(Format::Docx),
        Some("odt") => Some(Format::Odt),
        Some("sniff") => match &input {
            Either::B(data) => Format::sniff(data),
            Either::A(_) => None,
        },
        _ => None,
    }
    .filter(|_| kind.is_none_or(|k| k == InputKind::Pdf));
    let template = crate::template::conversion(
        format,
        options.soffice,
        options.convert_timeout,
        options.cache_dir,
        options.no_cache,
    )?;
    Ok(AsyncTask::new(CheckTask {
        data: Some(Source::of(input)),
        path: PathBuf::from(path),
        kind,
        checker: Some(checker),
        template,
        token: token.cloned(),
    }))
}

/// A pack on the engine: `{"body", "findings"}` as JSON.
#[derive(Debug)]
pub struct PackTask {
    data: Option<Source>,
    path: PathBuf,
    seed: Option<u64>,
    token: Option<CancelToken>,
}

impl Task for PackTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        let Some(data) = self.data.take() else {
            return Err(failure("internal_error", "packed twice"));
        };
        let (data, path, seed) = (data.read()?, self.path.clone(), self.seed);
        let (checked, pack) = run_one(self.token.as_ref(), move |_, _| {
            let checker = Checker::new().surface(Surface::Node);
            match seed {
                Some(s) => checker.check_manifest(&data, &path, SeededIds::new(s)),
                None => checker.check_manifest(&data, &path, RandomIds),
            }
        })
        .map_err(failed_error)?;
        #[derive(Serialize)]
        struct Packed<'a, B> {
            body: B,
            findings: &'a [Finding],
        }
        to_json(&Packed {
            body: pack,
            findings: &checked.findings,
        })
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// `packManifest(input, path, seed, token)`: `{"body", "findings"}` as JSON
/// of a manifest (its file's path, or its bytes placed at `path`),
/// the v1 pack body (`null` when an error-level finding stops it) and every
/// finding of the manifest's check. `seed` (a whole number >= 0) makes the
/// signers' UUIDs reproducible.
#[napi(ts_return_type = "Promise<string>")]
pub fn pack_manifest(
    input: Either<String, Uint8Array>,
    path: String,
    seed: Option<f64>,
    token: Option<&CancelToken>,
) -> Result<AsyncTask<PackTask>> {
    let seed = match seed {
        None => None,
        Some(s) if s >= 0.0 && s.fract() == 0.0 && s <= 9_007_199_254_740_991.0 => Some(s as u64),
        Some(s) => {
            return Err(invalid(format!(
                "seed must be a whole number from 0 to 2^53 - 1, not {s}"
            )));
        }
    };
    Ok(AsyncTask::new(PackTask {
        data: Some(Source::of(input)),
        path: PathBuf::from(path),
        seed,
        token: token.cloned(),
    }))
}

/// What a code means.
#[napi(object)]
#[derive(Debug)]
pub struct Explained {
    /// The code, as records write it.
    pub code: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// What it means and why it matters (Markdown).
    pub doc: String,
}

/// `explain(code)`: what a code means, or `null` for an unknown code (case
/// and `-`/`_` do not matter).
#[napi]
pub fn explain(code: String) -> Option<Explained> {
    let name = code.trim().to_ascii_lowercase().replace('-', "_");
    let (name, severity, doc) = if let Some(c) = PackCode::from_name(&name) {
        (c.as_str(), c.severity().as_str(), c.doc())
    } else if let Some(c) = Code::from_name(&name) {
        (c.as_str(), c.severity().as_str(), c.doc())
    } else {
        let c = FileErrorCode::from_name(&name)?;
        (c.as_str(), c.severity().as_str(), c.doc())
    };
    let doc: Vec<&str> = doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    Some(Explained {
        code: name.to_string(),
        severity: severity.to_string(),
        doc: doc.join("\n").trim().to_string(),
    })
}

/// `codes()`: every documented code, pack and check rules, scan findings,
/// then the codes of error records.
#[napi]
pub fn codes() -> Vec<&'static str> {
    let pack = PackCode::ALL.iter().map(|c| c.as_str());
    let scan = Code::ALL.iter().map(|c| c.as_str());
    let file = FileErrorCode::ALL.iter().map(|c| c.as_str());
    pack.chain(scan).chain(file).collect()
}
