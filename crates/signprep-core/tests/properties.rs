//! Property tests: how a producer splits text into show operators never changes
//! the tags found, and no mutation of a valid file makes the scanner panic.
#![allow(clippy::disallowed_types)] // builds its inputs with lopdf
#![allow(clippy::unwrap_used, clippy::expect_used)]

use lopdf::{Object, Stream, dictionary};
use proptest::prelude::*;
use signprep_core::{Document, LoadOptions, Scanner, Tag};

const LINE: &str = "Pay <# SIG_1 #> by <# DATE_2 #> or <#X#> now";

/// A one-page PDF whose content shows `LINE` split at `cuts`, each piece either
/// its own `Tj` or an element of one `TJ` array (with zero kerning between).
fn pdf_with_split(cuts: &[usize], as_tj: &[bool]) -> Vec<u8> {
    let mut doc = lopdf::Document::with_version("1.7");
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier",
        "Encoding" => "WinAnsiEncoding",
    });
    let mut pieces = Vec::new();
    let mut last = 0;
    for &c in cuts {
        if c > last && c < LINE.len() {
            pieces.push(&LINE[last..c]);
            last = c;
        }
    }
    pieces.push(&LINE[last..]);
    let mut content = String::from("BT /F1 12 Tf 72 700 Td\n");
    let mut tj: Vec<String> = Vec::new();
    let lit = |s: &str| {
        format!(
            "({})",
            s.replace('\\', "\\\\")
                .replace('(', "\\(")
                .replace(')', "\\)")
        )
    };
    for (i, piece) in pieces.iter().enumerate() {
        if as_tj.get(i).copied().unwrap_or(false) {
            tj.push(lit(piece));
            tj.push("0".into());
        } else {
            if !tj.is_empty() {
                content.push_str(&format!("[{}] TJ\n", tj.join(" ")));
                tj.clear();
            }
            content.push_str(&format!("{} Tj\n", lit(piece)));
        }
    }
    if !tj.is_empty() {
        content.push_str(&format!("[{}] TJ\n", tj.join(" ")));
    }
    content.push_str("ET\n");
    let contents = doc.add_object(Stream::new(dictionary! {}, content.into_bytes()));
    let pages_id = doc.new_object_id();
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => contents,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("in-memory save");
    out
}

fn tags(pdf: &[u8]) -> Vec<Tag> {
    let doc = Document::from_bytes(pdf, &LoadOptions::default()).expect("loads");
    Scanner::new().scan(&doc).expect("scans").tags
}

#[test]
fn reference_line_has_three_tags() {
    let t = tags(&pdf_with_split(&[], &[]));
    let ids: Vec<&str> = t.iter().map(|t| t.tag_id.as_str()).collect();
    assert_eq!(ids, ["SIG_1", "DATE_2", "X"]);
    // Courier: 600 units per glyph at 12 pt = 7.2 pt per character.
    assert!((t[0].width - 11.0 * 7.2).abs() < 0.01, "{:?}", t[0]);
    assert!((t[0].x - (72.0 + 4.0 * 7.2)).abs() < 0.01, "{:?}", t[0]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn splitting_into_show_operators_never_changes_tags(
        mut cuts in prop::collection::vec(1usize..LINE.len(), 0..12),
        as_tj in prop::collection::vec(any::<bool>(), 13),
    ) {
        cuts.sort_unstable();
        cuts.dedup();
        let reference = tags(&pdf_with_split(&[], &[]));
        let split = tags(&pdf_with_split(&cuts, &as_tj));
        prop_assert_eq!(reference, split);
    }

    #[test]
    fn mutated_files_never_panic(
        which in 0usize..17,
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..24),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let all = signprep_testgen::fixtures();
        let fx = &all[which % all.len()];
        let mut bytes = fx.pdf.clone();
        for (at, b) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        // Either a scan or an error; never a panic.
        if let Ok(doc) = Document::from_bytes(&bytes, &LoadOptions::default()) {
            let _ = Scanner::new().scan(&doc);
        }
    }
}
