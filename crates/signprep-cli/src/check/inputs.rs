//! What `signprep check` reads: the paths given, with folders expanded, then
//! the paths a `--files-from` list names.
//!
//! PDFs in folders come from the shared expansion ([`crate::inputs::expand`],
//! as `signprep scan` sees them); request bodies and manifests (`*.json`,
//! `*.toml`) beside them are added, and each folder's files are checked in
//! sorted path order. A list on standard input is read as the run goes (its
//! lines are read by [`crate::batch::files_from`], as `scan`'s are), so the
//! first record is written before the list ends. The items run on the batch
//! engine (`check_cmd`).

use crate::batch::files_from::{Entry, Lines};
use crate::inputs::{self, Input};
use std::path::{Path, PathBuf};

/// One input.
#[derive(Debug)]
pub enum Item {
    /// A file, given on the command line or found in a folder.
    File { path: PathBuf },
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

/// The inputs of a run, as an iterator a feeder thread can own.
pub struct Inputs {
    iter: Box<dyn Iterator<Item = Item> + Send>,
    /// How many there are, when known up front (not for `--files-from -`).
    pub total: Option<usize>,
}

impl Iterator for Inputs {
    type Item = Item;
    fn next(&mut self) -> Option<Item> {
        self.iter.next()
    }
}

impl Inputs {
    /// The inputs for `paths` (folders walked recursively), then those of the
    /// list `files_from` (a file read now, or `-`: standard input, read as the
    /// run goes). `Err`: a usage or I/O problem that stops the run before it
    /// starts.
    pub fn open(paths: &[PathBuf], files_from: Option<&Path>) -> Result<Inputs, String> {
        let stdin = |p: &Path| p.as_os_str() == "-";
        if files_from.is_some_and(stdin) && paths.iter().any(|p| stdin(p)) {
            return Err(
                "standard input cannot be both the --files-from list and an input (`-`)".into(),
            );
        }
        let mut eager = collect(paths);
        let Some(list) = files_from else {
            return Ok(Inputs {
                total: Some(eager.len()),
                iter: Box::new(eager.into_iter()),
            });
        };
        let lines = Lines::open(list)
            .map_err(|e| format!("--files-from {}: cannot read: {e}", list.display()))?;
        if stdin(list) {
            Ok(Inputs {
                total: None,
                iter: Box::new(eager.into_iter().chain(lines.flat_map(entry_items))),
            })
        } else {
            eager.extend(lines.flat_map(entry_items));
            Ok(Inputs {
                total: Some(eager.len()),
                iter: Box::new(eager.into_iter()),
            })
        }
    }
}

/// The inputs for `paths`, in order; folders walked recursively.
pub fn collect(paths: &[PathBuf]) -> Vec<Item> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Item::Stdin);
        } else {
            out.extend(items_of(p));
        }
    }
    out
}

/// A `--files-from` entry as inputs: a folder is walked like a PATH argument,
/// a file is one input; `-` is a file of that name, not
/// standard input.
fn entry_items(entry: Entry) -> Vec<Item> {
    match entry {
        Entry::Path(p) => items_of(&p),
        Entry::Bad(p, e) => vec![Item::Missing(p, e)],
    }
}

/// The inputs for one path: a folder's PDFs, bodies and manifests in path
/// order, or the file itself.
fn items_of(p: &Path) -> Vec<Item> {
    match std::fs::metadata(p) {
        Ok(m) if m.is_dir() => {
            let mut found: Vec<Item> = inputs::expand(&[p.to_path_buf()])
                .into_iter()
                .map(|i| match i {
                    Input::File(path) => Item::File { path },
                    Input::Missing(path, e) => Item::Missing(path, e),
                })
                .collect();
            bodies(p, &mut found);
            // Path order compares component by component: the order of a
            // sorted depth-first walk.
            found.sort_by(|a, b| a.path().cmp(b.path()));
            found
        }
        Ok(_) => vec![Item::File {
            path: p.to_path_buf(),
        }],
        Err(e) => vec![Item::Missing(p.to_path_buf(), e)],
    }
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
            Ok(_) if is_body(&path) => out.push(Item::File { path }),
            _ => {}
        }
    }
}

fn is_body(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("toml"))
}
