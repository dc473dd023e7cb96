//! `signprep completions SHELL` (clap_complete) and `signprep man` (clap_mangen):
//! both generated from the command line clap parses, examples included.

use crate::args::{CompletionsArgs, ManArgs};
use crate::exit::ExitStatus;
use std::io::Write;

/// Exit status: 0, or 2 when the output cannot be written.
pub fn completions(args: &CompletionsArgs) -> ExitStatus {
    let mut cmd = crate::help::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "signprep", &mut buf);
    print("completions", &buf)
}

/// Exit status: 0, or 2 for an unknown subcommand or an output failure.
pub fn man(args: &ManArgs) -> ExitStatus {
    let cmd = crate::help::command();
    if let Some(dir) = &args.out_dir {
        return match write_pages(&cmd, dir) {
            Ok(()) => ExitStatus::Success,
            Err(e) => crate::exit::fail(&e, ExitStatus::Error),
        };
    }
    let page = match &args.command {
        None => render(cmd.clone()),
        Some(name) => match pages(&cmd)
            .into_iter()
            .find(|(n, _)| *n == format!("signprep-{name}"))
        {
            Some((_, c)) => render(c),
            None => {
                let names: Vec<String> = cmd
                    .get_subcommands()
                    .map(|c| c.get_name().to_string())
                    .collect();
                return crate::exit::fail(
                    &format!("no subcommand `{name}` (one of: {})", names.join(", ")),
                    ExitStatus::Error,
                );
            }
        },
    };
    match page {
        Ok(bytes) => print("man", &bytes),
        Err(e) => crate::exit::fail(
            &format!("cannot write the manual page: {e}"),
            ExitStatus::Error,
        ),
    }
}

/// `signprep-NAME` and its command, for every subcommand (the top-level page
/// lists them; each has its own page, as git's do).
fn pages(cmd: &clap::Command) -> Vec<(String, clap::Command)> {
    cmd.get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(|c| {
            let name = format!("signprep-{}", c.get_name());
            // clap names are `&'static str` (without its `string` feature):
            // a few bytes per page, once, in a process that prints and exits.
            let leaked: &'static str = Box::leak(name.clone().into_boxed_str());
            let sub = c
                .clone()
                .name(leaked)
                .bin_name(format!("signprep {}", c.get_name()));
            (name, sub)
        })
        .collect()
}

fn render(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .source(concat!("signprep ", env!("CARGO_PKG_VERSION")))
        .render(&mut buf)?;
    Ok(buf)
}

/// Every page, each written atomically into `dir`; `Err`: what failed,
/// naming the folder or the page's file.
fn write_pages(cmd: &clap::Command, dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| crate::atomic::cannot_create(dir, &e))?;
    let mut all = vec![("signprep".to_string(), cmd.clone())];
    all.extend(pages(cmd));
    for (name, c) in all {
        let path = dir.join(format!("{name}.1"));
        // Atomic, and with the umask's mode (an existing page keeps its own),
        // as every other output of signprep.
        render(c)
            .and_then(|bytes| crate::atomic::write(&path, &bytes))
            .map_err(|e| crate::atomic::cannot_write(&path, &e))?;
    }
    Ok(())
}

fn print(who: &str, bytes: &[u8]) -> ExitStatus {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => crate::exit::fail(
            &format!("signprep {who}: cannot write output: {e}"),
            ExitStatus::Error,
        ),
    }
}
