//! `--anchors FILE` and `--anchor STRING=TYPE[:SIGNER]`: DocuSign anchor tabs,
//! shared by `scan`, `migrate` and `preview` (the file is read by
//! `signprep_pack::AnchorFile`).

use crate::args::AnchorArgs;
use signprep_pack::AnchorFile;

impl AnchorArgs {
    /// The tabs asked for, or `None` when none is; `Err` is the `error:` line.
    /// Tabs placed by position (no anchorString) are noted on stderr.
    pub fn load(&self, quiet: bool) -> Result<Option<AnchorFile>, String> {
        if self.anchors.is_empty() && self.anchor.is_empty() {
            return Ok(None);
        }
        let mut file = AnchorFile::new();
        for path in &self.anchors {
            let bytes = crate::inputs::read_input(path).map_err(|e| {
                format!(
                    "--anchors: cannot read {}: {}",
                    path.display(),
                    signprep_core::io_reason(&e)
                )
            })?;
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
