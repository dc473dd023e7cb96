//! Writing a changed copy of the document as an *incremental update* (ISO
//! 32000-1 7.5.6): the input's bytes unchanged, then new bodies for the
//! replaced content streams (same object numbers, Flate-compressed), a
//! cross-reference section of the kind the file's newest one is (a table or a
//! stream) and a trailer whose `/Prev` is the input's `startxref`.
//!
//! When the input's own cross-reference data needed repair to be read (some
//! entries led to no header and were found by scanning, or the table was
//! rebuilt), chaining to it would leave every other reader to repair it too,
//! each its own way (lopdf, for one, reads the object before the edit). The
//! section written is then *complete*: every object of the file where signprep
//! found it, the replaced streams at their new bodies, and no `/Prev`, so any
//! reader takes exactly this table.
//!
//! Why an update and not a rewrite: every object not replaced stays
//! byte-identical (fonts, images, forms, metadata, object streams), nothing
//! lopdf would re-serialise differently can change a page, and a reader that
//! wants the original has it in the first bytes of the copy. It is the
//! document layer's job because it serialises lopdf's dictionaries (the
//! replaced streams keep theirs, less the filter and length).
#![allow(clippy::disallowed_types)] // the document layer: writes lopdf objects

use super::{Document, ObjectId};
use crate::loader::Place;
use lopdf::{Dictionary, Object, Writer};

/// Why no update could be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum UpdateRefusal {
    /// The file is encrypted: the new streams would have to be encrypted too.
    Encrypted,
    /// The cross-reference data did not read cleanly (the file was loaded
    /// whole or its table rebuilt): an update would chain to damaged data.
    Damaged,
    /// Object `id` is not a stream in this file, or its data lives in another
    /// file (`/F`).
    NotReplaceable(ObjectId),
}

impl UpdateRefusal {
    /// In our words, for a finding.
    pub(crate) fn describe(&self) -> String {
        match self {
            UpdateRefusal::Encrypted => {
                "the file is encrypted, and signprep does not write encrypted files".into()
            }
            UpdateRefusal::Damaged => {
                "the file's cross-reference data is damaged, and a copy could not be chained to it"
                    .into()
            }
            UpdateRefusal::NotReplaceable((n, g)) => {
                format!(
                    "content stream object {n} {g} cannot be replaced (not a stream, or its data is in another file)"
                )
            }
        }
    }
}

impl Document {
    /// True when the file is encrypted.
    pub(crate) fn is_encrypted(&self) -> bool {
        self.store.encrypted()
    }

    /// True when the form says signatures exist (`/AcroForm /SigFlags` bit 1,
    /// ISO 32000-1 12.7.2): changing the file is then reported.
    pub(crate) fn is_signed(&self) -> bool {
        let root = self.get_dict(self.trailer(), b"Root");
        let form = root.and_then(|r| self.get_dict(r, b"AcroForm"));
        form.and_then(|f| self.get_number(f, b"SigFlags"))
            .is_some_and(|v| (v as i64) & 1 == 1)
    }

