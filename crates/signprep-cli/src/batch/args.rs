//! The batch options, flattened into each command that runs over many files.

use super::select::Shard;
use super::walk::WalkOptions;
use clap::Args;
use signprep_core::LoadOptions;
use std::path::PathBuf;
use std::time::Duration;

/// Options for walking, listing, splitting, resuming, limiting and reporting a batch.
#[derive(Debug, Clone, Default, Args)]
pub struct BatchArgs {
    /// Read paths from FILE (`-`: standard input), one per line, or NDJSON objects
    /// with a `path` key (other keys are ignored). Read after the PATH arguments.
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub files_from: Option<PathBuf>,
    /// Exit 0 when the paths and the list give no file at all (an empty folder, a
    /// glob matching nothing, an empty list); without it that is an error (exit
    /// status 2), so a job pointed at the wrong folder fails.
    #[arg(long, help_heading = "Input")]
    pub allow_empty: bool,
    /// Walk folders without reading .gitignore, .ignore and .git/info/exclude.
    #[arg(long, help_heading = "Input")]
    pub no_ignore: bool,
    /// Walk into hidden files and folders (names starting with `.`) too.
    #[arg(long, help_heading = "Input")]
    pub hidden: bool,
    /// Follow symbolic links while walking folders (they are skipped otherwise).
    #[arg(long, short = 'L', help_heading = "Input")]
    pub follow: bool,
    /// Include (`'contracts/**'`) or, with a leading `!`, exclude (`'!drafts/'`) walked
    /// paths, relative to the folder given; case-insensitive. An include glob replaces
    /// the default `*.pdf`. Repeatable; the last matching glob wins.
    #[arg(long, short = 'g', value_name = "GLOB", help_heading = "Input")]
    pub glob: Vec<String>,
    /// Take only the files whose path hash falls in shard K of N (0-based):
    /// `--shard 0/4` ... `--shard 3/4` split any input exactly.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, help_heading = "Splitting and resuming")]
    pub shard: Option<Shard>,
    /// Skip the paths that this earlier NDJSON report records with status `ok`
    /// (a missing report skips nothing), so a killed run resumes.
    #[arg(
        long,
        value_name = "REPORT.ndjson",
        help_heading = "Splitting and resuming"
    )]
    pub skip_done: Option<PathBuf>,
    /// Give an error record, without reading it, for a file larger than this
    /// (bytes, or with a suffix: 500K, 20M, 1G) [default: 1G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size, help_heading = "Limits per file")]
    pub max_file_size: Option<u64>,
    /// Give up on a file after this long: an error record, and the batch goes on
    /// (seconds, or 500ms, 30s, 2m; 0: no limit) [default: 60s].
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, help_heading = "Limits per file")]
    pub timeout_per_file: Option<Duration>,
    /// No progress bar and no summary on stderr.
    #[arg(long, short = 'q', help_heading = "Reporting")]
    pub quiet: bool,
    /// Leave the summary record out of json/ndjson output (one record per file, nothing else).
    #[arg(long, help_heading = "Reporting")]
    pub no_summary: bool,
    /// Put wall time and pages/s in the json/ndjson summary (the output then differs between runs).
    #[arg(long, help_heading = "Reporting")]
    pub timing: bool,
}

impl BatchArgs {
    /// How folders are walked.
    pub fn walk_options(&self) -> WalkOptions {
        WalkOptions {
            respect_ignore_files: !self.no_ignore,
            hidden: self.hidden,
            follow_links: self.follow,
            globs: self.glob.clone(),
        }
    }

    /// The per-file limits on top of the defaults.
    pub fn load_options(&self) -> LoadOptions {
        let mut options = LoadOptions::default();
        if let Some(bytes) = self.max_file_size {
            options.max_file_bytes = bytes;
        }
        if let Some(t) = self.timeout_per_file {
            options.time_budget = (!t.is_zero()).then_some(t);
        }
        options
    }
}

/// `1048576`, `500K`, `20M`, `1G`, `2GiB` (powers of 1024).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{s}` is not a size (bytes, or 500K, 20M, 1G)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(format!("`{s}`: unknown unit (use K, M, G or T)")),
    };
    n.checked_mul(1u64 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))
}

/// `30`, `1.5`, `500ms`, `30s`, `2m`, `1h`; `0` means no limit.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: f64 = number
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (seconds, or 500ms, 30s, 2m)"))?;
    let seconds = match unit.trim() {
        "" | "s" => n,
        "ms" => n / 1000.0,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("`{s}`: unknown unit (use ms, s, m or h)")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("`{s}` is out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("20M"), Ok(20 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert_eq!(parse_size("2 KiB"), Ok(2048));
        assert!(parse_size("-1").is_err());
        assert!(parse_size("3X").is_err());
        assert!(parse_size("99999999999T").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("5d").is_err());
    }
}
