//! `signprep preview --pack FILE` and `--manifest FILE`: the previews of every
//! child document of a request, each tag and field labelled with the signer
//! its data field assigns and the value it pre-fills.
//!
//! * **Reading.** A pack is read by `signprep_pack::read_pack` (lenient: a
//!   flawed body is still drawn); a manifest by `Manifest::load` and built as
//!   `signprep pack` builds it (`PackBuilder::build_partial`, so that errors
//!   do not stop the preview), then handled as the pack it makes.
//! * **Findings.** What `signprep check FILE` says is printed (errors and
//!   warnings) and sets the exit status. Each child's own findings (those
//!   located under `/documents/N`, from a check of the pack) are drawn: in the
//!   legend of every page of that child, and on the box of the tag or field
//!   they name. The scan's own diagnostics are drawn from the preview's scan.
//! * **Meaning.** A data field's `custom_id` names a tag (tag-syntax child)
//!   or a full form-field name (form-field child); `signatory_uuid` links it
//!   to a signatory, shown by name (else email, role, or `signer N`); `data`
//!   is the pre-filled value. Template and URL children have no PDF here and
//!   are skipped with a note.

use super::load;
use super::paint::{Painter, Sheet, Unloaded};
use super::request::{self, Drawing, labels};
use crate::args::PreviewArgs;
use crate::exit::ExitStatus;
use signprep_core::{Scanner, Severity};
use signprep_pack::{
    Checker, Finding, FindingCode, InputKind, LenientPack, Manifest, SeededIds, detect, read_pack,
};
use signprep_render::Style;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Which request to draw.
#[derive(Clone, Debug)]
pub enum Source {
    /// A v1 pack body (JSON).
    Pack(PathBuf),
    /// A manifest (TOML or JSON).
    Manifest(PathBuf),
}

impl Source {
    pub fn path(&self) -> &Path {
        match self {
            Source::Pack(p) | Source::Manifest(p) => p,
        }
    }
}

/// A request read for previewing.
pub struct Request {
    /// The file, as messages name it.
    shown: String,
    /// The pack (as written, or as the manifest builds it).
    pack: LenientPack,
    /// What `signprep check` says about the file: printed, and the exit status.
    findings: Vec<Finding>,
    /// Findings about the pack, located by `/documents/N` pointers into `pack`.
    pack_findings: Vec<Finding>,
}

/// Reads and checks the request (building a manifest scans its PDFs); the
/// error names the file (exit 2).
pub fn read(source: &Source) -> Result<Request, String> {
    let path = source.path();
    let shown = path.display();
    let checker = Checker::new();
    match source {
        Source::Pack(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| format!("cannot read {shown}: {}", signprep_core::io_reason(&e)))?;
            let text =
                std::str::from_utf8(&bytes).map_err(|e| format!("{shown}: not UTF-8 text: {e}"))?;
            match detect(&bytes, path) {
                Some(InputKind::Pack) => {}
                Some(InputKind::Manifest) => {
                    return Err(format!(
                        "{shown} is a manifest, not a pack body: use --manifest"
                    ));
                }
                Some(k) => {
                    return Err(format!(
                        "{shown} is a {} body, not a v1 pack body",
                        k.as_str()
                    ));
                }
                None => {
                    let why = match serde_json::from_str::<serde_json::Value>(text) {
                        Err(e) => format!("not JSON: {}", signprep_pack::parse_error::json(&e)),
                        Ok(_) => "not a v1 pack body (no `documents`)".to_string(),
                    };
                    return Err(format!("{shown}: {why}"));
                }
            }
            let pack = read_pack(text).map_err(|e| format!("{shown}: {e}"))?.value;
            let findings = checker
                .check_bytes(&bytes, path, Some(InputKind::Pack))
                .findings;
            Ok(Request {
                shown: shown.to_string(),
                pack,
                pack_findings: findings.clone(),
                findings,
            })
        }
        Source::Manifest(path) => {
            let manifest = Manifest::load(path).map_err(|e| e.to_string())?;
            let base = path.parent().unwrap_or(Path::new(""));
            // Seeded like `signprep check`: signers without a uuid get the same
            // ones in both, and are shown by name anyway.
            let (built, _) = manifest
                .builder(base, &shown.to_string())
                .ids(SeededIds::new(0))
                .build_partial();
            let json = serde_json::to_vec(&built).map_err(|e| format!("{shown}: {e}"))?;
            let pack = LenientPack::from(built);
            let findings = checker
                .check_file(path, Some(InputKind::Manifest))
                .map_err(|e| e.to_string())?
                .findings;
            let pack_findings = checker
                .check_bytes(&json, path, Some(InputKind::Pack))
                .findings;
            Ok(Request {
                shown: shown.to_string(),
                pack,
                findings,
                pack_findings,
            })
        }
    }
}

/// How each signatory of the pack is shown ([`labels`]).
fn signer_labels(pack: &LenientPack) -> Vec<String> {
    let signers = pack.signatories.as_deref().unwrap_or_default();
    labels(
        signers
            .iter()
            .map(|s| [s.name.as_deref(), s.email.as_deref(), s.role.as_deref()]),
    )
}

