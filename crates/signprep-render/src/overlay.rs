//! The overlay as data: which boxes to draw on a page, where, in which colour
//! and with which label. Computed from a [`Scan`] alone, so it can be tested
//! (and snapshotted) without rendering anything.

use crate::labels::{self, LabelTab};
use serde::Serialize;
use signprep_core::{Code, Scan, ServiceTypes, Severity, round2};
use std::collections::BTreeMap;
use std::sync::Arc;

/// An RGB colour.
pub type Colour = [u8; 3];

/// The colour of tags when no signer is known.
pub const TAG_COLOUR: Colour = [0x00, 0x72, 0xB2];
/// The colour of form fields when no signer is known.
pub const FIELD_COLOUR: Colour = [0x00, 0x9E, 0x73];
/// Outline of a box with an error-level finding.
pub const ERROR_COLOUR: Colour = [0xD6, 0x27, 0x28];
/// Outline of a box with a warning-level finding.
pub const WARNING_COLOUR: Colour = [0xF5, 0xA3, 0x00];
/// Signer colours, in order of first appearance in [`Style::signers`] (sorted
/// by signer name); they cycle after the last. None is red, amber, or the tag
/// or field colour.
pub const SIGNER_COLOURS: [Colour; 6] = [
    [0xCC, 0x79, 0xA7],
    [0x6A, 0x3D, 0x9A],
    [0x17, 0xBE, 0xCF],
    [0x8C, 0x56, 0x4B],
    [0x7F, 0x7F, 0x00],
    [0x56, 0xB4, 0xE9],
];

/// How previews are drawn and labelled.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Style {
    /// Signer of each tag id or full field name (from a pack or manifest).
    pub signers: BTreeMap<String, String>,
    /// Every signer of the request, in its order: colours follow this order
    /// when given, so that a signer keeps one colour in every document of a
    /// pack (signers not in it are ranked after it by name).
    pub roster: Vec<String>,
    /// The value a request pre-fills, per tag id or full field name.
    pub values: BTreeMap<String, String>,
    /// Findings from outside the scan (a request's, say) about this document:
    /// listed in every page's legend, and on the box they name.
    pub notes: Vec<Note>,
    /// The type overrides used for the labels' service types (as `scan
    /// --type-map`; the pack crate's `TypeMap`); `None`: the default types.
    pub type_map: Option<Arc<dyn ServiceTypes>>,
    /// Draw labels above the boxes.
    pub labels: bool,
    /// Add a legend band below the page.
    pub legend: bool,
    /// Opacity of the boxes' fill, 0 (none) to 255 (opaque).
    pub fill_alpha: u8,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            signers: BTreeMap::new(),
            roster: Vec::new(),
            values: BTreeMap::new(),
            notes: Vec::new(),
            type_map: None,
            labels: true,
            legend: true,
            fill_alpha: 64,
        }
    }
}

/// Equal when everything is, the type overrides being the same object.
impl PartialEq for Style {
    fn eq(&self, other: &Self) -> bool {
        let same_types = match (&self.type_map, &other.type_map) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same_types
            && self.signers == other.signers
            && self.roster == other.roster
            && self.values == other.values
            && self.notes == other.notes
            && self.labels == other.labels
            && self.legend == other.legend
            && self.fill_alpha == other.fill_alpha
    }
}

impl Style {
    /// Labels, a legend, no signers, the default types.
    pub fn new() -> Self {
        Style::default()
    }

    /// Names the signer of a tag id or a full field name.
    #[must_use]
    pub fn signer(mut self, name: impl Into<String>, signer: impl Into<String>) -> Self {
        self.signers.insert(name.into(), signer.into());
        self
    }

    /// Names every signer of the request, in order, so that each keeps one
    /// colour across the documents of a pack (the `roster` field).
    #[must_use]
    pub fn roster<S: Into<String>>(mut self, signers: impl IntoIterator<Item = S>) -> Self {
        self.roster = signers.into_iter().map(Into::into).collect();
        self
    }

    /// The value pre-filled into a tag id or full field name (shown in its label).
    #[must_use]
    pub fn value(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.values.insert(name.into(), value.into());
        self
    }

