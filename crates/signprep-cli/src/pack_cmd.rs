//! `signprep pack MANIFEST [-o FILE] [--v0 | --populate TEMPLATE_KEY]`.

use crate::args::PackArgs;
use crate::batch::{Ended, Progress, Runner};
use crate::check::record::Record;
use crate::check::write::human;
use crate::exit::ExitStatus;
use serde::Serialize;
use signprep_core::LoadOptions;
use signprep_pack::{
    BuildError, Checker, Finding, FindingCode, Manifest, PackCode, RandomIds, Warned,
};
use std::io::{self, Write};
use std::path::Path;

/// Exit status: 0 written, 1 error-level findings or a panic
/// (`internal_error`; nothing written), 2 usage or I/O, 130 Ctrl-C (nothing
/// written).
///
/// The manifest is checked by the function `signprep check` calls
/// ([`Checker::check_manifest`]): the same findings, located in the manifest,
/// and any error stops the pack.
///
/// The manifest is one input of the batch [`Runner`], as a file of `scan` is:
/// its check and build (scanning its PDFs) on the pool, a panic in them
/// reported, not an abort; the findings and the output are written on this
/// thread once that work is done, so Ctrl-C before then leaves no output
/// file. No watchdog: the one input is the whole manifest, however many PDFs
/// it names, and a watchdog sized for one file would give up on a large
/// manifest that is fine; each PDF is read under the core's own time budget
/// (60 s), which ends a file's work at its next check.
pub fn run(args: &PackArgs) -> ExitStatus {
    let runner = match Runner::new(None, &LoadOptions::default()) {
        Ok(r) => r.without_watchdog(),
        Err(status) => return status,
    };
    let shown = args.manifest.display().to_string();
    let mut status = None;
    let ended = runner.run(
        std::iter::once(args.clone()),
        |_| 0,
        |args, _| pack(args),
        Progress::hidden(),
        |args, result, _| {
            status = Some(match result {
                Ok(packed) => packed.write(args),
                Err(e) => crate::exit::fail(
                    &format!("cannot pack {shown}: {}", e.message()),
                    ExitStatus::Failure,
                ),
            });
            Ok(())
        },
    );
    match (ended, status) {
        (Ok(Ended::Completed), Some(status)) => status,
        (Err(status), _) => status,
        (Ok(_), _) => crate::exit::fail("interrupted; nothing written", ExitStatus::Interrupted),
    }
}

/// What the work hands the writer, in the order it is printed: the check of
/// the manifest, the findings of the output's build, then the output or the
/// last line and its status.
struct Packed {
    /// The manifest's check (none when the manifest could not be read).
    record: Option<Record>,
    /// The findings of a v0 or populate build that the check does not make.
    findings: Vec<Finding>,
    /// The JSON to write, or why there is none.
    output: Result<Vec<u8>, Failure>,
}

impl Packed {
    /// Prints the findings and writes the output; the exit status.
    fn write(self, args: &PackArgs) -> ExitStatus {
        if let Some(record) = &self.record {
            let _ = human(&mut io::stderr().lock(), record);
        }
        crate::findings::eprint(&self.findings);
        let shown = args.manifest.display();
        let bytes = match self.output {
            Ok(bytes) => bytes,
            Err(Failure::Unchecked(errors)) => {
                return crate::exit::fail(
                    &format!(
                        "{} in {shown}; nothing written",
                        crate::text::plural(errors, "error-level finding")
                    ),
                    ExitStatus::Failure,
                );
            }
            Err(Failure::Findings(n)) => {
                return crate::exit::fail(
                    &format!(
                        "{} in the {} output of {shown}; nothing written",
                        crate::text::plural(n, "error-level finding"),
                        if args.v0 { "--v0" } else { "--populate" }
                    ),
                    ExitStatus::Failure,
                );
            }
            Err(Failure::Io(e)) => return crate::exit::fail(&e, ExitStatus::Error),
        };
        let written = match &args.output {
            Some(path) if path != Path::new("-") => crate::atomic::write(path, &bytes)
                .map_err(|e| crate::atomic::cannot_write(path, &e)),
            _ => {
                let mut out = io::stdout().lock();
                out.write_all(&bytes)
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("cannot write to standard output: {e}"))
            }
        };
        match written {
            Ok(()) => ExitStatus::Success,
            Err(e) => crate::exit::fail(&e, ExitStatus::Error),
        }
    }
}

