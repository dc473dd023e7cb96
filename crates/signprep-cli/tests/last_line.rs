//! How every batch command ends (issue 26: one summary): the exit status, the
//! whole of stderr (its last line says why a run is not 0) and the last line
//! of standard output (the summary record, or the human summary line), for
//! `scan`, `check`, `report`, `migrate` and `preview` over a clean input,
//! error-level findings, an unreadable input, one that cannot be scanned, a
//! panic (`SIGNPREP_TEST_PANIC`), and all of them mixed. Each case is an
//! insta snapshot (`tests/snapshots/last_line__*.snap`); the Ctrl-C endings are
//! pinned in `batch.rs` and `check.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::root;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The inputs the cases use, copied under short names into `dir`.
fn inputs(dir: &Path) {
    for (from, to) in [
        ("testdata/fixtures/base14_courier.pdf", "clean.pdf"),
        ("testdata/fixtures/base14_courier.pdf", "clean2.pdf"),
        ("testdata/check/cases/tag_id_not_uppercase.pdf", "lower.pdf"),
        (
            "testdata/check/cases/tag_id_not_uppercase.pdf",
            "lower2.pdf",
        ),
        ("testdata/hostile/pagetree_declared_empty.pdf", "nopage.pdf"),
        (
            "testdata/hostile/pagetree_declared_empty.pdf",
            "nopage2.pdf",
        ),
        ("testdata/migrate/adobe_contract.pdf", "adobe.pdf"),
        ("testdata/migrate/dropbox_contract.pdf", "dropbox.pdf"),
        ("testdata/check/clean/pack.json", "pack.json"),
        (
            "testdata/check/cases/signers_missing.json",
            "signers_missing.json",
        ),
    ] {
        std::fs::copy(root().join(from), dir.join(to)).unwrap();
    }
    std::fs::create_dir_all(dir.join("folder/sub")).unwrap();
    std::fs::copy(dir.join("clean.pdf"), dir.join("folder/b.pdf")).unwrap();
    std::fs::copy(dir.join("lower.pdf"), dir.join("folder/sub/a.pdf")).unwrap();
    std::fs::copy(dir.join("pack.json"), dir.join("folder/pack.json")).unwrap();
}

