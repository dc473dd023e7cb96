//! Every pack code is documented: the "Pack findings" table and the pages
//! around it, in the README or on whichever page of the guide
//! (`docs/src/**/*.md`) holds them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_pack::PackCode;
use std::path::{Path, PathBuf};

/// Every `.md` file under `dir`, at any depth.
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

/// The generated reference (`signprep explain --markdown`) lists every code by
/// construction; it is no evidence that the written pages document one.
const GENERATED: &str = "reference/diagnostics.md";

#[test]
fn every_code_is_documented_in_the_readme_or_the_guide() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut pages = vec![root.join("README.md")];
    markdown_under(&root.join("docs/src"), &mut pages);
    let texts: Vec<String> = pages
        .iter()
        .filter(|p| !p.ends_with(GENERATED))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(
        texts.iter().any(|t| t
            .lines()
            .any(|l| l.starts_with('#') && l.trim_start_matches('#').trim() == "Pack findings")),
        "no `Pack findings` heading in the README or docs/src"
    );
    let missing: Vec<&str> = PackCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !texts.iter().any(|t| t.contains(&format!("`{c}`"))))
        .collect();
    assert!(
        missing.is_empty(),
        "codes documented on no page of the README or docs/src (but {GENERATED}): {missing:?}"
    );
}
