//! [`Summary`]: how a batch run ends, for every command that reads inputs
//! (`scan`, `check`, `report`, `migrate`, `preview`).
//!
//! ```text
//! each input's result ─ Tally (worker or sink) ─▶ Summary::file ┐
//! a problem of the command's own (a write error, ...) ─▶ add ───┴─▶ Summary
//! Summary ─ scan_totals / check_totals (the json summary record), scan_line /
//!           check_line (the human totals)
//!         ─ finish ─▶ the last line on stderr and the exit status
//! ```
//!
//! The last line names, in this order, the inputs that could not be read
//! (exit status 2), the command's own problems, the inputs with error-level
//! findings and those with no result (a panic, the watchdog, a PDF that
//! cannot be scanned; 1), joined by `; `. The worst status wins
//! ([`ExitStatus`]'s order); Ctrl-C says only that the run was interrupted
//! (130).

use crate::exit::ExitStatus;
use crate::text::plural;
use serde::Serialize;
use signprep_core::{FileErrorCode, Record, Severity, Status};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The command a [`Summary`] ends: the words of its last line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Command {
    /// Reasons only ([`Summary::add`]): `preview`, `pack`.
    #[default]
    Plain,
    /// `scan`: `... could not be scanned`.
    Scan,
    /// `check`: `... could not be checked`; `--deny warnings` fails on
    /// warnings too.
    Check { deny_warnings: bool },
    /// `report`: `...; see OUTPUT`, or `interrupted; OUTPUT not written`.
    /// (`report` is built with the `render` feature only.)
    #[cfg_attr(not(feature = "render"), allow(dead_code))]
    Report { output: PathBuf },
    /// `migrate`: `PDF not migrated (error-level findings); nothing written for it`.
    Migrate,
}

/// What one input adds to a [`Summary`]: taken where its result is made
/// (a worker thread for `scan`), so the result need not travel further.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    path: String,
    /// The error record's code: the input has no result.
    error: Option<String>,
    /// Why the input could not be read (exit status 2), as the last line says it.
    unreadable: Option<String>,
    /// Left out (`check`: a file of unknown kind).
    skipped: bool,
    pub pages: usize,
    tags: usize,
    fields: usize,
    /// Findings by severity.
    findings: BTreeMap<&'static str, usize>,
}

impl Tally {
    /// An input with a result and nothing found yet.
    pub fn new(path: impl Into<String>) -> Tally {
        Tally {
            path: path.into(),
            ..Tally::default()
        }
    }

    /// A scan record's counts.
    pub fn of(r: &Record) -> Tally {
        let mut t = Tally::new(r.path.clone());
        for d in &r.scan.diagnostics {
            t.finding(d.severity, 1);
        }
        if r.status != Status::Ok {
            t.error = r.error.as_ref().map(|e| e.code.as_str().to_string());
        }
        // An input that could not be read is an I/O failure (exit status 2)
        // wherever it is met: at the walk (`scan` words that line itself),
        // opening the file or reading standard input; as `check` has it.
        if let Some(e) = r
            .error
            .as_ref()
            .filter(|e| e.code == FileErrorCode::IoError)
        {
            t = t.unreadable(format!("{}: {}", r.path, e.message));
        }
        t.pages = r.scan.pages.len();
        t.tags = r.scan.tags.len();
        t.fields = r.scan.fields.len();
        t
    }

    /// Adds `n` findings of severity `s`.
    pub fn finding(&mut self, s: Severity, n: usize) {
        if n > 0 {
            *self.findings.entry(s.as_str()).or_default() += n;
        }
    }

    /// The input has no result: error record `code` (exit status 1).
    #[must_use]
    pub fn failed(mut self, code: impl Into<String>) -> Tally {
        self.error = Some(code.into());
        self
    }

    /// The input could not be read (exit status 2); `line` says so in the
    /// last line (`cannot read PATH: WHY`). Its error record is `io_error`.
    #[must_use]
    pub fn unreadable(mut self, line: impl Into<String>) -> Tally {
        self.error = Some(signprep_core::FileErrorCode::IoError.as_str().into());
        self.unreadable = Some(line.into());
        self
    }

