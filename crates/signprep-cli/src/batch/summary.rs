//! The totals of a run: the last json/ndjson record, and a line on stderr.

use serde::Serialize;
use signprep_core::{Record, Status};
use std::collections::BTreeMap;

/// Totals over a run. Serialised without timing unless [`Summary::include_timing`]
/// was called, so json/ndjson output stays byte-identical between runs.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub files: usize,
    pub ok: usize,
    pub errors: usize,
    pub pages: usize,
    pub tags: usize,
    pub fields: usize,
    /// Fields were not read (`scan --no-fields`): `fields` counts nothing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fields_skipped: bool,
    /// Files with an error record or an error-level finding.
    pub failures: usize,
    /// Findings by severity.
    pub findings: BTreeMap<&'static str, usize>,
    /// Error records by code.
    pub errors_by_code: BTreeMap<String, usize>,
    /// Inputs passed over by `--skip-done`.
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped: usize,
    /// The run was stopped (Ctrl-C, SIGTERM) before the end of its input.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// Wall time, seconds: only with `--timing`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_seconds: Option<f64>,
    /// Pages per second of wall time: only with `--timing`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages_per_second: Option<f64>,
    /// Wall time, seconds, for the human line.
    #[serde(skip)]
    pub elapsed: f64,
    /// The first file with error-level findings, and the first that could
    /// not be scanned: named in the last line when it is the only one.
    #[serde(skip)]
    pub first_with_findings: Option<String>,
    #[serde(skip)]
    pub first_unscanned: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What one record adds to a [`Summary`]: taken where the record was scanned,
/// so the record itself need not travel to the writer's thread.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// The record's path, kept only for a failure (named in the last line
    /// when it is the only one).
    failed_path: Option<String>,
    ok: bool,
    error_code: Option<String>,
    failure: bool,
    pub pages: usize,
    tags: usize,
    fields: usize,
    /// Findings by severity.
    findings: BTreeMap<&'static str, usize>,
}

impl Tally {
    pub fn of(r: &Record) -> Tally {
        let mut findings = BTreeMap::new();
        for d in &r.scan.diagnostics {
            *findings.entry(d.severity.as_str()).or_default() += 1;
        }
        Tally {
            failed_path: r.is_failure().then(|| r.path.clone()),
            ok: r.status == Status::Ok,
            error_code: r.error.as_ref().map(|e| e.code.as_str().to_string()),
            failure: r.is_failure(),
            pages: r.scan.pages.len(),
            tags: r.scan.tags.len(),
            fields: r.scan.fields.len(),
            findings,
        }
    }

    /// Number of findings.
    pub fn findings(&self) -> usize {
        self.findings.values().sum()
    }
}

impl Summary {
    pub fn add(&mut self, t: &Tally) {
        self.files += 1;
        if t.ok {
            self.ok += 1;
        } else {
            self.errors += 1;
            if let Some(code) = &t.error_code {
                *self.errors_by_code.entry(code.clone()).or_default() += 1;
            }
        }
        if t.failure {
            self.failures += 1;
            let first = if t.ok {
                &mut self.first_with_findings
            } else {
                &mut self.first_unscanned
            };
            if first.is_none() {
                first.clone_from(&t.failed_path);
            }
        }
        self.pages += t.pages;
        self.tags += t.tags;
        self.fields += t.fields;
        for (sev, n) in &t.findings {
            *self.findings.entry(sev).or_default() += n;
        }
    }

    fn rate(&self) -> f64 {
        if self.elapsed > 0.0 {
            self.pages as f64 / self.elapsed
        } else {
            0.0
        }
    }

    /// Puts wall time and pages/s into the serialised summary.
    pub fn include_timing(&mut self) {
        self.wall_seconds = Some((self.elapsed * 1000.0).round() / 1000.0);
        self.pages_per_second = Some(self.rate().round());
    }

    /// Why the run's exit status is 1: `8 error-level findings in 3 files, 1
    /// file could not be scanned (pdf_unreadable 1)`.
    pub fn failure_line(&self) -> String {
        let with_findings = self.failures.saturating_sub(self.errors);
        let mut parts = Vec::new();
        if with_findings > 0 {
            let n = self.findings.get("error").copied().unwrap_or(0);
            let files = match (with_findings, &self.first_with_findings) {
                (1, Some(path)) => path.clone(),
                (k, _) => crate::text::plural(k, "file"),
            };
            parts.push(format!(
                "{} in {files}",
                crate::text::plural(n, "error-level finding")
            ));
        }
        if self.errors > 0 {
            let codes: Vec<String> = self
                .errors_by_code
                .iter()
                .map(|(code, n)| {
                    if self.errors == 1 {
                        code.clone()
                    } else {
                        format!("{code} {n}")
                    }
                })
                .collect();
            let files = match (self.errors, &self.first_unscanned) {
                (1, Some(path)) => path.clone(),
                (k, _) => crate::text::plural(k, "file"),
            };
            parts.push(format!(
                "{files} could not be scanned ({})",
                codes.join(", ")
            ));
        }
        parts.join(", ")
    }

    /// One line for people: counts, errors by code, wall time and pages/s.
    pub fn line(&self) -> String {
        let fields = crate::output::fields_count(self.fields, !self.fields_skipped);
        let mut s = format!(
            "{} ({} ok, {}), {}, {}, {fields}, {}",
            crate::text::plural(self.files, "file"),
            self.ok,
            crate::text::plural(self.errors, "error"),
            crate::text::plural(self.pages, "page"),
            crate::text::plural(self.tags, "tag"),
            crate::text::plural(self.findings.values().sum::<usize>(), "finding"),
        );
        if !self.errors_by_code.is_empty() {
            let codes: Vec<String> = self
                .errors_by_code
                .iter()
                .map(|(code, n)| format!("{code} {n}"))
                .collect();
            s += &format!(" (errors: {})", codes.join(", "));
        }
        if self.skipped > 0 {
            s += &format!(", {} skipped as done", self.skipped);
        }
        s += &format!("; {:.2}s, {:.0} pages/s", self.elapsed, self.rate());
        if self.interrupted {
            s += "; interrupted";
        }
        s
    }
}
