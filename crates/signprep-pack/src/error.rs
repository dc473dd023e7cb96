//! Fatal errors: a file that cannot be read or parsed at all.

use std::path::PathBuf;

/// A manifest or body that cannot be read or parsed. Everything short of this
/// is a [`Finding`](crate::Finding).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read.
    #[error("cannot read {}: {}", path.display(), signprep_core::io_reason(source))]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The manifest is not valid TOML for a manifest (syntax, unknown key, type).
    #[error("{}: {message}", path.display())]
    ManifestToml {
        /// The manifest.
        path: PathBuf,
        /// What is wrong, with line and column, in signprep's words.
        message: String,
    },
    /// The manifest is not valid JSON for a manifest.
    #[error("{}: {}", .path.display(), crate::parse_error::json(.source))]
    ManifestJson {
        /// The manifest.
        path: PathBuf,
        /// The parser's error.
        source: serde_json::Error,
    },
    /// A body is not valid JSON for its type.
    #[error("not a valid body: {}", crate::parse_error::json(.0))]
    Body(#[from] serde_json::Error),
}

impl Error {
    /// A stable snake_case code: `io_error`, `manifest_invalid`, `body_invalid`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Io { .. } => "io_error",
            Error::ManifestToml { .. } | Error::ManifestJson { .. } => "manifest_invalid",
            Error::Body(_) => "body_invalid",
        }
    }
}
