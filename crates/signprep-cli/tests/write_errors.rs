//! An output that cannot be written is named as the user gave it: never the
//! temporary file signprep writes beside it first (`.r.html.PID.sections`),
//! and with the reason in our words (`the folder ... does not exist`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{run_in as run, scratch, testdata};
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The fixture every test writes output for.
fn pdf() -> String {
    testdata("fixtures")
        .join("base14_courier.pdf")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn report_into_a_missing_folder_names_the_report() {
    let dir = scratch("write-errors", "report");
    let o = run(&dir, &["report", "-q", &pdf(), "-o", "missing/dir/r.html"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        err.lines().last(),
        Some("error: cannot write missing/dir/r.html: the folder missing/dir does not exist"),
        "{err}"
    );
    assert!(!err.contains(".sections"), "{err}");
}

#[test]
fn report_over_a_folder_names_the_report() {
    let dir = scratch("write-errors", "report-folder");
    std::fs::create_dir(dir.join("r.html")).unwrap();
    let o = run(&dir, &["report", "-q", &pdf(), "-o", "r.html"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).lines().last(),
        Some("error: cannot write r.html: it is a folder"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn pack_output_into_a_missing_folder_says_which_folder() {
    let dir = scratch("write-errors", "pack");
    std::fs::write(
        dir.join("m.toml"),
        format!(
            "name = \"P\"\n[[signers]]\nhandle = \"a\"\nemail = \"a@example.com\"\n\
             [[documents]]\npath = {:?}\n",
            pdf()
        ),
    )
    .unwrap();
    let o = run(&dir, &["pack", "m.toml", "-o", "gone/p.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).lines().last(),
        Some("error: cannot write gone/p.json: the folder gone does not exist"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn schema_write_names_the_folder_in_the_way() {
    let dir = scratch("write-errors", "schema");
    std::fs::write(dir.join("schemas"), "a file, not a folder").unwrap();
    let o = run(&dir, &["schema", "--write", "schemas"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).lines().last(),
        Some("error: cannot create the folder schemas: a file of that name is in the way"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn migrate_out_names_the_folder_in_the_way() {
    let dir = scratch("write-errors", "migrate");
    std::fs::write(dir.join("out"), "a file, not a folder").unwrap();
    let o = run(&dir, &["migrate", &pdf(), "--out", "out"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).lines().last(),
        Some("error: cannot create the folder out: a file of that name is in the way"),
        "{}",
        stderr(&o)
    );
}
