//! DocuSign's tabs as signprep holds them: the tab lists and their kinds,
//! units, default sizes, one [`AnchorTab`] and the run's [`Anchors`] (the
//! rules are `docusign.rs`'s; the pack crate reads the team's JSON or TOML
//! into these, and `docusign.rs` finds them on a page).

use super::super::{Problem, VendorAttributes};
use crate::diag::{Code, Diagnostic};
use crate::geometry::Rect;
use memchr::memmem::Finder;
use std::sync::OnceLock;

/// Units of `anchorXOffset` and `anchorYOffset`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnchorUnits {
    /// DocuSign pixels: 72 per inch, so one point each (the default).
    #[default]
    Pixels,
    /// Points (1/72 in).
    Points,
    /// Inches.
    Inches,
    /// Millimetres (`mms`).
    Mms,
    /// Centimetres (`cms`).
    Cms,
}

impl AnchorUnits {
    /// `pixels`, `points`, `inches`, `mms` or `cms` (case-insensitive; also
    /// the singular and `millimeters`/`centimeters`, as the SOAP API named them).
    pub fn parse(s: &str) -> Option<AnchorUnits> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "pixels" | "pixel" | "px" => Some(AnchorUnits::Pixels),
            "points" | "point" | "pt" => Some(AnchorUnits::Points),
            "inches" | "inch" | "in" => Some(AnchorUnits::Inches),
            "mms" | "mm" | "millimeters" | "millimetres" => Some(AnchorUnits::Mms),
            "cms" | "cm" | "centimeters" | "centimetres" => Some(AnchorUnits::Cms),
            _ => None,
        }
    }

    /// `v` of these units in points.
    pub fn to_points(self, v: f64) -> f64 {
        match self {
            AnchorUnits::Pixels | AnchorUnits::Points => v,
            AnchorUnits::Inches => v * 72.0,
            AnchorUnits::Mms => v * 72.0 / 25.4,
            AnchorUnits::Cms => v * 72.0 / 2.54,
        }
    }

    /// The name DocuSign uses.
    pub fn as_str(self) -> &'static str {
        match self {
            AnchorUnits::Pixels => "pixels",
            AnchorUnits::Points => "points",
            AnchorUnits::Inches => "inches",
            AnchorUnits::Mms => "mms",
            AnchorUnits::Cms => "cms",
        }
    }
}

/// DocuSign's tab lists (the `tabs` object of a recipient) → the common kind
/// of [`VendorAttributes::kind`], and whether the signer cannot edit it.
/// Source: eSignature REST API reference, *EnvelopeRecipientTabs*.
const TAB_LISTS: &[(&str, &str, bool)] = &[
    ("signHereTabs", "signature", false),
    ("initialHereTabs", "initials", false),
    ("dateSignedTabs", "date_signed", false),
    ("dateTabs", "date", false),
    ("textTabs", "text", false),
    ("fullNameTabs", "name", false),
    ("firstNameTabs", "name", false),
    ("lastNameTabs", "name", false),
    ("emailAddressTabs", "email", false),
    ("emailTabs", "email", false),
    ("companyTabs", "company", false),
    ("titleTabs", "title", false),
    ("phoneNumberTabs", "phone", false),
    ("numberTabs", "number", false),
    ("numericalTabs", "number", false),
    ("ssnTabs", "text", false),
    ("zipTabs", "text", false),
    ("checkboxTabs", "checkbox", false),
    ("radioGroupTabs", "radio", false),
    ("listTabs", "dropdown", false),
    ("signerAttachmentTabs", "file", false),
    ("drawTabs", "image", false),
    ("notarizeTabs", "stamp", false),
    ("notarySealTabs", "stamp", false),
    ("stampTabs", "stamp", false),
    ("approveTabs", "button", false),
    ("declineTabs", "button", false),
    ("noteTabs", "text", true),
    ("formulaTabs", "text", true),
    ("envelopeIdTabs", "text", true),
    ("commissionCountyTabs", "text", false),
    ("commissionExpirationTabs", "date", false),
    ("commissionNumberTabs", "text", false),
    ("commissionStateTabs", "text", false),
    ("viewTabs", "unknown", false),
    ("smartSectionTabs", "unknown", false),
    ("polyLineOverlayTabs", "unknown", false),
    ("commentThreadTabs", "unknown", false),
];

