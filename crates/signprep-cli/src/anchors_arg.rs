//! `--anchors FILE` and `--anchor STRING=TYPE[:SIGNER]`: DocuSign anchor tabs,
//! shared by `scan`, `migrate` and `preview` (the file is read by
//! `signprep_pack::AnchorFile`).

use clap::Args;
use signprep_pack::AnchorFile;
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

impl AnchorArgs {
    /// The tabs asked for, or `None` when none is; `Err` is the `error:` line.
    /// Tabs placed by position (no anchorString) are noted on stderr.
    pub fn load(&self, quiet: bool) -> Result<Option<AnchorFile>, String> {
        if self.anchors.is_empty() && self.anchor.is_empty() {
            return Ok(None);
        }
        let mut file = AnchorFile::new();
        for path in &self.anchors {
            let bytes = crate::inputs::read_input(path)
                .map_err(|e| format!("--anchors: cannot read {}: {e}", path.display()))?;
            let before = file.positioned;
            file.add_file(path, &bytes)
                .map_err(|e| format!("--anchors: {e}"))?;
            let skipped = file.positioned - before;
            if skipped > 0 && !quiet {
                eprintln!(
                    "note: {}: {skipped} tab(s) placed by position (no anchorString) are not read; signprep places anchor tabs only",
                    path.display()
                );
            }
        }
        for a in &self.anchor {
            file.add_arg(a).map_err(|e| format!("--anchor: {e}"))?;
        }
        Ok(Some(file))
    }
}

/// A `--dialect` list; `docusign` is refused with where DocuSign's tabs go
/// (it has no text-tag grammar to read).
pub fn dialect_list(s: &str) -> Result<signprep_core::Dialects, String> {
    if s.split([',', ' '])
        .any(|n| n.trim().eq_ignore_ascii_case("docusign"))
    {
        return Err(
            "DocuSign has no text-tag grammar: give its tabs with --anchors FILE (an envelope definition or template) or --anchor STRING=TYPE[:SIGNER]".into(),
        );
    }
    signprep_core::Dialects::parse(s).map_err(|e| e.to_string())
}
