//! `POST /v1/scan` and `POST /v1/check`: a body in, the CLI's record out.

use super::App;
use super::api::{ApiCode, ApiError, json_response, require_media_type};
use super::query::{
    DOCUMENT_TYPES, Pairs, bad, check_status, engine_failed, flag, pairs, positive,
};
use crate::args::CheckFormat;
use crate::args::Format;
use crate::output::Render;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use signprep_core::batch::{PdfSource, scan_source};
use signprep_core::{Dialects, FileErrorCode, Record, Scanner, Status};
use signprep_pack::{InputKind, TypeMap};
use std::sync::Arc;

/// `/v1/scan`'s query parameters.
const SCAN_KEYS: &[&str] = &[
    "dpi",
    "page_width",
    "fields",
    "ignore_user_unit",
    "dialect",
    "data_fields",
    "type_map",
    "name",
];

/// `scan`'s options from the query, as its command-line flags.
struct ScanQuery {
    scanner: Scanner,
    fields: bool,
    type_map: Option<TypeMap>,
    name: String,
}

fn scan_query(pairs: &[(String, String)]) -> Result<ScanQuery, ApiError> {
    let mut dpi = None;
    let mut page_width = None;
    let mut fields = true;
    let mut user_unit = true;
    let mut dialects = Dialects::default();
    let mut data_fields = false;
    let mut rules = Vec::new();
    let mut name = "-".to_string();
    for (k, v) in pairs {
        match k.as_str() {
            "dpi" => dpi = Some(positive(k, v)?),
            "page_width" => page_width = Some(positive(k, v)?),
            "fields" => fields = flag(k, v)?,
            "ignore_user_unit" => user_unit = !flag(k, v)?,
            "dialect" => dialects = super::query::dialects(k, v)?,
            "data_fields" => data_fields = flag(k, v)?,
            "type_map" => rules.push(v.clone()),
            "name" => name = v.clone(),
            _ => {}
        }
    }
    if dpi.is_some() && page_width.is_some() {
        return Err(bad("page_width", "give dpi or page_width, not both"));
    }
    if !rules.is_empty() && !data_fields {
        return Err(bad("type_map", "needs data_fields=true"));
    }
    let mut scanner = Scanner::new()
        .dpi(dpi.unwrap_or(72.0))
        .apply_user_unit(user_unit)
        .fields(fields)
        .dialects(dialects);
    if let Some(w) = page_width {
        scanner = scanner.page_width(w);
    }
    let type_map = if data_fields {
        let mut m = TypeMap::new();
        for r in &rules {
            m.add(r).map_err(|e| bad("type_map", e))?;
        }
        Some(m)
    } else {
        None
    };
    Ok(ScanQuery {
        scanner,
        fields,
        type_map,
        name,
    })
}

/// `POST /v1/scan`: a PDF body, or a template (`.docx`, `.odt`: by its media
/// type, or sniffed when it is `application/octet-stream`); `scan --format
/// ndjson`'s record for it, 200 when it was scanned, 422 with its error record
/// when it could not be (unreadable, encrypted, over a limit, given up on by
/// the watchdog; a template not converted: `convert_failed`), 500 with its
/// `internal_error` record when the work panicked.
pub async fn scan(
    State(app): State<Arc<App>>,
    query: Pairs,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let checked = require_media_type(&headers, DOCUMENT_TYPES)
        .and_then(|_| pairs(query, SCAN_KEYS))
        .and_then(|pairs| scan_query(&pairs));
    let (q, permit, bytes) = app
        .engine
        .admit_body(app.body, &headers, body, checked)
        .await?;
    let options = app.options.clone();
    let name = q.name.clone();
    let render = Render::new(Format::Ndjson).fields_read(q.fields);
    let type_map = q.type_map;
    let rendered = move |r: &Record| {
        let data_fields = type_map
            .as_ref()
            .map(|m| signprep_pack::data_fields(&r.scan, m));
        render.record(r, data_fields.as_deref())
    };
    let scanner = q.scanner;
    let template =
        super::template::body_format(super::api::media_type(&headers).as_deref(), &bytes);
    let outcome = {
        let rendered = rendered.clone();
        let templates = Arc::clone(&app.templates);
        let name = name.clone();
        app.engine
            .run_cancellable(&permit, move |spread, cancel| {
                let options = options.cancel(cancel);
                let r = match template {
                    Some(format) => {
                        templates
                            .scanned(name, &bytes, format, &options, &scanner)
                            .record
                    }
                    None => scan_source(&PdfSource::bytes(name, bytes), &options, &scanner, spread),
                };
                (verdict(&r), r.scan.pages.len(), rendered(&r))
            })
            .await
    };
    let budget = app.options.time_budget;
    let (code, pages, bytes) = match outcome {
        Ok(done) => done,
        Err(f) => {
            let r = Record::from_result(name, Err(f.into_error(budget).map_err(engine_failed)?));
            (verdict(&r), 0, rendered(&r))
        }
    };
    let mut bytes = bytes.map_err(|e| {
        ApiError::new(
            ApiCode::InternalError,
            format!("cannot write the record: {e}"),
        )
    })?;
    bytes.push(b'\n');
    app.metrics.file(code == StatusCode::OK, pages);
    Ok(json_response(code, bytes))
}