/// Normalises `signHere`, `SignHereTabs`, `signhere` to the list name
/// (`signHereTabs`), or `None` for a list DocuSign does not name.
pub fn tab_list_name(s: &str) -> Option<&'static str> {
    let t = s.trim();
    let base = t
        .strip_suffix("Tabs")
        .or_else(|| t.strip_suffix("tabs"))
        .unwrap_or(t);
    TAB_LISTS.iter().map(|(l, _, _)| *l).find(|l| {
        l.strip_suffix("Tabs")
            .is_some_and(|b| b.eq_ignore_ascii_case(base))
    })
}

/// A list name DocuSign documents (`signHereTabs`, ...).
pub fn is_tab_list(name: &str) -> bool {
    TAB_LISTS.iter().any(|(l, _, _)| *l == name)
}

/// signprep's default field size for a tab list, in points (DocuSign
/// publishes none): sign here 120 x 40, initials 40 x 40, checkbox and
/// radio 12 x 12, every other tab 120 x 16.
pub fn default_size(list: &str) -> (f64, f64) {
    match list {
        "signHereTabs" => (120.0, 40.0),
        "initialHereTabs" => (40.0, 40.0),
        "checkboxTabs" | "radioGroupTabs" => (12.0, 12.0),
        _ => (120.0, 16.0),
    }
}

/// One anchor tab: a DocuSign tab placed by `anchorString`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AnchorTab {
    /// The tab list it came from (`signHereTabs`), or the type as written
    /// when DocuSign names no such list.
    pub list: String,
    /// `anchorString`.
    pub anchor: String,
    /// `anchorCaseSensitive` (default false).
    pub case_sensitive: bool,
    /// `anchorMatchWholeWord` (default false).
    pub whole_word: bool,
    /// `anchorIgnoreIfNotPresent` (default false).
    pub ignore_if_not_present: bool,
    /// `anchorHorizontalAlignment` is `right`.
    pub align_right: bool,
    /// `anchorXOffset`, in `units`.
    pub x_offset: f64,
    /// `anchorYOffset`, in `units` (down is positive).
    pub y_offset: f64,
    /// `anchorUnits`.
    pub units: AnchorUnits,
    /// `width`, pixels (points).
    pub width: Option<f64>,
    /// `height`, pixels (points).
    pub height: Option<f64>,
    /// `scaleValue` of sign-here and initial tabs.
    pub scale: Option<f64>,
    /// The recipient's `recipientId`.
    pub recipient_id: Option<String>,
    /// The recipient's `roleName`.
    pub role: Option<String>,
    /// `tabLabel`.
    pub label: Option<String>,
    /// `required` (or not `optional` for sign-here and initial tabs).
    pub required: bool,
    /// `locked`, or a tab only the sender fills (`prefillTabs`).
    pub read_only: bool,
    /// Filled by the sender (`prefillTabs`).
    pub sender: bool,
    /// `value`.
    pub value: Option<String>,
    /// Choices (`listItems`, a radio group's values).
    pub options: Vec<String>,
    /// Problems found reading the tab (reported where it matches).
    pub problems: Vec<String>,
}

