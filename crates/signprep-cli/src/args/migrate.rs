//! `signprep migrate`.

use super::values::{dialect_list, dpi, duration, jobs, page_width};
use clap::Args;
use signprep_core::Dialects;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// PDF files, or folders to search recursively for `*.pdf` (sorted); `-` reads
    /// a PDF from standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The vendors whose tags to read: adobe, dropbox, boldsign, docuseal, signnow,
    /// pandadoc, documenso (comma-separated), or `all`.
    #[arg(long, value_name = "NAME[,NAME]", value_parser = dialect_list, default_value = "all")]
    pub dialect: Dialects,
    /// DocuSign anchor tabs (`--anchors`, `--anchor`): their recipients are signers
    /// (recipientId as the key: `1` is `signer1`; email and name from the file; a
    /// `--signer` by id or role name wins).
    #[command(flatten)]
    pub anchors: super::AnchorArgs,
    /// A vendor signer and who signs for them: `signer1=client@example.com`,
    /// `2="Wendy Ward <wendy@example.com>"`, `Client=ann@example.com` (a role name),
    /// `Witness="Wendy Ward"` (a name with no address: it has a space). An address
    /// `check` would reject, or a signer the PDF does not have, stops that PDF.
    /// Repeatable.
    #[arg(long, value_name = "KEY=EMAIL")]
    pub signer: Vec<String>,
    /// Signers from a file: the `[[signers]]` of a pack manifest (TOML or JSON),
    /// `handle` being the vendor signer (`signer1`, `Client`); other keys are ignored.
    #[arg(long, value_name = "FILE")]
    pub signers: Option<PathBuf>,
    /// Map a vendor kind the table leaves out to a type your account documents
    /// (`initials=initials`), or leave a mapped kind out (`date=none`). Repeatable.
    #[arg(long, value_name = "KIND=TYPE")]
    pub map_type: Vec<String>,
    /// Write `document_type: template` instead of `document`.
    #[arg(long)]
    pub template: bool,
    /// Beside each request, `DIR/NAME.pdf`: a copy of the PDF without the text
    /// of every vendor tag read (those that became fields and those left out,
    /// so no other vendor's syntax stays printed; taken out of the page
    /// content, white and invisible tags too, the rest of each line unmoved),
    /// which the request then uploads. The input is never changed. Needs --out.
    #[arg(long, requires = "out")]
    pub strip: bool,
    /// Folder for the requests, one `NAME.json` per PDF (created when missing).
    /// Without it, one PDF's request goes to standard output.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Output resolution: pixels per inch, 1 to 10000 (72 makes 1 px = 1 pt), as `scan --dpi`.
    #[arg(long, default_value_t = 72.0, value_parser = dpi, allow_negative_numbers = true)]
    pub dpi: f64,
    /// Scale every page to this displayed width in pixels, 1 to 100000, instead of --dpi (as
    /// `scan`).
    #[arg(long, value_parser = page_width, conflicts_with = "dpi", allow_negative_numbers = true)]
    pub page_width: Option<f64>,
    /// Ignore each page's /UserUnit (as `scan --ignore-user-unit`).
    #[arg(long)]
    pub ignore_user_unit: bool,
    /// Only the summary lines and the last error line on stderr, no findings.
    #[arg(long, short = 'q', conflicts_with = "verbose")]
    pub quiet: bool,
    /// Every note in full (each visible vendor tag with its page and a hint);
    /// without it, the notes of one code are one line per PDF. Errors and
    /// warnings are always shown in full.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// The time budget of one PDF's scan, as `scan`'s; a PDF not migrated after
    /// twice the budget plus 5 s is given up on (not migrated, exit status 1)
    /// and the run goes on (seconds, or 500ms, 30s, 2m; 0: no limit) [default: 60s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout_per_file: Option<std::time::Duration>,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub convert: super::ConvertArgs,
    #[command(flatten)]
    pub kinds: super::TypeArgs,
}
