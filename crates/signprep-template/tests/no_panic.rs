//! No input makes the reader panic: arbitrary bytes, every fixture cut short
//! and with bytes changed, and every fixture's XML damaged then zipped
//! again. Deterministic (a fixed-seed generator) and bounded.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Dialects, Scan};
use signprep_template::{Format, Template, round_trip};
use std::io::{Cursor, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use zip::write::{SimpleFileOptions, ZipWriter};

/// xorshift64*: enough randomness for mutations, the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Everything a caller does with a template, on bytes that may be anything.
fn exercise(bytes: &[u8]) {
    let _ = Format::sniff(bytes);
    for format in [Format::Docx, Format::Odt] {
        if let Ok(t) = Template::read(bytes, format) {
            let all = Dialects::all();
            let _ = t.tags(all);
            let _ = t.findings(all);
            let mut scan = Scan::default();
            round_trip(&t, all, &mut scan);
        }
    }
}

fn survives(case: &str, bytes: &[u8]) {
    let r = catch_unwind(AssertUnwindSafe(|| exercise(bytes)));
    assert!(r.is_ok(), "the reader panicked on {case}");
}

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/templates");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("testdata/templates (signprep-testgen --templates)")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".docx") || n.ends_with(".odt"))
        .collect();
    names.sort();
    assert!(names.len() >= 30, "the template fixtures are there");
    names
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).expect("fixture");
            (n, bytes)
        })
        .collect()
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = Rng(0x5EED_0001);
    for i in 0..300 {
        let len = rng.below(2048);
        let mut v: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if i % 3 == 0 {
            v.splice(0..0, *b"PK\x03\x04");
        }
        if i % 7 == 0 {
            v.splice(0..0, [0xD0, 0xCF, 0x11, 0xE0]);
        }
        survives(&format!("random buffer {i}"), &v);
    }
}

#[test]
fn truncated_and_mutated_fixtures_never_panic() {
    let mut rng = Rng(0x5EED_0002);
    for (name, bytes) in fixtures() {
        let n = bytes.len();
        for k in 0..48 {
            let cut = n * k / 48;
            survives(
                &format!("{name} cut at {cut}"),
                bytes.get(..cut).unwrap_or_default(),
            );
        }
        for k in 0..48 {
            let mut v = bytes.clone();
            for _ in 0..=rng.below(4) {
                let at = rng.below(v.len());
                if let Some(b) = v.get_mut(at) {
                    *b = rng.next() as u8;
                }
            }
            survives(&format!("{name} mutation {k}"), &v);
        }
    }
}

/// The entries of a zip, in order.
fn entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let Ok(mut z) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for i in 0..z.len() {
        let Ok(mut f) = z.by_index(i) else { continue };
        let name = f.name().map(|n| n.to_string()).unwrap_or_default();
        let mut data = Vec::new();
        if f.read_to_end(&mut data).is_ok() {
            out.push((name, data));
        }
    }
    out
}

fn rezip(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, data) in entries {
        w.start_file(name.as_str(), opts).expect("zip entry");
        w.write_all(data).expect("zip write");
    }
    w.finish().expect("zip").into_inner()
}

const SNIPPETS: &[&[u8]] = &[
    b"<w:p>",
    b"</w:r>",
    b"<w:tbl><w:tr><w:tc>",
    b"<w:txbxContent>",
    b"<mc:AlternateContent><mc:Choice>",
    b"<w:del><w:r><w:delText>",
    b"<text:p>",
    b"</text:span>",
    b"<table:table-cell table:number-columns-repeated=\"99999999999\">",
    b"<text:s text:c=\"-5\"/>",
    b"<text:change text:change-id=\"ct2\"/>",
    b"<office:annotation>",
    b"&#0;",
    b"&bogus;",
    b"&#x110000;",
    b"<# TAG",
    b" #>",
    b"{{",
    b"\xEF\xBC\x83",
    b"\xFF\xFE",
    b"<w:gridSpan w:val=\"18446744073709551615\"/>",
];

#[test]
fn damaged_xml_inside_valid_zips_never_panics() {
    let mut rng = Rng(0x5EED_0003);
    for (name, bytes) in fixtures() {
        let parts = entries(&bytes);
        let xml: Vec<usize> = (0..parts.len())
            .filter(|&i| parts.get(i).is_some_and(|(n, _)| n.ends_with(".xml")))
            .collect();
        if xml.is_empty() {
            continue;
        }
        for k in 0..24 {
            let mut parts = parts.clone();
            let which = xml.get(rng.below(xml.len())).copied().unwrap_or(0);
            if let Some((_, data)) = parts.get_mut(which) {
                let at = rng.below(data.len() + 1);
                match rng.below(3) {
                    0 => {
                        let snippet = SNIPPETS
                            .get(rng.below(SNIPPETS.len()))
                            .copied()
                            .unwrap_or(b"");
                        data.splice(at..at, snippet.iter().copied());
                    }
                    1 => {
                        let end = (at + rng.below(64)).min(data.len());
                        data.drain(at..end);
                    }
                    _ => {
                        let end = (at + rng.below(256)).min(data.len());
                        let copy: Vec<u8> = data.get(at..end).unwrap_or_default().to_vec();
                        data.splice(at..at, copy);
                    }
                }
            }
            survives(&format!("{name} XML mutation {k}"), &rezip(&parts));
        }
    }
}
