//! Inflating `/FlateDecode` streams, the common case, without lopdf's per-stream
//! setup.
//!
//! lopdf's `decompressed_content_with_limit` builds a new zlib state (a 32 KiB
//! window, ~15 k instructions), a zero-filled 32 KiB read buffer (~33 k) and an
//! `io::Read` pipeline for every stream; a page's content stream is often only a
//! few KiB. Here each thread keeps one decompressor and resets it, and inflates
//! straight from the stream's bytes into the output. Only a stream whose
//! `/Filter` is exactly `/FlateDecode` (or `[/FlateDecode]`) without
//! `/DecodeParms` is taken, and every case where lopdf's result could differ
//! (a corrupt stream, whose partial output and raw-deflate retry lopdf defines)
//! is handed back to lopdf: the output is byte-identical (see the tests), with
//! one exception, below.
//!
//! Most streams are decoded first by libdeflate ([`whole`]), in one call. It
//! reads a little more than zlib (its `deflate_decompress.c`,
//! `build_decode_table`: "we accept what zlib accepts, plus a bit more"): a
//! Huffman code of a single one-bit codeword decodes both bit values to its
//! symbol, where zlib's table holds an error for the unused one. A stream
//! whose unused bit was flipped is then read whole by libdeflate, and its
//! Adler-32 vouches for the bytes, where zlib stops with "invalid
//! literal/length code" and lopdf keeps what came before. We keep
//! libdeflate's whole, checksum-verified content (found by the property test
//! below; `a_flipped_unused_code_bit_is_read_whole` holds the case).
#![allow(clippy::disallowed_types)] // the loader: decodes lopdf streams (object streams; the document's, for it)

use flate2::{Decompress, FlushDecompress, Status};
use lopdf::{Object, Stream};
use std::cell::RefCell;

/// What [`inflate`] concluded.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Inflated {
    /// The decoded bytes, exactly as lopdf would have returned them.
    Data(Vec<u8>),
    /// The stream inflates to more than the limit.
    OverLimit,
    /// Not a case this module decides: ask lopdf.
    Lopdf,
}

/// Output size past which lopdf inflates the stream instead.
const HAND_OVER: usize = 1 << 20;

thread_local! {
    static DECOMPRESS: RefCell<Option<Decompress>> = const { RefCell::new(None) };
    /// libdeflate's decompressor and the buffer it writes into (up to
    /// [`HAND_OVER`] bytes), kept by each thread.
    static WHOLE: RefCell<Option<(libdeflater::Decompressor, Vec<u8>)>> = const { RefCell::new(None) };
}

/// True when lopdf would read the stream's filter chain as a single FlateDecode
/// and apply no predictor. lopdf reads `/Filter` and `/DecodeParms` without
/// following references, and so does this.
fn plain_flate(stream: &Stream) -> bool {
    let flate = match stream.dict.get(b"Filter") {
        Ok(Object::Name(n)) => n.as_slice() == b"FlateDecode",
        Ok(Object::Array(a)) => {
            matches!(a.as_slice(), [Object::Name(n)] if n.as_slice() == b"FlateDecode")
        }
        _ => false,
    };
    flate && matches!(stream.dict.get(b"DecodeParms"), Err(_) | Ok(Object::Null))
}

/// Inflates `stream` when it is a plain FlateDecode stream, refusing output
/// longer than `limit` bytes.
pub(crate) fn inflate(stream: &Stream, limit: usize) -> Inflated {
    if !plain_flate(stream) {
        return Inflated::Lopdf;
    }
    let input = stream.content.as_slice();
    if input.is_empty() {
        return Inflated::Data(Vec::new());
    }
    if let Some(data) = whole(input, limit) {
        return Inflated::Data(data);
    }
    DECOMPRESS.with(|cell| {
        // A re-entrant call (none today) would find the decompressor borrowed:
        // lopdf then does the work.
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return Inflated::Lopdf;
        };
        let d = match slot.as_mut() {
            Some(d) => {
                d.reset(true);
                d
            }
            None => slot.insert(Decompress::new(true)),
        };
        run(d, input, limit)
    })
}

/// The stream inflated in one call by libdeflate, when it is a whole, valid
/// zlib stream (header, data, Adler-32) of at most `limit` bytes and at most
/// [`HAND_OVER`]; `None` for anything else, which [`run`] then decides as
/// before. The bytes are those zlib gives whenever zlib reads the stream
/// (the one stream shape zlib refuses and libdeflate reads is in the module
/// doc); libdeflate decodes it about twice as fast as zlib's streaming
/// inflate on the small streams of a page, and its only cost is that it
/// must be given the room for the whole output (one buffer per thread).
fn whole(input: &[u8], limit: usize) -> Option<Vec<u8>> {
    WHOLE.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        let (d, buf) =
            slot.get_or_insert_with(|| (libdeflater::Decompressor::new(), vec![0; HAND_OVER]));
        let room = buf.get_mut(..limit.min(HAND_OVER))?;
        let n = d.zlib_decompress(input, room).ok()?;
        room.get(..n).map(<[u8]>::to_vec)
    })
}

