//! `signprep scan`.

use crate::args::{Format, ScanArgs};
use crate::inputs::{Input, expand};
use crate::output::{Summary, Writer};
use rayon::prelude::*;
use signprep_core::{ErrorInfo, LoadOptions, Record, Scan, Scanner, Status, TypeMap};
use std::io::IsTerminal;

/// Files scanned together before their records are written (bounds memory while
/// keeping output in input order).
const CHUNK: usize = 64;

pub fn run(args: &ScanArgs) -> u8 {
    let format = args.format.unwrap_or(if std::io::stdout().is_terminal() {
        Format::Table
    } else {
        Format::Ndjson
    });
    let mut scanner = Scanner::new()
        .dpi(args.dpi)
        .apply_user_unit(args.apply_user_unit);
    if let Some(w) = args.page_width {
        scanner = scanner.page_width(w);
    }
    let options = LoadOptions::default();
    let mut type_map = TypeMap::new();
    for rule in &args.type_map {
        if let Err(e) = type_map.add(rule) {
            eprintln!("signprep: --type-map: {e}");
            return 2;
        }
    }
    let type_map = args.data_fields.then_some(type_map);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("signprep: cannot start worker threads: {e}");
            return 2;
        }
    };
    let inputs = expand(&args.paths);
    let mut io_failure = inputs.iter().any(|i| matches!(i, Input::Missing(..)));
    let mut writer = Writer::new(format);
    let mut summary = Summary::default();
    let start = std::time::Instant::now();
    for chunk in inputs.chunks(CHUNK) {
        let records: Vec<Record> = pool.install(|| {
            chunk
                .par_iter()
                .map(|input| match input {
                    Input::File(p) => Record::scan_file(p, &options, &scanner),
                    Input::Missing(p, e) => Record {
                        path: p.display().to_string(),
                        status: Status::Error,
                        error: Some(ErrorInfo {
                            code: "io_error".into(),
                            message: format!("cannot read: {e}"),
                        }),
                        scan: Scan::default(),
                    },
                })
                .collect()
        });
        for r in &records {
            summary.add(r);
            let data_fields = type_map.as_ref().map(|m| r.scan.data_fields(m));
            if let Err(e) = writer.record(r, data_fields.as_deref()) {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    return 0;
                }
                eprintln!("signprep: cannot write output: {e}");
                return 2;
            }
        }
    }
    summary.wall_seconds = start.elapsed().as_secs_f64();
    if let Err(e) = writer.finish(&summary)
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("signprep: cannot write output: {e}");
        io_failure = true;
    }
    if format != Format::Table {
        summary.print_stderr_if_terminal();
    }
    if io_failure {
        2
    } else if summary.failures > 0 {
        1
    } else {
        0
    }
}
