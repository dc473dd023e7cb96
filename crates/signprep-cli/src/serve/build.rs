//! The routes that take a manifest or a signer map with the PDFs it names:
//! `POST /v1/check` with a form, `POST /v1/pack`, `POST /v1/migrate`. The
//! PDFs are matched to the manifest's `path`s by their file names, in memory
//! ([`signprep_pack::Checker::check_manifest_given`]): the same check and
//! build as `signprep check` and `signprep pack` on the files. A `.docx` or
//! `.odt` part the manifest names is converted by the server's LibreOffice
//! (the checker's converter, `serve --soffice`) and packed as the PDF it
//! becomes; without LibreOffice it is that child's `convert_failed` finding.
//! `/v1/migrate` refuses templates (415): its plan would upload a PDF the
//! answer cannot carry.

use super::App;
use super::api::{ApiCode, ApiError, json_response, media_type};
use super::engine::{Failed, Permit};
use super::form::{self, FORM, Form};
use super::query::{Pairs, bad, check_status, engine_failed, flag, pairs, positive};
use crate::args::CheckFormat;
use crate::batch::summary::{Command, Summary};
use crate::check::record::Record as CheckRecord;
use crate::check::write::Writer;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use signprep_core::{Dialects, Scanner};
use signprep_pack::{Checked, IdGenerator, InputKind, Migrator, RandomIds, SeededIds, SignerMap};
use std::sync::Arc;

/// `check --format json|sarif`'s output of one record, with `status`.
pub fn check_output(
    record: &CheckRecord,
    format: CheckFormat,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let mut summary = Summary::new(Command::Check {
        deny_warnings: false,
    });
    summary.file(&record.tally());
    let mut out = Vec::new();
    {
        let mut w = Writer::new(format, &mut out);
        w.record(record)
            .and_then(|()| w.finish(&summary))
            .map_err(|e| {
                ApiError::new(
                    ApiCode::InternalError,
                    format!("cannot write the output: {e}"),
                )
            })?;
    }
    let mut response = json_response(status, out);
    if format == CheckFormat::Sarif {
        response.headers_mut().insert(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/sarif+json"),
        );
    }
    Ok(response)
}

/// A record for work that gave no result (a panic, the watchdog).
pub(super) fn failed_record(f: Failed, name: String, app: &App) -> Result<CheckRecord, ApiError> {
    match f.into_error(app.options.time_budget) {
        Ok(e) => Ok(CheckRecord::from_error(name, &e)),
        Err(f) => Err(engine_failed(f)),
    }
}

fn status_of(record: &CheckRecord) -> StatusCode {
    check_status(record)
}

/// The manifest of a form, or 400.
fn manifest_of(form: &mut Form) -> Result<form::Part, ApiError> {
    form.manifest.take().ok_or_else(|| {
        ApiError::new(
            ApiCode::BadRequest,
            "the form has no `manifest` part (a pack manifest, TOML or JSON, with a `pdf` part for each PDF it names)",
        )
    })
}

/// Checks a form's manifest against its PDFs, on the engine: the record
/// (`name` names the manifest, else its file name) and the pack it builds
/// when no finding is an error.
async fn check_manifest(
    app: &Arc<App>,
    permit: &Permit,
    mut form: Form,
    name: Option<String>,
    ids: impl IdGenerator + 'static,
) -> Result<(CheckRecord, Option<signprep_pack::DocumentPack>), ApiError> {
    let manifest = manifest_of(&mut form)?;
    let label = name.unwrap_or(manifest.name);
    let (checker, options) = (Arc::clone(&app.checker), app.options.clone());
    let shown = label.clone();
    let outcome = app
        .engine
        .run_cancellable(permit, move |_, cancel| {
            let checker =
                signprep_pack::Checker::clone(&checker).load_options(options.cancel(cancel));
            signprep_core::batch::test_hook(&shown);
            let (checked, pack) =
                checker.check_manifest_given(&manifest.bytes, &shown, &form.pdfs, ids);
            (CheckRecord::checked(shown, checked), pack)
        })
        .await;
    match outcome {
        Ok(done) => Ok(done),
        Err(f) => Ok((failed_record(f, label, app)?, None)),
    }
}

