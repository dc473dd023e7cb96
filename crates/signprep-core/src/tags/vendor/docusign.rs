//! DocuSign anchor tabs ("auto-place", anchor tagging).
//!
//! DocuSign has no text-tag grammar: a team's tabs live in its envelope
//! definitions and templates, each tab naming an `anchorString` to look for
//! in the document. This module holds those tabs ([`AnchorTab`], read from
//! the team's JSON by the pack crate) and finds them on a page, with the
//! same lines and glyph boxes as every other dialect. The rules, as DocuSign
//! documents them:
//!
//! - **Every occurrence, every page.** "Docusign searches the document for
//!   instances of an anchorString ... For each found instance, it places a tab
//!   of the specified type for the designated recipient" (eSignature REST API,
//!   *Auto-Place (Anchor Tagging) Tabs*,
//!   developers.docusign.com/docs/esign-rest-api/esign101/concepts/tabs/auto-place).
//!   The text is matched within one line; an anchor is never matched across
//!   a line break.
//! - **Case.** `anchorCaseSensitive`: "when true, the text string in a
//!   document must match the case of the anchorString"; default false (the
//!   tab reference, e.g. *EnvelopeRecipientTabs / signHere*). Older SDK text
//!   words it backwards ("does not consider case ... default true"); signprep
//!   follows the current reference: case-insensitive unless `true`.
//! - **Whole word.** `anchorMatchWholeWord`, default false: "when set to true,
//!   if the input is `man` then `man` will match but `manpower`, `fireman`,
//!   and `penmanship` will not"; punctuation and `$~><|^+=` are not part of
//!   words, dashes separate words, digits are part of words (`-cat-` matches
//!   `cat`, `1cat2` does not), accented letters are distinct letters. A
//!   one-character anchor repeated in a row (`i` in `skiing`) places one tab.
//!   signprep reads a word character as a letter or digit (Unicode), so `_`
//!   is punctuation: `/sn1/____` matches `/sn1/` as a whole word.
//! - **Missing anchors.** `anchorIgnoreIfNotPresent`: "when set to true, this
//!   tab is ignored if anchorString is not found in the document"; otherwise
//!   DocuSign refuses the envelope. signprep reports such a tab
//!   (`vendor_anchor_not_found`) instead of failing the scan: one anchor file
//!   often serves several documents.
//! - **Placement.** `anchorHorizontalAlignment` `left` (default) "aligns the
//!   left side of the tab with the beginning of the first character of the
//!   matching anchor word", `right` "aligns the tab's left side with the last
//!   character"; `anchorXOffset`/`anchorYOffset` move the tab "in anchorUnits
//!   relative to the anchorString", y downwards as every DocuSign position
//!   (top-left origin). DocuSign does not publish the vertical reference point;
//!   signprep takes the top of the anchor text's box. `anchorUnits` is
//!   `pixels` (default), `points`, `inches`, `mms` or `cms`; "Docusign uses 72
//!   DPI when determining position" (`xPosition`), so a pixel is a point.
//!   For sign-here tabs the reference adds: "the tab appears 21 points lower
//!   than the value you provide for the y-coordinate", which signprep applies.
//! - **Size.** `width` and `height` are "in pixels"; sign-here and initial
//!   tabs are not sized by them but by `scaleValue` (0.5 to 2, "Tabs deep
//!   dive: anatomy of a tab", docusign.com/blog/developers). DocuSign publishes
//!   no default size per tab type; signprep's defaults ([`default_size`]) are
//!   its own, and the field box says so by coming from them.
//!
//! The text box of the match is the tag's `x, y, width, height`; where the
//! tab goes is its `field` box.

