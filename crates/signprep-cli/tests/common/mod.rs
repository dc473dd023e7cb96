//! Helpers shared by the CLI's integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// The repository's root folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `signprep ARGS` run from the repository's root, its output.
pub fn run(args: &[&str]) -> std::process::Output {
    run_in(&root(), args)
}

/// `signprep ARGS` run from `dir`, its output.
pub fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("signprep runs")
}

/// A folder of the repository's `testdata/`.
pub fn testdata(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(sub)
}

/// A fresh, empty folder for one test, removed when dropped (named after the
/// process too: two test runs may share the target folder).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `Scratch` named `PREFIX-NAME-PID` under cargo's per-target temporary folder.
pub fn scratch(prefix: &str, name: &str) -> Scratch {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Asserts that `record` is the watchdog's: status `error`, code
/// `pdf_limit_exceeded`, the message the core's `Outcome::into_result` words for a
/// 0.1 s budget: it names the configured limit, twice the budget plus 5 s,
/// never a measured time, so two runs write the same bytes.
pub fn assert_abandoned(record: &serde_json::Value) {
    assert_eq!(record["status"], "error", "{record}");
    assert_eq!(record["error"]["code"], "pdf_limit_exceeded", "{record}");
    assert_eq!(
        record["error"]["message"],
        "no result within the 5.2 s watchdog (time budget 0.1 s): the file was given up on and the batch went on",
        "{record}"
    );
}

/// Every page of the guide and the README: `(path from the root, text)`, the README
/// first, then every `docs/src/**/*.md` in path order. Tests that check what the
/// documentation states read all of them, so a table may live on any page; each
/// still fails when what it looks for is on none.
pub fn guide() -> Vec<(String, String)> {
    let root = root();
    let mut pages = vec![(
        "README.md".to_string(),
        std::fs::read_to_string(root.join("README.md")).unwrap(),
    )];
    let mut found = Vec::new();
    markdown_under(&root.join("docs/src"), &mut found);
    found.sort();
    for path in found {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        pages.push((rel, std::fs::read_to_string(&path).unwrap()));
    }
    pages
}

/// Every `.md` file under `dir`, at any depth (none when `dir` is absent).
fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// LibreOffice's `soffice`: `$SIGNPREP_SOFFICE`, else on PATH; the test fails
/// (it is run on purpose) when there is none.
pub fn soffice() -> String {
    if let Some(p) = std::env::var_os("SIGNPREP_SOFFICE").filter(|p| !p.is_empty()) {
        return p.to_string_lossy().into_owned();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["soffice", "libreoffice"] {
            let c = dir.join(name);
            if c.is_file() {
                return c.to_string_lossy().into_owned();
            }
        }
    }
    panic!(
        "LibreOffice is needed by the soffice_* tests and was not found: install it (libreoffice-writer-nogui) or set SIGNPREP_SOFFICE"
    );
}

/// Asserts that LibreOffice's `soffice --version` runs: the soffice_ tests are run on
/// purpose (CI: `--ignored soffice_`) and fail, never skip, without it. `who` names what
/// needs it, for the message.
pub fn soffice_required(who: &str) {
    let found = std::process::Command::new("soffice")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "{who} need LibreOffice's soffice on PATH (apt-get install libreoffice-writer-nogui)"
    );
}
