//! The `upload` path of a request plan: how it is written (relative to the
//! plan's own folder, so the plan can be read from anywhere) and how it is
//! read back. One place for both, so every writer (`pack --v0`, `migrate`)
//! and every reader (`check`, `preview`) agree.
//!
//! ```
//! use signprep_pack::{resolve_upload, upload_path};
//! use std::path::Path;
//! // A plan written to out/ names the PDF from there...
//! assert_eq!(upload_path(Path::new("docs/a.pdf"), Some(Path::new("out"))), "../docs/a.pdf");
//! // ...and is read from the plan's folder, wherever the reader runs.
//! assert_eq!(resolve_upload("../docs/a.pdf", Path::new("out")), Path::new("docs/a.pdf"));
//! ```

use std::path::{Component, Path, PathBuf};

/// The `upload` to write for the PDF at `pdf` (as the user named it: relative
/// to the working folder, or absolute) in a plan written into the folder
/// `plan_dir`: the path from that folder to the PDF, so the plan travels with
/// its PDF and can be checked from any working folder. `plan_dir` is `None`
/// when the plan goes to standard output, whose file is unknown: the path is
/// then absolute (write the plan with `-o`/`--out` for a relative one). Also
/// absolute when no relative path exists (another drive); the path as given
/// when the working folder cannot be read.
pub fn upload_path(pdf: &Path, plan_dir: Option<&Path>) -> String {
    let Some(pdf_abs) = absolute(pdf) else {
        return pdf.display().to_string();
    };
    let Some(dir) = plan_dir.and_then(absolute) else {
        return pdf_abs.display().to_string();
    };
    relative(&pdf_abs, &dir)
        .unwrap_or(pdf_abs)
        .display()
        .to_string()
}

/// The file an `upload` written in a plan names, for a plan in the folder
/// `plan_dir` (`""` for standard input, read from the working folder): an
/// absolute path as it is; a relative one from the plan's folder. A plan
/// written before uploads were relative to the plan named the PDF from the
/// working folder of the run: when the path from the plan's folder does not
/// exist and that one does, that one is read.
pub fn resolve_upload(written: &str, plan_dir: &Path) -> PathBuf {
    let p = Path::new(written);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    let beside = tidy(&plan_dir.join(p));
    if !beside.exists() && p.exists() {
        p.to_path_buf()
    } else {
        beside
    }
}

/// `a/b/../c` as `a/c` (lexically; a `..` with nothing to undo is kept).
pub(crate) fn tidy(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match (c, out.last()) {
            (Component::CurDir, _) => {}
            (Component::ParentDir, Some(Component::Normal(_))) => {
                out.pop();
            }
            // `/..` is `/`.
            (Component::ParentDir, Some(Component::RootDir)) => {}
            _ => out.push(c),
        }
    }
    out.iter().map(|c| c.as_os_str()).collect()
}

/// `path` made absolute against the working folder, tidied (`""` is the
/// working folder itself).
fn absolute(path: &Path) -> Option<PathBuf> {
    let abs = if path.as_os_str().is_empty() {
        std::env::current_dir().ok()?
    } else {
        std::path::absolute(path).ok()?
    };
    Some(tidy(&abs))
}

/// The path from the folder `dir` to `to` (both absolute and tidy), or
/// `None` when they share no root.
fn relative(to: &Path, dir: &Path) -> Option<PathBuf> {
    let (a, b): (Vec<Component<'_>>, Vec<Component<'_>>) =
        (to.components().collect(), dir.components().collect());
    if a.first() != b.first() {
        return None;
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in a.iter().skip(common) {
        out.push(c.as_os_str());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let r = |to: &str, dir: &str| relative(Path::new(to), Path::new(dir));
        assert_eq!(r("/a/b/c.pdf", "/a/b"), Some("c.pdf".into()));
        assert_eq!(r("/a/b/c.pdf", "/a/x/y"), Some("../../b/c.pdf".into()));
        assert_eq!(r("/c.pdf", "/"), Some("c.pdf".into()));
        assert_eq!(r("/a/c.pdf", "/a/c.pdf/x"), Some("..".into()));
        assert_eq!(tidy(Path::new("/../a/./b/../c")), Path::new("/a/c"));
        assert_eq!(tidy(Path::new("../a")), Path::new("../a"));
    }

    #[test]
    fn standard_output_is_absolute_and_a_file_relative() {
        let cwd = std::env::current_dir().unwrap_or_default();
        let abs = upload_path(Path::new("x/../a.pdf"), None);
        assert_eq!(Path::new(&abs), cwd.join("a.pdf"));
        assert_eq!(
            upload_path(Path::new("a.pdf"), Some(Path::new(""))),
            "a.pdf"
        );
        assert_eq!(
            upload_path(Path::new("a.pdf"), Some(Path::new("out/deep"))),
            "../../a.pdf"
        );
        assert_eq!(
            upload_path(&cwd.join("in/a.pdf"), Some(Path::new("out"))),
            "../in/a.pdf"
        );
    }
}