    /// The input is left out (counted apart, its findings not counted).
    #[must_use]
    pub fn skipped(mut self) -> Tally {
        self.skipped = true;
        self
    }

    /// Number of findings.
    pub fn findings(&self) -> usize {
        self.findings.values().sum()
    }

    fn count(&self, s: Severity) -> usize {
        self.findings.get(s.as_str()).copied().unwrap_or(0)
    }
}

/// How many inputs are in one group of the last line, and the first (named
/// when it is the only one).
#[derive(Debug, Default)]
struct Group {
    n: usize,
    first: Option<String>,
}

impl Group {
    fn add(&mut self, first: &str) {
        self.n += 1;
        if self.first.is_none() {
            self.first = Some(first.to_string());
        }
    }

    /// `3 files`, or the file's name when there is one.
    fn named(&self, noun: &str) -> String {
        match (self.n, &self.first) {
            (1, Some(name)) => name.clone(),
            (n, _) => plural(n, noun),
        }
    }
}

/// The totals of a run and why it ends as it does: the one place that
/// decides the exit status and writes the last line.
#[derive(Debug, Default)]
pub struct Summary {
    command: Command,
    /// Inputs counted (not skipped).
    pub files: usize,
    ok: usize,
    /// Inputs with no result (error records).
    errors: usize,
    pages: usize,
    tags: usize,
    fields: usize,
    /// Fields were not read (`scan --no-fields`): `fields` counts nothing.
    pub fields_skipped: bool,
    /// Inputs with no result or an error-level finding.
    failures: usize,
    findings: BTreeMap<&'static str, usize>,
    errors_by_code: BTreeMap<String, usize>,
    /// Inputs left out as of unknown kind (`check`).
    pub skipped: usize,
    /// Inputs passed over by `--skip-done` (`scan`).
    pub skipped_done: usize,
    /// Ctrl-C or SIGTERM stopped the run before the end of its input.
    pub interrupted: bool,
    /// Wall time, seconds.
    pub elapsed: f64,
    /// Wall time and pages/s go into the json summary (`--timing`).
    pub timing: bool,
    unreadable: Group,
    /// Inputs with no result for another reason, and their codes.
    not_done: Group,
    not_done_codes: BTreeMap<String, usize>,
    /// Inputs with an error-level finding, and with a warning or worse.
    with_errors: Group,
    with_either: Group,
    /// The command's own problems, in the order they came.
    reasons: Vec<String>,
    /// The worst status the command's own problems call for so far.
    pub status: ExitStatus,
}

impl Summary {
    pub fn new(command: Command) -> Summary {
        Summary {
            command,
            ..Summary::default()
        }
    }

    /// Counts one input.
    pub fn file(&mut self, t: &Tally) {
        if t.skipped {
            self.skipped += 1;
            return;
        }
        self.files += 1;
        self.pages += t.pages;
        self.tags += t.tags;
        self.fields += t.fields;
        for (sev, n) in &t.findings {
            *self.findings.entry(sev).or_default() += n;
        }
        let errors = t.count(Severity::Error);
        match (&t.error, &t.unreadable) {
            (None, _) => self.ok += 1,
            (Some(code), unreadable) => {
                self.errors += 1;
                *self.errors_by_code.entry(code.clone()).or_default() += 1;
                match unreadable {
                    Some(line) => self.unreadable.add(line),
                    None => {
                        self.not_done.add(&t.path);
                        *self.not_done_codes.entry(code.clone()).or_default() += 1;
                    }
                }
            }
        }
        if t.error.is_some() || errors > 0 {
            self.failures += 1;
        }
        if t.error.is_none() && errors > 0 {
            self.with_errors.add(&t.path);
        }
        if t.error.is_none() && errors + t.count(Severity::Warning) > 0 {
            self.with_either.add(&t.path);
        }
    }

    /// A problem of the command's own and the exit status it calls for.
    pub fn add(&mut self, status: ExitStatus, reason: impl Into<String>) {
        self.status = self.status.max(status);
        self.reasons.push(reason.into());
    }

    /// Findings of severity `s`.
    pub fn count(&self, s: Severity) -> usize {
        self.findings.get(s.as_str()).copied().unwrap_or(0)
    }

