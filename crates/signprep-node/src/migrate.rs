//! `migrate`: a PDF (or a `.docx`/`.odt` template, converted by LibreOffice)
//! tagged for another vendor → the v0 request that places its fields for this
//! service (`signprep migrate`; the conversion is `signprep_pack::Migrator`),
//! and with `strip` the PDF without the tags' text.

use crate::engine::{CancelToken, Source, failed_error, failure, invalid, run_one, to_json};
use crate::scan::FileInput;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde::Serialize;
use signprep_core::{ErrorInfo, LoadOptions, Scanner};
use signprep_pack::{Finding, Migrated, Migrator, SignerMap, Surface};
use signprep_template::Format;
use signprep_template::convert::ConvertOptions;

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
    /// The input is a template: `docx` or `odt` (a file of that extension),
    /// `sniff` (bytes: a template when they are one); absent: a PDF.
    pub format: Option<String>,
    /// LibreOffice's `soffice` program (templates).
    pub soffice: Option<String>,
    /// Seconds one conversion may take (default 120).
    pub convert_timeout: Option<f64>,
    /// Where converted PDFs are kept (default: the CLI's cache folder).
    pub cache_dir: Option<String>,
    /// Keep no converted PDF.
    pub no_cache: Option<bool>,
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
    /// A template's PDF, as converted (or, with `strip`, stripped): what its
    /// request uploads.
    pub pdf: Option<Buffer>,
}

impl std::fmt::Debug for MigrateOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MigrateOutput")
            .field("json", &self.json)
            .field("stripped", &self.stripped.as_ref().map(|b| b.len()))
            .field("pdf", &self.pdf.as_ref().map(|b| b.len()))
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
    /// A template's format and how it is converted.
    template: Option<(Format, ConvertOptions)>,
    token: Option<CancelToken>,
}

/// What a migration hands back: the JSON, the stripped copy of a PDF, a
/// template's PDF.
type Done = (String, Option<Vec<u8>>, Option<Vec<u8>>);

impl Task for MigrateTask {
    type Output = Done;
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
        let template = self.template.take();
        let done: std::result::Result<(Migrated, Option<Vec<u8>>), ErrorInfo> =
            run_one(self.token.as_ref(), move |_, _| match &template {
                Some((format, convert)) => {
                    migrate_template(&migrator, &data, *format, convert, &name)
                }
                None => Ok((migrator.migrate_pdf(&data, upload.as_deref(), &name), None)),
            })
            .map_err(failed_error)?;
        let (mut m, converted) = done.map_err(|e| failure(e.code.as_str(), e.message))?;
        // A template's request uploads its PDF (converted, or stripped), handed
        // back as `pdf`; a PDF's, the file given.
        let pdf = match converted {
            Some(converted) => Some(m.stripped.take().unwrap_or(converted)),
            None => None,
        };
        // The plan is returned, not written: its upload is absolute, as on
        // `signprep migrate`'s standard output; none when it uploads `pdf`.
        if let Some(plan) = &mut m.plan {
            plan.place_uploads(None);
            if pdf.is_some()
                && let Some(request) = plan.requests.first_mut()
            {
                request.upload = None;
            }
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
        Ok((json, m.stripped.take(), pdf))
    }

    fn resolve(&mut self, _env: Env, (json, stripped, pdf): Done) -> Result<MigrateOutput> {
        Ok(MigrateOutput {
            json,
            stripped: stripped.map(Buffer::from),
            pdf: pdf.map(Buffer::from),
        })
    }
}

/// A template migrated as `signprep migrate` migrates one (the CLI's
/// `migrate_template`, and the Python package's, kept in step): converted,
/// scanned with the migration's scanner (so its findings carry their place in
/// the template), migrated from that scan; the PDF made returned beside it.
fn migrate_template(
    m: &Migrator,
    data: &[u8],
    format: Format,
    convert: &ConvertOptions,
    name: &str,
) -> std::result::Result<(Migrated, Option<Vec<u8>>), ErrorInfo> {
    let (scanner, load) = m.pdf_reader();
    let scanned = crate::template::scanned(name.to_string(), data, format, convert, load, scanner);
    let (pdf, scan) = scanned.into_pdf()?;
    let migrated = m.migrate_scanned(&pdf, &scan, None, name);
    Ok((migrated, Some(pdf)))
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
    let source = Source::of(input);
    let template = match options.format.as_deref() {
        None => None,
        Some("docx") => Some(Format::Docx),
        Some("odt") => Some(Format::Odt),
        // Bytes: a template when they are one (a path is told by its extension).
        Some("sniff") => match &source {
            Source::Data(d) => Format::sniff(d),
            Source::Path(_) => None,
        },
        Some(other) => {
            return Err(invalid(format!(
                "format: `{other}` is not docx, odt or sniff"
            )));
        }
    };
    let template = crate::template::conversion(
        template,
        options.soffice,
        options.convert_timeout,
        options.cache_dir,
        options.no_cache,
    )?;
    Ok(AsyncTask::new(MigrateTask {
        data: Some(source),
        upload,
        name,
        migrator: Some(migrator),
        template,
        token: token.cloned(),
    }))
}
