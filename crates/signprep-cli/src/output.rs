//! Writing records: ndjson, json and a human table.

use crate::args::Format;
pub use crate::batch::Summary;
use crate::text::clean;
use signprep_core::{Record, Severity};
use signprep_pack::{DataField, ScanRecord};
use std::io::{self, BufWriter, Write};

/// "N fields", or "fields not read" after `scan --no-fields` (where a count of
/// none would read like a file without fields).
pub fn fields_count(n: usize, read: bool) -> String {
    if read {
        crate::text::plural(n, "field")
    } else {
        "fields not read".to_string()
    }
}

/// How a record is turned into bytes: the part of writing that needs no
/// stdout, so the workers render each record where it was scanned (in
/// parallel, and the record is dropped there too) and the writer's thread only
/// copies bytes in input order. Rendering the last big records on that one
/// thread after every worker was done was a serial tail of a batch.
#[derive(Clone, Copy, Debug)]
pub struct Render {
    format: Format,
    fields_read: bool,
}

impl Render {
    pub fn new(format: Format) -> Self {
        Render {
            format,
            fields_read: true,
        }
    }

    /// Whether fields were read (`false` with `scan --no-fields`: the table
    /// says "fields not read" instead of counting none).
    pub fn fields_read(mut self, yes: bool) -> Self {
        self.fields_read = yes;
        self
    }

    /// One record as written (without what joins it to the others: see
    /// [`Writer::write`]); `data_fields` (with `--data-fields`) is added to it.
    pub fn record(&self, r: &Record, data_fields: Option<&[DataField]>) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(4096);
        match self.format {
            Format::Ndjson | Format::Json => {
                let r = &ScanRecord {
                    record: r,
                    data_fields,
                };
                serde_json::to_writer(&mut out, r)?;
            }
            Format::Table => self.table(&mut out, r, data_fields)?,
        }
        Ok(out)
    }

    fn table(
        &self,
        o: &mut Vec<u8>,
        r: &Record,
        data_fields: Option<&[DataField]>,
    ) -> io::Result<()> {
        match &r.error {
            Some(e) => writeln!(
                o,
                "{}: error [{}] {}",
                clean(&r.path),
                e.code,
                clean(&e.message)
            )?,
            None => writeln!(
                o,
                "{}{}: {}, {}, {}",
                clean(&r.path),
                r.converted.as_ref().map_or(String::new(), |c| format!(
                    " ({}, converted by {})",
                    c.format, c.converter
                )),
                crate::text::plural(r.scan.pages.len(), "page"),
                crate::text::plural(r.scan.tags.len(), "tag"),
                fields_count(r.scan.fields.len(), self.fields_read)
            )?,
        }
        if r.converted.is_some() {
            // A template's tags lead with where they stand in it: the author fixes the
            // template, not the PDF.
            for t in &r.scan.tags {
                let id = clean(if t.tag_id.is_empty() {
                    &t.raw
                } else {
                    &t.tag_id
                });
                let place = t.source.as_ref().map_or_else(
                    || "not found in the template".to_string(),
                    |s| clean(&s.to_string()).into_owned(),
                );
                writeln!(o, "  {id:<24} {place}")?;
                writeln!(
                    o,
                    "  {:<24} -> page {} at {:.2}, {:.2} ({:.2} x {:.2}), {} {}pt{}{}",
                    "",
                    t.page + 1,
                    t.x,
                    t.y,
                    t.width,
                    t.height,
                    clean(&t.font),
                    t.font_size,
                    if t.valid { "" } else { ", invalid id" },
                    if t.hidden { " (hidden)" } else { "" }
                )?;
            }
        } else if !r.scan.tags.is_empty() {
            writeln!(
                o,
                "  {:<24} {:>4} {:>9} {:>9} {:>8} {:>7}  {:<5} font",
                "tag", "page", "x", "y", "width", "height", "valid"
            )?;
        }
        for t in r.scan.tags.iter().filter(|_| r.converted.is_none()) {
            writeln!(
                o,
                "  {:<24} {:>4} {:>9.2} {:>9.2} {:>8.2} {:>7.2}  {:<5} {} {}pt{}",
                clean(if t.tag_id.is_empty() {
                    &t.raw
                } else {
                    &t.tag_id
                }),
                t.page + 1,
                t.x,
                t.y,
                t.width,
                t.height,
                if t.valid { "yes" } else { "no" },
                clean(&t.font),
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
            let page = f
                .page
                .map_or_else(|| "-".to_string(), |p| (p + 1).to_string());
            let value = f
                .value
                .as_ref()
                .and_then(|v| serde_json::to_string(v).ok())
                .unwrap_or_default();
            writeln!(
                o,
                "  {:<24} {:>4} {:>9.2} {:>9.2} {:>8.2} {:>7.2}  {:<10} {}{}",
                clean(&f.name),
                page,
                f.x,
                f.y,
                f.width,
                f.height,
                f.kind.map_or("?", |k| k.as_str()),
                clean(&value),
                if f.required { " (required)" } else { "" }
            )?;
        }
        for t in r.scan.vendor_tags.as_deref().unwrap_or_default() {
            let a = &t.attributes;
            if let Some(s) = &t.source {
                writeln!(o, "  {} {}: {}", t.dialect, t.raw, clean(&s.to_string()))?;
            }
            writeln!(
                o,
                "  {} {} page {} {:.2}, {:.2} ({:.2} x {:.2}): {} for {}{}{}",
                t.dialect,
                t.raw,
                t.page + 1,
                t.x,
                t.y,
                t.width,
                t.height,
                a.kind,
                a.signer.as_deref().unwrap_or("-"),
                if a.required { ", required" } else { "" },
                if t.hidden { " (hidden)" } else { "" }
            )?;
        }
        for d in data_fields.unwrap_or_default() {
            let id = d.custom_id.as_deref().or(d.tag_id.as_deref()).unwrap_or("");
            writeln!(
                o,
                "  data field {}: {} at {:.2}, {:.2} ({:.2} x {:.2})",
                clean(id),
                d.kind,
                d.x,
                d.y,
                d.width,
                d.height
            )?;
        }
        for d in &r.scan.diagnostics {
            let sev = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            match &d.source {
                // Led by the place in the template, unless the message starts with it.
                Some(s) if !d.message.starts_with(&s.to_string()) => writeln!(
                    o,
                    "  {sev}[{}]: {}: {}",
                    d.code,
                    clean(&s.to_string()),
                    clean(&d.message)
                )?,
                _ => writeln!(o, "  {sev}[{}]: {}", d.code, clean(&d.message))?,
            }
            if let Some(h) = &d.hint {
                writeln!(o, "    hint: {}", clean(h))?;
            }
        }
        Ok(())
    }
}