    /// Adds a finding from outside the scan.
    #[must_use]
    pub fn note(mut self, note: Note) -> Self {
        self.notes.push(note);
        self
    }

    /// Uses these type overrides for the labels.
    #[must_use]
    pub fn type_map(mut self, map: impl ServiceTypes + 'static) -> Self {
        self.type_map = Some(Arc::new(map));
        self
    }

    /// Draws labels, or not.
    #[must_use]
    pub fn labels(mut self, yes: bool) -> Self {
        self.labels = yes;
        self
    }

    /// Adds the legend band, or not.
    #[must_use]
    pub fn legend(mut self, yes: bool) -> Self {
        self.legend = yes;
        self
    }

    /// The colour of a signer: by its place in the roster, else by its rank
    /// among the other distinct signers (by name), after the roster.
    pub fn signer_colour(&self, signer: &str) -> Colour {
        let rank = match self.roster.iter().position(|s| s == signer) {
            Some(i) => i,
            None => {
                let mut distinct: Vec<&str> = self
                    .signers
                    .values()
                    .map(String::as_str)
                    .filter(|s| !self.roster.iter().any(|r| r == s))
                    .collect();
                distinct.sort_unstable();
                distinct.dedup();
                self.roster.len() + distinct.iter().position(|s| *s == signer).unwrap_or(0)
            }
        };
        SIGNER_COLOURS
            .get(rank % SIGNER_COLOURS.len())
            .copied()
            .unwrap_or(TAG_COLOUR)
    }
}

/// What a box stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoxKind {
    /// A `<# TAG #>` text tag.
    Tag,
    /// A form-field widget.
    Field,
}

/// One box of the overlay, in the page's own pixels (top-left of the displayed
/// page, y down): the scan's box with the page's `y_offset` taken off.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverlayBox {
    /// Tag or field.
    pub kind: BoxKind,
    /// The tag id (the raw tag when the id is empty) or the full field name.
    pub label: String,
    /// The service type (`signature`, `text`, ...); for what the service will
    /// not see, why: `invalid` (a tag with an invalid id), `left out`, or
    /// the field type with ` (left out)`.
    #[serde(rename = "type")]
    pub kind_label: String,
    /// The signer, when the style names one.
    pub signer: Option<String>,
    /// The value the style says is pre-filled, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Left edge, pixels.
    pub x: f64,
    /// Top edge, pixels from the top of this page.
    pub y: f64,
    /// Width, pixels.
    pub width: f64,
    /// Height, pixels.
    pub height: f64,
    /// A hidden tag (drawn hatched).
    pub hidden: bool,
    /// The worst finding on this box, when it is an error or a warning.
    pub severity: Option<Severity>,
    /// Codes of the findings on this box (any severity), in scan order.
    pub codes: Vec<Code>,
    /// The severity of each of `codes`.
    #[serde(skip)]
    pub severities: Vec<Severity>,
    /// Codes of the style's notes that name this box, in order (any severity;
    /// they count towards `severity`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub note_codes: Vec<String>,
    /// The severity of each of `note_codes`.
    #[serde(skip)]
    pub note_severities: Vec<Severity>,
    /// Fill colour: the signer's, else the tag or field colour.
    #[serde(serialize_with = "hex")]
    pub colour: Colour,
    /// Where its label is drawn and the text it shows: the
    /// [caption](OverlayBox::caption), shortened with `...` where the page
    /// has no room for all of it. `None` when labels are off, or when there
    /// is no room for a label that covers no other label or box and stays on
    /// the page ([`Overlay::place_labels`]).
    pub tab: Option<LabelTab>,
}

impl OverlayBox {
    /// The outline colour: red for an error, amber for a warning, else the fill colour.
    pub fn outline(&self) -> Colour {
        match self.severity {
            Some(Severity::Error) => ERROR_COLOUR,
            Some(Severity::Warning) => WARNING_COLOUR,
            _ => self.colour,
        }
    }