/// `POST /v1/check` with `multipart/form-data`: a `manifest` part and a
/// `pdf` part for each PDF (or `.docx`, `.odt` template) it names; `check
/// --format json`'s output of the manifest (the findings of its PDFs
/// included), as `signprep check` gives it on the files.
pub async fn check_form(
    app: &Arc<App>,
    permit: &Permit,
    headers: &HeaderMap,
    bytes: Vec<u8>,
    format: CheckFormat,
    name: Option<String>,
) -> Result<Response, ApiError> {
    let content_type = content_type(headers);
    let form = form::read(&content_type, bytes, &["manifest", "pdf"]).await?;
    // As `check`: signer UUIDs from a fixed seed (the output names none).
    let (record, _) = check_manifest(app, permit, form, name, SeededIds::new(0)).await?;
    app.metrics.file(record.error.is_none(), 0);
    check_output(&record, format, status_of(&record))
}

fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// The form routes' media type and query, then [`super::engine::Engine::admit_body`].
async fn admit(
    app: &Arc<App>,
    headers: &HeaderMap,
    accepted: &[&str],
    query: Result<Vec<(String, String)>, ApiError>,
    body: Body,
) -> Result<(Vec<(String, String)>, Permit, Vec<u8>), ApiError> {
    let checked = super::api::require_media_type(headers, accepted).and(query);
    app.engine
        .admit_body(app.body, headers, body, checked)
        .await
}

/// `POST /v1/pack` (`multipart/form-data`: a `manifest` part and a `pdf`
/// part for each PDF or template it names): 200 and the v1 pack body `signprep pack`
/// writes (indented; `compact=true`: one line), the codes of its findings
/// (warnings, infos) in `x-findings`; 422 and `check --format json`'s output
/// of the manifest when a finding is an error (nothing built).
pub async fn pack(
    State(app): State<Arc<App>>,
    query: Pairs,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let (q, permit, bytes) = admit(
        &app,
        &headers,
        &[FORM],
        pairs(query, &["compact", "name"]),
        body,
    )
    .await?;
    let mut compact = false;
    let mut name = None;
    for (k, v) in &q {
        match k.as_str() {
            "compact" => compact = flag(k, v)?,
            "name" => name = Some(v.clone()),
            _ => {}
        }
    }
    let form = form::read(&content_type(&headers), bytes, &["manifest", "pdf"]).await?;
    // As `pack`: random signer UUIDs where the manifest gives none.
    let (record, pack) = check_manifest(&app, &permit, form, name, RandomIds).await?;
    app.metrics.file(pack.is_some(), 0);
    let Some(pack) = pack else {
        let status = match status_of(&record) {
            StatusCode::OK => StatusCode::UNPROCESSABLE_ENTITY,
            s => s,
        };
        return check_output(&record, CheckFormat::Json, status);
    };
    let mut out = if compact {
        serde_json::to_vec(&pack)
    } else {
        serde_json::to_vec_pretty(&pack)
    }
    .map_err(|e| {
        ApiError::new(
            ApiCode::InternalError,
            format!("cannot write the pack: {e}"),
        )
    })?;
    out.push(b'\n');
    let mut response = json_response(StatusCode::OK, out);
    if let Some(codes) = finding_codes(&record) {
        response.headers_mut().insert("x-findings", codes);
    }
    Ok(response)
}

