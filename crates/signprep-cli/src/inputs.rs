//! Turning command-line paths into the list of files to scan.

use std::path::{Path, PathBuf};

/// An input: a file to scan, or a path that could not be read.
#[derive(Debug)]
pub enum Input {
    File(PathBuf),
    Missing(PathBuf, std::io::Error),
}

/// Expands folders (recursively, `*.pdf`, sorted); keeps files as given.
pub fn expand(paths: &[PathBuf]) -> Vec<Input> {
    let mut out = Vec::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk(p, &mut out),
            Ok(_) => out.push(Input::File(p.clone())),
            Err(e) => out.push(Input::Missing(p.clone(), e)),
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<Input>) {
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            out.push(Input::Missing(dir.to_path_buf(), e));
            return;
        }
    };
    entries.sort();
    for path in entries {
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => walk(&path, out),
            Ok(_) if is_pdf(&path) => out.push(Input::File(path)),
            Ok(_) => {}
            Err(e) => out.push(Input::Missing(path, e)),
        }
    }
}

fn is_pdf(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
}
