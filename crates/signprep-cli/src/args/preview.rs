//! `signprep preview`.

use super::values::{dialect_list, jobs, page_list, preview_dpi, type_rule};
use clap::Args;
use std::path::PathBuf;

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
    pub anchors: super::AnchorArgs,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub convert: super::ConvertArgs,
}

/// 1-based page ranges: `(first, last)`, `last` open when `None`.
pub type PageList = Vec<(usize, Option<usize>)>;
