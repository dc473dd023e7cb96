//! `signprep preview --dialect LIST FILE.pdf`: each page with the fields
//! `signprep migrate` would place drawn over the vendor tags they come from,
//! so a user sees the migration (and any tag text left visible under a field)
//! before sending.
//!
//! The migration is run here on the preview's own scan (same dpi), so the
//! boxes land exactly where `migrate --dpi` would put them at that resolution.

use crate::exit::ExitStatus;
use crate::preview_cmd::{Loaded, png_name};
use rayon::prelude::*;
use signprep_core::{
    BoxKind, Code, Overlay, OverlayBox, Severity, Style, draw_overlay, encode_png, render_page,
};
use signprep_pack::{AnchorFile, FindingCode, Migrated, Migrator, SignerMap, V0DataField};
use std::path::Path;

/// The overlay of one page: the native tags and fields as `preview` draws
/// them, plus every vendor tag: a placed field (its service type and signer)
/// or, left out, the tag with the migration finding that says why.
pub fn overlay(
    loaded: &Loaded,
    migrated: &Migrated,
    page: usize,
    style: &Style,
) -> Option<Overlay> {
    let scan = &loaded.scan;
    let mut overlay = Overlay::for_page(scan, page, style)?;
    let info = scan.pages.get(page)?;
    let body = migrated
        .plan
        .as_ref()
        .and_then(|p| p.requests.first())
        .map(|r| &r.body);
    let fields: &[V0DataField] = body
        .and_then(|b| b.data_fields.as_deref())
        .unwrap_or_default();
    let signatories = body
        .and_then(|b| b.signatories.as_deref())
        .unwrap_or_default();
    let roles: Vec<String> = signatories.iter().filter_map(|s| s.role.clone()).collect();
    let style = style.clone().roster(roles);
    let role_of = |uuid: Option<&str>| {
        signatories
            .iter()
            .find(|s| s.uuid.as_deref() == uuid && uuid.is_some())
            .and_then(|s| s.role.clone())
    };
    for t in scan.vendor_tags.iter().flatten().filter(|t| t.page == page) {
        // A placed field sits on the tag's `field` box (else its text).
        let place = t.field_box();
        let placed = fields.iter().find(|f| {
            f.x == Some(place.x)
                && f.y == Some(place.y)
                && f.width == Some(place.width)
                && f.height == Some(place.height)
        });
        let mut b = OverlayBox {
            kind: BoxKind::Field,
            label: t.raw.clone(),
            kind_label: String::new(),
            signer: None,
            value: None,
            x: t.x,
            y: t.y - info.y_offset,
            width: t.width,
            height: t.height,
            hidden: t.hidden,
            severity: None,
            codes: Vec::new(),
            severities: Vec::new(),
            note_codes: Vec::new(),
            note_severities: Vec::new(),
            colour: style.signer_colour(""),
        };
        if !t.hidden {
            b.codes.push(Code::VendorTagVisible);
            b.severities.push(Severity::Info);
        }
        match placed {
            Some(f) => {
                (b.x, b.y, b.width, b.height) =
                    (place.x, place.y - info.y_offset, place.width, place.height);
                b.kind_label = f.kind.clone().unwrap_or_default();
                b.signer = role_of(f.signatory_uuid.as_deref());
                if let Some(s) = &b.signer {
                    b.colour = style.signer_colour(s);
                }
            }
            None => {
                b.kind = BoxKind::Tag;
                b.kind_label = format!("{} (left out)", t.attributes.kind);
                for f in migrated
                    .findings
                    .iter()
                    .filter(|f| f.page == Some(page) && f.tag.as_deref() == Some(&t.raw))
                {
                    if let FindingCode::Pack(c) = f.code {
                        b.note_codes.push(c.as_str().to_string());
                        b.note_severities.push(f.severity);
                        if f.severity != Severity::Info {
                            b.severity = Some(b.severity.map_or(f.severity, |s| s.min(f.severity)));
                        }
                    }
                }
            }
        }
        overlay.boxes.push(b);
    }
    let mut signers: Vec<_> = overlay
        .boxes
        .iter()
        .filter_map(|b| {
            b.signer.as_ref().map(|s| signprep_core::SignerColour {
                signer: s.clone(),
                colour: b.colour,
            })
        })
        .collect();
    signers.sort();
    signers.dedup();
    overlay.signers = signers;
    Some(overlay)
}

