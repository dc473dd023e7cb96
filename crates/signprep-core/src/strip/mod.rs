//! `migrate --strip`: a copy of the PDF without the text of the vendor tags a
//! migration placed fields for.
//!
//! Every page is interpreted again with provenance
//! ([`crate::content::interpret_page_traced`]): each glyph says which stream,
//! operator, string operand and bytes drew it. A tag's glyphs are found as a
//! scan found them (the page's lines, the tag's text at the tag's box); each
//! is taken out of its string and replaced by the `TJ` number equal to its
//! advance, so nothing else on the line moves ([`rewrite`]). A stream is
//! changed only where a removed glyph was: every other operator keeps its
//! bytes. A stream drawn more than once (a Form XObject on several pages, one
//! content stream listed by several pages) is changed only when every glyph
//! the change removes belongs to a stripped tag wherever it is drawn; a tag
//! that cannot be removed exactly is left, with a `strip_tag_kept` finding.
//! Vendor syntax that places no field (an unread `{{...}}`, a tag broken
//! over lines or pages) is removed the same way, every piece of it. Text an
//! annotation's appearance draws is not touched: it is no tag
//! (`vendor_tag_in_annotation`, see `tags/vendor/annotation.rs`).
//! The copy is the input with an incremental update appended
//! ([`Document::incremental_update`]).

mod find;
mod rewrite;

use crate::content::{PageText, Trace, interpret_page_traced};
use crate::diag::{Code, Diagnostic};
use crate::document::{Document, Error, ObjectId};
use crate::resources::Resources;
use crate::scan::{PageInfo, VendorText};
use crate::stream_cache::Reuse;
use crate::tags::vendor::VendorTag;
use find::{Finder, Target};
use rayon::prelude::*;
use rewrite::{Edits, Removal};
use std::collections::{BTreeMap, BTreeSet};

/// A stripped copy of a PDF, and what could not be stripped.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Stripped {
    /// The copy: the input with an incremental update appended (the input
    /// itself when no glyph was removed). `None` when no copy can be written
    /// (an encrypted or damaged file: see `diagnostics`).
    pub pdf: Option<Vec<u8>>,
    /// For each tag asked about, in order: whether its text was removed.
    pub removed: Vec<bool>,
    /// `strip_tag_kept` for each tag left, `strip_refused` when there is no
    /// copy, `strip_signature_invalidated` for a signed document.
    pub diagnostics: Vec<Diagnostic>,
}

/// Where one glyph's code is: the stream object, the operator's span in its
/// decoded bytes, the string operand and the code's bytes in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    stream: ObjectId,
    op: (usize, usize),
    string: u16,
    bytes: (u32, u32),
}

/// One tag's plan: its glyphs' keys and `TJ` numbers, or why it stays.
#[derive(Debug)]
enum Plan {
    /// `glyphs` (page, index into its glyph records) drawn at `keys`.
    Remove {
        glyphs: Vec<(usize, u32)>,
        keys: Vec<(Key, f64)>,
    },
    Keep(String),
}

