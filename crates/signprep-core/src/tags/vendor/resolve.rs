//! A document's vendor tags, read as the vendors who wrote it read them.
//!
//! Pages are scanned in parallel ([`collect_page`]): each delimited candidate
//! is kept with every requested dialect's reading of it (parsed and
//! measured), and a tag left open at the foot of a page or closed at the top
//! of one is kept as a dangling piece. [`resolve_document`] then decides, for
//! the whole document:
//!
//! - **Which vendors wrote it.** A tag is *distinctive* for a dialect when it
//!   carries that grammar's own marks (Adobe `_es_`, a `:role` or a leading
//!   `*`/`!`; a DocuSeal `key=value` attribute; a signNow `t:` key; BoldSign
//!   `|`; Documenso `type, rN`; Dropbox `[a|b|c]` or a definition; a PandaDoc
//!   `{type:role}`). A bare `{{Name}}` is distinctive for nobody. The
//!   document's dialects are those with a distinctive tag, ranked by how many
//!   they have; a tie goes to the dialect whose first distinctive tag comes
//!   first in the document (pages in order, lines top to bottom), and then to
//!   the order of [`Dialect::ALL`].
//! - **Which grammar reads each tag.** A distinctive tag is read by the
//!   highest-ranked document dialect it is distinctive for; an ambiguous one
//!   (`{{Name}}`) by the highest-ranked document dialect that reads it (a
//!   signNow complex tag in a signNow document, a DocuSeal text field in a
//!   DocuSeal one). A `{{…}}` or `[[…]]` that no document dialect reads is a
//!   finding (`vendor_tag_unread`), not another vendor's field. A document
//!   with no distinctive tag at all is read as before: each tag by the first
//!   requested dialect, in a fixed order, that claims it. `--dialect NAME`
//!   asks for one grammar only, so it is the only one that reads.
//! - **Wrapped tags.** A tag broken over lines (two or more), or from the
//!   foot of one page to the top of the next, its pieces paired by column
//!   ([`wrap`]: a table's cells never borrow each other's continuations), is
//!   read whole where its vendor reads it so (signNow: broken before or after
//!   a `:` or `;`; the field starts where the tag starts), and is otherwise a
//!   `vendor_tag_split_across_lines` finding naming the tag and every place.
//! - **Dropbox Sign definitions.** `[def:$name|...]` places no field (it is
//!   kept, with kind `definition`, so that its text is known); each
//!   `[$name]` places the definition's field in its own box.

use super::{
    BoxRule, Candidate, Delim, Dialect, Dialects, FoundVendorTag, Parsed, Problem,
    VendorAttributes, box_rule, candidates, claims, contenders, docuseal, dropbox, field_box,
    measure, measure_span, parse, problem_diagnostic, signnow, split_outside, wrap,
};
use crate::content::PageText;
use crate::diag::{Code, Diagnostic};
use crate::geometry::Rect;
use crate::tags::{Lines, PageLines, glyphs_of, span};
use std::collections::BTreeMap;
use wrap::{Loose, Pieces};

/// One line's part of a tag: its text and where it was drawn.
#[derive(Clone, Debug)]
struct Piece {
    page: usize,
    text: String,
    bbox: Option<Rect>,
}

/// One dialect's reading of a candidate.
#[derive(Clone, Debug)]
struct Reading {
    dialect: Dialect,
    parsed: Parsed,
    /// The text carries this grammar's own marks.
    strong: bool,
    /// Measured as this vendor sizes the field (`None`: nothing drew it).
    tag: Option<FoundVendorTag>,
}

/// A delimited candidate and the readings of the dialects that claim it.
#[derive(Clone, Debug)]
struct Cand {
    page: usize,
    delim: Delim,
    /// The tag as written, its lines joined.
    raw: String,
    /// One piece per line (one for a tag on one line).
    pieces: Vec<Piece>,
    readings: Vec<Reading>,
}

/// A tag left open at the foot of a page (its pieces so far), or the close
/// at the top of one, and the column it is in (paired by it).
#[derive(Clone, Debug)]
struct Dangling {
    delim: Delim,
    pieces: Vec<Piece>,
    column: (f64, f64),
    /// The first piece measured once per requested dialect (foot pieces only).
    measured: Vec<FoundVendorTag>,
}

