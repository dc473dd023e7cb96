//! Micro-benchmarks of the hot paths, one thread, everything in memory:
//!
//! - `content/*`: the content-stream interpreter plus tag finding on one page
//!   (`signprep_core::fuzzing::content`), for a text-heavy page in a simple font,
//!   the same in a Type0 font, and a page of paths and an inline image; `setup`
//!   is the fixed cost of that wrapper (it builds and loads a one-page PDF around
//!   the stream), to subtract from the others.
//! - `tags/*`: a page of 300 tags against the same glyphs with no tag.
//! - `fonts/*`: load + scan of the Type0/ToUnicode, TrueType-widths, Type3 and
//!   standard-14 fixtures (fonts are parsed once per document, so a fresh load
//!   each iteration measures font parsing and decoding).
//! - `scan/*`: a generated 20-page compressed document: load, load + scan, and
//!   scan of an already loaded document (fonts cached).
//! - `forms/*`: load + scan of the `form_*` fixtures and of a generated 500-field form.
//! - `json/*`: `serde_json::to_vec` of the `Record` of the 300-tag page and of the 500-field form.
//!
//! `cargo bench -p signprep-benches --bench hot_paths` (a few minutes for all);
//! `cargo test -p signprep-benches --benches` runs each once and checks the generated inputs.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use lopdf::{Object, dictionary};
use signprep_core::{Document, LoadOptions, Record, Scanner};
use signprep_testgen::content::{ContentWriter, Tj};
use signprep_testgen::fonts::{base14_dict, helvetica, inconsolata, inconsolata_dict};
use signprep_testgen::geom::PageGeom;
use signprep_testgen::pdfbuild::{DocBuilder, PageSpec};
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

const FILLER: &str = "The parties agree that this agreement shall be governed by the laws of the \
    state in which the services are performed, and that any dispute arising under it will be \
    settled by arbitration. Payment is due within thirty (30) days of invoice.";

/// `n` words of filler text, starting at word `seed`.
fn words(seed: usize, n: usize) -> String {
    let all: Vec<&str> = FILLER.split_whitespace().collect();
    (0..n)
        .map(|i| all[(seed + i) % all.len()])
        .collect::<Vec<_>>()
        .join(" ")
}

/// A content stream as word processors write it, for the one-page document of
/// `fuzzing::content` (`/F1` Courier WinAnsi, `/F2` Type0 Identity-H whose
/// ToUnicode maps 0x00XX to U+00XX): `lines` lines of TJ arrays with kerning,
/// a rule drawn every ten lines, and `<# SIG_n #>` every `tag_every` lines.
fn text_content(lines: usize, type0: bool, tag_every: Option<usize>) -> Vec<u8> {
    let mut s = String::from("q 1 0 0 1 0 0 cm\n0 0 0 rg\nBT\n");
    s.push_str(if type0 { "/F2 9 Tf\n" } else { "/F1 9 Tf\n" });
    s.push_str("11 TL\n1 0 0 1 54 760 Tm\n");
    for i in 0..lines {
        let mut text = words(i * 7, 12);
        if let Some(k) = tag_every
            && i % k == 0
        {
            let _ = write!(text, " <# SIG_{i} #>");
        }
        let mid = text.len() / 2;
        let split = text[mid..].find(' ').map_or(mid, |p| mid + p);
        let (a, b) = text.split_at(split);
        if type0 {
            let hex = |t: &str| t.bytes().map(|c| format!("00{c:02X}")).collect::<String>();
            let _ = writeln!(s, "[<{}> -250 <{}>] TJ T*", hex(a), hex(b));
        } else {
            let _ = writeln!(s, "[({a}) -250 ({b})] TJ T*");
        }
        if i % 10 == 9 {
            s.push_str("ET\n0.5 w 54 100 m 558 100 l S\nBT /F1 9 Tf 11 TL\n");
            let _ = writeln!(s, "1 0 0 1 54 {} Tm", 760.0 - 11.0 * (i + 1) as f64);
        }
    }
    s.push_str("ET\nQ\n");
    s.into_bytes()
}

