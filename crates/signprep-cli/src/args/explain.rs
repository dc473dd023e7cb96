//! `signprep explain`.

use clap::Args;

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A finding's code: `custom_id_not_in_document`, `tag_id_not_uppercase`, ...
    #[arg(required_unless_present_any = ["list", "markdown"])]
    pub code: Option<String>,
    /// List every code with its severity and section.
    #[arg(long, conflicts_with_all = ["code", "markdown"])]
    pub list: bool,
    /// Print every code's documentation as Markdown (docs/src/reference/diagnostics.md).
    #[arg(long, conflicts_with = "code")]
    pub markdown: bool,
}
