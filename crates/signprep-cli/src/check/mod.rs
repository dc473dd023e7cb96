//! The parts of `signprep check` (the command is in `check_cmd.rs`).

pub mod ci;
pub mod github;
pub mod gitlab;
pub mod locate;
pub mod record;
pub mod sarif;
pub mod write;
