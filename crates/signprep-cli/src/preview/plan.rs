//! `signprep preview --pack PLAN.json`: a request plan (`{"requests": [...]}`,
//! as `pack --v0`, `pack --populate` and `migrate` write it) drawn: for each
//! request that uploads a PDF, that PDF with the request's data fields on it.
//!
//! * **The PDF** is the request's `upload`, read from the plan's own folder
//!   ([`signprep_pack::resolve_upload`], as `check` reads it), so a plan moved
//!   with its PDF previews from any working folder.
//! * **Data fields** placed by position (`x`, `y`, `width`, `height`, as
//!   `migrate` writes them) are drawn as boxes where the service would put
//!   them: page-stacked pixels at [`PLAN_DPI`], scaled to `--dpi`. Fields
//!   linked to a tag (`tag_id`) or a form field (`custom_id`) label that tag
//!   or field, as `--pack` does. Each is labelled `ID - TYPE - SIGNER =
//!   "VALUE"`, the signer shown by name, else email, else role.
//! * **Findings.** What `signprep check PLAN.json` says is printed (errors and
//!   warnings) and sets the exit status; a finding on a data field is drawn
//!   on its box. A request with no `upload` (a populate or update request)
//!   has nothing to draw and is skipped with a note.

use super::load::{self, Loaded};
use super::paint::{Painter, Sheet, Unloaded};
use super::request::{self, Drawing};
use crate::args::PreviewArgs;
use crate::exit::ExitStatus;
use signprep_core::{Scanner, Severity};
use signprep_pack::{
    Checker, Finding, FindingCode, InputKind, Requests, V0DataField, V0Document, resolve_upload,
};
use signprep_render::{BoxKind, Overlay, OverlayBox, Style};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The resolution of the pixels of a plan's positioned data fields:
/// `migrate`'s default (`--dpi 72`, 1 px = 1 pt). A plan written with another
/// `--dpi` or `--page-width` places its fields at other pixels; those are
/// not recorded in the plan.
pub const PLAN_DPI: f64 = 72.0;

/// A request plan read and checked for previewing.
pub struct Plan {
    /// The plan's file: messages name it, uploads are read from its folder.
    path: PathBuf,
    plan: Requests<serde_json::Value>,
    /// What `signprep check PLAN.json` says: printed, and the exit status.
    findings: Vec<Finding>,
}

