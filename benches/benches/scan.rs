//! Micro-benchmarks: load + scan of the generated fixtures, in memory, one thread.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use signprep_core::{Document, LoadOptions, Scanner};
use std::hint::black_box;
use std::time::Duration;

fn scan_fixtures(c: &mut Criterion) {
    let fixtures = signprep_testgen::fixtures();
    let options = LoadOptions::default();
    let scanner = Scanner::new().parallel_pages(false);
    let pages: u64 = fixtures
        .iter()
        .map(|f| Document::from_bytes(&f.pdf, &options).map_or(0, |d| d.page_count() as u64))
        .sum();

    let mut group = c.benchmark_group("fixtures");
    group.throughput(Throughput::Elements(pages));
    group.bench_function("load_and_scan_all", |b| {
        b.iter(|| {
            for f in &fixtures {
                let doc = Document::from_bytes(black_box(&f.pdf), &options).expect("loads");
                black_box(scanner.scan(&doc).expect("scans"));
            }
        })
    });
    group.bench_function("load_only_all", |b| {
        b.iter(|| {
            for f in &fixtures {
                black_box(Document::from_bytes(black_box(&f.pdf), &options).expect("loads"));
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = scan_fixtures
}
criterion_main!(benches);
