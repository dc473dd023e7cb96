//! `--anchors FILE` and `--anchor STRING=TYPE[:SIGNER]`: DocuSign anchor tabs,
//! shared by `scan`, `migrate` and `preview` (read by `anchors_arg.rs`
//! with `signprep_pack::AnchorFile`).

use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Default, Args)]
pub struct AnchorArgs {
    /// DocuSign tabs placed by anchor string: an envelope definition, a template or
    /// any JSON holding `tabs`/`recipients` (every tab list, every recipient), or the
    /// short TOML form (`[[tabs]] type = "signHere" anchor = "/sn1/"`). Each anchor
    /// is found on every page as DocuSign matches it; the tabs come out as `vendor_tags`
    /// of dialect `docusign`. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub anchors: Vec<PathBuf>,
    /// One DocuSign anchor tab for a quick run: `/sn1/=signHere:1` (TYPE a DocuSign tab
    /// type: signHere, initialHere, dateSigned, text, fullName, checkbox, ...; SIGNER a
    /// recipient id or role). Repeatable.
    #[arg(long, value_name = "STRING=TYPE[:SIGNER]")]
    pub anchor: Vec<String>,
}
