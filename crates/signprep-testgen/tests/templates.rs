//! The template fixtures (`--templates`): the same bytes on every run, the
//! checked-in copies current, and each a zip of the parts its format needs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_testgen::templates::files;
use std::collections::BTreeSet;
use std::io::{Cursor, Read};
use std::path::PathBuf;

#[test]
fn generation_is_deterministic_and_names_unique() {
    let a = files().unwrap();
    let b = files().unwrap();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.path, y.path);
        assert!(x.bytes == y.bytes, "{} differs between runs", x.path);
    }
    let names: BTreeSet<&str> = a.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(names.len(), a.len(), "file names are unique");
}

/// Regenerate with `cargo run -p signprep-testgen -- --templates testdata/templates`.
#[test]
fn checked_in_templates_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/templates");
    for f in files().unwrap() {
        let on_disk = std::fs::read(dir.join(&f.path)).unwrap_or_default();
        assert!(
            on_disk == f.bytes,
            "testdata/templates/{} is stale: run `cargo run -p signprep-testgen -- --templates testdata/templates`",
            f.path
        );
    }
}

#[test]
fn templates_hold_their_formats_parts() {
    for f in files().unwrap() {
        let refused = ["not_word", "ole", "truncated", "not_text"]
            .iter()
            .any(|n| f.path.contains(n));
        if refused {
            continue;
        }
        let mut z = zip::ZipArchive::new(Cursor::new(&f.bytes)).unwrap();
        let names: Vec<String> = z.file_names().map(|n| n.unwrap().to_string()).collect();
        if f.path.ends_with(".docx") {
            for part in [
                "[Content_Types].xml",
                "_rels/.rels",
                "word/document.xml",
                "word/styles.xml",
            ] {
                assert!(names.iter().any(|n| n == part), "{} lacks {part}", f.path);
            }
        } else {
            assert_eq!(
                names.first().map(String::as_str),
                Some("mimetype"),
                "{}",
                f.path
            );
            let mut mime = String::new();
            z.by_name("mimetype")
                .unwrap()
                .read_to_string(&mut mime)
                .unwrap();
            assert_eq!(mime, "application/vnd.oasis.opendocument.text");
            let stored =
                z.by_name("mimetype").unwrap().compression() == zip::CompressionMethod::Stored;
            assert!(stored, "{}: mimetype is stored", f.path);
            for part in ["META-INF/manifest.xml", "content.xml", "styles.xml"] {
                assert!(names.iter().any(|n| n == part), "{} lacks {part}", f.path);
            }
        }
    }
}
