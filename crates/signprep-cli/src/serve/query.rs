//! What the routes share: reading the query string (`key=value` pairs, flags,
//! numbers) and turning a check record or an engine failure into an answer.
//! A leaf below `routes`, `build` and `preview`.

use super::api::{ApiCode, ApiError};
use super::engine::Failed;
use crate::check::record::Record as CheckRecord;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use signprep_core::{DialectError, Dialects, FileErrorCode};

/// The media types of a document body: a PDF's, and a template's (`.docx`,
/// `.odt`), converted to the PDF it becomes ([`super::template`]).
pub(super) const DOCUMENT_TYPES: &[&str] = &[
    "application/pdf",
    "application/octet-stream",
    super::template::DOCX,
    super::template::ODT,
];

pub(super) type Pairs = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The query's `key=value` pairs, each key one of `known`.
pub(super) fn pairs(query: Pairs, known: &[&str]) -> Result<Vec<(String, String)>, ApiError> {
    let Query(pairs) = query.map_err(|_| {
        ApiError::new(
            ApiCode::BadRequest,
            "the query string is not `key=value&...`",
        )
    })?;
    if let Some((k, _)) = pairs.iter().find(|(k, _)| !known.contains(&k.as_str())) {
        return Err(ApiError::new(
            ApiCode::BadRequest,
            format!(
                "unknown query parameter `{}` (this route takes {})",
                crate::text::clean(k),
                known.join(", ")
            ),
        ));
    }
    // As the command line refuses a repeated `--dpi`: which of two values
    // counts is not the client's guess to make.
    for (k, _) in &pairs {
        if REPEATABLE.contains(&k.as_str()) {
            continue;
        }
        let values: Vec<&str> = pairs
            .iter()
            .filter(|(other, _)| other == k)
            .map(|(_, v)| v.as_str())
            .collect();
        if values.len() > 1 {
            return Err(bad(
                k,
                format!(
                    "the query parameter is given {} times ({}); give it once",
                    values.len(),
                    values
                        .iter()
                        .map(|v| format!("`{}`", crate::text::clean(v)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(pairs)
}

/// The query parameters a route takes more than once, as their flags
/// (`--type-map`, `--signer`, `--map-type`); any other is refused when
/// repeated.
const REPEATABLE: &[&str] = &["type_map", "signer", "map_type"];

pub(super) fn bad(key: &str, why: impl std::fmt::Display) -> ApiError {
    ApiError::new(ApiCode::BadRequest, format!("`{key}`: {why}"))
}

pub(super) fn flag(key: &str, v: &str) -> Result<bool, ApiError> {
    match v {
        "true" | "1" | "yes" | "" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => Err(bad(
            key,
            format!("`{}` is not true or false", crate::text::clean(v)),
        )),
    }
}

/// A `dialect` list (the core's one parser, as `--dialect`); `docusign` is
/// refused with where its tabs can be given: this server takes no anchor
/// tabs, the command line does.
pub(super) fn dialects(key: &str, v: &str) -> Result<Dialects, ApiError> {
    Dialects::parse(v).map_err(|e| match e {
        DialectError::Docusign => bad(
            key,
            "DocuSign has no text-tag grammar, and this server takes no anchor tabs: give them to `signprep scan` or `signprep migrate` with --anchors FILE (an envelope definition or template)",
        ),
        e => bad(key, e),
    })
}

/// A number query value, range-checked as its flag is: `page_width` from 1
/// to 100000 px, `dpi` from 1 to 10000 (the core's ranges, which keep every
/// coordinate finite).
pub(super) fn positive(key: &str, v: &str) -> Result<f64, ApiError> {
    let v = crate::text::clean(v);
    match key {
        "page_width" => crate::args::values::page_width(&v),
        _ => crate::args::values::dpi(&v),
    }
    .map_err(|e| bad(key, e))
}

/// A check record's HTTP status: 200 checked (its findings say whether it
/// passes); 422 when it could not be checked, or was skipped as of no kind
/// `check` checks (`kind_unknown`: nothing was checked); 500 for
/// `internal_error` (a panic).
pub(super) fn check_status(record: &CheckRecord) -> StatusCode {
    match &record.error {
        None if record.is_skipped() => StatusCode::UNPROCESSABLE_ENTITY,
        None => StatusCode::OK,
        Some(e) if e.code == FileErrorCode::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
        Some(_) => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

pub(super) fn engine_failed(f: Failed) -> ApiError {
    match f {
        Failed::Engine(why) => ApiError::new(ApiCode::NotReady, why),
        Failed::Cancelled => ApiError::new(ApiCode::BodyUnreadable, "the client went away").gone(),
        Failed::Panicked(_) | Failed::Abandoned(_) => {
            ApiError::new(ApiCode::InternalError, "the work gave no result")
        }
    }
}
