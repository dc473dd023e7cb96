//! `signprep completions` and `signprep man`.

use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The page of one subcommand (`signprep-check(1)`) instead of `signprep(1)`.
    #[arg(value_name = "SUBCOMMAND", conflicts_with = "out_dir")]
    pub command: Option<String>,
    /// Write `signprep.1` and `signprep-SUBCOMMAND.1` for every subcommand into
    /// this folder (created when missing) instead of printing one page.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}
