//! The page entry points of the interpreter: a page's content fetched
//! once, then run with glyphs placed ([`interpret_page`], traced for
//! `migrate --strip`) or, for a scan of `<# #>` tags alone, run for its text
//! first ([`interpret_page_for_tags`]).

use super::provenance::{NoTrace, Source, Trace, Tracer};
use super::streams::page_content;
use super::{Interp, PageText};
use crate::diag::Diagnostic;
use crate::document::{Error, Obj, ObjectId};
use crate::resources::Resources;
use crate::stream_cache::Decoded;

/// Interprets the content of page `index`.
pub(crate) fn interpret_page(res: &Resources<'_>, index: usize) -> Result<PageText, Error> {
    interpret(res, index, NoTrace).map(|(text, _)| text)
}

/// Interprets page `index` for a scan that reads only `<# #>` tags: first
/// for whether its text holds a `<#`, its glyphs counted but neither placed
/// nor their text written (`Font::open_tags`), and again with every glyph
/// placed only when it does, from the first `<#` on (a page without one has
/// no tag, and a plain scan reads nothing else of its glyphs). Most pages of
/// running text have none, and placing, recording and writing each glyph
/// was most of the work per glyph. The second run reads the content decoded
/// for the first, and gives the same page as [`interpret_page`]; the first
/// gives the same count, fonts, images and findings (both tested over every
/// generated PDF). Its Form XObjects come from the stream cache; only forms the cache
/// could not keep (over `max_stream_cache_bytes`) are inflated, and charged
/// to the document's budget, a second time, on the pages with a `<#`.
pub(crate) fn interpret_page_for_tags(
    res: &Resources<'_>,
    index: usize,
) -> Result<PageText, Error> {
    let Some((content, diags)) = content_of(res, index, None)? else {
        return Ok(PageText::default());
    };
    let text = run_on(res, index, &content, diags.clone(), NoTrace, false)?.0;
    if !text.opening.found {
        return Ok(text);
    }
    text.recycle();
    run_on(res, index, &content, diags, NoTrace, true).map(|(text, _)| text)
}

/// Interprets page `index` and says where each glyph came from (for
/// `migrate --strip`; a plain scan records none of it).
pub(crate) fn interpret_page_traced(
    res: &Resources<'_>,
    index: usize,
) -> Result<(PageText, Trace), Error> {
    interpret(res, index, Trace::default())
}

/// The interpreter, compiled once without tracing (a plain scan: no code
/// for provenance at all) and once with it.
fn interpret<T: Tracer>(
    res: &Resources<'_>,
    index: usize,
    mut trace: T,
) -> Result<(PageText, T), Error> {
    let mut segments = Vec::new();
    let want = T::ON.then_some(&mut segments);
    let Some((content, diags)) = content_of(res, index, want)? else {
        return Ok((PageText::default(), trace));
    };
    if let Some(t) = trace.get() {
        t.enter(Source::Content(segments));
    }
    run_on(res, index, &content, diags, trace, true)
}

/// The content of page `index`, decoded and joined, with the findings of
/// its damaged streams; `None` for a page that does not exist.
fn content_of(
    res: &Resources<'_>,
    index: usize,
    segments: Option<&mut Vec<(Option<ObjectId>, usize, usize)>>,
) -> Result<Option<(Decoded, Vec<Diagnostic>)>, Error> {
    let doc = res.doc();
    let Some(page) = doc.pages.get(index) else {
        return Ok(None);
    };
    // Also on pages without operators, where the interpreter never checks.
    doc.check_time()?;
    let mut diags = Vec::new();
    let content = page_content(res, page, index, &mut diags, segments)?;
    Ok(Some((content, diags)))
}

