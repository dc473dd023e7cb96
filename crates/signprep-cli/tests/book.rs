//! The guide (`docs/src`, built by mdBook) and the README say nothing that is not run.
//!
//! - Every ```console block is run (crates/signprep-cli/tests/book/runner.rs): `$ `
//!   lines are commands, each must exit 0, and the lines under a command are its
//!   output (`...` any lines, `[..]` any text in a line; none: not compared). Each
//!   page gets a fresh copy of `testdata/` as its working folder; its blocks run in
//!   order there. ```console,soffice blocks need LibreOffice: run by
//!   `soffice_book_examples` (ignored in a plain `cargo test`, run by CI).
//! - Every ```sh block (installs, builds: not runnable here) starts with
//!   `# run by FILE`, and FILE, which CI runs, runs each of its commands: the same
//!   program and subcommand (`pip install`, `maturin build`), with CI's own paths
//!   and flags (crates/signprep-cli/tests/book/shell.rs).
//! - No other fence shows commands (```bash, ```shell, a block starting `$ `).
//! - The README is held to the same rules, and its relative links name files.
//! - SUMMARY.md lists every page and every page it lists exists; every
//!   `{{#include}}` names a file.
//! - Every subcommand's `--help` ends with `Guide: docs/book/PAGE.html (source:
//!   docs/src/PAGE.md)`, a page that exists.
//!
//! Every failure is collected and reported with its page and line, not only the first.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "book/markdown.rs"]
mod markdown;
#[path = "book/matcher.rs"]
mod matcher;
#[path = "book/runner.rs"]
mod runner;
#[path = "book/shell.rs"]
mod shell;

use markdown::{Block, Kind};
use runner::{Ran, Sandbox};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The longest a block may run (a server started and queried included).
const BLOCK_LIMIT: Duration = Duration::from_secs(300);

/// The guide's pages: `(path from the root, text)`, README.md left out.
fn pages() -> Vec<(String, String)> {
    let pages: Vec<(String, String)> = common::guide()
        .into_iter()
        .filter(|(p, _)| p.starts_with("docs/src/"))
        .collect();
    assert!(
        pages.len() > 10,
        "only {} pages under docs/src",
        pages.len()
    );
    pages
}

/// Every block of the README and of every page, with a failure for each page whose
/// fences do not parse. The README's commands are run and checked as the pages' are.
fn all_blocks(failures: &mut Vec<String>) -> Vec<(String, Vec<Block>)> {
    let mut out = Vec::new();
    for (page, text) in common::guide() {
        match markdown::blocks(&text) {
            Ok(b) => out.push((page, b)),
            Err(e) => failures.push(format!("{page}: {e}")),
        }
    }
    out
}

fn report(what: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} {what}:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The console blocks of a page that this run takes (`soffice` ones or the others).
fn console_blocks(blocks: &[Block], soffice: bool) -> Vec<&Block> {
    blocks
        .iter()
        .filter(|b| markdown::kind(b) == Kind::Console { soffice })
        .collect()
}

/// Runs the console blocks of every page (pages in parallel, blocks in order);
/// returns the failures and how many commands ran.
fn run_pages(soffice: bool) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let pages: Vec<(String, Vec<Block>)> = all_blocks(&mut failures)
        .into_iter()
        .filter(|(_, b)| !console_blocks(b, soffice).is_empty())
        .filter(|(page, _)| chosen(page))
        .collect();
    let root = common::root();
    let signprep = PathBuf::from(env!("CARGO_BIN_EXE_signprep"));
    let found = Mutex::new((failures, 0usize));
    let next = Mutex::new(0usize);
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 6);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some((page, blocks)) = pages.get(i) else {
                        break;
                    };
                    let (f, ran) =
                        run_page(&root, &signprep, page, &console_blocks(blocks, soffice));
                    let mut found = found.lock().unwrap();
                    found.0.extend(f);
                    found.1 += ran;
                }
            });
        }
    });
    let (mut failures, ran) = found.into_inner().unwrap();
    failures.sort();
    (failures, ran)
}