/// The style of child `i`: signers, values and notes from its data fields and
/// findings, on top of `base` (type map, labels, legend).
fn child_style(
    base: &Style,
    pack: &LenientPack,
    labels: &[String],
    i: usize,
    findings: &[Finding],
) -> Style {
    let signers = pack.signatories.as_deref().unwrap_or_default();
    let by_uuid: BTreeMap<&str, &str> = signers
        .iter()
        .zip(labels)
        .filter_map(|(s, l)| s.uuid.as_deref().map(|u| (u, l.as_str())))
        .collect();
    let child = pack.documents.as_deref().and_then(|d| d.get(i));
    let fields = child
        .and_then(|c| c.data_fields.as_deref())
        .unwrap_or_default();
    let mut style = base.clone().roster(labels.iter().cloned());
    for f in fields {
        let Some(id) = f.custom_id.as_deref().filter(|c| !c.trim().is_empty()) else {
            continue;
        };
        if let Some(u) = f.signatory_uuid.as_deref() {
            let who = by_uuid.get(u).map_or_else(
                || format!("unknown {}", u.chars().take(8).collect::<String>()),
                |l| (*l).to_string(),
            );
            style = style.signer(id, who);
        }
        if let Some(d) = &f.data {
            style = style.value(id, d.clone());
        }
    }
    for f in findings {
        let Some(place) = f.pack_place().filter(|p| p.document == i) else {
            continue;
        };
        if matches!(f.code, FindingCode::Scan(_)) {
            continue; // drawn from the preview's own scan
        }
        let id = place
            .data_field
            .and_then(|j| fields.get(j))
            .and_then(|d| d.custom_id.clone());
        style = style.note(request::note(f, id));
    }
    style
}

/// Draws every child of `request` (read by [`read`]); returns the exit status.
pub fn run(args: &PreviewArgs, painter: &Painter, request: Request, base: &Style) -> ExitStatus {
    let shown = request.shown.clone();
    let mut verdict = crate::batch::Summary::default();
    let errors = request::report_findings(&request.findings, &shown, &mut verdict);
    if let Err(e) = std::fs::create_dir_all(&args.out_dir) {
        return crate::exit::fail(
            &crate::atomic::cannot_create(&args.out_dir, &e),
            ExitStatus::Error,
        );
    }
    let request = Arc::new(request);
    let labels = Arc::new(signer_labels(&request.pack));
    let docs = request.pack.documents.as_deref().unwrap_or_default();
    let scanner = Scanner::new().dpi(args.dpi);
    let mut drawing = Drawing::new(painter, args);
    for (i, d) in docs.iter().enumerate() {
        let name = d
            .document_name
            .clone()
            .unwrap_or_else(|| format!("document {}", i + 1));
        let what = format!("{shown}: document {} `{name}`", i + 1);
        let settings = d.document_creation_settings.as_ref();
        let Some(b64) = settings.and_then(|s| s.base_64_document.as_ref()) else {
            let why = match settings {
                Some(s) if s.create_from_template_key.is_some() => {
                    "is made from a template; its fields are on the template"
                }
                Some(s) if s.document_url.is_some() => "is fetched by the service from its URL",
                _ => "has no document",
            };
            eprintln!("signprep: {what} {why}: nothing to draw");
            continue;
        };
        let bytes = match b64.decode() {
            Ok(b) => b,
            Err(e) => {
                verdict.add(
                    ExitStatus::Failure,
                    format!("{what}: `base_64_document` is not Base64: {e}"),
                );
                continue;
            }
        };
        let (label, scan_with) = (what.clone(), scanner.clone());
        let (request, labels, base) = (Arc::clone(&request), Arc::clone(&labels), base.clone());
        let sheet = match painter.step(&what, move || {
            let loaded = load::load_bytes(bytes, &label, &scan_with)?;
            let style = child_style(&base, &request.pack, &labels, i, &request.pack_findings);
            Ok(Sheet::new(loaded, style))
        }) {
            Ok(s) => s,
            Err(Unloaded::Failed(status, message)) => {
                verdict.add(status, message);
                continue;
            }
            Err(Unloaded::Stopped(status)) => return status,
        };
        // Errors of the PDF or of its data fields that the request's check
        // did not report (it reports them all when it read the child).
        if errors == 0
            && (sheet.loaded().scan.has_errors()
                || sheet
                    .style()
                    .notes
                    .iter()
                    .any(|n| n.severity == Severity::Error))
        {
            verdict.add(
                ExitStatus::Failure,
                format!("{what}: error-level findings (drawn in red)"),
            );
        }
        if let Err(status) = drawing.document(sheet, (i, docs.len()), &name, &what, &mut verdict) {
            return status;
        }
    }
    drawing.finish(
        &format!("no child document of {shown} carries its PDF"),
        "child document",
        &mut verdict,
    );
    verdict.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signers_are_told_apart() {
        let pack: LenientPack = serde_json::from_str(
            r#"{"signatories": [{"name": "Ann"}, {"email": "b@x.example"}, {"name": "Ann"}, {}]}"#,
        )
        .unwrap();
        assert_eq!(
            signer_labels(&pack),
            ["Ann #1", "b@x.example", "Ann #3", "signer 4"]
        );
    }
}
