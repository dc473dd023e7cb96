//! `signprep scan`.

use super::values::{dialect_list, dpi, jobs, page_width, type_rule};
use clap::Args;
use std::path::PathBuf;

use super::Format;

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// PDF files, or folders to search recursively for `*.pdf` (sorted); `-` reads
    /// a PDF from standard input.
    #[arg(required_unless_present = "files_from", value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format [default: table on a terminal, ndjson otherwise].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Output resolution: pixels per inch, 1 to 10000 (72 makes 1 px = 1 pt).
    #[arg(long, default_value_t = 72.0, value_parser = dpi, allow_negative_numbers = true)]
    pub dpi: f64,
    /// Scale every page to this displayed width in pixels, 1 to 100000 (as web viewers do),
    /// instead of --dpi.
    #[arg(long, value_parser = page_width, conflicts_with = "dpi", allow_negative_numbers = true)]
    pub page_width: Option<f64>,
    /// Ignore each page's /UserUnit: lengths in the page's own user-space units instead of the
    /// displayed size (by default /UserUnit is applied, as Acrobat, pdf.js and MuPDF show the page).
    #[arg(long)]
    pub ignore_user_unit: bool,
    /// Apply each page's /UserUnit (the default; kept for scripts written before it was).
    #[arg(long, hide = true, conflicts_with = "ignore_user_unit")]
    pub apply_user_unit: bool,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Find tags only: skip the AcroForm fields (each record's `fields` is then empty, and no
    /// field finding is made). Faster, most of all on form-heavy files.
    #[arg(long)]
    pub no_fields: bool,
    /// Add `data_fields` to each record: the tags and form fields as the service's Data field objects.
    #[arg(long)]
    pub data_fields: bool,
    /// Also read other vendors' text tags into each record's `vendor_tags`: adobe, dropbox,
    /// boldsign, docuseal, signnow, pandadoc, documenso (comma-separated), or `all` (each document
    /// read by the vendors whose distinctive tags it holds). Default: native `<# #>` only.
    #[arg(long, value_name = "NAME[,NAME]", value_parser = dialect_list, default_value = "", hide_default_value = true)]
    pub dialect: signprep_core::Dialects,
    /// DocuSign anchor tabs (`--anchors`, `--anchor`).
    #[command(flatten)]
    pub anchors: super::AnchorArgs,
    /// Override the service type of the data fields whose name or tag id matches: the whole
    /// name as written, or a glob (`*`, `?`, `[0-9]`; write a literal `[` as `[[]`). The last
    /// matching rule wins; TYPE `none` leaves them out. Repeatable.
    #[arg(long, value_name = "NAME_OR_GLOB=TYPE", value_parser = type_rule, requires = "data_fields")]
    pub type_map: Vec<String>,
    /// Walking, file lists, sharding, resuming, limits and progress.
    #[command(flatten)]
    pub batch: super::BatchArgs,
    #[command(flatten)]
    pub convert: super::ConvertArgs,
}
