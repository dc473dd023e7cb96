//! Turning a path into the files to process: a file is kept as given, a folder is
//! walked in parallel with the `ignore` crate and its files sorted (with
//! [`WalkOptions::bodies`], `check`'s request bodies and manifests beside them).

use ignore::overrides::{Override, OverrideBuilder};
use ignore::{WalkBuilder, WalkState};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// An input: a file to process, standard input, or a path that could not be read.
#[derive(Debug)]
pub enum Input {
    File(PathBuf),
    /// `-` among the PATH arguments (read when its turn comes).
    Stdin,
    Missing(PathBuf, io::Error),
}

impl Input {
    /// The path as given or walked (`-` for standard input).
    pub fn path(&self) -> &Path {
        match self {
            Input::File(p) | Input::Missing(p, _) => p,
            Input::Stdin => Path::new("-"),
        }
    }

    /// The file's size, to start the largest first (0 for standard input
    /// or a path that cannot be read).
    pub fn size(&self) -> u64 {
        match self {
            Input::File(p) => std::fs::metadata(p).map_or(0, |m| m.len()),
            Input::Stdin | Input::Missing(..) => 0,
        }
    }
}

/// How folders are walked.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Read `.gitignore` (inside a git repository or not), `.ignore` and
    /// `.git/info/exclude`, in the folder and its parents.
    pub respect_ignore_files: bool,
    /// Walk into hidden files and folders.
    pub hidden: bool,
    /// Follow symbolic links (skipped otherwise).
    pub follow_links: bool,
    /// Include/exclude globs (`!` excludes), gitignore syntax, relative to the folder.
    /// With no include glob, only the files of `types` are taken.
    pub globs: Vec<String>,
    /// The extensions taken when no include glob is given (`--type`): `pdf`, and
    /// `docx`, `odt` for templates. Empty: `pdf`.
    pub types: Vec<&'static str>,
    /// Also take the request bodies and manifests (`*.json`, `*.toml`) in a
    /// folder and below, hidden entries left out, ignore files not read
    /// (`check`).
    pub bodies: bool,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            respect_ignore_files: true,
            hidden: false,
            follow_links: false,
            globs: Vec::new(),
            types: Vec::new(),
            bodies: false,
        }
    }
}

impl WalkOptions {
    /// Checks the globs without walking anything.
    pub fn check(&self) -> Result<(), String> {
        self.overrides(Path::new(".")).map(|_| ())
    }

    fn overrides(&self, root: &Path) -> Result<Override, String> {
        let mut b = OverrideBuilder::new(root);
        b.case_insensitive(true).map_err(|e| e.to_string())?;
        if !self.globs.iter().any(|g| !g.starts_with('!')) {
            if self.types.is_empty() {
                b.add("*.pdf").map_err(|e| e.to_string())?;
            }
            for t in &self.types {
                b.add(&format!("*.{t}")).map_err(|e| e.to_string())?;
            }
        }
        for g in &self.globs {
            b.add(g).map_err(|e| {
                format!("--glob `{g}` is not a valid pattern: {}", glob_problem(&e))
            })?;
        }
        b.build().map_err(|e| e.to_string())
    }
}

/// Why the ignore crate refused a `--glob`, in our words (its text names the
/// globset crate's error kinds; any other is said as the syntax to use).
fn glob_problem(e: &ignore::Error) -> &'static str {
    let text = e.to_string();
    let said = [
        (
            "unclosed character class",
            "a `[` opens a set such as `[0-9]` that is not closed; write a literal `[` as `[[]`",
        ),
        (
            "invalid range",
            "a range such as `[a-z]` goes from the lower character to the higher",
        ),
        (
            "invalid use of **",
            "`**` must stand alone between slashes, as in `docs/**/*.pdf`",
        ),
        ("unopened alternate group", "a `}` closes no `{`"),
        (
            "unclosed alternate group",
            "a `{` opens a group such as `{a,b}` that is not closed",
        ),
        (
            "nested alternate groups",
            "a `{a,b}` group cannot hold another",
        ),
        ("dangling", "it ends in a `\\` that escapes nothing"),
    ];
    said.iter().find(|(kind, _)| text.contains(kind)).map_or(
        "write it with `*`, `?`, `[...]`, `{a,b}` and `**` (a leading `!` excludes)",
        |(_, ours)| ours,
    )
}

