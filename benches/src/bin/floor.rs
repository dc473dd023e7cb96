//! The floor under any lopdf-based scanner, for `benches/compare.py`: what the
//! same lopdf as `signprep-core` costs before any interpretation.
//!
//! ```text
//! floor --mode inflate|tokenize [--files-from LIST] [FILE]...
//! ```
//!
//! - `inflate`: read the file, `lopdf::Document::load_mem_with_options` (with the
//!   same per-stream bound as signprep), then inflate every page's `/Contents`
//!   streams with `Stream::decompressed_content_with_limit`.
//! - `tokenize`: the same, then `lopdf::content::Content::decode` of each page's
//!   concatenated content (lopdf's own tokenizer, building `Operation` vectors).
//!
//! One thread, files in order. Prints one JSON line:
//! `{"mode":..,"files":..,"pages":..,"failed":..,"bytes":..,"seconds":..,"pages_per_s":..}`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The per-stream bound signprep loads with (`LoadOptions::max_stream_bytes`).
const MAX_STREAM_BYTES: usize = 64 << 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Inflate,
    Tokenize,
}

struct Totals {
    files: usize,
    pages: usize,
    failed: usize,
    bytes: usize,
    operations: usize,
}

fn main() -> ExitCode {
    let mut mode = None;
    let mut files: Vec<PathBuf> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--mode" => {
                mode = match args.next().as_deref() {
                    Some("inflate") => Some(Mode::Inflate),
                    Some("tokenize") => Some(Mode::Tokenize),
                    other => {
                        eprintln!("floor: unknown mode {other:?} (inflate or tokenize)");
                        return ExitCode::from(2);
                    }
                }
            }
            "--files-from" => {
                let Some(list) = args.next() else {
                    eprintln!("floor: --files-from needs a file");
                    return ExitCode::from(2);
                };
                match std::fs::read_to_string(&list) {
                    Ok(text) => files.extend(
                        text.lines()
                            .filter(|l| !l.trim().is_empty())
                            .map(PathBuf::from),
                    ),
                    Err(e) => {
                        eprintln!("floor: {list}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            "-h" | "--help" => {
                println!("floor --mode inflate|tokenize [--files-from LIST] [FILE]...");
                return ExitCode::SUCCESS;
            }
            _ => files.push(PathBuf::from(arg)),
        }
    }
    let Some(mode) = mode else {
        eprintln!("floor: --mode inflate|tokenize is required");
        return ExitCode::from(2);
    };

    let started = Instant::now();
    let mut totals = Totals {
        files: 0,
        pages: 0,
        failed: 0,
        bytes: 0,
        operations: 0,
    };
    for path in &files {
        totals.files += 1;
        if !one_file(path, mode, &mut totals) {
            totals.failed += 1;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let mode_name = match mode {
        Mode::Inflate => "inflate",
        Mode::Tokenize => "tokenize",
    };
    println!(
        "{{\"mode\":\"{mode_name}\",\"files\":{},\"pages\":{},\"failed\":{},\"bytes\":{},\"operations\":{},\"seconds\":{seconds:.6},\"pages_per_s\":{:.1}}}",
        totals.files,
        totals.pages,
        totals.failed,
        totals.bytes,
        totals.operations,
        totals.pages as f64 / seconds.max(1e-9)
    );
    ExitCode::SUCCESS
}

/// Loads one file and inflates (and maybe tokenizes) its pages' content;
/// false when the file does not load.
fn one_file(path: &PathBuf, mode: Mode, totals: &mut Totals) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let options = lopdf::LoadOptions {
        max_decompressed_size: Some(MAX_STREAM_BYTES),
        ..lopdf::LoadOptions::default()
    };
    let Ok(doc) = lopdf::Document::load_mem_with_options(&bytes, options) else {
        return false;
    };
    for page_id in doc.page_iter() {
        totals.pages += 1;
        let mut content = Vec::new();
        for id in doc.get_page_contents(page_id) {
            let Ok(stream) = doc.get_object(id).and_then(lopdf::Object::as_stream) else {
                continue;
            };
            match stream.decompressed_content_with_limit(MAX_STREAM_BYTES) {
                Ok(data) => {
                    if mode == Mode::Tokenize {
                        content.extend_from_slice(&data);
                        content.push(b'\n');
                    }
                    totals.bytes += data.len();
                    black_box(data);
                }
                Err(_) => continue,
            }
        }
        if mode == Mode::Tokenize
            && let Ok(ops) = lopdf::content::Content::decode(&content)
        {
            totals.operations += ops.operations.len();
            black_box(ops);
        }
    }
    true
}