use super::{Dialect, FoundVendorTag, Problem, VendorAttributes, problem_diagnostic};
use crate::diag::{Code, Diagnostic};
use crate::geometry::Rect;
use crate::tags::{Lines, PageLines, glyphs_of, span};
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
    fn attributes(&self) -> (VendorAttributes, Vec<Problem>) {
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
    fn field_box(&self, text: &Rect, last: &Rect) -> Rect {
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
    tabs: Vec<AnchorTab>,
    probes: Vec<Probe>,
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
enum Probe {
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

/// A letter or digit: what `anchorMatchWholeWord` counts as part of a word.
fn word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// Byte ranges of `needle` in `hay`, left to right, not overlapping.
fn occurrences(hay: &str, needle: &str, case_sensitive: bool) -> Vec<(usize, usize)> {
    if needle.is_empty() {
        return Vec::new();
    }
    if case_sensitive {
        return hay
            .match_indices(needle)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
    }
    if needle.is_ascii() {
        // ASCII lower-casing keeps every byte offset.
        let h = hay.to_ascii_lowercase();
        let n = needle.to_ascii_lowercase();
        return h.match_indices(&n).map(|(i, m)| (i, i + m.len())).collect();
    }
    // Unicode: compare lower-cased characters from each character boundary.
    let lower: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    let mut out = Vec::new();
    let mut from = 0;
    for (i, _) in hay.char_indices() {
        if i < from {
            continue;
        }
        let (mut k, mut end) = (0, None);
        'chars: for (j, c) in hay[i..].char_indices() {
            for p in c.to_lowercase() {
                if lower.get(k) != Some(&p) {
                    break 'chars;
                }
                k += 1;
            }
            if k == lower.len() {
                end = Some(i + j + c.len_utf8());
                break;
            }
        }
        if let Some(e) = end {
            out.push((i, e));
            from = e;
        }
    }
    out
}

/// The matches of one tab's anchor in the page's lines, as DocuSign counts them.
fn matches(lines: &Lines, tab: &AnchorTab) -> Vec<(usize, usize)> {
    let text = &lines.text;
    let mut out: Vec<(usize, usize)> = Vec::new();
    let single = tab.anchor.chars().count() == 1;
    for (s, e) in occurrences(text, &tab.anchor, tab.case_sensitive) {
        if tab.whole_word {
            let before = text[..s].chars().next_back();
            let after = text[e..].chars().next();
            let first = tab.anchor.chars().next();
            let last = tab.anchor.chars().next_back();
            // A boundary is needed only where the anchor itself starts or
            // ends with a word character.
            if first.is_some_and(word_char) && before.is_some_and(word_char) {
                continue;
            }
            if last.is_some_and(word_char) && after.is_some_and(word_char) {
                continue;
            }
        }
        // One tab for a one-character anchor repeated in a row.
        if single && out.last().is_some_and(|&(_, pe)| pe == s) {
            if let Some(l) = out.last_mut() {
                l.1 = e;
            }
            continue;
        }
        out.push((s, e));
    }
    out
}

/// Cheap test on the page's raw text (`raw_lower`: lower-cased, when some
/// probe needs it): can the anchor be on this page at all? Lines only add
/// spaces and breaks between glyphs, so each whitespace-free piece of the
/// anchor must be in the raw text.
fn may_contain(raw: &str, raw_lower: Option<&str>, probe: &Probe) -> bool {
    match probe {
        Probe::Never => false,
        Probe::Exact(f) => f.find(raw.as_bytes()).is_some(),
        Probe::Lower(f) => raw_lower.is_some_and(|l| f.find(l.as_bytes()).is_some()),
        Probe::Always => true,
    }
}

/// What one page gave: the tabs found, their findings, and the indices of
/// the tabs whose anchor is on the page.
pub(crate) struct PageAnchors {
    pub(crate) found: Vec<FoundVendorTag>,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) hits: Vec<usize>,
}

/// Finds every anchor of `anchors` on one page.
pub(crate) fn find_anchor_tabs(
    page_index: usize,
    shared: &PageLines<'_>,
    anchors: &Anchors,
) -> PageAnchors {
    let page = shared.page();
    let mut out = PageAnchors {
        found: Vec::new(),
        diags: Vec::new(),
        hits: Vec::new(),
    };
    let lower = anchors
        .probes
        .iter()
        .any(|p| matches!(p, Probe::Lower(_)))
        .then(|| page.text.to_ascii_lowercase());
    let candidates: Vec<usize> = (0..anchors.tabs.len())
        .filter(|&i| {
            anchors
                .probes
                .get(i)
                .is_some_and(|p| may_contain(&page.text, lower.as_deref(), p))
        })
        .collect();
    if candidates.is_empty() {
        return out;
    }
    let lines = shared.get();
    let mut placed: Vec<(usize, usize, FoundVendorTag)> = Vec::new();
    for i in candidates {
        let Some(tab) = anchors.tabs.get(i) else {
            continue;
        };
        let found = matches(lines, tab);
        if found.is_empty() {
            continue;
        }
        out.hits.push(i);
        for (s, e) in found {
            let glyphs = glyphs_of(lines, s, e);
            let Some(sp) = span(page, &glyphs) else {
                continue;
            };
            let last = glyphs
                .last()
                .and_then(|g| page.glyphs.get(*g as usize))
                .map_or(sp.bbox, |g| page.bbox(g));
            let raw = lines.text.get(s..e).unwrap_or_default().to_string();
            let (attrs, problems) = tab.attributes();
            for p in &problems {
                out.diags
                    .push(problem_diagnostic(page_index, Dialect::Docusign, &raw, p));
            }
            if !sp.hidden && !sp.clipped {
                out.diags.push(
                    Diagnostic::new(
                        Code::VendorTagVisible,
                        format!(
                            "page {}: DocuSign anchor `{raw}` is painted visibly; the service does not remove anchor text, so it will show under the placed field",
                            page_index + 1
                        ),
                    )
                    .page(page_index)
                    .tag(raw.clone())
                    .hint("paint the anchor white (or render mode 3) in the source document, or check `signprep preview`"),
                );
            }
            let field = tab.field_box(&sp.bbox, &last);
            placed.push((
                s,
                i,
                FoundVendorTag {
                    dialect: Dialect::Docusign,
                    raw,
                    attrs,
                    bbox: sp.bbox,
                    field: Some(field),
                    font: sp.font,
                    font_size: sp.font_size,
                    hidden: sp.hidden,
                    clipped: sp.clipped,
                },
            ));
        }
    }
    // Line order, then the order of the anchor file.
    placed.sort_by_key(|(s, i, _)| (*s, *i));
    out.found = placed.into_iter().map(|(_, _, t)| t).collect();
    out
}

#[cfg(test)]
mod tests;
