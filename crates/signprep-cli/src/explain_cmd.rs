//! `signprep explain CODE`, `--list` and `--markdown` (which is `docs/src/reference/diagnostics.md`).

use crate::args::ExplainArgs;
use crate::exit::ExitStatus;
use signprep_core::{Code, FileErrorCode, Severity};
use signprep_pack::{Group, PackCode};
use std::fmt::Write as _;
use std::io::Write as _;

/// A documented code.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Pack(PackCode),
    Scan(Code),
    File(FileErrorCode),
}

const SCAN_TAGS: &str = "PDF scan: tags and pages";
const SCAN_FORMS: &str = "PDF scan: form fields";
const FILE_SECTION: &str = "File errors";

impl Entry {
    fn name(self) -> &'static str {
        match self {
            Entry::Pack(c) => c.as_str(),
            Entry::Scan(c) => c.as_str(),
            Entry::File(f) => f.as_str(),
        }
    }

    fn severity(self) -> &'static str {
        match self {
            Entry::Pack(c) => c.severity().as_str(),
            Entry::Scan(c) => c.severity().as_str(),
            Entry::File(f) => f.severity().as_str(),
        }
    }

    fn section(self) -> &'static str {
        match self {
            Entry::Pack(c) => Group::of(c).title(),
            Entry::Scan(c) => {
                let n = c.as_str();
                if n.starts_with("widget_") || n.starts_with("xfa_") || n.starts_with("field_") {
                    SCAN_FORMS
                } else {
                    SCAN_TAGS
                }
            }
            Entry::File(_) => FILE_SECTION,
        }
    }

    /// The doc comment, each line without the space after `///`.
    fn doc(self) -> String {
        let raw = match self {
            Entry::Pack(c) => c.doc(),
            Entry::Scan(c) => c.doc(),
            Entry::File(f) => f.doc(),
        };
        raw.lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string()
    }
}

/// Every code, in documentation order: pack and check rules by section, then
/// scan diagnostics, then file errors.
fn all() -> Vec<Entry> {
    let mut out = Vec::new();
    for g in Group::ALL {
        out.extend(
            PackCode::ALL
                .iter()
                .filter(|c| Group::of(**c) == *g)
                .map(|c| Entry::Pack(*c)),
        );
    }
    for section in [SCAN_TAGS, SCAN_FORMS] {
        out.extend(
            Code::ALL
                .iter()
                .map(|c| Entry::Scan(*c))
                .filter(|e| e.section() == section),
        );
    }
    out.extend(FileErrorCode::ALL.iter().copied().map(Entry::File));
    out
}

fn lookup(name: &str) -> Option<Entry> {
    let name = normal(name);
    all().into_iter().find(|e| e.name() == name)
}

fn normal(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('-', "_")
}

/// Codes no longer reported, each with the code that now names its
/// condition: kept so that `signprep explain` answers for an old log, and
/// never emitted (they are in no code enum).
pub const RETIRED: &[(&str, &str)] = &[
    // `check`, `pack` and `migrate` now give a PDF they cannot read the
    // core's code, the one `scan` writes for the same file.
    (
        "document_unreadable",
        "pdf_unreadable, pdf_encrypted, pdf_limit_exceeded or io_error",
    ),
    ("document_not_pdf", "pdf_unreadable"),
    // `report` and `preview`: a page the renderer cannot draw.
    ("render_unreadable", "page_not_drawn"),
    ("render_page_count_mismatch", "page_not_drawn"),
    ("render_no_such_page", "page_not_drawn"),
    ("render_bad_size", "page_not_drawn"),
    ("render_encode_failed", "page_not_drawn"),
];

fn retired(name: &str) -> Option<&'static str> {
    let name = normal(name);
    RETIRED
        .iter()
        .find(|(old, _)| *old == name)
        .map(|(_, new)| *new)
}

/// Where `docs/src/reference/diagnostics.md` is published: each code has an anchor there
/// (`#custom_id_not_in_document`). Follows the workspace's `repository` key.
pub const DOCS_URL: &str = concat!(
    env!("CARGO_PKG_REPOSITORY"),
    "/blob/main/docs/src/reference/diagnostics.md"
);

/// A code's documentation, as `signprep explain CODE` prints it.
#[derive(Debug)]
pub struct RuleDoc {
    pub severity: &'static str,
    pub section: &'static str,
    /// The doc comment (Markdown).
    pub doc: String,
}

/// The documentation of `code`, or `None` for a code signprep does not have.
pub fn describe(code: &str) -> Option<RuleDoc> {
    lookup(code).map(|e| RuleDoc {
        severity: e.severity(),
        section: e.section(),
        doc: e.doc(),
    })
}

/// Exit status: 0, or 2 for an unknown code or an output failure.
pub fn run(args: &ExplainArgs) -> ExitStatus {
    let text = if args.markdown {
        markdown()
    } else if args.list {
        list()
    } else {
        let code = args.code.as_deref().unwrap_or_default();
        match (lookup(code), retired(code)) {
            (Some(e), _) => format!(
                "{} ({}; {})\n\n{}\n",
                e.name(),
                e.severity(),
                e.section(),
                e.doc()
            ),
            (None, Some(now)) => format!(
                "{} (retired)\n\nNo longer reported: the same condition is now `{now}` in every command (`signprep explain {}`).\n",
                normal(code),
                now.split(',').next().unwrap_or(now).trim()
            ),
            (None, None) => {
                match suggest(code) {
                    Some(n) => eprintln!(
                        "error: no code `{code}`; did you mean `{n}`? (`signprep explain --list` lists them)"
                    ),
                    None => {
                        eprintln!("error: no code `{code}` (`signprep explain --list` lists them)")
                    }
                }
                return ExitStatus::Error;
            }
        }
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => crate::exit::fail(&format!("cannot write output: {e}"), ExitStatus::Error),
    }
}