/// Paths, colours and an inline image: content with no text at all.
fn graphics_content(shapes: usize) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..shapes {
        let x = (i % 20) as f64 * 28.0;
        let y = (i / 20) as f64 * 14.0;
        let _ = writeln!(
            s,
            "q 0.{} 0.2 0.4 rg {x} {y} 20 10 re f 0 0 1 RG {x} {y} m {} {} l {} {} 2 3 4 5 c S Q",
            i % 10,
            x + 20.0,
            y + 10.0,
            x + 3.0,
            y + 4.0
        );
    }
    s.push_str("q 100 0 0 100 300 300 cm BI /W 8 /H 8 /BPC 8 /CS /G ID ");
    s.push_str(&"\u{7f}".repeat(64));
    s.push_str(" EI Q\n");
    s.into_bytes()
}

/// 300 Courier lines `<# F_nnn #>` (or, with `tags` false, `[# F_nnn #]`: the
/// same glyph count without a tag).
fn many_tags_content(tags: bool) -> Vec<u8> {
    let mut s = String::from("BT /F1 7.5 Tf 9 TL 1 0 0 1 30 770 Tm\n");
    for i in 0..300 {
        let (o, c) = if tags { ("<#", "#>") } else { ("[#", "#]") };
        let _ = writeln!(s, "({o} F_{i:03} {c}) Tj T*");
        if i % 80 == 79 {
            let _ = writeln!(s, "1 0 0 1 {} 770 Tm", 30 + (i / 80 + 1) * 140);
        }
    }
    s.push_str("ET\n");
    s.into_bytes()
}

/// A compressed document of `pages` Letter pages: 50 lines of Helvetica body
/// text (TJ with kerning) and three Inconsolata tag lines each.
fn text_document(pages: usize) -> Vec<u8> {
    let mut b = DocBuilder::new();
    let helv = helvetica();
    let mono = inconsolata();
    let helv_id = b.add(base14_dict("Helvetica", Some("WinAnsiEncoding")));
    let mono_dict = inconsolata_dict(&mut b.doc);
    let mono_id = b.add(mono_dict);
    for p in 0..pages {
        let mut w = ContentWriter::new();
        w.raw("0.5 w 54 60 m 558 60 l S");
        let mut y = 740.0;
        for l in 0..50 {
            let text = words(p * 50 + l, 13);
            let mid = text.len() / 2;
            let split = text[mid..].find(' ').map_or(mid, |q| mid + q);
            let (a, c) = text.split_at(split);
            w.bt().tf("F1", &helv, 10.0).td(54.0, y);
            w.show_tj(&[Tj::Text(a), Tj::Kern(-120.0), Tj::Text(c)])
                .expect("encodable");
            w.et();
            y -= 12.5;
            if l % 16 == 15 {
                let line = format!("Signature: <# SIG_{p}_{l} #>");
                let tag = format!("<# SIG_{p}_{l} #>");
                w.bt().tf("F2", &mono, 11.0).td(54.0, y);
                w.show_with_tags(&line, &[tag.as_str()]).expect("encodable");
                w.et();
                y -= 12.5;
            }
        }
        let res = dictionary! { "Font" => dictionary! { "F1" => helv_id, "F2" => mono_id } };
        b.add_page(PageSpec::new(PageGeom::letter(), res, w.finish()).compressed())
            .expect("page");
    }
    b.finish("bench_text_document", "bench").expect("pdf").pdf
}

