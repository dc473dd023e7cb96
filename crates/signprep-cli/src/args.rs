//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Prepare PDFs for the e-signature service before upload
///
/// Finds every `<# TAG #>` text tag and form field with the service's page-stacked
/// coordinates (scan), checks PDFs, request bodies and manifests against the service's
/// rules (check), builds request bodies from a manifest (pack), converts other vendors'
/// templates (migrate) and draws what the service will place (preview, report).
#[derive(Debug, Parser)]
#[command(name = "signprep", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find every `<# TAG_ID #>` and form field in PDFs (files or folders).
    #[command(
        override_usage = "signprep scan [OPTIONS] <PATH>...\n       signprep scan [OPTIONS] --files-from <FILE> [PATH]..."
    )]
    Scan(ScanArgs),
    /// Build a v1 pack body (or v0 or populate requests) from a manifest and its PDFs.
    Pack(crate::pack_cmd::PackArgs),
    /// Convert PDFs tagged for another vendor (Adobe Sign, Dropbox Sign, BoldSign, DocuSeal,
    /// signNow, PandaDoc, Documenso) into v0 requests with fields at explicit positions.
    Migrate(crate::migrate_cmd::MigrateArgs),
    /// Print the JSON Schema of a body, the manifest or the scan record.
    Schema(crate::schema_cmd::SchemaArgs),
    /// Pre-flight: check PDFs, request bodies and manifests against every rule of the service.
    Check(crate::check_cmd::CheckArgs),
    /// Print the documentation of a finding's code.
    Explain(crate::explain_cmd::ExplainArgs),
    /// Draw each page of a PDF with its tags and form fields boxed and labelled: one PNG per page.
    #[cfg(feature = "render")]
    #[command(
        override_usage = "signprep preview [OPTIONS] <FILE.pdf>\n       signprep preview [OPTIONS] --pack <PACK.json>\n       signprep preview [OPTIONS] --manifest <pack.toml>"
    )]
    Preview(PreviewArgs),
    /// Write one self-contained HTML report for PDFs (files or folders), with page previews.
    #[cfg(feature = "render")]
    Report(ReportArgs),
    /// Serve scan and check over HTTP (a JSON API, and a page for people) on 127.0.0.1.
    #[cfg(feature = "serve")]
    Serve(crate::serve::ServeArgs),
    /// Print a shell completion script: bash, zsh, fish, powershell (or elvish).
    Completions(crate::completions_cmd::CompletionsArgs),
    /// Print the manual page (roff), or write one per subcommand with --out-dir.
    Man(crate::completions_cmd::ManArgs),
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
    /// PDF files, or folders to search recursively for `*.pdf` (sorted); `-` reads
    /// a PDF from standard input.
    #[arg(required_unless_present = "files_from", value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format [default: table on a terminal, ndjson otherwise].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Output resolution: pixels per inch (72 makes 1 px = 1 pt).
    #[arg(long, default_value_t = 72.0, value_parser = positive_f64, allow_negative_numbers = true)]
    pub dpi: f64,
    /// Scale every page to this displayed width in pixels (as web viewers do), instead of --dpi.
    #[arg(long, value_parser = positive_f64, conflicts_with = "dpi", allow_negative_numbers = true)]
    pub page_width: Option<f64>,
    /// Ignore each page's /UserUnit: lengths in the page's own user-space units instead of the
    /// displayed size (by default /UserUnit is applied, as Acrobat, pdf.js and MuPDF show the page).
    #[arg(long)]
    pub ignore_user_unit: bool,
    /// Apply each page's /UserUnit (the default; kept for scripts written before it was).
    #[arg(long, hide = true, conflicts_with = "ignore_user_unit")]
    pub apply_user_unit: bool,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = count)]
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
    pub anchors: crate::anchors_arg::AnchorArgs,
    /// Override the service type of the data fields whose name or tag id matches: the whole
    /// name as written, or a glob (`*`, `?`, `[0-9]`; write a literal `[` as `[[]`). The last
    /// matching rule wins; TYPE `none` leaves them out. Repeatable.
    #[arg(long, value_name = "NAME_OR_GLOB=TYPE", value_parser = type_rule, requires = "data_fields")]
    pub type_map: Vec<String>,
    /// Walking, file lists, sharding, resuming, limits and progress.
    #[command(flatten)]
    pub batch: crate::batch::BatchArgs,
}

use crate::anchors_arg::dialect_list;

fn type_rule(s: &str) -> Result<String, String> {
    signprep_pack::TypeMap::new()
        .rule(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// A count: 0 or more (`--jobs`, `--max-pages`).
pub fn count(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| format!("`{s}` is not a count (a whole number, 0 or more)"))
}

pub fn positive_f64(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("`{s}` must be a positive number"))
    }
}

