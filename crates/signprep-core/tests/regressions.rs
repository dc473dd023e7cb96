//! Every input that ever crashed or hung a fuzz target (`fuzz/`), replayed
//! through the same entry point by an ordinary `cargo test`.
//!
//! `testdata/regressions/<target>/` holds the minimised inputs of target
//! `<target>` (`document`, `content`, `cmap`, `forms`); files directly in
//! `testdata/regressions/` go through `document`. Each must return (no panic)
//! within a generous time bound.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use signprep_core::fuzzing;

/// Generous: libFuzzer's timeout was 10 s on optimised builds; tests run
/// unoptimised.
const BOUND: Duration = Duration::from_secs(20);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/regressions")
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.is_file()
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .filter(|p| p.extension().is_none_or(|e| e != "md"))
        .collect();
    files.sort();
    files
}

fn replay(target: &str, dir: &Path, run: fn(&[u8])) {
    let files = files_in(dir);
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
fn document_regressions() {
    replay("document", &root(), fuzzing::document);
    replay("document", &root().join("document"), fuzzing::document);
}

#[test]
fn content_regressions() {
    replay("content", &root().join("content"), fuzzing::content);
}

#[test]
fn cmap_regressions() {
    replay("cmap", &root().join("cmap"), fuzzing::cmap);
}

#[test]
fn forms_regressions() {
    replay("forms", &root().join("forms"), fuzzing::forms);
}

#[test]
fn no_unknown_target_folders() {
    let Ok(entries) = std::fs::read_dir(root()) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                // check_body and manifest: replayed by signprep-pack's tests.
                [
                    "document",
                    "content",
                    "cmap",
                    "forms",
                    "check_body",
                    "manifest"
                ]
                .contains(&name.as_str()),
                "testdata/regressions/{name}: no such fuzz target"
            );
        }
    }
}
