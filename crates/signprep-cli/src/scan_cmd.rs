//! `signprep scan`: the batch pipeline (see [`crate::batch`]) with a scan per file.

use crate::args::{Format, ScanArgs};
use crate::batch::{Command, Ended, Gather, Input, Progress, Runner, Source, Summary, Tally};
use crate::exit::ExitStatus;
use crate::output::{Render, Writer};
use crate::templates::Templates;
use signprep_core::batch::{PdfSource, scan_source};
use signprep_core::{ErrorInfo, FileErrorCode, LoadOptions, Record, Scanner};
use signprep_pack::TypeMap;
use signprep_template::Format as TemplateFormat;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

pub fn run(args: &ScanArgs) -> ExitStatus {
    let format = args.format.unwrap_or(if std::io::stdout().is_terminal() {
        Format::Table
    } else {
        Format::Ndjson
    });
    let mut scanner = Scanner::new()
        .dpi(args.dpi)
        .apply_user_unit(!args.ignore_user_unit)
        .fields(!args.no_fields)
        .dialects(args.dialect);
    if let Some(w) = args.page_width {
        scanner = scanner.page_width(w);
    }
    match args.anchors.load(args.batch.quiet) {
        Ok(Some(file)) => scanner = scanner.anchors(file.anchors),
        Ok(None) => {}
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    }
    let options = args.batch.load_options();
    let mut type_map = TypeMap::new();
    for rule in &args.type_map {
        if let Err(e) = type_map.add(rule) {
            return crate::exit::fail(&format!("--type-map: {e}"), ExitStatus::Error);
        }
    }
    let type_map = Arc::new(args.data_fields.then_some(type_map));
    let runner = match Runner::new(args.jobs, &options) {
        Ok(r) => r,
        Err(status) => return status,
    };
    let gather = Gather::batch(&args.batch, runner.threads());
    let templates = Arc::new(Templates::new(&args.convert));
    if Templates::expected(&args.paths, &args.batch.kinds.types) {
        if let Err(e) = templates.require() {
            return crate::exit::fail(&e, ExitStatus::Error);
        }
        // Templates converted ahead, several per LibreOffice process (starting it is most
        // of a conversion's time); the workers then find their PDFs in the cache. Not for
        // a list read as the run goes (`--files-from -`): each is converted in its turn.
        if args.batch.files_from.as_deref() != Some(Path::new("-"))
            && let Ok(all) = Source::open(&args.paths, &gather)
        {
            {
                let paths: Vec<PathBuf> = all
                    .filter_map(|i| match i {
                        Input::File(p) => Some(p),
                        _ => None,
                    })
                    .collect();
                templates.prepare(&paths);
            }
        }
    }
    let source = match Source::open(&args.paths, &gather) {
        Ok(s) => s,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    if source.total.is_some() && source.found() == 0 && !args.batch.allow_empty {
        return crate::exit::fail(
            &crate::batch::source::nothing_found(&args.paths, &args.batch),
            ExitStatus::Error,
        );
    }
    let skipped = source.skipped_counter();
    let found = source.found_counter();
    let stderr_is_terminal = std::io::stderr().is_terminal();
    let quiet = args.batch.quiet;
    let progress = Progress::new(
        stderr_is_terminal && !quiet,
        source.total,
        std::io::stdout().is_terminal(),
    );
    let render = Render::new(format).fields_read(!args.no_fields);
    let mut writer = Writer::new(format).summary_record(!args.batch.no_summary);
    let mut summary = Summary::new(Command::Scan);
    summary.fields_skipped = args.no_fields;
    let start = Instant::now();

    let worker_type_map = Arc::clone(&type_map);
    // Each worker scans, renders and tallies its file and drops the record:
    // this thread only writes bytes in input order.
    let work = move |input: &Input, waiting: usize| {
        // Files are the unit of parallelism while others wait for a worker;
        // the pages of one file are spread over the threads only when none
        // does (a batch's last files, a single file). Nested, the pages of
        // one file drew the other workers away from the files waiting
        // (rayon steals from a busy worker before it takes new work): 1.75x
        // instead of 1.91x on two cores, and a third more peak memory.
        let spread = waiting == 0;
        let r = match input {
            Input::Stdin => scan_stdin(&options, &scanner, spread),
            Input::File(p) => match TemplateFormat::from_path(p) {
                Some(format) => templates.scan(p, format, &options, &scanner),
                None => scan_source(&PdfSource::path(p), &options, &scanner, spread),
            },
            Input::Missing(p, e) => Record::from_result(
                input_name(p),
                Err(signprep_core::Error::from(std::io::Error::new(
                    e.kind(),
                    signprep_core::io_reason(e),
                ))),
            ),
        };
        Rendered::of(&r, &render, worker_type_map.as_ref().as_ref())
    };
    // Largest files first (output order is kept): a long file admitted late
    // must not become a serial tail at the end of the batch.
    let weight = Input::size;
    let ended = runner.run(source, weight, work, progress, |input, result, progress| {
        let done = result.unwrap_or_else(|e| {
            let r = Record::from_result(input_name(input.path()), Err(e));
            Rendered::of(&r, &render, type_map.as_ref().as_ref())
        });
        match input {
            Input::Missing(p, e) => {
                let tally = done.tally.clone().unreadable(format!(
                    "cannot read {}: {}",
                    p.display(),
                    signprep_core::io_reason(e)
                ));
                summary.file(&tally);
            }
            Input::File(_) | Input::Stdin => summary.file(&done.tally),
        }
        progress.file(done.tally.pages, done.tally.findings());
        let bytes = done.bytes?;
        progress.around_output(|| writer.write(&bytes))
    });
    summary.interrupted = match ended {
        Ok(ended) => ended == Ended::Interrupted,
        Err(status) => return status,
    };
    if found.load(std::sync::atomic::Ordering::Relaxed) == 0 && !args.batch.allow_empty {
        return crate::exit::fail(
            &crate::batch::source::nothing_found(&args.paths, &args.batch),
            ExitStatus::Error,
        );
    }
    summary.elapsed = start.elapsed().as_secs_f64();
    summary.skipped_done = skipped.load(std::sync::atomic::Ordering::Relaxed);
    summary.timing = args.batch.timing;
    if let Err(e) = writer.finish(&summary) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return ExitStatus::Success;
        }
        return crate::exit::fail(&format!("cannot write output: {e}"), ExitStatus::Error);
    }
    if !quiet && (format == Format::Table || stderr_is_terminal) {
        eprintln!("{}", summary.scan_line());
    }
    summary.finish()
}

