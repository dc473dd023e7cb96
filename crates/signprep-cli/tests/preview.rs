//! `signprep preview` and `signprep report` as a user runs them.
#![cfg(feature = "render")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{Scratch, scratch as scratch_in};

fn fixtures() -> PathBuf {
    common::testdata("fixtures")
}

fn scratch(name: &str) -> Scratch {
    scratch_in("preview", name)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .current_dir(fixtures())
        .output()
        .expect("signprep runs")
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Width and height from a PNG's header.
fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n", "{} is a PNG", path.display());
    let be = |i: usize| u32::from_be_bytes(b[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn preview_writes_one_png_per_page() {
    let dir = scratch("all");
    let out = run(&["preview", "rotated_pages.pdf", "-o", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names = listing(&dir);
    assert_eq!(
        names,
        [1, 2, 3, 4, 5].map(|p| format!("rotated_pages-p{p}.png")),
        "one PNG per page and no temporary file left"
    );
    // Printed paths, one per line, in page order.
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(printed.lines().count(), 5);
    assert!(
        printed
            .lines()
            .next()
            .unwrap()
            .ends_with("rotated_pages-p1.png")
    );
    // Page 2 is a letter page turned by /Rotate 90: 1056 x 816 px at 96 dpi, plus the legend.
    let (w, h) = png_size(&dir.join("rotated_pages-p2.png"));
    assert_eq!(w, 1056);
    assert!(h > 816 && h < 816 + 80, "{h}");
}

#[test]
fn preview_pages_dpi_and_no_legend() {
    let dir = scratch("some");
    let out = run(&[
        "preview",
        "rotated_pages.pdf",
        "-o",
        dir.to_str().unwrap(),
        "--pages",
        "4-,2",
        "--dpi",
        "72",
        "--no-legend",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        listing(&dir),
        [
            "rotated_pages-p2.png",
            "rotated_pages-p4.png",
            "rotated_pages-p5.png"
        ]
    );
    // Exactly the displayed page at 72 dpi.
    assert_eq!(png_size(&dir.join("rotated_pages-p4.png")), (792, 612));
}

#[test]
fn preview_exit_codes() {
    let dir = scratch("codes");
    let d = dir.to_str().unwrap();
    // Error-level findings: the images are written, the exit status says 1.
    let out = run(&["preview", "invalid_ids.pdf", "-o", d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(dir.join("invalid_ids-p1.png").exists());
    // A file that is not there, a page past the end, a malformed list: 2.
    assert_eq!(
        run(&["preview", "missing.pdf", "-o", d]).status.code(),
        Some(2)
    );
    let past = run(&["preview", "base14_courier.pdf", "-o", d, "--pages", "3"]);
    assert_eq!(past.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&past.stderr).contains("past the end"));
    assert_eq!(
        run(&["preview", "base14_courier.pdf", "--pages", "3-1"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run(&["preview", "base14_courier.pdf", "--signer", "nosigner"])
            .status
            .code(),
        Some(2)
    );
    // A PDF the scanner refuses: 1, with the error code.
    let refused = run(&["preview", "form_kids_cycle.pdf", "-o", d]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("[pdf_"));
}

#[test]
fn preview_of_a_file_that_panics_exits_1_not_an_abort() {
    // SIGNPREP_TEST_PANIC (test builds only: the core's `testing` feature) forces a panic for this input:
    // one error line and exit status 1, as every subcommand gives.
    let dir = scratch("panic-one");
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["preview", "base14_courier.pdf", "-o"])
        .arg(&*dir)
        .env("SIGNPREP_TEST_PANIC", "base14_courier.pdf")
        .current_dir(fixtures())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.ends_with(
            "error: cannot preview base14_courier.pdf: internal error (please report it with the file): signprep stopped on an unexpected state\n"
        ),
        "{stderr}"
    );
    assert!(listing(&dir).is_empty(), "nothing drawn");
}

#[test]
fn a_page_that_panics_is_that_pages_error_and_the_others_are_drawn() {
    // Each page is one item of the batch engine: a panic drawing page 2 (a
    // bug; forced by SIGNPREP_TEST_PANIC) fails that page alone.
    let dir = scratch("panic-page");
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["preview", "mixed_page_sizes.pdf", "--overlay-json", "-o"])
        .arg(&*dir)
        .env("SIGNPREP_TEST_PANIC", "mixed_page_sizes.pdf page 2")
        .current_dir(fixtures())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.ends_with(
            "error: mixed_page_sizes.pdf: page 2: internal error (please report it with the file): signprep stopped on an unexpected state\n"
        ),
        "{stderr}"
    );
    assert_eq!(
        listing(&dir),
        [
            "mixed_page_sizes-p1.json",
            "mixed_page_sizes-p1.png",
            "mixed_page_sizes-p3.json",
            "mixed_page_sizes-p3.png",
            "mixed_page_sizes-p4.json",
            "mixed_page_sizes-p4.png",
        ]
    );
}

#[cfg(unix)]
#[test]
fn preview_stopped_by_ctrl_c_exits_130_with_the_pages_so_far() {
    // Ctrl-C stops the engine between two pages: exit 130, the files
    // written so far listed and kept, no other. Page 1 hangs
    // (SIGNPREP_TEST_HANG), so the signal comes while pages are drawn.
    let dir = scratch("ctrl-c");
    let out_dir = dir.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["preview", "base14_courier.pdf", "--jobs", "1", "-o"])
        .arg(&out_dir)
        .env("SIGNPREP_TEST_HANG", "base14_courier.pdf page 1")
        .current_dir(fixtures())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The output folder is made once the file is loaded, after the handler
    // is installed: wait for it (the test's own timeout bounds this).
    while !out_dir.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("preview ended before the signal: {status}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some("error: interrupted; the files listed above are written, no others")
    );
    assert!(out.stdout.is_empty());
    assert!(listing(&out_dir).is_empty(), "no page drawn");
}

#[test]
fn report_is_one_self_contained_deterministic_file() {
    let dir = scratch("report");
    let one = dir.join("one.html");
    let three = dir.join("three.html");
    let a = run(&[
        "report",
        ".",
        "-o",
        one.to_str().unwrap(),
        "--jobs",
        "1",
        "--dpi",
        "36",
    ]);
    let b = run(&[
        "report",
        ".",
        "-o",
        three.to_str().unwrap(),
        "--jobs",
        "3",
        "--dpi",
        "36",
    ]);
    // The sample folder has error-level findings on purpose.
    assert_eq!(
        a.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    assert_eq!(b.status.code(), Some(1));
    let html = std::fs::read_to_string(&one).unwrap();
    assert_eq!(html, std::fs::read_to_string(&three).unwrap());
    assert_eq!(
        listing(&dir),
        ["one.html", "three.html"],
        "no scratch file left"
    );

    let pdfs = std::fs::read_dir(fixtures())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "pdf")
        })
        .count();
    assert_eq!(html.matches("<tr data-key=").count(), pdfs);
    assert_eq!(html.matches("<section id=").count(), pdfs);
    assert!(html.contains("Content-Security-Policy"));
    assert!(html.contains("<img src=\"data:image/png;base64,"));
    for external in ["src=\"http", "href=\"http", "src=\"//", "url(", "@import"] {
        assert!(
            !html.contains(external),
            "report refers to something outside: {external}"
        );
    }
    // Findings and the unscannable file are there.
    assert!(html.contains("tag_id_not_uppercase"));
    assert!(html.contains("form_kids_cycle.pdf"));
}

#[test]
fn report_of_a_clean_file_exits_0_and_can_skip_images() {
    let dir = scratch("clean");
    let out_path = dir.join("r.html");
    let out = run(&[
        "report",
        "base14_courier.pdf",
        "-o",
        out_path.to_str().unwrap(),
        "--max-pages",
        "0",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&out_path).unwrap();
    assert!(!html.contains("<img"));
    assert!(html.contains("Not drawn: 2 pages after the first 0 (<code>--max-pages</code>)"));
    assert!(html.contains("SIG_1"));
    // A missing input is an I/O failure: 2, and the report is still written.
    let out = run(&[
        "report",
        "nope.pdf",
        "base14_courier.pdf",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        std::fs::read_to_string(&out_path)
            .unwrap()
            .contains("io_error")
    );
}

#[test]
fn report_goes_on_after_a_panic_with_the_file_as_internal_error() {
    let dir = scratch("panic");
    let out_path = dir.join("r.html");
    // SIGNPREP_TEST_PANIC (test builds only: the core's `testing` feature) forces a panic for this input.
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["report", "base14_courier.pdf", "cropbox_offset.pdf", "-o"])
        .arg(&out_path)
        .args(["--max-pages", "0"])
        .env("SIGNPREP_TEST_PANIC", "base14_courier.pdf")
        .current_dir(fixtures())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: base14_courier.pdf could not be scanned (internal_error); see "),
        "{stderr}"
    );
    let html = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(html.matches("<section id=").count(), 2);
    assert!(html.contains("internal_error"));
    assert!(
        html.contains("cropbox_offset.pdf"),
        "the other file is in the report"
    );
}

#[test]
fn report_with_one_worker_gives_up_on_a_file_that_hangs_and_goes_on() {
    // SIGNPREP_TEST_HANG (test builds only: the core's `testing` feature) makes this input block for good;
    // the watchdog gives up on it after twice --timeout-per-file plus 5 s,
    // a replacement worker takes the other file, and the report is written.
    let dir = scratch("hang");
    let out_path = dir.join("r.html");
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["report", "base14_courier.pdf", "cropbox_offset.pdf", "-o"])
        .arg(&out_path)
        .args([
            "--max-pages",
            "0",
            "--jobs",
            "1",
            "--timeout-per-file",
            "100ms",
        ])
        .env("SIGNPREP_TEST_HANG", "base14_courier.pdf")
        .current_dir(fixtures())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr
            .contains("error: base14_courier.pdf could not be scanned (pdf_limit_exceeded); see "),
        "{stderr}"
    );
    let html = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(html.matches("<section id=").count(), 2);
    assert!(
        html.contains("no result within the 5.2 s watchdog (time budget 0.1 s)"),
        "the watchdog's words, with no measured time"
    );
    assert!(
        html.contains("cropbox_offset.pdf"),
        "the other file is in the report"
    );
}

