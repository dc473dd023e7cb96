//! `signprep preview --dialect LIST FILE.pdf`: each page with the fields
//! `signprep migrate` would place drawn over the vendor tags they come from,
//! so a user sees the migration (and any tag text left visible under a field)
//! before sending.
//!
//! The migration is run here on the preview's own scan (same dpi), so the
//! boxes land exactly where `migrate --dpi` would put them at that resolution.

use super::load::Loaded;
use super::paint::Sheet;
use signprep_core::{Code, Severity};
use signprep_pack::{AnchorFile, FindingCode, Migrated, Migrator, SignerMap, V0DataField};
use signprep_render::{BoxKind, Overlay, OverlayBox, Style};

/// The overlay of one page: the native tags and fields as `preview` draws
/// them, plus every vendor tag: a placed field (its service type and signer)
/// or, left out, the tag with the migration finding that says why.
fn overlay(loaded: &Loaded, migrated: &Migrated, page: usize, style: &Style) -> Option<Overlay> {
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
            tab: None,
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
    overlay.signers = signprep_render::Overlay::signers_of(&overlay.boxes);
    if style.labels {
        overlay.place_labels();
    }
    Some(overlay)
}

/// `loaded` ready to draw in `style` with the fields a migration of its
/// scan places.
pub fn sheet(loaded: Loaded, anchors: Option<AnchorFile>, style: Style, stem: &str) -> Sheet {
    // No signer map: signers are shown by the vendor's key (`signer1`,
    // `Client`). The digest only seeds UUIDs, which are not drawn.
    // DocuSign recipients name theirs (by role).
    let mut migrator = Migrator::new(SignerMap::new());
    if let Some(a) = anchors {
        migrator = migrator.anchors(a);
    }
    let migrated = migrator.migrate_scan(&loaded.scan, &[0; 32], None, stem);
    Sheet::new(loaded, style)
        .overlay(move |loaded, page, style| overlay(loaded, &migrated, page, style))
}