pub struct Writer {
    format: Format,
    out: BufWriter<io::Stdout>,
    first: bool,
    summary_record: bool,
}

impl Writer {
    pub fn new(format: Format) -> Self {
        Writer {
            format,
            out: BufWriter::new(io::stdout()),
            first: true,
            summary_record: true,
        }
    }

    /// Whether [`Writer::finish`] writes the summary (json/ndjson; on by default).
    pub fn summary_record(mut self, yes: bool) -> Self {
        self.summary_record = yes;
        self
    }

    /// Writes one record rendered by a [`Render`] of the same format: ndjson
    /// and the table are flushed record by record (a consumer reading the pipe
    /// sees each file as it is done); json records are joined into one array.
    pub fn write(&mut self, rendered: &[u8]) -> io::Result<()> {
        match self.format {
            Format::Ndjson => {
                self.out.write_all(rendered)?;
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
                self.out.write_all(rendered)
            }
            Format::Table => {
                self.out.write_all(rendered)?;
                self.out.flush()
            }
        }
    }

    /// Ends the output: ndjson gets `{"summary": {...}}` as its last line, json
    /// closes `{"documents": [...], "summary": {...}}`; the table gets nothing
    /// (its summary goes to stderr).
    pub fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        match self.format {
            Format::Ndjson => {
                if self.summary_record {
                    self.out.write_all(b"{\"summary\":")?;
                    serde_json::to_writer(&mut self.out, &summary.scan_totals())?;
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
                    serde_json::to_writer(&mut self.out, &summary.scan_totals())?;
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