#[cfg(unix)]
#[test]
fn report_stopped_by_ctrl_c_exits_130_and_leaves_no_file_behind() {
    // A bug fixed: `report` did not take Ctrl-C as the other batch commands
    // do (the signal killed it: no exit status, no last line, and its
    // scratch file of sections left beside the output). The input hangs
    // (SIGNPREP_TEST_HANG, no watchdog), so the signal comes mid-run.
    let dir = scratch("ctrl-c");
    let out_path = dir.join("r.html");
    let mut child = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["report", "base14_courier.pdf", "-o"])
        .arg(&out_path)
        .args(["--jobs", "1", "--timeout-per-file", "0"])
        .env("SIGNPREP_TEST_HANG", "base14_courier.pdf")
        .current_dir(fixtures())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The scratch file is created once the handler is installed and the
    // run has started: wait for it (the test's own timeout bounds this).
    while listing(&dir).is_empty() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("report ended before the signal: {status}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some(format!("error: interrupted; {} not written", out_path.display()).as_str())
    );
    assert_eq!(
        listing(&dir),
        Vec::<String>::new(),
        "no report, no scratch file"
    );
}

#[test]
fn preview_of_a_manifest_that_panics_exits_1_not_an_abort() {
    // As `preview FILE`: `--manifest` (and `--pack`) run inside the same one
    // panic boundary. SIGNPREP_TEST_PANIC (test builds only: the core's `testing` feature) forces a panic
    // for this input.
    let dir = scratch("panic-manifest");
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["preview", "--manifest", "../example/pack.toml", "-o"])
        .arg(&*dir)
        .env("SIGNPREP_TEST_PANIC", "example/pack.toml")
        .current_dir(fixtures())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.ends_with(
            "error: cannot preview ../example/pack.toml: internal error (please report it with the file): signprep stopped on an unexpected state\n"
        ),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing written");
    assert!(listing(&dir).is_empty(), "nothing drawn");
}