/// Runs one page's blocks in its own sandbox: its failures and how many commands ran.
fn run_page(root: &Path, signprep: &Path, page: &str, blocks: &[&Block]) -> (Vec<String>, usize) {
    let slug: String = page
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    // Unique within the process too: two tests may run the same page at once.
    static SANDBOXES: AtomicUsize = AtomicUsize::new(0);
    let n = SANDBOXES.fetch_add(1, Ordering::Relaxed);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("book-{}-{n}-{slug}", std::process::id()));
    let sandbox = match Sandbox::new(dir, root) {
        Ok(s) => s,
        Err(e) => return (vec![format!("{page}: no sandbox: {e}")], 0),
    };
    let mut failures = Vec::new();
    let mut ran = 0;
    for block in blocks {
        let commands = match markdown::commands(block) {
            Ok(c) if c.is_empty() => {
                failures.push(format!(
                    "{page}:{}: a console block without a `$ ` command",
                    block.line
                ));
                continue;
            }
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{page}: {e}"));
                continue;
            }
        };
        if let Some(c) = commands.iter().find(|c| c.text.contains("{{#")) {
            failures.push(format!(
                "{page}:{}: an mdBook include in a console block (the test would not see what readers see)",
                c.line
            ));
            continue;
        }
        let (results, stopped) = match runner::run_block(&sandbox, signprep, &commands, BLOCK_LIMIT)
        {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!(
                    "{page}:{}: the block could not run: {e}",
                    block.line
                ));
                continue;
            }
        };
        for (c, r) in commands.iter().zip(&results) {
            let head = format!("{page}:{}: $ {}", c.line, c.text.replace('\n', "\n    "));
            match r {
                Ran::NotRun => {}
                Ran::Unfinished { output } => failures.push(format!(
                    "{head}\n  did not finish ({}); its output:\n{}",
                    stopped.as_deref().unwrap_or("the shell ended inside it"),
                    indent(output)
                )),
                Ran::Done { code, output } => {
                    ran += 1;
                    let actual: Vec<&str> = output.lines().collect();
                    let mut actual_trimmed = actual.as_slice();
                    while actual_trimmed.last().is_some_and(|l| l.trim().is_empty()) {
                        actual_trimmed = &actual_trimmed[..actual_trimmed.len() - 1];
                    }
                    let matched =
                        c.expected.is_empty() || matcher::lines_match(&c.expected, actual_trimmed);
                    if *code != 0 {
                        failures.push(format!(
                            "{head}\n  exit code {code}, not 0 (show a failing exit as `CMD; echo \"exit $?\"`); its output:\n{}",
                            indent(output)
                        ));
                    } else if !matched {
                        failures.push(format!(
                            "{head}\n  exit code 0; the output differs (- expected, + actual):\n{}",
                            matcher::diff(&c.expected, actual_trimmed)
                        ));
                    }
                }
            }
        }
    }
    (failures, ran)
}

fn indent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let skip = lines.len().saturating_sub(60);
    let mut out = String::new();
    if skip > 0 {
        out.push_str(&format!("    ({skip} lines before these)\n"));
    }
    for l in &lines[skip..] {
        out.push_str(&format!("    {l}\n"));
    }
    out
}

/// `BOOK_PAGES=server,migrate/` runs only the pages whose path holds one of the words
/// (while writing a page); unset, every page.
fn chosen(page: &str) -> bool {
    std::env::var("BOOK_PAGES").map_or(true, |words| {
        words.split(',').any(|w| !w.is_empty() && page.contains(w))
    })
}

#[test]
fn book_examples() {
    let (failures, ran) = run_pages(false);
    report("console commands of docs/src failed", &failures);
    let least = if std::env::var_os("BOOK_PAGES").is_some() {
        1
    } else {
        20
    };
    assert!(ran >= least, "only {ran} console commands ran in docs/src");
}

/// The ```console,soffice blocks: needs LibreOffice (CI: `--ignored soffice_`);
/// fails, never skips, without it.
#[test]
#[ignore = "needs LibreOffice: run by CI with --ignored soffice_"]
fn soffice_book_examples() {
    common::soffice_required("the guide's ```console,soffice blocks");
    let (failures, ran) = run_pages(true);
    report("console,soffice commands of docs/src failed", &failures);
    assert!(ran > 0, "no ```console,soffice command in docs/src");
}

/// `# run by FILE`, then commands each of which FILE runs (its program and
/// subcommand: `shell::signatures`).
fn check_sh(root: &Path, page: &str, block: &Block) -> Vec<String> {
    let mut lines = block.lines.iter().filter(|(_, l)| !l.trim().is_empty());
    let Some((n, first)) = lines.next() else {
        return vec![format!("{page}:{}: an empty ```sh block", block.line)];
    };
    let Some(file) = first.trim().strip_prefix("# run by ") else {
        return vec![format!(
            "{page}:{n}: a ```sh block starts with `# run by FILE` (the repository file CI runs that runs its commands), not `{first}`"
        )];
    };
    let file = file.trim();
    let Ok(text) = std::fs::read_to_string(root.join(file)) else {
        return vec![format!(
            "{page}:{n}: `# run by {file}`: no such file in the repository"
        )];
    };
    let mut failures = Vec::new();
    let mut commands = 0;
    for (n, l) in lines.filter(|(_, l)| !l.trim().starts_with('#')) {
        commands += shell::signatures(l).len();
        for cmd in shell::unheld(l.trim(), &text) {
            failures.push(format!(
                "{page}:{n}: `{cmd}` (in `{}`) is run by no line of {file} (a ```sh command must be one CI runs)",
                l.trim()
            ));
        }
    }
    if commands == 0 {
        failures.push(format!("{page}:{n}: a ```sh block with no command"));
    }
    failures
}

