//! The `signprep` command-line tool.
#![forbid(unsafe_code)]
// The CLI is the one crate that prints.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod batch;
mod check;
mod check_cmd;
mod explain_cmd;
mod inputs;
mod output;
mod pack_cmd;
#[cfg(feature = "render")]
mod preview_cmd;
#[cfg(feature = "render")]
mod preview_pack;
#[cfg(feature = "render")]
mod report_cmd;
#[cfg(feature = "render")]
mod report_html;
mod scan_cmd;
mod schema_cmd;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let code = match cli.command {
        args::Command::Scan(a) => scan_cmd::run(&a),
        args::Command::Pack(a) => pack_cmd::run(&a),
        args::Command::Schema(a) => schema_cmd::run(&a),
        args::Command::Check(a) => check_cmd::run(&a),
        args::Command::Explain(a) => explain_cmd::run(&a),
        #[cfg(feature = "render")]
        args::Command::Preview(a) => preview_cmd::run(&a),
        #[cfg(feature = "render")]
        args::Command::Report(a) => report_cmd::run(&a),
    };
    ExitCode::from(code)
}

/// The worker pool of a command (`jobs`: threads, 0 or none = all cores); on
/// failure the error is printed with `who` as prefix and `None` returned.
fn worker_pool(jobs: Option<usize>, who: &str) -> Option<rayon::ThreadPool> {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("{who}: cannot start worker threads: {e}");
            None
        }
    }
}
