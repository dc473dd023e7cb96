//! Cross-reference data as written: `startxref`, classic tables, cross-reference
//! streams, `/Prev` chains and hybrid `/XRefStm` sections.
//!
//! Only files whose cross-reference data reads cleanly are accepted: every
//! offset must point exactly at a section, every section must parse. lopdf
//! corrects slightly wrong offsets and rebuilds broken tables by scanning; such
//! files are left to it (the caller falls back to the eager load), so that the
//! lazy store sees the same table lopdf would. The merge rules are lopdf's own
//! ([`Xref::merge`], [`Xref::merge_hybrid`]), and cross-reference streams are
//! decoded by lopdf ([`decode_xref_stream_with_limit`]: Flate and PNG
//! predictors, bounded by the stream limit).
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

use super::indirect::{Expect, indirect_object, starts_object_header};
use super::parse::Parser;
use lopdf::xref::{Xref, XrefEntry, XrefType, decode_xref_stream_with_limit};
use lopdf::{Dictionary, Object};
use std::collections::HashSet;

/// Most cross-reference sections followed through `/Prev`.
const MAX_SECTIONS: usize = 4096;

/// Limits that apply while the cross-reference data is read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct XrefLimits {
    pub(crate) max_depth: usize,
    pub(crate) max_stream_bytes: usize,
}

/// The merged cross-reference data as [`read`] found it.
#[derive(Debug)]
pub(crate) struct Sections {
    /// The entries, newer sections over older ones.
    pub(crate) xref: Xref,
    /// The newest trailer, without `/Prev` and `/XRefStm`.
    pub(crate) trailer: Dictionary,
    /// An older section named by `/Prev` is not there (no section starts at
    /// its offset, or it is past the end of the file): the newer sections' entries are
    /// all here, and the objects they do not list are for the caller to find
    /// by scanning (a newer section always wins over an older one, damaged
    /// or not).
    pub(crate) older_damaged: bool,
}

/// The merged cross-reference table and the newest trailer (without `/Prev`
/// and `/XRefStm`), or `None` when the newest section does not read cleanly.
/// A `/Prev` chain that loops ends where it loops.
pub(crate) fn read(buf: &[u8], limits: XrefLimits) -> Option<Sections> {
    let start = xref_start(buf)?;
    if start > buf.len() {
        return None;
    }
    let (mut xref, mut trailer) = section_at(buf, start, limits)?;
    merge_hybrid(buf, &mut xref, trailer.remove(b"XRefStm"), limits)?;
    let mut seen = HashSet::from([start]);
    let mut prev = trailer.remove(b"Prev");
    let mut older_damaged = false;
    while let Some(p) = prev {
        let p = usize::try_from(p.as_i64().ok()?).ok()?;
        if !seen.insert(p) || seen.len() > MAX_SECTIONS {
            break;
        }
        let older = (p <= buf.len())
            .then(|| section_at(buf, p, limits))
            .flatten()
            .and_then(|(mut older, mut older_trailer)| {
                merge_hybrid(buf, &mut older, older_trailer.remove(b"XRefStm"), limits)?;
                Some((older, older_trailer))
            });
        let Some((older, mut older_trailer)) = older else {
            // A section is there that this reader does not read (lopdf's
            // grammar may): the eager load decides, as for any such file.
            let rest = buf.get(p..).unwrap_or_default();
            if rest.starts_with(b"xref") || starts_object_header(rest) {
                return None;
            }
            older_damaged = true;
            break;
        };
        xref.merge(older);
        prev = older_trailer.remove(b"Prev");
    }
    // lopdf refuses a table whose size would overflow.
    if xref.max_id() == u32::MAX {
        return None;
    }
    Some(Sections {
        xref,
        trailer,
        older_damaged,
    })
}

/// Merges the cross-reference stream a hybrid file's table names.
fn merge_hybrid(
    buf: &[u8],
    xref: &mut Xref,
    xref_stm: Option<Object>,
    limits: XrefLimits,
) -> Option<()> {
    let Some(at) = xref_stm else {
        return Some(());
    };
    let at = usize::try_from(at.as_i64().ok()?).ok()?;
    if at > buf.len() {
        return None;
    }
    let (stream_xref, _) = section_at(buf, at, limits)?;
    xref.merge_hybrid(stream_xref);
    Some(())
}

