//! Multipart forms (`multipart/form-data`): a manifest (or a signer map)
//! with the PDFs it names, read from a body already within `--max-body`,
//! all in memory (nothing is written to disk). Parsed by multer, the parser
//! behind axum's own `multipart` feature; its refusals are put in our words.
//!
//! The parts: `manifest` (a pack manifest, TOML or JSON; its file name names
//! it, and its folder is where its `path`s start), `signers` (a signer map,
//! as `migrate --signers` reads it), and any number of `pdf` (each file
//! name the path the manifest gives, relative to the manifest's folder; a
//! `.docx` or `.odt` name is a template the manifest names).

use super::api::{ApiCode, ApiError};
use axum::body::Body;
use multer::{Constraints, Multipart};
use signprep_pack::Given;

/// The media type of a form.
pub const FORM: &str = "multipart/form-data";

/// A named text part: its file name (or the part's name) and bytes.
pub struct Part {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// A form's parts.
#[derive(Default)]
pub struct Form {
    pub manifest: Option<Part>,
    pub signers: Option<Part>,
    /// The PDFs, by file name, in name order.
    pub pdfs: Given,
}

fn bad(message: String) -> ApiError {
    ApiError::new(ApiCode::BadRequest, message)
}

/// Reads a form whose parts are among `fields` (`manifest`, `signers`, `pdf`).
pub async fn read(content_type: &str, body: Vec<u8>, fields: &[&str]) -> Result<Form, ApiError> {
    let boundary = multer::parse_boundary(content_type).map_err(|_| {
        bad("the form's Content-Type has no `boundary=` (multipart/form-data; boundary=...)".into())
    })?;
    let mut parts = Multipart::with_constraints(
        Body::from(body).into_data_stream(),
        boundary,
        Constraints::new().allowed_fields(fields.to_vec()),
    );
    let mut form = Form::default();
    let mut index = 0usize;
    loop {
        index += 1;
        let field = match parts.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(multer::Error::UnknownField { field_name }) => {
                return Err(bad(format!(
                    "part {index} of the form is named `{}`; this route takes {}",
                    crate::text::clean(field_name.as_deref().unwrap_or("")),
                    fields
                        .iter()
                        .map(|f| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            Err(_) => {
                return Err(bad(format!(
                    "part {index} of the form cannot be read: not multipart/form-data with this boundary, or cut short"
                )));
            }
        };
        let field_name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.map_err(|_| {
            bad(format!(
                "part {index} (`{}`) of the form cannot be read to its end",
                crate::text::clean(&field_name)
            ))
        })?;
        let bytes = bytes.to_vec();
        match field_name.as_str() {
            "pdf" => {
                let Some(name) = file_name.filter(|n| !n.trim().is_empty()) else {
                    return Err(bad(format!(
                        "part {index} (`pdf`) has no file name: give each PDF the name the manifest uses (filename=\"contract.pdf\")"
                    )));
                };
                let shown = crate::text::clean(&name).into_owned();
                if form.pdfs.insert(name, bytes).is_some() {
                    return Err(bad(format!(
                        "two PDFs are named `{shown}`: each needs a name of its own"
                    )));
                }
            }
            slot @ ("manifest" | "signers") => {
                let default = if slot == "manifest" {
                    "pack.toml"
                } else {
                    "signers.toml"
                };
                let part = Part {
                    name: file_name
                        .filter(|n| !n.trim().is_empty())
                        .unwrap_or_else(|| default.into()),
                    bytes,
                };
                let place = if slot == "manifest" {
                    &mut form.manifest
                } else {
                    &mut form.signers
                };
                if place.replace(part).is_some() {
                    return Err(bad(format!("the form has two `{slot}` parts")));
                }
            }
            _ => {}
        }
    }
    Ok(form)
}
