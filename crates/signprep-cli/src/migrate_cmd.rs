//! `signprep migrate PATH... [--dialect LIST] [--signer KEY=EMAIL]... [--out DIR]`:
//! PDFs tagged for another vendor → v0 own-PDF requests with fields at
//! explicit positions (the conversion is `signprep_pack::Migrator`).

use crate::args::MigrateArgs;
use crate::batch::{Command, Ended, Progress, Runner, Summary, Tally};
use crate::batch::{Input, Source};
use crate::exit::ExitStatus;
use crate::templates::Templates;
use signprep_core::Severity;
use signprep_core::{LoadOptions, Scanner};
use signprep_pack::migrate::SignerMap;
use signprep_pack::{Finding, MigrateSummary, Migrated, Migrator};
use signprep_template::Format as TemplateFormat;
use std::collections::BTreeSet;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

/// Exit status: 0 every PDF migrated, 1 a PDF with an error-level finding,
/// one whose migration panicked (`internal_error`) or one the watchdog gave
/// up on (`pdf_limit_exceeded`; nothing written for them), 2 usage or I/O.
pub fn run(args: &MigrateArgs) -> ExitStatus {
    let migrator = match migrator(args) {
        Ok(m) => m,
        Err(e) => return crate::exit::fail(&e, ExitStatus::Error),
    };
    let inputs = Source::files_of(&args.paths, args.kinds.extensions());
    if inputs.is_empty() {
        let shown: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return crate::exit::fail(
            &format!("nothing to migrate: no PDF in {}", shown.join(", ")),
            ExitStatus::Error,
        );
    }
    if args.out.is_none() && inputs.len() > 1 {
        return crate::exit::fail(
            &format!(
                "{} PDFs but no --out DIR: standard output takes one request",
                inputs.len()
            ),
            ExitStatus::Error,
        );
    }
    if let Some(dir) = &args.out
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return crate::exit::fail(&crate::atomic::cannot_create(dir, &e), ExitStatus::Error);
    }
    let options = load_options(args);
    // The watchdog stands behind the time budget, as in `scan`.
    let runner = match Runner::new(args.jobs, &options) {
        Ok(r) => r,
        Err(status) => return status,
    };
    let count = inputs.len();
    let mut names = BTreeSet::new();
    let mut total = MigrateSummary::default();
    let mut summary = Summary::new(Command::Migrate);
    // PDFs not read or not migrated for a panic or the watchdog (no summary
    // of theirs is in `total`), and PDFs migrated but not written (theirs is).
    let mut lost = 0;
    let mut unwritten = 0;
    let templates = Arc::new(Templates::new(&args.convert));
    if Templates::expected(&args.paths, &args.kinds.types) {
        if let Err(e) = templates.require() {
            return crate::exit::fail(&e, ExitStatus::Error);
        }
        // A template's plan uploads the PDF it converts to: written beside the plan, or
        // into --keep-pdf.
        if args.out.is_none() && args.convert.keep_pdf.is_none() {
            return crate::exit::fail(
                "a template's request uploads the PDF LibreOffice makes of it: give --out DIR (the PDF is written beside the request) or --keep-pdf DIR",
                ExitStatus::Error,
            );
        }
    }
    let migrator = Arc::new(migrator);
    let out_dir = args.out.clone();
    // Work on the batch engine (its one panic boundary); results come back in
    // input order, so the output does not depend on --jobs.
    let ended = runner.run(
        inputs.into_iter(),
        |_| 0,
        move |input, _| match input {
            Input::File(p) if let Some(format) = TemplateFormat::from_path(p) => {
                migrate_template(&migrator, &templates, p, format, out_dir.as_deref())
            }
            _ => migrate_one(&migrator, input, out_dir.as_deref()),
        },
        Progress::hidden(),
        |input, result, _| {
            let shown = input.path().display().to_string();
            let mut migrated = match result {
                Ok(Ok(m)) => m,
                Ok(Err(e)) => {
                    eprintln!("{shown}: cannot read: {e}");
                    lost += 1;
                    summary
                        .file(&Tally::new(&shown).unreadable(format!("cannot read {shown}: {e}")));
                    return Ok(());
                }
                // A panic or the watchdog: error-level, as in `scan`.
                Err(e) => {
                    eprintln!("{shown}: {}", e.message());
                    lost += 1;
                    summary.file(&Tally::new(&shown).failed(e.code()));
                    return Ok(());
                }
            };
            if args.verbose {
                crate::findings::eprint(&migrated.findings);
            } else if !args.quiet {
                report_brief(&migrated.findings);
            }
            // Not migrated for its error-level findings (nothing written).
            let mut tally = Tally::new(&shown);
            tally.finding(Severity::Error, migrated.summary.failed);
            summary.file(&tally);
            total += migrated.summary;
            let target = args
                .out
                .as_ref()
                .map(|d| d.join(out_name(input.path(), &mut names)));
            if let (Some(pdf), Some(json)) = (migrated.stripped.take(), &target)
                && let Err(e) = write_stripped(&pdf, json, input.path(), &mut migrated)
            {
                eprintln!("{shown}: {e}");
                unwritten += 1;
                summary.add(ExitStatus::Error, e);
                return Ok(());
            }
            let written = match (&migrated.plan, &target) {
                (None, _) => Ok(None),
                (Some(plan), Some(path)) => crate::atomic::write_with(path, |w| json(w, plan))
                    .map(|()| Some(path.display().to_string()))
                    .map_err(|e| crate::atomic::cannot_write(path, &e)),
                (Some(plan), None) => {
                    let mut out = BufWriter::new(io::stdout().lock());
                    json(&mut out, plan).and_then(|()| out.flush())?;
                    Ok(Some("standard output".to_string()))
                }
            };
            match written {
                Ok(to) => eprintln!("{}", file_line(&shown, &migrated.summary, to.as_deref())),
                Err(e) => {
                    eprintln!("{shown}: {e}");
                    unwritten += 1;
                    summary.add(ExitStatus::Error, e);
                }
            }
            Ok(())
        },
    );
    match ended {
        Ok(Ended::Completed) => {}
        Ok(Ended::Interrupted) => {
            summary.interrupted = true;
            return summary.finish();
        }
        Err(status) => return status,
    }
    total.files += lost;
    if count > 1 {
        eprintln!("{}", total_line(&total, lost + unwritten));
    }
    summary.finish()
}

