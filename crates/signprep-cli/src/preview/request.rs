//! What the previews of a request (`--pack`, `--manifest`, a request plan)
//! share: the findings of its check printed first, how signatories are
//! named, the file names of its documents, and the verdict when nothing was
//! drawn.

use crate::exit::ExitStatus;
use signprep_core::Severity;
use signprep_pack::Finding;

/// Prints what `signprep check` says about the request (errors and
/// warnings) and adds its errors to `verdict`; returns how many there are.
pub fn report_findings(
    findings: &[Finding],
    shown: &str,
    verdict: &mut crate::exit::Verdict,
) -> usize {
    crate::findings::eprint(findings.iter().filter(|f| f.severity != Severity::Info));
    let errors = findings.iter().filter(|f| f.is_error()).count();
    if errors > 0 {
        verdict.add(
            ExitStatus::Failure,
            format!(
                "{} in {shown} (listed above)",
                crate::text::plural(errors, "error-level finding")
            ),
        );
    }
    errors
}

/// How each signatory is shown, from its `[name, email, role]`: name, else
/// email, else role, else `signer N`; made unique with ` #N` when two would
/// read the same.
pub fn labels<'a>(people: impl Iterator<Item = [Option<&'a str>; 3]>) -> Vec<String> {
    let base: Vec<String> = people
        .enumerate()
        .map(|(i, who)| {
            who.into_iter()
                .flatten()
                .map(str::trim)
                .find(|v| !v.is_empty())
                .map_or_else(|| format!("signer {}", i + 1), str::to_string)
        })
        .collect();
    base.iter()
        .enumerate()
        .map(|(i, b)| {
            if base.iter().filter(|o| *o == b).count() > 1 {
                format!("{b} #{}", i + 1)
            } else {
                b.clone()
            }
        })
        .collect()
}

/// A file-name-safe form of a child's name: ASCII letters, digits, `.`, `_`
/// and `-`, anything else as one `-`; at most 40 characters; `document` when empty.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let s: String = out
        .trim_matches(|c| c == '-' || c == '.')
        .chars()
        .take(40)
        .collect();
    let s = s.trim_end_matches(['-', '.']).to_string();
    if s.is_empty() { "document".into() } else { s }
}

/// `NN-NAME`: the document's 1-based number, padded to at least two digits
/// and to the count's width, so files of different documents never collide
/// and sort in request order.
pub fn child_stem(i: usize, count: usize, name: &str) -> String {
    let digits = count.to_string().len().max(2);
    format!("{:0digits$}-{}", i + 1, slug(name))
}

/// The pages drawn (or tried) over all documents of a request, and the
/// longest document.
#[derive(Debug, Default)]
pub struct Drawing {
    chosen: usize,
    longest: usize,
}

impl Drawing {
    /// A document of `count` pages, of which `chosen` are drawn.
    pub fn document(&mut self, chosen: usize, count: usize) {
        self.chosen += chosen;
        self.longest = self.longest.max(count);
    }

    /// Nothing drawn is no preview: it never passes (unless `verdict`
    /// already fails). Without `--pages` (`pages_given` false) that is
    /// exit 1, `nothing to draw: {none}`; with it, exit 2: no `{documents}`
    /// has these pages.
    pub fn finish(
        &self,
        pages_given: bool,
        none: &str,
        documents: &str,
        verdict: &mut crate::exit::Verdict,
    ) {
        if self.chosen > 0 || verdict.status != ExitStatus::Success {
            return;
        }
        if pages_given {
            verdict.add(
                ExitStatus::Error,
                format!(
                    "--pages: no {documents} has these pages (the longest has {})",
                    crate::text::plural(self.longest, "page")
                ),
            );
        } else {
            verdict.add(ExitStatus::Failure, format!("nothing to draw: {none}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(slug("Client onboarding"), "Client-onboarding");
        assert_eq!(slug("../etc/passwd"), "etc-passwd");
        assert_eq!(slug("  "), "document");
        assert_eq!(slug("Vertrag über Ä"), "Vertrag-ber");
        assert_eq!(slug(&"x".repeat(99)).len(), 40);
    }

    #[test]
    fn stems_never_collide() {
        assert_eq!(child_stem(0, 3, "nda"), "01-nda");
        assert_eq!(child_stem(2, 3, "nda"), "03-nda");
        assert_eq!(child_stem(99, 120, "a b"), "100-a-b");
    }
}
