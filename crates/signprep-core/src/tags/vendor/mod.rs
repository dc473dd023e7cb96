//! Other e-signature vendors' text tags ("dialects"), read from the same
//! lines as the native `<# TAG #>` (see [`super::build_lines`]) and measured
//! by the same glyph boxes ([`super::span`]).
//!
//! Each dialect module knows its grammar as its vendor documents it: which
//! inner texts it claims, how they parse into [`VendorAttributes`] and which
//! box the vendor would give the field. This module finds the delimited
//! candidates on a page (`{{…}}`, `[[…]]`, `[…]`, `{…}`) and the dialects
//! that claim each; [`resolve`] decides per document which vendors wrote it
//! and reads each tag with one of their grammars, and turns grammar problems
//! into findings.

mod adobe;
mod annotation;
mod boldsign;
mod docuseal;
mod docusign;
mod dropbox;
mod pandadoc;
mod signnow;
mod text;

mod documenso;
mod output;
mod resolve;
mod wrap;
pub(crate) use annotation::annotation_findings;
pub use output::{FieldBox, VendorTag};
pub(crate) use resolve::{Leftover, PageVendor, collect_page, resolve_document};
pub use text::{TextTag, find_text_tags};

use super::{Lines, glyphs_of, span};
use crate::content::PageText;
use crate::diag::{Code, Diagnostic};
use crate::geometry::Rect;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

pub(crate) use docusign::find_anchor_tabs;
pub use docusign::{AnchorTab, AnchorUnits, Anchors, default_size, is_tab_list, tab_list_name};

/// A vendor whose text tags signprep reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// Adobe Acrobat Sign: `{{Sig_es_:signer1:signature}}`.
    Adobe,
    /// Dropbox Sign (HelloSign): `[sig|req|signer1]`.
    Dropbox,
    /// BoldSign: `{{sign|1|*|Label|id}}`.
    Boldsign,
    /// DocuSeal: `{{Name;type=signature;role=Client}}`.
    Docuseal,
    /// signNow simple text tags: `{{t:s;r:y;o:"Client";}}`.
    Signnow,
    /// PandaDoc field tags: `{signature:Client___}` or `[signature:Client___]`.
    Pandadoc,
    /// Documenso PDF placeholders: `{{signature, r1}}`.
    Documenso,
    /// DocuSign anchor tabs: no grammar, the tabs of an envelope definition
    /// or template matched by `anchorString` (`--anchors`); never part of
    /// [`Dialect::ALL`] or of a `--dialect` list.
    Docusign,
}

impl Dialect {
    /// Every dialect, in the order `--dialect all` lists them.
    pub const ALL: [Dialect; 7] = [
        Dialect::Adobe,
        Dialect::Dropbox,
        Dialect::Boldsign,
        Dialect::Docuseal,
        Dialect::Signnow,
        Dialect::Pandadoc,
        Dialect::Documenso,
    ];