/// The code nearest to `code` by edit distance, when one is near enough to be
/// a misspelling of it.
pub fn suggest(code: &str) -> Option<&'static str> {
    all()
        .into_iter()
        .map(Entry::name)
        .map(|n| (distance(code, n), n))
        .filter(|(d, n)| *d <= n.len() / 3 + 1)
        .min()
        .map(|(_, n)| n)
}

/// Every code with its severity and section, in documentation order (as
/// `--list` prints them; `GET /v1/codes` of `signprep serve`).
#[cfg(feature = "serve")]
pub fn listing() -> Vec<(&'static str, &'static str, &'static str)> {
    all()
        .into_iter()
        .map(|e| (e.name(), e.severity(), e.section()))
        .collect()
}

fn list() -> String {
    let mut s = String::new();
    for e in all() {
        let _ = writeln!(s, "{:<40} {:<8} {}", e.name(), e.severity(), e.section());
    }
    s
}

/// `docs/src/reference/diagnostics.md`.
pub fn markdown() -> String {
    let entries = all();
    let mut s = String::new();
    s.push_str("# Diagnostics\n\n");
    s.push_str("<!-- Generated from the rules' doc comments by `signprep explain --markdown`; do not edit.\n     Regenerate: cargo run -p signprep-cli -- explain --markdown > docs/src/reference/diagnostics.md -->\n\n");
    s.push_str("Every finding of `signprep check`, `signprep pack` and `signprep scan` has a stable\nsnake_case code that never changes once released, and a severity:\n\n");
    for (sev, what) in [
        (
            Severity::Error,
            "the service will reject the request or silently do the wrong thing; `check` exits with status 1",
        ),
        (
            Severity::Warning,
            "probably wrong, worth a look; `check --deny warnings` makes it fail too",
        ),
        (Severity::Info, "worth knowing; often on purpose"),
    ] {
        let _ = writeln!(s, "- **{}**: {what}.", sev.as_str());
    }
    s.push_str(
        "\n`signprep explain CODE` prints one entry; `signprep explain --list` lists them all.\n\n",
    );
    s.push_str("| code | severity | section |\n|---|---|---|\n");
    for e in &entries {
        let _ = writeln!(
            s,
            "| [`{0}`](#{0}) | {1} | {2} |",
            e.name(),
            e.severity(),
            e.section()
        );
    }
    let mut section = "";
    for e in &entries {
        if e.section() != section {
            section = e.section();
            let _ = write!(s, "\n## {section}\n");
            let intro = match section {
                SCAN_TAGS | SCAN_FORMS => {
                    "\nReported by `signprep scan` for each PDF, and by `check` and `pack` for every PDF\na body embeds or a manifest names, located at its child.\n"
                }
                FILE_SECTION => {
                    "\nA PDF that cannot be read or scanned at all has one of these codes in every command:\nthe `error.code` of a `signprep scan` or `check` record, the finding `check`, `pack` and\n`migrate` report for a PDF (an input, or one a body embeds or a manifest names), the\n`[code]` of `preview`'s error line, `report`'s file status, and the Python package's\nexceptions.\n"
                }
                _ => "",
            };
            s.push_str(intro);
        }
        let _ = write!(
            s,
            "\n### `{}`\n\n*{}*\n\n{}\n",
            e.name(),
            e.severity(),
            e.doc()
        );
    }
    s.push_str("\n## Retired codes\n\nNo longer reported; `signprep explain` still answers for them.\n\n| retired | now |\n|---|---|\n");
    for (old, new) in RETIRED {
        let now: Vec<String> = new
            .split(", ")
            .flat_map(|n| n.split(" or "))
            .map(|n| format!("[`{n}`](#{n})"))
            .collect();
        let _ = writeln!(s, "| `{old}` | {} |", now.join(", "));
    }
    s
}

/// Edit distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(usize::MAX - 1) + usize::from(ca != *cb);
            let del = prev.get(j + 1).copied().unwrap_or(usize::MAX - 1) + 1;
            let ins = cur.get(j).copied().unwrap_or(usize::MAX - 1) + 1;
            cur.push(sub.min(del).min(ins));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_documented_once() {
        let entries = all();
        let mut names: Vec<&str> = entries.iter().map(|e| e.name()).collect();
        assert_eq!(
            entries.len(),
            PackCode::ALL.len() + Code::ALL.len() + FileErrorCode::ALL.len(),
            "a code is in no section"
        );
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), entries.len(), "a code twice");
        for e in entries {
            assert!(e.doc().len() > 20, "{} has no documentation", e.name());
        }
    }

    #[test]
    fn lookups() {
        assert!(matches!(
            lookup("Custom-Id-Not-In-Document"),
            Some(Entry::Pack(_))
        ));
        assert!(matches!(
            lookup("tag_id_not_uppercase"),
            Some(Entry::Scan(_))
        ));
        assert!(matches!(lookup("pdf_encrypted"), Some(Entry::File(_))));
        assert!(matches!(lookup("page_not_drawn"), Some(Entry::Scan(_))));
        assert!(matches!(lookup("kind_unknown"), Some(Entry::Pack(_))));
        for (old, new) in RETIRED {
            assert!(lookup(old).is_none(), "{old} is retired, yet a code");
            for n in new.split(", ").flat_map(|n| n.split(" or ")) {
                assert!(lookup(n).is_some(), "{old} retires to {n}, no code");
            }
        }
        assert!(lookup("nonsense").is_none());
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
