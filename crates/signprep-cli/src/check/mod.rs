//! The parts of `signprep check` (the command is in `check_cmd.rs`).

pub mod inputs;
pub mod progress;
pub mod record;
pub mod write;