/// An AcroForm of 500 widgets on 5 pages, in 10 parent fields of 50 kids
/// (inherited `/Ff`), mostly text, with check boxes, combo boxes and signatures.
fn form_500() -> Vec<u8> {
    let mut b = DocBuilder::new();
    let helv = helvetica();
    let helv_id = b.add(base14_dict("Helvetica", Some("WinAnsiEncoding")));
    let mut annots: Vec<Vec<Object>> = vec![Vec::new(); 5];
    let mut parents = Vec::new();
    for s in 0..10 {
        let parent_id = b.doc.new_object_id();
        let mut kids = Vec::new();
        for k in 0..50 {
            let n = s * 50 + k;
            let (page, slot) = (n / 100, n % 100);
            let (col, row) = ((slot % 4) as f32, (slot / 4) as f32);
            let rect = vec![
                Object::Real(40.0 + col * 140.0),
                Object::Real(740.0 - row * 28.0),
                Object::Real(170.0 + col * 140.0),
                Object::Real(758.0 - row * 28.0),
            ];
            let mut w = dictionary! {
                "Type" => "Annot", "Subtype" => "Widget", "F" => 4,
                "T" => Object::string_literal(format!("f{k}")),
                "Parent" => parent_id, "Rect" => rect,
                "TU" => Object::string_literal(format!("Field {n} of the form")),
                "DA" => Object::string_literal("/Helv 10 Tf 0 g"),
            };
            match n % 25 {
                0 => w.set("FT", "Sig"),
                7 | 14 => {
                    w.set("FT", "Btn");
                    w.set("V", "Off");
                    w.set("AS", "Off");
                }
                11 => {
                    w.set("FT", "Ch");
                    w.set("Ff", 1 << 17);
                    w.set(
                        "Opt",
                        vec![
                            Object::string_literal("Yes"),
                            Object::string_literal("No"),
                            Object::string_literal("Maybe"),
                        ],
                    );
                }
                _ => {
                    w.set("FT", "Tx");
                    w.set("V", Object::string_literal(format!("value {n}")));
                    w.set("MaxLen", 40);
                }
            }
            let id = b.add(w);
            kids.push(Object::Reference(id));
            annots[page].push(Object::Reference(id));
        }
        b.doc.objects.insert(
            parent_id,
            Object::Dictionary(dictionary! {
                "T" => Object::string_literal(format!("section{s}")),
                "Kids" => kids,
                "Ff" => if s % 2 == 0 { 2 } else { 0 },
            }),
        );
        parents.push(Object::Reference(parent_id));
    }
    for (p, page_annots) in annots.into_iter().enumerate() {
        let mut w = ContentWriter::new();
        w.bt()
            .tf("F1", &helv, 14.0)
            .td(40.0, 770.0)
            .show(&format!("Application form, page {}", p + 1))
            .expect("encodable")
            .et();
        let res = dictionary! { "Font" => dictionary! { "F1" => helv_id, "Helv" => helv_id } };
        let page_id = b
            .add_page(PageSpec::new(PageGeom::letter(), res, w.finish()).compressed())
            .expect("page");
        if let Ok(Object::Dictionary(d)) = b.doc.get_object_mut(page_id) {
            d.set("Annots", page_annots);
        }
    }
    b.catalog_extra.set(
        "AcroForm",
        dictionary! { "Fields" => parents, "DA" => Object::string_literal("/Helv 0 Tf 0 g") },
    );
    b.finish("bench_form_500", "bench").expect("pdf").pdf
}

/// A one-page PDF whose content is `content` with `/F1` Courier (for checking the
/// `tags/*` inputs through the public API).
fn one_page_pdf(content: &[u8]) -> Vec<u8> {
    let mut b = DocBuilder::new();
    let f1 = b.add(base14_dict("Courier", Some("WinAnsiEncoding")));
    let mut w = ContentWriter::new();
    w.raw(std::str::from_utf8(content).expect("ascii"));
    let res = dictionary! { "Font" => dictionary! { "F1" => f1 } };
    b.add_page(PageSpec::new(PageGeom::letter(), res, w.finish()))
        .expect("page");
    b.finish("bench_one_page", "bench").expect("pdf").pdf
}

fn scanner() -> Scanner {
    Scanner::new().parallel_pages(false)
}

fn load_and_scan(pdf: &[u8], options: &LoadOptions, scanner: &Scanner) -> Record {
    let result = Document::from_bytes(black_box(pdf), options).and_then(|doc| scanner.scan(&doc));
    Record::from_result("bench.pdf".into(), result)
}

fn content(c: &mut Criterion) {
    let mut g = c.benchmark_group("content");
    g.bench_function("setup", |b| {
        b.iter(|| signprep_core::fuzzing::content(black_box(b"")))
    });
    for (name, bytes) in [
        ("text_page_60_lines", text_content(60, false, None)),
        ("text_page_60_lines_type0", text_content(60, true, None)),
        ("graphics_400_shapes", graphics_content(400)),
    ] {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| signprep_core::fuzzing::content(black_box(&bytes)));
        });
    }
    g.finish();
}

