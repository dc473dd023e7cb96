//! Every input that ever crashed, hung or exhausted the `check_body` or
//! `manifest` fuzz target (`fuzz/`), replayed through the same entry point by
//! an ordinary `cargo test`; the PDF targets' inputs are replayed by
//! `signprep-core`'s `tests/regressions.rs`.
//!
//! `testdata/regressions/check_body/` holds request bodies (a first byte
//! `0x00`-`0x07` forces a kind, as in the fuzz target) and
//! `testdata/regressions/manifest/` manifests. Each must return (no panic)
//! within a generous time bound.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_pack::fuzzing;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Generous: libFuzzer's timeout was 10 s on optimised builds; tests run
/// unoptimised.
const BOUND: Duration = Duration::from_secs(30);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/regressions")
}

fn replay(target: &str, run: fn(&[u8])) {
    let Ok(entries) = std::fs::read_dir(root().join(target)) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let start = Instant::now();
        let outcome = std::panic::catch_unwind(|| run(&data));
        let took = start.elapsed();
        assert!(outcome.is_ok(), "{target}: {} panics", f.display());
        assert!(took < BOUND, "{target}: {} took {took:?}", f.display());
    }
}

#[test]
fn check_body_regressions() {
    replay("check_body", fuzzing::check_body);
}

#[test]
fn manifest_regressions() {
    replay("manifest", fuzzing::manifest);
}
