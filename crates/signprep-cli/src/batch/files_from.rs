//! `--files-from FILE|-`: one path per line, or NDJSON objects with a `path` key.
//!
//! Lines are read lazily, so signprep can sit in a pipe (Spark's `RDD.pipe`,
//! `find | signprep scan --files-from -`) and answer each line as it comes.
//! A line is the path exactly (only the line ending is removed); blank lines are
//! skipped; a line starting with `{` is a JSON object whose `path` (a string) is
//! taken and whose other keys are ignored, so an earlier report can be fed back
//! (its `{"summary": ...}` record is skipped).

use std::io::{self, BufRead};
use std::path::PathBuf;

/// One entry of the list: a path, or why the line gave none.
#[derive(Debug)]
pub enum Entry {
    Path(PathBuf),
    /// `(what to call it, error)`: an unusable line, or the list unreadable.
    Bad(PathBuf, io::Error),
}

/// The entries of a list, read line by line.
pub struct Lines {
    reader: Box<dyn BufRead + Send>,
    name: String,
    line_no: usize,
    done: bool,
    buf: Vec<u8>,
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines")
            .field("name", &self.name)
            .field("line_no", &self.line_no)
            .finish_non_exhaustive()
    }
}

impl Lines {
    /// Opens FILE, or standard input for `-`.
    pub fn open(path: &std::path::Path) -> io::Result<Lines> {
        if path.as_os_str() == "-" {
            Ok(Lines::new(
                Box::new(io::BufReader::new(io::stdin())),
                "standard input",
            ))
        } else {
            let f = std::fs::File::open(path)?;
            Ok(Lines::new(
                Box::new(io::BufReader::new(f)),
                &path.display().to_string(),
            ))
        }
    }

    pub fn new(reader: Box<dyn BufRead + Send>, name: &str) -> Lines {
        Lines {
            reader,
            name: name.to_string(),
            line_no: 0,
            done: false,
            buf: Vec::new(),
        }
    }
}

impl Iterator for Lines {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        while !self.done {
            self.buf.clear();
            match self.reader.read_until(b'\n', &mut self.buf) {
                Ok(0) => self.done = true,
                Ok(_) => {
                    self.line_no += 1;
                    if let Some(entry) = parse_line(&self.buf, self.line_no, &self.name) {
                        return Some(entry);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some(Entry::Bad(
                        PathBuf::from(&self.name),
                        io::Error::new(
                            e.kind(),
                            format!(
                                "cannot read the file list: {}",
                                signprep_core::io_reason(&e)
                            ),
                        ),
                    ));
                }
            }
        }
        None
    }
}

/// One line as an entry; `None` for a blank line.
fn parse_line(raw: &[u8], line_no: usize, list: &str) -> Option<Entry> {
    let mut line = raw;
    while let [rest @ .., b'\n' | b'\r'] = line {
        line = rest;
    }
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    if line[start] != b'{' {
        return Some(Entry::Path(path_from_bytes(line)));
    }
    let bad = |msg: String| {
        let shown = String::from_utf8_lossy(line);
        let shown: String = shown.chars().take(200).collect();
        Entry::Bad(
            PathBuf::from(shown),
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("line {line_no} of {list}: {msg}"),
            ),
        )
    };
    match serde_json::from_slice::<serde_json::Value>(line) {
        Ok(v) => match v.get("path").and_then(|p| p.as_str()) {
            Some(p) => Some(Entry::Path(PathBuf::from(p))),
            // The summary record of an earlier report fed back in.
            None if v.get("summary").is_some() => None,
            None => Some(bad("a JSON object without a string `path`".into())),
        },
        Err(e) => Some(bad(format!("not valid JSON: {e}"))),
    }
}

#[cfg(unix)]
fn path_from_bytes(b: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(b))
}

#[cfg(not(unix))]
fn path_from_bytes(b: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Vec<String> {
        Lines::new(Box::new(io::Cursor::new(text.as_bytes().to_vec())), "list")
            .map(|e| match e {
                Entry::Path(p) => p.display().to_string(),
                Entry::Bad(p, e) => format!("BAD {} ({e})", p.display()),
            })
            .collect()
    }

    #[test]
    fn plain_and_ndjson_lines() {
        let got = entries(
            "a.pdf\r\n\n  \n dir/with space.pdf\n{\"path\": \"b.pdf\", \"status\": \"ok\"}\n{\"summary\": {}}\n{\"x\": 1}\n{oops\nlast.pdf",
        );
        assert_eq!(got[0], "a.pdf");
        assert_eq!(got[1], " dir/with space.pdf");
        assert_eq!(got[2], "b.pdf");
        assert!(got[3].starts_with("BAD {\"x\": 1}"), "{got:?}");
        assert!(got[3].contains("line 7 of list"), "{got:?}");
        assert!(got[4].starts_with("BAD {oops"), "{got:?}");
        assert_eq!(got[5], "last.pdf");
        assert_eq!(got.len(), 6);
    }
}
