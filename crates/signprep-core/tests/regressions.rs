//! Every input that ever crashed or hung a fuzz target (`fuzz/`), replayed
//! through the same entry point by an ordinary `cargo test`.
//!
//! `testdata/regressions/<target>/` holds the minimised inputs of target
//! `<target>`; a folder exists once it holds a case, and every folder has its
//! replay test here or in `signprep-pack`'s `tests/regressions.rs`
//! (`every_folder_is_replayed`). Each input must return (no panic) within a
//! generous time bound.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use signprep_core::fuzzing;

/// Generous: libFuzzer's timeout was 10 s on optimised builds; tests run
/// unoptimised.
const BOUND: Duration = Duration::from_secs(20);

/// The folders replayed by this file and by `signprep-pack`'s.
const REPLAYED: &[&str] = &["cmap", "check_body"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/regressions")
}

/// The cases of `target`, in name order; at least one.
fn cases(target: &str) -> Vec<PathBuf> {
    let dir = root().join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no case", dir.display());
    files
}

/// Runs every case of `target`; the failures name their files.
fn replay(target: &str, run: fn(&[u8])) {
    let mut failures = Vec::new();
    for f in cases(target) {
        let data = std::fs::read(&f).unwrap();
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
fn cmap_regressions() {
    replay("cmap", fuzzing::cmap);
}

#[test]
fn every_folder_is_replayed() {
    for e in std::fs::read_dir(root()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            assert!(
                REPLAYED.contains(&name.as_str()),
                "testdata/regressions/{name}: add its replay test (`{name}_regressions`)"
            );
        } else {
            assert_eq!(
                name, "README.md",
                "testdata/regressions/{name}: not in a target's folder"
            );
        }
    }
}