    /// Whether [`Document::incremental_update`] can write a copy: the input's
    /// bytes, where its offsets count from, its `startxref`, and, when its
    /// cross-reference data needed repair, the whole table to write instead
    /// of a `/Prev` (see the module's documentation).
    pub(crate) fn updatable(&self) -> Result<Updatable<'_>, UpdateRefusal> {
        if self.is_encrypted() {
            return Err(UpdateRefusal::Encrypted);
        }
        let Some((input, base)) = self.store.input() else {
            return Err(UpdateRefusal::Damaged);
        };
        let prev = crate::loader::xref::xref_start(input).ok_or(UpdateRefusal::Damaged)?;
        // A lazy store's `repaired` is its rebuilt table; an eager load has no
        // input (refused above).
        let whole = if self.store.rebuilt() || self.store.resolved() {
            Some(self.store.table().ok_or(UpdateRefusal::Damaged)?)
        } else {
            None
        };
        Ok(Updatable {
            input,
            base,
            prev,
            whole,
        })
    }

    /// The input with an incremental update appended that gives each object
    /// of `replacements` the decoded stream data beside it (its dictionary
    /// kept, `/Filter` `/FlateDecode`); the input as it is when there is
    /// nothing to replace.
    pub(crate) fn incremental_update(
        &self,
        replacements: &[(ObjectId, Vec<u8>)],
    ) -> Result<Vec<u8>, UpdateRefusal> {
        let Updatable {
            input,
            base,
            prev,
            whole,
        } = self.updatable()?;
        if replacements.is_empty() {
            return Ok(input.to_vec());
        }
        let newest_is_stream = !input
            .get(base + prev..)
            .is_some_and(|rest| rest.starts_with(b"xref"));
        let mut out = Vec::with_capacity(input.len() + replacements.len() * 4096 + 512);
        out.extend_from_slice(input);
        if !matches!(out.last(), Some(b'\n' | b'\r')) {
            out.push(b'\n');
        }
        let mut offsets: Vec<(ObjectId, usize)> = Vec::new();
        let mut sorted: Vec<&(ObjectId, Vec<u8>)> = replacements.iter().collect();
        sorted.sort_by_key(|(id, _)| *id);
        for (id, data) in sorted {
            let dict = self.replaced_dict(*id)?;
            let body = deflate(data);
            offsets.push((*id, out.len() - base));
            let mut dict = dict;
            dict.set("Length", Object::Integer(body.len() as i64));
            out.extend_from_slice(format!("{} {} obj\n", id.0, id.1).as_bytes());
            // Writing to a Vec cannot fail.
            let _ = Writer::write_object(&mut out, &Object::Dictionary(dict));
            out.extend_from_slice(b"\nstream\n");
            out.extend_from_slice(&body);
            out.extend_from_slice(b"\nendstream\nendobj\n");
        }
        let prev = whole.is_none().then_some(prev);
        // A complete section lists runs of numbers; an update one subsection
        // per object, as it always has.
        let runs = whole.is_some();
        let rows = match whole {
            Some(table) => complete_rows(&table, &offsets),
            None => offsets
                .iter()
                .map(|&((n, g), off)| (n, Row::At(off, g)))
                .collect(),
        };
        let trailer = self.update_trailer(prev, &rows);
        let compressed = rows.iter().any(|(_, r)| matches!(r, Row::In(..)));
        if newest_is_stream || compressed {
            write_xref_stream(&mut out, base, trailer, &rows, runs);
        } else {
            write_xref_table(&mut out, base, trailer, &rows, runs);
        }
        Ok(out)
    }

    /// The dictionary of stream `id` for its new body: `/Filter`,
    /// `/DecodeParms` and `/DL` dropped (the body is written with one filter).
    fn replaced_dict(&self, id: ObjectId) -> Result<Dictionary, UpdateRefusal> {
        let Some(Object::Stream(stream)) = self.store.get(id) else {
            return Err(UpdateRefusal::NotReplaceable(id));
        };
        let mut dict = stream.dict.clone();
        if dict.has(b"F") {
            return Err(UpdateRefusal::NotReplaceable(id));
        }
        for key in [&b"Filter"[..], b"DecodeParms", b"DL", b"Length"] {
            dict.remove(key);
        }
        dict.set("Filter", Object::Name(b"FlateDecode".to_vec()));
        Ok(dict)
    }

    /// The update's trailer entries: `/Size`, `/Root`, `/Info`, `/ID` as the
    /// newest trailer has them, `/Prev` (none for a complete section).
    fn update_trailer(&self, prev: Option<usize>, rows: &[(u32, Row)]) -> Dictionary {
        let old = self.store.trailer();
        let mut t = Dictionary::new();
        // Rows are ascending: the last one's number + 1 covers them all.
        let size = old
            .get(b"Size")
            .ok()
            .and_then(|o| o.as_i64().ok())
            .unwrap_or(0)
            .max(rows.last().map_or(0, |&(n, _)| i64::from(n) + 1));
        t.set("Size", Object::Integer(size));
        for key in ["Root", "Info", "ID"] {
            if let Ok(v) = old.get(key.as_bytes()) {
                t.set(key, v.clone());
            }
        }
        if let Some(prev) = prev {
            t.set("Prev", Object::Integer(prev as i64));
        }
        t
    }
}

/// What [`Document::updatable`] found.
pub(crate) struct Updatable<'a> {
    input: &'a [u8],
    base: usize,
    prev: usize,
    /// The whole table, when the section written must be complete.
    whole: Option<Vec<(u32, Place)>>,
}

/// One row of the section written: free, at an offset (with its generation),
/// or member `index` of object stream `container`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Free,
    At(usize, u16),
    In(u32, u16),
}

/// Every row of a complete section: object 0 to the highest number, the
/// table's places with the replaced streams at their new offsets, numbers
/// the table does not list free.
fn complete_rows(table: &[(u32, Place)], offsets: &[(ObjectId, usize)]) -> Vec<(u32, Row)> {
    let mut rows: std::collections::BTreeMap<u32, Row> = table
        .iter()
        .map(|&(n, place)| {
            let row = match place {
                Place::Free => Row::Free,
                Place::At { offset, generation } => Row::At(offset as usize, generation),
                Place::In { container, index } => Row::In(container, index),
            };
            (n, row)
        })
        .collect();
    for &((n, g), off) in offsets {
        rows.insert(n, Row::At(off, g));
    }
    rows.insert(0, Row::Free);
    let top = rows.keys().next_back().copied().unwrap_or(0);
    (0..=top)
        .map(|n| (n, rows.get(&n).copied().unwrap_or(Row::Free)))
        .collect()
}