fn tags(c: &mut Criterion) {
    let mut g = c.benchmark_group("tags");
    // the inputs hold what their names say
    let mut found = Vec::new();
    for (tags, want) in [(true, 300), (false, 0)] {
        let doc = one_page_pdf(&many_tags_content(tags));
        found.push((
            load_and_scan(&doc, &LoadOptions::default(), &scanner())
                .scan
                .tags
                .len(),
            want,
        ));
    }
    assert!(found.iter().all(|(n, want)| n == want), "{found:?}");
    g.throughput(Throughput::Elements(300));
    for (name, bytes) in [
        ("page_300_tags", many_tags_content(true)),
        ("page_300_lines_no_tag", many_tags_content(false)),
        (
            "text_page_60_lines_6_tags",
            text_content(60, false, Some(10)),
        ),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| signprep_core::fuzzing::content(black_box(&bytes)));
        });
    }
    g.finish();
}

fn fonts(c: &mut Criterion) {
    let options = LoadOptions::default();
    let scanner = scanner();
    let mut g = c.benchmark_group("fonts");
    for name in [
        "type0_identity_h",
        "truetype_widths",
        "type3_font",
        "base14_courier",
    ] {
        let fixture = signprep_testgen::fixture(name).expect("fixture");
        g.bench_with_input(
            BenchmarkId::new("load_and_scan", name),
            &fixture.pdf,
            |b, pdf| {
                b.iter(|| black_box(load_and_scan(pdf, &options, &scanner)));
            },
        );
    }
    g.finish();
}

fn scan(c: &mut Criterion) {
    let options = LoadOptions::default();
    let scanner = scanner();
    let pages = 20;
    let pdf = text_document(pages);
    let r = load_and_scan(&pdf, &options, &scanner);
    assert_eq!((r.scan.pages.len(), r.scan.tags.len()), (pages, 3 * pages));
    let mut g = c.benchmark_group("scan");
    g.throughput(Throughput::Elements(pages as u64));
    g.bench_function("text_20_pages/load", |b| {
        b.iter(|| black_box(Document::from_bytes(black_box(&pdf), &options).expect("loads")));
    });
    g.bench_function("text_20_pages/load_and_scan", |b| {
        b.iter(|| black_box(load_and_scan(&pdf, &options, &scanner)));
    });
    let doc = Document::from_bytes(&pdf, &options).expect("loads");
    g.bench_function("text_20_pages/scan_loaded", |b| {
        b.iter(|| black_box(scanner.scan(black_box(&doc)).expect("scans")));
    });
    g.finish();
}

fn forms(c: &mut Criterion) {
    let options = LoadOptions::default();
    let scanner = scanner();
    let fixtures: Vec<_> = signprep_testgen::fixtures()
        .into_iter()
        .filter(|f| f.name.starts_with("form_"))
        .collect();
    let big = form_500();
    assert_eq!(
        load_and_scan(&big, &options, &scanner).scan.fields.len(),
        500
    );
    let mut g = c.benchmark_group("forms");
    g.throughput(Throughput::Elements(fixtures.len() as u64));
    g.bench_function("form_fixtures_all", |b| {
        b.iter(|| {
            for f in &fixtures {
                black_box(load_and_scan(&f.pdf, &options, &scanner));
            }
        });
    });
    g.throughput(Throughput::Elements(500));
    g.bench_function("generated_500_fields", |b| {
        b.iter(|| black_box(load_and_scan(&big, &options, &scanner)));
    });
    g.finish();
}

fn json(c: &mut Criterion) {
    let options = LoadOptions::default();
    let scanner = scanner();
    let tags_pdf = text_document(20);
    let form_pdf = form_500();
    let mut g = c.benchmark_group("json");
    for (name, pdf) in [
        ("record_20_pages_tags", &tags_pdf),
        ("record_500_fields", &form_pdf),
    ] {
        let record = load_and_scan(pdf, &options, &scanner);
        let len = serde_json::to_vec(&record).expect("json").len();
        g.throughput(Throughput::Bytes(len as u64));
        g.bench_function(name, |b| {
            b.iter(|| black_box(serde_json::to_vec(black_box(&record)).expect("json")));
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = content, tags, fonts, scan, forms, json
}
criterion_main!(benches);