/// What one page holds for the document-wide reading.
#[derive(Clone, Debug, Default)]
pub(crate) struct PageVendor {
    cands: Vec<Cand>,
    foot: Vec<Dangling>,
    top: Vec<Dangling>,
}

impl PageVendor {
    /// Each candidate's text and the box of its first line.
    pub(crate) fn texts(&self) -> Vec<(String, Option<Rect>)> {
        self.cands
            .iter()
            .map(|c| (c.raw.clone(), c.pieces.first().and_then(|p| p.bbox)))
            .collect()
    }
}

/// The delimiters the requested dialects use (a close alone may end a tag
/// begun on the page before).
fn delims(dialects: Dialects, page: &PageText) -> Vec<Delim> {
    let want = |ds: &[Dialect]| ds.iter().any(|d| dialects.contains(*d));
    let mut kinds = Vec::with_capacity(4);
    if want(&[
        Dialect::Adobe,
        Dialect::Boldsign,
        Dialect::Docuseal,
        Dialect::Signnow,
        Dialect::Pandadoc,
        Dialect::Documenso,
    ]) && page.text.contains(['{', '}'])
    {
        kinds.extend([Delim::DoubleBrace, Delim::Brace]);
    }
    if want(&[Dialect::Dropbox, Dialect::Pandadoc, Dialect::Signnow])
        && page.text.contains(['[', ']'])
    {
        kinds.extend([Delim::Bracket, Delim::DoubleBracket]);
    }
    kinds
}

/// The text between the delimiters, trimmed.
fn inner_of(raw: &str, delim: Delim) -> &str {
    raw.strip_prefix(delim.open())
        .and_then(|r| r.strip_suffix(delim.close()))
        .unwrap_or_default()
        .trim()
}

/// The text carries dialect `d`'s own marks (`inner` is claimed by `d`).
fn strong(d: Dialect, inner: &str) -> bool {
    match d {
        Dialect::Adobe => {
            inner.contains("_es_")
                || inner.starts_with(['*', '!'])
                || split_outside(inner, ':').len() > 1
        }
        Dialect::Docuseal => inner.split(';').any(|part| {
            part.split_once('=')
                .is_some_and(|(k, _)| docuseal::is_attribute(k))
        }),
        Dialect::Signnow => signnow::is_simple(inner),
        Dialect::Dropbox => dropbox::reference(inner).is_none(),
        Dialect::Boldsign | Dialect::Pandadoc | Dialect::Documenso => true,
        Dialect::Docusign => false,
    }
}

/// The readings of `inner` by the requested dialects that claim it, most
/// specific first; `measure_as` sizes each one.
fn readings(
    delim: Delim,
    inner: &str,
    dialects: Dialects,
    mut measure_as: impl FnMut(Dialect, &VendorAttributes) -> Option<FoundVendorTag>,
) -> Vec<Reading> {
    contenders(delim, inner)
        .into_iter()
        .filter(|d| dialects.contains(*d) && claims(*d, inner))
        .map(|d| {
            let parsed = parse(d, inner);
            let tag = measure_as(d, &parsed.attrs);
            Reading {
                dialect: d,
                strong: strong(d, inner),
                parsed,
                tag,
            }
        })
        .collect()
}

/// The text of `start..end` of the lines, and (when `boxed`, for a tag
/// that may be reported in pieces) the box of the glyphs drawing it.
fn piece(
    page_index: usize,
    page: &PageText,
    lines: &Lines,
    (start, end): (usize, usize),
    boxed: bool,
) -> Piece {
    let bbox = boxed
        .then(|| span(page, &glyphs_of(lines, start, end)).map(|s| s.bbox))
        .flatten();
    Piece {
        page: page_index,
        text: lines.text.get(start..end).unwrap_or_default().to_string(),
        bbox,
    }
}

/// A tag measured without attributes, as dialect `d` reads it: an explicit
/// size as its `field` (the text box stays), as [`measure`] does. Its
/// attributes are the reading's, set once the document has chosen it.
fn sized(mut t: FoundVendorTag, d: Dialect, attrs: &VendorAttributes) -> FoundVendorTag {
    t.dialect = d;
    t.field = field_box(t.bbox, attrs);
    t
}