/// The figures (`<figure ...><img ... width="W" ...>`) of the section headed `name`:
/// `(thumbnail, width)` each.
fn figures(html: &str, name: &str) -> Vec<(bool, u32)> {
    let start = html
        .find(&format!("<h2>{name}</h2>"))
        .unwrap_or_else(|| panic!("no section {name}"));
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    section
        .split("<figure")
        .skip(1)
        .map(|f| {
            let w = f.split("width=\"").nth(1).unwrap();
            (
                f.starts_with(" class=\"thumb\""),
                w[..w.find('"').unwrap()].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn report_names_files_below_their_common_folder_and_draws_empty_pages_small() {
    let dir = scratch("scale");
    let out_path = dir.join("r.html");
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args([
            "report",
            "-q",
            "testdata/fixtures/no_tags.pdf",
            "./testdata/fixtures/base14_courier.pdf",
            "testdata/migrate/adobe_contract.pdf",
            "-o",
        ])
        .arg(&out_path)
        .current_dir(common::root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "no progress bar off a terminal");
    let html = std::fs::read_to_string(&out_path).unwrap();
    // The common folder once; each file below it, in the table and its section.
    assert!(
        html.contains("<p>Files in <code>testdata</code>.</p>"),
        "{html}"
    );
    for name in [
        "fixtures/no_tags.pdf",
        "fixtures/base14_courier.pdf",
        "migrate/adobe_contract.pdf",
    ] {
        assert!(html.contains(&format!("\">{name}</a></td>")), "{name}");
    }
    assert!(!html.contains("testdata/fixtures/"));
    // Tags on both pages of base14_courier.pdf: drawn at 72 dpi (US Letter, 612 px wide).
    assert_eq!(
        figures(&html, "fixtures/base14_courier.pdf"),
        [(false, 612), (false, 612)]
    );
    // no_tags.pdf has nothing on its one page: its first page, a quarter of the size.
    assert_eq!(figures(&html, "fixtures/no_tags.pdf"), [(true, 153)]);
    // Two pages without tags (no --dialect): the first small, the other not drawn.
    assert_eq!(figures(&html, "migrate/adobe_contract.pdf"), [(true, 153)]);
    assert!(html.contains("<p>Not drawn: 1 other page with no tag, field or finding;"));
}
