//! `signprep check [PATH]...`: every pre-flight rule over PDFs, request bodies
//! and manifests.

use crate::args::{CheckArgs, CheckFormat, Deny};
use crate::batch::walk::WalkOptions;
use crate::batch::{Command, Ended, Gather, Input, Progress, Runner, Source, Summary};
use crate::check::record::Record;
use crate::check::write::Writer;
use crate::exit::ExitStatus;
use crate::templates::Templates;
use signprep_core::LoadOptions;
use signprep_pack::{Checker, InputKind, read_template};
use signprep_template::Format as TemplateFormat;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

/// Exit status: 0 clean, 1 error-level findings (or warnings with `--deny
/// warnings`; an input that panicked or that the watchdog gave up on counts
/// as one), 2 usage or I/O failure, 130 interrupted.
///
/// Inputs run on the batch engine ([`crate::batch::Stream`], as `scan`'s do):
/// records in input order whatever `--jobs` is, the largest file started
/// first, a watchdog behind the time budget (`--timeout-per-file`, as
/// `scan`'s), Ctrl-C between two records, a panic on one input reported as
/// its `internal_error` record.
pub fn run(args: &CheckArgs) -> ExitStatus {
    let format = args.format.unwrap_or(if std::io::stdout().is_terminal() {
        CheckFormat::Human
    } else {
        CheckFormat::Ndjson
    });
    let mut options = LoadOptions::default();
    if let Some(t) = args.timeout_per_file {
        options.time_budget = (!t.is_zero()).then_some(t);
    }
    let mut checker = Checker::new()
        .payload_limit(args.max_payload)
        .load_options(options.clone());
    for t in &args.templates {
        match std::fs::read_to_string(t)
            .map_err(|e| e.to_string())
            .and_then(|text| read_template(&text).map_err(|e| e.to_string()))
        {
            Ok(doc) => checker = checker.template(doc),
            Err(e) => {
                return crate::exit::fail(
                    &format!("--template {}: {e}", t.display()),
                    ExitStatus::Error,
                );
            }
        }
    }
    // The watchdog stands behind the time budget of the checker's PDFs.
    let runner = match Runner::new(args.jobs, &options) {
        Ok(r) => r,
        Err(status) => return status,
    };
    let paths = if args.paths.is_empty() && args.files_from.is_none() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    // PDFs, request bodies and manifests; a list on standard input is read
    // as the run goes, so the first record is written before it ends.
    let how = Gather {
        walk: WalkOptions {
            bodies: true,
            types: args.kinds.extensions(),
            ..WalkOptions::default()
        },
        files_from: args.files_from.clone(),
        ..Gather::default()
    };
    let items = match Source::open(&paths, &how) {
        Ok(items) => items,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    let kind = args.kind;
    let mut writer = Writer::new(format, std::io::stdout());
    let mut summary = Summary::new(Command::Check {
        deny_warnings: args.deny == Some(Deny::Warnings),
    });
    let stderr_is_terminal = std::io::stderr().is_terminal();
    let progress = Progress::new(
        stderr_is_terminal && items.total.is_none_or(|n| n > 1),
        items.total,
        std::io::stdout().is_terminal(),
    )
    .without_pages();
    // The first input skipped as `kind_unknown`, and why: named when it is
    // the only input.
    let mut first_skipped: Option<(String, String)> = None;
    let templates = Templates::new(&args.convert);
    // A manifest's `.docx` and `.odt` children too (LibreOffice looked for when one comes).
    let checker = checker.converter(Some(templates.lazy()));
    if Templates::expected(&paths, &args.kinds.types)
        && let Err(e) = templates.require()
    {
        return crate::exit::fail(&e, ExitStatus::Error);
    }
    let work = move |item: &Input, _waiting: usize| match item {
        Input::File(path) if let Some(format) = TemplateFormat::from_path(path) => {
            check_template(&checker, &templates, path, format, &options)
        }
        _ => check_one(&checker, item, kind),
    };
    // Largest files first (output order is kept).
    let ended = runner.run(
        items,
        Input::size,
        work,
        progress,
        |item, result, progress| {
            let r = result
                .unwrap_or_else(|e| Record::from_error(item.path().display().to_string(), &e));
            summary.file(&r.tally());
            if r.is_skipped() {
                // The bar counts what is checked.
                progress.skipped();
                if first_skipped.is_none() {
                    let why = r.findings.first().map(|l| l.finding.message.clone());
                    first_skipped = Some((r.path.clone(), why.unwrap_or_default()));
                }
            } else {
                progress.file(0, r.findings.len());
            }
            progress.around_output(|| writer.record(&r))
        },
    );
    summary.interrupted = match ended {
        Ok(ended) => ended == Ended::Interrupted,
        Err(status) => return status,
    };
    if summary.files == 0 && !summary.interrupted && !args.allow_empty {
        return crate::exit::fail(
            &nothing_to_check(
                &paths,
                args.files_from.as_deref(),
                summary.skipped,
                first_skipped,
            ),
            ExitStatus::Error,
        );
    }
    if let Err(e) = writer.finish(&summary)
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return crate::exit::fail(&format!("cannot write output: {e}"), ExitStatus::Error);
    }
    if format != CheckFormat::Human && stderr_is_terminal {
        eprintln!("{}", summary.check_line());
    }
    summary.finish()
}

