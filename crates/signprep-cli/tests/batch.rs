//! Batch runs of `signprep scan`: a generated folder of 2,000 PDFs scanned with
//! different thread counts, in shards, and resumed after a run killed midway;
//! file lists; a closed pipe; Ctrl-C; the summary record; per-file limits.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
}

fn scan(args: &[&str], dir: &Path) -> Output {
    bin()
        .arg("scan")
        .arg("--format")
        .arg("ndjson")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("signprep runs")
}

/// Record lines (with a `path`), as written.
fn record_lines(stdout: &[u8]) -> Vec<String> {
    String::from_utf8(stdout.to_vec())
        .expect("utf-8")
        .lines()
        .filter(|l| l.starts_with("{\"path\":"))
        .map(str::to_string)
        .collect()
}

fn summary(stdout: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(stdout);
    let last = text.lines().last().expect("some output");
    let v: serde_json::Value = serde_json::from_str(last).expect("the last line is JSON");
    v.get("summary")
        .cloned()
        .expect("the last line is the summary")
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// `n` PDFs (copies of the generated fixtures under different names) in 20
/// sub-folders, plus one broken file per 500, under `root/corpus`.
fn make_corpus(root: &Path, n: usize) -> PathBuf {
    let fixtures = signprep_testgen::fixtures();
    let corpus = root.join("corpus");
    for i in 0..n {
        let dir = corpus.join(format!("d{:02}", i % 20));
        std::fs::create_dir_all(&dir).unwrap();
        let f = &fixtures[i % fixtures.len()];
        let bytes: &[u8] = if i % 500 == 499 {
            b"%PDF-1.7\nnot really a PDF"
        } else {
            &f.pdf
        };
        std::fs::write(dir.join(format!("f{i:05}_{}.pdf", f.name)), bytes).unwrap();
    }
    corpus
}

#[test]
fn two_thousand_files_jobs_shards_and_resume() {
    let tmp = tempfile::tempdir().unwrap();
    make_corpus(tmp.path(), 2000);
    let dir = tmp.path();

    // Identical output whatever the thread count.
    let one = scan(&["--jobs", "1", "corpus"], dir);
    let four = scan(&["--jobs", "4", "corpus"], dir);
    assert_eq!(
        one.status.code(),
        Some(1),
        "broken files and error findings"
    );
    // No progress bar off a terminal: only the line that says why the exit
    // status is 1.
    let err = String::from_utf8_lossy(&one.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ")
            && err.ends_with("files; 4 files could not be scanned (pdf_unreadable 4)\n"),
        "{err}"
    );
    assert!(one.stdout == four.stdout, "--jobs 1 and --jobs 4 differ");
    let all = record_lines(&one.stdout);
    assert_eq!(all.len(), 2000);
    let paths: Vec<String> = all
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["path"].to_string())
        .collect();
    assert_eq!(paths, sorted(paths.clone()), "sorted path order");
    let total = summary(&one.stdout);
    assert_eq!(total["files"], 2000);
    assert_eq!(total["errors"], 4);
    assert_eq!(total["errors_by_code"]["pdf_unreadable"], 4);
    assert!(total.get("wall_seconds").is_none(), "no timing by default");

    // Three shards: disjoint, none empty, and together the unsharded output.
    let mut union = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let out = scan(&["--jobs", "2", "--shard", &shard, "corpus"], dir);
        let lines = record_lines(&out.stdout);
        assert!(lines.len() > 500, "shard {shard}: {} files", lines.len());
        assert_eq!(summary(&out.stdout)["files"], lines.len());
        union.extend(lines);
    }
    assert_eq!(union.len(), 2000);
    assert!(
        sorted(union) == sorted(all.clone()),
        "the shards' union differs"
    );

    // A run killed midway: its report ends in the middle of a line.
    let cut = one.stdout.len() * 2 / 5;
    let report = dir.join("report.ndjson");
    std::fs::write(&report, &one.stdout[..cut]).unwrap();
    let torn = String::from_utf8_lossy(&one.stdout[..cut]).to_string();
    assert!(!torn.ends_with('\n'));
    let done: Vec<String> = torn
        .lines()
        .filter(|l| l.ends_with('}') && l.contains("\"status\":\"ok\""))
        .filter(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
        .map(str::to_string)
        .collect();
    assert!(done.len() > 500, "{}", done.len());
    let resumed = scan(
        &["--jobs", "3", "--skip-done", "report.ndjson", "corpus"],
        dir,
    );
    let rest = record_lines(&resumed.stdout);
    assert_eq!(rest.len(), 2000 - done.len());
    assert_eq!(summary(&resumed.stdout)["skipped"], done.len());
    let mut merged = done;
    merged.extend(rest);
    assert!(sorted(merged) == sorted(all), "resumed output differs");
}

