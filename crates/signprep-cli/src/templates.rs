//! `.docx` and `.odt` inputs: LibreOffice found once per run (when a template is the first
//! to need it, or up front when the command line names or walks for templates), templates
//! converted ahead of the batch in groups, each scanned through `signprep_template`, the
//! converted PDF kept on request (`--keep-pdf`).

use crate::args::{ConvertArgs, InputType};
use signprep_core::{ErrorInfo, FileErrorCode, LoadOptions, Record, Scanner};
use signprep_template::convert::{
    ConvertError, ConvertOptions, Converter, LazyConverter, default_cache_dir,
};
use signprep_template::{Format, Scanned};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A run's templates: how to convert them and the converter, made on first use.
#[derive(Debug)]
pub struct Templates {
    keep_pdf: Option<PathBuf>,
    converter: Arc<LazyConverter>,
}

impl Templates {
    /// From the command line's options.
    pub fn new(args: &ConvertArgs) -> Templates {
        let cache_dir = if args.no_cache {
            None
        } else {
            args.cache_dir.clone().or_else(default_cache_dir)
        };
        Templates {
            converter: Arc::new(LazyConverter::new(ConvertOptions {
                program: args.soffice.clone(),
                jobs: args.convert_jobs.max(1),
                timeout: args.convert_timeout,
                cache_dir,
            })),
            keep_pdf: args.keep_pdf.clone(),
        }
    }

    /// True when the run will meet templates for sure: a PATH argument names one, or the
    /// walk takes them (`--type docx,odt`). LibreOffice is then looked for before anything
    /// runs, and its absence is the run's one error (exit 2).
    pub fn expected(paths: &[PathBuf], types: &[InputType]) -> bool {
        types.iter().any(|t| *t != InputType::Pdf)
            || paths.iter().any(|p| Format::from_path(p).is_some())
    }

    /// The converter, made once; the same error every time when LibreOffice is missing
    /// (and whether it was not found, rather than found and not runnable).
    pub fn converter(&self) -> Result<&Converter, (String, bool)> {
        self.converter.get().map_err(|e| {
            let missing = matches!(e, ConvertError::NotInstalled { .. });
            (e.to_string(), missing)
        })
    }

    /// The converter as the pack crate takes it (a manifest's template children).
    pub fn lazy(&self) -> Arc<LazyConverter> {
        Arc::clone(&self.converter)
    }

    /// `--keep-pdf DIR`, when given.
    pub fn keep_pdf(&self) -> Option<&Path> {
        self.keep_pdf.as_deref()
    }

    /// The converter now, or the run's one error (exit 2): LibreOffice missing (with how to
    /// install or name it) or not runnable.
    pub fn require(&self) -> Result<&Converter, String> {
        self.converter().map_err(|(e, missing)| {
            let or = if missing {
                " or with --soffice PATH"
            } else {
                ""
            };
            format!("{e}{or}")
        })
    }

    /// Converts the templates among `paths` ahead of the batch, several per LibreOffice
    /// process, into the cache. Returns how many were converted.
    pub fn prepare(&self, paths: &[PathBuf]) -> usize {
        let todo: Vec<(PathBuf, Format)> = paths
            .iter()
            .filter_map(|p| Some((p.clone(), Format::from_path(p)?)))
            .collect();
        if todo.len() < 2 {
            return 0;
        }
        match self.converter() {
            Ok(c) => c.prepare(&todo),
            Err(_) => 0,
        }
    }

    /// Scans one template: its record.
    pub fn scan(
        &self,
        path: &Path,
        format: Format,
        options: &LoadOptions,
        scanner: &Scanner,
    ) -> Record {
        self.scanned(path, format, options, scanner).record
    }

    /// Scans one template already read, called `name` in its record (`signprep serve`'s
    /// bodies): its record and its PDF; nothing is written (no `--keep-pdf`).
    pub fn scanned_bytes(
        &self,
        name: String,
        bytes: &[u8],
        format: Format,
        options: &LoadOptions,
        scanner: &Scanner,
    ) -> Scanned {
        match self.converter() {
            Ok(c) => signprep_template::scan_template(name, bytes, format, c, options, scanner),
            Err((e, _)) => Scanned {
                record: Record::failed(
                    name,
                    ErrorInfo::new(FileErrorCode::ConvertFailed, e.to_string()),
                ),
                pdf: None,
            },
        }
    }

    /// Scans one template: its record and its PDF, the PDF written to `--keep-pdf` when
    /// asked (a failure to write it is the record's `io_error`: nothing else is lost).
    pub fn scanned(
        &self,
        path: &Path,
        format: Format,
        options: &LoadOptions,
        scanner: &Scanner,
    ) -> Scanned {
        let name = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                return Scanned {
                    record: Record::failed(
                        name,
                        ErrorInfo::new(
                            FileErrorCode::IoError,
                            format!("cannot read it: {}", signprep_core::io_reason(&e)),
                        ),
                    ),
                    pdf: None,
                };
            }
        };
        let scanned = self.scanned_bytes(name, &bytes, format, options, scanner);
        let mut record = scanned.record;
        if let (Some(dir), Some(pdf)) = (&self.keep_pdf, &scanned.pdf) {
            let stem = path.file_stem().unwrap_or(path.as_os_str());
            let out = dir.join(Path::new(stem).with_extension("pdf"));
            let written = std::fs::create_dir_all(dir)
                .map_err(|e| crate::atomic::cannot_create(dir, &e))
                .and_then(|()| {
                    crate::atomic::write(&out, pdf)
                        .map_err(|e| crate::atomic::cannot_write(&out, &e))
                });
            if let Err(why) = written {
                record = Record::failed(
                    record.path.clone(),
                    ErrorInfo::new(FileErrorCode::IoError, format!("--keep-pdf: {why}")),
                );
            }
        }
        Scanned {
            record,
            pdf: scanned.pdf,
        }
    }
}

/// A template's check record, from its scan (`scanned`, named `path`): the PDF it became
/// checked by every rule of a PDF, its findings led by the template's own (`template_*`);
/// a finding about a tag found in the template names its place there. `check` and
/// `signprep serve` both make a template's check record here.
pub fn check_scanned(
    checker: &signprep_pack::Checker,
    path: &Path,
    scanned: Scanned,
) -> crate::check::record::Record {
    use crate::check::record::Record as CheckRecord;
    let shown = path.display().to_string();
    let (pdf, scan) = match scanned.into_pdf() {
        Ok(made) => made,
        Err(e) => return CheckRecord::convert_failed(shown, e.message),
    };
    CheckRecord::checked(shown, checker.check_converted(&pdf, &scan, path))
}
