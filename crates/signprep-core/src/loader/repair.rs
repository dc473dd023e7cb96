//! Rebuilding a cross-reference table by scanning the file for `N G obj`
//! headers, as MuPDF's repair and pdf.js's recovery do, for a table that
//! reads cleanly but does not describe the file: an entry whose offset holds
//! another object (a section numbered one off, say), or a `/Root` that is not
//! a catalog under it.

use super::parse::{Parser, is_ws};
use crate::chars::is_regular;
use std::collections::BTreeMap;

/// Where each object's newest header starts, by object number, with its
/// generation. A header later in the file replaces an earlier one of the same
/// number unless its generation is lower (an incremental update appends the
/// new version of an object). Headers inside stream data are skipped.
pub(super) fn scan_headers(buf: &[u8]) -> BTreeMap<u32, (u16, usize)> {
    let mut found: BTreeMap<u32, (u16, usize)> = BTreeMap::new();
    // Headers inside a stream's data (an embedded file, a PDF in a stream)
    // are not objects of this file.
    let mut skip_until = 0;
    for at in memchr::memmem::find_iter(buf, b"obj") {
        if at < skip_until {
            continue;
        }
        // `obj` must end a token: not `objstm`, not `object`.
        if buf.get(at + 3).is_some_and(|&c| is_regular(c)) {
            continue;
        }
        let Some(start) = header_start(buf, at) else {
            continue;
        };
        let mut p = Parser::new(buf, start, 1);
        let Some((num, generation)) = p.object_header() else {
            continue;
        };
        match found.get(&num) {
            Some(&(g, _)) if g > generation => {}
            _ => {
                found.insert(num, (generation, start));
            }
        }
        skip_until = stream_end(buf, p.pos()).unwrap_or(at + 3);
    }
    found
}

/// Where the `N G` before the `obj` at `at` starts: two runs of digits, each
/// followed by white space, the first one starting a token.
fn header_start(buf: &[u8], at: usize) -> Option<usize> {
    let before = buf.get(..at)?;
    let mut i = before.len();
    let skip_ws = |i: &mut usize| {
        let start = *i;
        while *i > 0 && before.get(*i - 1).is_some_and(|&c| is_ws(c)) {
            *i -= 1;
        }
        *i < start
    };
    let digits = |i: &mut usize| {
        let start = *i;
        while *i > 0 && before.get(*i - 1).is_some_and(u8::is_ascii_digit) {
            *i -= 1;
        }
        *i < start
    };
    skip_ws(&mut i);
    if !digits(&mut i) || !skip_ws(&mut i) || !digits(&mut i) {
        return None;
    }
    let starts_token = i == 0 || before.get(i - 1).is_some_and(|&c| !is_regular(c));
    starts_token.then_some(i)
}

/// The end of the stream data of the object whose body starts at `body`,
/// when its dictionary is followed by `stream` before the next `endobj`.
fn stream_end(buf: &[u8], body: usize) -> Option<usize> {
    let rest = buf.get(body..)?;
    let endobj = memchr::memmem::find(rest, b"endobj").unwrap_or(rest.len());
    let stream = memchr::memmem::find(rest.get(..endobj)?, b"stream")?;
    // `endstream` of a stream without data would be found first: it is not
    // the start of one.
    if stream >= 3 && rest.get(stream - 3..stream) == Some(b"end") {
        return None;
    }
    let data = body + stream + b"stream".len();
    let end = memchr::memmem::find(buf.get(data..)?, b"endstream")?;
    Some(data + end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_headers_replace_earlier_ones_and_streams_are_skipped() {
        let pdf = b"%PDF-1.7\n1 0 obj\n<< /Type /Font >>\nendobj\n\
            2 0 obj\n<< /Length 20 >>\nstream\n9 0 obj\n<< >>\nendobj\nendstream\nendobj\n\
            1 0 obj<< /Type /Catalog >>endobj\n3 0 objstm 4 1 obj\n(x)\nendobj\n";
        let found = scan_headers(pdf);
        let text = |n: u32| {
            let (_, at) = found[&n];
            String::from_utf8_lossy(&pdf[at..at + 8]).into_owned()
        };
        assert_eq!(found.keys().copied().collect::<Vec<_>>(), vec![1, 2, 4]);
        assert_eq!(text(1), "1 0 obj<");
        assert_eq!(found[&4].0, 1);
        assert!(pdf[found[&1].1..].starts_with(b"1 0 obj<< /Type /Catalog"));
    }

    #[test]
    fn a_header_must_start_a_token() {
        assert!(scan_headers(b"x12 0 obj\n1 0 obj\n").keys().eq([1].iter()));
        assert!(scan_headers(b"12 0 endobj 0 obj").is_empty());
    }
}
