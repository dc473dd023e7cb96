//! `signprep pack` and `signprep schema` as a user runs them, on the worked
//! example in `testdata/example/`.
//!
//! Regenerate the example's expected outputs with
//! `UPDATE_EXAMPLE=1 cargo test -p signprep-cli --test pack` (and read the diff).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("signprep runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn example_pdfs_are_current() {
    for f in signprep_testgen::example::files().unwrap() {
        let path = root().join("testdata/example").join(f.path);
        assert!(
            std::fs::read(&path).ok().as_deref() == Some(f.bytes.as_slice()),
            "{} is stale: run `cargo run -p signprep-testgen -- --example testdata/example`",
            path.display()
        );
    }
}

#[test]
fn example_outputs_are_current() {
    // Beside `expected/`: the v0 output's `upload` paths are written from the
    // plan's folder (`../contracts/nda.pdf`), the same from here as from there.
    let dir = tempfile::tempdir_in(root().join("testdata/example")).unwrap();
    let update = std::env::var_os("UPDATE_EXAMPLE").is_some();
    let cases: [(&str, &[&str]); 3] = [
        ("pack.json", &[]),
        ("v0.json", &["--v0"]),
        ("populate.json", &["--populate", "TPL_PRICING"]),
    ];
    for (name, extra) in cases {
        let out_path = dir.path().join(name);
        let mut args = vec![
            "pack",
            "testdata/example/pack.toml",
            "-o",
            out_path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let got = std::fs::read_to_string(&out_path).unwrap();
        let expected_path = root().join("testdata/example/expected").join(name);
        if update {
            std::fs::create_dir_all(expected_path.parent().unwrap()).unwrap();
            std::fs::write(&expected_path, &got).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        assert!(
            got == expected,
            "{name} differs from {}",
            expected_path.display()
        );
        insta::assert_snapshot!(format!("stderr_{name}"), stderr(&out));
    }
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 3, "{left:?}");
}

#[test]
fn the_pack_goes_to_stdout_without_o() {
    let out = run(&["pack", "testdata/example/pack.toml", "--compact"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["documents"].as_array().unwrap().len(), 4);
}

#[test]
fn errors_write_nothing_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("bad.toml");
    std::fs::write(
        &manifest,
        "name = \"P\"\n[[documents]]\npath = \"nothing/*.pdf\"\n[[fields]]\ncustom_id = \"A\"\nsigner = \"ghost\"\n",
    )
    .unwrap();
    let target = dir.path().join("pack.json");
    std::fs::write(&target, "previous").unwrap();
    let out = run(&[
        "pack",
        manifest.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error[manifest_no_match]: `nothing/*.pdf` matches no file"),
        "{err}"
    );
    // Located in the manifest, as `signprep check` locates it.
    assert!(err.contains("bad.toml#/documents/0/path\n"), "{err}");
    let last = err.lines().last().unwrap();
    assert!(
        last.starts_with("error: 2 error-level findings in ")
            && last.ends_with("; nothing written"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "previous");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "a temporary file was left"
    );
}

#[test]
fn usage_and_io_failures_exit_2() {
    let out = run(&["pack", "no/such/manifest.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/manifest.toml"));
    let out = run(&[
        "pack",
        "testdata/example/pack.toml",
        "--v0",
        "--populate",
        "K",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&[
        "pack",
        "testdata/example/pack.toml",
        "-o",
        "/nonexistent-dir/x.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["schema", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn schema_prints_the_committed_schemas() {
    for name in ["pack", "manifest", "scan", "v0", "populate"] {
        let out = run(&["schema", name]);
        assert_eq!(out.status.code(), Some(0));
        let committed =
            std::fs::read(root().join(format!("docs/schema/{name}.schema.json"))).unwrap();
        assert!(
            out.stdout == committed,
            "signprep schema {name} differs from docs/schema"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["schema", "--write", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 5);
}

#[cfg(target_os = "linux")]
#[test]
fn pack_stopped_by_ctrl_c_exits_130_and_writes_nothing() {
    // The manifest is one input of the batch runner, as a file of `scan` is:
    // Ctrl-C while it is checked and built (it hangs: SIGNPREP_TEST_HANG,
    // test builds only) stops the run with exit 130 and its last line, and
    // no output file is left (nor a temporary one). Before, the signal killed
    // the process (no status, no line).
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("pack.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["pack", "testdata/example/pack.toml", "-o"])
        .arg(&out_path)
        .env("SIGNPREP_TEST_HANG", "example/pack.toml")
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Nothing is written before the signal: wait until the process catches
    // SIGINT (bit 1 of `SigCgt` in /proc/PID/status), so that the signal
    // meets the handler and not the default action.
    let status = format!("/proc/{}/status", child.id());
    let catches_sigint = || {
        std::fs::read_to_string(&status)
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
            .is_some_and(|m| m & 0b10 != 0)
    };
    let mut waited = 0;
    while !catches_sigint() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("pack ended before the signal: {status}");
        }
        waited += 1;
        if waited > 3000 {
            let _ = child.kill();
            panic!("pack never took Ctrl-C");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert_eq!(
        err.lines().last(),
        Some("error: interrupted; nothing written")
    );
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no file");
}

#[test]
fn a_panic_is_reported_with_exit_1_not_an_abort() {
    // Exit status 1, as `scan`, `check`, `report` and `migrate` give for an
    // input that panicked (its `internal_error`); 2 is for usage and I/O.
    // SIGNPREP_TEST_PANIC (test builds only: the core's `testing` feature) forces a panic for this input.
    let out = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["pack", "testdata/example/pack.toml", "--compact"])
        .env("SIGNPREP_TEST_PANIC", "example/pack.toml")
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).ends_with(
            "error: cannot pack testdata/example/pack.toml: internal error (please report it with the file): signprep stopped on an unexpected state\n"
        ),
        "{}",
        stderr(&out)
    );
}