/// Renders `pages` with the migrated fields and writes `DIR/STEM-pN.png`
/// (and the overlay JSON with `json`), printing each path.
#[allow(clippy::too_many_arguments)]
pub fn write_pages(
    pool: &rayon::ThreadPool,
    loaded: &Loaded,
    anchors: Option<AnchorFile>,
    pages: &[usize],
    style: &Style,
    dir: &Path,
    stem: &str,
    json: bool,
    what: &str,
    verdict: &mut crate::Verdict,
) {
    // No signer map: signers are shown by the vendor's key (`signer1`,
    // `Client`). The digest only seeds UUIDs, which are not drawn.
    // DocuSign recipients name theirs (by role).
    let mut migrator = Migrator::new(SignerMap::new());
    if let Some(a) = anchors {
        migrator = migrator.anchors(a);
    }
    let migrated = migrator.migrate_scan(&loaded.scan, &[0; 32], None, stem);
    let page_overlay = |p: usize| overlay(loaded, &migrated, p, style);
    write_overlaid(
        pool,
        loaded,
        pages,
        style,
        &page_overlay,
        (dir, stem, json),
        what,
        verdict,
    );
}

/// Renders `pages`, each with the overlay `page_overlay` gives it, and
/// writes `DIR/STEM-pN.png` (and the overlay JSON with `json`), printing each
/// path; a page that could not be drawn adds exit status 1 to `verdict`, a
/// file that could not be written 2.
#[allow(clippy::too_many_arguments)]
pub fn write_overlaid(
    pool: &rayon::ThreadPool,
    loaded: &Loaded,
    pages: &[usize],
    style: &Style,
    page_overlay: &(dyn Fn(usize) -> Option<Overlay> + Sync),
    (dir, stem, json): (&Path, &str, bool),
    what: &str,
    verdict: &mut crate::Verdict,
) {
    let count = loaded.doc.page_count();
    let drawn: Vec<Result<(Vec<u8>, Overlay), String>> = pool.install(|| {
        pages
            .par_iter()
            .map(|&p| {
                let overlay = page_overlay(p).ok_or_else(|| format!("no page {}", p + 1))?;
                let pdf = loaded.pdf.as_ref().map_err(|e| e.to_string())?;
                let mut img =
                    render_page(&loaded.doc, pdf, p, &loaded.scan).map_err(|e| e.to_string())?;
                draw_overlay(&mut img, &overlay, style);
                let png = encode_png(&img).map_err(|e| e.to_string())?;
                Ok((png, overlay))
            })
            .collect()
    });
    for (&page, result) in pages.iter().zip(drawn) {
        let path = dir.join(png_name(stem, page, count));
        let (png, overlay) = match result {
            Ok(d) => d,
            Err(e) => {
                verdict.add(
                    ExitStatus::Failure,
                    format!("{what}: page {}: {e}", page + 1),
                );
                continue;
            }
        };
        match crate::atomic::write(&path, &png) {
            Ok(()) => println!("{}", path.display()),
            Err(e) => verdict.add(
                ExitStatus::Error,
                format!("cannot write {}: {e}", path.display()),
            ),
        }
        if json {
            let path = path.with_extension("json");
            let written = serde_json::to_vec_pretty(&overlay)
                .map_err(std::io::Error::other)
                .and_then(|mut b| {
                    b.push(b'\n');
                    crate::atomic::write(&path, &b)
                });
            match written {
                Ok(()) => println!("{}", path.display()),
                Err(e) => verdict.add(
                    ExitStatus::Error,
                    format!("cannot write {}: {e}", path.display()),
                ),
            }
        }
    }
}