    /// The name used on the command line and in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Adobe => "adobe",
            Dialect::Dropbox => "dropbox",
            Dialect::Boldsign => "boldsign",
            Dialect::Docuseal => "docuseal",
            Dialect::Signnow => "signnow",
            Dialect::Pandadoc => "pandadoc",
            Dialect::Documenso => "documenso",
            Dialect::Docusign => "docusign",
        }
    }

    /// The vendor's name, for messages.
    pub fn vendor(self) -> &'static str {
        match self {
            Dialect::Adobe => "Adobe Acrobat Sign",
            Dialect::Dropbox => "Dropbox Sign",
            Dialect::Boldsign => "BoldSign",
            Dialect::Docuseal => "DocuSeal",
            Dialect::Signnow => "signNow",
            Dialect::Pandadoc => "PandaDoc",
            Dialect::Documenso => "Documenso",
            Dialect::Docusign => "DocuSign",
        }
    }

    /// Looks a dialect up by name (also `acrobat`, `hellosign`).
    pub fn from_name(name: &str) -> Option<Dialect> {
        let n = name.trim().to_ascii_lowercase();
        match n.as_str() {
            "adobe" | "acrobat" | "acrobat-sign" => Some(Dialect::Adobe),
            "dropbox" | "dropbox-sign" | "hellosign" => Some(Dialect::Dropbox),
            "boldsign" => Some(Dialect::Boldsign),
            "docuseal" => Some(Dialect::Docuseal),
            "signnow" => Some(Dialect::Signnow),
            "pandadoc" => Some(Dialect::Pandadoc),
            "documenso" => Some(Dialect::Documenso),
            _ => None,
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of dialects; empty (the default) reads the native tags only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dialects(u8);

/// Why a dialect list was refused. The one parser of a dialect list is
/// [`Dialects::parse`]; a front end (the command line, `serve`, the Python
/// package) words [`DialectError::Docusign`]'s way out in its own terms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DialectError {
    /// A name that is no dialect.
    #[error(
        "unknown dialect `{0}`: expected all, adobe, dropbox, boldsign, docuseal, signnow, pandadoc or documenso"
    )]
    Unknown(String),
    /// `docusign`: DocuSign has no text-tag grammar to read; its tabs are
    /// found by the anchor strings of an envelope definition or template
    /// ([`Anchors`], [`Scanner::anchors`](crate::Scanner::anchors)).
    #[error(
        "DocuSign has no text-tag grammar: its tabs are found by the anchor strings of an envelope definition or template"
    )]
    Docusign,
}

impl Dialects {
    /// No dialect: native tags only.
    pub const NONE: Dialects = Dialects(0);

    /// Every dialect.
    pub fn all() -> Dialects {
        Dialect::ALL.iter().copied().collect()
    }

    /// Parses `adobe,dropbox` or `all` (case-insensitive, commas or spaces).
    /// `docusign` anywhere in the list is [`DialectError::Docusign`] (it
    /// has no text tags to read), before any unknown name.
    pub fn parse(list: &str) -> Result<Dialects, DialectError> {
        let names = || list.split([',', ' ']).filter(|s| !s.trim().is_empty());
        if names().any(|n| n.trim().eq_ignore_ascii_case("docusign")) {
            return Err(DialectError::Docusign);
        }
        let mut set = Dialects::NONE;
        for name in names() {
            if name.trim().eq_ignore_ascii_case("all") {
                set = Dialects::all();
            } else {
                let d = Dialect::from_name(name)
                    .ok_or_else(|| DialectError::Unknown(name.to_string()))?;
                set.0 |= d.bit();
            }
        }
        Ok(set)
    }

    /// True when no dialect is asked for.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `d` is in the set.
    pub fn contains(self, d: Dialect) -> bool {
        self.0 & d.bit() != 0
    }

    /// The dialects of the set, in [`Dialect::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Dialect> {
        Dialect::ALL.into_iter().filter(move |d| self.contains(*d))
    }
}

impl FromIterator<Dialect> for Dialects {
    fn from_iter<I: IntoIterator<Item = Dialect>>(iter: I) -> Self {
        Dialects(iter.into_iter().fold(0, |acc, d| acc | d.bit()))
    }
}

/// What a vendor tag says, parsed as its vendor documents the grammar.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct VendorAttributes {
    /// The field type as written in the tag (`sig`, `s`, `signature`, …).
    #[serde(rename = "type")]
    pub field_type: String,
    /// The type in one vocabulary across vendors: `signature`, `initials`,
    /// `text`, `date`, `date_signed`, `checkbox`, `radio`, `dropdown`,
    /// `file`, `image`, `stamp`, `name`, `email`, `company`, `title`,
    /// `phone`, `payment`, `multiple`, `number`, `definition` (a Dropbox Sign
    /// definition tag, which places no field), `button` (DocuSign approve and
    /// decline), or `unknown`.
    pub kind: String,
    /// The signer or role as written (`signer1`, `Client`, `1`, `sender`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer: Option<String>,
    /// The 1-based signer number, where the grammar numbers signers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer_index: Option<u32>,
    /// Must be filled in (the vendor's default applied when the tag is silent).
    pub required: bool,
    /// The signer cannot change it.
    pub read_only: bool,
    /// Label or placeholder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Field name (Adobe, DocuSeal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Field id (Dropbox, BoldSign, PandaDoc).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Default or pre-filled value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Choices of a select, radio or dropdown field.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// Explicit width written in the tag (DocuSeal `width=`, signNow `w:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Explicit height written in the tag (DocuSeal `height=`, signNow `h:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// Everything else the tag sets (Adobe directives, signNow validator, …).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, String>,
}

