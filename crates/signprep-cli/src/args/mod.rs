//! Every command-line argument of `signprep`: the clap structs, one file per
//! subcommand, and their value parsers ([`values`]). A leaf: it imports clap,
//! std and the core's and pack's types, nothing else of the CLI, so the
//! commands, `help`, `completions` and `serve` all build on it.

mod anchors;
mod batch;
mod check;
mod completions;
mod convert;
mod explain;
mod migrate;
mod pack;
#[cfg(feature = "render")]
mod preview;
#[cfg(feature = "render")]
mod report;
mod scan;
mod schema;
#[cfg(feature = "serve")]
mod serve;
pub mod values;

pub use anchors::AnchorArgs;
pub use batch::{BatchArgs, InputType, TypeArgs};
pub use check::{CheckArgs, CheckFormat, Deny};
pub use completions::{CompletionsArgs, ManArgs};
pub use convert::ConvertArgs;
pub use explain::ExplainArgs;
pub use migrate::MigrateArgs;
pub use pack::PackArgs;
#[cfg(feature = "render")]
pub use preview::{PageList, PreviewArgs};
#[cfg(feature = "render")]
pub use report::ReportArgs;
pub use scan::ScanArgs;
pub use schema::SchemaArgs;
#[cfg(feature = "serve")]
pub use serve::ServeArgs;
pub use values::Shard;

use clap::{Parser, Subcommand, ValueEnum};

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
    Pack(PackArgs),
    /// Convert PDFs tagged for another vendor (Adobe Sign, Dropbox Sign, BoldSign, DocuSeal,
    /// signNow, PandaDoc, Documenso) into v0 requests with fields at explicit positions.
    Migrate(MigrateArgs),
    /// Print the JSON Schema of a body, the manifest or the scan record.
    Schema(SchemaArgs),
    /// Pre-flight: check PDFs, request bodies and manifests against every rule of the service.
    Check(CheckArgs),
    /// Print the documentation of a finding's code.
    Explain(ExplainArgs),
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
    Serve(ServeArgs),
    /// Print a shell completion script: bash, zsh, fish, powershell (or elvish).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one per subcommand with --out-dir.
    Man(ManArgs),
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