/// Every requested dialect's reading of the candidates on one page, and the
/// tags left open at its foot or closed at its top.
pub(crate) fn collect_page(
    page_index: usize,
    shared: &PageLines<'_>,
    dialects: Dialects,
) -> PageVendor {
    let page = shared.page();
    let kinds = delims(dialects, page);
    if kinds.is_empty() {
        return PageVendor::default();
    }
    let lines = shared.get();
    let text = lines.text.as_str();
    let mut all: Vec<(Delim, Pieces)> = Vec::new();
    let mut loose: Vec<(Delim, Vec<Loose>, Vec<Loose>)> = Vec::new();
    let mut segs: Option<Vec<wrap::Segment>> = None;
    for &delim in &kinds {
        let one_line: Vec<(usize, usize)> = candidates(text, delim)
            .into_iter()
            .map(|c| (c.start, c.end))
            .collect();
        // Wrapped tags are looked for only on a page with a delimiter left
        // open or closed on its line: the segments cost a pass over the glyphs.
        if wrap::may_wrap(text, delim) {
            let segs = segs.get_or_insert_with(|| wrap::segments(page, lines));
            let (whole, foot, top) = wrap::wrapped(text, segs, delim, &one_line);
            all.extend(whole.into_iter().map(|p| (delim, p)));
            loose.push((delim, foot, top));
        }
        all.extend(one_line.into_iter().map(|r| (delim, vec![r])));
    }
    all.sort_by_key(|(_, p)| p.first().map(|r| r.0));
    let mut out = PageVendor::default();
    for (delim, ranges) in all {
        let mut pieces: Vec<Piece> = ranges
            .iter()
            .enumerate()
            // The first piece's box is its span's, measured below once.
            .map(|(k, &r)| piece(page_index, page, lines, r, k > 0))
            .collect();
        let raw: String = pieces.iter().map(|p| p.text.as_str()).collect();
        // A wrapped tag is measured on its first line, where its field starts.
        let (a, b) = ranges.first().copied().unwrap_or_default();
        let first_span = span(page, &glyphs_of(lines, a, b));
        if let Some(p) = pieces.first_mut() {
            p.bbox = first_span.as_ref().map(|s| s.bbox);
        }
        // Measured once per box rule, then sized per reading.
        let mut base: [Option<Option<FoundVendorTag>>; 2] = [None, None];
        let rs = readings(delim, inner_of(&raw, delim), dialects, |d, attrs| {
            let slot = base.get_mut(usize::from(box_rule(d) == BoxRule::Whole))?;
            let t = slot.get_or_insert_with(|| {
                first_span
                    .as_ref()
                    .and_then(|s| measure_span(s, d, raw.clone(), VendorAttributes::default()))
            });
            t.clone().map(|t| sized(t, d, attrs))
        });
        if !rs.is_empty() {
            out.cands.push(Cand {
                page: page_index,
                delim,
                raw,
                pieces,
                readings: rs,
            });
        }
    }
    for (delim, foot, top) in loose {
        out.foot.extend(
            foot.into_iter()
                .map(|l| dangling_foot(page_index, page, lines, delim, dialects, l)),
        );
        out.top.extend(
            top.into_iter()
                .map(|l| dangling(page_index, page, lines, delim, l)),
        );
    }
    out
}

/// A tag's pieces at the foot of a page or the top of one, each boxed.
fn dangling(
    page_index: usize,
    page: &PageText,
    lines: &Lines,
    delim: Delim,
    loose: Loose,
) -> Dangling {
    Dangling {
        delim,
        pieces: loose
            .pieces
            .iter()
            .map(|&r| piece(page_index, page, lines, r, true))
            .collect(),
        column: loose.column,
        measured: Vec::new(),
    }
}

/// A tag left open at the foot of a page, its first piece measured as each
/// requested dialect measures a tag.
fn dangling_foot(
    page_index: usize,
    page: &PageText,
    lines: &Lines,
    delim: Delim,
    dialects: Dialects,
    loose: Loose,
) -> Dangling {
    let (start, end) = loose.pieces.first().copied().unwrap_or_default();
    let c = Candidate { delim, start, end };
    let measured = dialects
        .iter()
        .filter_map(|d| {
            measure(
                page,
                lines,
                c,
                d,
                String::new(),
                VendorAttributes::default(),
            )
        })
        .collect();
    Dangling {
        measured,
        ..dangling(page_index, page, lines, delim, loose)
    }
}