/// A grammar problem of one tag.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Problem {
    UnknownType(String),
    Malformed(String),
    SignerOutOfRange(String),
    /// The tag holds only a place; what it is lives elsewhere (why).
    DefinedElsewhere(String),
}

/// A dialect's reading of one tag: its attributes and what is wrong with it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Parsed {
    pub(crate) attrs: VendorAttributes,
    pub(crate) problems: Vec<Problem>,
}

impl Parsed {
    fn problem(&mut self, p: Problem) {
        self.problems.push(p);
    }
}

/// How a vendor sizes the field from its tag.
#[derive(Clone, Copy, Debug, PartialEq)]
enum BoxRule {
    /// The box of the whole tag, delimiters included.
    Whole,
    /// Adobe: the length of the whole tag, the height of its first `{`.
    FirstBraceHeight,
}

/// The delimiters a candidate was found between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delim {
    /// `{{ … }}`
    DoubleBrace,
    /// `[ … ]`
    Bracket,
    /// `{ … }` (single)
    Brace,
    /// `[[ … ]]`
    DoubleBracket,
}

impl Delim {
    fn open(self) -> &'static str {
        match self {
            Delim::DoubleBrace => "{{",
            Delim::Bracket => "[",
            Delim::Brace => "{",
            Delim::DoubleBracket => "[[",
        }
    }

    fn close(self) -> &'static str {
        match self {
            Delim::DoubleBrace => "}}",
            Delim::Bracket => "]",
            Delim::Brace => "}",
            Delim::DoubleBracket => "]]",
        }
    }
}

/// The dialects that may claim a candidate between these delimiters, most
/// specific first; the first requested one whose grammar claims it wins.
fn contenders(delim: Delim, inner: &str) -> Vec<Dialect> {
    match delim {
        Delim::Bracket => vec![Dialect::Dropbox, Dialect::Pandadoc, Dialect::Signnow],
        Delim::Brace => vec![Dialect::Pandadoc, Dialect::Signnow],
        Delim::DoubleBracket => vec![Dialect::Signnow],
        Delim::DoubleBrace => {
            // The grammars overlap; the one whose marks the text carries goes first.
            let mut order = Vec::with_capacity(6);
            if documenso::claims(inner) {
                order.push(Dialect::Documenso);
            }
            if signnow::is_simple(inner) {
                order.push(Dialect::Signnow);
            }
            if inner.contains('|') {
                order.push(Dialect::Boldsign);
            }
            if inner.contains("_es_") || inner.starts_with(['*', '!']) {
                order.extend([Dialect::Adobe, Dialect::Docuseal]);
            } else {
                order.extend([Dialect::Docuseal, Dialect::Adobe]);
            }
            // A bare name is also a signNow complex tag, read last.
            if !order.contains(&Dialect::Signnow) {
                order.push(Dialect::Signnow);
            }
            order
        }
    }
}

fn claims(d: Dialect, inner: &str) -> bool {
    match d {
        Dialect::Adobe => adobe::claims(inner),
        Dialect::Dropbox => dropbox::claims(inner),
        Dialect::Boldsign => boldsign::claims(inner),
        Dialect::Docuseal => docuseal::claims(inner),
        Dialect::Signnow => signnow::claims(inner),
        Dialect::Pandadoc => pandadoc::claims(inner),
        Dialect::Documenso => documenso::claims(inner),
        Dialect::Docusign => false,
    }
}

