//! The batch options, flattened into each command that runs over many files.

use super::values::{Shard, duration, size};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Options for walking, listing, splitting, resuming, limiting and reporting a batch.
#[derive(Debug, Clone, Default, Args)]
pub struct BatchArgs {
    /// Read paths from FILE (`-`: standard input), one per line, or NDJSON objects
    /// with a `path` key (other keys are ignored). Read after the PATH arguments.
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub files_from: Option<PathBuf>,
    /// Exit 0 when the paths and the list give no file at all (an empty folder, a
    /// glob matching nothing, an empty list); without it that is an error (exit
    /// status 2), so a job pointed at the wrong folder fails.
    #[arg(long, help_heading = "Input")]
    pub allow_empty: bool,
    /// Walk folders without reading .gitignore, .ignore and .git/info/exclude.
    #[arg(long, help_heading = "Input")]
    pub no_ignore: bool,
    /// Walk into hidden files and folders (names starting with `.`) too.
    #[arg(long, help_heading = "Input")]
    pub hidden: bool,
    /// Follow symbolic links while walking folders (they are skipped otherwise).
    #[arg(long, short = 'L', help_heading = "Input")]
    pub follow: bool,
    /// Include (`'contracts/**'`) or, with a leading `!`, exclude (`'!drafts/'`) walked
    /// paths, relative to the folder given; case-insensitive. An include glob replaces
    /// the default `*.pdf`. Repeatable; the last matching glob wins.
    #[arg(long, short = 'g', value_name = "GLOB", help_heading = "Input")]
    pub glob: Vec<String>,
    #[command(flatten)]
    pub kinds: TypeArgs,
    /// Take only the files whose path hash falls in shard K of N (0-based):
    /// `--shard 0/4` ... `--shard 3/4` split any input exactly.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, help_heading = "Splitting and resuming")]
    pub shard: Option<Shard>,
    /// Skip the paths that this earlier NDJSON report records with status `ok`
    /// (a missing report skips nothing), so a killed run resumes.
    #[arg(
        long,
        value_name = "REPORT.ndjson",
        help_heading = "Splitting and resuming"
    )]
    pub skip_done: Option<PathBuf>,
    /// Give an error record, without reading it, for a file larger than this
    /// (bytes, or with K, M, G or T, powers of 1024: 500K, 20MB, 1GiB) [default: 1G].
    #[arg(long, value_name = "SIZE", value_parser = size, help_heading = "Limits per file")]
    pub max_file_size: Option<u64>,
    /// Give up on a file after this long: an error record, and the batch goes on
    /// (seconds, or 500ms, 30s, 2m; 0: no limit) [default: 60s].
    #[arg(long, value_name = "DURATION", value_parser = duration, help_heading = "Limits per file")]
    pub timeout_per_file: Option<Duration>,
    /// No progress bar and no summary on stderr.
    #[arg(long, short = 'q', help_heading = "Reporting")]
    pub quiet: bool,
    /// Leave the summary record out of json/ndjson output (one record per file, nothing else).
    #[arg(long, help_heading = "Reporting")]
    pub no_summary: bool,
    /// Put wall time and pages/s in the json/ndjson summary (the output then differs between runs).
    #[arg(long, help_heading = "Reporting")]
    pub timing: bool,
}

/// `--type`: the kinds of file a folder walk takes (`Default`: none given, `pdf`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TypeArgs {
    /// The kinds of file a folder walk takes (comma-separated): `pdf`, and `docx`,
    /// `odt` for Word and OpenDocument templates, converted by LibreOffice. A file
    /// named on the command line is taken whatever its kind.
    #[arg(
        long = "type",
        value_name = "TYPE[,TYPE]",
        value_enum,
        value_delimiter = ',',
        default_value = "pdf",
        help_heading = "Input"
    )]
    pub types: Vec<InputType>,
}

impl TypeArgs {
    /// The extensions a walk takes.
    pub fn extensions(&self) -> Vec<&'static str> {
        self.types.iter().map(|t| t.extension()).collect()
    }
}

/// A kind of input file a folder walk takes (`--type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InputType {
    /// `*.pdf`.
    Pdf,
    /// `*.docx`, Word templates.
    Docx,
    /// `*.odt`, OpenDocument templates.
    Odt,
}

impl InputType {
    /// Its extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            InputType::Pdf => "pdf",
            InputType::Docx => "docx",
            InputType::Odt => "odt",
        }
    }
}
