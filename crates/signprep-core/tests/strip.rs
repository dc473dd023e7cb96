//! `strip_vendor_tags` (`migrate --strip`), checked by reading the stripped
//! copy back: no stripped tag's text is found by a scan with every dialect,
//! and every other glyph keeps its box within 0.01 pt (that every pixel
//! outside the stripped tags' boxes is painted as before is signprep-render's
//! `tests/strip.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{
    Code, Dialects, Document, Glyph, LoadOptions, Rect, Scan, Scanner, Stripped, VendorTag,
    VendorText, strip_vendor_tags,
};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(root().join(rel)).unwrap()
}

fn open(bytes: &[u8]) -> Document {
    Document::from_bytes(bytes, &LoadOptions::default()).unwrap()
}

fn scan(doc: &Document) -> Scan {
    Scanner::new().dialects(Dialects::all()).scan(doc).unwrap()
}

/// The contract's vendor tags, and the ones migration places (all but the
/// read-only `{{Ref...}}`).
fn contract() -> (Vec<u8>, Document, Scan, Vec<VendorTag>) {
    let bytes = read("testdata/migrate/strip_contract.pdf");
    let doc = open(&bytes);
    let s = scan(&doc);
    let placed: Vec<VendorTag> = s
        .vendor_tags
        .clone()
        .unwrap()
        .into_iter()
        .filter(|t| !t.raw.starts_with("{{Ref"))
        .collect();
    (bytes, doc, s, placed)
}

fn stripped(doc: &Document, s: &Scan, tags: &[VendorTag]) -> Stripped {
    strip_vendor_tags(doc, &s.pages, tags, &[]).unwrap()
}

fn close(a: &Rect, b: &Rect, tol: f64) -> bool {
    (a.x0 - b.x0).abs() <= tol
        && (a.y0 - b.y0).abs() <= tol
        && (a.x1 - b.x1).abs() <= tol
        && (a.y1 - b.y1).abs() <= tol
}

/// The box of a tag (72 dpi: pixels are points), in page coordinates.
fn tag_box(t: &VendorTag, s: &Scan) -> Rect {
    let off = s.pages[t.page].y_offset;
    Rect::new(t.x, t.y - off, t.x + t.width, t.y - off + t.height)
}

/// Walks the original page's glyphs against the stripped page's: each kept
/// glyph must be there with its box within 0.01 pt; the others (removed) are
/// returned.
fn removed_glyphs(before: &[Glyph], after: &[Glyph]) -> Result<Vec<Glyph>, String> {
    let mut removed = Vec::new();
    let mut it = after.iter().peekable();
    for g in before {
        match it.peek() {
            Some(a) if a.text == g.text && close(&a.bbox, &g.bbox, 0.01) => {
                it.next();
            }
            _ => removed.push(g.clone()),
        }
    }
    match it.next() {
        Some(extra) => Err(format!("a glyph moved or appeared: {extra:?}")),
        None => Ok(removed),
    }
}

#[test]
fn stripped_copy_has_no_placed_tag_and_every_other_glyph_in_place() {
    let (bytes, doc, s, placed) = contract();
    assert_eq!(placed.len(), 6, "{placed:#?}");
    let out = stripped(&doc, &s, &placed);
    assert_eq!(out.diagnostics, vec![], "nothing kept, nothing refused");
    assert_eq!(out.removed, vec![true; placed.len()]);
    let copy = out.pdf.unwrap();
    assert!(
        copy.starts_with(&bytes),
        "an incremental update of the input"
    );

    let doc2 = open(&copy);
    let s2 = scan(&doc2);
    let left: Vec<&str> = s2
        .vendor_tags
        .as_deref()
        .unwrap()
        .iter()
        .map(|t| t.raw.as_str())
        .collect();
    assert_eq!(left, vec!["{{Ref;role=Client;readonly=true}}"]);

    for page in 0..doc.page_count() {
        let before = doc.glyphs(page).unwrap();
        let after = doc2.glyphs(page).unwrap();
        let removed =
            removed_glyphs(&before, &after).unwrap_or_else(|e| panic!("page {page}: {e}"));
        let tags: Vec<&VendorTag> = placed.iter().filter(|t| t.page == page).collect();
        let want: usize = tags.iter().map(|t| t.raw.chars().count()).sum();
        assert_eq!(removed.len(), want, "page {page}: removed {removed:?}");
        for g in &removed {
            let (cx, cy) = ((g.bbox.x0 + g.bbox.x1) / 2.0, (g.bbox.y0 + g.bbox.y1) / 2.0);
            let inside = tags.iter().any(|t| {
                let b = tag_box(t, &s);
                cx >= b.x0 && cx <= b.x1 && cy >= b.y0 - 1.0 && cy <= b.y1 + 1.0
            });
            assert!(
                inside,
                "page {page}: removed glyph {g:?} is in no stripped tag"
            );
        }
    }
}

