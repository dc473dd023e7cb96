//! What `signprep check` reads: the paths given, with folders expanded.
//!
//! PDFs in folders come from the shared expansion ([`crate::inputs::expand`],
//! as `signprep scan` sees them); request bodies and manifests (`*.json`,
//! `*.toml`) beside them are added, and each folder's files are checked in
//! sorted path order. The items run on the batch engine (`check_cmd`).

use crate::inputs::{self, Input};
use std::path::{Path, PathBuf};

/// One input.
#[derive(Debug)]
pub enum Item {
    /// A file: `named` when given on the command line (its kind must be
    /// known), not when found in a folder (a file of unknown kind is skipped).
    File { path: PathBuf, named: bool },
    /// Standard input (`-`).
    Stdin,
    /// A path that could not be read.
    Missing(PathBuf, std::io::Error),
}

impl Item {
    /// The path as given (`-` for standard input).
    pub fn path(&self) -> &Path {
        match self {
            Item::File { path, .. } | Item::Missing(path, _) => path,
            Item::Stdin => Path::new("-"),
        }
    }
}

/// The inputs for `paths`, in order; folders walked recursively.
pub fn collect(paths: &[PathBuf]) -> Vec<Item> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Item::Stdin);
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                let mut found: Vec<Item> = inputs::expand(std::slice::from_ref(p))
                    .into_iter()
                    .map(|i| match i {
                        Input::File(path) => Item::File { path, named: false },
                        Input::Missing(path, e) => Item::Missing(path, e),
                    })
                    .collect();
                bodies(p, &mut found);
                // Path order compares component by component: the order of a
                // sorted depth-first walk.
                found.sort_by(|a, b| a.path().cmp(b.path()));
                out.extend(found);
            }
            Ok(_) => out.push(Item::File {
                path: p.clone(),
                named: true,
            }),
            Err(e) => out.push(Item::Missing(p.clone(), e)),
        }
    }
    out
}

/// `*.json` and `*.toml` files under `dir` (unreadable folders are reported by
/// the PDF expansion already).
fn bodies(dir: &Path, out: &mut Vec<Item>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        // Hidden entries are skipped, as the PDF walk skips them.
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => bodies(&path, out),
            Ok(_) if is_body(&path) => out.push(Item::File { path, named: false }),
            _ => {}
        }
    }
}

fn is_body(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("toml"))
}
