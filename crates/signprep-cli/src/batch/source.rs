//! The inputs of a run, in order, the one way every command gathers them: the
//! PATH arguments (folders walked), then the `--files-from` list, then
//! `--shard` and `--skip-done` applied, as [`Gather`] says.

use super::files_from::{Entry, Lines};
use super::select::DoneSet;
use super::walk::{Input, WalkOptions, inputs_at, inputs_of};
use crate::args::{BatchArgs, Shard};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where a run's inputs come from besides its PATH arguments, and which are
/// taken. The default: the PATH arguments alone, folders walked for `*.pdf`
/// (ignore files read, hidden entries left out): `report`, `migrate`, `preview`.
#[derive(Debug, Clone, Default)]
pub struct Gather {
    /// How folders are walked (`check`: with its bodies and manifests).
    pub walk: WalkOptions,
    /// `--files-from FILE|-`: read after the PATH arguments (`-`: as the run goes).
    pub files_from: Option<PathBuf>,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `--skip-done REPORT`.
    pub skip_done: Option<PathBuf>,
    /// Threads walking a folder (0: the walker chooses).
    pub threads: usize,
}

impl Gather {
    /// A batch command's [`BatchArgs`] (`scan`), walking with `threads`.
    pub fn batch(args: &BatchArgs, threads: usize) -> Gather {
        Gather {
            walk: args.walk_options(),
            files_from: args.files_from.clone(),
            shard: args.shard,
            skip_done: args.skip_done.clone(),
            threads,
        }
    }
}

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
    pub fn open(paths: &[PathBuf], how: &Gather) -> Result<Source, String> {
        let walk = &how.walk;
        walk.check()?;
        let stdin = |p: &Path| p.as_os_str() == "-";
        if how.files_from.as_deref().is_some_and(stdin) && paths.iter().any(|p| stdin(p)) {
            return Err(
                "standard input cannot be both the --files-from list and an input (`-`)".into(),
            );
        }
        let done = match &how.skip_done {
            Some(p) => {
                Some(DoneSet::read(p).map_err(|e| format!("--skip-done {}: {e}", p.display()))?)
            }
            None => None,
        };
        let threads = how.threads;
        let mut eager = Source::walk(paths, walk, threads);
        let mut lazy: Option<Lines> = None;
        if let Some(list) = &how.files_from {
            let lines = Lines::open(list).map_err(|e| {
                format!(
                    "--files-from {}: cannot read: {}",
                    list.display(),
                    signprep_core::io_reason(&e)
                )
            })?;
            if stdin(list) {
                lazy = Some(lines);
            } else {
                eager.extend(lines.flat_map(|e| entry_inputs(e, walk, threads)));
            }
        }
        let found = Arc::new(AtomicUsize::new(eager.len()));
        let skipped = Arc::new(AtomicUsize::new(0));
        let filter = Filter {
            shard: how.shard,
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
                    .flat_map(move |e| entry_inputs(e, &walk, threads))
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

    /// The PATH arguments' inputs, all at once (`report`, `migrate`, `preview`: a plain
    /// list), folders walked for the files of these extensions (`--type`; none: `*.pdf`).
    pub fn files_of(paths: &[PathBuf], types: Vec<&'static str>) -> Vec<Input> {
        let walk = WalkOptions {
            types,
            ..WalkOptions::default()
        };
        Source::walk(paths, &walk, 0)
    }

    fn walk(paths: &[PathBuf], walk: &WalkOptions, threads: usize) -> Vec<Input> {
        paths
            .iter()
            .flat_map(|p| inputs_of(p, walk, threads))
            .collect()
    }

    /// The inputs the paths and the list gave so far, before `--shard` and
    /// `--skip-done` (all of them once the iterator is exhausted; up front
    /// unless the list is standard input).
    pub fn found(&self) -> usize {
        self.found.load(Ordering::Relaxed)
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

/// A `--files-from` entry as inputs: a folder is walked like a PATH
/// argument; `-` is a file of that name, not standard input.
fn entry_inputs(entry: Entry, walk: &WalkOptions, threads: usize) -> Vec<Input> {
    match entry {
        Entry::Path(p) => inputs_at(&p, walk, threads),
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