/// The default limits, with `--timeout-per-file` as the time budget (0: none).
fn load_options(args: &MigrateArgs) -> LoadOptions {
    let mut options = LoadOptions::default();
    if let Some(t) = args.timeout_per_file {
        options.time_budget = (!t.is_zero()).then_some(t);
    }
    options
}

fn migrator(args: &MigrateArgs) -> Result<Migrator, String> {
    let mut signers = SignerMap::new();
    if let Some(path) = &args.signers {
        let bytes = crate::inputs::read_input(path).map_err(|e| {
            format!(
                "cannot read {}: {}",
                path.display(),
                signprep_core::io_reason(&e)
            )
        })?;
        signers
            .add_file(path, &bytes)
            .map_err(|e| format!("--signers: {e}"))?;
    }
    for s in &args.signer {
        signers.add_arg(s).map_err(|e| format!("--signer: {e}"))?;
    }
    let mut scanner = Scanner::new()
        .fields(false)
        .dpi(args.dpi)
        .apply_user_unit(!args.ignore_user_unit)
        .dialects(args.dialect);
    if let Some(w) = args.page_width {
        scanner = scanner.page_width(w);
    }
    let mut m = Migrator::new(signers)
        .scanner(scanner)
        .load_options(load_options(args))
        .template(args.template)
        .strip(args.strip);
    for rule in &args.map_type {
        m = m
            .map_type_rule(rule)
            .map_err(|e| format!("--map-type: {e}"))?;
    }
    if let Some(file) = args.anchors.load(args.quiet)? {
        m = m.anchors(file);
    }
    Ok(m)
}

/// Reads and migrates one input, its plan's `upload` written from `out`
/// (the plan's folder; `None`, standard output: absolute); `Err` only when
/// it cannot be read.
fn migrate_one(m: &Migrator, input: &Input, out: Option<&Path>) -> Result<Migrated, String> {
    let path = match input {
        Input::File(_) | Input::Stdin => input.path(),
        Input::Missing(_, e) => return Err(signprep_core::io_reason(e)),
    };
    let bytes = crate::inputs::read_input(path).map_err(|e| e.to_string())?;
    signprep_core::batch::test_hook(&path.display().to_string());
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "document".to_string()
    } else {
        path.file_stem()
            .map_or_else(|| "document".into(), |s| s.to_string_lossy().into_owned())
    };
    let upload = (!stdin).then(|| path.display().to_string());
    let mut migrated = m.migrate_pdf(&bytes, upload.as_deref(), &name);
    if let Some(plan) = &mut migrated.plan {
        plan.place_uploads(out);
    }
    Ok(migrated)
}

/// Converts and migrates one template: its scan carries the template's places, and its
/// plan uploads the converted PDF, written beside the plan (`NAME.pdf`; `--keep-pdf` keeps
/// a copy there too) or, on standard output, into `--keep-pdf`. `Err` when it cannot be
/// read, converted or its PDF written.
fn migrate_template(
    m: &Migrator,
    templates: &Templates,
    path: &Path,
    format: TemplateFormat,
    out: Option<&Path>,
) -> Result<Migrated, String> {
    let (scanner, load) = m.pdf_reader();
    let scanned = templates.scanned(path, format, load, scanner);
    let (pdf, scan) = scanned
        .into_pdf()
        .map_err(|e| format!("[{}] {}", e.code, e.message))?;
    let name = path
        .file_stem()
        .map_or_else(|| "document".into(), |s| s.to_string_lossy().into_owned());
    let beside = match (out, templates.keep_pdf()) {
        (Some(dir), _) => dir.join(format!("{name}.pdf")),
        (None, Some(dir)) => dir.join(format!("{name}.pdf")),
        (None, None) => return Err("no --out or --keep-pdf folder for its PDF".into()),
    };
    let upload = beside.display().to_string();
    let mut migrated = m.migrate_scanned(&pdf, &scan, Some(&upload), &name);
    // Written only with a plan to upload it (a stripped copy, written later, replaces it).
    if out.is_some() && migrated.plan.is_some() {
        crate::atomic::write_with(&beside, |w| w.write_all(&pdf))
            .map_err(|e| crate::atomic::cannot_write(&beside, &e))?;
    }
    if let Some(plan) = &mut migrated.plan {
        plan.place_uploads(out);
    }
    Ok(migrated)
}