/// Parses the text between the delimiters (trimmed) as dialect `d`.
pub(crate) fn parse(d: Dialect, inner: &str) -> Parsed {
    match d {
        Dialect::Adobe => adobe::parse(inner),
        Dialect::Dropbox => dropbox::parse(inner),
        Dialect::Boldsign => boldsign::parse(inner),
        Dialect::Docuseal => docuseal::parse(inner),
        Dialect::Signnow => signnow::parse(inner),
        Dialect::Pandadoc => pandadoc::parse(inner),
        Dialect::Documenso => documenso::parse(inner),
        Dialect::Docusign => Parsed::default(),
    }
}

fn box_rule(d: Dialect) -> BoxRule {
    match d {
        Dialect::Adobe => BoxRule::FirstBraceHeight,
        _ => BoxRule::Whole,
    }
}

/// One delimited piece of a page's lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Candidate {
    delim: Delim,
    start: usize,
    end: usize,
}

impl Candidate {
    #[cfg(test)]
    fn inner<'t>(&self, text: &'t str) -> &'t str {
        let open = self.delim.open().len();
        let close = self.delim.close().len();
        text.get(self.start + open..self.end - close)
            .unwrap_or_default()
    }
}

/// The character a single delimiter doubles to (`{` for `{`, `[` for `[`).
fn single(delim: Delim) -> Option<char> {
    match delim {
        Delim::Brace => Some('{'),
        Delim::Bracket => Some('['),
        Delim::DoubleBrace | Delim::DoubleBracket => None,
    }
}

/// The candidates between one kind of delimiters, left to right: an open,
/// then the first close on its line (a nearer open restarts). A tag wrapped
/// over lines is paired by column in [`wrap`].
fn candidates(text: &str, delim: Delim) -> Vec<Candidate> {
    let (open, close) = (delim.open(), delim.close());
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = text.get(i..).and_then(|t| t.find(open)) {
        let start = i + off;
        let body = start + open.len();
        if let Some(ch) = single(delim)
            && (text[..start].ends_with(ch) || text[body..].starts_with(ch))
        {
            i = body;
            continue;
        }
        // Only this line is searched: a tag wrapped onto another is paired
        // by its column ([`wrap`]).
        let window = text[body..].find('\n').map_or(text.len(), |k| body + k);
        let rest = &text[body..window];
        let next_open = rest.find(open);
        let Some(c) = rest.find(close) else {
            i = body;
            continue;
        };
        if let Some(o) = next_open.filter(|&o| o < c) {
            i = body + o;
            continue;
        }
        let end = body + c + close.len();
        if !single(delim).is_some_and(|_| text[end..].starts_with(close)) {
            out.push(Candidate { delim, start, end });
        }
        i = end;
    }
    out
}

/// A vendor tag found on a page, before scaling to output units.
#[derive(Clone, Debug)]
pub(crate) struct FoundVendorTag {
    pub(crate) dialect: Dialect,
    pub(crate) raw: String,
    pub(crate) attrs: VendorAttributes,
    /// The box of the tag's text as the vendor measures it, displayed
    /// user-space units.
    pub(crate) bbox: Rect,
    /// Where the vendor places the field, when not on the text box (an
    /// explicit size, DocuSign offsets and sizes).
    pub(crate) field: Option<Rect>,
    pub(crate) font: String,
    pub(crate) font_size: f64,
    pub(crate) hidden: bool,
    /// Entirely outside the clip (not painted, though not `hidden`).
    pub(crate) clipped: bool,
}

