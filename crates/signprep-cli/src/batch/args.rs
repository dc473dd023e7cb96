//! The batch options, flattened into each command that runs over many files.

use super::walk::WalkOptions;
use crate::args::BatchArgs;
use signprep_core::LoadOptions;

impl BatchArgs {
    /// How folders are walked.
    pub fn walk_options(&self) -> WalkOptions {
        WalkOptions {
            respect_ignore_files: !self.no_ignore,
            hidden: self.hidden,
            follow_links: self.follow,
            globs: self.glob.clone(),
            types: self.kinds.extensions(),
            bodies: false,
        }
    }

    /// The per-file limits on top of the defaults.
    pub fn load_options(&self) -> LoadOptions {
        let mut options = LoadOptions::default();
        if let Some(bytes) = self.max_file_size {
            options.max_file_bytes = bytes;
        }
        if let Some(t) = self.timeout_per_file {
            options.time_budget = (!t.is_zero()).then_some(t);
        }
        options
    }
}
