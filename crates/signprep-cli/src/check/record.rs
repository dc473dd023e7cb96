//! The result of checking one input, as written (json/ndjson) and counted.

use crate::batch::Tally;
use serde::Serialize;
use serde_json::Value;
use signprep_core::{FileErrorCode, Severity};
use signprep_pack::{Checked, Finding, FindingCode, InputKind, PackCode};

/// A finding with the value its pointer names in the input.
#[derive(Debug, Serialize)]
#[cfg_attr(
    feature = "serve",
    derive(schemars::JsonSchema),
    schemars(rename = "CheckFinding", deny_unknown_fields)
)]
pub struct Located {
    #[serde(flatten)]
    pub finding: Finding,
    /// The offending value, when the pointer names one: scalars in the JSON
    /// output (long strings shortened), objects and arrays only in the human one.
    #[serde(skip)]
    pub shown: Option<String>,
    /// The value the pointer names (scalars; long strings shortened).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// Why an input has no result.
#[derive(Debug, Serialize)]
#[cfg_attr(
    feature = "serve",
    derive(schemars::JsonSchema),
    schemars(rename = "CheckFailure", deny_unknown_fields)
)]
pub struct Failure {
    /// `io_error`, `internal_error` (a panic) or `pdf_limit_exceeded` (the
    /// watchdog gave up): the core's codes, as in a `scan` record.
    pub code: FileErrorCode,
    /// In our words.
    pub message: String,
    /// Why a file named or found could not be read (the I/O error's text):
    /// the last line says `cannot read PATH: WHY` for it, `cannot check
    /// PATH: MESSAGE` for every other failure.
    #[serde(skip)]
    pub unread: Option<String>,
}

impl Failure {
    /// True for a failure of the input itself, counted as an error-level
    /// finding (exit status 1, as `scan` counts its error records): a panic
    /// (`internal_error`) or the watchdog giving up (`pdf_limit_exceeded`).
    /// An input that could not be read (`io_error`) is a failure of the run
    /// (exit status 2).
    pub fn is_error_level(&self) -> bool {
        self.code != FileErrorCode::IoError
    }
}

/// One input's record.
#[derive(Debug, Serialize)]
#[cfg_attr(
    feature = "serve",
    derive(schemars::JsonSchema),
    schemars(rename = "CheckRecord", deny_unknown_fields)
)]
pub struct Record {
    /// The input as named (`-` for standard input).
    pub path: String,
    /// What the input is, when it could be told.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<InputKind>,
    /// `ok`; `error` when the input could not be checked at all; `skipped`
    /// when its kind could not be told (its one finding, `kind_unknown`, says why).
    pub status: Status,
    /// Why it could not be checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Failure>,
    /// Every finding.
    pub findings: Vec<Located>,
}

/// Whether an input was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "serve",
    derive(schemars::JsonSchema),
    schemars(rename = "CheckStatus")
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Checked: the findings say whether it passes.
    Ok,
    /// Not checked: the record's `error` says why.
    Error,
    /// Its kind could not be told (`kind_unknown`): left out.
    Skipped,
}

impl Record {
    /// The record of a checked input; the source is dropped once the values
    /// are looked up.
    pub fn checked(path: String, checked: Checked) -> Record {
        let source = checked.source;
        let findings: Vec<Located> = checked
            .findings
            .into_iter()
            .map(|finding| {
                // A finding in a PDF (a page, a tag, a field) is about the PDF,
                // not about the JSON value that holds it.
                let in_pdf =
                    finding.page.is_some() || finding.tag.is_some() || finding.field.is_some();
                let found = match (&source, &finding.pointer) {
                    (Some(s), Some(p)) if !in_pdf => s.pointer(p),
                    _ => None,
                };
                let value = found
                    .filter(|v| !v.is_object() && !v.is_array())
                    .map(shorten);
                // A list is not shown: its items say more (a pointer names one).
                let shown = found.filter(|v| !v.is_array()).map(|v| show(&shorten(v)));
                Located {
                    finding,
                    shown,
                    value,
                }
            })
            .collect();
        let skipped = checked.kind.is_none()
            && findings
                .iter()
                .all(|l: &Located| l.finding.code == FindingCode::Pack(PackCode::KindUnknown));
        Record {
            path,
            kind: checked.kind,
            status: if skipped { Status::Skipped } else { Status::Ok },
            error: None,
            findings,
        }
    }

    /// What the record adds to the run's [`crate::batch::Summary`]: a
    /// failure of the input itself (a panic, the watchdog) counts as an
    /// error-level finding, an unreadable input as one not checked.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::new(self.path.clone());
        if self.is_skipped() {
            return t.skipped();
        }
        match &self.error {
            Some(e) if e.is_error_level() => t.finding(Severity::Error, 1),
            Some(e) => {
                return t.unreadable(match &e.unread {
                    Some(why) => format!("cannot read {}: {why}", self.path),
                    None => format!("cannot check {}: {}", self.path, e.message),
                });
            }
            None => {}
        }
        for f in &self.findings {
            t.finding(f.finding.severity, 1);
        }
        t
    }

    /// True for an input skipped as `kind_unknown`.
    pub fn is_skipped(&self) -> bool {
        self.status == Status::Skipped
    }

    /// The record of an input that could not be checked.
    fn failed(path: String, error: Failure) -> Record {
        Record {
            path,
            kind: None,
            status: Status::Error,
            error: Some(error),
            findings: Vec::new(),
        }
    }

    /// The record of an input the engine has no result for (a panic, the
    /// watchdog): the core's error, as in a `scan` record.
    pub fn from_error(path: String, e: &signprep_core::Error) -> Record {
        let failure = Failure {
            code: e.file_code(),
            message: e.message(),
            unread: None,
        };
        Record::failed(path, failure)
    }

    /// The record of a file that could not be read (`io_error`): the core's
    /// error for it, as a `scan` record says it.
    pub fn unreadable(path: String, e: &std::io::Error) -> Record {
        let why = signprep_core::io_reason(e);
        let core = signprep_core::Error::from(std::io::Error::new(e.kind(), why.clone()));
        let mut record = Record::from_error(path, &core);
        if let Some(failure) = &mut record.error {
            failure.unread = Some(why);
        }
        record
    }

    /// The record of standard input when it could not be read (`io_error`).
    pub fn convert_failed(path: String, message: String) -> Record {
        let failure = Failure {
            code: FileErrorCode::ConvertFailed,
            message,
            unread: None,
        };
        Record::failed(path, failure)
    }

    /// Standard input could not be read.
    pub fn stdin_unreadable(e: &std::io::Error) -> Record {
        let failure = Failure {
            code: FileErrorCode::IoError,
            message: format!(
                "cannot read standard input: {}",
                signprep_core::io_reason(e)
            ),
            unread: None,
        };
        Record::failed("-".into(), failure)
    }
}

/// Strings over 80 characters (Base64 documents, say) are cut to 60 with the
/// length noted.
fn shorten(v: &Value) -> Value {
    match v {
        Value::String(s) if s.chars().count() > 80 => {
            let head: String = s.chars().take(60).collect();
            Value::String(format!("{head}... ({} characters)", s.chars().count()))
        }
        Value::Array(items) => Value::Array(items.iter().map(shorten).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), shorten(v))).collect()),
        other => other.clone(),
    }
}

/// Compact JSON, at most 120 characters.
fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 120 {
        let head: String = s.chars().take(117).collect();
        format!("{head}...")
    } else {
        s
    }
}