/// Reads and checks the plan at `path` (its bytes `bytes`); the error names
/// the file (exit 2).
pub fn read(path: &Path, bytes: &[u8]) -> Result<Plan, String> {
    let plan = std::str::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 text: {e}"))
        .and_then(|t| {
            serde_json::from_str::<Requests<serde_json::Value>>(t).map_err(|e| {
                format!(
                    "not a request plan: {}",
                    signprep_pack::parse_error::json(&e)
                )
            })
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let findings = Checker::new()
        .check_bytes(bytes, path, Some(InputKind::Requests))
        .findings;
    Ok(Plan {
        path: path.to_path_buf(),
        plan,
        findings,
    })
}

/// Draws every request of `plan` (read by [`read`]) that uploads a PDF;
/// returns the exit status.
pub fn run(args: &PreviewArgs, painter: &Painter, plan: Plan, base: &Style) -> ExitStatus {
    let Plan {
        path,
        plan,
        findings,
    } = plan;
    let shown = path.display().to_string();
    let mut verdict = crate::batch::Summary::default();
    let errors = request::report_findings(&findings, &shown, &mut verdict);
    if let Err(e) = std::fs::create_dir_all(&args.out_dir) {
        return crate::exit::fail(
            &crate::atomic::cannot_create(&args.out_dir, &e),
            ExitStatus::Error,
        );
    }
    let findings = Arc::new(findings);
    let plan_dir = path.parent().unwrap_or(Path::new(""));
    let scanner = Scanner::new().dpi(args.dpi);
    let count = plan.requests.len();
    let mut drawing = Drawing::new(painter, args);
    for (i, r) in plan.requests.iter().enumerate() {
        let doc: V0Document = serde_json::from_value(r.body.clone()).unwrap_or_default();
        let Some(upload) = r.upload.as_deref() else {
            eprintln!(
                "signprep: {shown}: request {} (`{} {}`) uploads no PDF: nothing to draw",
                i + 1,
                r.method,
                r.path
            );
            continue;
        };
        let file = resolve_upload(upload, plan_dir);
        let name = doc.document_name.clone().unwrap_or_else(|| {
            file.file_stem()
                .map_or_else(|| "document".into(), |s| s.to_string_lossy().into_owned())
        });
        let what = format!("{shown}: request {} `{name}`", i + 1);
        let (label, scan_with) = (file.display().to_string(), scanner.clone());
        let (findings, base, scale) = (Arc::clone(&findings), base.clone(), args.dpi / PLAN_DPI);
        let sheet = match painter.step(&label, move || {
            let loaded = load::load(&file, &scan_with)?;
            let mine = |f: &&Finding| f.pack_place().is_some_and(|p| p.document == i);
            let request = Drawn::new(&doc, findings.iter().filter(mine), &base);
            let style = request.style.clone();
            Ok(Sheet::new(loaded, style)
                .overlay(move |loaded, page, _| request.overlay(loaded, page, scale)))
        }) {
            Ok(s) => s,
            Err(Unloaded::Failed(status, message)) => {
                verdict.add(status, format!("{what}: {message}"));
                continue;
            }
            Err(Unloaded::Stopped(status)) => return status,
        };
        if errors == 0 && sheet.loaded().scan.has_errors() {
            verdict.add(
                ExitStatus::Failure,
                format!("{what}: error-level findings (drawn in red)"),
            );
        }
        if let Err(status) = drawing.document(sheet, (i, count), &name, &what, &mut verdict) {
            return status;
        }
    }
    drawing.finish(
        &format!("no request of {shown} uploads a PDF"),
        "uploaded PDF",
        &mut verdict,
    );
    verdict.finish()
}

/// One request, ready to draw: its style (signers and values of the fields
/// linked by id) and its positioned fields with their findings.
struct Drawn {
    style: Style,
    /// Positioned fields: the box in plan pixels, and the label parts.
    placed: Vec<Placed>,
}

struct Placed {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    label: String,
    kind: String,
    signer: Option<String>,
    value: Option<String>,
    /// Findings on the field: code, severity.
    findings: Vec<(String, Severity)>,
}

impl Drawn {
    fn new<'a>(
        doc: &V0Document,
        findings: impl Iterator<Item = &'a Finding>,
        base: &Style,
    ) -> Drawn {
        let signers = doc.signatories.as_deref().unwrap_or_default();
        let labels = request::labels(
            signers
                .iter()
                .map(|s| [s.name.as_deref(), s.email.as_deref(), s.role.as_deref()]),
        );
        let fields = doc.data_fields.as_deref().unwrap_or_default();
        let who = |f: &V0DataField| {
            let u = f.signatory_uuid.as_deref()?;
            Some(
                signers
                    .iter()
                    .zip(&labels)
                    .find(|(s, _)| s.uuid.as_deref() == Some(u))
                    .map_or_else(
                        || format!("unknown {}", u.chars().take(8).collect::<String>()),
                        |(_, l)| l.clone(),
                    ),
            )
        };
        let mut style = base.clone().roster(labels.iter().cloned());
        let mut placed: Vec<(usize, Placed)> = Vec::new();
        for (j, f) in fields.iter().enumerate() {
            let id = f
                .tag_id
                .clone()
                .or_else(|| f.custom_id.value().cloned())
                .filter(|s| !s.trim().is_empty());
            let value = f.data.value().cloned();
            if let (Some(x), Some(y), Some(width), Some(height)) = (f.x, f.y, f.width, f.height)
                && f.tag_id.is_none()
            {
                placed.push((
                    j,
                    Placed {
                        x,
                        y,
                        width,
                        height,
                        label: id.unwrap_or_else(|| format!("field {}", j + 1)),
                        kind: f.kind.clone().unwrap_or_default(),
                        signer: who(f),
                        value,
                        findings: Vec::new(),
                    },
                ));
                continue;
            }
            let Some(id) = id else { continue };
            if let Some(s) = who(f) {
                style = style.signer(id.clone(), s);
            }
            if let Some(v) = value {
                style = style.value(id, v);
            }
        }
        // Findings of this request: on a positioned field's box, else a note
        // (in the legend; on the box of the tag or field it names).
        for f in findings {
            if matches!(f.code, FindingCode::Scan(_)) {
                continue; // drawn from the preview's own scan
            }
            let j = f.pack_place().and_then(|p| p.data_field);
            if let Some((_, p)) = placed.iter_mut().find(|(k, _)| Some(*k) == j) {
                p.findings.push((f.code.as_str().to_string(), f.severity));
                continue;
            }
            let id = j
                .and_then(|j| fields.get(j))
                .and_then(|d| d.tag_id.clone().or_else(|| d.custom_id.value().cloned()));
            style = style.note(request::note(f, id));
        }
        Drawn {
            style,
            placed: placed.into_iter().map(|(_, p)| p).collect(),
        }
    }

    /// Page `page`'s overlay: the scan's tags and fields as `preview` draws
    /// them, and the positioned fields that start on this page (plan pixels
    /// times `scale`).
    fn overlay(&self, loaded: &Loaded, page: usize, scale: f64) -> Option<Overlay> {
        let scan = &loaded.scan;
        let mut overlay = Overlay::for_page(scan, page, &self.style)?;
        let info = scan.pages.get(page)?;
        let last = scan.pages.len().saturating_sub(1);
        for p in &self.placed {
            let top = p.y * scale;
            // The page the field's top falls on (the service stacks pages).
            let on = scan
                .pages
                .iter()
                .rposition(|q| q.y_offset <= top + 0.5)
                .unwrap_or(0)
                .min(last);
            if on != page {
                continue;
            }
            let severity = p
                .findings
                .iter()
                .map(|(_, s)| *s)
                .filter(|s| *s != Severity::Info)
                .min();
            overlay.boxes.push(OverlayBox {
                kind: BoxKind::Field,
                label: p.label.clone(),
                kind_label: p.kind.clone(),
                signer: p.signer.clone(),
                value: p.value.clone(),
                x: p.x * scale,
                y: top - info.y_offset,
                width: p.width * scale,
                height: p.height * scale,
                hidden: false,
                severity,
                codes: Vec::new(),
                severities: Vec::new(),
                note_codes: p.findings.iter().map(|(c, _)| c.clone()).collect(),
                note_severities: p.findings.iter().map(|(_, s)| *s).collect(),
                colour: self.style.signer_colour(p.signer.as_deref().unwrap_or("")),
                tab: None,
            });
        }
        overlay.signers = Overlay::signers_of(&overlay.boxes);
        if self.style.labels {
            overlay.place_labels();
        }
        Some(overlay)
    }
}