/// Two tags on one text at one place (DocuSign tabs sharing an anchor
/// string): its glyphs go once, both count as removed, and nothing is
/// reported kept (the second found no glyphs left, a false `strip_tag_kept`).
#[test]
fn two_tags_on_one_text_are_stripped_once_and_both_removed() {
    let (_, doc, s, placed) = contract();
    let mut twice = placed.clone();
    let mut twin = placed[0].clone();
    twin.field = Some(signprep_core::FieldBox {
        x: twin.x + 200.0,
        y: twin.y,
        width: 80.0,
        height: 20.0,
    });
    twice.push(twin);
    let out = stripped(&doc, &s, &twice);
    assert_eq!(out.diagnostics, vec![], "nothing kept, nothing refused");
    assert_eq!(out.removed, vec![true; twice.len()]);
    assert_eq!(
        out.pdf,
        stripped(&doc, &s, &placed).pdf,
        "the same copy as with the tag once"
    );
}

#[test]
fn stripping_is_deterministic_and_leaves_unasked_tags() {
    let (_, doc, s, placed) = contract();
    let a = stripped(&doc, &s, &placed);
    let b = stripped(&doc, &s, &placed);
    assert_eq!(a, b);
    // Only the white City tag: the rest stays.
    let city: Vec<VendorTag> = placed
        .iter()
        .filter(|t| t.raw.starts_with("{{City"))
        .cloned()
        .collect();
    let out = stripped(&doc, &s, &city);
    let s2 = scan(&open(&out.pdf.unwrap()));
    assert_eq!(
        s2.vendor_tags.unwrap().len(),
        s.vendor_tags.as_ref().unwrap().len() - 1
    );
}

#[test]
fn a_form_drawn_where_its_tag_stays_is_not_changed() {
    let (_, doc, s, placed) = contract();
    // The footer's tag on page 1 only: page 2 draws the same form, unstripped.
    let first: Vec<VendorTag> = placed
        .iter()
        .filter(|t| t.raw.starts_with("{{Initials") && t.page == 0)
        .cloned()
        .collect();
    assert_eq!(first.len(), 1);
    let out = stripped(&doc, &s, &first);
    assert_eq!(out.removed, vec![false]);
    let codes: Vec<Code> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, vec![Code::StripTagKept]);
    assert!(
        out.diagnostics[0].message.contains("page 2"),
        "{}",
        out.diagnostics[0].message
    );
    // Nothing changed: the copy is the input.
    assert_eq!(
        out.pdf.unwrap(),
        read("testdata/migrate/strip_contract.pdf")
    );
}