/// The codes of a built pack's findings (none is an error: warnings, such
/// as `form_part_unused`, and infos), each once, in order, for
/// `x-findings`: the pack body has no place for them (`signprep pack`
/// prints them on stderr). The same form on `/v1/check` gives each in full.
fn finding_codes(record: &CheckRecord) -> Option<axum::http::HeaderValue> {
    let mut codes: Vec<&str> = Vec::new();
    for f in &record.findings {
        let code = f.finding.code.as_str();
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    if codes.is_empty() {
        return None;
    }
    axum::http::HeaderValue::from_str(&codes.join(", ")).ok()
}

/// `/v1/migrate`'s options, as `migrate`'s flags.
fn migrator(q: &[(String, String)], signers: SignerMap) -> Result<Migrator, ApiError> {
    let mut dialects = Dialects::all();
    let mut dpi = None;
    let mut page_width = None;
    let mut template = false;
    let mut rules = Vec::new();
    let mut signers = signers;
    for (k, v) in q {
        match k.as_str() {
            "dialect" => dialects = super::query::dialects(k, v)?,
            "dpi" => dpi = Some(positive(k, v)?),
            "page_width" => page_width = Some(positive(k, v)?),
            "template" => template = flag(k, v)?,
            "map_type" => rules.push(v.clone()),
            "signer" => signers.add_arg(v).map_err(|e| bad(k, e))?,
            _ => {}
        }
    }
    if dpi.is_some() && page_width.is_some() {
        return Err(bad("page_width", "give dpi or page_width, not both"));
    }
    let mut scanner = Scanner::new()
        .fields(false)
        .dpi(dpi.unwrap_or(72.0))
        .dialects(dialects);
    if let Some(w) = page_width {
        scanner = scanner.page_width(w);
    }
    let mut m = Migrator::new(signers)
        .surface(signprep_pack::Surface::Http)
        .scanner(scanner)
        .template(template);
    for r in &rules {
        m = m.map_type_rule(r).map_err(|e| bad("map_type", e))?;
    }
    Ok(m)
}

/// `POST /v1/migrate`: one PDF with other vendors' tags, as the body
/// (`application/pdf`) or as the `pdf` part of a form with an optional
/// `signers` part (a signer map, as `migrate --signers`); query: `dialect`
/// (default all), `signer` (KEY=EMAIL, repeatable), `map_type`, `template`,
/// `dpi`, `page_width`, `name`. 200 and the request plan `signprep migrate`
/// writes (its `upload` is the PDF's name); 422 and `check --format json`'s
/// output with every finding when one is an error (nothing migrated).
pub async fn migrate(
    State(app): State<Arc<App>>,
    query: Pairs,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    const KEYS: &[&str] = &[
        "dialect",
        "dpi",
        "page_width",
        "template",
        "map_type",
        "signer",
        "name",
    ];
    let accepted = &["application/pdf", "application/octet-stream", FORM];
    let (q, permit, bytes) = admit(&app, &headers, accepted, pairs(query, KEYS), body).await?;
    let named = q
        .iter()
        .rev()
        .find(|(k, _)| k == "name")
        .map(|(_, v)| v.clone());
    let (pdf_name, pdf, signers) = if media_type(&headers).as_deref() == Some(FORM) {
        let form = form::read(&content_type(&headers), bytes, &["signers", "pdf"]).await?;
        let mut map = SignerMap::new();
        if let Some(s) = &form.signers {
            map.add_file(std::path::Path::new(&s.name), &s.bytes)
                .map_err(|e| bad("signers", e))?;
        }
        let mut pdfs = form.pdfs.into_iter();
        let (Some((n, b)), None) = (pdfs.next(), pdfs.next()) else {
            return Err(ApiError::new(
                ApiCode::BadRequest,
                "the form needs exactly one `pdf` part: this route migrates one PDF a request",
            ));
        };
        (named.unwrap_or(n), b, map)
    } else {
        (
            named.unwrap_or_else(|| "document.pdf".into()),
            bytes,
            SignerMap::new(),
        )
    };
    if super::template::body_format(None, &pdf).is_some() {
        return Err(ApiError::new(
            ApiCode::UnsupportedMediaType,
            "this route migrates PDFs, and this body is a Word or OpenDocument template: its request would upload the PDF LibreOffice makes of it, which this answer cannot carry; send that PDF, or run `signprep migrate --out DIR` on the template",
        ));
    }
    let m = migrator(&q, signers)?;
    let options = app.options.clone();
    let shown = pdf_name.clone();
    let outcome = app
        .engine
        .run_cancellable(&permit, move |_, cancel| {
            let m = m.load_options(options.cancel(cancel));
            signprep_core::batch::test_hook(&shown);
            let stem = std::path::Path::new(&shown)
                .file_stem()
                .map_or_else(|| "document".into(), |s| s.to_string_lossy().into_owned());
            m.migrate_pdf(&pdf, Some(&shown), &stem)
        })
        .await;
    let migrated = match outcome {
        Ok(m) => m,
        Err(f) => {
            let record = failed_record(f, pdf_name, &app)?;
            return check_output(&record, CheckFormat::Json, status_of(&record));
        }
    };
    app.metrics.file(migrated.plan.is_some(), 0);
    match migrated.plan {
        Some(plan) => {
            let mut out = serde_json::to_vec_pretty(&plan).map_err(|e| {
                ApiError::new(
                    ApiCode::InternalError,
                    format!("cannot write the plan: {e}"),
                )
            })?;
            out.push(b'\n');
            Ok(json_response(StatusCode::OK, out))
        }
        None => {
            let record = CheckRecord::checked(
                pdf_name,
                Checked {
                    kind: Some(InputKind::Pdf),
                    findings: migrated.findings,
                    source: None,
                },
            );
            check_output(&record, CheckFormat::Json, StatusCode::UNPROCESSABLE_ENTITY)
        }
    }
}
