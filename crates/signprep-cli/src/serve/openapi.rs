//! `GET /openapi.json`: the API described in OpenAPI 3.1. The paths are
//! written here (they are the router's, and a test asks every one of them);
//! every schema is generated: the scan record and the request bodies from
//! the types `signprep schema` publishes (`signprep_pack::SchemaName`, their
//! `$defs` lifted into `components/schemas`), `check`'s output from its
//! record and summary types (`check::record`, whose codes are the `codes!`
//! enums: every code listed; `batch::summary::CheckTotals`), the server's own answers from the types in
//! `api.rs`/`meta.rs` (schemars). A test validates real answers against them.

use super::api::{json_bytes, json_response};
use crate::batch::summary::CheckTotals;
use crate::check::record::Record as CheckRecord;
use axum::http::StatusCode;
use axum::response::Response;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value, json};
use signprep_core::{DPI_RANGE, PAGE_WIDTH_RANGE};
use signprep_pack::SchemaName;

/// `check --format json`'s output: `check::write::Writer` writes this
/// envelope by hand around the real record and summary types (whose
/// schemas are derived), so it is declared here; the serve tests validate
/// real answers against it.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[allow(dead_code)]
struct CheckOutput {
    /// One record: the input checked.
    files: Vec<CheckRecord>,
    /// Totals.
    summary: CheckTotals<'static>,
}