impl AnchorTab {
    /// A tab of list `list` (`signHereTabs`, `signHere`) on `anchor`, with
    /// DocuSign's defaults. A list DocuSign does not name is kept as written
    /// and reported as an unknown type where it matches.
    pub fn new(list: &str, anchor: &str) -> AnchorTab {
        let name = tab_list_name(list).map_or_else(|| list.to_string(), str::to_string);
        AnchorTab {
            required: name != "checkboxTabs",
            list: name,
            anchor: anchor.to_string(),
            case_sensitive: false,
            whole_word: false,
            ignore_if_not_present: false,
            align_right: false,
            x_offset: 0.0,
            y_offset: 0.0,
            units: AnchorUnits::Pixels,
            width: None,
            height: None,
            scale: None,
            recipient_id: None,
            role: None,
            label: None,
            read_only: false,
            sender: false,
            value: None,
            options: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// The type as DocuSign names it (`signHere`).
    pub fn type_name(&self) -> &str {
        self.list.strip_suffix("Tabs").unwrap_or(&self.list)
    }

    /// What the tab says, in the common vocabulary.
    pub(super) fn attributes(&self) -> (VendorAttributes, Vec<Problem>) {
        let row = TAB_LISTS.iter().find(|(l, _, _)| *l == self.list);
        let mut problems: Vec<Problem> = self
            .problems
            .iter()
            .map(|p| Problem::Malformed(p.clone()))
            .collect();
        let kind = match row {
            Some((_, k, _)) if *k != "unknown" => (*k).to_string(),
            _ => {
                problems.push(Problem::UnknownType(self.list.clone()));
                "unknown".to_string()
            }
        };
        let mut extra = std::collections::BTreeMap::new();
        extra.insert("anchor_string".to_string(), self.anchor.clone());
        if self.x_offset != 0.0 || self.y_offset != 0.0 {
            extra.insert(
                "anchor_offset".to_string(),
                format!(
                    "{} {} {}",
                    self.x_offset,
                    self.y_offset,
                    self.units.as_str()
                ),
            );
        }
        if let Some(r) = &self.role {
            extra.insert("role_name".to_string(), r.clone());
        }
        if let Some(s) = self.scale {
            extra.insert("scale_value".to_string(), s.to_string());
        }
        match self.list.as_str() {
            "ssnTabs" => {
                extra.insert("validation".to_string(), "ssn".to_string());
            }
            "zipTabs" => {
                extra.insert("validation".to_string(), "zip".to_string());
            }
            _ => {}
        }
        let signer = if self.sender {
            Some("sender".to_string())
        } else {
            self.recipient_id.clone().or_else(|| self.role.clone())
        };
        let attrs = VendorAttributes {
            field_type: self.type_name().to_string(),
            kind,
            signer_index: self
                .recipient_id
                .as_deref()
                .and_then(|r| r.trim().parse::<u32>().ok())
                .filter(|n| *n > 0),
            signer,
            required: self.required,
            read_only: self.read_only || row.is_some_and(|(_, _, ro)| *ro),
            label: None,
            name: self.label.clone(),
            id: None,
            default: self.value.clone(),
            options: self.options.clone(),
            width: self.width,
            height: self.height,
            extra,
        };
        (attrs, problems)
    }

    /// Where DocuSign puts the tab for an anchor whose text box is `text`
    /// (displayed page units, y down) and whose last glyph box is `last`.
    pub(super) fn field_box(&self, text: &Rect, last: &Rect) -> Rect {
        let x = if self.align_right { last.x1 } else { text.x0 };
        let mut y = text.y0;
        if self.list == "signHereTabs" {
            y += 21.0;
        }
        let x = x + self.units.to_points(self.x_offset);
        let y = y + self.units.to_points(self.y_offset);
        let (dw, dh) = default_size(&self.list);
        let scale = match self.list.as_str() {
            "signHereTabs" | "initialHereTabs" => self.scale.unwrap_or(1.0).clamp(0.5, 2.0),
            _ => 1.0,
        };
        let w = self.width.filter(|w| *w > 0.0).unwrap_or(dw * scale);
        let h = self.height.filter(|h| *h > 0.0).unwrap_or(dh * scale);
        Rect::new(x, y, x + w, y + h)
    }
}

/// The anchor tabs of one run, in the order given, with what every page
/// and every document asks of each, worked out once per run: the piece of
/// its anchor a page's raw text must hold, and (when first needed) its
/// `vendor_anchor_not_found` finding's words.
#[derive(Clone, Debug, Default)]
pub struct Anchors {
    pub(super) tabs: Vec<AnchorTab>,
    pub(super) probes: Vec<Probe>,
    missing: Vec<OnceLock<Missing>>,
}

/// The tabs decide: the rest is worked out from them.
impl PartialEq for Anchors {
    fn eq(&self, other: &Anchors) -> bool {
        self.tabs == other.tabs
    }
}

/// What of an anchor a page's raw text must hold ([`may_contain`]), with its
/// searcher built once.
#[derive(Clone, Debug)]
pub(super) enum Probe {
    /// An empty anchor: never on a page.
    Never,
    /// Matched with case: this piece as it is.
    Exact(Finder<'static>),
    /// Matched without case, ASCII: this piece lower-cased.
    Lower(Finder<'static>),
    /// Matched without case, not ASCII: the lines decide.
    Always,
}

impl Probe {
    fn of(tab: &AnchorTab) -> Probe {
        let finder = |p: &[u8]| Finder::new(p).into_owned();
        match tab.anchor.split_whitespace().max_by_key(|p| p.len()) {
            None => Probe::Never,
            Some(piece) if tab.case_sensitive => Probe::Exact(finder(piece.as_bytes())),
            Some(piece) if piece.is_ascii() => {
                Probe::Lower(finder(piece.to_ascii_lowercase().as_bytes()))
            }
            Some(_) => Probe::Always,
        }
    }
}

/// A tab's `vendor_anchor_not_found` finding, but for the page count: the
/// message before and after it, and the first tab with the same anchor, type
/// and recipient (one finding for them all).
#[derive(Clone, Debug)]
struct Missing {
    before: String,
    after: String,
    first: usize,
}

impl Missing {
    fn of(tabs: &[AnchorTab], tab: &AnchorTab) -> Missing {
        let who = |t: &AnchorTab| {
            t.recipient_id
                .as_deref()
                .or(t.role.as_deref())
                .map(|r| format!(" for recipient {r}"))
                .unwrap_or_default()
        };
        let mine = who(tab);
        let first = tabs
            .iter()
            .position(|t| t.anchor == tab.anchor && t.list == tab.list && who(t) == mine)
            .unwrap_or(tabs.len());
        Missing {
            before: format!(
                "DocuSign {} tab{mine} anchors on `{}`, which is on none of the ",
                tab.type_name(),
                tab.anchor
            ),
            after: format!(
                " page(s){}; DocuSign would refuse the envelope, and no field is placed",
                if tab.case_sensitive {
                    " (case-sensitive)"
                } else {
                    ""
                },
            ),
            first,
        }
    }
}

impl Anchors {
    /// These tabs.
    pub fn new(tabs: Vec<AnchorTab>) -> Anchors {
        let mut out = Anchors::default();
        for tab in tabs {
            out.push(tab);
        }
        out
    }

    /// The tabs.
    pub fn tabs(&self) -> &[AnchorTab] {
        &self.tabs
    }

    /// Adds one.
    pub fn push(&mut self, tab: AnchorTab) {
        self.probes.push(Probe::of(&tab));
        self.tabs.push(tab);
        self.missing.push(OnceLock::new());
    }

    /// A `vendor_anchor_not_found` finding for each tab found on no page
    /// (`hit`, by tab) that does not say `anchorIgnoreIfNotPresent`: one per
    /// distinct anchor, type and recipient, in the order of the tabs.
    pub(crate) fn missing_findings(&self, hit: &[bool], pages: usize) -> Vec<Diagnostic> {
        let mut reported = vec![false; self.tabs.len()];
        let mut out = Vec::new();
        let count = pages.to_string();
        for ((tab, found), m) in self.tabs.iter().zip(hit).zip(&self.missing) {
            if *found || tab.ignore_if_not_present {
                continue;
            }
            let m = m.get_or_init(|| Missing::of(&self.tabs, tab));
            match reported.get_mut(m.first) {
                Some(r) if !*r => *r = true,
                _ => continue,
            }
            let mut message = String::with_capacity(m.before.len() + count.len() + m.after.len());
            message.push_str(&m.before);
            message.push_str(&count);
            message.push_str(&m.after);
            out.push(
                Diagnostic::new(Code::VendorAnchorNotFound, message)
                    .tag(tab.anchor.as_str())
                    .hint(MISSING_HINT),
            );
        }
        out
    }

    /// No tab.
    pub fn is_empty(&self) -> bool {
        self.tabs.is_empty()
    }
}

const MISSING_HINT: &str = "check the anchor text in the document (a typing slip, text turned into an image), or set anchorIgnoreIfNotPresent on the tab";