/// The work on the pool: the manifest read, checked and built, the output
/// made (nothing written).
fn pack(args: &PackArgs) -> Packed {
    let shown = args.manifest.display().to_string();
    signprep_core::batch::test_hook(&shown);
    let failed = |record, failure| Packed {
        record,
        findings: Vec::new(),
        output: Err(failure),
    };
    let bytes = match crate::inputs::read_input(&args.manifest) {
        Ok(b) => b,
        Err(e) => {
            return failed(
                None,
                Failure::Io(format!(
                    "cannot read {shown}: {}",
                    signprep_core::io_reason(&e)
                )),
            );
        }
    };
    // `.docx` and `.odt` children are converted by LibreOffice, found now (a manifest that
    // cannot be parsed is the check's to report).
    let templates = crate::templates::Templates::new(&args.convert);
    if let Ok(m) = Manifest::from_bytes(&bytes, &args.manifest)
        && m.names_templates()
        && let Err(e) = templates.require()
    {
        return failed(None, Failure::Io(e));
    }
    let (checked, pack) = Checker::new()
        .converter(Some(templates.lazy()))
        .check_manifest(&bytes, &args.manifest, RandomIds);
    let errors = checked.findings.iter().filter(|f| f.is_error()).count();
    let record = Some(Record::checked(shown, checked));
    let Some(pack) = pack else {
        return failed(record, Failure::Unchecked(errors));
    };
    let built = match &args.populate {
        Some(key) => builder(args, &bytes).map(|b| json(args, b.build_populate(key))),
        None if args.v0 => builder(args, &bytes).map(|b| {
            json(
                args,
                b.build_v0().map(|mut w| {
                    w.output.place_uploads(plan_dir(args.output.as_deref()));
                    w
                }),
            )
        }),
        None => Ok(json(
            args,
            Ok(Warned {
                output: pack,
                warnings: Vec::new(),
            }),
        )),
    };
    match built {
        Ok((findings, output)) => Packed {
            record,
            findings,
            output,
        },
        Err(failure) => failed(record, failure),
    }
}

/// The folder a plan is written into (`-o FILE`), or `None` for standard
/// output: where its `upload` paths are written from
/// ([`signprep_pack::upload_path`]).
pub(crate) fn plan_dir(output: Option<&Path>) -> Option<&Path> {
    output
        .filter(|p| *p != Path::new("-"))
        .map(|p| p.parent().unwrap_or(Path::new("")))
}

/// Why nothing is written.
enum Failure {
    /// Error-level findings of the manifest's check (how many).
    Unchecked(usize),
    /// Error-level findings of the v0 or populate build (how many).
    Findings(usize),
    /// The last line of a usage or I/O failure (exit 2).
    Io(String),
}

/// The builder of the v0 or populate output (the manifest parsed, as checked).
fn builder(args: &PackArgs, bytes: &[u8]) -> Result<signprep_pack::PackBuilder, Failure> {
    let shown = args.manifest.display().to_string();
    let manifest =
        Manifest::from_bytes(bytes, &args.manifest).map_err(|e| Failure::Io(e.to_string()))?;
    let base = args.manifest.parent().unwrap_or(Path::new(""));
    Ok(manifest.builder(base, &shown))
}

/// The findings to print of a build and its output as JSON (with a newline),
/// or its error-level findings' count.
fn json<T: Serialize>(
    args: &PackArgs,
    built: Result<Warned<T>, BuildError>,
) -> (Vec<Finding>, Result<Vec<u8>, Failure>) {
    let Warned { output, warnings } = match built {
        Ok(w) => w,
        Err(e) => {
            let n = e.findings.iter().filter(|f| f.is_error()).count();
            return (only_output(e.findings), Err(Failure::Findings(n)));
        }
    };
    let json = if args.compact {
        serde_json::to_vec(&output)
    } else {
        serde_json::to_vec_pretty(&output)
    };
    let json = json
        .map(|mut b| {
            b.push(b'\n');
            b
        })
        .map_err(|e| {
            Failure::Io(format!(
                "cannot write the output of {}: {e}",
                args.manifest.display()
            ))
        });
    (only_output(warnings), json)
}

/// The findings of a v0 or populate build that the check of the manifest
/// (already reported) does not make: what the output leaves out (a PDF
/// without tags is left out of `--v0`), and errors.
fn only_output(findings: Vec<Finding>) -> Vec<Finding> {
    const OUTPUT: &[PackCode] = &[
        PackCode::V0NeedsPdf,
        PackCode::DocumentWithoutTags,
        PackCode::SettingDropped,
        PackCode::PopulateSignerIgnored,
        PackCode::PopulateIgnored,
    ];
    findings
        .into_iter()
        .filter(|f| f.is_error() || matches!(f.code, FindingCode::Pack(c) if OUTPUT.contains(&c)))
        .collect()
}
