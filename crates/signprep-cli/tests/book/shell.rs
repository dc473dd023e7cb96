//! What a shown-but-not-run command is, for the ```sh rule: its program and
//! subcommand (`pip install`, `maturin build`, `cargo install`), whatever paths,
//! flags and variables the page or CI gives it.
//!
//! A page shows `pip install dist/signprep-*.whl`; `.ci/python` runs
//! `"$py" -m pip install -q --force-reinstall --no-deps "$wheel"`: the same
//! command, with CI's own paths. Both are `(pip, install)`: the page's command
//! is one CI runs. A page command whose program CI never runs with that
//! subcommand is refused.

/// Shell words that change the shell, not run a program: free on a page.
const BUILTINS: &[&str] = &[".", "source", "cd", "export", "mkdir", "echo", "set"];

/// `(program, subcommand)` of each command on a line (split at `&&`, `||`,
/// `|` and `;`; environment assignments and builtins skipped). The program is
/// the file name of the first word (`"$venv/bin/maturin"` is `maturin`);
/// `X -m MODULE` runs MODULE (`python3 -m pip`: `pip`); the subcommand is the
/// first later word that is a plain lower-case word (`install`, `build`),
/// `None` when there is none (`python3 -m venv .venv`).
pub fn signatures(line: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let line = line.split(" #").next().unwrap_or(line);
    for part in line.split("&&").flat_map(|p| p.split("||")) {
        for cmd in part.split(['|', ';']) {
            let mut words = cmd
                .split_whitespace()
                .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
                .skip_while(|w| w.contains('=') && !w.starts_with('-'));
            let Some(first) = words.next() else { continue };
            // A builtin, or the flags of a command continued from the line before.
            if BUILTINS.contains(&first) || first.starts_with('-') {
                continue;
            }
            let mut program = first.rsplit('/').next().unwrap_or(first).to_string();
            let rest: Vec<&str> = words.collect();
            let mut rest = rest.as_slice();
            if let ["-m", module, tail @ ..] = rest {
                program = (*module).to_string();
                rest = tail;
            }
            let sub = rest
                .iter()
                .find(|w| !w.starts_with('-'))
                .filter(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
                .map(|w| (*w).to_string());
            out.push((program, sub));
        }
    }
    out
}

/// The commands of `line` that no line of `held` runs.
pub fn unheld(line: &str, held: &str) -> Vec<String> {
    let runs: Vec<(String, Option<String>)> = held
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .flat_map(signatures)
        .collect();
    signatures(line)
        .into_iter()
        .filter(|s| !runs.contains(s))
        .map(|(p, s)| match s {
            Some(s) => format!("{p} {s}"),
            None => p,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(p: &str, s: Option<&str>) -> (String, Option<String>) {
        (p.to_string(), s.map(str::to_string))
    }

    #[test]
    fn a_command_is_its_program_and_subcommand() {
        assert_eq!(
            signatures("\"$py\" -m pip install -q --force-reinstall --no-deps \"$wheel\""),
            [sig("pip", Some("install"))]
        );
        assert_eq!(
            signatures("python3 -m venv .venv && . .venv/bin/activate"),
            [sig("venv", None)]
        );
        assert_eq!(
            signatures("\"$venv/bin/maturin\" build --release --locked --zig --quiet \\"),
            [sig("maturin", Some("build"))]
        );
        assert_eq!(
            signatures("FOO=1 cargo install --path crates/signprep-cli --locked # the CLI"),
            [sig("cargo", Some("install"))]
        );
        assert_eq!(
            signatures("cargo run -p signprep-cli -- scan x | tail -1"),
            [sig("cargo", Some("run")), sig("tail", None)]
        );
    }

    #[test]
    fn a_command_ci_does_not_run_is_named() {
        let ci = "\"$py\" -m pip install -q maturin\n# maturin develop is not run\n";
        assert_eq!(
            unheld("pip install dist/signprep-*.whl", ci),
            Vec::<String>::new()
        );
        assert_eq!(
            unheld("maturin develop -m crates/signprep-py/Cargo.toml", ci),
            ["maturin develop"]
        );
    }
}