/// Why a run with no input fails; `first_skipped`, the first input skipped
/// as `kind_unknown` and why, is named when it was the only one.
fn nothing_to_check(
    paths: &[PathBuf],
    files_from: Option<&Path>,
    skipped: usize,
    first_skipped: Option<(String, String)>,
) -> String {
    if skipped == 1
        && paths.len() == 1
        && files_from.is_none()
        && let Some((path, why)) = first_skipped
    {
        return if why.starts_with("it is empty") {
            format!("nothing to check: {path} is empty")
        } else {
            format!("nothing to check: {path}: {why}")
        };
    }
    let mut parts = Vec::new();
    if !paths.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        parts.push(format!(
            "no PDF, request body or manifest in {}",
            shown.join(", ")
        ));
    }
    if let Some(list) = files_from {
        parts.push(format!("--files-from {} lists no file", list.display()));
    }
    let mut s = format!("nothing to check: {}", parts.join(", and "));
    if skipped > 0 {
        s.push_str(&format!(
            " ({} of unknown kind skipped)",
            crate::text::plural(skipped, "file")
        ));
    }
    s.push_str("; pass --allow-empty if that is fine");
    s
}

/// One input's record: checked, failed (`io_error`), or skipped with a
/// `kind_unknown` note when its kind could not be told (named or found in a
/// folder alike: a `Cargo.toml` given by a pre-commit hook does not fail the
/// run; a run that checks nothing at all does).
fn check_one(checker: &Checker, item: &Input, kind: Option<InputKind>) -> Record {
    let (path, bytes) = match item {
        Input::Missing(p, e) => return Record::unreadable(p.display().to_string(), e),
        Input::Stdin => {
            let mut buf = Vec::new();
            if let Err(e) = std::io::stdin().lock().read_to_end(&mut buf) {
                return Record::stdin_unreadable(&e);
            }
            (PathBuf::from("-"), buf)
        }
        Input::File(path) => match std::fs::read(path) {
            Ok(b) => (path.clone(), b),
            Err(e) => return Record::unreadable(path.display().to_string(), &e),
        },
    };
    check_bytes(checker, &path, &bytes, kind)
}

/// The record of one input already read, named `path` in the record (and
/// its relative paths read from that file's folder). `signprep serve`
/// checks its request bodies with it too, so both give the same record.
pub fn check_bytes(
    checker: &Checker,
    path: &Path,
    bytes: &[u8],
    kind: Option<InputKind>,
) -> Record {
    let shown = path.display().to_string();
    signprep_core::batch::test_hook(&shown);
    Record::checked(shown, checker.check_bytes(bytes, path, kind))
}

/// A template (`.docx`, `.odt`): converted and checked as the PDF it becomes
/// ([`crate::templates::check_scanned`]).
fn check_template(
    checker: &Checker,
    templates: &Templates,
    path: &Path,
    format: TemplateFormat,
    options: &LoadOptions,
) -> Record {
    let scanned = templates.scanned(path, format, options, &signprep_core::Scanner::new());
    crate::templates::check_scanned(checker, path, scanned)
}
