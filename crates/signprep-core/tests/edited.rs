//! Edited documents are read as viewers read them (issue 32): an incremental
//! update on top of a file whose cross-reference data needs repair is never
//! read as the file was before the edit. The inputs are written here, byte by
//! byte, so each quirk is exactly the one real files show:
//!
//! - a base table listing objects in use at offset 0 (files from Dropbox
//!   Sign's and signNow's SDK repositories): such an entry stands for no
//!   other object (lopdf read the first object past the header there, the
//!   page before the edit, and filed it over the edited one);
//! - the same with CRLF rows (pdf.js `issue19360.pdf`);
//! - a damaged older section under a sound newer one;
//! - `/Prev` chains that loop or lead nowhere.
//!
//! Each is read by both stores (on demand, and lopdf's whole-file load): the
//! edited tag, never the old one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Dialects, Document, LoadOptions, Scanner, strip_vendor_tags};

/// How the base table is written.
#[derive(Clone, Copy, Default)]
struct Table<'a> {
    /// Objects listed in use at offset 0.
    zero: &'a [u32],
    /// Rows and subsection headers end in CRLF (else space + LF).
    crlf: bool,
    /// The rows are garbage (the section does not parse).
    damaged: bool,
}

fn content(text: &str) -> Vec<u8> {
    let body = format!("BT /F1 12 Tf 72 700 Td ({text}) Tj ET");
    let mut o = format!("<< /Length {} >>\nstream\n", body.len()).into_bytes();
    o.extend_from_slice(body.as_bytes());
    o.extend_from_slice(b"\nendstream");
    o
}

