//! The per-file record: what `signprep scan` prints for each input.

use crate::document::{Document, Error, LoadOptions};
use crate::error::FileErrorCode;
use crate::scan::{Scan, Scanner};
use crate::source::Converted;
use schemars::JsonSchema;
use serde::Serialize;
use std::path::Path;

/// Whether a file could be scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Scanned (possibly with findings).
    Ok,
    /// Not scanned: see the record's `error`.
    Error,
}

/// A fatal error, as written in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ErrorInfo {
    /// Stable code: `pdf_unreadable`, `pdf_encrypted`, `pdf_limit_exceeded`,
    /// `io_error`, `internal_error` (one of `FileErrorCode`).
    pub code: FileErrorCode,
    /// What went wrong, without the path.
    pub message: String,
}

impl ErrorInfo {
    /// An error with this code and message (in our words, without the path),
    /// for a failure found before there was a document (a file too large to
    /// read, say); otherwise made from the core's [`Error`] (`From`).
    pub fn new(code: FileErrorCode, message: impl Into<String>) -> ErrorInfo {
        ErrorInfo {
            code,
            message: message.into(),
        }
    }
}

impl From<&Error> for ErrorInfo {
    fn from(e: &Error) -> Self {
        ErrorInfo {
            code: e.file_code(),
            message: e.message(),
        }
    }
}

/// One file's result: the scan, or the reason there is none.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Record {
    /// The path as given.
    pub path: String,
    /// `ok` or `error`.
    pub status: Status,
    /// Present when `status` is `error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// For a `.docx` or `.odt` input: what it was converted from and by, and
    /// the hash of the PDF scanned. Absent for a PDF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub converted: Option<Converted>,
    /// The scan (empty lists on error).
    #[serde(flatten)]
    pub scan: Scan,
}

impl Record {
    /// Opens and scans one file; never panics on bad input, never fails: a file
    /// that cannot be scanned gives an error record. A panic (a bug) is not
    /// caught here: [`crate::batch`] holds the one per-file boundary.
    pub fn scan_file(path: &Path, options: &LoadOptions, scanner: &Scanner) -> Record {
        let result = Document::open(path, options).and_then(|doc| scanner.scan(&doc));
        Record::from_result(path.display().to_string(), result)
    }

    /// A record from a scan result.
    pub fn from_result(path: String, result: Result<Scan, Error>) -> Record {
        match result {
            Ok(scan) => Record {
                path,
                status: Status::Ok,
                error: None,
                converted: None,
                scan,
            },
            Err(e) => Record::failed(path, ErrorInfo::from(&e)),
        }
    }

    /// The record of a file that could not be scanned: status `error`, this
    /// error, an empty scan.
    pub fn failed(path: String, error: ErrorInfo) -> Record {
        Record {
            path,
            status: Status::Error,
            error: Some(error),
            converted: None,
            scan: Scan::default(),
        }
    }

    /// True when the record is an error or holds an error-level finding.
    pub fn is_failure(&self) -> bool {
        self.status == Status::Error || self.scan.has_errors()
    }
}