/// `data` compressed as zlib (`/FlateDecode`) at the default level.
///
/// One compressor per thread, reset between streams: building one (its
/// window and hash tables, ~270 KB at level 6) for each rewritten stream
/// was about a third of `--strip`'s time on short documents. The output is
/// byte-identical to a fresh `ZlibEncoder`'s.
fn deflate(data: &[u8]) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress, Status};
    use std::cell::RefCell;
    thread_local! {
        static ZLIB: RefCell<Compress> = RefCell::new(Compress::new(Compression::default(), true));
    }
    ZLIB.with(|z| {
        let mut z = z.borrow_mut();
        z.reset();
        let mut out = Vec::with_capacity(data.len() / 3 + 64);
        loop {
            let at = usize::try_from(z.total_in()).unwrap_or(usize::MAX);
            let rest = data.get(at..).unwrap_or_default();
            match z.compress_vec(rest, &mut out, FlushCompress::Finish) {
                Ok(Status::StreamEnd) => return out,
                Ok(Status::Ok | Status::BufError) => out.reserve(out.capacity().max(64)),
                // Compressing into memory does not fail; an empty body is
                // what the writer this replaced gave on failure.
                Err(_) => return Vec::new(),
            }
        }
    })
}

/// A classic section: one subsection per row, or with `runs` per run of
/// consecutive numbers, then the trailer. Object 0 heads the free list
/// (generation 65535).
fn write_xref_table(
    out: &mut Vec<u8>,
    base: usize,
    trailer: Dictionary,
    rows: &[(u32, Row)],
    runs: bool,
) {
    let at = out.len() - base;
    out.extend_from_slice(b"xref\n");
    let mut i = 0;
    while let Some(&(first, _)) = rows.get(i) {
        let run = rows
            .get(i..)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .take_while(|&(k, &(n, _))| {
                k == 0 || (runs && u64::from(n) == u64::from(first) + k as u64)
            })
            .count();
        out.extend_from_slice(format!("{first} {run}\n").as_bytes());
        for &(n, row) in rows.get(i..i + run).unwrap_or_default() {
            let line = match row {
                Row::At(off, g) => format!("{off:010} {g:05} n\r\n"),
                Row::Free if n == 0 => "0000000000 65535 f\r\n".to_string(),
                // A classic table cannot hold a compressed entry (the
                // caller writes a stream then).
                Row::Free | Row::In(..) => "0000000000 00000 f\r\n".to_string(),
            };
            out.extend_from_slice(line.as_bytes());
        }
        i += run.max(1);
    }
    out.extend_from_slice(b"trailer\n");
    let _ = Writer::write_object(out, &Object::Dictionary(trailer));
    out.extend_from_slice(format!("\nstartxref\n{at}\n%%EOF\n").as_bytes());
}

/// A cross-reference stream (uncompressed) numbered `/Size`, which grows by
/// one; one `/Index` pair per row, or with `runs` per run of consecutive
/// numbers.
fn write_xref_stream(
    out: &mut Vec<u8>,
    base: usize,
    mut trailer: Dictionary,
    rows: &[(u32, Row)],
    runs: bool,
) {
    let own = trailer
        .get(b"Size")
        .ok()
        .and_then(|o| o.as_i64().ok())
        .unwrap_or(0)
        .max(0);
    let at = out.len() - base;
    let mut entries: Vec<(i64, Row)> = rows.iter().map(|&(n, r)| (i64::from(n), r)).collect();
    entries.push((own, Row::At(at, 0)));
    let width = if at > u32::MAX as usize { 8 } else { 4 };
    let mut data = Vec::with_capacity(entries.len() * (3 + width));
    let mut index: Vec<Object> = Vec::new();
    let mut run: Option<(i64, i64)> = None;
    for &(n, row) in &entries {
        let (kind, field, generation) = match row {
            Row::Free => (0u8, 0u64, if n == 0 { 65535 } else { 0 }),
            Row::At(off, g) => (1, off as u64, g),
            Row::In(container, i) => (2, u64::from(container), i),
        };
        data.push(kind);
        data.extend_from_slice(&field.to_be_bytes()[8 - width..]);
        data.extend_from_slice(&generation.to_be_bytes());
        run = match run {
            Some((first, count)) if runs && first + count == n => Some((first, count + 1)),
            Some((first, count)) => {
                index.extend([Object::Integer(first), Object::Integer(count)]);
                Some((n, 1))
            }
            None => Some((n, 1)),
        };
    }
    if let Some((first, count)) = run {
        index.extend([Object::Integer(first), Object::Integer(count)]);
    }
    trailer.set("Size", Object::Integer(own + 1));
    trailer.set("Type", Object::Name(b"XRef".to_vec()));
    trailer.set(
        "W",
        Object::Array(vec![
            Object::Integer(1),
            Object::Integer(width as i64),
            Object::Integer(2),
        ]),
    );
    trailer.set("Index", Object::Array(index));
    trailer.set("Length", Object::Integer(data.len() as i64));
    out.extend_from_slice(format!("{own} 0 obj\n").as_bytes());
    let _ = Writer::write_object(out, &Object::Dictionary(trailer));
    out.extend_from_slice(b"\nstream\n");
    out.extend_from_slice(&data);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{at}\n%%EOF\n").as_bytes());
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::deflate;
    use std::io::Write as _;

    fn fresh(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn the_reused_compressor_writes_what_a_fresh_one_does() {
        let long: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        for data in [
            &b"BT /F1 10 Tf [<41> -600 <42>] TJ ET"[..],
            &long,
            b"",
            b"q Q",
        ] {
            assert_eq!(deflate(data), fresh(data), "{} bytes", data.len());
        }
    }
}