#[cfg(feature = "render")]
#[derive(Debug, Clone, Args)]
pub struct PreviewArgs {
    /// The PDF to draw (`-`: standard input).
    #[arg(required_unless_present_any = ["pack", "manifest"], value_name = "FILE.pdf")]
    pub file: Option<PathBuf>,
    /// Draw every child document of this v1 pack body (as `signprep pack` writes
    /// it), with the signers and values its data fields give: `NN-NAME-pN.png`.
    /// A request plan (`pack --v0`, `migrate`) draws each PDF it uploads, found
    /// from the plan's folder, with the plan's data fields.
    #[arg(long, value_name = "PACK.json", conflicts_with_all = ["file", "manifest", "signer"])]
    pub pack: Option<PathBuf>,
    /// Draw every PDF child of the pack this manifest makes (as `signprep pack`
    /// builds it), with its signers and values: `NN-NAME-pN.png`.
    #[arg(long, value_name = "pack.toml", conflicts_with_all = ["file", "signer"])]
    pub manifest: Option<PathBuf>,
    /// Folder for the PNGs, `NAME-pN.png` (created when missing).
    #[arg(long, short = 'o', default_value = ".")]
    pub out_dir: PathBuf,
    /// Also write each page's overlay as JSON beside its PNG (`...-pN.json`):
    /// boxes, labels, types, signers, values, colours and findings.
    #[arg(long)]
    pub overlay_json: bool,
    /// Resolution: pixels per inch (the scan's pixels, so boxes land where `scan --dpi` puts them).
    #[arg(long, default_value_t = 96.0, value_parser = preview_dpi, allow_negative_numbers = true)]
    pub dpi: f64,
    /// Pages to draw, 1-based: `1,3-5`, `4-` [default: all].
    #[arg(long, value_name = "LIST", value_parser = page_list, default_value = "", hide_default_value = true)]
    pub pages: PageList,
    /// Name the signer of a tag id or full field name (colours and labels the box;
    /// not with --pack or --manifest, which name them). Repeatable.
    #[arg(long, value_name = "NAME=SIGNER")]
    pub signer: Vec<String>,
    /// Override the service type shown in labels, as `scan --type-map`. Repeatable.
    #[arg(long, value_name = "NAME_OR_GLOB=TYPE", value_parser = type_rule)]
    pub type_map: Vec<String>,
    /// Leave out the labels above the boxes.
    #[arg(long)]
    pub no_labels: bool,
    /// Leave out the legend band below each page.
    #[arg(long)]
    pub no_legend: bool,
    /// Also draw other vendors' tags (adobe, dropbox, ..., or `all`) as `signprep migrate`
    /// places them: each placed field with its type and signer, each tag left out with why.
    /// Default: none.
    #[arg(long, value_name = "NAME[,NAME]", value_parser = dialect_list, default_value = "", hide_default_value = true, conflicts_with_all = ["pack", "manifest"])]
    pub dialect: signprep_core::Dialects,
    /// DocuSign anchor tabs, drawn as `migrate --anchors` places them (`--anchors`, `--anchor`).
    #[command(flatten)]
    pub anchors: crate::anchors_arg::AnchorArgs,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = count)]
    pub jobs: Option<usize>,
}

#[cfg(feature = "render")]
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
    #[arg(long, value_name = "DURATION", value_parser = crate::batch::args::parse_duration)]
    pub timeout_per_file: Option<std::time::Duration>,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = count)]
    pub jobs: Option<usize>,
    /// No progress bar (shown on a terminal, as `scan`'s).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// 1-based page ranges: `(first, last)`, `last` open when `None`.
#[cfg(feature = "render")]
pub type PageList = Vec<(usize, Option<usize>)>;

#[cfg(feature = "render")]
fn page_list(s: &str) -> Result<PageList, String> {
    let page = |t: &str| -> Result<usize, String> {
        match t.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("`{t}` is not a page number (pages count from 1)")),
        }
    };
    s.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| match part.split_once('-') {
            None => page(part).map(|n| (n, Some(n))),
            Some((a, b)) if b.trim().is_empty() => page(a).map(|a| (a, None)),
            Some((a, b)) => {
                let (a, b) = (page(a)?, page(b)?);
                if a <= b {
                    Ok((a, Some(b)))
                } else {
                    Err(format!("`{part}` runs backwards"))
                }
            }
        })
        .collect()
}

#[cfg(feature = "render")]
fn preview_dpi(s: &str) -> Result<f64, String> {
    let v = positive_f64(s)?;
    if v <= 1200.0 {
        Ok(v)
    } else {
        Err(format!("`{s}` is more than 1200 dpi"))
    }
}
