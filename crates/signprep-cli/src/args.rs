//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Prepare PDFs for the e-signature service: find tags and form fields, with the
/// service's page-stacked coordinates.
#[derive(Debug, Parser)]
#[command(name = "signprep", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find every `<# TAG_ID #>` and form field in PDFs (files or folders).
    Scan(ScanArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON record per file, one per line.
    Ndjson,
    /// One JSON document: `{"documents": [...], "summary": {...}}`.
    Json,
    /// A human-readable table (the default on a terminal).
    Table,
}

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// PDF files, or folders to search recursively for `*.pdf` (sorted).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format [default: table on a terminal, ndjson otherwise].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Output resolution: pixels per inch (72 makes 1 px = 1 pt).
    #[arg(long, default_value_t = 72.0, value_parser = positive_f64)]
    pub dpi: f64,
    /// Scale every page to this displayed width in pixels (as web viewers do), instead of --dpi.
    #[arg(long, value_parser = positive_f64, conflicts_with = "dpi")]
    pub page_width: Option<f64>,
    /// Multiply lengths by each page's /UserUnit.
    #[arg(long)]
    pub apply_user_unit: bool,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
}

fn positive_f64(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("`{s}` must be a positive number"))
    }
}