/// A tag continued from the foot of page `i` to the top of page `i + 1`.
fn joined(foot: &Dangling, top: &Dangling, dialects: Dialects) -> Option<Cand> {
    let raw: String = foot
        .pieces
        .iter()
        .chain(&top.pieces)
        .map(|p| p.text.as_str())
        .collect();
    let inner = inner_of(&raw, foot.delim);
    let rs = readings(foot.delim, inner, dialects, |d, attrs| {
        let mut t = foot.measured.iter().find(|t| t.dialect == d)?.clone();
        t.raw = raw.clone();
        // The text box stays the foot piece's; an explicit size is the
        // field's, as `measure` places it.
        Some(sized(t, d, attrs))
    });
    let page = foot.pieces.first()?.page;
    (!rs.is_empty()).then(|| Cand {
        page,
        delim: foot.delim,
        raw,
        pieces: foot.pieces.iter().chain(&top.pieces).cloned().collect(),
        readings: rs,
    })
}

/// The top piece of the next page that goes on from `feet[f]`: of its kind
/// of delimiters, the one whose column overlaps the foot's most; when no
/// column overlaps (pages laid out differently), the only top of its kind if
/// the foot is the only one of its kind too.
fn across(feet: &[Dangling], f: usize, tops: &[Dangling]) -> Option<usize> {
    let foot = feet.get(f)?;
    let overlap = |t: &Dangling| t.column.1.min(foot.column.1) - t.column.0.max(foot.column.0);
    let mut best: Option<(f64, usize)> = None;
    for (k, t) in tops.iter().enumerate() {
        let o = overlap(t);
        if t.delim == foot.delim && o > 0.0 && best.is_none_or(|(b, _)| o > b) {
            best = Some((o, k));
        }
    }
    if let Some((_, k)) = best {
        return Some(k);
    }
    let alone = |ds: &[Dangling]| ds.iter().filter(|d| d.delim == foot.delim).count() == 1;
    if alone(feet) && alone(tops) {
        return tops.iter().position(|t| t.delim == foot.delim);
    }
    None
}

/// The document's dialects, most distinctive tags first (ties: the first
/// distinctive tag in the document, then [`Dialect::ALL`] order).
fn rank(cands: &[Cand]) -> Vec<Dialect> {
    let mut score: BTreeMap<Dialect, (usize, usize)> = BTreeMap::new();
    for (i, c) in cands.iter().enumerate() {
        for r in c.readings.iter().filter(|r| r.strong) {
            let e = score.entry(r.dialect).or_insert((0, i));
            e.0 += 1;
        }
    }
    let mut ranked: Vec<(Dialect, (usize, usize))> = score.into_iter().collect();
    ranked.sort_by_key(|(d, (n, first))| (std::cmp::Reverse(*n), *first, *d));
    ranked.into_iter().map(|(d, _)| d).collect()
}

/// The reading a tag gets in a document of `ranked` dialects; `None`: none
/// of them reads it.
fn choose(c: &Cand, ranked: &[Dialect]) -> Option<usize> {
    if ranked.is_empty() {
        return (!c.readings.is_empty()).then_some(0);
    }
    let best = |strong_only: bool| {
        c.readings
            .iter()
            .enumerate()
            .filter(|(_, r)| !strong_only || r.strong)
            .filter_map(|(i, r)| Some((ranked.iter().position(|d| *d == r.dialect)?, i)))
            .min()
            .map(|(_, i)| i)
    };
    best(true).or_else(|| best(false))
}

/// `(x, y)` of a piece, for messages.
fn place(p: &Piece) -> String {
    match p.bbox {
        Some(b) => format!("page {} at ({:.1}, {:.1})", p.page + 1, b.x0, b.y0),
        None => format!("page {}", p.page + 1),
    }
}