/// Runs the interpreter over `content`, the content of page `index`;
/// `positions` false counts the glyphs and keeps only whether their text
/// opens a tag (`PageText::opening`), stopping at the first `<#`
/// ([`PageText::glyphs`] and the text stay empty).
fn run_on<T: Tracer>(
    res: &Resources<'_>,
    index: usize,
    content: &[u8],
    diagnostics: Vec<Diagnostic>,
    trace: T,
    positions: bool,
) -> Result<(PageText, T), Error> {
    let doc = res.doc();
    let Some(page) = doc.pages.get(index) else {
        return Ok((PageText::default(), trace));
    };
    let display = page.geometry.display_matrix();
    let mut it = Interp::new(res, index, display, trace);
    it.positions = positions;
    it.out.diagnostics = diagnostics;
    // Text pages show about one glyph per 4-20 content bytes: reserving for
    // that up front saves regrowing (and copying) the glyph records. Capped,
    // so a page of paths reserves little it does not use.
    let estimate = (content.len() / 4).min(1 << 16);
    if positions {
        it.out.glyphs.reserve(estimate);
        it.out.text.reserve(estimate);
    }
    let resources = page
        .resources()
        .and_then(|r| doc.resolve(r))
        .and_then(Obj::as_dict);
    it.run(content, resources)?;
    it.report_full();
    Ok((it.out, it.trace))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::{Document, LoadOptions};
    use std::path::Path;

    /// Every PDF the project generates, by path.
    fn generated_pdfs() -> Vec<std::path::PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut files = Vec::new();
        for dir in [
            "fixtures",
            "hostile",
            "check/pdfs",
            "migrate",
            "regressions",
        ] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                panic!("testdata/{dir} is missing");
            };
            for e in entries {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "pdf") {
                    files.push(p);
                }
            }
        }
        files.sort();
        files
    }

    /// What the text-first run must give exactly as the full one does.
    fn summary(p: &PageText) -> (usize, usize, usize, Vec<Diagnostic>) {
        (p.shown(), p.images, p.fonts.len(), p.diagnostics.clone())
    }

    /// The first run of [`interpret_page_for_tags`] alone.
    fn text_first(res: &Resources<'_>, i: usize) -> Result<PageText, Error> {
        let (content, diags) = content_of(res, i, None)?.expect("the page exists");
        run_on(res, i, &content, diags, NoTrace, false).map(|(text, _)| text)
    }

    fn compare_pages(options: &LoadOptions) -> (usize, usize) {
        let (mut pages, mut opened) = (0, 0);
        for path in generated_pdfs() {
            let name = path.display();
            // A document for each run: the budgets of one (bytes inflated,
            // time) are spent by its pages in turn.
            let open = || Document::open(&path, options);
            let (Ok(a), Ok(b), Ok(c)) = (open(), open(), open()) else {
                continue; // refused at load: no page to interpret
            };
            let (res_a, res_b, res_c) =
                (Resources::new(&a), Resources::new(&b), Resources::new(&c));
            for i in 0..a.page_count() {
                let full = interpret_page(&res_a, i);
                let first = text_first(&res_b, i);
                let (full, first) = match (full, first) {
                    (Ok(a), Ok(b)) => (a, b),
                    (Err(a), Err(b)) => {
                        assert_eq!(a.to_string(), b.to_string(), "{name} page {i}");
                        continue;
                    }
                    (a, b) => panic!("{name} page {i}: {:?} against {:?}", a.err(), b.err()),
                };
                pages += 1;
                assert_eq!(full.shown(), full.glyphs.len(), "{name} page {i}");
                assert!(
                    first.glyphs.is_empty() && first.text.is_empty(),
                    "{name} page {i}"
                );
                assert_eq!(
                    full.text.contains("<#"),
                    first.opening.found,
                    "{name} page {i}"
                );
                if first.opening.found {
                    // Stopped at the `<#`: the page is run again, placed.
                    opened += 1;
                    let again = interpret_page_for_tags(&res_c, i).expect("read once already");
                    assert_eq!(again.text, full.text, "{name} page {i}");
                    assert_eq!(again.glyphs.len(), full.glyphs.len(), "{name} page {i}");
                    assert_eq!(summary(&again), summary(&full), "{name} page {i}");
                } else {
                    assert_eq!(summary(&first), summary(&full), "{name} page {i}");
                }
            }
        }
        (pages, opened)
    }

    /// [`compare_pages`] under `options`: over a hundred pages, and more
    /// than `opened` with a `<#`.
    fn compares(options: &LoadOptions, opened_at_least: usize) {
        let (pages, opened) = compare_pages(options);
        assert!(
            pages > 100 && opened > opened_at_least,
            "only {pages} pages compared, {opened} with a <#"
        );
    }

    #[test]
    fn the_text_first_run_reads_each_page_as_the_full_one() {
        compares(&LoadOptions::default(), 30);
    }

    #[test]
    fn the_text_first_run_stops_at_the_glyph_limit_where_the_full_one_does() {
        let options = LoadOptions {
            max_glyphs_per_page: 7,
            ..LoadOptions::default()
        };
        compares(&options, 10);
    }

    #[test]
    fn the_text_first_run_stops_at_the_operator_limit_where_the_full_one_does() {
        let options = LoadOptions {
            max_operators_per_page: 40,
            ..LoadOptions::default()
        };
        compares(&options, 5);
    }
}
