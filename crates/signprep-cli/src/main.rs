//! The `signprep` command-line tool.
#![forbid(unsafe_code)]
// The CLI is the one crate that prints.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod anchors_arg;
mod args;
mod atomic;
mod batch;
mod check;
mod check_cmd;
mod completions_cmd;
mod exit;
mod explain_cmd;
mod findings;
mod help;
mod inputs;
mod migrate_cmd;
mod output;
mod pack_cmd;
#[cfg(feature = "render")]
mod preview;
#[cfg(feature = "render")]
mod report_cmd;
#[cfg(feature = "render")]
mod report_html;
mod scan_cmd;
mod schema_cmd;
#[cfg(feature = "serve")]
mod serve;
mod templates;
mod text;

use clap::FromArgMatches;
use clap::error::ErrorKind;
use exit::ExitStatus;
use std::process::ExitCode;

/// jemalloc on Linux: a scan allocates in many small pieces (a key per dictionary entry of
/// every object it parses), where glibc's malloc cost 3-4% more CPU (issue 36; the numbers
/// are in benches/README.md).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let parsed = help::command()
        .try_get_matches()
        .and_then(|m| args::Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e).into(),
    };
    let status = match cli.command {
        args::Command::Scan(a) => scan_cmd::run(&a),
        args::Command::Pack(a) => pack_cmd::run(&a),
        args::Command::Migrate(a) => migrate_cmd::run(&a),
        args::Command::Schema(a) => schema_cmd::run(&a),
        args::Command::Check(a) => check_cmd::run(&a),
        args::Command::Explain(a) => explain_cmd::run(&a),
        args::Command::Completions(a) => completions_cmd::completions(&a),
        args::Command::Man(a) => completions_cmd::man(&a),
        #[cfg(feature = "render")]
        args::Command::Preview(a) => preview::run(&a),
        #[cfg(feature = "render")]
        args::Command::Report(a) => report_cmd::run(&a),
        #[cfg(feature = "serve")]
        args::Command::Serve(a) => serve::run(&a),
    };
    status.into()
}

/// Prints a command-line error with its explanation as the last line
/// (`error: unexpected argument ...`), after clap's usage and tips; help and
/// version go to standard output with status 0.
fn usage_error(e: &clap::Error) -> ExitStatus {
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitStatus::Error
        } else {
            ExitStatus::Success
        };
    }
    let text = e.render().to_string();
    let mut lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| l.starts_with("error:")).map(|i| {
        let mut line = lines.remove(i).to_string();
        // `the following required arguments were not provided:` lists
        // them on the lines below: the last line names them itself.
        if line.ends_with(':') {
            let mut named = Vec::new();
            while lines
                .get(i)
                .is_some_and(|l| l.starts_with("  ") && !l.trim().is_empty())
            {
                named.push(lines.remove(i).trim().to_string());
            }
            if !named.is_empty() {
                line = format!("{line} {}", named.join(", "));
            }
        }
        line
    });
    // clap's closing pointer to --help, then the usage and tips, then the error.
    lines.retain(|l| !l.starts_with("For more information"));
    while lines.first().is_some_and(|l| l.trim().is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    for l in &lines {
        eprintln!("{l}");
    }
    if !lines.is_empty() {
        eprintln!();
    }
    match first {
        Some(line) => eprintln!("{line} (`signprep --help` for more)"),
        None => eprintln!("error: invalid command line (`signprep --help` for more)"),
    }
    ExitStatus::Error
}
