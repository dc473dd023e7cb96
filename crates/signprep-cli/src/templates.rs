//! `.docx` and `.odt` inputs: LibreOffice found once per run (when a template is the first
//! to need it, or up front when the command line names or walks for templates), templates
//! converted ahead of the batch in groups, each scanned through `signprep_template`, the
//! converted PDF kept on request (`--keep-pdf`).

use crate::args::{ConvertArgs, InputType};
use signprep_core::{ErrorInfo, FileErrorCode, LoadOptions, Record, Scanner};
use signprep_template::{Format, Scanned};
use signprep_template::convert::{ConvertError, ConvertOptions, Converter, default_cache_dir};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A run's templates: how to convert them and the converter, made on first use.
#[derive(Debug)]
pub struct Templates {
    options: ConvertOptions,
    keep_pdf: Option<PathBuf>,
    converter: OnceLock<Result<Converter, (String, bool)>>,
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
            options: ConvertOptions {
                program: args.soffice.clone(),
                jobs: args.convert_jobs.max(1),
                timeout: args.convert_timeout,
                cache_dir,
            },
            keep_pdf: args.keep_pdf.clone(),
            converter: OnceLock::new(),
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
    pub fn converter(&self) -> Result<&Converter, (&str, bool)> {
        self.converter
            .get_or_init(|| {
                Converter::new(&self.options).map_err(|e| {
                    let missing = matches!(e, ConvertError::NotInstalled { .. });
                    (e.to_string(), missing)
                })
            })
            .as_ref()
            .map_err(|(e, missing)| (e.as_str(), *missing))
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
        let failed = |code, why: String| Scanned {
            record: Record::failed(name.clone(), ErrorInfo::new(code, why)),
            pdf: None,
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => return failed(FileErrorCode::IoError, format!("cannot read it: {e}")),
        };
        let converter = match self.converter() {
            Ok(c) => c,
            Err((e, _)) => return failed(FileErrorCode::ConvertFailed, e.to_string()),
        };
        let scanned =
            signprep_template::scan_template(name, &bytes, format, converter, options, scanner);
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
