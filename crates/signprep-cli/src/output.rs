//! Writing records: ndjson, json and a human table.

use crate::args::Format;
use serde::Serialize;
use signprep_core::{DataField, Record, Severity, Status};
use std::collections::BTreeMap;
use std::io::{self, BufWriter, IsTerminal, Write};

/// Totals over a run.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub files: usize,
    pub ok: usize,
    pub errors: usize,
    pub pages: usize,
    pub tags: usize,
    pub fields: usize,
    /// Files with an error record or an error-level finding.
    pub failures: usize,
    /// Findings by severity.
    pub findings: BTreeMap<&'static str, usize>,
    /// Error records by code.
    pub errors_by_code: BTreeMap<String, usize>,
    /// Wall time, seconds (left out of json output to keep it deterministic).
    #[serde(skip)]
    pub wall_seconds: f64,
}

impl Summary {
    pub fn add(&mut self, r: &Record) {
        self.files += 1;
        match r.status {
            Status::Ok => self.ok += 1,
            Status::Error => {
                self.errors += 1;
                if let Some(e) = &r.error {
                    *self.errors_by_code.entry(e.code.clone()).or_default() += 1;
                }
            }
        }
        if r.is_failure() {
            self.failures += 1;
        }
        self.pages += r.scan.pages.len();
        self.tags += r.scan.tags.len();
        self.fields += r.scan.fields.len();
        for d in &r.scan.diagnostics {
            *self.findings.entry(d.severity.as_str()).or_default() += 1;
        }
    }

    fn line(&self) -> String {
        let rate = if self.wall_seconds > 0.0 {
            self.pages as f64 / self.wall_seconds
        } else {
            0.0
        };
        format!(
            "{} files ({} ok, {} errors), {} pages, {} tags, {} fields, {} findings; {:.2}s, {:.0} pages/s",
            self.files,
            self.ok,
            self.errors,
            self.pages,
            self.tags,
            self.fields,
            self.findings.values().sum::<usize>(),
            self.wall_seconds,
            rate
        )
    }

    pub fn print_stderr_if_terminal(&self) {
        if io::stderr().is_terminal() {
            eprintln!("{}", self.line());
        }
    }
}

/// A record as written: the record, plus `data_fields` with `--data-fields`.
#[derive(Serialize)]
struct WithDataFields<'a> {
    #[serde(flatten)]
    record: &'a Record,
    #[serde(skip_serializing_if = "Option::is_none")]
    data_fields: Option<&'a [DataField]>,
}

pub struct Writer {
    format: Format,
    out: BufWriter<io::Stdout>,
    first: bool,
}

impl Writer {
    pub fn new(format: Format) -> Self {
        Writer {
            format,
            out: BufWriter::new(io::stdout()),
            first: true,
        }
    }

    /// Writes one record; `data_fields` (with `--data-fields`) is added to it.
    pub fn record(&mut self, r: &Record, data_fields: Option<&[DataField]>) -> io::Result<()> {
        let r = &WithDataFields {
            record: r,
            data_fields,
        };
        match self.format {
            Format::Ndjson => {
                serde_json::to_writer(&mut self.out, r)?;
                self.out.write_all(b"\n")?;
                self.out.flush()
            }
            Format::Json => {
                if self.first {
                    self.out.write_all(b"{\"documents\": [\n")?;
                } else {
                    self.out.write_all(b",\n")?;
                }
                self.first = false;
                serde_json::to_writer(&mut self.out, r)?;
                Ok(())
            }
            Format::Table => self.table(r.record, r.data_fields),
        }
    }

    fn table(&mut self, r: &Record, data_fields: Option<&[DataField]>) -> io::Result<()> {
        let o = &mut self.out;
        match &r.error {
            Some(e) => writeln!(o, "{}: error [{}] {}", r.path, e.code, e.message)?,
            None => writeln!(
                o,
                "{}: {} pages, {} tags, {} fields",
                r.path,
                r.scan.pages.len(),
                r.scan.tags.len(),
                r.scan.fields.len()
            )?,
        }
        if !r.scan.tags.is_empty() {
            writeln!(
                o,
                "  {:<24} {:>4} {:>9} {:>9} {:>8} {:>7}  {:<5} font",
                "tag", "page", "x", "y", "width", "height", "valid"
            )?;
        }
        for t in &r.scan.tags {
            writeln!(
                o,
                "  {:<24} {:>4} {:>9.2} {:>9.2} {:>8.2} {:>7.2}  {:<5} {} {}pt{}",
                if t.tag_id.is_empty() {
                    &t.raw
                } else {
                    &t.tag_id
                },
                t.page,
                t.x,
                t.y,
                t.width,
                t.height,
                if t.valid { "yes" } else { "no" },
                t.font,
                t.font_size,
                if t.hidden { " (hidden)" } else { "" }
            )?;
        }
        if !r.scan.fields.is_empty() {
            writeln!(
                o,
                "  {:<24} {:>4} {:>9} {:>9} {:>8} {:>7}  {:<10} value",
                "field", "page", "x", "y", "width", "height", "type"
            )?;
        }
        for f in &r.scan.fields {
            let page = f.page.map_or_else(|| "-".to_string(), |p| p.to_string());
            let value = f
                .value
                .as_ref()
                .and_then(|v| serde_json::to_string(v).ok())
                .unwrap_or_default();
            writeln!(
                o,
                "  {:<24} {:>4} {:>9.2} {:>9.2} {:>8.2} {:>7.2}  {:<10} {}{}",
                f.name,
                page,
                f.x,
                f.y,
                f.width,
                f.height,
                f.kind.map_or("?", |k| k.as_str()),
                value,
                if f.required { " (required)" } else { "" }
            )?;
        }
        for d in data_fields.unwrap_or_default() {
            let id = d.custom_id.as_deref().or(d.tag_id.as_deref()).unwrap_or("");
            writeln!(
                o,
                "  data field {id}: {} at {:.2}, {:.2} ({:.2} x {:.2})",
                d.kind, d.x, d.y, d.width, d.height
            )?;
        }
        for d in &r.scan.diagnostics {
            let sev = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            writeln!(o, "  {sev}[{}]: {}", d.code, d.message)?;
            if let Some(h) = &d.hint {
                writeln!(o, "    hint: {h}")?;
            }
        }
        o.flush()
    }

    pub fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        match self.format {
            Format::Ndjson => Ok(()),
            Format::Json => {
                if self.first {
                    self.out.write_all(b"{\"documents\": [\n")?;
                }
                self.out.write_all(b"\n], \"summary\": ")?;
                serde_json::to_writer(&mut self.out, summary)?;
                self.out.write_all(b"}\n")?;
                self.out.flush()
            }
            Format::Table => {
                writeln!(self.out, "{}", summary.line())?;
                self.out.flush()
            }
        }
    }
}