#[test]
fn a_type3_tag_is_kept_with_a_finding() {
    let bytes = read("testdata/fixtures/type3_font.pdf");
    let doc = open(&bytes);
    let s = Scanner::new().scan(&doc).unwrap();
    // A native tag stands in for a vendor tag: stripping finds glyphs by text and box.
    let t = s.tags.first().expect("the fixture has a tag");
    let text = signprep_core::FieldBox {
        x: t.x,
        y: t.y,
        width: t.width,
        height: t.height,
    };
    let mut tag = VendorTag::new(
        signprep_core::Dialect::Docuseal,
        t.raw.clone(),
        t.page,
        text,
    );
    tag.font = t.font.clone();
    tag.font_size = t.font_size;
    tag.hidden = t.hidden;
    let out = stripped(&doc, &s, &[tag]);
    assert_eq!(out.removed, vec![false]);
    assert_eq!(out.diagnostics.len(), 1);
    assert_eq!(out.diagnostics[0].code, Code::StripTagKept);
    assert!(
        out.diagnostics[0].message.contains("Type 3"),
        "{}",
        out.diagnostics[0].message
    );
    assert_eq!(out.pdf.unwrap(), bytes);
}

#[test]
fn an_encrypted_file_is_refused() {
    use signprep_testgen::encrypt::{Encryption, encrypt};
    let plain = read("testdata/migrate/strip_contract.pdf");
    let bytes = encrypt(&plain, &Encryption::standard(4, "")).unwrap();
    let doc = open(&bytes);
    let s = Scanner::new().scan(&doc).unwrap();
    let out = stripped(&doc, &s, &[]);
    assert_eq!(out.pdf, None);
    assert_eq!(out.diagnostics.len(), 1);
    assert_eq!(out.diagnostics[0].code, Code::StripRefused);
    assert!(out.diagnostics[0].message.contains("encrypted"));
}
/// Strips every vendor tag of a fixture (and, `with_unread`, the syntax that
/// places no field: unread `{{...}}`, tags broken over lines) and checks the copy: no vendor tag read again, every other glyph
/// in place within 0.01 pt, and exactly the tags' characters removed.
fn strips_clean(rel: &str, with_unread: bool) -> Stripped {
    let bytes = read(rel);
    let doc = open(&bytes);
    let s = scan(&doc);
    let tags = s.vendor_tags.clone().unwrap();
    let unread: Vec<VendorText> = s
        .vendor_text()
        .iter()
        .filter(|_| with_unread)
        .cloned()
        .collect();
    let out = strip_vendor_tags(&doc, &s.pages, &tags, &unread).unwrap();
    let doc2 = open(out.pdf.as_ref().unwrap());
    let s2 = scan(&doc2);
    assert_eq!(s2.vendor_tags.as_deref(), Some(&[][..]), "{rel}: tags left");
    // Another reader (lopdf's whole-file load) sees the stripped objects too.
    let whole = Document::from_bytes_eager(out.pdf.as_ref().unwrap(), &LoadOptions::default());
    let s3 = scan(&whole.unwrap());
    assert_eq!(
        s3.vendor_tags.as_deref(),
        Some(&[][..]),
        "{rel}: tags left, read whole"
    );
    let mut removed: Vec<String> = Vec::new();
    for page in 0..doc.page_count() {
        let before = doc.glyphs(page).unwrap();
        let after = doc2.glyphs(page).unwrap();
        let gone =
            removed_glyphs(&before, &after).unwrap_or_else(|e| panic!("{rel}, page {page}: {e}"));
        removed.extend(gone.into_iter().map(|g| g.text));
    }
    let mut want: Vec<String> = tags
        .iter()
        .map(|t| t.raw.as_str())
        .chain(unread.iter().map(|t| t.raw.as_str()))
        .flat_map(|r| r.chars().map(String::from))
        .collect();
    removed.sort();
    want.sort();
    assert_eq!(removed, want, "{rel}: the removed glyphs are the tags'");
    out
}

#[test]
fn wrapped_signnow_tags_go_in_every_piece_on_one_page_and_across_two() {
    let out = strips_clean("testdata/fixtures/vendor_signnow_forms.pdf", false);
    assert_eq!(out.diagnostics, vec![]);
    assert!(out.removed.iter().all(|r| *r), "{:?}", out.removed);
}

#[test]
fn unread_tag_text_goes_too() {
    for rel in [
        "testdata/fixtures/vendor_mixups.pdf",
        "testdata/fixtures/vendor_documenso.pdf",
    ] {
        let out = strips_clean(rel, true);
        assert_eq!(out.diagnostics, vec![], "{rel}");
    }
}