fn split_finding(c: &Cand, d: Dialect) -> Diagnostic {
    let parts: Vec<String> = c
        .pieces
        .iter()
        .map(|p| format!("`{}` ({})", p.text.trim(), place(p)))
        .collect();
    let across = if c.pieces.iter().any(|p| p.page != c.page) {
        "across a page break".to_string()
    } else if c.pieces.len() > 2 {
        format!("over {} lines", c.pieces.len())
    } else {
        "across two lines".to_string()
    };
    let v = d.vendor();
    let why = if d == Dialect::Signnow {
        format!("{v} reads a tag broken only before or after a `:` or `;`")
    } else {
        format!("{v} reads a tag within one line")
    };
    Diagnostic::new(
        Code::VendorTagSplitAcrossLines,
        format!(
            "page {}: {v} tag `{}` is broken {across}: {}; {why}, so no field is placed",
            c.page + 1,
            c.raw,
            parts.join(" then ")
        ),
    )
    .page(c.page)
    .tag(c.raw.clone())
    .hint("keep the whole tag on one line (a smaller font, a wider column)")
}

fn unread_finding(c: &Cand, ranked: &[Dialect]) -> Diagnostic {
    let ours: Vec<&str> = ranked.iter().map(|d| d.vendor()).collect();
    let other: Vec<&str> = c.readings.iter().map(|r| r.dialect.vendor()).collect();
    let first = c.readings.first().map(|r| r.dialect);
    let mut d = Diagnostic::new(
        Code::VendorTagUnread,
        format!(
            "page {}: `{}` is not read as a tag: this document's tags are {}'s, whose grammar does not read it; {} would, but no other tag in the document is written in that grammar",
            c.page + 1,
            c.raw,
            ours.join(" and "),
            other.join(" or "),
        ),
    )
    .page(c.page)
    .tag(c.raw.clone());
    if let Some(f) = first {
        d = d.hint(format!(
            "if it is meant as a field, write it in the document's grammar; read with the dialect `{f}` alone, the document is {}'s",
            f.vendor()
        ));
    }
    d
}

fn visible_finding(t: &FoundVendorTag, page: usize) -> Diagnostic {
    Diagnostic::new(
        Code::VendorTagVisible,
        format!(
            "page {}: {} tag `{}` is painted visibly; the service does not remove tag text, so it will show under the placed field",
            page + 1,
            t.dialect.vendor(),
            t.raw
        ),
    )
    .page(page)
    .tag(t.raw.clone())
    .hint("paint the tag white (or render mode 3) in the source document, or check `signprep preview`")
}

/// Vendor syntax that places no field but whose text `migrate --strip`
/// removes all the same: a `{{…}}` no grammar of the document reads
/// (`vendor_tag_unread`), a tag broken over lines or pages
/// (`vendor_tag_split_across_lines`).
#[derive(Clone, Debug)]
pub(crate) struct Leftover {
    /// The text, its lines joined.
    pub(crate) raw: String,
    /// The box of its first line's glyphs (displayed page coordinates).
    pub(crate) bbox: Option<Rect>,
    /// The finding that reports it.
    pub(crate) code: Code,
    /// A text broken over lines: each line's piece (page, text, box), where
    /// `migrate --strip` looks for it (its lines need not follow each other
    /// in the page's text: a table's columns).
    pub(crate) pieces: Vec<(usize, String, Option<Rect>)>,
}

impl Leftover {
    fn of(c: &Cand, code: Code) -> Self {
        let pieces = if c.pieces.len() > 1 {
            c.pieces
                .iter()
                .map(|p| (p.page, p.text.clone(), p.bbox))
                .collect()
        } else {
            Vec::new()
        };
        Leftover {
            raw: c.raw.clone(),
            bbox: c.pieces.first().and_then(|p| p.bbox),
            code,
            pieces,
        }
    }
}

/// One page's share of the document's reading: the tags placed, the
/// findings and the leftovers, in line order.
pub(crate) type PageReading = (Vec<FoundVendorTag>, Vec<Diagnostic>, Vec<Leftover>);