#[test]
fn files_from_plain_and_ndjson_lines_and_stdin() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = make_corpus(tmp.path(), 40);
    let dir = tmp.path();
    let expected = scan(
        &[
            "corpus/d01/f00001_base14_courier.pdf",
            "corpus/d02",
            "no_such.pdf",
            "corpus/d03/f00003_cropbox_offset.pdf",
        ],
        dir,
    );
    let list = "corpus/d01/f00001_base14_courier.pdf\n\
                \n\
                {\"path\": \"corpus/d02\", \"note\": \"a folder is walked\"}\n\
                no_such.pdf\r\n\
                {\"summary\": {\"files\": 9}}\n\
                {\"path\":\"corpus/d03/f00003_cropbox_offset.pdf\",\"status\":\"ok\"}\n";
    std::fs::write(dir.join("list.txt"), list).unwrap();
    let from_file = scan(&["--files-from", "list.txt"], dir);
    assert_eq!(record_lines(&from_file.stdout).len(), 5);
    assert_eq!(from_file.stdout, expected.stdout);
    assert_eq!(from_file.status.code(), Some(2), "a missing file is exit 2");

    let mut child = bin()
        .args(["scan", "--format", "ndjson", "--files-from", "-"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // Its `error:` line (a listed file is missing) belongs to this test, not the test log.
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    let from_stdin = child.wait_with_output().unwrap();
    assert_eq!(from_stdin.stdout, expected.stdout);
    assert_eq!(
        from_stdin.status.code(),
        Some(2),
        "a missing file is exit 2"
    );
    assert!(
        String::from_utf8_lossy(&from_stdin.stderr).starts_with("error: "),
        "{}",
        String::from_utf8_lossy(&from_stdin.stderr)
    );

    // A line that is neither a path nor an object with one: an error record for it.
    std::fs::write(dir.join("bad.txt"), "{\"name\": 1}\n").unwrap();
    let bad = scan(&["--files-from", "bad.txt"], dir);
    let recs = record_lines(&bad.stdout);
    assert_eq!(recs.len(), 1);
    assert!(recs[0].contains("line 1 of bad.txt"), "{}", recs[0]);
    drop(corpus);
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    let tmp = tempfile::tempdir().unwrap();
    make_corpus(tmp.path(), 400);
    let mut child = bin()
        .args(["scan", "--format", "ndjson", "--jobs", "2", "corpus"])
        .current_dir(tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("{\"path\":"), "{first}");
    drop(out); // as `| head -1` does
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_with_whole_records_and_a_summary() {
    let tmp = tempfile::tempdir().unwrap();
    make_corpus(tmp.path(), 1000);
    let mut child = bin()
        .args(["scan", "--format", "ndjson", "--jobs", "2", "corpus"])
        .current_dir(tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    // The pipe is full by now: the writer waits for us while the signal arrives.
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(rest.ends_with('\n'));
    let lines: Vec<&str> = rest.lines().collect();
    for l in &lines {
        serde_json::from_str::<serde_json::Value>(l).expect("whole JSON lines");
    }
    let summary = summary(rest.as_bytes());
    assert_eq!(summary["interrupted"], true);
    let written = lines.len(); // the records after the first, plus the summary
    assert_eq!(summary["files"], written);
    assert!(written < 1000, "stopped early: {written}");
}

#[test]
fn summary_record_timing_and_limits() {
    let tmp = tempfile::tempdir().unwrap();
    make_corpus(tmp.path(), 30);
    let dir = tmp.path();
    let plain = scan(&["corpus"], dir);
    let text = String::from_utf8_lossy(&plain.stdout).to_string();
    assert_eq!(text.lines().count(), 31);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("{\"summary\":{\"files\":30,")
    );

    let timed = scan(&["--timing", "corpus"], dir);
    assert!(summary(&timed.stdout)["wall_seconds"].is_number());
    assert!(summary(&timed.stdout)["pages_per_second"].is_number());

    let bare = scan(&["--no-summary", "corpus"], dir);
    assert_eq!(String::from_utf8_lossy(&bare.stdout).lines().count(), 30);
    let json = bin()
        .args(["scan", "--format", "json", "--no-summary", "corpus"])
        .current_dir(dir)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["documents"].as_array().map(Vec::len), Some(30));
    assert!(v.get("summary").is_none());

    // Table: the summary goes to stderr, not into the table.
    let table = bin()
        .args(["scan", "--format", "table", "corpus/d01"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&table.stdout).contains("pages/s"));
    assert!(String::from_utf8_lossy(&table.stderr).contains("pages/s"));
    let quiet = bin()
        .args(["scan", "--format", "table", "--quiet", "corpus/d01"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(quiet.stderr.is_empty());

    // Per-file limits: an error record each, the batch goes on.
    let small = scan(&["--max-file-size", "100", "corpus/d01"], dir);
    let recs = record_lines(&small.stdout);
    assert_eq!(recs.len(), 2);
    assert!(
        recs.iter()
            .all(|r| r.contains("\"code\":\"pdf_limit_exceeded\"")
                && r.contains("more than the limit of 100")),
        "{recs:?}"
    );
    let unlimited = scan(&["--timeout-per-file", "0", "corpus/d01"], dir);
    assert_eq!(record_lines(&unlimited.stdout).len(), 2);
    let usage = scan(&["--shard", "3/3", "corpus"], dir);
    assert_eq!(usage.status.code(), Some(2));
    let usage = scan(&["--glob", "a[", "corpus"], dir);
    assert_eq!(usage.status.code(), Some(2));

    // Globs: an excluded folder is left out.
    let without = scan(&["--glob", "!d01/", "corpus"], dir);
    let lines = record_lines(&without.stdout);
    assert_eq!(lines.len(), 28);
    assert!(lines.iter().all(|l| !l.contains("/d01/")));
}

/// `scan --format ndjson --jobs JOBS --timeout-per-file 100ms .` over a
/// folder of `names` (copies of one fixture), with SIGNPREP_TEST_HANG (debug
/// builds only) set to `hang`: each input whose name ends with it blocks for
/// good. The watchdog gives up on each after twice --timeout-per-file plus
/// 5 s, replaces its thread, and the run goes on: every record, in input
/// order, the hanging ones `pdf_limit_exceeded` with the same message in
/// every run, exit status 1.
fn assert_hanging_files_are_abandoned(jobs: &str, names: &[&str], hang: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let pdf = &signprep_testgen::fixtures()[0].pdf;
    for name in names {
        std::fs::write(tmp.path().join(name), pdf).unwrap();
    }
    let out = bin()
        .args(["scan", "--format", "ndjson", "--jobs", jobs])
        .args(["--timeout-per-file", "100ms", "."])
        .current_dir(tmp.path())
        .env("SIGNPREP_TEST_HANG", hang)
        .output()
        .unwrap();
    let hanging = names.iter().filter(|n| n.ends_with(hang)).count();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let expected = match names.iter().find(|n| n.ends_with(hang)) {
        // One file: the last line names it.
        Some(name) if hanging == 1 => {
            format!("error: ./{name} could not be scanned (pdf_limit_exceeded)\n")
        }
        _ => {
            format!("error: {hanging} files could not be scanned (pdf_limit_exceeded {hanging})\n")
        }
    };
    assert_eq!(stderr, expected);
    let records: Vec<serde_json::Value> = record_lines(&out.stdout)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let paths: Vec<&str> = records
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = names.iter().map(|n| format!("./{n}")).collect();
    assert_eq!(paths, expected, "every record, in input order");
    for r in &records {
        if r["path"].as_str().unwrap().ends_with(hang) {
            common::assert_abandoned(r);
        } else {
            assert_eq!(r["status"], "ok", "{r}");
        }
    }
    let summary = summary(&out.stdout);
    assert_eq!(summary["files"], names.len());
    assert_eq!(summary["errors"], hanging);
    assert_eq!(summary["failures"], hanging);
    assert_eq!(
        summary["errors_by_code"],
        serde_json::json!({"pdf_limit_exceeded": hanging})
    );
}

#[test]
fn a_file_that_hangs_is_abandoned_by_the_watchdog() {
    let names = ["1.pdf", "2.pdf", "3.pdf", "4.pdf", "5.pdf"];
    assert_hanging_files_are_abandoned("2", &names, "3.pdf");
}

#[test]
fn a_file_that_hangs_with_one_worker_is_abandoned_and_the_run_ends() {
    // The one worker is stuck for good: a replacement scans the files after it.
    let names = ["1.pdf", "2.pdf", "3.pdf", "4.pdf", "5.pdf"];
    assert_hanging_files_are_abandoned("1", &names, "3.pdf");
}

#[test]
fn two_files_that_hang_with_one_worker_are_abandoned_and_the_run_ends() {
    // The replacement gets stuck too, and is replaced in turn.
    let names = ["1.pdf", "2-x.pdf", "3.pdf", "4-x.pdf", "5.pdf"];
    assert_hanging_files_are_abandoned("1", &names, "-x.pdf");
}

/// Standard input that cannot be read is an I/O failure, exit status 2, in
/// `scan` as in `check` (scan said 1, as for a PDF with error findings): its
/// `io_error` record is written and the last line says why.
#[test]
fn unreadable_standard_input_is_exit_2_in_scan_and_check() {
    let dir = common::scratch("batch", "stdin_dir");
    for command in ["scan", "check"] {
        // Reading a folder opened as a file fails (EISDIR).
        let o = bin()
            .args([command, "--format", "json", "-"])
            .stdin(std::fs::File::open(&*dir).unwrap())
            .output()
            .expect("signprep runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{command}: {err}");
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("\"io_error\""),
            "{command}: {}",
            String::from_utf8_lossy(&o.stdout)
        );
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("error: ") && last.contains("standard input"),
            "{command}: {last}"
        );
    }
}

/// `--skip-done` given a PDF (the PATH and the report swapped) skipped
/// nothing without a word; a file that is no report is now refused.
#[test]
fn skip_done_refuses_a_file_that_is_not_a_report() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let pdf = signprep_testgen::fixtures()
        .into_iter()
        .next()
        .expect("a fixture");
    std::fs::write(dir.join("a.pdf"), &pdf.pdf).unwrap();
    std::fs::write(dir.join("b.pdf"), &pdf.pdf).unwrap();
    let o = scan(&["--skip-done", "a.pdf", "b.pdf"], dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "nothing scanned");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.lines().last(),
        Some(
            "error: --skip-done a.pdf: it is a PDF, not a report: give the ndjson (or json) output of an earlier `signprep scan`; the PDFs to scan go in PATH"
        ),
        "{err}"
    );
    // The report of the run it meant to resume skips its file.
    let first = scan(&["a.pdf"], dir);
    std::fs::write(dir.join("report.ndjson"), &first.stdout).unwrap();
    let resumed = scan(&["--skip-done", "report.ndjson", "a.pdf", "b.pdf"], dir);
    assert_eq!(summary(&resumed.stdout)["skipped"], 1);
}

