//! The lazy store against the eager lopdf load, on hand-made files.
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

use crate::document::{Document, LoadOptions};
use crate::scan::Scanner;
use lopdf::Object;
use std::io::Write;

/// A file of `objects` (numbered from 1) with a classic table.
pub(crate) fn classic(objects: &[&str]) -> Vec<u8> {
    let mut pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        write!(pdf, "{} 0 obj\n{body}\nendobj\n", i + 1).unwrap();
    }
    let xref = pdf.len();
    write!(pdf, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).unwrap();
    for o in offsets {
        writeln!(pdf, "{o:010} 00000 n ").unwrap();
    }
    write!(
        pdf,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    )
    .unwrap();
    pdf
}

const CONTENT: &str = "BT /F1 12 Tf 72 700 Td (<# SIG_1 #>) Tj ET";

fn one_page(extra_page_entries: &str) -> Vec<String> {
    vec![
        "<< /Type /Catalog /Pages 2 0 R >>".into(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R {extra_page_entries} >>"
        ),
        format!(
            "<< /Length {} >>\nstream\n{CONTENT}\nendstream",
            CONTENT.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>".into(),
    ]
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Scans both ways; returns (read lazily, result as text), asserting equality.
fn both(pdf: &[u8]) -> (bool, String) {
    let options = LoadOptions::default();
    let run = |doc: Result<Document, crate::Error>| {
        let lazy = doc.as_ref().is_ok_and(Document::is_lazy);
        let out = match doc.and_then(|d| Scanner::new().scan(&d)) {
            Ok(scan) => format!("{scan:?}"),
            Err(e) => format!("error {}: {}", e.code(), e.message()),
        };
        (lazy, out)
    };
    let (lazy, got) = run(Document::from_bytes(pdf, &options));
    let (eager, want) = run(Document::from_bytes_eager(pdf, &options));
    assert!(!eager);
    assert_eq!(got, want);
    (lazy, got)
}

#[test]
fn a_clean_file_is_read_lazily() {
    let pdf = classic(&strs(&one_page("")));
    let (lazy, out) = both(&pdf);
    assert!(lazy);
    assert!(out.contains("SIG_1"), "{out}");
}

#[test]
fn unused_objects_are_not_parsed() {
    let mut objs = one_page("");
    // An unused object the strict parser would refuse, and an image.
    objs.push("<< /Bad 1.2.3 >>".into());
    let pdf = classic(&strs(&objs));
    let doc = Document::from_bytes(&pdf, &LoadOptions::default()).unwrap();
    assert!(doc.is_lazy());
    Scanner::new().scan(&doc).unwrap();
    let crate::loader::Store::Lazy(lazy) = &doc.store else {
        panic!("eager");
    };
    assert!(!lazy.used_eager_fallback(), "the eager load ran");
    assert_eq!(lazy.parsed(), 5);
}

#[test]
fn an_object_the_strict_parser_refuses_is_read_by_lopdf() {
    // The font dictionary has a number lopdf reads and the strict parser does
    // not: the page tree opens lazily, the font comes from the eager load.
    let mut objs = one_page("");
    objs[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /X 0.00-4142502 >>".into();
    let pdf = classic(&strs(&objs));
    let (lazy, out) = both(&pdf);
    assert!(lazy);
    assert!(out.contains("SIG_1"), "{out}");
    let doc = Document::from_bytes(&pdf, &LoadOptions::default()).unwrap();
    let font = doc.store.get((5, 0)).unwrap().as_dict().unwrap();
    assert!(matches!(font.get(b"X"), Ok(Object::Real(_))));
}

#[test]
fn a_damaged_page_tree_opens_eagerly() {
    let mut objs = one_page("");
    objs[1] = "<< /Type /Pages /Kids [3 0 R] /Count 1 /Junk 1e5 >>".into();
    let pdf = classic(&strs(&objs));
    let (lazy, _) = both(&pdf);
    assert!(!lazy);
}

#[test]
fn wrong_offsets_fall_back() {
    let pdf = classic(&strs(&one_page("")));
    let text = String::from_utf8_lossy(&pdf).into_owned();
    // Shift the page's offset by one byte.
    let page_line = text
        .lines()
        .filter(|l| l.ends_with(" 00000 n "))
        .nth(2)
        .unwrap();
    let off: usize = page_line[..10].parse().unwrap();
    let bad = text.replacen(page_line, &format!("{:010} 00000 n ", off + 1), 1);
    let (lazy, out) = both(bad.as_bytes());
    assert!(!lazy);
    // lopdf rebuilds the table: still one page.
    assert!(out.contains("SIG_1"), "{out}");
    // A startxref one byte off: lopdf corrects it, the lazy store does not try.
    let at = text.rfind("startxref\n").unwrap() + 10;
    let end = text[at..].find('\n').unwrap() + at;
    let x: usize = text[at..end].parse().unwrap();
    let bad = format!("{}{}{}", &text[..at], x - 1, &text[end..]);
    let (lazy, out) = both(bad.as_bytes());
    assert!(!lazy);
    assert!(out.contains("SIG_1"), "{out}");
}

#[test]
fn prev_chain_with_xref_stream_and_predictor() {
    let pdf = super::xref::tests::prev_chain_file();
    let (lazy, out) = both(&pdf);
    assert!(lazy);
    // The updated page 3 (200 x 200) wins.
    assert!(out.contains("width: 200.0"), "{out}");
}

/// lopdf's writer with object streams and a cross-reference stream.
fn object_stream_file() -> Vec<u8> {
    let mut doc = lopdf::Document::load_mem(&classic(&strs(&one_page("")))).unwrap();
    let mut out = Vec::new();
    let opts = lopdf::SaveOptions::builder()
        .use_object_streams(true)
        .use_xref_streams(true)
        .build();
    doc.save_with_options(&mut out, opts).unwrap();
    out
}

#[test]
fn object_streams() {
    let pdf = object_stream_file();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    assert!(
        doc.reference_table
            .entries
            .values()
            .any(|e| matches!(e, lopdf::xref::XrefEntry::Compressed { .. }))
    );
    let (lazy, out) = both(&pdf);
    assert!(lazy);
    assert!(out.contains("SIG_1"), "{out}");
}

#[test]
fn hybrid_file() {
    // A table listing objects 2 and 3 as free, and /XRefStm naming a stream
    // that has them in object stream 4 (as in lopdf's own hybrid test).
    let header = "%PDF-1.5\n";
    let obj1 = "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
    let pages = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
    let page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << >> >>";
    let offsets = format!("2 0 3 {} ", pages.len() + 1);
    let content = format!("{offsets}{pages} {page}");
    let obj4 = format!(
        "4 0 obj\n<< /Type /ObjStm /N 2 /First {} /Length {} >>\nstream\n{content}\nendstream\nendobj\n",
        offsets.len(),
        content.len(),
    );
    let o1 = header.len();
    let o4 = o1 + obj1.len();
    let o5 = o4 + obj4.len();
    let [o4_hi, o4_lo] = u16::try_from(o4).unwrap().to_be_bytes();
    let [o5_hi, o5_lo] = u16::try_from(o5).unwrap().to_be_bytes();
    let entries = [
        2, 0, 4, 0, 2, 0, 4, 1, 1, o4_hi, o4_lo, 0, 1, o5_hi, o5_lo, 0,
    ];
    let mut buffer = format!("{header}{obj1}{obj4}").into_bytes();
    write!(
        buffer,
        "5 0 obj\n<< /Type /XRef /Size 6 /Index [2 4] /W [1 2 1] /Length {} >>\nstream\n",
        entries.len()
    )
    .unwrap();
    buffer.extend_from_slice(&entries);
    buffer.extend_from_slice(b"\nendstream\nendobj\n");
    let xref_pos = buffer.len();
    write!(
        buffer,
        "xref\n0 4\n0000000000 65535 f \n{o1:010} 00000 n \n0000000000 00001 f \n0000000000 00001 f \ntrailer\n<< /Size 6 /Root 1 0 R /XRefStm {o5} >>\nstartxref\n{xref_pos}\n%%EOF\n"
    )
    .unwrap();
    let (lazy, out) = both(&buffer);
    assert!(lazy);
    assert!(out.contains("width: 300.0"), "{out}");
}

#[test]
fn indirect_length_and_cycles() {
    let mut objs = one_page("");
    objs[3] = format!("<< /Length 6 0 R >>\nstream\n{CONTENT}\nendstream");
    objs.push(format!("{}", CONTENT.len()));
    let (lazy, out) = both(&classic(&strs(&objs)));
    assert!(lazy);
    assert!(out.contains("SIG_1"), "{out}");
    // A /Length that is its own object: no deadlock, lopdf decides.
    objs[3] = format!("<< /Length 4 0 R >>\nstream\n{CONTENT}\nendstream");
    let (_, out) = both(&classic(&strs(&objs)));
    assert!(!out.is_empty());
}

#[test]
fn limits_name_themselves() {
    let pdf = classic(&strs(&one_page("")));
    let options = LoadOptions {
        max_objects_resolved: 3,
        ..LoadOptions::default()
    };
    // Three objects open the page tree; the page's font and content need more:
    // the eager path then refuses the file (it holds 5 objects).
    let err = Document::from_bytes(&pdf, &options)
        .and_then(|d| Scanner::new().scan(&d))
        .unwrap_err();
    assert!(err.message().contains("max_objects_resolved"), "{err}");
    let options = LoadOptions {
        max_kids_per_node: 0,
        ..LoadOptions::default()
    };
    let err = Document::from_bytes(&pdf, &options).unwrap_err();
    assert!(err.message().contains("max_kids_per_node"), "{err}");
    assert!(
        matches!(
            err.kind(),
            crate::ErrorKind::LimitExceeded {
                limit: crate::Limit::KidsPerNode { limit: 0 },
                page: None,
                cause: None,
            }
        ),
        "{err:?}"
    );
    let options = LoadOptions {
        max_page_tree_depth: 0,
        ..LoadOptions::default()
    };
    let nested = classic(&[
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Pages /Kids [4 0 R] /Count 1 /Parent 2 0 R >>",
        "<< /Type /Page /Parent 3 0 R >>",
    ]);
    let err = Document::from_bytes(&nested, &options).unwrap_err();
    assert!(err.message().contains("max_page_tree_depth"), "{err}");
    // A reference chain longer than allowed reads as missing.
    let options = LoadOptions {
        max_reference_chain: 1,
        ..LoadOptions::default()
    };
    let chained = classic(&[
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /Rotate 5 0 R >>",
        "90",
        "4 0 R",
    ]);
    let doc = Document::from_bytes(&chained, &options).unwrap();
    assert_eq!(doc.page_geometry(0).unwrap().rotation.degrees(), 0);
    let doc = Document::from_bytes(&chained, &LoadOptions::default()).unwrap();
    assert_eq!(doc.page_geometry(0).unwrap().rotation.degrees(), 90);
}

/// A file whose objects 1-4 are plain and whose font (5) sits in object
/// stream 6, with a cross-reference stream (7).
fn font_in_object_stream() -> Vec<u8> {
    let objs = one_page("");
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = [0usize; 8];
    for (i, body) in objs.iter().take(4).enumerate() {
        offsets[i + 1] = pdf.len();
        write!(pdf, "{} 0 obj\n{body}\nendobj\n", i + 1).unwrap();
    }
    let font = &objs[4];
    let head = "5 0 ";
    let data = format!("{head}{font}");
    offsets[6] = pdf.len();
    write!(
        pdf,
        "6 0 obj\n<< /Type /ObjStm /N 1 /First {} /Length {} >>\nstream\n{data}\nendstream\nendobj\n",
        head.len(),
        data.len()
    )
    .unwrap();
    offsets[7] = pdf.len();
    let mut rows = Vec::new();
    for n in 0..8u32 {
        let row: [u8; 4] = match n {
            0 => [0, 0, 0, 255],
            5 => [2, 0, 6, 0],
            _ => {
                let [hi, lo] = u16::try_from(offsets[n as usize]).unwrap().to_be_bytes();
                [1, hi, lo, 0]
            }
        };
        rows.extend_from_slice(&row);
    }
    write!(
        pdf,
        "7 0 obj\n<< /Type /XRef /Size 8 /W [1 2 1] /Root 1 0 R /Length {} >>\nstream\n",
        rows.len()
    )
    .unwrap();
    pdf.extend_from_slice(&rows);
    write!(
        pdf,
        "\nendstream\nendobj\nstartxref\n{}\n%%EOF\n",
        offsets[7]
    )
    .unwrap();
    pdf
}

#[test]
fn a_font_in_an_object_stream() {
    let (lazy, out) = both(&font_in_object_stream());
    assert!(lazy);
    assert!(out.contains("Courier"), "{out}");
}

#[test]
fn deferred_errors_come_from_the_eager_load() {
    // The font's object stream is longer than the stream limit: lopdf refuses
    // the whole file. Read lazily, the page tree opens, and the scan fails the
    // same way once it needs the font.
    let pdf = font_in_object_stream();
    let options = LoadOptions {
        max_stream_bytes: 50,
        ..LoadOptions::default()
    };
    let doc = Document::from_bytes(&pdf, &options).unwrap();
    assert!(doc.is_lazy());
    let a = Scanner::new().scan(&doc).unwrap_err();
    let b = Document::from_bytes_eager(&pdf, &options).unwrap_err();
    assert_eq!((a.code(), a.message()), (b.code(), b.message()));
    assert_eq!(a.code(), "pdf_limit_exceeded");
}

#[test]
fn an_entry_pointing_at_another_objects_header() {
    // Entry 6 says offset 0: lopdf reads object 1 there (after the header
    // comments) and files it as 1 0 (in an edited file, over the edited
    // object 1: the stale read of issue 32). Read on demand, the entry is
    // looked for by scanning: object 6 is written nowhere, so it is null, and
    // object 1 is its own; the file is said to be repaired.
    let pdf = classic(&strs(&one_page("")));
    let swap = |hay: Vec<u8>, from: &[u8], to: &[u8]| -> Vec<u8> {
        let at = hay.windows(from.len()).position(|w| w == from).unwrap();
        [&hay[..at], to, &hay[at + from.len()..]].concat()
    };
    // The table grows after its own start, so startxref stays right.
    let bytes = swap(pdf, b"xref\n0 6\n", b"xref\n0 7\n");
    let bytes = swap(
        bytes,
        b"trailer\n<< /Size 6",
        b"0000000000 00000 n \ntrailer\n<< /Size 7",
    );
    let doc = Document::from_bytes(&bytes, &LoadOptions::default()).unwrap();
    assert!(doc.is_lazy());
    assert!(doc.object((1, 0)).is_some());
    assert!(doc.object((6, 0)).is_none());
    assert!(!doc.used_eager_fallback());
    assert!(doc.was_repaired());
    let out = format!("{:?}", Scanner::new().scan(&doc).unwrap());
    assert!(
        out.contains("SIG_1") && out.contains("PdfRepaired"),
        "{out}"
    );
}

#[test]
fn a_raised_cancel_flag_stops_the_scan_as_the_time_budget_does() {
    let pdf = classic(&strs(&one_page("")));
    let cancel = crate::Cancel::new();
    let options = LoadOptions::default().cancel(cancel.clone());
    assert!(
        Document::from_bytes(&pdf, &options)
            .and_then(|d| Scanner::new().scan(&d))
            .is_ok()
    );
    cancel.cancel();
    let err = Document::from_bytes(&pdf, &options)
        .and_then(|d| Scanner::new().scan(&d))
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            crate::ErrorKind::LimitExceeded {
                limit: crate::Limit::Cancelled,
                ..
            }
        ),
        "{err:?}"
    );
    // A clone of the options carries the same flag; other options do not.
    assert_eq!(options.clone(), options);
    assert_ne!(LoadOptions::default().cancel(crate::Cancel::new()), options);
}