/// A scan record's HTTP status: 200 scanned, 500 for `internal_error` (a
/// panic), 422 for any other error record.
fn verdict(r: &Record) -> StatusCode {
    match (&r.status, &r.error) {
        (Status::Ok, _) => StatusCode::OK,
        (_, Some(e)) if e.code == FileErrorCode::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// `/v1/check`'s format, name and kind, from its media type and query.
fn check_query(
    headers: &HeaderMap,
    query: Pairs,
) -> Result<(CheckFormat, String, Option<InputKind>), ApiError> {
    let media = require_media_type(
        headers,
        &[
            "application/pdf",
            "application/octet-stream",
            super::template::DOCX,
            super::template::ODT,
            "application/json",
            super::form::FORM,
        ],
    )?;
    let pairs = pairs(query, &["format", "name", "kind"])?;
    let mut format = CheckFormat::Json;
    let mut name = None;
    let mut kind = None;
    for (k, v) in &pairs {
        match k.as_str() {
            "format" => {
                format = match v.as_str() {
                    "json" => CheckFormat::Json,
                    "sarif" => CheckFormat::Sarif,
                    other => {
                        return Err(bad(
                            k,
                            format!("`{}` is not json or sarif", crate::text::clean(other)),
                        ));
                    }
                }
            }
            "name" => name = Some(v.clone()),
            "kind" => kind = Some(v.parse::<InputKind>().map_err(|e| bad(k, e))?),
            _ => {}
        }
    }
    if media != "application/json" && kind.is_none() {
        kind = Some(InputKind::Pdf);
    }
    Ok((format, name.unwrap_or_else(|| "-".into()), kind))
}

/// `POST /v1/check`: a PDF (`application/pdf`), a template (`.docx`, `.odt`:
/// by its media type, or sniffed from an `application/octet-stream` body;
/// checked as the PDF it becomes, as `check` checks it) or a request body
/// (`application/json`: a v1 pack, a v0 document, a populate body, a webhook
/// or a subscription); `check --format json`'s output for it (`?format=sarif`:
/// SARIF), 200 when it was checked (its findings say whether it passes),
/// 422 when it could not be (unknown kind, the watchdog), 500 on a panic.
/// A manifest or a request plan names files on disk: refused (422
/// `input_names_files`): the server reads bodies, never paths. A manifest
/// comes as a form with the PDFs it names ([`super::build::check_form`]).
pub async fn check(
    State(app): State<Arc<App>>,
    query: Pairs,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let ((format, name, kind), permit, bytes) = app
        .engine
        .admit_body(app.body, &headers, body, check_query(&headers, query))
        .await?;
    if super::api::media_type(&headers).as_deref() == Some(super::form::FORM) {
        let named = (name != "-").then_some(name);
        return super::build::check_form(&app, &permit, &headers, bytes, format, named).await;
    }
    let detected = kind.or_else(|| signprep_pack::detect(&bytes, std::path::Path::new(&name)));
    if let Some(k @ (InputKind::Manifest | InputKind::Requests)) = detected {
        return Err(ApiError::new(
            ApiCode::InputNamesFiles,
            format!(
                "this body is a {}, which names PDFs on disk; the server reads bodies, never paths: check its PDFs and the bodies it builds instead",
                k.as_str()
            ),
        ));
    }
    // A template, unless the query says the body is something else.
    let template =
        super::template::body_format(super::api::media_type(&headers).as_deref(), &bytes)
            .filter(|_| kind.is_none_or(|k| k == InputKind::Pdf));
    let (checker, options) = (Arc::clone(&app.checker), app.options.clone());
    let templates = Arc::clone(&app.templates);
    let shown = name.clone();
    let outcome = app
        .engine
        .run_cancellable(&permit, move |_, cancel| {
            let options = options.cancel(cancel);
            let checker = signprep_pack::Checker::clone(&checker).load_options(options.clone());
            let path = std::path::Path::new(&shown);
            match template {
                Some(format) => {
                    let scanned =
                        templates.scanned(shown.clone(), &bytes, format, &options, &Scanner::new());
                    crate::templates::check_scanned(&checker, path, scanned)
                }
                None => crate::check_cmd::check_bytes(&checker, path, &bytes, kind),
            }
        })
        .await;
    let record = match outcome {
        Ok(r) => r,
        Err(f) => super::build::failed_record(f, name, &app)?,
    };
    let status = check_status(&record);
    app.metrics
        .file(record.error.is_none() && !record.is_skipped(), 0);
    super::build::check_output(&record, format, status)
}