/// The inputs of one PATH argument: `-` is standard input, anything else
/// as [`inputs_at`].
pub fn inputs_of(path: &Path, options: &WalkOptions, threads: usize) -> Vec<Input> {
    if path.as_os_str() == "-" {
        // Standard input, read when the file's turn comes.
        return vec![Input::Stdin];
    }
    inputs_at(path, options, threads)
}

/// The inputs at one path (a PATH argument, a `--files-from` line; there `-`
/// is a file of that name): the file itself, or the files of the folder in
/// sorted path order (walk errors are inputs too, in their sorted place).
/// `threads` 0 lets the walker choose.
pub fn inputs_at(path: &Path, options: &WalkOptions, threads: usize) -> Vec<Input> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            let mut found = walk_dir(path, options, threads);
            if options.bodies {
                bodies(path, &mut found);
                // Path order compares component by component: the order of
                // a sorted depth-first walk.
                found.sort_by(|a, b| a.path().cmp(b.path()));
            }
            found
        }
        Ok(_) => vec![Input::File(path.to_path_buf())],
        Err(e) => vec![Input::Missing(path.to_path_buf(), e)],
    }
}

/// `*.json` and `*.toml` files under `dir` (unreadable folders are reported by
/// the PDF walk already).
fn bodies(dir: &Path, out: &mut Vec<Input>) {
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
            Ok(_) if is_body(&path) => out.push(Input::File(path)),
            _ => {}
        }
    }
}

fn is_body(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("toml"))
}

fn walk_dir(root: &Path, options: &WalkOptions, threads: usize) -> Vec<Input> {
    let overrides = match options.overrides(root) {
        Ok(o) => o,
        Err(e) => {
            return vec![Input::Missing(
                root.to_path_buf(),
                io::Error::new(io::ErrorKind::InvalidInput, e),
            )];
        }
    };
    let ignore_files = options.respect_ignore_files;
    let candidates = overrides.clone();
    let hidden = options.hidden;
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(!options.hidden)
        .follow_links(options.follow_links)
        .ignore(ignore_files)
        .git_ignore(ignore_files)
        .git_exclude(ignore_files)
        .parents(ignore_files)
        // The user's global git excludes would make the file list depend on the machine.
        .git_global(false)
        // A shared folder is rarely a git repository; its .gitignore still counts.
        .require_git(false)
        // The globs filter what the ignore rules and the hidden check let through
        // (as `overrides` they would win over both); an excluded folder is not entered.
        .filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            !overrides.matched(e.path(), is_dir).is_ignore()
        })
        .threads(threads);
    let found = Mutex::new(Vec::new());
    builder.build_parallel().run(|| {
        let found = &found;
        let candidates = &candidates;
        Box::new(move |entry| {
            let input = match entry {
                Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => Input::File(e.into_path()),
                Ok(_) => return WalkState::Continue,
                Err(e) if dangling_elsewhere(&e, candidates, hidden) => {
                    return WalkState::Continue;
                }
                Err(e) => match to_input(root, e) {
                    Some(i) => i,
                    None => return WalkState::Continue,
                },
            };
            if let Ok(mut v) = found.lock() {
                v.push(input);
            }
            WalkState::Continue
        })
    });
    let mut inputs = found.into_inner().unwrap_or_else(|e| e.into_inner());
    // Path order (component by component) is the order of a depth-first walk
    // with each folder's entries sorted.
    inputs.sort_by(|a, b| a.path().cmp(b.path()));
    inputs
}

/// A link (`--follow`) that leads nowhere, whose name is no file the walk
/// would take (`notes.txt` when only `*.pdf` are): passed over, as the file
/// would be if it were there. A dangling link that the walk would take
/// (`a.pdf`) stays an input that cannot be read; so does every other error.
fn dangling_elsewhere(e: &ignore::Error, candidates: &Override, hidden: bool) -> bool {
    let Some(path) = error_path(e) else {
        return false;
    };
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link || std::fs::metadata(path).is_ok() {
        return false;
    }
    let dot = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'));
    (dot && !hidden) || candidates.matched(path, false).is_ignore()
}