/// The section at `offset`: a table (`xref`) or a cross-reference stream.
/// lopdf takes an offset as written when one of these starts exactly there.
fn section_at(buf: &[u8], offset: usize, limits: XrefLimits) -> Option<(Xref, Dictionary)> {
    let rest = buf.get(offset..)?;
    if rest.starts_with(b"xref") {
        table(buf, offset, limits)
    } else if starts_object_header(rest) {
        let (_, object) =
            indirect_object(buf, offset, Expect::Any, limits.max_depth, &mut |_| None)?;
        let Object::Stream(stream) = object else {
            return None;
        };
        // Abbreviated filter names (`/Fl`) read as the full ones.
        let stream = super::filters::expand_owned(stream);
        decode_xref_stream_with_limit(stream, Some(limits.max_stream_bytes)).ok()
    } else {
        None
    }
}

/// A classic table and its trailer, read with lopdf's grammar: subsection
/// counts are not trusted (entries are read while they parse), entries end in
/// ` \r`, ` \n`, `\r\n`, `\n` or `\r`.
fn table(buf: &[u8], offset: usize, limits: XrefLimits) -> Option<(Xref, Dictionary)> {
    let mut p = Parser::new(buf, offset, limits.max_depth);
    if !p.eat(b"xref") {
        return None;
    }
    p.eat(b" ");
    if !p.eol() {
        return None;
    }
    let mut xref = Xref::new(0, XrefType::CrossReferenceTable);
    let mut sections = 0usize;
    loop {
        let mark = p.pos();
        let Some(start) = subsection_header(&mut p) else {
            // Not a subsection: rewind (lopdf's fold_many1 stops here).
            p = Parser::new(buf, mark, limits.max_depth);
            break;
        };
        sections += 1;
        let mut index = 0usize;
        loop {
            let mark = p.pos();
            match entry(&mut p) {
                Some(e) => {
                    if let Some(e) = e {
                        let id = start.checked_add(index).and_then(|i| u32::try_from(i).ok());
                        if let Some(id) = id {
                            xref.insert(id, e);
                        }
                    }
                    index += 1;
                }
                None => {
                    p = Parser::new(buf, mark, limits.max_depth);
                    break;
                }
            }
        }
    }
    if sections == 0 {
        return None;
    }
    p.skip_space();
    if !p.eat(b"trailer") {
        return None;
    }
    p.skip_space();
    let trailer = p.dictionary(0)?;
    let size = trailer.get(b"Size").ok()?.as_i64().ok()?;
    xref.size = size as u32;
    Some((xref, trailer))
}

/// `start count` and its end of line; returns `start`.
fn subsection_header(p: &mut Parser<'_>) -> Option<usize> {
    let start = p.unsigned::<usize>()?;
    if !p.eat(b" ") {
        return None;
    }
    p.unsigned::<u32>()?;
    p.eat(b" ");
    if !p.eol() {
        return None;
    }
    Some(start)
}

/// One entry line. `Some(None)` for an entry lopdf skips (a generation past
/// `u16`), which still takes its object number.
fn entry(p: &mut Parser<'_>) -> Option<Option<XrefEntry>> {
    let offset = p.unsigned::<u32>()?;
    if !p.eat(b" ") {
        return None;
    }
    let generation = p.unsigned::<u32>()?;
    if !p.eat(b" ") {
        return None;
    }
    let normal = if p.eat(b"n") {
        true
    } else if p.eat(b"f") {
        false
    } else {
        return None;
    };
    if !(p.eat(b" \r") || p.eat(b" \n") || p.eat(b"\r\n") || p.eat(b"\n") || p.eat(b"\r")) {
        return None;
    }
    Some(if !normal {
        Some(XrefEntry::Free)
    } else {
        u16::try_from(generation)
            .ok()
            .map(|generation| XrefEntry::Normal { offset, generation })
    })
}

