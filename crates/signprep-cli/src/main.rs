//! The `signprep` command-line tool.
#![forbid(unsafe_code)]
// The CLI is the one crate that prints.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod inputs;
mod output;
mod scan_cmd;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let code = match cli.command {
        args::Command::Scan(a) => scan_cmd::run(&a),
    };
    ExitCode::from(code)
}
