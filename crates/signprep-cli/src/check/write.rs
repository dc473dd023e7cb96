//! Writing check records: human (compiler-style), json, ndjson, and the CI-gate
//! formats (sarif, github, gitlab: their own modules).

use super::record::{Located, Record, Summary};
use super::{github, gitlab::Gitlab, sarif::Sarif};
use crate::args::CheckFormat;
use crate::output::{clean, clean_lines};
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
                serde_json::to_writer(&mut self.out, summary)?;
                self.out.write_all(b"}\n")?;
            }
            CheckFormat::Human => writeln!(self.out, "{}", summary.line())?,
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
    for f in &r.findings {
        finding(o, &r.path, f)?;
    }
    Ok(())
}

fn finding(o: &mut impl Write, path: &str, l: &Located) -> io::Result<()> {
    let f = &l.finding;
    writeln!(o, "{}[{}]: {}", f.severity, f.code, clean_lines(&f.message))?;
    let mut place = match &f.pointer {
        Some(p) if !p.is_empty() => format!("{path}#{p}"),
        _ => path.to_string(),
    };
    if let Some(file) = f.file.as_deref().filter(|file| *file != path) {
        place.push_str(&format!(", in {file}"));
    }
    if let Some(page) = f.page {
        place.push_str(&format!(", page {}", page + 1));
    }
    if let Some(t) = &f.tag {
        place.push_str(&format!(", tag {t}"));
    }
    if let Some(x) = &f.field {
        place.push_str(&format!(", field {x}"));
    }
    writeln!(o, "  --> {}", clean(&place))?;
    if let Some(v) = &l.shown {
        let key = f
            .pointer
            .as_deref()
            .and_then(|p| p.rsplit('/').next())
            .filter(|k| !k.is_empty() && !k.bytes().all(|b| b.is_ascii_digit()))
            .map(|k| k.replace("~1", "/").replace("~0", "~"));
        writeln!(o, "   |")?;
        match key {
            Some(k) => writeln!(o, "   |     \"{}\": {}", clean(&k), clean(v))?,
            None => writeln!(o, "   |     {}", clean(v))?,
        }
        writeln!(o, "   |")?;
    }
    if let Some(h) = &f.hint {
        writeln!(o, "   = hint: {}", clean(h))?;
    }
    writeln!(o)
}
