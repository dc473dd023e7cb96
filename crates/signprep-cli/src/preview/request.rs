//! What the previews of a request (`--pack`, `--manifest`, a request plan)
//! share: the findings of its check printed first, how signatories are
//! named, the note a finding is drawn as, the file names of its documents,
//! drawing each of them ([`Drawing`]), and the verdict when nothing was
//! drawn.

use super::load;
use super::paint::{Out, Painter, Sheet};
use crate::args::PreviewArgs;
use crate::exit::ExitStatus;
use signprep_core::Severity;
use signprep_pack::Finding;
use signprep_render::Note;

/// Prints what `signprep check` says about the request (errors and
/// warnings) and adds its errors to `verdict`; returns how many there are.
pub fn report_findings(
    findings: &[Finding],
    shown: &str,
    verdict: &mut crate::batch::Summary,
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

/// The note a finding of the request is drawn as (in the legend): on the
/// box of the tag or field `id` names (the id of the data field it is
/// about), else of the tag or field the finding names.
pub fn note(finding: &Finding, id: Option<String>) -> Note {
    let note = Note::new(
        finding.severity,
        finding.code.as_str(),
        finding.message.clone(),
    );
    match id
        .or_else(|| finding.tag.clone())
        .or_else(|| finding.field.clone())
    {
        Some(name) => note.name(name),
        None => note,
    }
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

/// The documents of a request drawn one after the other on one [`Painter`]:
/// the pages drawn (or tried) over all of them, and the longest document.
pub struct Drawing<'a> {
    painter: &'a Painter,
    args: &'a PreviewArgs,
    chosen: usize,
    longest: usize,
}

impl<'a> Drawing<'a> {
    /// Nothing drawn yet, on `painter`, as `args` say (`--pages`, `--out-dir`,
    /// `--overlay-json`).
    pub fn new(painter: &'a Painter, args: &'a PreviewArgs) -> Drawing<'a> {
        Drawing {
            painter,
            args,
            chosen: 0,
            longest: 0,
        }
    }

    /// Draws document `i` of the request's `count` (`sheet`, `name` in file
    /// names, `what` in messages): the pages `--pages` chooses of it (those
    /// past its end left out), written as `NN-NAME-pN.png` (with
    /// `--overlay-json`, `.json` beside) into `--out-dir`. `Err`: the preview
    /// stops with this status, its last line printed (Ctrl-C).
    pub fn document(
        &mut self,
        sheet: Sheet,
        (i, count): (usize, usize),
        name: &str,
        what: &str,
        verdict: &mut crate::batch::Summary,
    ) -> Result<(), ExitStatus> {
        let pages_in = sheet.loaded().doc.page_count();
        let pages = load::pages_within(&self.args.pages, pages_in);
        self.chosen += pages.len();
        self.longest = self.longest.max(pages_in);
        let stem = child_stem(i, count, name);
        let out = Out {
            dir: &self.args.out_dir,
            stem: &stem,
            json: self.args.overlay_json,
        };
        self.painter.write_pages(sheet, pages, &out, what, verdict)
    }

    /// Nothing drawn is no preview: it never passes (unless `verdict`
    /// already fails). Without `--pages` that is exit 1, `nothing to draw:
    /// {none}`; with it, exit 2: no `{documents}` has these pages.
    pub fn finish(&self, none: &str, documents: &str, verdict: &mut crate::batch::Summary) {
        if self.chosen > 0 || verdict.status != ExitStatus::Success {
            return;
        }
        if self.args.pages.is_empty() {
            verdict.add(ExitStatus::Failure, format!("nothing to draw: {none}"));
        } else {
            verdict.add(
                ExitStatus::Error,
                format!(
                    "--pages: no {documents} has these pages (the longest has {})",
                    crate::text::plural(self.longest, "page")
                ),
            );
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
