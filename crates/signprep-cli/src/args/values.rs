//! The value parsers of the command line: each turns one argument's text into
//! its value, or says in our words what is wrong with it (clap prints that as
//! `error: invalid value ...`).

use std::time::Duration;

/// `--type-map NAME_OR_GLOB=TYPE`: a rule of [`signprep_pack::TypeMap`].
pub fn type_rule(s: &str) -> Result<String, String> {
    signprep_pack::TypeMap::new()
        .rule(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// A count: 0 or more (`--jobs`, `--max-pages`).
pub fn count(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| format!("`{s}` is not a count (a whole number, 0 or more)"))
}

/// `--jobs`: a count of worker threads (0: one per core), at most the core's
/// [`MAX_JOBS`](signprep_core::batch::MAX_JOBS).
pub fn jobs(s: &str) -> Result<usize, String> {
    let n = count(s)?;
    let most = signprep_core::batch::MAX_JOBS;
    if n > most {
        return Err(format!(
            "`{s}` is more than {most} worker threads (0: one per core)"
        ));
    }
    Ok(n)
}

/// `--convert-jobs`: LibreOffice processes at once, 1 to the converter's
/// [`MAX_JOBS`](signprep_template::convert::MAX_JOBS).
pub fn convert_jobs(s: &str) -> Result<usize, String> {
    let n = count(s)?;
    let most = signprep_template::convert::MAX_JOBS;
    if n == 0 || n > most {
        return Err(format!(
            "`{s}`: from 1 to {most} LibreOffice processes (each takes about 150 MB)"
        ));
    }
    Ok(n)
}

/// A number, in the range the core's [`Scale`](signprep_core::Scale) takes.
fn number(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| format!("`{s}` is not a number"))
}

/// A resolution (`--dpi`, `?dpi=`): from 1 to 10000 dpi
/// ([`signprep_core::DPI_RANGE`], which says why), so that every coordinate
/// of a scan is finite.
pub fn dpi(s: &str) -> Result<f64, String> {
    let v = number(s)?;
    signprep_core::Scale::dpi(v)
        .map(|_| v)
        .map_err(|_| format!("`{s}` is out of range: the resolution is from 1 to 10000 dpi"))
}

/// A page width in pixels (`--page-width`, `?page_width=`): from 1 to
/// 100000 ([`signprep_core::PAGE_WIDTH_RANGE`]).
pub fn page_width(s: &str) -> Result<f64, String> {
    let v = number(s)?;
    signprep_core::Scale::page_width(v)
        .map(|_| v)
        .map_err(|_| format!("`{s}` is out of range: the page width is from 1 to 100000 px"))
}

/// `--pages 1,3-5,4-`.
#[cfg(feature = "render")]
pub fn page_list(s: &str) -> Result<super::PageList, String> {
    let page = |t: &str| -> Result<usize, String> {
        match t.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("`{t}` is not a page number (pages count from 1)")),
        }
    };
    s.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| match part.split_once('-') {
            None => page(part).map(|n| (n, Some(n))),
            Some((a, b)) if b.trim().is_empty() => page(a).map(|a| (a, None)),
            Some((a, b)) => {
                let (a, b) = (page(a)?, page(b)?);
                if a <= b {
                    Ok((a, Some(b)))
                } else {
                    Err(format!("`{part}` runs backwards"))
                }
            }
        })
        .collect()
}

/// `--dpi` of the drawing commands: as [`dpi`], at most 1200.
#[cfg(feature = "render")]
pub fn preview_dpi(s: &str) -> Result<f64, String> {
    let v = dpi(s)?;
    if v <= 1200.0 {
        Ok(v)
    } else {
        Err(format!("`{s}` is more than 1200 dpi"))
    }
}

