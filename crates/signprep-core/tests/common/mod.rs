//! What the corpus tests share.

use std::path::{Path, PathBuf};

/// The shared corpus: `$SIGNPREP_CORPUS`, or `../shared/corpus` beside the
/// repository. The corpus tests are `#[ignore]`d (a clean clone has no
/// corpus); asked for with `--ignored`, they fail when it is missing rather
/// than pass having checked nothing.
pub fn corpus_root() -> PathBuf {
    let root = std::env::var_os("SIGNPREP_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    assert!(
        root.join("tags").is_dir(),
        "the shared corpus is not at {} (set SIGNPREP_CORPUS to its folder)",
        root.display()
    );
    root
}
