//! zlib streams written with a fixed encoder (miniz_oxide, called directly),
//! so that fixture bytes are the same whatever flate2 backend feature
//! unification picks for the build.

use lopdf::Stream;
use miniz_oxide::deflate::core::{
    CompressorOxide, TDEFLFlush, TDEFLStatus, compress, create_comp_flags_from_zip_params,
};

use crate::Error;

/// Flate-compresses a stream in place with a fixed encoder (miniz_oxide, level 6),
/// so fixture bytes are the same whatever flate2 backend the build selects.
pub fn deflate_stream(s: &mut Stream) {
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&s.content, 6);
    s.dict.set("Filter", "FlateDecode");
    s.set_content(packed);
}

/// A zlib stream inflating to `mib` MiB of zero bytes; see [`repeated_zlib`].
pub fn zeros_zlib(mib: usize) -> Result<Vec<u8>, Error> {
    repeated_zlib(0, mib)
}

/// A zlib stream inflating to `mib` MiB of `byte`, built by repeating the
/// sync-flushed deflate blocks of one MiB: about a thousandth of the size.
/// miniz_oxide is called directly so the bytes do not depend on the flate2
/// backend that feature unification picks.
pub fn repeated_zlib(byte: u8, mib: usize) -> Result<Vec<u8>, Error> {
    const MIB: usize = 1 << 20;
    const MOD: u64 = 65521;
    let chunk = vec![byte; MIB];
    // Raw deflate (negative window bits) at the best level; the zlib header
    // and checksum are written here.
    let mut c = CompressorOxide::new(create_comp_flags_from_zip_params(10, -15, 0));
    let head = sync_flushed(&mut c, &chunk)?;
    let rest = sync_flushed(&mut c, &chunk)?;
    let mut out = vec![0x78, 0xda];
    out.extend_from_slice(&head);
    for _ in 1..mib {
        // Blocks of back-references into a window that holds only `byte`:
        // valid anywhere after the first MiB.
        out.extend_from_slice(&rest);
    }
    // An empty final fixed-Huffman block, then the Adler-32 of n bytes of v:
    // a = 1 + n v, b = n + v n (n + 1) / 2 (mod 65521).
    out.extend_from_slice(&[0x03, 0x00]);
    let n = (mib * MIB) as u64;
    let v = u64::from(byte);
    let a = (1 + (n % MOD) * v) % MOD;
    let (h, k) = if n.is_multiple_of(2) {
        (n / 2, n + 1)
    } else {
        (n, n.div_ceil(2))
    };
    let b = (n % MOD + v * ((h % MOD) * (k % MOD) % MOD)) % MOD;
    out.extend_from_slice(&((b << 16 | a) as u32).to_be_bytes());
    Ok(out)
}

/// Compresses `input` and sync-flushes: the output ends on a byte boundary
/// after complete, non-final blocks.
fn sync_flushed(c: &mut CompressorOxide, mut input: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let (status, read, written) = compress(c, input, &mut buf, TDEFLFlush::Sync);
        if status != TDEFLStatus::Okay {
            return Err(Error::new(format!("deflate failed: {status:?}")));
        }
        out.extend_from_slice(buf.get(..written).unwrap_or_default());
        input = input.get(read..).unwrap_or_default();
        if input.is_empty() && written < buf.len() {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn inflate(z: &[u8]) -> Result<Vec<u8>, String> {
        // Checks the Adler-32 at the end too.
        miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(z, 64 << 20)
            .map_err(|e| format!("{e:?}"))
    }

    #[test]
    fn bombs_inflate_to_the_size_they_claim() {
        for (byte, mib) in [(0u8, 40usize), (b'[', 7), (0xff, 3)] {
            let z = repeated_zlib(byte, mib).unwrap();
            assert!(z.len() < mib * 1500, "{} bytes", z.len());
            let data = inflate(&z).unwrap();
            assert_eq!(data.len(), mib << 20);
            assert!(data.iter().all(|&b| b == byte));
        }
    }

    #[test]
    fn a_wrong_checksum_would_be_noticed() {
        let mut z = repeated_zlib(b'[', 2).unwrap();
        let last = z.len() - 1;
        z[last] ^= 1;
        assert!(inflate(&z).is_err());
    }
}
