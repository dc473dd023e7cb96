//! Every pack code is documented in the README's "Pack findings" table.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_pack::PackCode;
use std::path::Path;

#[test]
fn every_code_is_in_the_readme() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let section = readme
        .split("### Pack findings")
        .nth(1)
        .expect("a Pack findings section");
    let missing: Vec<&str> = PackCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !section.contains(&format!("`{c}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "codes missing from the README: {missing:?}"
    );
}