/// Reads the document's tags from its pages' candidates: per page, the
/// tags placed, the findings and the leftovers, in page and line order.
pub(crate) fn resolve_document(pages: Vec<PageVendor>, dialects: Dialects) -> Vec<PageReading> {
    let n = pages.len();
    let mut cands: Vec<Cand> = Vec::new();
    let mut tops: Vec<Vec<Dangling>> = pages.iter().map(|p| p.top.clone()).collect();
    for (i, p) in pages.into_iter().enumerate() {
        cands.extend(p.cands);
        let Some(next) = tops.get_mut(i + 1) else {
            continue;
        };
        for (f, foot) in p.foot.iter().enumerate() {
            if let Some(k) = across(&p.foot, f, next)
                && let Some(c) = next.get(k).and_then(|top| joined(foot, top, dialects))
            {
                next.remove(k);
                cands.push(c);
            }
        }
    }
    let ranked = rank(&cands);
    let chosen: Vec<Option<usize>> = cands.iter().map(|c| choose(c, &ranked)).collect();

    // Dropbox Sign definitions, by name, for the references.
    let mut defs: BTreeMap<String, VendorAttributes> = BTreeMap::new();
    let mut referenced: BTreeMap<String, usize> = BTreeMap::new();
    for (c, ch) in cands.iter().zip(&chosen) {
        let Some(r) = ch.and_then(|i| c.readings.get(i)) else {
            continue;
        };
        if r.dialect != Dialect::Dropbox {
            continue;
        }
        if let Some(name) = r.parsed.attrs.extra.get("definition") {
            defs.entry(name.clone())
                .or_insert_with(|| r.parsed.attrs.clone());
        }
        if let Some(name) = r.parsed.attrs.extra.get("reference") {
            *referenced.entry(name.clone()).or_default() += 1;
        }
    }

    let mut out: Vec<PageReading> = (0..n)
        .map(|_| (Vec::new(), Vec::new(), Vec::new()))
        .collect();
    for (mut c, ch) in cands.into_iter().zip(chosen) {
        let Some((found, diags, left)) = out.get_mut(c.page) else {
            continue;
        };
        let Some(i) = ch.filter(|&i| i < c.readings.len()) else {
            if matches!(c.delim, Delim::DoubleBrace | Delim::DoubleBracket) {
                diags.push(unread_finding(&c, &ranked));
                left.push(Leftover::of(&c, Code::VendorTagUnread));
            }
            continue;
        };
        // The chosen reading is moved out, not copied: the others are done with.
        let r = c.readings.swap_remove(i);
        let d = r.dialect;
        if c.pieces.len() > 1 {
            let texts: Vec<&str> = c.pieces.iter().map(|p| p.text.as_str()).collect();
            if !(d == Dialect::Signnow && signnow::reads_wrapped(&texts)) {
                diags.push(split_finding(&c, d));
                left.push(Leftover::of(&c, Code::VendorTagSplitAcrossLines));
                continue;
            }
        }
        let mut parsed = r.parsed;
        if d == Dialect::Dropbox {
            dropbox_links(&mut parsed, &defs, &referenced);
        }
        for p in &parsed.problems {
            diags.push(problem_diagnostic(c.page, d, &c.raw, p));
        }
        let tag = r.tag.map(|mut t| {
            t.attrs = parsed.attrs;
            t
        });
        if let Some(t) = tag {
            if !t.hidden && !t.clipped {
                diags.push(visible_finding(&t, c.page));
            }
            found.push(t);
        }
    }
    out
}

/// A Dropbox Sign definition becomes kind `definition` (no field); a
/// reference takes its definition's attributes.
fn dropbox_links(
    p: &mut Parsed,
    defs: &BTreeMap<String, VendorAttributes>,
    referenced: &BTreeMap<String, usize>,
) {
    if let Some(name) = p.attrs.extra.get("definition").cloned() {
        if defs.get(&name) != Some(&p.attrs) {
            p.problem(Problem::Malformed(format!(
                "`${name}` is defined again; Dropbox Sign's references use the first definition"
            )));
        } else if !referenced.contains_key(&name) {
            p.problem(Problem::Malformed(format!(
                "defines `${name}`, but no `[${name}]` places it; a definition places no field"
            )));
        }
        p.attrs.kind = "definition".to_string();
    } else if let Some(name) = p.attrs.extra.get("reference").cloned() {
        match defs.get(&name) {
            Some(def) => {
                let mut attrs = def.clone();
                attrs.extra.remove("definition");
                attrs.extra.insert("reference".into(), name);
                p.attrs = attrs;
            }
            None => p.problem(Problem::Malformed(format!(
                "no `[def:${name}|...]` in the document defines it; Dropbox Sign places no field"
            ))),
        }
    }
}
