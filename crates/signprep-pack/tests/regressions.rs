//! Every input that ever crashed, hung or exhausted the `check_body` or
//! `manifest` fuzz target (`fuzz/`), replayed through the same entry point by
//! an ordinary `cargo test`; the PDF targets' inputs are replayed by
//! `signprep-core`'s `tests/regressions.rs`, which also checks that every
//! folder of `testdata/regressions/` has its replay test.
//!
//! `testdata/regressions/check_body/` holds request bodies (a first byte
//! `0x00`-`0x07` forces a kind, as in the fuzz target); a `manifest/` folder
//! comes with the first manifest case, and its test with it. Each input must
//! return (no panic) within a generous time bound.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_pack::fuzzing;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Generous: libFuzzer's timeout was 10 s on optimised builds; tests run
/// unoptimised.
const BOUND: Duration = Duration::from_secs(30);

/// Runs every case of `target` (at least one); the failures name their files.
fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no case", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let start = Instant::now();
        let outcome = std::panic::catch_unwind(|| run(&data));
        let took = start.elapsed();
        if outcome.is_err() {
            failures.push(format!("{}: panics", f.display()));
        } else if took >= BOUND {
            failures.push(format!("{}: took {took:?}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{target}: {}", failures.join("\n"));
}

#[test]
fn check_body_regressions() {
    replay("check_body", fuzzing::check_body);
}