    /// The outline's width with the label font at `scale`: doubled for a
    /// box with a finding.
    pub(crate) fn stroke(&self, scale: u32) -> f64 {
        let stroke = f64::from(scale);
        if self.severity.is_some() {
            2.0 * stroke
        } else {
            stroke
        }
    }

    /// The label text, ASCII separators:
    /// `LABEL - TYPE[ - SIGNER][ = "VALUE"][ - hidden][ ! CODE]`, `CODE` the
    /// first finding (the scan's, then the notes') of the worst severity
    /// (errors and warnings only).
    pub fn caption(&self) -> String {
        let mut s = format!("{} - {}", self.label, self.kind_label);
        if let Some(signer) = &self.signer {
            s.push_str(" - ");
            s.push_str(signer);
        }
        if let Some(value) = &self.value {
            s.push_str(" = \"");
            s.push_str(value);
            s.push('"');
        }
        if self.hidden {
            s.push_str(" - hidden");
        }
        if let Some(code) = self.worst_finding() {
            s.push_str(" ! ");
            s.push_str(code);
        }
        s
    }

    /// The code of the first finding with the box's worst severity, the
    /// scan's before the notes' (errors and warnings only).
    pub fn worst_finding(&self) -> Option<&str> {
        let sev = self.severity?;
        self.worst_code().map(|c| c.as_str()).or_else(|| {
            self.note_codes
                .iter()
                .zip(&self.note_severities)
                .find(|(_, s)| **s == sev)
                .map(|(c, _)| c.as_str())
        })
    }

    /// The first finding with the box's worst severity (errors and warnings only).
    pub fn worst_code(&self) -> Option<Code> {
        let sev = self.severity?;
        self.codes
            .iter()
            .zip(&self.severities)
            .find(|(_, s)| **s == sev)
            .map(|(c, _)| *c)
    }
}

/// A finding about the page as a whole (no tag or field named).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageFinding {
    /// Its severity.
    pub severity: Severity,
    /// Its code.
    pub code: Code,
}

/// A finding from outside the scan, such as a request's (`signprep preview
/// --pack`): a data field naming a tag the PDF does not have, a signer the
/// pack does not list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    /// Its severity.
    pub severity: Severity,
    /// Its stable code (a pack finding's, say `custom_id_not_in_document`).
    pub code: String,
    /// What it says.
    pub message: String,
    /// The tag id or full field name it is about, when any: that box is
    /// outlined by the note's severity and its label may show the code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Note {
    /// A note about the document as a whole.
    pub fn new(severity: Severity, code: impl Into<String>, message: impl Into<String>) -> Self {
        Note {
            severity,
            code: code.into(),
            message: message.into(),
            name: None,
        }
    }

    /// About this tag id or full field name.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

/// Everything drawn over one page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Overlay {
    /// 0-based page index.
    pub page: usize,
    /// Displayed page width, pixels (as the scan reports it).
    pub width: f64,
    /// Displayed page height, pixels.
    pub height: f64,
    /// Tags, then form-field widgets, each in scan order.
    pub boxes: Vec<OverlayBox>,
    /// Findings about the page that name no tag or field.
    pub page_findings: Vec<PageFinding>,
    /// The signers on this page with their colours, sorted by name.
    pub signers: Vec<SignerColour>,
    /// The style's notes (findings from outside the scan), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A signer and its colour, for the legend.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SignerColour {
    /// The signer's name.
    pub signer: String,
    /// Its colour.
    #[serde(serialize_with = "hex")]
    pub colour: Colour,
}

fn hex<S: serde::Serializer>(c: &Colour, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]))
}

impl Overlay {
    /// The legend's signers of `boxes`: each signer a box names, with its
    /// colour, sorted by name, once. A caller that adds boxes to an overlay
    /// sets [`Overlay::signers`] from this again.
    pub fn signers_of(boxes: &[OverlayBox]) -> Vec<SignerColour> {
        let mut signers: Vec<SignerColour> = boxes
            .iter()
            .filter_map(|b| {
                b.signer.as_ref().map(|s| SignerColour {
                    signer: s.clone(),
                    colour: b.colour,
                })
            })
            .collect();
        signers.sort();
        signers.dedup();
        signers
    }