/// `-L` follows links; one that leads nowhere fails the run only when it is
/// a file the walk would take (`*.pdf`, or a `--glob` match): a dangling
/// `notes.txt` is passed over as any `notes.txt` is.
#[cfg(unix)]
#[test]
fn a_refused_glob_is_said_in_our_words() {
    let tmp = tempfile::tempdir().unwrap();
    for (glob, said) in [
        (
            "[",
            "error: --glob `[` is not a valid pattern: a `[` opens a set such as `[0-9]` that is not closed; write a literal `[` as `[[]`",
        ),
        (
            "{a,b",
            "error: --glob `{a,b` is not a valid pattern: a `{` opens a group such as `{a,b}` that is not closed",
        ),
    ] {
        let o = scan(&["--glob", glob, "."], tmp.path());
        assert_eq!(o.status.code(), Some(2), "--glob {glob}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            stderr.trim_end().lines().last(),
            Some(said),
            "--glob {glob}: {stderr}"
        );
    }
}

#[test]
fn a_link_loop_and_a_dangling_link_are_said_in_our_words() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let docs = dir.join("docs");
    std::fs::create_dir_all(docs.join("a")).unwrap();
    let pdf = signprep_testgen::fixtures()
        .into_iter()
        .next()
        .expect("a fixture");
    std::fs::write(docs.join("a/a.pdf"), &pdf.pdf).unwrap();
    std::os::unix::fs::symlink("..", docs.join("a/up")).unwrap();
    std::os::unix::fs::symlink(dir.join("gone.pdf"), docs.join("b.pdf")).unwrap();
    let o = scan(&["-L", "docs"], dir);
    assert_eq!(o.status.code(), Some(2));
    let records = record_lines(&o.stdout);
    let errors: Vec<&String> = records.iter().filter(|r| r.contains("\"error\"")).collect();
    assert_eq!(errors.len(), 2, "{records:?}");
    assert!(
        errors.iter().any(|r| r.contains(
            "\"message\":\"cannot read: a link loop: docs/a/up leads back to docs, a folder it is in\""
        )),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|r| r.contains("\"message\":\"cannot read: no such file\"")),
        "{errors:?}"
    );
    assert!(
        !records.iter().any(|r| r.contains("os error")),
        "{records:?}"
    );
}