    fn rate(&self) -> f64 {
        if self.elapsed > 0.0 {
            self.pages as f64 / self.elapsed
        } else {
            0.0
        }
    }

    /// Prints the last line when the status is not 0 and returns the status.
    pub fn finish(self) -> ExitStatus {
        if self.interrupted {
            let line = match &self.command {
                Command::Report { output } => {
                    format!("interrupted; {} not written", output.display())
                }
                Command::Migrate => "interrupted".into(),
                _ => "interrupted; the output holds the records written so far".into(),
            };
            return crate::exit::fail(&line, ExitStatus::Interrupted);
        }
        let (status, parts) = self.verdict();
        if status != ExitStatus::Success {
            crate::exit::fail(&parts.join("; "), status);
        }
        status
    }

    /// The exit status and the parts of the last line.
    fn verdict(&self) -> (ExitStatus, Vec<String>) {
        const SHOWN: usize = 3;
        let mut status = self.status;
        let mut parts = Vec::new();
        if let Some(first) = &self.unreadable.first {
            status = status.max(ExitStatus::Error);
            parts.push(match self.unreadable.n {
                1 => first.clone(),
                n => format!("{n} inputs could not be read; the first: {first}"),
            });
        }
        parts.extend(self.reasons.iter().take(SHOWN).cloned());
        if self.reasons.len() > SHOWN {
            parts.push(format!("and {} more", self.reasons.len() - SHOWN));
        }
        if let Some(findings) = self.findings_reason() {
            status = status.max(ExitStatus::Failure);
            parts.push(findings);
        }
        if self.not_done.n > 0 {
            status = status.max(ExitStatus::Failure);
            let (noun, verb) = match self.command {
                Command::Check { .. } => ("file", "checked"),
                Command::Migrate => ("PDF", "migrated"),
                _ => ("file", "scanned"),
            };
            let codes: Vec<String> = self
                .not_done_codes
                .iter()
                .map(|(code, n)| match self.not_done.n {
                    1 => code.clone(),
                    _ => format!("{code} {n}"),
                })
                .collect();
            parts.push(format!(
                "{} could not be {verb} ({})",
                self.not_done.named(noun),
                codes.join(", ")
            ));
        }
        if let Command::Report { output } = &self.command
            && status != ExitStatus::Success
        {
            parts.push(format!("see {}", output.display()));
        }
        (status, parts)
    }

    /// Why error-level findings (or, with `--deny warnings`, warnings) fail
    /// the run: `8 error-level findings in 3 files`.
    fn findings_reason(&self) -> Option<String> {
        let errors = self.count(Severity::Error);
        let warnings = self.count(Severity::Warning);
        match self.command {
            Command::Check {
                deny_warnings: true,
            } if warnings > 0 => {
                let what = if errors > 0 {
                    format!(
                        "{} and {} (--deny warnings)",
                        plural(errors, "error-level finding"),
                        plural(warnings, "warning")
                    )
                } else {
                    format!("{} (--deny warnings)", plural(warnings, "warning"))
                };
                Some(format!("{what} in {}", self.with_either.named("file")))
            }
            _ if self.with_errors.n == 0 => None,
            Command::Migrate => Some(format!(
                "{} not migrated (error-level findings); nothing written for {}",
                self.with_errors.named("PDF"),
                if self.with_errors.n == 1 {
                    "it"
                } else {
                    "them"
                }
            )),
            _ => Some(format!(
                "{} in {}",
                plural(errors, "error-level finding"),
                self.with_errors.named("file")
            )),
        }
    }

    /// `scan`'s totals for people: counts, errors by code, wall time and pages/s.
    pub fn scan_line(&self) -> String {
        let fields = crate::output::fields_count(self.fields, !self.fields_skipped);
        let mut s = format!(
            "{} ({} ok, {}), {}, {}, {fields}, {}",
            plural(self.files, "file"),
            self.ok,
            plural(self.errors, "error"),
            plural(self.pages, "page"),
            plural(self.tags, "tag"),
            plural(self.findings.values().sum::<usize>(), "finding"),
        );
        if !self.errors_by_code.is_empty() {
            let codes: Vec<String> = self
                .errors_by_code
                .iter()
                .map(|(code, n)| format!("{code} {n}"))
                .collect();
            s += &format!(" (errors: {})", codes.join(", "));
        }
        if self.skipped_done > 0 {
            s += &format!(", {} skipped as done", self.skipped_done);
        }
        s += &format!("; {:.2}s, {:.0} pages/s", self.elapsed, self.rate());
        if self.interrupted {
            s += "; interrupted";
        }
        s
    }