#[test]
fn tags_broken_over_lines_and_pages_go_in_every_piece() {
    for rel in [
        "testdata/fixtures/vendor_wrapped.pdf",
        "testdata/migrate/strip_leftovers.pdf",
        "testdata/migrate/docuseal_table.pdf",
    ] {
        let out = strips_clean(rel, true);
        assert_eq!(out.diagnostics, vec![], "{rel}");
        let doc = open(out.pdf.as_ref().unwrap());
        let codes: Vec<Code> = scan(&doc).diagnostics.iter().map(|d| d.code).collect();
        assert!(
            !codes.contains(&Code::VendorTagSplitAcrossLines)
                && !codes.contains(&Code::VendorTagUnread),
            "{rel}: {codes:?}"
        );
    }
}

#[test]
fn unread_text_is_removed_where_it_was_read_not_where_the_same_text_first_is() {
    let bytes = read("testdata/migrate/strip_leftovers.pdf");
    let doc = open(&bytes);
    let s = scan(&doc);
    let english: Vec<&VendorText> = s
        .vendor_text()
        .iter()
        .filter(|t| t.raw == "{{(English)English}}")
        .collect();
    assert_eq!(english.len(), 2, "{:?}", s.vendor_text());
    assert!(english.iter().all(|t| t.code == Code::VendorTagUnread));
    // Only the second (lower on the page) asked for.
    let second = [english[1].clone()];
    let out = strip_vendor_tags(&doc, &s.pages, &[], &second).unwrap();
    assert_eq!(out.diagnostics, vec![]);
    let doc2 = open(out.pdf.as_ref().unwrap());
    let line = |g: &[Glyph], y: f64| -> String {
        g.iter()
            .filter(|g| (g.bbox.y1 - (792.0 - y)).abs() < 4.0)
            .map(|g| g.text.as_str())
            .collect()
    };
    let after = doc2.glyphs(0).unwrap();
    assert_eq!(line(&after, 690.0), "Language: {{(English)English}}");
    assert_eq!(line(&after, 660.0), "Language again:  (same text)");
    removed_glyphs(&doc.glyphs(0).unwrap(), &after).unwrap();
}

#[test]
fn a_tag_an_annotation_draws_is_reported_not_migrated_and_not_stripped() {
    let bytes = read("testdata/migrate/strip_leftovers.pdf");
    let doc = open(&bytes);
    let s = scan(&doc);
    let raw = "{{Witness_es_:signer2:signature}}";
    let tags = s.vendor_tags.clone().unwrap();
    assert!(tags.iter().all(|t| t.raw != raw), "{tags:#?}");
    let found: Vec<_> = s
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::VendorTagInAnnotation)
        .collect();
    assert_eq!(found.len(), 1, "{:#?}", s.diagnostics);
    assert_eq!(found[0].tag.as_deref(), Some(raw));
    assert_eq!(found[0].page, Some(0));
    // Placed as ISO 32000-1 Algorithm 8.1 maps the form onto /Rect: x 304.
    assert!(
        found[0].message.contains("at (304.0, ") && found[0].message.contains("FreeText"),
        "{}",
        found[0].message
    );
    // Not read by a plain scan, which never looks at annotations.
    let plain = Scanner::new().scan(&doc).unwrap();
    assert!(
        plain
            .diagnostics
            .iter()
            .all(|d| d.code != Code::VendorTagInAnnotation)
    );
    // The copy leaves the annotation as it was: still reported.
    let out = strip_vendor_tags(&doc, &s.pages, &tags, s.vendor_text()).unwrap();
    let doc2 = open(out.pdf.as_ref().unwrap());
    let again: Vec<_> = scan(&doc2)
        .diagnostics
        .into_iter()
        .filter(|d| d.code == Code::VendorTagInAnnotation)
        .collect();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].message, found[0].message);
}