    /// The overlay of one page of a scan; `None` when the scan has no such page.
    pub fn for_page(scan: &Scan, page: usize, style: &Style) -> Option<Overlay> {
        let info = scan.pages.get(page)?;
        let types = style.type_map.as_deref();
        let mut boxes = Vec::new();
        for t in scan.tags.iter().filter(|t| t.page == page) {
            let label = if t.tag_id.is_empty() {
                t.raw.clone()
            } else {
                t.tag_id.clone()
            };
            let kind = t.service_type(types);
            let kind_label = match kind {
                Some(k) => k.to_string(),
                None if !t.valid => "invalid".to_string(),
                None => "left out".to_string(),
            };
            let findings = scan
                .diagnostics
                .iter()
                .filter(|d| d.page == Some(page) && d.tag.as_deref() == Some(&t.tag_id));
            boxes.push(make_box(
                BoxKind::Tag,
                &t.tag_id,
                label,
                kind_label,
                [t.x, t.y - info.y_offset, t.width, t.height],
                t.hidden,
                findings.map(|d| (d.severity, d.code)),
                style,
            ));
        }
        for f in scan.fields.iter().filter(|f| f.page == Some(page)) {
            let kind = f.service_type(types);
            let kind_label = match kind {
                Some(k) => k.to_string(),
                None => match f.kind {
                    Some(k) => format!("{} (left out)", k.as_str()),
                    None => "left out".to_string(),
                },
            };
            let findings = scan.diagnostics.iter().filter(|d| {
                d.field.as_deref() == Some(&f.name) && d.page.is_none_or(|p| p == page)
            });
            boxes.push(make_box(
                BoxKind::Field,
                &f.name,
                f.name.clone(),
                kind_label,
                [f.x, f.y - info.y_offset, f.width, f.height],
                false,
                findings.map(|d| (d.severity, d.code)),
                style,
            ));
        }
        let page_findings = scan
            .diagnostics
            .iter()
            .filter(|d| d.page == Some(page) && d.tag.is_none() && d.field.is_none())
            .map(|d| PageFinding {
                severity: d.severity,
                code: d.code,
            })
            .collect();
        let signers = Overlay::signers_of(&boxes);
        let mut overlay = Overlay {
            page,
            width: info.width,
            height: info.height,
            boxes,
            page_findings,
            signers,
            notes: style.notes.clone(),
        };
        if style.labels {
            overlay.place_labels();
        }
        Some(overlay)
    }

    /// Places every box's label ([`OverlayBox::tab`]): above its box where
    /// there is room, else below, right or left of it, never over another
    /// label or another box and never off the page, shortened with `...`
    /// when its whole caption does not fit; no label where there is no room
    /// for its first few characters. [`Overlay::for_page`] places them when
    /// the style draws labels; a caller that adds boxes places them again.
    pub fn place_labels(&mut self) {
        let scale = labels::text_scale(self.width);
        let items: Vec<labels::Labelled> = self
            .boxes
            .iter()
            .map(|b| labels::Labelled {
                rect: [b.x, b.y, b.width, b.height],
                stroke: b.stroke(scale),
                caption: b.caption(),
            })
            .collect();
        let tabs = labels::layout(&items, scale, self.width, self.height);
        for (b, tab) in self.boxes.iter_mut().zip(tabs) {
            b.tab = tab;
        }
    }

    /// Boxes whose label had no room (none is drawn for them).
    pub fn labels_left_out(&self) -> usize {
        self.boxes.iter().filter(|b| b.tab.is_none()).count()
    }
}