    /// `scan`'s json summary record.
    pub fn scan_totals(&self) -> ScanTotals<'_> {
        ScanTotals {
            files: self.files,
            ok: self.ok,
            errors: self.errors,
            pages: self.pages,
            tags: self.tags,
            fields: self.fields,
            fields_skipped: self.fields_skipped,
            failures: self.failures,
            findings: &self.findings,
            errors_by_code: &self.errors_by_code,
            skipped: self.skipped_done,
            interrupted: self.interrupted,
            wall_seconds: self
                .timing
                .then(|| (self.elapsed * 1000.0).round() / 1000.0),
            pages_per_second: self.timing.then(|| self.rate().round()),
        }
    }

    /// `check`'s totals for people: `checked 3 files: 1 error, 2 warnings`.
    pub fn check_line(&self) -> String {
        let mut parts = Vec::new();
        for s in [Severity::Error, Severity::Warning, Severity::Info] {
            let n = self.count(s);
            if n > 0 {
                parts.push(plural(n, s.as_str()));
            }
        }
        if self.unreadable.n > 0 {
            parts.push(format!("{} not checked", self.unreadable.n));
        }
        let mut line = format!("checked {}: ", plural(self.files, "file"));
        if parts.is_empty() {
            line.push_str("no problems found");
        } else {
            line.push_str(&parts.join(", "));
        }
        if self.skipped > 0 {
            line.push_str(&format!(
                "; {} skipped (not a PDF, body or manifest)",
                plural(self.skipped, "file")
            ));
        }
        if self.interrupted {
            line.push_str("; interrupted");
        }
        line
    }

    /// `check`'s json summary record.
    pub fn check_totals(&self) -> CheckTotals<'_> {
        CheckTotals {
            files: self.files,
            findings: &self.findings,
            failed: self.unreadable.n,
            skipped: self.skipped,
            interrupted: self.interrupted,
        }
    }
}

/// `scan`'s summary record. Without timing unless `--timing`, so json/ndjson
/// output stays byte-identical between runs.
#[derive(Debug, Serialize)]
pub struct ScanTotals<'a> {
    files: usize,
    ok: usize,
    errors: usize,
    pages: usize,
    tags: usize,
    fields: usize,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    fields_skipped: bool,
    /// Files with an error record or an error-level finding.
    failures: usize,
    /// Findings by severity.
    findings: &'a BTreeMap<&'static str, usize>,
    /// Error records by code.
    errors_by_code: &'a BTreeMap<String, usize>,
    /// Inputs passed over by `--skip-done`.
    #[serde(skip_serializing_if = "is_zero")]
    skipped: usize,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    interrupted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    wall_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pages_per_second: Option<f64>,
}

/// Totals over a run.
#[derive(Debug, Serialize)]
#[cfg_attr(
    feature = "serve",
    derive(schemars::JsonSchema),
    schemars(rename = "CheckSummary", deny_unknown_fields)
)]
pub struct CheckTotals<'a> {
    /// Inputs checked (records written).
    files: usize,
    /// Findings by severity.
    #[cfg_attr(feature = "serve", schemars(schema_with = "by_severity"))]
    findings: &'a BTreeMap<&'static str, usize>,
    /// Inputs that could not be checked (unreadable).
    failed: usize,
    /// Inputs whose kind could not be told, left out (`kind_unknown`).
    skipped: usize,
    /// The run was stopped (Ctrl-C, SIGTERM) before the end of its input.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    interrupted: bool,
}

/// The schema of [`CheckTotals::findings`]: a count per severity name.
#[cfg(feature = "serve")]
fn by_severity(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "propertyNames": g.subschema_for::<Severity>(),
        "additionalProperties": g.subschema_for::<usize>(),
    })
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
