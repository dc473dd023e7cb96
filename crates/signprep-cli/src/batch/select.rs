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

/// The paths an earlier NDJSON report records with `"status": "ok"`.
#[derive(Debug, Default)]
pub struct DoneSet {
    paths: HashSet<String>,
}

impl DoneSet {
    /// Reads a report. A missing file is an empty set (the first run of a
    /// resumable job); lines that are not complete JSON records (the torn last
    /// line of a killed run, the summary) are passed over.
    pub fn read(path: &Path) -> io::Result<DoneSet> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(DoneSet::default()),
            Err(e) => return Err(e),
        };
        let mut paths = HashSet::new();
        for line in io::BufReader::new(file).split(b'\n') {
            let line = line?;
            #[derive(serde::Deserialize)]
            struct Head {
                path: Option<String>,
                status: Option<String>,
            }
            if let Ok(Head {
                path: Some(p),
                status: Some(s),
            }) = serde_json::from_slice::<Head>(&line)
                && s == "ok"
            {
                paths.insert(p);
            }
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
}