/// A box; `name` (the tag id or full field name) looks up the style's signer,
/// value and notes.
#[allow(clippy::too_many_arguments)]
fn make_box(
    kind: BoxKind,
    name: &str,
    label: String,
    kind_label: String,
    [x, y, width, height]: [f64; 4],
    hidden: bool,
    findings: impl Iterator<Item = (Severity, Code)>,
    style: &Style,
) -> OverlayBox {
    let mut severity: Option<Severity> = None;
    let mut codes = Vec::new();
    let mut severities = Vec::new();
    for (sev, code) in findings {
        // Two tags with the same id (two empty ones, say) each match both findings.
        if codes.contains(&code) {
            continue;
        }
        codes.push(code);
        severities.push(sev);
        if sev != Severity::Info {
            // Error < Warning in the enum's order.
            severity = Some(severity.map_or(sev, |s| s.min(sev)));
        }
    }
    let mut note_codes = Vec::new();
    let mut note_severities = Vec::new();
    for n in style
        .notes
        .iter()
        .filter(|n| n.name.as_deref() == Some(name))
    {
        if note_codes.contains(&n.code) {
            continue;
        }
        note_codes.push(n.code.clone());
        note_severities.push(n.severity);
        if n.severity != Severity::Info {
            severity = Some(severity.map_or(n.severity, |s| s.min(n.severity)));
        }
    }
    let signer = style.signers.get(name);
    let colour = match (signer, kind) {
        (Some(s), _) => style.signer_colour(s),
        (None, BoxKind::Tag) => TAG_COLOUR,
        (None, BoxKind::Field) => FIELD_COLOUR,
    };
    OverlayBox {
        kind,
        label,
        kind_label,
        signer: signer.cloned(),
        value: style.values.get(name).cloned(),
        x: round2(x),
        y: round2(y),
        width: round2(width),
        height: round2(height),
        hidden,
        severity,
        codes,
        severities,
        note_codes,
        note_severities,
        colour,
        tab: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roster_keeps_each_signers_colour_across_documents() {
        let one = Style::new().roster(["Ann", "Bob"]).signer("X", "Bob");
        let two = Style::new()
            .roster(["Ann", "Bob"])
            .signer("X", "Ann")
            .signer("Y", "Bob");
        assert_eq!(one.signer_colour("Bob"), two.signer_colour("Bob"));
        assert_ne!(two.signer_colour("Ann"), two.signer_colour("Bob"));
        // Without a roster: by rank among the style's signers.
        let alone = Style::new().signer("X", "Bob");
        assert_eq!(alone.signer_colour("Bob"), SIGNER_COLOURS[0]);
        // A signer outside the roster comes after it.
        assert_eq!(one.signer("Z", "Cy").signer_colour("Cy"), SIGNER_COLOURS[2]);
    }

    #[test]
    fn values_and_notes_reach_the_box_they_name() {
        let style = Style::new()
            .signer("DATE", "Ann")
            .value("DATE", "2025-01-31")
            .note(Note::new(Severity::Info, "tag_without_data_field", "i").name("DATE"))
            .note(Note::new(Severity::Error, "data_field_signer_unknown", "e").name("DATE"))
            .note(Note::new(Severity::Warning, "custom_id_not_in_document", "w").name("GONE"));
        let make = |findings: Vec<(Severity, Code)>| {
            make_box(
                BoxKind::Tag,
                "DATE",
                "DATE".into(),
                "text".into(),
                [1.0, 2.0, 3.0, 4.0],
                false,
                findings.into_iter(),
                &style,
            )
        };
        let b = make(Vec::new());
        assert_eq!(b.severity, Some(Severity::Error));
        assert_eq!(b.outline(), ERROR_COLOUR);
        assert_eq!(
            b.note_codes,
            ["tag_without_data_field", "data_field_signer_unknown"]
        );
        assert_eq!(
            b.caption(),
            "DATE - text - Ann = \"2025-01-31\" ! data_field_signer_unknown"
        );
        // The scan's own finding of the same severity is named first.
        let b = make(vec![(Severity::Error, Code::TagIdNotUppercase)]);
        assert_eq!(b.worst_finding(), Some("tag_id_not_uppercase"));
        // A note naming no box of the page changes none.
        let other = make_box(
            BoxKind::Field,
            "name",
            "name".into(),
            "text".into(),
            [0.0; 4],
            false,
            std::iter::empty(),
            &style,
        );
        assert_eq!((other.severity, other.value), (None, None));
        assert!(other.note_codes.is_empty());
    }
}
