//! Writing records: ndjson, json and a human table.

use crate::args::Format;
pub use crate::batch::Summary;
use serde::Serialize;
use signprep_core::{DataField, Record, Severity};
use std::io::{self, BufWriter, Write};

/// "N fields", or "fields not read" after `scan --no-fields` (where a count of
/// none would read like a file without fields).
pub fn fields_count(n: usize, read: bool) -> String {
    if read {
        format!("{n} fields")
    } else {
        "fields not read".to_string()
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
    summary_record: bool,
    fields_read: bool,
}

impl Writer {
    pub fn new(format: Format) -> Self {
        Writer {
            format,
            out: BufWriter::new(io::stdout()),
            first: true,
            summary_record: true,
            fields_read: true,
        }
    }

    /// Whether fields were read (`false` with `scan --no-fields`: the table
    /// says "fields not read" instead of counting none).
    pub fn fields_read(mut self, yes: bool) -> Self {
        self.fields_read = yes;
        self
    }

    /// Whether [`Writer::finish`] writes the summary (json/ndjson; on by default).
    pub fn summary_record(mut self, yes: bool) -> Self {
        self.summary_record = yes;
        self
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
                "{}: {} pages, {} tags, {}",
                r.path,
                r.scan.pages.len(),
                r.scan.tags.len(),
                fields_count(r.scan.fields.len(), self.fields_read)
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

    /// Ends the output: ndjson gets `{"summary": {...}}` as its last line, json
    /// closes `{"documents": [...], "summary": {...}}`; the table gets nothing
    /// (its summary goes to stderr).
    pub fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        match self.format {
            Format::Ndjson => {
                if self.summary_record {
                    self.out.write_all(b"{\"summary\":")?;
                    serde_json::to_writer(&mut self.out, summary)?;
                    self.out.write_all(b"}\n")?;
                }
                self.out.flush()
            }
            Format::Json => {
                if self.first {
                    self.out.write_all(b"{\"documents\": [\n")?;
                }
                if self.summary_record {
                    self.out.write_all(b"\n], \"summary\": ")?;
                    serde_json::to_writer(&mut self.out, summary)?;
                    self.out.write_all(b"}\n")?;
                } else {
                    self.out.write_all(b"\n]}\n")?;
                }
                self.out.flush()
            }
            Format::Table => self.out.flush(),
        }
    }
}