/// A walk error as an input that gets an error record; `None` for an error in an
/// ignore file (a bad glob in `.gitignore`), which is reported on stderr instead.
fn to_input(root: &Path, e: ignore::Error) -> Option<Input> {
    let path = error_path(&e).unwrap_or(root).to_path_buf();
    let io_err = match e.io_error() {
        Some(ie) => io::Error::new(ie.kind(), signprep_core::io_reason(ie)),
        None => match innermost(&e) {
            ignore::Error::Loop { ancestor, child } => io::Error::other(format!(
                "a link loop: {} leads back to {}, a folder it is in",
                child.display(),
                ancestor.display()
            )),
            _ => {
                eprintln!("signprep: warning: {e}");
                return None;
            }
        },
    };
    Some(Input::Missing(path, io_err))
}

fn innermost(e: &ignore::Error) -> &ignore::Error {
    match e {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => innermost(err),
        other => other,
    }
}

fn error_path(e: &ignore::Error) -> Option<&Path> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn names(inputs: &[Input], root: &Path) -> Vec<String> {
        inputs
            .iter()
            .map(|i| {
                i.path()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .collect()
    }

    #[test]
    fn walks_sorted_with_ignore_files_hidden_and_globs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in [
            "b.pdf",
            "a/z.PDF",
            "a/c/d.pdf",
            "a/e.pdf",
            "a-b.pdf",
            "notes.txt",
            ".hidden/x.pdf",
            ".h.pdf",
            "skip/s.pdf",
            "out/o.pdf",
            "a/secret.pdf",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b"%PDF-1.4").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "skip/\nsecret.pdf\n").unwrap();
        std::fs::write(root.join(".ignore"), "out/\n").unwrap();

        let all = walk_dir(root, &WalkOptions::default(), 2);
        assert_eq!(
            names(&all, root),
            ["a/c/d.pdf", "a/e.pdf", "a/z.PDF", "a-b.pdf", "b.pdf"]
        );

        let no_ignore = WalkOptions {
            respect_ignore_files: false,
            hidden: true,
            ..WalkOptions::default()
        };
        let every = names(&walk_dir(root, &no_ignore, 1), root);
        assert!(every.contains(&"skip/s.pdf".to_string()), "{every:?}");
        assert!(every.contains(&"out/o.pdf".to_string()), "{every:?}");
        assert!(every.contains(&".hidden/x.pdf".to_string()), "{every:?}");
        assert!(every.contains(&".h.pdf".to_string()), "{every:?}");

        let excluded = WalkOptions {
            globs: vec!["!a/c/".into()],
            ..WalkOptions::default()
        };
        assert_eq!(
            names(&walk_dir(root, &excluded, 2), root),
            ["a/e.pdf", "a/z.PDF", "a-b.pdf", "b.pdf"]
        );
        let included = WalkOptions {
            globs: vec!["*.txt".into(), "b.pdf".into()],
            ..WalkOptions::default()
        };
        assert_eq!(
            names(&walk_dir(root, &included, 2), root),
            ["b.pdf", "notes.txt"]
        );
        assert!(
            WalkOptions {
                globs: vec!["a[".into()],
                ..WalkOptions::default()
            }
            .check()
            .is_err()
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_only_with_follow() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("x.pdf"), b"%PDF-1.4").unwrap();
        std::fs::write(root.join("a.pdf"), b"%PDF-1.4").unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.join("link")).unwrap();
        assert_eq!(
            names(&walk_dir(&root, &WalkOptions::default(), 1), &root),
            ["a.pdf"]
        );
        let follow = WalkOptions {
            follow_links: true,
            ..WalkOptions::default()
        };
        assert_eq!(
            names(&walk_dir(&root, &follow, 1), &root),
            ["a.pdf", "link/x.pdf"]
        );
    }
}
