//! `signprep check --format github`: GitHub Actions workflow commands, one line
//! per finding, which the runner turns into annotations on the file (and on
//! the line a JSON pointer lands on, for bodies and manifests):
//!
//! ```text
//! ::warning file=pack.json,line=14,title=custom_id_not_in_document::`CLIENT_EMAIL` is not ... (at /documents/0/data_fields/4/custom_id)%0Ahint: did you mean ...
//! ```
//!
//! Levels: error, warning, and `notice` for info. Values are escaped as the
//! runner unescapes them (`%`, CR, LF everywhere; `:` and `,` in properties
//! too), so a message cannot end the command early or start another one.
//! The summary line follows as plain log text.

use super::ci::{places, relative};
use super::record::Record;
use crate::batch::Summary;
use signprep_core::Severity;
use std::io::{self, Write};

pub fn record(out: &mut impl Write, r: &Record) -> io::Result<()> {
    if let Some(e) = &r.error {
        let path = relative(&r.path);
        return writeln!(
            out,
            "::error file={},title={}::{}",
            property(&path),
            property(e.code.as_str()),
            data(&format!("{path}: {}", e.message))
        );
    }
    for a in places(r) {
        let f = &a.finding.finding;
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut text = f.message.clone();
        let at = a.place.describe(a.finding);
        if !at.is_empty() {
            text.push_str(&format!(" ({at})"));
        }
        if let Some(h) = &f.hint {
            text.push_str(&format!("\nhint: {h}"));
        }
        write!(out, "::{level} file={}", property(&a.place.path))?;
        if let Some(line) = a.place.line {
            write!(out, ",line={line}")?;
        }
        writeln!(out, ",title={}::{}", property(f.code.as_str()), data(&text))?;
    }
    Ok(())
}

pub fn finish(out: &mut impl Write, summary: &Summary) -> io::Result<()> {
    writeln!(out, "{}", summary.check_line())
}

/// A command's message: `%`, CR and LF escaped.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: as [`data`], and `:` and `,` too.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::{data, property};

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(data("50% off\r\nnext"), "50%25 off%0D%0Anext");
        assert_eq!(property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        // `::` in a message is harmless once the command has started.
        assert_eq!(data("x::error::y"), "x::error::y");
    }
}
