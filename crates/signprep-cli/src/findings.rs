//! Findings as people read them, compiler style: the one printer behind
//! `check --format human` (through `check::write::human`, which adds a
//! record's error line) and the findings `pack`, `migrate` and `preview`
//! show on stderr.
//!
//! ```text
//! error[email_invalid]: `ann@` is not an email address
//!   --> pack.json#/signers/0/email, page 2, tag SIGN_1
//!    |
//!    |     "email": "ann@"
//!    |
//!    = hint: ...
//! ```
//!
//! A leaf: it takes the pack crate's `Finding` and escapes what it prints
//! with [`crate::text`], nothing else.

use crate::text::{clean, clean_lines};
use signprep_pack::Finding;
use std::io::{self, Write};

/// How a finding is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `check --format human`: the place always given (the input's path
    /// first), the offending value in a `|` gutter, the hint aligned with
    /// it, and a blank line after each finding.
    Gutter,
    /// A command's findings on stderr (`pack`, `migrate`, `preview`): the
    /// place when there is one, the hint indented as the place, no blank line.
    Compact,
}

/// Writes one finding: `SEVERITY[CODE]: MESSAGE`, `  --> PLACE` (`PATH#POINTER,
/// in FILE, page N, tag T, field F`; `FILE` left out when it is `PATH`),
/// `value` (the offending value, shown under the pointer's last key) and the
/// hint.
pub fn write(
    o: &mut impl Write,
    f: &Finding,
    path: Option<&str>,
    value: Option<&str>,
    layout: Layout,
) -> io::Result<()> {
    writeln!(o, "{}[{}]: {}", f.severity, f.code, clean_lines(&f.message))?;
    // A template's finding leads with its place there, where its author fixes it.
    if let Some(s) = &f.source {
        let s = s.to_string();
        if !f.message.starts_with(&s) {
            writeln!(o, "  --> template: {}", clean(&s))?;
        }
    }
    let mut place = Vec::new();
    match (path, &f.pointer) {
        (Some(path), Some(p)) if !p.is_empty() => place.push(format!("{path}#{p}")),
        (Some(path), _) => place.push(path.to_string()),
        (None, Some(p)) => place.push(p.clone()),
        (None, None) => {}
    }
    if let Some(file) = f.file.as_deref().filter(|file| Some(*file) != path) {
        place.push(format!("in {file}"));
    }
    if let Some(page) = f.page {
        place.push(format!("page {}", page + 1));
    }
    if let Some(t) = &f.tag {
        place.push(format!("tag {t}"));
    }
    if let Some(x) = &f.field {
        place.push(format!("field {x}"));
    }
    if !place.is_empty() {
        writeln!(o, "  --> {}", clean(&place.join(", ")))?;
    }
    if let Some(v) = value {
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
    match layout {
        Layout::Gutter => {
            if let Some(h) = &f.hint {
                writeln!(o, "   = hint: {}", clean(h))?;
            }
            writeln!(o)
        }
        Layout::Compact => match &f.hint {
            Some(h) => writeln!(o, "  = hint: {}", clean(h)),
            None => Ok(()),
        },
    }
}

/// Findings on stderr, [`Layout::Compact`] (a closed stderr is not an error
/// worth a word: nothing could say it).
pub fn eprint<'a>(findings: impl IntoIterator<Item = &'a Finding>) {
    let mut err = io::stderr().lock();
    for f in findings {
        let _ = write(&mut err, f, None, None, Layout::Compact);
    }
}
