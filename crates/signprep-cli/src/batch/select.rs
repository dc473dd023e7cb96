//! Which inputs a run takes: `--shard K/N` and `--skip-done REPORT.ndjson`.

use std::collections::HashSet;
use std::io::{self, BufRead};
use std::path::Path;

use crate::args::Shard;

impl Shard {
    /// True when `path` belongs to this shard.
    pub fn contains(&self, path: &str) -> bool {
        fnv1a64(path.as_bytes()) % self.count == self.index
    }
}

/// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The paths an earlier report records with `"status": "ok"`.
#[derive(Debug, Default)]
pub struct DoneSet {
    paths: HashSet<String>,
}

/// Why `--skip-done` cannot use a file.
#[derive(Debug)]
pub enum DoneError {
    /// The file cannot be read.
    Io(io::Error),
    /// The file is no report of `scan` (a PDF, a list of paths): what it is.
    NotReport(&'static str),
}

impl std::fmt::Display for DoneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DoneError::Io(e) => write!(f, "cannot read: {}", signprep_core::io_reason(e)),
            DoneError::NotReport(what) => write!(
                f,
                "{what}, not a report: give the ndjson (or json) output of an earlier `signprep scan`; the PDFs to scan go in PATH"
            ),
        }
    }
}

impl From<io::Error> for DoneError {
    fn from(e: io::Error) -> Self {
        DoneError::Io(e)
    }
}

/// The head of a record line.
#[derive(serde::Deserialize)]
struct Head {
    path: Option<String>,
    status: Option<String>,
    summary: Option<serde::de::IgnoredAny>,
}