/// The offset `startxref` gives, found as lopdf finds it: the last `%%EOF` in
/// the last 1024 bytes (trailing white space and NULs ignored), a `startxref`
/// at most 25 bytes before it.
pub(crate) fn xref_start(buf: &[u8]) -> Option<usize> {
    let end = buf
        .iter()
        .rposition(|c| !b" \t\n\r\0\x0C".contains(c))
        .map_or(0, |pos| pos + 1);
    let head = buf.get(..end)?;
    let seek = end - end.min(1024);
    let eof = rfind(head, b"%%EOF", seek).filter(|&e| e > 25)?;
    let at = rfind(buf.get(..eof)?, b"startxref", eof - 25)?;
    let mut p = Parser::new(buf, at, 1);
    if !p.eat(b"startxref") {
        return None;
    }
    p.eat(b" ");
    if !p.eol() {
        return None;
    }
    while p.eat(b" ") {}
    let negative = p.eat(b"-");
    if !negative {
        p.eat(b"+");
    }
    let value = p.unsigned::<i64>()?;
    while p.eat(b" ") {}
    if !p.eol() || !p.eat(b"%%EOF") {
        return None;
    }
    if negative && value != 0 {
        return None;
    }
    usize::try_from(value).ok()
}

/// The last occurrence of `needle` starting at or after `from`.
fn rfind(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .rposition(|w| w == needle)
        .map(|p| from + p)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const LIMITS: XrefLimits = XrefLimits {
        max_depth: 256,
        max_stream_bytes: 1 << 20,
    };

    fn entries(x: &Xref) -> Vec<(u32, String)> {
        x.entries
            .iter()
            .map(|(k, v)| (*k, format!("{v:?}")))
            .collect()
    }

    #[test]
    fn startxref_is_found_like_lopdf() {
        assert_eq!(
            xref_start(b"%PDF-1.4\n..........................startxref\n123\n%%EOF\n\0\0"),
            Some(123)
        );
        assert_eq!(
            xref_start(b"%PDF-1.4\n..........................startxref\r\n 9 \r\n%%EOF"),
            Some(9)
        );
        assert_eq!(
            xref_start(b"%PDF-1.4\n..........................startxref\n12x\n%%EOF"),
            None
        );
        assert_eq!(xref_start(b"short"), None);
    }

    #[test]
    fn table_with_subsections_and_lenient_line_ends() {
        let t = b"xref\n0 2\n0000000000 65535 f \n0000000017 00000 n\r\n5 1 \n0000000099 00002 n\ntrailer\n<< /Size 6 /Root 1 0 R >>\n";
        let (x, trailer) = table(t, 0, LIMITS).unwrap();
        assert_eq!(
            entries(&x),
            vec![
                (0, "Free".into()),
                (1, "Normal { offset: 17, generation: 0 }".into()),
                (5, "Normal { offset: 99, generation: 2 }".into()),
            ]
        );
        assert_eq!(trailer.get(b"Root").unwrap(), &Object::Reference((1, 0)));
        // Without /Size lopdf refuses the table.
        assert!(
            table(
                b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< >>\n",
                0,
                LIMITS
            )
            .is_none()
        );
        // No subsection at all.
        assert!(table(b"xref\ntrailer\n<< /Size 1 >>\n", 0, LIMITS).is_none());
        // ` \r\n` (21-byte entries) stops lopdf's table: the trailer is not found.
        assert!(
            table(
                b"xref\n0 1\n0000000000 65535 f \r\n0000000017 00000 n \r\ntrailer\n<< /Size 2 >>",
                0,
                LIMITS
            )
            .is_none()
        );
    }

    #[test]
    fn agrees_with_lopdf_on_generated_files() {
        // lopdf's writer, with and without object/xref streams.
        for streams in [false, true] {
            let mut doc = lopdf::Document::with_version("1.5");
            let pages = doc.new_object_id();
            let page = doc.add_object(lopdf::dictionary! { "Type" => "Page", "Parent" => pages });
            doc.objects.insert(
                pages,
                Object::Dictionary(lopdf::dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 }),
            );
            let cat = doc.add_object(lopdf::dictionary! { "Type" => "Catalog", "Pages" => pages });
            doc.trailer.set("Root", cat);
            let mut bytes = Vec::new();
            let opts = lopdf::SaveOptions::builder()
                .use_object_streams(streams)
                .use_xref_streams(streams)
                .build();
            doc.save_with_options(&mut bytes, opts).unwrap();
            let Sections {
                xref: x, trailer, ..
            } = read(&bytes, LIMITS).unwrap();
            let theirs = lopdf::Document::load_mem(&bytes).unwrap();
            assert_eq!(entries(&x), entries(&theirs.reference_table));
            assert_eq!(trailer.get(b"Root").ok(), theirs.trailer.get(b"Root").ok());
        }
    }

    /// A file with an incremental update (`/Prev`) and an xref stream with a
    /// PNG predictor in the older section.
    pub(crate) fn prev_chain_file() -> Vec<u8> {
        use std::io::Write;
        let mut pdf = b"%PDF-1.5\n".to_vec();
        let o1 = pdf.len();
        pdf.extend_from_slice(b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
        let o2 = pdf.len();
        pdf.extend_from_slice(b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n");
        let o3 = pdf.len();
        pdf.extend_from_slice(
            b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>\nendobj\n",
        );
        // Xref stream (object 4) with /W [1 2 1], PNG Up predictor, Flate.
        let o4 = pdf.len();
        // Free entries 5..=54 make the data long enough for Flate to pay.
        let mut rows: Vec<[u8; 4]> = vec![
            [0, 0, 0, 255],
            [1, (o1 >> 8) as u8, o1 as u8, 0],
            [1, (o2 >> 8) as u8, o2 as u8, 0],
            [1, (o3 >> 8) as u8, o3 as u8, 0],
            [1, (o4 >> 8) as u8, o4 as u8, 0],
        ];
        rows.resize(55, [0, 0, 0, 0]);
        let mut raw = Vec::new();
        let mut prev = [0u8; 4];
        for r in &rows {
            raw.push(2u8); // PNG Up
            for i in 0..4 {
                raw.push(r[i].wrapping_sub(prev[i]));
            }
            prev = *r;
        }
        let mut enc = flate2_compress(&raw);
        let head = format!(
            "4 0 obj\n<< /Type /XRef /Size 55 /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >> /Length {} >>\nstream\n",
            enc.len()
        );
        pdf.extend_from_slice(head.as_bytes());
        pdf.append(&mut enc);
        pdf.extend_from_slice(b"\nendstream\nendobj\n");
        // The update: a new page 3 in a classic table pointing back.
        let n3 = pdf.len();
        pdf.extend_from_slice(
            b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\n",
        );
        let x2 = pdf.len();
        write!(
            pdf,
            "xref\n0 1\n0000000000 65535 f \n3 1\n{n3:010} 00000 n \ntrailer\n<< /Size 55 /Root 1 0 R /Prev {o4} >>\nstartxref\n{x2}\n%%EOF\n"
        )
        .unwrap();
        pdf
    }

    fn flate2_compress(data: &[u8]) -> Vec<u8> {
        let mut s = lopdf::Stream::new(lopdf::Dictionary::new(), data.to_vec());
        s.compress().unwrap();
        assert!(s.dict.has(b"Filter"), "lopdf left the data uncompressed");
        s.content
    }

    #[test]
    fn prev_chain_and_predictor() {
        let pdf = prev_chain_file();

        let Sections {
            xref: x, trailer, ..
        } = read(&pdf, LIMITS).unwrap();
        let theirs = lopdf::Document::load_mem(&pdf).unwrap();
        assert_eq!(theirs.xref_recovery, None);
        assert_eq!(entries(&x), entries(&theirs.reference_table));
        assert!(!trailer.has(b"Prev"));
        match x.get(3) {
            Some(XrefEntry::Normal { offset, .. }) => {
                assert!(
                    pdf[*offset as usize..]
                        .starts_with(b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200")
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn wrong_offsets_are_refused() {
        let pdf = prev_chain_file();
        let text = String::from_utf8_lossy(&pdf).into_owned();
        let at = text.rfind("startxref\n").unwrap() + 10;
        let end = text[at..].find('\n').unwrap() + at;
        let x2: usize = text[at..end].parse().unwrap();
        for wrong in [x2 - 1, x2 + 1] {
            let bad = format!("{}{}{}", &text[..at], wrong, &text[end..]);
            assert!(read(bad.as_bytes(), LIMITS).is_none(), "{wrong}");
        }
    }
}