/// A one-page document whose first object is the page's content stream
/// (what an entry at offset 0 leads lopdf to), object 6 an unused
/// dictionary; and where each object starts.
fn base(text: &str, table: Table<'_>) -> Vec<u8> {
    let objs: Vec<(u32, Vec<u8>)> = vec![
        (1, content(text)),
        (2, b"<< /Type /Catalog /Pages 3 0 R >>".to_vec()),
        (3, b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_vec()),
        (
            4,
            b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 1 0 R >>".to_vec(),
        ),
        (
            5,
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>".to_vec(),
        ),
        (6, b"<< /Producer (an SDK) >>".to_vec()),
    ];
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut at = [0usize; 7];
    for (n, body) in &objs {
        at[*n as usize] = out.len();
        out.extend_from_slice(format!("{n} 0 obj\n").as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    let eol = if table.crlf { "\r\n" } else { " \n" };
    out.extend_from_slice(
        format!("xref\n0 7{}", if table.crlf { "\r\n" } else { "\n" }).as_bytes(),
    );
    out.extend_from_slice(format!("0000000000 65535 f{eol}").as_bytes());
    for n in 1..=6u32 {
        let off = if table.zero.contains(&n) {
            0
        } else {
            at[n as usize]
        };
        let row = if table.damaged {
            format!("{off:010} 0000x n{eol}")
        } else {
            format!("{off:010} 00000 n{eol}")
        };
        out.extend_from_slice(row.as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size 7 /Root 2 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n")
            .as_bytes(),
    );
    out
}

/// `pdf` with an incremental update that gives object 1 (the content)
/// `text`; `prev` is the trailer's `/Prev` (`None`: the base's startxref).
fn edit(mut pdf: Vec<u8>, text: &str, prev: Option<i64>) -> Vec<u8> {
    let base_xref = std::str::from_utf8(&pdf[pdf.len() - 30..])
        .unwrap()
        .split_whitespace()
        .rev()
        .nth(1)
        .unwrap()
        .parse::<i64>()
        .unwrap();
    let at = pdf.len();
    pdf.extend_from_slice(b"1 0 obj\n");
    pdf.extend_from_slice(&content(text));
    pdf.extend_from_slice(b"\nendobj\n");
    let xref = pdf.len();
    let prev = prev.unwrap_or(base_xref);
    pdf.extend_from_slice(
        format!(
            "xref\n0 1\n0000000000 65535 f \n1 1\n{at:010} 00000 n \ntrailer\n<< /Size 7 /Root 2 0 R /Prev {prev} >>\nstartxref\n{xref}\n%%EOF\n"
        )
        .as_bytes(),
    );
    pdf
}

/// The tag ids a scan finds, read on demand and read whole by lopdf.
fn tags(pdf: &[u8]) -> [Vec<String>; 2] {
    let options = LoadOptions::default();
    let ids = |doc: Result<Document, signprep_core::Error>| -> Vec<String> {
        match doc.and_then(|d| Scanner::new().scan(&d)) {
            Ok(scan) => scan.tags.iter().map(|t| t.tag_id.clone()).collect(),
            Err(e) => vec![format!("error: {e}")],
        }
    };
    [
        ids(Document::from_bytes(pdf, &options)),
        ids(Document::from_bytes_eager(pdf, &options)),
    ]
}

fn both(id: &str) -> [Vec<String>; 2] {
    [vec![id.to_string()], vec![id.to_string()]]
}

#[test]
fn an_edit_over_entries_at_offset_0_is_read_as_edited() {
    // Object 6 listed at offset 0: lopdf read object 1 there (the content
    // before the edit) and filed it over the edited one.
    let table = Table {
        zero: &[6],
        ..Table::default()
    };
    let pdf = edit(base("<# OLD_TAG #>", table), "<# NEW_TAG #>", None);
    assert_eq!(tags(&pdf)[0], ["NEW_TAG"], "read on demand");
    // Several at offset 0, and the font among them (found by scanning).
    let table = Table {
        zero: &[3, 5, 6],
        ..Table::default()
    };
    let pdf = edit(base("<# OLD_TAG #>", table), "<# NEW_TAG #>", None);
    assert_eq!(tags(&pdf)[0], ["NEW_TAG"], "read on demand, three at 0");
}

#[test]
fn an_edit_over_a_table_with_crlf_rows_is_read_as_edited() {
    let table = Table {
        zero: &[6],
        crlf: true,
        ..Table::default()
    };
    let pdf = edit(base("<# OLD_TAG #>", table), "<# NEW_TAG #>", None);
    assert_eq!(tags(&pdf)[0], ["NEW_TAG"]);
    let plain = Table {
        crlf: true,
        ..Table::default()
    };
    let pdf = edit(base("<# OLD_TAG #>", plain), "<# NEW_TAG #>", None);
    assert_eq!(tags(&pdf), both("NEW_TAG"));
}

#[test]
fn a_newer_section_wins_over_a_damaged_older_one() {
    let table = Table {
        damaged: true,
        ..Table::default()
    };
    let pdf = edit(base("<# OLD_TAG #>", table), "<# NEW_TAG #>", None);
    assert_eq!(tags(&pdf), both("NEW_TAG"));
    // A /Prev that leads to no section at all (into an object's body): read
    // on demand, the newer section's entries stand, the rest found by
    // scanning, and the file said to be repaired.
    let base_pdf = base("<# OLD_TAG #>", Table::default());
    let into_object = edit(base_pdf, "<# NEW_TAG #>", Some(20));
    assert_eq!(tags(&into_object), both("NEW_TAG"));
    let doc = Document::from_bytes(&into_object, &LoadOptions::default()).unwrap();
    assert!(doc.is_lazy() && doc.was_repaired());
}

#[test]
fn prev_chains_that_loop_or_lead_nowhere_keep_the_newest_section() {
    let base_pdf = base("<# OLD_TAG #>", Table::default());
    // /Prev past the end of the file.
    let nowhere = edit(base_pdf.clone(), "<# NEW_TAG #>", Some(99_999_999));
    assert_eq!(tags(&nowhere), both("NEW_TAG"), "prev past the end");
    let doc = Document::from_bytes(&nowhere, &LoadOptions::default()).unwrap();
    assert!(doc.is_lazy() && doc.was_repaired());
    // /Prev pointing at the newest section itself.
    let len = base_pdf.len() + b"1 0 obj\n".len() + content("<# NEW_TAG #>").len() + 8;
    let looped = edit(base_pdf, "<# NEW_TAG #>", Some(len as i64));
    assert_eq!(tags(&looped), both("NEW_TAG"), "prev to itself");
}

#[test]
fn an_entry_at_offset_0_for_an_object_written_nowhere_is_null() {
    // Object 7 is listed (in use, offset 0) but never written: null, never
    // object 1; nothing uses it, so the file is not said to be repaired (the
    // pdf.js f1040 form has such entries, and reads as viewers read it).
    let mut pdf = base("<# ONLY_TAG #>", Table::default());
    let xref_at = pdf.windows(9).rposition(|w| w == b"xref\n0 7\n").unwrap();
    pdf.splice(xref_at..xref_at + 9, b"xref\n0 8\n".iter().copied());
    let trailer = pdf.windows(7).rposition(|w| w == b"trailer").unwrap();
    pdf.splice(trailer..trailer, b"0000000000 00000 n \n".iter().copied());
    let doc = Document::from_bytes(&pdf, &LoadOptions::default()).unwrap();
    let scan = Scanner::new().scan(&doc).unwrap();
    let ids: Vec<&str> = scan.tags.iter().map(|t| t.tag_id.as_str()).collect();
    assert_eq!(ids, ["ONLY_TAG"]);
    assert!(doc.is_lazy() && !doc.was_repaired());
}

/// An SDK-written document with a vendor tag and an entry at offset 0:
/// the stripped copy, read by either store, has no tag left, and its last
/// section is complete (no `/Prev`), so no reader repairs the base its own way.
#[test]
fn a_stripped_copy_of_a_file_that_needed_repair_is_read_stripped_by_any_reader() {
    let table = Table {
        zero: &[6],
        ..Table::default()
    };
    let pdf = edit(
        base("[sig|req|signer1]", table),
        "[sig|req|signer1] [text|req|signer2]",
        None,
    );
    let options = LoadOptions::default();
    let scanner = Scanner::new().dialects(Dialects::all());
    let doc = Document::from_bytes(&pdf, &options).unwrap();
    let scan = scanner.scan(&doc).unwrap();
    let tags = scan.vendor_tags.clone().unwrap();
    assert_eq!(tags.len(), 2, "{tags:?}");
    let out = strip_vendor_tags(&doc, &scan.pages, &tags, &[]).unwrap();
    assert_eq!(out.removed, [true, true], "{:?}", out.diagnostics);
    let copy = out.pdf.unwrap();
    let tail = String::from_utf8_lossy(&copy[pdf.len()..]).into_owned();
    assert!(!tail.contains("/Prev"), "a complete section: {tail}");
    for (how, doc) in [
        ("on demand", Document::from_bytes(&copy, &options)),
        ("whole", Document::from_bytes_eager(&copy, &options)),
    ] {
        let doc = doc.unwrap();
        let again = scanner.scan(&doc).unwrap();
        assert_eq!(again.vendor_tags.as_deref(), Some(&[][..]), "{how}");
    }
}
