//! What the CI-gate formats (`--format sarif`, `github`, `gitlab`) share: where
//! a finding is (a file relative to the working folder, a line, a JSON pointer,
//! a page) and a stable fingerprint.

use super::locate;
use super::record::{Located, Record};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Where one finding is, as CI tools want it.
#[derive(Debug)]
pub struct Place {
    /// The file the annotation goes on, relative to the working folder when it
    /// is inside it, with `/` separators: the input, or the PDF a child's page,
    /// tag or field finding is about when that PDF is a file on disk.
    pub path: String,
    /// 1-based line in `path` of the value the pointer names (JSON and TOML text).
    pub line: Option<usize>,
    /// JSON pointer into the input (into the manifest for a manifest).
    pub pointer: Option<String>,
    /// The input, when `path` is another file (the PDF a child names).
    pub input: Option<String>,
    /// 0-based page of the PDF.
    pub page: Option<usize>,
}

impl Place {
    /// `at /documents/0/data_fields/4, page 2, tag SIG_1` (pages 1-based, as
    /// a person reads them), or empty.
    pub fn describe(&self, l: &Located) -> String {
        let f = &l.finding;
        let mut parts = Vec::new();
        if let Some(p) = self.pointer.as_deref().filter(|p| !p.is_empty()) {
            match &self.input {
                Some(input) => parts.push(format!("at {input}#{p}")),
                None => parts.push(format!("at {p}")),
            }
        }
        if let Some(page) = self.page {
            parts.push(format!("page {}", page + 1));
        }
        if let Some(t) = &f.tag {
            parts.push(format!("tag {t}"));
        }
        if let Some(x) = &f.field {
            parts.push(format!("field {x}"));
        }
        parts.join(", ")
    }
}

/// Places and fingerprints for the findings of one record, computed once.
#[derive(Debug)]
pub struct Annotated<'r> {
    pub finding: &'r Located,
    pub place: Place,
    pub fingerprint: String,
}

/// Each finding of `r` with its place and fingerprint. The input is read again
/// (from disk; not standard input) to find the lines its pointers land on.
pub fn places(r: &Record) -> Vec<Annotated<'_>> {
    let input = relative(&r.path);
    let text: Option<Vec<u8>> = (r.path != "-"
        && r.findings.iter().any(|f| f.finding.pointer.is_some()))
    .then(|| std::fs::read(&r.path).ok())
    .flatten()
    .filter(|t| !t.starts_with(b"%PDF-"));
    let mut seen: HashMap<String, usize> = HashMap::new();
    r.findings
        .iter()
        .map(|l| {
            let f = &l.finding;
            let in_pdf = f.page.is_some() || f.tag.is_some() || f.field.is_some();
            // A child's page, tag or field finding goes on that PDF when it is
            // a file (a manifest's document); in a body's Base64 it stays on
            // the body, at the child's pointer.
            let pdf = f
                .file
                .as_deref()
                .filter(|file| in_pdf && *file != r.path && Path::new(file).is_file())
                .map(relative);
            let line = match (&pdf, &text, &f.pointer) {
                (None, Some(t), Some(p)) => locate::line(t, p),
                _ => None,
            };
            let place = Place {
                line,
                pointer: f.pointer.clone(),
                input: pdf.as_ref().map(|_| input.clone()),
                path: pdf.unwrap_or_else(|| input.clone()),
                page: f.page,
            };
            let key = [
                f.code.as_str(),
                &input,
                f.file.as_deref().unwrap_or(""),
                f.pointer.as_deref().unwrap_or(""),
                &f.page.map(|p| p.to_string()).unwrap_or_default(),
                f.tag.as_deref().unwrap_or(""),
                f.field.as_deref().unwrap_or(""),
            ]
            .join("\u{0}");
            // Identical keys (the same code twice at one place) are numbered,
            // so every finding has its own fingerprint.
            let n = seen.entry(key.clone()).or_default();
            *n += 1;
            let fingerprint = fingerprint(&format!("{key}\u{0}{n}"));
            Annotated {
                finding: l,
                place,
                fingerprint,
            }
        })
        .collect()
}

/// The first 128 bits of the SHA-256 of `key`, in hex: the same for the same
/// finding on every machine, run and build.
pub fn fingerprint(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `path` relative to the working folder when it is inside it, `..` and `.`
/// resolved by name, with `/` separators; other paths as they are.
pub fn relative(path: &str) -> String {
    let p = Path::new(path);
    let p = if p.is_absolute() {
        match std::env::current_dir()
            .ok()
            .and_then(|cwd| p.strip_prefix(cwd).ok().map(Path::to_path_buf))
        {
            Some(rel) => rel,
            None => return normalise(p).to_string_lossy().replace('\\', "/"),
        }
    } else {
        p.to_path_buf()
    };
    normalise(&p).to_string_lossy().replace('\\', "/")
}

/// `a/./b/../c` → `a/c` (leading `..` kept).
fn normalise(p: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn paths_are_relative_and_normalised() {
        assert_eq!(
            relative("testdata/check/cases/../pdfs/a.pdf"),
            "testdata/check/pdfs/a.pdf"
        );
        assert_eq!(relative("./a/./b.json"), "a/b.json");
        assert_eq!(relative("../x.json"), "../x.json");
        let cwd = std::env::current_dir().unwrap();
        let abs = cwd.join("sub/pack.json");
        assert_eq!(relative(abs.to_str().unwrap()), "sub/pack.json");
        assert_eq!(relative("/elsewhere/../x.pdf"), "/x.pdf");
    }

    #[test]
    fn fingerprints_are_stable() {
        // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 ...
        assert_eq!(fingerprint("abc"), "ba7816bf8f01cfea414140de5dae2223");
    }
}
