//! Writing check records: human (compiler-style), json, ndjson, and the CI-gate
//! formats (sarif, github, gitlab: their own modules).

use super::record::Record;
use super::{github, gitlab::Gitlab, sarif::Sarif};
use crate::args::CheckFormat;
use crate::batch::Summary;
use crate::findings::{self, Layout};
use crate::text::{clean, clean_lines};
use std::io::{self, BufWriter, Write};

pub struct Writer<W: Write> {
    format: CheckFormat,
    out: BufWriter<W>,
    first: bool,
    sarif: Sarif,
    gitlab: Gitlab,
}

impl<W: Write> Writer<W> {
    pub fn new(format: CheckFormat, out: W) -> Self {
        Writer {
            format,
            out: BufWriter::new(out),
            first: true,
            sarif: Sarif::default(),
            gitlab: Gitlab::default(),
        }
    }

    /// Writes one record (human: nothing for a clean input).
    pub fn record(&mut self, r: &Record) -> io::Result<()> {
        match self.format {
            CheckFormat::Ndjson => {
                serde_json::to_writer(&mut self.out, r)?;
                self.out.write_all(b"\n")?;
            }
            CheckFormat::Json => {
                self.out.write_all(if self.first {
                    b"{\"files\": [\n"
                } else {
                    b",\n"
                })?;
                serde_json::to_writer(&mut self.out, r)?;
            }
            CheckFormat::Human => human(&mut self.out, r)?,
            CheckFormat::Sarif => self.sarif.record(r),
            CheckFormat::Github => github::record(&mut self.out, r)?,
            CheckFormat::Gitlab => self.gitlab.record(r),
        }
        self.first = false;
        self.out.flush()
    }

    /// Closes the output: the summary (json: an object; human: a line).
    pub fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        match self.format {
            CheckFormat::Ndjson => {}
            CheckFormat::Json => {
                if self.first {
                    self.out.write_all(b"{\"files\": [\n")?;
                }
                self.out.write_all(b"\n], \"summary\": ")?;
                serde_json::to_writer(&mut self.out, &summary.check_totals())?;
                self.out.write_all(b"}\n")?;
            }
            CheckFormat::Human => writeln!(self.out, "{}", summary.check_line())?,
            CheckFormat::Sarif => self.sarif.finish(&mut self.out, summary)?,
            CheckFormat::Github => github::finish(&mut self.out, summary)?,
            CheckFormat::Gitlab => self.gitlab.finish(&mut self.out, summary)?,
        }
        self.out.flush()
    }
}

/// ```text
/// error[custom_id_not_in_document]: `CLIENT_NAM` is not a tag or form field ...
///   --> pack.json#/documents/0/data_fields/0/custom_id
///    |
///    |     "custom_id": "CLIENT_NAM"
///    |
///    = hint: did you mean `CLIENT_NAME`? ...
/// ```
pub fn human(o: &mut impl Write, r: &Record) -> io::Result<()> {
    if let Some(e) = &r.error {
        writeln!(
            o,
            "error[{}]: {}: {}",
            e.code,
            clean(&r.path),
            clean_lines(&e.message)
        )?;
        return writeln!(o);
    }
    for l in &r.findings {
        findings::write(
            o,
            &l.finding,
            Some(&r.path),
            l.shown.as_deref(),
            Layout::Gutter,
        )?;
    }
    Ok(())
}
