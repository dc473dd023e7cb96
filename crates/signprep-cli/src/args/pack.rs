//! `signprep pack`.

use clap::Args;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct PackArgs {
    /// The manifest: TOML, or JSON (`.json`, or text starting with `{`); `-` reads
    /// it from standard input (paths in it are then relative to the current folder).
    pub manifest: PathBuf,
    /// Output file [default: standard output]. Written atomically; nothing is
    /// written when there is an error-level finding.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the v0 tag-extraction requests (one `POST /v0/documents` per PDF with
    /// tags) instead of the v1 pack body.
    #[arg(long, conflicts_with = "populate")]
    pub v0: bool,
    /// Write the populate-syntax request that copies this template instead.
    #[arg(long, value_name = "TEMPLATE_KEY")]
    pub populate: Option<String>,
    /// Write compact JSON (one line) instead of indented JSON.
    #[arg(long)]
    pub compact: bool,
    #[command(flatten)]
    pub convert: super::ConvertArgs,
}
