//! `signprep report`.

use super::values::{count, duration, jobs, preview_dpi, type_rule};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// PDF files, or folders to search recursively for `*.pdf` (sorted); `-` reads
    /// a PDF from standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The HTML file to write (page images are embedded in it).
    #[arg(long, short = 'o', default_value = "report.html")]
    pub output: PathBuf,
    /// Resolution of the page images, pixels per inch.
    #[arg(long, default_value_t = 72.0, value_parser = preview_dpi, allow_negative_numbers = true)]
    pub dpi: f64,
    /// Exit 0 when the paths hold no PDF (an empty folder); without it that is an
    /// error (exit status 2).
    #[arg(long)]
    pub allow_empty: bool,
    /// Look at most at this many pages of each file (0: none, tables only); of
    /// them, pages with tags or fields are drawn, pages with findings of their
    /// own and the first page as thumbnails.
    #[arg(long, default_value_t = 20, allow_negative_numbers = true, value_parser = count)]
    pub max_pages: usize,
    /// Name the signer of a tag id or full field name. Repeatable.
    #[arg(long, value_name = "NAME=SIGNER")]
    pub signer: Vec<String>,
    /// Override the service type shown in labels, as `scan --type-map`. Repeatable.
    #[arg(long, value_name = "NAME_OR_GLOB=TYPE", value_parser = type_rule)]
    pub type_map: Vec<String>,
    /// The time budget of one file's scan, as `scan`'s; a file not scanned and
    /// drawn after twice the budget plus 5 s is given up on: an error row, and
    /// the report goes on (seconds, or 500ms, 30s, 2m; 0: no limit) [default: 60s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout_per_file: Option<std::time::Duration>,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: Option<usize>,
    /// No progress bar (shown on a terminal, as `scan`'s).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub convert: super::ConvertArgs,
    #[command(flatten)]
    pub kinds: super::TypeArgs,
}