#[test]
fn follow_passes_over_a_dangling_link_that_is_no_candidate() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let docs = dir.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let pdf = signprep_testgen::fixtures()
        .into_iter()
        .next()
        .expect("a fixture");
    std::fs::write(docs.join("a.pdf"), &pdf.pdf).unwrap();
    std::os::unix::fs::symlink(dir.join("gone.txt"), docs.join("notes.txt")).unwrap();
    let o = scan(&["-L", "docs"], dir);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(record_lines(&o.stdout).len(), 1);

    // A dangling link named as a PDF is still an input that cannot be read.
    std::os::unix::fs::symlink(dir.join("gone.pdf"), docs.join("b.pdf")).unwrap();
    let o = scan(&["-L", "docs"], dir);
    assert_eq!(o.status.code(), Some(2));
    let records = record_lines(&o.stdout);
    assert_eq!(records.len(), 2, "{records:?}");
    assert!(
        records[1].starts_with("{\"path\":\"docs/b.pdf\",\"status\":\"error\""),
        "{}",
        records[1]
    );

    // With a --glob taking text files, the dangling notes.txt is an input again.
    let o = scan(&["-L", "-g", "*.txt", "docs"], dir);
    assert_eq!(o.status.code(), Some(2));
    let records = record_lines(&o.stdout);
    assert_eq!(records.len(), 1, "{records:?}");
    assert!(
        records[0].starts_with("{\"path\":\"docs/notes.txt\",\"status\":\"error\""),
        "{}",
        records[0]
    );
}
