//! Turning command-line paths into the list of files to process.
//!
//! Kept for the commands that take a plain list (`report`); the walking itself
//! lives in [`crate::batch::walk`], and batch commands use [`crate::batch::Source`].

pub use crate::batch::walk::{Input, expand};

/// The bytes of a file named on the command line; `-` reads standard input.
pub fn read_input(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}