/// A size in bytes (`--max-file-size`, `check --max-payload`, `serve
/// --max-body`): a whole number, then optionally a unit, in any case, with or
/// without a space: `B`; `K`, `KB` or `KiB`; `M`, `MB`, `MiB`; `G`, `GB`,
/// `GiB`; `T`, `TB`, `TiB`. Units are powers of 1024 whichever way they are
/// written (`1KB` is 1024 bytes), as the limits have always been read.
pub fn size(s: &str) -> Result<u64, String> {
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
pub fn duration(s: &str) -> Result<Duration, String> {
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

/// A `--dialect` list (the core's one parser); `docusign` is refused with
/// the flags DocuSign's tabs are given with (it has no text-tag grammar).
pub fn dialect_list(s: &str) -> Result<signprep_core::Dialects, String> {
    signprep_core::Dialects::parse(s).map_err(|e| match e {
        signprep_core::DialectError::Docusign => "DocuSign has no text-tag grammar: give its tabs with --anchors FILE (an envelope definition or template) or --anchor STRING=TYPE[:SIGNER]".into(),
        e => e.to_string(),
    })
}

/// Shard `index` of `count`: the paths whose FNV-1a hash is `index` modulo `count`.
///
/// The hash is of the path string as given or walked (`dir/a.pdf` and
/// `./dir/a.pdf` are different strings), computed here rather than with std's
/// hasher, whose output may change between Rust versions: a path lands in the
/// same shard on every machine, in every run, with every build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// `K/N`, `0 <= K < N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not K/N (for example 0/4)"))?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("`{s}`: K is not a number"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("`{s}`: N is not a number"))?;
        if n == 0 {
            return Err(format!("`{s}`: N must be at least 1"));
        }
        if k >= n {
            return Err(format!("`{s}`: K counts from 0 and must be less than N"));
        }
        Ok(Shard { index: k, count: n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thread counts past the core's bound are refused at the flag (`--jobs
    /// 20000` used to spin for minutes starting threads); 0 stays "one per core".
    #[test]
    fn jobs_are_bounded() {
        assert_eq!(jobs("0"), Ok(0));
        assert_eq!(jobs("1024"), Ok(1024));
        assert_eq!(
            jobs("1025"),
            Err("`1025` is more than 1024 worker threads (0: one per core)".to_string())
        );
        assert!(jobs("-1").is_err());
        assert_eq!(convert_jobs("64"), Ok(64));
        for bad in ["0", "65", "1000000000"] {
            assert_eq!(
                convert_jobs(bad),
                Err(format!(
                    "`{bad}`: from 1 to 64 LibreOffice processes (each takes about 150 MB)"
                )),
                "--convert-jobs {bad}"
            );
        }
    }

    #[test]
    fn sizes_every_unit() {
        // (input, bytes): each unit in each spelling and case, with and without a space.
        let cases: &[(&str, u64)] = &[
            ("0", 0),
            ("1000", 1000),
            (" 2048 ", 2048),
            ("100B", 100),
            ("100 b", 100),
            ("500K", 500 << 10),
            ("512k", 512 << 10),
            ("2KB", 2 << 10),
            ("2kb", 2 << 10),
            ("2 KiB", 2 << 10),
            ("2KIB", 2 << 10),
            ("20M", 20 << 20),
            ("10m", 10 << 20),
            ("10MB", 10 << 20),
            ("10 MiB", 10 << 20),
            ("10mib", 10 << 20),
            ("1G", 1 << 30),
            ("1g", 1 << 30),
            ("1GB", 1 << 30),
            ("1GiB", 1 << 30),
            ("2T", 2 << 40),
            ("2tb", 2 << 40),
            ("2 TiB", 2 << 40),
        ];
        for &(input, bytes) in cases {
            assert_eq!(size(input), Ok(bytes), "size({input:?})");
        }
    }

    #[test]
    fn sizes_refused_in_our_words() {
        let cases: &[(&str, &str)] = &[
            ("lots", "`lots` is not a size (bytes, or 500K, 20M, 1G)"),
            ("", "`` is not a size (bytes, or 500K, 20M, 1G)"),
            ("-1", "`-1` is not a size (bytes, or 500K, 20M, 1G)"),
            ("1.5M", "`1.5M`: unknown unit (use K, M, G or T)"),
            ("3X", "`3X`: unknown unit (use K, M, G or T)"),
            // `iB` alone names no unit (it was read as bytes by `check`'s own parser).
            ("10iB", "`10iB`: unknown unit (use K, M, G or T)"),
            ("5 PB", "`5 PB`: unknown unit (use K, M, G or T)"),
            ("99999999999T", "`99999999999T` is too large"),
            (
                "18446744073709551616",
                "`18446744073709551616` is not a size (bytes, or 500K, 20M, 1G)",
            ),
        ];
        for &(input, message) in cases {
            assert_eq!(size(input), Err(message.to_string()), "size({input:?})");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(duration("0"), Ok(Duration::ZERO));
        assert!(duration("soon").is_err());
        assert!(duration("5d").is_err());
    }
}
