//! Runs a console block's commands as one bash script in a page's sandbox and
//! cuts the output back into each command's part.
//!
//! The sandbox: a fresh folder holding a copy of `testdata/` (the working folder),
//! HOME and XDG_CACHE_HOME beside it, PATH starting with the folder of the
//! `signprep` under test, no SIGNPREP_* variable. stdout and stderr go to one file
//! (so they interleave as they were written); the shell is its own process
//! group, killed with whatever it left running (`signprep serve ... &`) when the
//! block ends or its time is up.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::markdown::Command;

/// A page's sandbox.
pub struct Sandbox {
    pub root: PathBuf,
}

impl Sandbox {
    /// A fresh sandbox at `root` (emptied first), `testdata/` copied from `repo`.
    pub fn new(root: PathBuf, repo: &Path) -> Result<Sandbox, String> {
        let _ = std::fs::remove_dir_all(&root);
        for sub in ["work", "home/.cache"] {
            std::fs::create_dir_all(root.join(sub))
                .map_err(|e| format!("{}: {e}", root.display()))?;
        }
        copy_dir(&repo.join("testdata"), &root.join("work/testdata"))?;
        Ok(Sandbox { root })
    }

    /// The working folder of every command.
    pub fn work(&self) -> PathBuf {
        self.root.join("work")
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        }
    }
    Ok(())
}

/// What one command did.
#[derive(Debug)]
pub enum Ran {
    /// It ran to its end: its exit status and output.
    Done { code: i32, output: String },
    /// It did not finish: the shell ended or was stopped first (its output so far).
    Unfinished { output: String },
    /// An earlier command of the block failed, so it was not run.
    NotRun,
}

/// Runs `commands` as one script in `sandbox`; one `Ran` per command. A failing
/// command ends the block (what follows may depend on it). `Err` when the shell
/// could not be started.
pub fn run_block(
    sandbox: &Sandbox,
    signprep: &Path,
    commands: &[Command],
    limit: Duration,
) -> Result<(Vec<Ran>, Option<String>), String> {
    let mark = format!(
        "@@book-{}-{}@@",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default()
    );
    let mut script = String::from(
        "set -o pipefail\ntrap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null' EXIT\n",
    );
    for (i, c) in commands.iter().enumerate() {
        script.push_str(&format!(
            "printf '%s\\n' '{mark} begin {i}'\n{}\n__book_rc=$?\nprintf '\\n%s %d\\n' '{mark} end {i}' \"$__book_rc\"\n[ \"$__book_rc\" -eq 0 ] || exit \"$__book_rc\"\n",
            c.text
        ));
    }
    let script_path = sandbox.root.join("block.sh");
    let out_path = sandbox.root.join("block.out");
    std::fs::write(&script_path, &script).map_err(|e| e.to_string())?;
    let out = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let err = out.try_clone().map_err(|e| e.to_string())?;

    let bin_dir = signprep.parent().unwrap_or(Path::new("/"));
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(&script_path)
        .current_dir(sandbox.work())
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0);
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("SIGNPREP_") {
            cmd.env_remove(k);
        }
    }
    cmd.env(
        "PATH",
        std::env::join_paths(paths).map_err(|e| e.to_string())?,
    )
    .env("HOME", sandbox.root.join("home"))
    .env("XDG_CACHE_HOME", sandbox.root.join("home/.cache"))
    .env("TZ", "UTC")
    .env("NO_COLOR", "1");
    let mut child = cmd.spawn().map_err(|e| format!("bash: {e}"))?;
    let start = Instant::now();
    let mut timed_out = None;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                timed_out = Some(format!("the block was stopped after {} s", limit.as_secs()));
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
    // The shell's group: the shell itself (when stopped) and what it left behind.
    let _ = std::process::Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stderr(Stdio::null())
        .status();
    let _ = child.wait();
    let text =
        String::from_utf8_lossy(&std::fs::read(&out_path).map_err(|e| e.to_string())?).into_owned();
    Ok((split(&text, &mark, commands.len()), timed_out))
}

/// Each command's part of the block's output, by the marks around it.
fn split(text: &str, mark: &str, count: usize) -> Vec<Ran> {
    (0..count)
        .map(|i| {
            let begin = format!("{mark} begin {i}\n");
            let Some(at) = text.find(&begin) else {
                return Ran::NotRun;
            };
            let rest = &text[at + begin.len()..];
            let end = format!("\n{mark} end {i} ");
            match rest.find(&end) {
                Some(e) => {
                    let code = rest[e + end.len()..]
                        .lines()
                        .next()
                        .and_then(|c| c.trim().parse().ok())
                        .unwrap_or(-1);
                    Ran::Done {
                        code,
                        output: rest[..e].to_string(),
                    }
                }
                None => Ran::Unfinished {
                    output: rest.to_string(),
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_cut_at_the_marks() {
        let text =
            "M begin 0\nhello\n\nM end 0 0\nM begin 1\nno newline\nM end 1 3\nM begin 2\npartial";
        let ran = split(text, "M", 4);
        assert!(
            matches!(&ran[0], Ran::Done { code: 0, output } if output == "hello\n"),
            "{ran:?}"
        );
        assert!(
            matches!(&ran[1], Ran::Done { code: 3, output } if output == "no newline"),
            "{ran:?}"
        );
        assert!(
            matches!(&ran[2], Ran::Unfinished { output } if output == "partial"),
            "{ran:?}"
        );
        assert!(matches!(&ran[3], Ran::NotRun), "{ran:?}");
    }
}