#[test]
fn fences_show_only_commands_that_run() {
    let root = common::root();
    let mut failures = Vec::new();
    let mut counts = [0usize; 3];
    for (page, blocks) in all_blocks(&mut failures) {
        for block in &blocks {
            match markdown::kind(block) {
                Kind::Console { .. } => {
                    counts[0] += 1;
                    if let Err(e) = markdown::commands(block) {
                        failures.push(format!("{page}: {e}"));
                    }
                }
                Kind::Sh => {
                    counts[1] += 1;
                    failures.extend(check_sh(&root, &page, block));
                }
                Kind::Refused(why) => failures.push(format!("{page}:{}: {why}", block.line)),
                Kind::File => counts[2] += 1,
            }
        }
    }
    report("blocks of docs/src break the rules", &failures);
    assert!(
        counts[0] > 5,
        "only {} console blocks in docs/src",
        counts[0]
    );
}

/// The targets of the Markdown links of `text` (`[x](TARGET)`), with their lines.
fn link_targets(summary: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in summary.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((i + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn summary_lists_every_page_and_every_entry_exists() {
    let src = common::root().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let entries = link_targets(&summary);
    let mut failures = Vec::new();
    for (n, e) in &entries {
        if e.is_empty() {
            failures.push(format!(
                "docs/src/SUMMARY.md:{n}: a draft chapter (no file): give it a page"
            ));
        } else if !src.join(e).is_file() {
            failures.push(format!("docs/src/SUMMARY.md:{n}: `{e}` does not exist"));
        }
    }
    for (page, _) in pages() {
        let rel = page.strip_prefix("docs/src/").unwrap_or(&page);
        if rel != "SUMMARY.md" && !entries.iter().any(|(_, e)| e == rel) {
            failures.push(format!(
                "{page}: not in SUMMARY.md (mdBook would not build it)"
            ));
        }
    }
    report("SUMMARY.md problems", &failures);
    assert!(
        entries.len() > 10,
        "only {} entries in SUMMARY.md",
        entries.len()
    );
}

#[test]
fn every_include_names_a_file() {
    let root = common::root();
    let mut failures = Vec::new();
    for (page, text) in pages() {
        let dir = root.join(&page).parent().unwrap().to_path_buf();
        for (i, line) in text.lines().enumerate() {
            for part in line.split("{{#").skip(1) {
                let Some(body) = part.split("}}").next() else {
                    continue;
                };
                let mut words = body.split_whitespace();
                let (Some(what), Some(arg)) = (words.next(), words.next()) else {
                    continue;
                };
                if !["include", "rustdoc_include"].contains(&what) {
                    continue;
                }
                let file = arg.split(':').next().unwrap_or(arg);
                if !dir.join(file).is_file() {
                    failures.push(format!(
                        "{page}:{}: {{{{#{what} {arg}}}}}: no file {file}",
                        i + 1
                    ));
                }
            }
        }
    }
    report("includes name no file", &failures);
}

/// The subcommands `signprep --help` lists (`help` left out).
fn subcommands() -> Vec<String> {
    let help = common::run(&["--help"]);
    let text = String::from_utf8(help.stdout).unwrap();
    let list: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(list.len() >= 8, "subcommands read from --help: {list:?}");
    list
}

#[test]
fn every_subcommands_help_names_its_guide_page() {
    let root = common::root();
    let mut failures = Vec::new();
    for sub in subcommands() {
        let out = common::run(&[&sub, "--help"]);
        let text = String::from_utf8(out.stdout).unwrap();
        let Some(line) = text.lines().rev().find(|l| !l.trim().is_empty()) else {
            failures.push(format!("signprep {sub} --help printed nothing"));
            continue;
        };
        let Some(rest) = line.trim().strip_prefix("Guide: docs/book/") else {
            failures.push(format!(
                "signprep {sub} --help: the last line is not `Guide: ...`: {line}"
            ));
            continue;
        };
        let Some((html, source)) = rest.split_once(".html (source: docs/src/") else {
            failures.push(format!("signprep {sub} --help: {line}"));
            continue;
        };
        let md = source.strip_suffix(".md)").unwrap_or(source);
        if html != md {
            failures.push(format!(
                "signprep {sub} --help: the page and its source differ: {line}"
            ));
        }
        if !root.join(format!("docs/src/{md}.md")).is_file() {
            failures.push(format!(
                "signprep {sub} --help: docs/src/{md}.md does not exist: {line}"
            ));
        }
        // `-h` says it too.
        let short = String::from_utf8(common::run(&[&sub, "-h"]).stdout).unwrap();
        if !short.contains(line.trim()) {
            failures.push(format!("signprep {sub} -h lacks `{}`", line.trim()));
        }
    }
    report("subcommands' help names no guide page", &failures);
}

/// The runner on a page made here: a wrong output and a failing exit are reported
/// with page, line, command and diff; what follows a failing command is not run;
/// the next block runs in the same folder; a server left running is stopped.
#[test]
fn the_runner_reports_each_failure_with_its_page_and_line() {
    let page = "\
```console
$ echo out; echo err >&2
out
err
$ printf 'a\\nb\\nc\\n'
a
...
$ echo wrong \\
  words
right words
$ echo data > made.txt; false
$ echo never run
```

```console
$ sleep 1000 &
$ cat made.txt; ls testdata | grep -c '^fixtures$'
data
1
$ test \"$HOME\" != \"$PWD\" && test -d \"$XDG_CACHE_HOME\" && signprep --version
signprep [..]
```
";
    let blocks = markdown::blocks(page).unwrap();
    let blocks: Vec<&Block> = blocks.iter().collect();
    let start = std::time::Instant::now();
    let (failures, ran) = run_page(
        &common::root(),
        Path::new(env!("CARGO_BIN_EXE_signprep")),
        "stub.md",
        &blocks,
    );
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "the sleep was not stopped"
    );
    assert_eq!(failures.len(), 2, "{failures:#?}");
    assert_eq!(
        failures[0],
        "stub.md:8: $ echo wrong \\\n      words\n  exit code 0; the output differs (- expected, + actual):\n- right words\n+ wrong words\n"
    );
    assert!(
        failures[1].starts_with("stub.md:11: $ echo data > made.txt; false\n  exit code 1, not 0"),
        "{}",
        failures[1]
    );
    assert_eq!(
        ran, 7,
        "the command after `false` is not run; the second block is"
    );
}

/// The ids mdBook (and GitHub) give the headings of `text`: lower case, spaces to
/// `-`, other punctuation dropped; with the explicit ones (`{#id}`, `id="..."`).
fn heading_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        ids.push(
            title
                .chars()
                .filter_map(|c| match c {
                    c if c.is_alphanumeric() || c == '_' || c == '-' => {
                        Some(c.to_ascii_lowercase())
                    }
                    c if c.is_whitespace() => Some('-'),
                    _ => None,
                })
                .collect(),
        );
    }
    for explicit in text.split("{#").skip(1).chain(text.split("id=\"").skip(1)) {
        if let Some(id) = explicit.split(['}', '"']).next() {
            ids.push(id.to_string());
        }
    }
    ids
}

/// The README's relative links (`[text](docs/src/ci.md#pre-commit)`, `[x](ARCHITECTURE.md)`)
/// name files of the repository, and a fragment of a Markdown file one of its headings: the
/// README is read on GitHub and in the clone, not built. A link into the built book
/// (`docs/book/PAGE.html`) needs its source page, one to a picture (`docs/src/images/X.png`)
/// the script that draws it.
#[test]
fn the_readmes_links_name_files() {
    let root = common::root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let pictures = std::fs::read_to_string(root.join("tools/book-pictures")).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (n, target) in link_targets(&readme) {
        let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        checked += 1;
        let file = if path.is_empty() {
            "README.md".to_string()
        } else if let Some(page) = path
            .strip_prefix("docs/book/")
            .and_then(|p| p.strip_suffix(".html"))
        {
            format!("docs/src/{page}.md")
        } else {
            path.to_string()
        };
        if let Some(name) = file.strip_prefix("docs/src/images/") {
            if !pictures.contains(name) {
                failures.push(format!(
                    "README.md:{n}: ({target}): tools/book-pictures draws no {name}"
                ));
            }
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(&file)) else {
            if !root.join(&file).is_dir() {
                failures.push(format!("README.md:{n}: ({target}) names no file ({file})"));
            }
            continue;
        };
        if !fragment.is_empty()
            && file.ends_with(".md")
            && !heading_ids(&text).iter().any(|id| id == fragment)
        {
            failures.push(format!(
                "README.md:{n}: ({target}): no heading `#{fragment}` in {file}"
            ));
        }
    }
    report("README links name nothing", &failures);
    assert!(checked > 0, "the README links to no page of the guide");
}

#[test]
fn heading_ids_are_mdbooks() {
    let ids =
        heading_ids("# The `pre-commit` hook\n```sh\n# run by x\n```\n## A, B & c_d {#own}\n");
    assert_eq!(ids, ["the-pre-commit-hook", "a-b--c_d-own", "own"]);
}
