//! The inputs of a run, in order: the PATH arguments (folders walked), then the
//! `--files-from` list, then `--shard` and `--skip-done` applied.

use super::files_from::{Entry, Lines};
use super::select::DoneSet;
use super::walk::{Input, WalkOptions, inputs_of};
use crate::args::{BatchArgs, Shard};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The inputs, as an iterator that a feeder thread can own.
pub struct Source {
    iter: Box<dyn Iterator<Item = Input> + Send>,
    /// How many inputs there are, when known up front (not for `--files-from -`).
    pub total: Option<usize>,
    skipped: Arc<AtomicUsize>,
    /// Inputs found, before `--shard` and `--skip-done`.
    found: Arc<AtomicUsize>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

impl Source {
    /// Walks the PATH arguments (and a `--files-from` FILE) now, so the total is
    /// known; a `--files-from -` is read as the run goes.
    /// `Err` is a usage or I/O problem that stops the run before it starts.
    pub fn open(
        paths: &[PathBuf],
        args: &BatchArgs,
        walk_threads: usize,
    ) -> Result<Source, String> {
        let walk = args.walk_options();
        walk.check()?;
        let stdin = |p: &Path| p.as_os_str() == "-";
        if args.files_from.as_deref().is_some_and(stdin) && paths.iter().any(|p| stdin(p)) {
            return Err(
                "standard input cannot be both the --files-from list and a PDF (`-`)".into(),
            );
        }
        let done = match &args.skip_done {
            Some(p) => Some(
                DoneSet::read(p)
                    .map_err(|e| format!("--skip-done {}: cannot read: {e}", p.display()))?,
            ),
            None => None,
        };
        let mut eager: Vec<Input> = paths
            .iter()
            .flat_map(|p| inputs_of(p, &walk, walk_threads))
            .collect();
        let mut lazy: Option<Lines> = None;
        if let Some(list) = &args.files_from {
            let lines = Lines::open(list)
                .map_err(|e| format!("--files-from {}: cannot read: {e}", list.display()))?;
            if list.as_os_str() == "-" {
                lazy = Some(lines);
            } else {
                eager.extend(lines.flat_map(|e| entry_inputs(e, &walk, walk_threads)));
            }
        }
        if eager.is_empty() && lazy.is_none() && !args.allow_empty {
            return Err(nothing_found(paths, args));
        }
        let found = Arc::new(AtomicUsize::new(eager.len()));
        let skipped = Arc::new(AtomicUsize::new(0));
        let filter = Filter {
            shard: args.shard,
            done,
            skipped: Arc::clone(&skipped),
        };
        match lazy {
            None => {
                let kept: Vec<Input> = eager.into_iter().filter(|i| filter.keep(i)).collect();
                Ok(Source {
                    total: Some(kept.len()),
                    iter: Box::new(kept.into_iter()),
                    skipped,
                    found,
                })
            }
            Some(lines) => {
                let walk = walk.clone();
                let counter = Arc::clone(&found);
                let tail = lines
                    .flat_map(move |e| entry_inputs(e, &walk, walk_threads))
                    .inspect(move |_| {
                        counter.fetch_add(1, Ordering::Relaxed);
                    });
                Ok(Source {
                    total: None,
                    iter: Box::new(
                        eager
                            .into_iter()
                            .chain(tail)
                            .filter(move |i| filter.keep(i)),
                    ),
                    skipped,
                    found,
                })
            }
        }
    }

    /// How many inputs `--skip-done` passed over so far (all of them once the
    /// iterator is exhausted).
    pub fn skipped_counter(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.skipped)
    }

    /// How many inputs the paths and the list gave so far, before `--shard`
    /// and `--skip-done` (all of them once the iterator is exhausted).
    pub fn found_counter(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.found)
    }
}

/// Why a run that found no input fails (unless `--allow-empty`): what was
/// searched, and how.
pub fn nothing_found(paths: &[PathBuf], args: &BatchArgs) -> String {
    let mut parts = Vec::new();
    if !paths.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| shown(p)).collect();
        let what = if args.glob.iter().any(|g| !g.starts_with('!')) {
            "no file matching the --glob patterns"
        } else {
            "no PDF"
        };
        parts.push(format!("{what} in {}", shown.join(", ")));
    }
    if let Some(list) = &args.files_from {
        parts.push(format!("--files-from {} lists no file", shown(list)));
    }
    format!(
        "nothing to scan: {}; pass --allow-empty if that is fine",
        parts.join(", and ")
    )
}

impl Iterator for Source {
    type Item = Input;
    fn next(&mut self) -> Option<Input> {
        self.iter.next()
    }
}

/// A `--files-from` entry as inputs: a folder is walked like a PATH argument.
fn entry_inputs(entry: Entry, walk: &WalkOptions, threads: usize) -> Vec<Input> {
    match entry {
        Entry::Path(p) => inputs_of(&p, walk, threads),
        Entry::Bad(p, e) => vec![Input::Missing(p, e)],
    }
}

struct Filter {
    shard: Option<Shard>,
    done: Option<DoneSet>,
    skipped: Arc<AtomicUsize>,
}

impl Filter {
    fn keep(&self, input: &Input) -> bool {
        let path = shown(input.path());
        if let Some(s) = &self.shard
            && !s.contains(&path)
        {
            return false;
        }
        if let Some(d) = &self.done
            && d.contains(&path)
        {
            self.skipped.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        true
    }
}

/// The path as records show it (and as shards and `--skip-done` see it).
pub fn shown(p: &Path) -> String {
    p.display().to_string()
}
