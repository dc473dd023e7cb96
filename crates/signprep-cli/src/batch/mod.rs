//! Batch runs over many inputs: the pipeline of `scan`, `check`, `report` and
//! `migrate` (and of `pack` and `preview`, whose work runs on the same [`Runner`]).
//!
//! ```text
//! PATH args ─ walk (parallel, ignore files, globs) ─ sort ┐
//! --files-from FILE|- (plain lines or NDJSON `path`) ─────┴─ shard ─ skip-done ─▶ Source
//! Source ─▶ Stream: a feeder thread hands items to a rayon pool as window
//!           credits allow; the caller's thread puts results back in input order
//!           and hands them to its sink at once ─▶ stdout (+ Progress on stderr)
//! ```
//!
//! - [`walk`]: [`Input`], [`walk::WalkOptions`]: folders walked with the `ignore`
//!   crate (`check`'s request bodies and manifests beside the PDFs), files kept
//!   as given, each folder's files in sorted path order.
//! - [`files_from`]: the lines of `--files-from`, read lazily (stdin may be a pipe).
//! - [`select`]: [`Shard`](crate::args::values::Shard) (FNV-1a of the path string: stable across machines,
//!   runs and Rust versions) and [`select::DoneSet`] (paths an earlier report has as `ok`).
//! - [`source`]: all of the above as one iterator, [`Source`], as [`Gather`]
//!   says: the one way every command gathers its inputs.
//! - [`Stream`] (from [`signprep_core::batch`], the engine the Python package
//!   shares): ordered streaming with a bounded reorder window, stop on Ctrl-C
//!   or a closed pipe, a watchdog for files stuck past their time budget, the
//!   one per-file panic boundary.
//! - [`progress`]: the indicatif bar (stderr, only on a terminal).
//! - [`summary`]: [`Summary`], the totals of a run and how it ends: the one
//!   place that decides the exit status and writes the last line, fed a
//!   [`Tally`] per input by every batch command.
//! - [`interrupt`]: Ctrl-C / SIGTERM as a flag.
//! - [`Runner`] (in `run.rs`): the one path of every batch command through the
//!   engine: threads, watchdog, Ctrl-C, outcomes as `Result<T, core Error>`,
//!   progress, and the last line when the run cannot go on (`pack`'s one
//!   manifest and `preview`'s steps take it too).
//! - [`args`]: what [`crate::args::BatchArgs`] (the options flattened into each
//!   command, declared in `crate::args`) mean: walk options, per-file limits.
//!
//! Output is byte-identical whatever `--jobs` is: results are written in input
//! order, and nothing that depends on timing goes into json/ndjson unless
//! `--timing` asks for it.

pub mod args;
pub mod files_from;
pub mod interrupt;
pub mod progress;
mod run;
pub mod select;
pub mod source;
pub mod summary;
pub mod walk;

pub use progress::Progress;
pub use run::{Ended, Runner};
pub use signprep_core::batch::{Flow, Stream};
pub use source::{Gather, Source};
pub use summary::{Command, Summary, Tally};
pub use walk::Input;
