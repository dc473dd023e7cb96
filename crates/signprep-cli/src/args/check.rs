//! `signprep check`.

use super::values::{duration, jobs, size};
use clap::{Args, ValueEnum};
use signprep_pack::InputKind;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// PDFs, request bodies (JSON), manifests (TOML or JSON), or folders searched
    /// recursively for `*.pdf`, `*.json` and `*.toml`; `-` reads standard input
    /// [default: ., unless --files-from is given]
    pub paths: Vec<PathBuf>,
    /// Read paths from FILE (`-`: standard input, read as the run goes), one per
    /// line, or NDJSON objects with a `path` key (other keys are ignored). Read
    /// after the PATH arguments.
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<PathBuf>,
    /// What every input is, instead of detecting it.
    #[arg(long, value_parser = kind_parser())]
    pub kind: Option<InputKind>,
    /// Output format [default: human on a terminal, ndjson otherwise].
    #[arg(long, value_enum)]
    pub format: Option<CheckFormat>,
    /// `--deny warnings`: warnings fail the check too (exit status 1).
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub deny: Option<Deny>,
    /// A template document's JSON (as `GET /v0/documents/{key}` returns it):
    /// populate keys and template children are checked against its fields. Repeatable.
    #[arg(long = "template", value_name = "FILE")]
    pub templates: Vec<PathBuf>,
    /// Bodies and PDFs above this size get `payload_large` (bytes, or with K, M,
    /// G or T, powers of 1024: 500K, 20MB, 1GiB).
    #[arg(long, value_name = "SIZE", default_value = "10M", value_parser = size)]
    pub max_payload: u64,
    /// Give up on an input after this long: an error record, and the batch goes
    /// on (seconds, or 500ms, 30s, 2m; 0: no limit) [default: 60s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout_per_file: Option<Duration>,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Exit 0 when the paths hold nothing to check (an empty folder); without
    /// it that is an error (exit status 2), so a gate on the wrong folder fails.
    #[arg(long)]
    pub allow_empty: bool,
    #[command(flatten)]
    pub convert: super::ConvertArgs,
    #[command(flatten)]
    pub kinds: super::TypeArgs,
}

/// `--kind`: [`InputKind`]'s names, each with its one-line summary.
fn kind_parser() -> impl clap::builder::TypedValueParser<Value = InputKind> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        InputKind::ALL
            .iter()
            .map(|k| PossibleValue::new(k.as_str()).help(k.summary())),
    )
    .try_map(|name| name.parse::<InputKind>())
}

/// `--deny`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Warnings count as errors for the exit status.
    Warnings,
}

/// Output format of `signprep check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Compiler-style: each finding with the offending value, where it is, and a hint.
    Human,
    /// One JSON document: `{"files": [...], "summary": {...}}`.
    Json,
    /// One JSON record per input, one per line.
    Ndjson,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands: annotations on the files (and lines).
    Github,
    /// GitLab Code Quality JSON (`artifacts: reports: codequality:`).
    Gitlab,
}