/// A record as the writer's thread needs it: its bytes and its counts.
struct Rendered {
    tally: Tally,
    bytes: std::io::Result<Vec<u8>>,
}

impl Rendered {
    fn of(r: &Record, render: &Render, type_map: Option<&TypeMap>) -> Rendered {
        let data_fields = type_map.map(|m| signprep_pack::data_fields(&r.scan, m));
        Rendered {
            tally: Tally::of(r),
            bytes: render.record(r, data_fields.as_deref()),
        }
    }
}

fn input_name(path: &std::path::Path) -> String {
    path.display().to_string()
}

fn error_record(path: &std::path::Path, code: FileErrorCode, message: String) -> Record {
    Record::failed(path.display().to_string(), ErrorInfo::new(code, message))
}

/// The PDF on standard input (`-` among the paths), as record `-`.
fn scan_stdin(options: &LoadOptions, scanner: &Scanner, spread: bool) -> Record {
    match crate::inputs::read_input(std::path::Path::new("-")) {
        Ok(bytes) => scan_source(&PdfSource::bytes("-", bytes), options, scanner, spread),
        Err(e) => error_record(
            std::path::Path::new("-"),
            FileErrorCode::IoError,
            format!(
                "cannot read standard input: {}",
                signprep_core::io_reason(&e)
            ),
        ),
    }
}