/// The document, built once per request (a few milliseconds).
pub fn document() -> Value {
    let mut generator = SchemaGenerator::new(
        SchemaSettings::draft2020_12()
            .for_serialize()
            .with(|s| s.definitions_path = "/components/schemas".into()),
    );
    let error = generator.subschema_for::<super::api::ErrorBody<'static>>();
    let check = generator.subschema_for::<CheckOutput>();
    let ready = generator.subschema_for::<super::meta::Ready>();
    let codes = generator.subschema_for::<super::meta::Codes>();
    let explained = generator.subschema_for::<super::meta::Explained<'static>>();
    let mut schemas = generator.take_definitions(true);
    let scan = lift(&mut schemas, "Scan", SchemaName::Scan.schema());
    let pack = lift(&mut schemas, "Pack", SchemaName::Pack.schema());
    let plan = lift(&mut schemas, "V0Plan", SchemaName::V0.schema());
    let body = json!({"anyOf": [pack, {"type": "object"}],
        "description": "a request body: a v1 pack (`Pack`), a v0 document, a populate body, a webhook event or a subscription"});
    let error = error.to_value();
    let problem = |what: &str| json!({"description": what, "content": {"application/json": {"schema": error}}});
    let binary = json!({"type": "string", "format": "binary"});
    let template_note = "a template (.docx, .odt): converted by the server's LibreOffice (`serve --soffice`) and read as the PDF it becomes; a server without LibreOffice answers 422 with the `convert_failed` record";
    let template_schema =
        json!({"type": "string", "format": "binary", "description": template_note});
    let pdf_body = json!({
        "required": true,
        "content": {
            "application/pdf": {"schema": binary},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary",
                "description": "a PDF, or a template (.docx, .odt) told by its bytes"}},
            (super::template::DOCX): {"schema": template_schema},
            (super::template::ODT): {"schema": template_schema}
        }
    });
    let scan_answer = |what: &str| json!({"description": what, "content": {"application/json": {"schema": scan}}});
    let refusals = |map: &mut Map<String, Value>| {
        for (status, what) in [
            (
                "400",
                "a bad query parameter, or one given twice (`bad_request`), or a body whose framing is broken (`body_unreadable`)",
            ),
            (
                "401",
                "`--token-file` is set and the bearer token is missing or wrong (`unauthorized`)",
            ),
            (
                "408",
                "no byte of the body came for `--body-timeout`, or the body came slower than `--body-min-rate` (`body_timeout`); the connection is closed",
            ),
            (
                "413",
                "the body is over `--max-body` (`body_too_large`); it was not kept (read on for at most 5 s and 64 MiB after the answer, then the connection is closed)",
            ),
            (
                "415",
                "the body's Content-Type is not one this route takes (`unsupported_media_type`)",
            ),
            (
                "503",
                "more requests than `--max-pending` (`busy`, with Retry-After), or stopping (`not_ready`)",
            ),
        ] {
            map.entry(status).or_insert_with(|| problem(what));
        }
    };
    let name_param = json!({"name": "name", "in": "query", "schema": {"type": "string"},
        "description": "What to call the input in the answer (its `path`); `-` without it"});
    let q = |name: &str, ty: Value, what: &str| json!({"name": name, "in": "query", "schema": ty, "description": what});
    let mut scan_responses = Map::new();
    scan_responses.insert(
        "200".into(),
        scan_answer("scanned: `scan --format ndjson`'s record, byte for byte"),
    );
    scan_responses.insert("422".into(), scan_answer("not scanned: the error record (unreadable, encrypted, over a limit, given up on by the watchdog; a template not converted, or sent to a server without LibreOffice: `convert_failed`)"));
    scan_responses.insert(
        "500".into(),
        scan_answer("the work panicked (a bug): the `internal_error` record; the server stays up"),
    );
    refusals(&mut scan_responses);
    let check = check.to_value();
    let check_answer = |what: &str| {
        json!({"description": what, "content": {
            "application/json": {"schema": check},
            "application/sarif+json": {"schema": {"type": "object", "description": "SARIF 2.1.0 (`?format=sarif`), as `check --format sarif`"}}
        }})
    };
    let mut check_responses = Map::new();
    check_responses.insert(
        "200".into(),
        check_answer(
            "checked: `check --format json`'s output; its findings say whether the input passes",
        ),
    );
    check_responses.insert("422".into(), check_answer("not checked (`kind_unknown`, the watchdog's `pdf_limit_exceeded`, a template not converted or sent to a server without LibreOffice: `convert_failed`); or a body that names files on disk (an error body, `input_names_files`)"));
    check_responses.insert(
        "500".into(),
        check_answer("the work panicked (a bug): an `internal_error` record"),
    );
    refusals(&mut check_responses);
    let mut preview_responses = Map::new();
    preview_responses.insert("200".into(), json!({"description": "the page drawn with its tags and fields, as `signprep preview` draws it",
        "headers": {"x-page-count": {"description": "the document's pages", "schema": {"type": "integer"}}},
        "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}}));
    preview_responses.insert("422".into(), json!({"description": "the file cannot be scanned (its scan error record; `convert_failed` for a template not converted), or the page cannot be drawn (`page_not_drawn`, an error body)",
        "content": {"application/json": {"schema": {"anyOf": [scan, error]}}}}));
    preview_responses.insert("400".into(), problem("`page` past the last page (`page_out_of_range`), or a bad query parameter (`bad_request`)"));
    refusals(&mut preview_responses);
    let manifest_form = json!({"type": "object", "required": ["manifest"], "properties": {
        "manifest": {"type": "string", "format": "binary", "description": "a pack manifest (TOML or JSON); its file name names it, its folder is where its paths start"},
        "pdf": {"type": "array", "items": {"type": "string", "format": "binary"}, "description": "each PDF the manifest names, its file name the manifest's path; a template (.docx, .odt) it names is converted by the server's LibreOffice (`serve --soffice`), else it is that child's `convert_failed` finding"}
    }});
    let mut pack_responses = Map::new();
    pack_responses.insert("200".into(), json!({"description": "the v1 pack body, as `signprep pack` writes it", "content": {"application/json": {"schema": pack}},
        "headers": {"x-findings": {"description": "the codes of the manifest's findings when there are some (warnings, infos; `form_part_unused`: a `pdf` part no path names), comma-separated; the same form on POST /v1/check gives each in full", "schema": {"type": "string"}}}}));
    pack_responses.insert(
        "422".into(),
        check_answer(
            "an error-level finding: nothing built; `check --format json`'s output of the manifest",
        ),
    );
    refusals(&mut pack_responses);
    let mut migrate_responses = Map::new();
    migrate_responses.insert("200".into(), json!({"description": "the request plan `signprep migrate` writes (its upload is the PDF's name)", "content": {"application/json": {"schema": plan}}}));
    migrate_responses.insert(
        "422".into(),
        check_answer("an error-level finding: nothing migrated; every finding"),
    );
    migrate_responses.insert("415".into(), problem("the body's Content-Type is not one this route takes, or the body (or its `pdf` part) is a template (.docx, .odt), which this route does not migrate: its request would upload a PDF the answer cannot carry (`unsupported_media_type`)"));
    refusals(&mut migrate_responses);
    let json_ok = |schema: &Value, what: &str| json!({"200": {"description": what, "content": {"application/json": {"schema": schema}}}});
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "signprep serve",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The pre-flight gate of the signprep command line over HTTP: the same records and findings, byte for byte. Every refusal is an error body in our words."
        },
        "paths": {
            "/v1/scan": {"post": {
                "summary": "Scan a PDF or a template (.docx, .odt): its tags, form fields and findings",
                "parameters": [
                    q("dpi", json!({"type": "number", "minimum": *DPI_RANGE.start(), "maximum": *DPI_RANGE.end()}), "output pixels per inch (72)"),
                    q("page_width", json!({"type": "number", "minimum": *PAGE_WIDTH_RANGE.start(), "maximum": *PAGE_WIDTH_RANGE.end()}), "scale each page to this width in pixels instead of dpi"),
                    q("fields", json!({"type": "boolean"}), "false: tags only"),
                    q("ignore_user_unit", json!({"type": "boolean"}), "lengths in user-space units"),
                    q("dialect", json!({"type": "string"}), "other vendors' tags too: a comma-separated list, or `all`"),
                    q("data_fields", json!({"type": "boolean"}), "add `data_fields`: the service's Data field objects"),
                    q("type_map", json!({"type": "string"}), "PATTERN=TYPE, repeatable (needs data_fields)"),
                    name_param
                ],
                "requestBody": pdf_body,
                "responses": scan_responses
            }},
            "/v1/check": {"post": {
                "summary": "Pre-flight a PDF, a template (.docx, .odt) or a request body",
                "parameters": [
                    q("format", json!({"enum": ["json", "sarif"]}), "the output format"),
                    q("kind", json!({"type": "string"}), "what the body is, when it cannot be told: pdf, pack, v0, populate, webhook, subscription"),
                    name_param
                ],
                "requestBody": {"required": true, "content": {
                    "application/pdf": {"schema": {"type": "string", "format": "binary"}},
                    "application/octet-stream": {"schema": {"type": "string", "format": "binary",
                        "description": "a PDF, or a template (.docx, .odt) told by its bytes"}},
                    (super::template::DOCX): {"schema": template_schema},
                    (super::template::ODT): {"schema": template_schema},
                    "application/json": {"schema": body},
                    "multipart/form-data": {"schema": manifest_form}
                }},
                "responses": check_responses
            }},
            "/v1/pack": {"post": {
                "summary": "Build the v1 pack body a manifest makes, with the PDFs it names",
                "parameters": [
                    q("compact", json!({"type": "boolean"}), "one line instead of indented JSON"),
                    name_param
                ],
                "requestBody": {"required": true, "content": {"multipart/form-data": {"schema": manifest_form}}},
                "responses": pack_responses
            }},
            "/v1/migrate": {"post": {
                "summary": "The request plan for a PDF with other vendors' tags",
                "parameters": [
                    q("dialect", json!({"type": "string"}), "the vendors to read (all)"),
                    q("signer", json!({"type": "string"}), "KEY=EMAIL, repeatable, as `migrate --signer`"),
                    q("map_type", json!({"type": "string"}), "KIND=TYPE, repeatable"),
                    q("template", json!({"type": "boolean"}), "document_type template"),
                    q("dpi", json!({"type": "number", "minimum": *DPI_RANGE.start(), "maximum": *DPI_RANGE.end()}), "as scan's"),
                    q("page_width", json!({"type": "number", "minimum": *PAGE_WIDTH_RANGE.start(), "maximum": *PAGE_WIDTH_RANGE.end()}), "as scan's"),
                    name_param
                ],
                "requestBody": {"required": true, "content": {
                    "application/pdf": {"schema": {"type": "string", "format": "binary"}},
                    "multipart/form-data": {"schema": {"type": "object", "required": ["pdf"], "properties": {
                        "pdf": {"type": "string", "format": "binary", "description": "the PDF (one); its file name is the plan's upload"},
                        "signers": {"type": "string", "format": "binary", "description": "a signer map, as `migrate --signers` reads it"}
                    }}}
                }},
                "responses": migrate_responses
            }},
            "/v1/preview": {"post": {
                "summary": "One page of a PDF (or of the PDF a template becomes) drawn with its tags and fields (PNG)",
                "parameters": [
                    q("page", json!({"type": "integer", "minimum": 1}), "1-based page (1)"),
                    q("dpi", json!({"type": "number", "exclusiveMinimum": 0, "maximum": super::preview::MAX_DPI}), "pixels per inch (96)"),
                    name_param
                ],
                "requestBody": pdf_body,
                "responses": preview_responses
            }},
            "/v1/codes": {"get": {"summary": "Every diagnostic code", "responses": json_ok(&codes.to_value(), "as `signprep explain --list`")}},
            "/v1/explain/{code}": {"get": {
                "summary": "A code's documentation",
                "parameters": [{"name": "code", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {
                    "200": {"description": "as `signprep explain CODE`", "content": {"application/json": {"schema": explained.to_value()}}},
                    "404": problem("no such code (`not_found`, with the closest one)")
                }
            }},
            "/healthz": {"get": {"summary": "Liveness", "responses": {"200": {"description": "the process answers"}}}},
            "/readyz": {"get": {"summary": "Readiness", "responses": {
                "200": {"description": "taking work", "content": {"application/json": {"schema": ready.to_value()}}},
                "503": problem("stopping, or every worker thread lost to stuck files (`not_ready`)")
            }}},
            "/metrics": {"get": {"summary": "Prometheus text", "responses": {"200": {"description": "requests, latency, files, pages, in flight", "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
            "/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1"}}}},
            "/": {"get": {"summary": "The page for people: drop PDFs, see them drawn and checked", "responses": {"200": {"description": "HTML", "content": {"text/html": {}}}}}}
        },
        "components": {"schemas": schemas}
    })
}

/// Moves a published schema's `$defs` into `schemas` (a name already there
/// with other content gets `prefix` in front) and points its `$ref`s at
/// them; stores its root as `components/schemas/{prefix}` and returns a
/// `$ref` to it.
fn lift(schemas: &mut Map<String, Value>, prefix: &str, mut schema: Value) -> Value {
    let defs = match schema.as_object_mut().and_then(|o| o.remove("$defs")) {
        Some(Value::Object(d)) => d,
        _ => Map::new(),
    };
    if let Some(o) = schema.as_object_mut() {
        o.remove("$schema");
    }
    let mut renamed = Map::new();
    for (name, def) in &defs {
        let taken = schemas.get(name).is_some_and(|d| d != def);
        let final_name = if taken {
            format!("{prefix}{name}")
        } else {
            name.clone()
        };
        renamed.insert(name.clone(), Value::String(final_name));
    }
    for (name, mut def) in defs {
        repoint(&mut def, &renamed);
        if let Some(Value::String(n)) = renamed.get(&name) {
            schemas.insert(n.clone(), def);
        }
    }
    repoint(&mut schema, &renamed);
    schemas.insert(prefix.to_string(), schema);
    json!({"$ref": format!("#/components/schemas/{prefix}")})
}

/// `#/$defs/NAME` → `#/components/schemas/RENAMED`, everywhere in `v`.
fn repoint(v: &mut Value, renamed: &Map<String, Value>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get_mut("$ref")
                && let Some(name) = r.strip_prefix("#/$defs/")
            {
                let to = renamed.get(name).and_then(Value::as_str).unwrap_or(name);
                *r = format!("#/components/schemas/{to}");
            }
            m.values_mut().for_each(|c| repoint(c, renamed));
        }
        Value::Array(a) => a.iter_mut().for_each(|c| repoint(c, renamed)),
        _ => {}
    }
}

/// `GET /openapi.json`: the API (OpenAPI 3.1), its schemas generated.
pub async fn openapi() -> Response {
    json_response(StatusCode::OK, json_bytes(&document()))
}