fn run_in(dir: &Path, args: &[&str], panic: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_signprep"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("SIGNPREP_TEST_PANIC")
        .env_remove("SIGNPREP_TEST_HANG")
        .env("RUST_BACKTRACE", "0");
    if let Some(name) = panic {
        cmd.env("SIGNPREP_TEST_PANIC", name);
    }
    cmd.output().expect("signprep runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Stderr without the panic message a forced panic prints (its thread id
/// changes from run to run).
fn stderr(out: &Output) -> String {
    let mut kept = String::new();
    let mut lines = text(&out.stderr)
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter();
    while let Some(line) = lines.next() {
        if line.starts_with("thread '") && line.contains("panicked at") {
            lines.next();
            continue;
        }
        if line.is_empty() || line.starts_with("note: run with `RUST_BACKTRACE") {
            continue;
        }
        kept.push_str(&line);
        kept.push('\n');
    }
    kept
}

/// `status`, stderr, and the last line of stdout, for a snapshot.
fn shown(out: &Output) -> String {
    let stdout = text(&out.stdout);
    format!(
        "status: {:?}\n--- stderr ---\n{}--- stdout, last line ---\n{}\n",
        out.status.code(),
        stderr(out),
        stdout.lines().last().unwrap_or_default()
    )
}

/// Runs every case in one scratch folder: `(name, args, panic, status)`.
fn cases(prefix: &str, cases: &[(&str, &[&str], Option<&str>, i32)]) {
    let dir = common::scratch("last_line", prefix);
    inputs(&dir);
    for (name, args, panic, status) in cases {
        let out = run_in(&dir, args, *panic);
        assert_eq!(
            out.status.code(),
            Some(*status),
            "{name}: {}",
            text(&out.stderr)
        );
        insta::assert_snapshot!(format!("{prefix}_{name}"), shown(&out));
    }
}

const MIXED: &[&str] = &[
    "clean.pdf",
    "lower.pdf",
    "nopage.pdf",
    "nonexist.pdf",
    "lower2.pdf",
    "gone.pdf",
    "nopage2.pdf",
    "clean2.pdf",
];

fn with(head: &[&'static str], tail: &[&'static str]) -> Vec<&'static str> {
    head.iter().chain(tail).copied().collect()
}

#[test]
fn scan_endings() {
    let nd = ["scan", "--format", "ndjson", "-j", "2"];
    let mixed = with(&nd, MIXED);
    cases(
        "scan",
        &[
            ("clean", &with(&nd, &["clean.pdf", "clean2.pdf"]), None, 0),
            ("findings", &with(&nd, &["lower.pdf"]), None, 1),
            (
                "findings_two",
                &with(&nd, &["lower.pdf", "lower2.pdf"]),
                None,
                1,
            ),
            ("missing", &with(&nd, &["nonexist.pdf"]), None, 2),
            (
                "missing_two",
                &with(&nd, &["nonexist.pdf", "gone.pdf"]),
                None,
                2,
            ),
            (
                "no_page_two",
                &with(&nd, &["nopage.pdf", "nopage2.pdf"]),
                None,
                1,
            ),
            (
                "findings_and_no_page",
                &with(&nd, &["lower.pdf", "nopage.pdf"]),
                None,
                1,
            ),
            (
                "panic",
                &with(&nd, &["clean.pdf", "clean2.pdf"]),
                Some("clean2.pdf"),
                1,
            ),
            ("mixed", &mixed, None, 2),
            ("mixed_panic", &mixed, Some("clean2.pdf"), 2),
            ("folder", &with(&nd, &["folder"]), None, 1),
            ("stdin_empty", &with(&nd, &["-"]), None, 1),
            (
                "json_mixed",
                &with(&["scan", "--format", "json"], MIXED),
                None,
                2,
            ),
        ],
    );
}

#[test]
fn check_endings() {
    let nd = ["check", "--format", "ndjson", "-j", "2"];
    let human = ["check", "--format", "human", "-j", "2"];
    let mixed = with(&nd, MIXED);
    let warn = ["check", "--format", "ndjson", "--deny", "warnings"];
    cases(
        "check",
        &[
            ("clean", &with(&nd, &["pack.json", "clean.pdf"]), None, 0),
            ("findings", &with(&nd, &["lower.pdf"]), None, 1),
            (
                "findings_two",
                &with(&nd, &["lower.pdf", "lower2.pdf"]),
                None,
                1,
            ),
            (
                "deny_warnings",
                &with(&warn, &["signers_missing.json", "lower.pdf"]),
                None,
                1,
            ),
            ("missing", &with(&nd, &["nonexist.pdf"]), None, 2),
            (
                "missing_two",
                &with(&nd, &["nonexist.pdf", "gone.pdf"]),
                None,
                2,
            ),
            (
                "no_page_two",
                &with(&nd, &["nopage.pdf", "nopage2.pdf"]),
                None,
                1,
            ),
            (
                "panic",
                &with(&nd, &["clean.pdf", "clean2.pdf"]),
                Some("clean2.pdf"),
                1,
            ),
            ("mixed", &mixed, None, 2),
            ("mixed_panic", &mixed, Some("clean2.pdf"), 2),
            ("folder", &with(&nd, &["folder"]), None, 1),
            ("human_mixed", &with(&human, MIXED), None, 2),
            (
                "human_clean",
                &with(&human, &["clean.pdf", "pack.json"]),
                None,
                0,
            ),
        ],
    );
}

#[test]
fn report_endings() {
    let r = [
        "report",
        "-o",
        "r.html",
        "-q",
        "--max-pages",
        "0",
        "-j",
        "2",
    ];
    cases(
        "report",
        &[
            ("clean", &with(&r, &["clean.pdf", "clean2.pdf"]), None, 0),
            ("findings", &with(&r, &["lower.pdf"]), None, 1),
            (
                "findings_two",
                &with(&r, &["lower.pdf", "lower2.pdf"]),
                None,
                1,
            ),
            ("missing", &with(&r, &["nonexist.pdf"]), None, 2),
            (
                "missing_two",
                &with(&r, &["nonexist.pdf", "gone.pdf"]),
                None,
                2,
            ),
            ("no_page", &with(&r, &["nopage.pdf"]), None, 1),
            (
                "no_page_two",
                &with(&r, &["nopage.pdf", "nopage2.pdf"]),
                None,
                1,
            ),
            (
                "panic",
                &with(&r, &["clean.pdf", "clean2.pdf"]),
                Some("clean2.pdf"),
                1,
            ),
            ("mixed", &with(&r, MIXED), None, 2),
            (
                "findings_and_no_page",
                &with(&r, &["lower.pdf", "nopage.pdf"]),
                None,
                1,
            ),
            ("folder", &with(&r, &["folder"]), None, 1),
        ],
    );
}

#[test]
fn migrate_endings() {
    let m = ["migrate", "--dialect", "all", "-q", "-j", "2"];
    let out = with(&m, &["--out", "out"]);
    cases(
        "migrate",
        &[
            ("one", &with(&m, &["adobe.pdf"]), None, 0),
            ("two", &with(&out, &["adobe.pdf", "dropbox.pdf"]), None, 0),
            ("missing", &with(&m, &["nonexist.pdf"]), None, 2),
            (
                "missing_two",
                &with(&out, &["nonexist.pdf", "gone.pdf"]),
                None,
                2,
            ),
            ("no_page", &with(&m, &["nopage.pdf"]), None, 1),
            (
                "no_page_two",
                &with(&out, &["nopage.pdf", "nopage2.pdf"]),
                None,
                1,
            ),
            (
                "panic",
                &with(&out, &["adobe.pdf", "dropbox.pdf"]),
                Some("dropbox.pdf"),
                1,
            ),
            (
                "mixed",
                &with(
                    &out,
                    &[
                        "adobe.pdf",
                        "nopage.pdf",
                        "nonexist.pdf",
                        "dropbox.pdf",
                        "gone.pdf",
                    ],
                ),
                None,
                2,
            ),
            (
                "mixed_panic",
                &with(&out, &["adobe.pdf", "nopage.pdf", "dropbox.pdf"]),
                Some("dropbox.pdf"),
                1,
            ),
        ],
    );
}

#[test]
fn preview_endings() {
    let p = ["preview", "-o", "png", "-j", "2"];
    cases(
        "preview",
        &[
            ("clean", &with(&p, &["clean.pdf"]), None, 0),
            ("findings", &with(&p, &["lower.pdf"]), None, 1),
            ("missing", &with(&p, &["nonexist.pdf"]), None, 2),
            ("no_page", &with(&p, &["nopage.pdf"]), None, 1),
            ("panic", &with(&p, &["clean.pdf"]), Some("clean.pdf"), 1),
        ],
    );
}