/// Removes the text of `tags` (vendor tags of a scan of `doc` whose pages are
/// `pages`) from a copy of `doc`, and of `left` (the scan's
/// [`Scan::vendor_text`](crate::Scan::vendor_text): each `{{...}}` reported
/// as `vendor_tag_unread`, some vendor's syntax which left in the copy would
/// read as that vendor's tag, and each tag reported as
/// `vendor_tag_split_across_lines`, which places no field but whose pieces
/// would stay printed).
///
/// Each one is looked for again on its page by its text at its box (wrapped
/// over lines or onto the next page in all its pieces); text without a box
/// at its first occurrence on its page not taken before. Fatal only where a
/// scan is (a limit); anything that cannot be done exactly is a finding.
pub fn strip_vendor_tags(
    doc: &Document,
    pages: &[PageInfo],
    tags: &[VendorTag],
    left: &[VendorText],
) -> Result<Stripped, Error> {
    let mut out = Stripped {
        removed: vec![false; tags.len()],
        ..Stripped::default()
    };
    if let Err(why) = doc.updatable() {
        out.diagnostics.push(refused(&why.describe()));
        return Ok(out);
    }
    let res = Resources::new(doc);
    let traced: Vec<(PageText, Trace)> = (0..doc.page_count())
        .into_par_iter()
        .map(|i| interpret_page_traced(&res, i))
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<_, _>>()?;
    if let Some(e) = doc.deferred_error() {
        return Err(e);
    }
    let targets: Vec<Target<'_>> = tags
        .iter()
        .map(|t| Target {
            page: t.page,
            raw: &t.raw,
            at: Some((t.x, t.y, (t.height / 2.0).max(1.0))),
            pieces: &[],
        })
        .chain(left.iter().map(|t| Target {
            page: t.page,
            raw: &t.raw,
            at: t.at.map(|(x, y)| (x, y, (t.height / 2.0).max(1.0))),
            pieces: &t.pieces,
        }))
        .collect();
    // Several tags can stand on one piece of text (DocuSign tabs sharing an
    // anchor string): its glyphs are planned once, for the first of them,
    // and the others share that plan.
    let (unique, of) = distinct(&targets);
    let mut plans = plan_tags(doc, pages, &unique, &traced);
    // Streams to rewrite; a stream that cannot be rewritten keeps its tags,
    // and that can keep others sharing their glyphs: until nothing changes.
    let replacements = loop {
        settle(&mut plans, &traced);
        let mut failed = BTreeSet::new();
        let mut replacements = Vec::new();
        for (stream, edits) in edits_of(&plans) {
            match rewritten(doc, &res, stream, &edits) {
                Some(data) => replacements.push((stream, data)),
                None => {
                    failed.insert(stream);
                }
            }
        }
        if failed.is_empty() {
            break replacements;
        }
        for plan in &mut plans {
            if let Plan::Remove { keys, .. } = plan
                && keys.iter().any(|(k, _)| failed.contains(&k.stream))
            {
                *plan = Plan::Keep(
                    "its content stream could not be rewritten (an operator is not where it was read)"
                        .into(),
                );
            }
        }
    };
    match doc.incremental_update(&replacements) {
        Ok(pdf) => out.pdf = Some(pdf),
        Err(why) => {
            out.diagnostics.push(refused(&why.describe()));
            return Ok(out);
        }
    }
    let mut reported = BTreeSet::new();
    for (n, (target, &u)) in targets.iter().zip(&of).enumerate() {
        let Some(plan) = plans.get(u) else {
            continue;
        };
        match plan {
            Plan::Remove { .. } => {
                if let Some(r) = out.removed.get_mut(n) {
                    *r = true;
                }
            }
            // Reported once, for the first tag on that text.
            Plan::Keep(_) if !reported.insert(u) => {}
            Plan::Keep(why) => {
                let what = match (
                    tags.get(n),
                    n.checked_sub(tags.len()).and_then(|k| left.get(k)),
                ) {
                    (Some(tag), _) => format!("{} tag", tag.dialect.vendor()),
                    (None, Some(t)) if t.code == Code::VendorTagSplitAcrossLines => {
                        "tag text broken over lines".to_string()
                    }
                    _ => "unread tag text".to_string(),
                };
                out.diagnostics.push(
                    Diagnostic::new(
                        Code::StripTagKept,
                        format!(
                            "page {}: {what} `{}` is left in the stripped copy: {why}",
                            target.page + 1,
                            target.raw
                        ),
                    )
                    .page(target.page)
                    .tag(target.raw.to_string())
                    .hint("remove it in the source document, or paint it white there"),
                );
            }
        }
    }
    if doc.is_signed() && !replacements.is_empty() {
        out.diagnostics.push(
            Diagnostic::new(
                Code::StripSignatureInvalidated,
                "the document holds signatures; the stripped copy changes its pages after signing, so they no longer cover what is shown",
            )
            .hint("strip the unsigned original, or upload this one as it is, unstripped"),
        );
    }
    Ok(out)
}

/// The targets with one of each text at one place (page, text and corner
/// alike, to the hundredth of a pixel), and for each target the index of its
/// own among them. Targets without a place are each their own (two of them
/// are two occurrences of the text).
fn distinct<'t>(targets: &[Target<'t>]) -> (Vec<Target<'t>>, Vec<usize>) {
    let mut unique: Vec<Target<'t>> = Vec::with_capacity(targets.len());
    let mut of = Vec::with_capacity(targets.len());
    let mut seen: BTreeMap<(usize, &str, i64, i64), usize> = BTreeMap::new();
    for t in targets {
        // Page-stacked pixels: far inside i64 once rounded.
        let key = t.at.map(|(x, y, _)| {
            (
                t.page,
                t.raw,
                (x * 100.0).round() as i64,
                (y * 100.0).round() as i64,
            )
        });
        match key.and_then(|k| seen.get(&k)) {
            Some(&k) => of.push(k),
            None => {
                if let Some(k) = key {
                    seen.insert(k, unique.len());
                }
                of.push(unique.len());
                unique.push(*t);
            }
        }
    }
    (unique, of)
}

fn refused(why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::StripRefused,
        format!("no stripped copy: {why}; the plan uploads the original, tags included"),
    )
    .hint("remove the tags in the source document, or decrypt or repair the file first")
}