impl DoneSet {
    /// Reads a report: ndjson, or json (`{"documents": [...]}`, one record a
    /// line, as `scan --format json` writes it). A missing or empty file is an
    /// empty set (the first run of a resumable job); lines that are not
    /// complete records (the torn last line of a killed run) are passed over.
    /// A file that is not a report at all is refused: its first bytes are not
    /// a JSON object (a PDF, a list of paths), or none of its whole lines is a
    /// record or a summary. Given a PDF by mistake, `--skip-done` would
    /// otherwise skip nothing without a word.
    pub fn read(path: &Path) -> Result<DoneSet, DoneError> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(DoneSet::default()),
            Err(e) => return Err(e.into()),
        };
        let mut reader = io::BufReader::new(file);
        let start = reader.fill_buf()?;
        if start.starts_with(b"%PDF") {
            return Err(DoneError::NotReport("it is a PDF"));
        }
        match start.iter().find(|b| !b.is_ascii_whitespace()) {
            None => return Ok(DoneSet::default()),
            Some(b'{') => {}
            Some(_) => return Err(DoneError::NotReport("it does not start with a JSON record")),
        }
        let mut paths = HashSet::new();
        // Whole lines read (a torn last line is none), and whether one of
        // them was a record, a summary or the head of a json report.
        let (mut whole, mut records) = (false, false);
        let mut line = Vec::new();
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            whole |= line.ends_with(b"\n");
            // A json report's records end with the comma that joins them.
            let trimmed = line.trim_ascii();
            if trimmed.starts_with(b"{\"documents\":") {
                records = true;
                continue;
            }
            let record = trimmed.strip_suffix(b",").unwrap_or(trimmed);
            let Ok(head) = serde_json::from_slice::<Head>(record) else {
                continue;
            };
            records |= (head.path.is_some() && head.status.is_some()) || head.summary.is_some();
            if let (Some(p), Some(s)) = (head.path, head.status)
                && s == "ok"
            {
                paths.insert(p);
            }
        }
        if whole && !records {
            return Err(DoneError::NotReport(
                "none of its lines is a record of `signprep scan`",
            ));
        }
        Ok(DoneSet { paths })
    }

    pub fn contains(&self, path: &str) -> bool {
        self.paths.contains(path)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.paths.len()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn fnv1a_known_values() {
        // Reference values of the 64-bit FNV-1a function.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn shards_partition_and_parse() {
        let shards: Vec<Shard> = (0..5)
            .map(|k| Shard::parse(&format!("{k}/5")).unwrap())
            .collect();
        let mut sizes = [0usize; 5];
        for i in 0..5000 {
            let p = format!("contracts/{i:05}.pdf");
            let hits: Vec<usize> = (0..5).filter(|&k| shards[k].contains(&p)).collect();
            assert_eq!(hits.len(), 1, "{p}");
            sizes[hits[0]] += 1;
        }
        assert!(sizes.iter().all(|&n| (800..1200).contains(&n)), "{sizes:?}");
        assert_eq!(Shard::parse("2/3").unwrap().to_string(), "2/3");
        assert!(Shard::parse("3/3").is_err());
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("1").is_err());
        assert!(Shard::parse("a/2").is_err());
    }

    #[test]
    fn done_set_takes_ok_records_and_passes_over_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("r.ndjson");
        std::fs::write(
            &report,
            "{\"path\":\"a.pdf\",\"status\":\"ok\",\"pages\":[]}\n\
             {\"path\":\"b.pdf\",\"status\":\"error\"}\n\
             {\"summary\":{\"files\":2}}\n\
             {\"path\":\"c.pdf\",\"status\":\"o",
        )
        .unwrap();
        let done = DoneSet::read(&report).unwrap();
        assert!(done.contains("a.pdf"));
        assert!(!done.contains("b.pdf"));
        assert!(!done.contains("c.pdf"));
        assert_eq!(done.len(), 1);
        assert_eq!(DoneSet::read(&dir.path().join("missing")).unwrap().len(), 0);
    }

    fn read_text(text: &[u8]) -> Result<DoneSet, DoneError> {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("r");
        std::fs::write(&report, text).unwrap();
        DoneSet::read(&report)
    }

    fn refusal(text: &[u8]) -> String {
        match read_text(text) {
            Err(DoneError::NotReport(what)) => what.to_string(),
            Err(DoneError::Io(e)) => panic!("an I/O error: {e}"),
            Ok(d) => panic!("read as a report of {} paths", d.len()),
        }
    }

    #[test]
    fn a_pdf_is_refused() {
        assert_eq!(refusal(b"%PDF-1.7\n%\xe2\xe3\n1 0 obj\n"), "it is a PDF");
    }

    #[test]
    fn a_list_of_paths_is_refused() {
        assert_eq!(
            refusal(b"a.pdf\nb.pdf\n"),
            "it does not start with a JSON record"
        );
        // `--files-from` NDJSON: paths, no status.
        assert_eq!(
            refusal(b"{\"path\": \"a.pdf\"}\n{\"path\": \"b.pdf\"}\n"),
            "none of its lines is a record of `signprep scan`"
        );
    }

    #[test]
    fn the_reports_of_a_run_just_begun_are_empty_sets() {
        assert_eq!(read_text(b"").unwrap().len(), 0);
        assert_eq!(read_text(b"\n").unwrap().len(), 0);
        // Killed in the middle of its first record.
        assert_eq!(read_text(b"{\"path\":\"a.pd").unwrap().len(), 0);
        // Nothing found: the summary alone.
        assert_eq!(
            read_text(b"{\"summary\":{\"files\":0}}\n").unwrap().len(),
            0
        );
    }

    #[test]
    fn a_json_report_gives_every_ok_record() {
        // As `scan --format json` writes it: one record a line, joined by commas.
        let json = b"{\"documents\": [\n\
            {\"path\":\"a.pdf\",\"status\":\"ok\"},\n\
            {\"path\":\"b.pdf\",\"status\":\"error\"},\n\
            {\"path\":\"c.pdf\",\"status\":\"ok\"}\n\
            ], \"summary\": {\"files\": 3}}\n";
        let done = read_text(json).unwrap();
        assert!(done.contains("a.pdf"));
        assert!(!done.contains("b.pdf"));
        assert!(done.contains("c.pdf"));
        assert_eq!(done.len(), 2);
        // A json report of a run that found nothing.
        assert_eq!(
            read_text(b"{\"documents\": [\n\n], \"summary\": {\"files\": 0}}\n")
                .unwrap()
                .len(),
            0
        );
    }
}
