//! `migrate`: a PDF tagged for another vendor → the v0 request that places its
//! fields for this service (`signprep migrate`; the conversion is
//! `signprep_pack::Migrator`), and with `strip` the PDF without the tags' text.

use crate::engine::{CancelToken, Source, failed_error, failure, invalid, run_one, to_json};
use crate::scan::FileInput;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde::Serialize;
use signprep_core::LoadOptions;
use signprep_core::Scanner;
use signprep_pack::{Finding, Migrated, Migrator, SignerMap, Surface};

/// How to migrate: `signprep migrate`'s options.
#[napi(object)]
#[derive(Debug, Default)]
pub struct MigrateOptions {
    /// `KEY=EMAIL` entries (`--signer`).
    pub signers: Option<Vec<String>>,
    /// A pack manifest whose `[[signers]]` have a `handle` (`--signers`), read by the caller.
    pub signers_file: Option<FileInput>,
    /// The dialects read (default `all`).
    pub dialects: Option<String>,
    /// `KIND=TYPE` rules (`--map-type`; `none` leaves the kind out).
    pub map_type: Option<Vec<String>>,
    /// Write `document_type: template`.
    pub template: Option<bool>,
    /// Also return the PDF without the text of every vendor tag read, fields and left out alike (`--strip`).
    pub strip: Option<bool>,
    /// Pixels per inch (default 72).
    pub dpi: Option<f64>,
    /// Scale every page to this width in pixels instead.
    pub page_width: Option<f64>,
    /// Apply a page's `/UserUnit` (default true).
    pub apply_user_unit: Option<bool>,
    /// DocuSign anchor files (`--anchors`), read by the caller.
    pub anchor_files: Option<Vec<FileInput>>,
    /// DocuSign quick tabs `STRING=TYPE[:SIGNER]` (`--anchor`).
    pub anchor: Option<Vec<String>>,
}

/// What one PDF gave: `json` is `{"request", "findings", "summary"}`,
/// `stripped` the PDF without the vendor tags' text (with `strip`, when one
/// could be written).
#[napi(object)]
pub struct MigrateOutput {
    /// `{"request", "findings", "summary"}` as JSON text.
    pub json: String,
    /// The stripped copy of the PDF.
    pub stripped: Option<Buffer>,
}

impl std::fmt::Debug for MigrateOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MigrateOutput")
            .field("json", &self.json)
            .field("stripped", &self.stripped.as_ref().map(|b| b.len()))
            .finish()
    }
}

#[derive(Serialize)]
struct Out<'a, P> {
    request: P,
    findings: &'a [Finding],
    summary: Summary,
}

#[derive(Serialize)]
struct Summary {
    tags: usize,
    placed: usize,
    left_out: usize,
    signers: usize,
    signers_without_email: usize,
}

/// A migration on the engine.
#[derive(Debug)]
pub struct MigrateTask {
    data: Option<Source>,
    upload: Option<String>,
    name: String,
    migrator: Option<Migrator>,
    token: Option<CancelToken>,
}

impl Task for MigrateTask {
    type Output = (String, Option<Vec<u8>>);
    type JsValue = MigrateOutput;

    fn compute(&mut self) -> Result<Self::Output> {
        let Some(data) = self.data.take() else {
            return Err(failure("internal_error", "migrated twice"));
        };
        let data = data.read()?;
        let (upload, name) = (self.upload.clone(), self.name.clone());
        let Some(migrator) = self.migrator.take() else {
            return Err(failure("internal_error", "migrated twice"));
        };
        let migrator = match &self.token {
            Some(t) => {
                let load = migrator.pdf_reader().1.clone().cancel(t.as_cancel());
                migrator.load_options(load)
            }
            None => migrator,
        };
        let mut m: Migrated = run_one(self.token.as_ref(), move |_, _| {
            migrator.migrate_pdf(&data, upload.as_deref(), &name)
        })
        .map_err(failed_error)?;
        // The plan is returned, not written: its upload is absolute, as on
        // `signprep migrate`'s standard output.
        if let Some(plan) = &mut m.plan {
            plan.place_uploads(None);
        }
        let s = &m.summary;
        let json = to_json(&Out {
            request: &m.plan,
            findings: &m.findings,
            summary: Summary {
                tags: s.tags,
                placed: s.placed,
                left_out: s.left_out,
                signers: s.signers,
                signers_without_email: s.signers_without_email,
            },
        })?;
        Ok((json, m.stripped.take()))
    }

    fn resolve(&mut self, _env: Env, (json, stripped): Self::Output) -> Result<MigrateOutput> {
        Ok(MigrateOutput {
            json,
            stripped: stripped.map(Buffer::from),
        })
    }
}

/// `migrateInput(input, upload, name, options, token)`: one PDF (its path,
/// or its bytes) migrated. `upload` is the path written as the PDF to upload
/// (`null` for bytes; written absolute), `name` the document's name.
#[napi(ts_return_type = "Promise<MigrateOutput>")]
pub fn migrate_input(
    input: Either<String, Uint8Array>,
    upload: Option<String>,
    name: String,
    options: MigrateOptions,
    token: Option<&CancelToken>,
) -> Result<AsyncTask<MigrateTask>> {
    let mut map = SignerMap::new();
    if let Some(f) = &options.signers_file {
        map.add_file(std::path::Path::new(&f.path), &f.data)
            .map_err(|e| invalid(format!("signersFile: {e}")))?;
    }
    for s in options.signers.as_deref().unwrap_or_default() {
        map.add_arg(s)
            .map_err(|e| invalid(format!("signers: {e}")))?;
    }
    let dialects = crate::scan::dialect_list(options.dialects.as_deref().unwrap_or("all"))?;
    let base = Scanner::new()
        .fields(false)
        .apply_user_unit(options.apply_user_unit.unwrap_or(true))
        .dialects(dialects);
    let scanner = crate::scan::scaled(base, options.dpi.unwrap_or(72.0), options.page_width)?;
    let mut migrator = Migrator::new(map)
        .surface(Surface::Node)
        .scanner(scanner)
        .load_options(LoadOptions::default())
        .template(options.template.unwrap_or(false))
        .strip(options.strip.unwrap_or(false));
    for rule in options.map_type.as_deref().unwrap_or_default() {
        migrator = migrator
            .map_type_rule(rule)
            .map_err(|e| invalid(format!("mapType: {e}")))?;
    }
    if let Some(a) = crate::scan::anchor_file(options.anchor_files, options.anchor)? {
        migrator = migrator.anchors(a);
    }
    Ok(AsyncTask::new(MigrateTask {
        data: Some(Source::of(input)),
        upload,
        name,
        migrator: Some(migrator),
        token: token.cloned(),
    }))
}
