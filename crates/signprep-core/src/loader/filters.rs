//! Stream filter names as viewers accept them: the abbreviations ISO 32000-1
//! defines for inline images (Table 94: `/AHx`, `/A85`, `/LZW`, `/Fl`, `/RL`,
//! `/CCF`, `/DCT`) are accepted in stream dictionaries too by Acrobat, pdf.js
//! and MuPDF (qpdf's `filter-abbreviation.pdf`). lopdf decodes the full names
//! only, so a stream naming an abbreviation is decoded through a copy of its
//! dictionary with the full names; its `/DecodeParms` (predictors) apply as
//! to the full name, and so do the inflate limits.
#![allow(clippy::disallowed_types)] // the loader: decodes lopdf streams (object streams; the document's, for it)

use lopdf::{Dictionary, Object, Stream};

/// The full name of an abbreviated filter name.
fn full_name(name: &[u8]) -> Option<&'static [u8]> {
    Some(match name {
        b"AHx" => b"ASCIIHexDecode",
        b"A85" => b"ASCII85Decode",
        b"LZW" => b"LZWDecode",
        b"Fl" => b"FlateDecode",
        b"RL" => b"RunLengthDecode",
        b"CCF" => b"CCITTFaxDecode",
        b"DCT" => b"DCTDecode",
        _ => return None,
    })
}

/// Writes the full names into `dict`'s `/Filter` (a name, or an array of
/// names); `true` when one was abbreviated.
fn expand(dict: &mut Dictionary) -> bool {
    let Ok(filter) = dict.get_mut(b"Filter") else {
        return false;
    };
    let mut changed = false;
    let mut one = |o: &mut Object| {
        if let Object::Name(n) = o
            && let Some(full) = full_name(n)
        {
            *n = full.to_vec();
            changed = true;
        }
    };
    match filter {
        Object::Array(items) => items.iter_mut().for_each(&mut one),
        other => one(other),
    }
    changed
}

/// `stream` with the full filter names, when it names an abbreviation
/// (a copy: the document is not modified while it is scanned).
pub(crate) fn expanded(stream: &Stream) -> Option<Stream> {
    let names = |o: &Object| matches!(o, Object::Name(n) if full_name(n).is_some());
    let abbreviated = match stream.dict.get(b"Filter") {
        Ok(Object::Array(items)) => items.iter().any(names),
        Ok(o) => names(o),
        Err(_) => false,
    };
    if !abbreviated {
        return None;
    }
    let mut copy = stream.clone();
    expand(&mut copy.dict);
    Some(copy)
}

/// `stream` with the full filter names, in place.
pub(crate) fn expand_owned(mut stream: Stream) -> Stream {
    expand(&mut stream.dict);
    stream
}

/// The filter names of `stream`, as written, for messages.
pub(crate) fn names(stream: &Stream) -> String {
    let name = |o: &Object| match o {
        Object::Name(n) => format!("/{}", String::from_utf8_lossy(n)),
        _ => "(not a name)".to_string(),
    };
    match stream.dict.get(b"Filter") {
        Ok(Object::Array(items)) => items.iter().map(name).collect::<Vec<_>>().join(" "),
        Ok(o) => name(o),
        Err(_) => "none".to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn stream(filter: Object, parms: Option<Dictionary>, content: &[u8]) -> Stream {
        let mut dict = Dictionary::new();
        dict.set("Filter", filter);
        if let Some(p) = parms {
            dict.set("DecodeParms", p);
        }
        Stream::new(dict, content.to_vec())
    }

    fn decode(s: &Stream) -> Vec<u8> {
        let s = expanded(s).unwrap();
        s.decompressed_content_with_limit(1 << 20).unwrap()
    }

    #[test]
    fn every_abbreviation_decodes_as_its_full_name() {
        let name = |n: &str| Object::Name(n.as_bytes().to_vec());
        assert_eq!(decode(&stream(name("AHx"), None, b"48 69>")), b"Hi");
        assert_eq!(
            decode(&stream(name("A85"), None, b"87cURD]i,\"Ebo80~>")),
            b"Hello World!"
        );
        // Run length: 2 literal bytes, then 'z' repeated 3 times, then EOD.
        assert_eq!(
            decode(&stream(name("RL"), None, b"\x01ab\xfez\x80")),
            b"abzzz"
        );
        let chain = Object::Array(vec![name("AHx"), name("RL")]);
        assert_eq!(decode(&stream(chain, None, b"016162fe7a80>")), b"abzzz");
        // Flate with a PNG predictor (Up, 2 columns): rows 01 02 / 03 05.
        let raw = [2u8, 1, 2, 2, 2, 3];
        let z = miniz(&raw);
        let mut parms = Dictionary::new();
        parms.set("Predictor", 12);
        parms.set("Columns", 2);
        assert_eq!(decode(&stream(name("Fl"), Some(parms), &z)), [1, 2, 3, 5]);
        // LZW (EarlyChange 1): "-----A---B" from ISO 32000-1 7.4.4.2.
        let lzw = [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01];
        assert_eq!(decode(&stream(name("LZW"), None, &lzw)), b"-----A---B");
    }

    #[test]
    fn full_names_and_image_filters_are_left_alone() {
        let s = stream(Object::Name(b"FlateDecode".to_vec()), None, b"");
        assert!(expanded(&s).is_none());
        let s = stream(Object::Name(b"DCT".to_vec()), None, b"");
        let e = expanded(&s).unwrap();
        assert_eq!(names(&e), "/DCTDecode");
    }

    fn miniz(data: &[u8]) -> Vec<u8> {
        use std::io::Write as _;
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }
}
