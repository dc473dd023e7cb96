//! Turning command-line paths into the list of files to process.
//!
//! Kept for the commands that take a plain list (`report`); the walking itself
//! lives in [`crate::batch::walk`], and batch commands use [`crate::batch::Source`].

pub use crate::batch::walk::{Input, expand};