/// Finds each target's glyphs and where they were drawn.
fn plan_tags(
    doc: &Document,
    pages: &[PageInfo],
    targets: &[Target<'_>],
    traced: &[(PageText, Trace)],
) -> Vec<Plan> {
    let mut finder = Finder::new(traced);
    let mut plans = Vec::with_capacity(targets.len());
    for t in targets {
        if traced.get(t.page).is_none() {
            plans.push(Plan::Keep("its page is not in the document".into()));
            continue;
        }
        let Some(glyphs) = finder.find(t, |p| page_scale(doc, pages, p)) else {
            plans.push(Plan::Keep(
                "its glyphs could not be found again at its box".into(),
            ));
            continue;
        };
        plans.push(plan_glyphs(glyphs, traced));
    }
    plans
}

/// Output pixels per user-space unit of page `p`, and its offset in the stack.
fn page_scale(doc: &Document, pages: &[PageInfo], p: usize) -> (f64, f64) {
    let w = doc.page_geometry(p).map_or(0.0, |g| g.displayed_size().0);
    match pages.get(p) {
        Some(info) if w > 0.0 => (info.width / w, info.y_offset),
        _ => (1.0, 0.0),
    }
}

/// Where each glyph was drawn, or why the tag cannot be removed exactly.
fn plan_glyphs(glyphs: Vec<(usize, u32)>, traced: &[(PageText, Trace)]) -> Plan {
    let mut keys = Vec::with_capacity(glyphs.len());
    for &(p, g) in &glyphs {
        let Some((src, trace)) = traced
            .get(p)
            .and_then(|(_, trace)| Some((trace.glyphs.get(g as usize)?, trace)))
        else {
            return Plan::Keep("its glyphs could not be traced to their stream".into());
        };
        if src.type3 {
            return Plan::Keep("it is set in a Type 3 font".into());
        }
        if !src.kern.is_finite() {
            return Plan::Keep("it is shown at font size 0".into());
        }
        let Some((stream, op)) = trace.source(src).and_then(|s| s.locate(src.op)) else {
            return Plan::Keep(
                "it is drawn from a stream that is no object of its own, or by an operator split across two content streams".into(),
            );
        };
        keys.push((
            Key {
                stream,
                op,
                string: src.string,
                bytes: src.bytes,
            },
            src.kern,
        ));
    }
    Plan::Remove { glyphs, keys }
}

/// Keeps every tag whose removal would also remove a glyph that stays: the
/// same code drawn elsewhere (a shared Form XObject or content stream) outside
/// a removed tag, or by a tag that is kept; and tags whose code is drawn with
/// different spacing elsewhere (one `TJ` number cannot fit both).
fn settle(plans: &mut [Plan], traced: &[(PageText, Trace)]) {
    loop {
        let mut owners: BTreeMap<Key, (f64, Vec<usize>)> = BTreeMap::new();
        let mut keep: BTreeMap<usize, String> = BTreeMap::new();
        for (t, plan) in plans.iter().enumerate() {
            if let Plan::Remove { keys, .. } = plan {
                for (k, kern) in keys {
                    let e = owners.entry(*k).or_insert((*kern, Vec::new()));
                    if (e.0 - kern).abs() > 1e-6 {
                        keep.insert(
                            t,
                            "its text is drawn again elsewhere with different spacing".into(),
                        );
                    }
                    e.1.push(t);
                }
            }
        }
        if owners.is_empty() {
            return;
        }
        let streams: BTreeSet<ObjectId> = owners.keys().map(|k| k.stream).collect();
        // Every glyph drawn from a changed stream must belong to a removed tag.
        let removed: BTreeSet<(usize, u32)> = plans
            .iter()
            .filter_map(|p| match p {
                Plan::Remove { glyphs, .. } => Some(glyphs.iter().copied()),
                Plan::Keep(_) => None,
            })
            .flatten()
            .collect();
        for (p, (_, trace)) in traced.iter().enumerate() {
            for (i, src) in trace.glyphs.iter().enumerate() {
                let Some((stream, op)) = trace.source(src).and_then(|s| s.locate(src.op)) else {
                    continue;
                };
                if !streams.contains(&stream) || removed.contains(&(p, i as u32)) {
                    continue;
                }
                let key = Key {
                    stream,
                    op,
                    string: src.string,
                    bytes: src.bytes,
                };
                if let Some((_, ts)) = owners.get(&key) {
                    for &t in ts {
                        keep.entry(t).or_insert_with(|| {
                            format!(
                                "its text is drawn by a Form XObject or content stream that also draws it where it stays (page {})",
                                p + 1
                            )
                        });
                    }
                }
            }
        }
        if keep.is_empty() {
            return;
        }
        for (t, why) in keep {
            if let Some(plan) = plans.get_mut(t) {
                *plan = Plan::Keep(why);
            }
        }
    }
}

/// The removals of the tags still removed, by stream and operator.
fn edits_of(plans: &[Plan]) -> BTreeMap<ObjectId, Edits> {
    let mut out: BTreeMap<ObjectId, Edits> = BTreeMap::new();
    for plan in plans {
        let Plan::Remove { keys, .. } = plan else {
            continue;
        };
        for (k, kern) in keys {
            let list = out.entry(k.stream).or_default().entry(k.op).or_default();
            let r = Removal {
                string: k.string,
                bytes: k.bytes,
                kern: *kern,
            };
            if !list
                .iter()
                .any(|x| x.string == r.string && x.bytes == r.bytes)
            {
                list.push(r);
            }
        }
    }
    out
}

/// Stream `id` decoded, with `edits` applied.
fn rewritten(doc: &Document, res: &Resources<'_>, id: ObjectId, edits: &Edits) -> Option<Vec<u8>> {
    let stream = doc.object(id)?.as_stream()?;
    let data = res.decoded_stream(Some(id), stream, Reuse::Form).ok()?;
    rewrite::rewrite(&data, edits)
}
