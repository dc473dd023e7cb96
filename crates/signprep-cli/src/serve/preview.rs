//! `POST /v1/preview?page=N&dpi=D`: one page of a PDF body (a template's:
//! the PDF it becomes) drawn with its tags and fields, as `signprep preview` draws it (the same loading, scan
//! and [`crate::preview::paint::page_png`]), a PNG.

use super::App;
use super::api::{ApiCode, ApiError, json_response, require_media_type};
use super::query::{DOCUMENT_TYPES, Pairs, bad, engine_failed, pairs, positive};
use crate::args::Format;
use crate::output::Render;
use crate::preview::load::{Loaded, style};
use crate::preview::paint::page_png;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use signprep_core::{Document, Record, Scanner};
use signprep_render::PageRenderer;
use std::sync::Arc;

/// The largest `dpi` drawn: a letter page at 300 dpi is 2550 × 3300 px,
/// 34 MB of RGBA while it is drawn; more is the viewer's zoom.
pub const MAX_DPI: f64 = 300.0;

/// `/v1/preview`'s query: the 1-based page, the resolution, the name.
struct PreviewQuery {
    page: usize,
    dpi: f64,
    name: String,
}

fn preview_query(pairs: &[(String, String)]) -> Result<PreviewQuery, ApiError> {
    let mut q = PreviewQuery {
        page: 1,
        dpi: 96.0,
        name: "-".into(),
    };
    for (k, v) in pairs {
        match k.as_str() {
            "page" => {
                q.page = v.parse::<usize>().ok().filter(|p| *p >= 1).ok_or_else(|| {
                    bad(
                        k,
                        format!(
                            "`{}` is not a page number (1 is the first page)",
                            crate::text::clean(v)
                        ),
                    )
                })?;
            }
            "dpi" => {
                q.dpi = positive(k, v)?;
                if q.dpi > MAX_DPI {
                    return Err(bad(
                        k,
                        format!("{} is more than this route draws ({MAX_DPI} dpi)", q.dpi),
                    ));
                }
            }
            "name" => q.name = v.clone(),
            _ => {}
        }
    }
    Ok(q)
}

/// What the work gave.
enum Drawn {
    /// The page's PNG, and the document's page count.
    Png(Vec<u8>, usize),
    /// The file could not be scanned: its `scan --format ndjson` record.
    Unscanned(Box<Record>),
    /// The page asked for is past the end.
    NoSuchPage(usize),
    /// The page could not be drawn: why.
    Failed(String),
}

/// `POST /v1/preview?page=N&dpi=D`: a PDF body (or a template, drawn as the
/// PDF it becomes); 200 and the PNG of page `N`
/// (1-based, default 1) at `D` dpi (default 96, the scan's pixels: a box
/// lands where `scan --dpi D` puts it), with the document's page count in
/// `x-page-count`. 422 with the scan's error record when the file cannot be
/// scanned, 400 `page_out_of_range` past the last page, 422
/// `page_not_drawn` when the renderer cannot draw it.
pub async fn preview(
    State(app): State<Arc<App>>,
    query: Pairs,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let checked = require_media_type(&headers, DOCUMENT_TYPES)
        .and_then(|_| pairs(query, &["page", "dpi", "name"]))
        .and_then(|p| preview_query(&p));
    let (q, permit, bytes) = app
        .engine
        .admit_body(app.body, &headers, body, checked)
        .await?;
    let options = app.options.clone();
    let name = q.name.clone();
    let page = q.page;
    let scanner = Scanner::new().dpi(q.dpi);
    let template =
        super::template::body_format(super::api::media_type(&headers).as_deref(), &bytes);
    let templates = Arc::clone(&app.templates);
    let outcome = app
        .engine
        .run_cancellable(&permit, move |spread, cancel| {
            let options = options.parallel(spread).cancel(cancel);
            // A template is drawn as the PDF it becomes; one not converted
            // answers with its `convert_failed` record, as /v1/scan does.
            let bytes = match template {
                None => bytes,
                Some(format) => {
                    let scanned =
                        templates.scanned(name.clone(), &bytes, format, &options, &scanner);
                    match scanned.pdf {
                        Some(pdf) if scanned.record.error.is_none() => pdf,
                        _ => return Drawn::Unscanned(Box::new(scanned.record)),
                    }
                }
            };
            draw(bytes, &name, &options, &scanner, page)
        })
        .await;
    let budget = app.options.time_budget;
    let drawn = match outcome {
        Ok(d) => d,
        Err(f) => match f.into_error(budget) {
            Ok(e) => Drawn::Unscanned(Box::new(Record::from_result(q.name.clone(), Err(e)))),
            Err(f) => return Err(engine_failed(f)),
        },
    };
    match drawn {
        Drawn::Png(png, count) => {
            app.metrics.file(true, 1);
            let mut r = Response::new(Body::from(png));
            let h = r.headers_mut();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
            h.insert("x-page-count", HeaderValue::from(count));
            Ok(r)
        }
        Drawn::Unscanned(record) => {
            app.metrics.file(false, 0);
            let internal = record
                .error
                .as_ref()
                .is_some_and(|e| e.code == signprep_core::FileErrorCode::InternalError);
            let mut bytes = Render::new(Format::Ndjson)
                .record(&record, None)
                .map_err(|e| {
                    ApiError::new(
                        ApiCode::InternalError,
                        format!("cannot write the record: {e}"),
                    )
                })?;
            bytes.push(b'\n');
            let status = if internal {
                StatusCode::INTERNAL_SERVER_ERROR
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            Ok(json_response(status, bytes))
        }
        Drawn::NoSuchPage(count) => Err(ApiError::new(
            ApiCode::PageOutOfRange,
            match count {
                0 => format!(
                    "`page`: {}: the document has no page to draw",
                    crate::text::clean(&q.name)
                ),
                n => format!(
                    "`page`: page {} is past the end of {} (it has {})",
                    q.page,
                    crate::text::clean(&q.name),
                    crate::text::plural(n, "page")
                ),
            },
        )),
        Drawn::Failed(why) => Err(ApiError::new(
            ApiCode::PageNotDrawn,
            format!(
                "page {} of {} could not be drawn: {why}",
                q.page,
                crate::text::clean(&q.name)
            ),
        )),
    }
}

/// Loads, scans and draws one page (`page` 1-based), as `preview` does.
fn draw(
    bytes: Vec<u8>,
    name: &str,
    options: &signprep_core::LoadOptions,
    scanner: &Scanner,
    page: usize,
) -> Drawn {
    signprep_core::batch::test_hook_until(name, options.cancel.as_ref());
    let scanned = Document::from_bytes(&bytes, options)
        .and_then(|doc| scanner.scan(&doc).map(|scan| (doc, scan)));
    let (doc, scan) = match scanned {
        Ok(d) => d,
        Err(e) => return Drawn::Unscanned(Box::new(Record::from_result(name.to_string(), Err(e)))),
    };
    let count = doc.page_count();
    if page > count {
        return Drawn::NoSuchPage(count);
    }
    let pdf = match PageRenderer::new(bytes) {
        Ok(p) => p,
        Err(e) => return Drawn::Failed(e.to_string()),
    };
    let style = match style(&[], &[], true, true) {
        Ok(s) => s,
        Err(e) => return Drawn::Failed(e),
    };
    let loaded = Loaded {
        doc,
        pdf: Ok(pdf),
        scan,
    };
    match page_png(&loaded, page - 1, &style) {
        Ok(png) => Drawn::Png(png, count),
        Err(e) => Drawn::Failed(e),
    }
}