fn run(d: &mut Decompress, input: &[u8], limit: usize) -> Inflated {
    // lopdf's starting guess (twice the input, at most one byte past the
    // limit), and at most the size where lopdf takes over.
    let cap = input
        .len()
        .saturating_mul(2)
        .min(limit.saturating_add(1))
        .min(HAND_OVER);
    let mut out = Vec::with_capacity(cap.max(64));
    loop {
        if out.len() > limit {
            return Inflated::OverLimit;
        }
        if out.len() >= HAND_OVER {
            // A large stream (or a bomb): lopdf's reader grows its buffer with
            // less memory left behind (flate_bomb_1gb peaked at 141 MB when
            // inflated here to the 64 MiB limit, 76 MB through lopdf), and its
            // per-stream setup no longer matters. At most 1 MiB is inflated twice.
            return Inflated::Lopdf;
        }
        if out.len() == out.capacity() {
            // Double, but never past one byte over the limit: a bomb stops there.
            let room = out
                .len()
                .max(4096)
                .min(limit.saturating_add(1).saturating_sub(out.len()));
            out.reserve(room.max(1));
        }
        let consumed = usize::try_from(d.total_in()).unwrap_or(usize::MAX);
        let rest = input.get(consumed..).unwrap_or_default();
        let flush = if rest.is_empty() {
            FlushDecompress::Finish
        } else {
            FlushDecompress::None
        };
        let before = (d.total_in(), d.total_out());
        match d.decompress_vec(rest, &mut out, flush) {
            Ok(Status::StreamEnd) => break,
            Ok(Status::Ok | Status::BufError) => {
                if (d.total_in(), d.total_out()) == before {
                    if rest.is_empty() {
                        // A truncated stream: lopdf keeps what was inflated.
                        break;
                    }
                    // No progress with input and room left: not a state lopdf's
                    // reader loop is known to end in the same way.
                    return Inflated::Lopdf;
                }
            }
            // lopdf keeps a corrupt stream's partial output as its reader
            // delivered it, or retries it as raw deflate: let it decide.
            Err(_) => return Inflated::Lopdf,
        }
    }
    if out.len() > limit {
        return Inflated::OverLimit;
    }
    Inflated::Data(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::ZlibEncoder;
    use lopdf::Dictionary;
    use std::io::Write;

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        let _ = e.write_all(data);
        e.finish().unwrap_or_default()
    }

    fn flate_stream(content: Vec<u8>) -> Stream {
        let mut dict = Dictionary::new();
        dict.set("Filter", Object::Name(b"FlateDecode".to_vec()));
        Stream::new(dict, content)
    }

    /// Same result as lopdf: data, the limit error, or a hand-back.
    fn agrees(stream: &Stream, limit: usize) {
        let ours = inflate(stream, limit);
        let theirs = stream.decompressed_content_with_limit(limit);
        match (&ours, theirs) {
            (Inflated::Data(a), Ok(b)) => assert_eq!(a, &b),
            (
                Inflated::OverLimit,
                Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                    ..
                })),
            ) => {}
            (Inflated::Lopdf, _) => {}
            (a, b) => panic!("ours {a:?}, lopdf {b:?}"),
        }
    }

    #[test]
    fn matches_lopdf_on_whole_truncated_and_oversized_streams() {
        let text: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let z = zlib(&text);
        let s = flate_stream(z.clone());
        assert_eq!(inflate(&s, usize::MAX / 2), Inflated::Data(text.clone()));
        agrees(&s, usize::MAX / 2);
        agrees(&s, text.len());
        assert_eq!(inflate(&s, text.len() - 1), Inflated::OverLimit);
        agrees(&s, text.len() - 1);
        for cut in [3, 10, z.len() / 2, z.len() - 4, z.len() - 1] {
            agrees(
                &flate_stream(z.get(..cut).unwrap_or_default().to_vec()),
                1 << 30,
            );
        }
        // Trailing bytes after the end of the zlib stream are ignored by both.
        let mut extra = z.clone();
        extra.extend_from_slice(b"\r\nendstream garbage");
        agrees(&flate_stream(extra), 1 << 30);
    }

    #[test]
    fn corrupt_and_unusual_streams_go_to_lopdf() {
        // Not a zlib header: lopdf retries as raw deflate.
        assert_eq!(
            inflate(&flate_stream(b"xx garbage".to_vec()), 1 << 20),
            Inflated::Lopdf
        );
        let mut bad = zlib(b"hello hello hello");
        if let Some(b) = bad.last_mut() {
            *b ^= 0xff; // adler32
        }
        assert_eq!(inflate(&flate_stream(bad), 1 << 20), Inflated::Lopdf);
        let mut s = flate_stream(zlib(b"x"));
        s.dict.set("DecodeParms", Dictionary::new());
        assert_eq!(inflate(&s, 1 << 20), Inflated::Lopdf);
        let mut s = flate_stream(zlib(b"x"));
        s.dict.set("Filter", Object::Reference((1, 0)));
        assert_eq!(inflate(&s, 1 << 20), Inflated::Lopdf);
        let mut s = flate_stream(zlib(b"x"));
        s.dict.set(
            "Filter",
            Object::Array(vec![Object::Name(b"FlateDecode".to_vec())]),
        );
        assert_eq!(inflate(&s, 1 << 20), Inflated::Data(b"x".to_vec()));
        assert_eq!(
            inflate(&flate_stream(Vec::new()), 10),
            Inflated::Data(Vec::new())
        );
    }

    /// The streaming inflate alone, as before libdeflate.
    fn streaming(input: &[u8], limit: usize) -> Inflated {
        run(&mut Decompress::new(true), input, limit)
    }

    proptest::proptest! {
        /// libdeflate answers only for a whole stream within the limit, and
        /// then with zlib's bytes where zlib reads it, and otherwise (the
        /// module doc's flipped unused bit) with the data compressed; for
        /// anything else (a cut, random bytes, a smaller limit) it leaves
        /// the stream to the streaming path.
        #[test]
        fn libdeflate_answers_only_as_zlib_would(
            unit in proptest::collection::vec(proptest::num::u8::ANY, 1..300),
            repeat in 1usize..40,
            damage in 0u8..4,
            at in proptest::num::usize::ANY,
            mask in 1u8..=255,
            short in 0usize..3,
        ) {
            let data = unit.repeat(repeat);
            let mut input = zlib(&data);
            let n = input.len();
            match damage {
                1 => if let Some(b) = input.get_mut(at % n) { *b ^= mask },
                2 => input.truncate(at % n),
                3 => input = data.clone(),
                _ => {}
            }
            let limit = data.len() - short.min(data.len());
            let fast = whole(&input, limit);
            if damage == 0 && short == 0 {
                proptest::prop_assert_eq!(fast.as_deref(), Some(data.as_slice()));
            }
            if let Some(fast) = fast {
                match streaming(&input, limit) {
                    Inflated::Data(slow) => proptest::prop_assert_eq!(slow, fast),
                    _ => proptest::prop_assert_eq!(fast, data),
                }
            }
        }
    }

    /// The case the property test found: the 88-byte zlib stream of
    /// `data` (1,890 bytes) with its byte 76 changed from 0x68 to 0x58. zlib stops there
    /// ("invalid literal/length code", 1,603 bytes out); libdeflate reads it
    /// whole, the Adler-32 matches the data: the lenience the module doc
    /// describes.
    #[test]
    fn a_flipped_unused_code_bit_is_read_whole() {
        let unit = [
            0u8, 0, 144, 0, 144, 144, 144, 0, 144, 0, 145, 0, 0, 144, 144, 0, 0, 144, 145, 144, 0,
            0, 0, 144, 146, 0, 144, 144, 1, 0, 0, 144, 1, 0, 1, 1, 48, 19, 148, 150, 162, 3, 34,
            223, 166, 178, 198, 55, 24, 182, 59, 51, 5, 71,
        ];
        let data = unit.repeat(35);
        let stream: [u8; 88] = [
            0x78, 0x9c, 0x63, 0x60, 0x98, 0xc0, 0x30, 0x61, 0xc2, 0x04, 0x86, 0x09, 0x0c, 0x13,
            0x19, 0x18, 0x26, 0x4c, 0x60, 0x60, 0x98, 0x30, 0x71, 0x02, 0x03, 0x03, 0xc3, 0x84,
            0x49, 0x0c, 0x13, 0x26, 0x30, 0x32, 0x30, 0x4c, 0x60, 0x64, 0x60, 0x64, 0x34, 0x10,
            0x9e, 0x32, 0x6d, 0x11, 0xb3, 0xd2, 0xfd, 0x65, 0x9b, 0x8e, 0x99, 0x4b, 0x6c, 0xb3,
            0x36, 0x66, 0x75, 0x67, 0x18, 0xd5, 0x35, 0x1a, 0x1a, 0xa3, 0x69, 0x63, 0x34, 0xa7,
            0x8c, 0x96, 0x1b, 0xa3, 0xe5, 0xe1, 0x58, 0xed, 0xc0, 0x80, 0xaf, 0xae, 0x04, 0x00,
            0xbe, 0x0e, 0x2f, 0x07,
        ];
        assert_eq!(streaming(&stream, 1 << 20), Inflated::Lopdf);
        assert_eq!(
            inflate(&flate_stream(stream.to_vec()), 1 << 20),
            Inflated::Data(data)
        );
    }

    #[test]
    fn a_bomb_stops_one_byte_past_the_limit() {
        let z = zlib(&vec![0u8; 50 << 20]);
        let s = flate_stream(z);
        assert_eq!(inflate(&s, 1 << 19), Inflated::OverLimit);
        agrees(&s, 1 << 19);
        // Past HAND_OVER, lopdf inflates (and finds the bomb).
        assert_eq!(inflate(&s, 8 << 20), Inflated::Lopdf);
        agrees(&s, 8 << 20);
    }
}
