//! The options of `.docx` and `.odt` inputs: LibreOffice, its processes, the cache.

use super::values::{convert_jobs, duration};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// How templates (`.docx`, `.odt`) are converted to PDF.
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// LibreOffice's `soffice` program [default: $SIGNPREP_SOFFICE, else `soffice` or
    /// `libreoffice` on PATH]
    #[arg(long, value_name = "PATH", help_heading = "Templates (.docx, .odt)")]
    pub soffice: Option<PathBuf>,
    /// LibreOffice processes at once, each with a private profile (about 150 MB of memory each)
    #[arg(long, value_name = "N", value_parser = convert_jobs, default_value_t = 2, help_heading = "Templates (.docx, .odt)")]
    pub convert_jobs: usize,
    /// Give up converting one template after this long (seconds, or 500ms, 30s, 2m): its
    /// record is `convert_failed` and the run goes on
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "120s", help_heading = "Templates (.docx, .odt)")]
    pub convert_timeout: Duration,
    /// Keep converted PDFs here, by the template's content hash, so a re-run converts
    /// nothing it has seen [default: $XDG_CACHE_HOME/signprep/convert, else
    /// ~/.cache/signprep/convert]
    #[arg(long, value_name = "DIR", help_heading = "Templates (.docx, .odt)")]
    pub cache_dir: Option<PathBuf>,
    /// Keep no converted PDF between runs
    #[arg(
        long,
        conflicts_with = "cache_dir",
        help_heading = "Templates (.docx, .odt)"
    )]
    pub no_cache: bool,
    /// Write the PDF each template converts to into DIR, as NAME.pdf: the file that would
    /// be uploaded
    #[arg(long, value_name = "DIR", help_heading = "Templates (.docx, .odt)")]
    pub keep_pdf: Option<PathBuf>,
}