/// Errors and warnings in full; the notes (info) one line per code, as a PDF
/// with many visible vendor tags would otherwise print three lines for each.
fn report_brief(findings: &[Finding]) {
    let (notes, rest): (Vec<&Finding>, Vec<&Finding>) =
        findings.iter().partition(|f| f.severity == Severity::Info);
    crate::findings::eprint(rest);
    // The notes grouped by code, codes in the order they first come.
    let mut groups: Vec<(&str, Vec<&Finding>)> = Vec::new();
    for f in notes {
        match groups.iter_mut().find(|(code, _)| *code == f.code.as_str()) {
            Some((_, same)) => same.push(f),
            None => groups.push((f.code.as_str(), vec![f])),
        }
    }
    for (code, same) in &groups {
        let Some(first) = same.first() else { continue };
        eprintln!(
            "{}",
            crate::text::clean_lines(&note_line(code, &first.message, same))
        );
    }
}

/// `info[CODE]: MESSAGE (--verbose ...)`, or for several, how many and on which pages.
fn note_line(code: &str, first: &str, same: &[&Finding]) -> String {
    if same.len() == 1 {
        return format!("info[{code}]: {first} (--verbose: where, and a hint)");
    }
    let pages: BTreeSet<usize> = same.iter().filter_map(|f| f.page).collect();
    let pages: Vec<String> = pages.iter().map(|p| (p + 1).to_string()).collect();
    let on = match pages.len() {
        0 => String::new(),
        1 => format!(" on page {}", pages.join("")),
        _ => format!(" on pages {}", pages.join(", ")),
    };
    format!(
        "info[{code}]: {} notes{on} (--verbose lists each); the first: {first}",
        same.len()
    )
}

/// Writes the stripped copy beside the request (`NAME.pdf` for `NAME.json`)
/// and makes the request upload it, named from the plan's folder as every
/// upload is (`signprep_pack::upload_path`: the plan travels with its copy);
/// never over the input.
fn write_stripped(pdf: &[u8], json: &Path, input: &Path, m: &mut Migrated) -> Result<(), String> {
    let path = json.with_extension("pdf");
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(&path, input) {
        return Err(format!(
            "the stripped copy {} would replace the input: choose another --out",
            path.display()
        ));
    }
    crate::atomic::write_with(&path, |w| w.write_all(pdf))
        .map_err(|e| crate::atomic::cannot_write(&path, &e))?;
    if let Some(request) = m.plan.as_mut().and_then(|p| p.requests.first_mut()) {
        request.upload = Some(signprep_pack::upload_path(&path, json.parent()));
    }
    Ok(())
}

/// `NAME.json` for a PDF, unique within the run (`NAME-2.json`, ... in input order).
fn out_name(path: &Path, taken: &mut BTreeSet<String>) -> String {
    let stem = path
        .file_stem()
        .filter(|_| path.as_os_str() != "-")
        .map_or_else(|| "stdin".into(), |s| s.to_string_lossy().into_owned());
    let mut name = format!("{stem}.json");
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{stem}-{n}.json");
        n += 1;
    }
    name
}

fn json<T: serde::Serialize>(w: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, value)?;
    w.write_all(b"\n")
}

/// `a.pdf: 7 vendor tags -> 5 fields, 2 left out; 2 signers, 1 without email -> out/a.json`.
fn file_line(shown: &str, s: &MigrateSummary, to: Option<&str>) -> String {
    let mut line = format!(
        "{shown}: {} -> {}, {} left out; {}",
        crate::text::plural(s.tags, "vendor tag"),
        crate::text::plural(s.placed, "field"),
        s.left_out,
        crate::text::plural(s.signers, "signer"),
    );
    if s.signers_without_email > 0 {
        line.push_str(&format!(", {} without email", s.signers_without_email));
    }
    match to {
        Some(to) => line.push_str(&format!(" -> {to}")),
        None => line.push_str(" -> not written"),
    }
    line
}

/// `migrate: 3 PDFs, 2 migrated, 1 not; 21 vendor tags -> 15 fields, 6 left out; 1 signer without email`.
/// `t.files` counts every input; `lost` those not read, not migrated (a
/// panic, the watchdog) or not written.
fn total_line(t: &MigrateSummary, lost: usize) -> String {
    let not = t.failed + lost;
    format!(
        "migrate: {}, {} migrated, {not} not; {} -> {}, {} left out; {} without email",
        crate::text::plural(t.files, "PDF"),
        t.files.saturating_sub(not),
        crate::text::plural(t.tags, "vendor tag"),
        crate::text::plural(t.placed, "field"),
        t.left_out,
        crate::text::plural(t.signers_without_email, "signer"),
    )
}
