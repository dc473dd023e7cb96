//! `signprep check --format gitlab`: a GitLab Code Quality report, the JSON
//! array a job publishes with `artifacts: reports: codequality:`.
//!
//! Each finding is `{"description", "check_name", "fingerprint", "severity",
//! "location": {"path", "lines": {"begin"}}}`: `check_name` is the code,
//! `fingerprint` a stable hash of the code and where the finding is (so GitLab
//! tells new findings from old across runs), `severity` `major` for an error,
//! `minor` for a warning and `info` for an info, `lines.begin` the line a JSON
//! pointer lands on in a body or manifest (1 for a PDF). Inputs that could not
//! be checked are `blocker` entries with their code (`io_error`, ...).

use super::ci::{fingerprint, places, relative};
use super::record::Record;
use crate::batch::Summary;
use serde::Serialize;
use signprep_core::Severity;
use std::io::{self, Write};

/// Entries gathered until the array is written whole at the end.
#[derive(Debug, Default)]
pub struct Gitlab {
    entries: Vec<Entry>,
}

impl Gitlab {
    pub fn record(&mut self, r: &Record) {
        if let Some(e) = &r.error {
            let path = relative(&r.path);
            self.entries.push(Entry {
                description: format!("{path}: {}", e.message),
                check_name: e.code.to_string(),
                fingerprint: fingerprint(&format!("{}\u{0}{path}", e.code)),
                severity: "blocker",
                location: Place {
                    path,
                    lines: Lines { begin: 1 },
                },
            });
            return;
        }
        for a in places(r) {
            let f = &a.finding.finding;
            let mut description = f.message.clone();
            let at = a.place.describe(a.finding);
            if !at.is_empty() {
                description.push_str(&format!(" ({at})"));
            }
            self.entries.push(Entry {
                description,
                check_name: f.code.as_str().to_string(),
                fingerprint: a.fingerprint.clone(),
                severity: match f.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Info => "info",
                },
                location: Place {
                    path: a.place.path.clone(),
                    lines: Lines {
                        begin: a.place.line.unwrap_or(1),
                    },
                },
            });
        }
    }

    pub fn finish(&mut self, out: &mut impl Write, _summary: &Summary) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, &self.entries)?;
        out.write_all(b"\n")
    }
}

#[derive(Debug, Serialize)]
struct Entry {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: &'static str,
    location: Place,
}

#[derive(Debug, Serialize)]
struct Place {
    path: String,
    lines: Lines,
}

#[derive(Debug, Serialize)]
struct Lines {
    begin: usize,
}