fn problem_diagnostic(page_index: usize, d: Dialect, raw: &str, p: &Problem) -> Diagnostic {
    let p1 = page_index + 1;
    let v = d.vendor();
    let (code, msg) = match p {
        Problem::UnknownType(t) => (
            Code::VendorTagUnknownType,
            format!(
                "page {p1}: {v} tag `{raw}` has the field type `{t}`, which {v} does not document"
            ),
        ),
        Problem::Malformed(why) => (
            Code::VendorTagMalformed,
            format!("page {p1}: {v} tag `{raw}`: {why}"),
        ),
        Problem::SignerOutOfRange(s) => (
            Code::VendorTagSignerOutOfRange,
            format!(
                "page {p1}: {v} tag `{raw}` names signer `{s}`, outside the signers {v} numbers (from 1)"
            ),
        ),
        Problem::DefinedElsewhere(why) => (
            Code::VendorTagDefinedElsewhere,
            format!("page {p1}: {v} tag `{raw}`: {why}"),
        ),
    };
    Diagnostic::new(code, msg).page(page_index).tag(raw)
}

/// Where a tag with an explicit size (DocuSeal `width=`/`height=`, signNow
/// `w:`/`h:`) places its field: that size, from the text box's top-left
/// corner; `None` without one (the field is the text box). The tag keeps the
/// box of its text.
pub(crate) fn field_box(bbox: Rect, attrs: &VendorAttributes) -> Option<Rect> {
    let (w, h) = (
        attrs.width.filter(|w| *w > 0.0),
        attrs.height.filter(|h| *h > 0.0),
    );
    (w.is_some() || h.is_some()).then(|| {
        Rect::new(
            bbox.x0,
            bbox.y0,
            w.map_or(bbox.x1, |w| bbox.x0 + w),
            h.map_or(bbox.y1, |h| bbox.y0 + h),
        )
    })
}

/// Measures a tag the way its vendor sizes the field.
fn measure(
    page: &PageText,
    lines: &Lines,
    c: Candidate,
    d: Dialect,
    raw: String,
    attrs: VendorAttributes,
) -> Option<FoundVendorTag> {
    let glyphs = glyphs_of(lines, c.start, c.end);
    measure_span(&span(page, &glyphs)?, d, raw, attrs)
}

/// [`measure`] of a candidate whose glyphs' [`Span`](crate::tags::Span) is
/// known (the caller measured it once for several uses).
fn measure_span(
    s: &crate::tags::Span,
    d: Dialect,
    raw: String,
    attrs: VendorAttributes,
) -> Option<FoundVendorTag> {
    let bbox = match box_rule(d) {
        BoxRule::Whole => s.bbox,
        BoxRule::FirstBraceHeight if s.vertical => {
            Rect::new(s.first.x0, s.bbox.y0, s.first.x1, s.bbox.y1)
        }
        BoxRule::FirstBraceHeight => Rect::new(s.bbox.x0, s.first.y0, s.bbox.x1, s.first.y1),
    };
    let field = field_box(bbox, &attrs);
    Some(FoundVendorTag {
        dialect: d,
        raw,
        attrs,
        bbox,
        field,
        font: s.font.clone(),
        font_size: s.font_size,
        hidden: s.hidden,
        clipped: s.clipped,
    })
}

/// Splits on `sep` outside double quotes and parentheses.
pub(crate) fn split_outside(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut from) = (0i32, false, 0);
    for (i, ch) in s.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth -= 1,
            c if c == sep && !quoted && depth <= 0 => {
                out.push(&s[from..i]);
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out
}

/// `"text"` → `text`; other text trimmed.
pub(crate) fn unquote(s: &str) -> &str {
    let t = s.trim();
    t.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(t)
}

/// `signer3` → `Some(3)`; `signer` alone → `None`.
pub(crate) fn numbered(s: &str, prefix: &str) -> Option<Option<u32>> {
    let rest = s.strip_prefix(prefix)?;
    if rest.is_empty() {
        return Some(None);
    }
    rest.parse().ok().map(Some)
}

/// Records a numbered signer, with a problem when it is 0.
pub(crate) fn set_signer_index(p: &mut Parsed, written: &str, n: u32) {
    if n == 0 {
        p.problem(Problem::SignerOutOfRange(written.to_string()));
    } else {
        p.attrs.signer_index = Some(n);
    }
}

/// Non-empty trimmed text, or `None`.
pub(crate) fn some(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

#[cfg(test)]
mod tests;
