//! The eager load: lopdf parses the whole file (damaged cross-reference
//! data, an encryption the lazy store leaves to it, or an object its strict
//! parser does not read), after the checks lopdf's recursive parser needs.
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

use crate::error::{Encryption, Error, Limit, Unreadable};
use crate::options::LoadOptions;
use lopdf::Object;

/// Loads the whole file with lopdf: the nesting pre-scan, the load, the
/// encryption and catalog checks. Returns the document and whether lopdf
/// rebuilt its cross-reference table.
pub(crate) fn load_eager(
    bytes: &[u8],
    options: &LoadOptions,
) -> Result<(lopdf::Document, bool), Error> {
    // lopdf's parser recurses: a file nesting deeper than the limit anywhere
    // never reaches it. (The lazy store's own parser is bounded and reads only
    // the objects a scan needs, so a deep object that nothing refers to does
    // not stop a file read on demand.)
    let blanked = check_nesting(bytes, options.max_nesting_depth)?;
    let bytes = blanked.as_deref().unwrap_or(bytes);
    let lopts = lopdf::LoadOptions {
        max_decompressed_size: Some(options.max_stream_bytes),
        ..lopdf::LoadOptions::default()
    };
    let inner = lopdf::Document::load_mem_with_options(bytes, lopts).map_err(map_load_error)?;
    check_decrypted(bytes, &inner)?;
    let repaired = inner.xref_recovery.is_some();
    if repaired {
        check_written_root(bytes, &inner)?;
    }
    if inner.objects.len() > options.max_objects_resolved {
        return Err(Error::limit(Limit::ObjectsHeld {
            limit: options.max_objects_resolved,
        }));
    }
    Ok((inner, repaired))
}

/// An encrypted file that lopdf loaded whole is read only when the empty
/// password is its *user* password ([`super::check_user_password`]):
/// lopdf also opens a file whose owner password is empty, which its author
/// locked with a user password (pdf.js's `pr6531_2.pdf`). One whose
/// `/Encrypt` lopdf left in place (not decrypted: a user password, or a
/// dictionary written directly in the trailer, which lopdf 0.47 does not
/// read) is refused with the reason, and so is one whose `/Encrypt` object
/// the file holds (`bytes`) but lopdf could not read as a dictionary.
fn check_decrypted(bytes: &[u8], inner: &lopdf::Document) -> Result<(), Error> {
    let refuse = |why| Err(Error::encrypted(why));
    if let Some(state) = &inner.encryption_state {
        return match state.encode() {
            // lopdf reads no crypt filter given by reference (pdf.js
            // `issue7665.pdf`: `/CF 7 0 R`) and then leaves every string and
            // stream as it is, in ciphertext: refused, never read as text.
            Ok(dict) if !names_its_filters(&dict) => refuse(Encryption::Damaged),
            Ok(dict) => super::check_user_password(&dict, &inner.trailer).or_else(refuse),
            Err(_) => refuse(Encryption::Damaged),
        };
    }
    // An /Encrypt that is no dictionary encrypts nothing (pdf.js and MuPDF
    // read such a file as it is).
    // One that the file holds but that is damaged does encrypt the file:
    // reading it as plain text would report ciphertext (MuPDF does).
    let dict = match inner.trailer.get(b"Encrypt") {
        Ok(Object::Dictionary(d)) => d,
        Ok(Object::Reference(id)) => match inner.get_object(*id) {
            Ok(Object::Dictionary(d)) => d,
            _ if super::holds_object(bytes, *id) => {
                return refuse(Encryption::DamagedDictionary {
                    num: id.0,
                    generation: id.1,
                });
            }
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    match super::check_user_password(dict, &inner.trailer) {
        Err(why) => refuse(why),
        // Encrypted by a method read here, but not decrypted by the eager load.
        Ok(()) => refuse(Encryption::Damaged),
    }
}

/// Whether the crypt filters `/StmF` and `/StrF` name (under `/V` 4 or 5)
/// are `/Identity` or listed in `/CF`, as lopdf's decryption read them.
fn names_its_filters(dict: &lopdf::Dictionary) -> bool {
    let version = dict.get(b"V").and_then(Object::as_i64).unwrap_or(0);
    if version < 4 {
        return true;
    }
    let listed = |key: &[u8]| match dict.get(key) {
        Ok(Object::Name(n)) if n.as_slice() == b"Identity" => true,
        Ok(Object::Name(n)) => matches!(
            dict.get(b"CF"),
            Ok(Object::Dictionary(cf)) if cf.has(n)
        ),
        // Absent: Identity by default (ISO 32000-1 table 20).
        Err(_) => true,
        Ok(_) => false,
    };
    listed(b"StmF") && listed(b"StrF")
}

fn map_load_error(e: lopdf::Error) -> Error {
    crate::error::from_lopdf(e)
}

/// Rejects files whose arrays/dictionaries nest deeper than the limit, before the
/// recursive parser sees them (lopdf's parser recurses once per level); see
/// [`crate::nesting`].
///
/// A *trailer* dictionary nested past the limit (qpdf's issue-202.pdf, 68,467
/// levels) is damaged data, not content: it is blanked, and the file rebuilt
/// from its objects as MuPDF does (the copy is returned). An object nested
/// past it is refused: it may be a page.
fn check_nesting(bytes: &[u8], max_depth: usize) -> Result<Option<Vec<u8>>, Error> {
    let refuse = || Error::limit(Limit::Nesting { limit: max_depth });
    let Some(at) = crate::nesting::too_deep_at(bytes, max_depth) else {
        return Ok(None);
    };
    let before = bytes.get(..at).unwrap_or_default();
    let Some(start) = memchr::memmem::rfind(before, b"trailer") else {
        return Err(refuse());
    };
    let inside = bytes.get(start..at).unwrap_or_default();
    if find(inside, b"endobj").is_some() || find(inside, b"startxref").is_some() {
        return Err(refuse());
    }
    let end =
        find(bytes.get(at..).unwrap_or_default(), b"startxref").map_or(bytes.len(), |e| at + e);
    let mut copy = bytes.to_vec();
    // The keyword stays: lopdf then finds no trailer dictionary and rebuilds.
    if let Some(region) = copy.get_mut(start + b"trailer".len()..end) {
        region.fill(b' ');
    }
    if crate::nesting::nesting_exceeds(&copy, max_depth) {
        return Err(refuse());
    }
    Ok(Some(copy))
}

/// A repaired file whose last written trailer names a `/Root` that does not
/// exist is refused, as qpdf and MuPDF do: guessing another catalog could scan
/// the wrong document revision. (A file with no trailer at all is rebuilt.)
fn check_written_root(bytes: &[u8], doc: &lopdf::Document) -> Result<(), Error> {
    let Some(pos) = bytes.windows(7).rposition(|w| w == b"trailer") else {
        return Ok(());
    };
    let tail = &bytes[pos..bytes.len().min(pos + 4096)];
    let Some(r) = find(tail, b"/Root") else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(&tail[r + 5..tail.len().min(r + 40)]);
    let mut words = text.split_whitespace();
    let (Some(n), Some(g), Some(kw)) = (words.next(), words.next(), words.next()) else {
        return Ok(());
    };
    let (Ok(n), Ok(g)) = (n.parse::<u32>(), g.parse::<u16>()) else {
        return Ok(());
    };
    if !kw.starts_with('R') {
        return Ok(());
    }
    match doc.get_object((n, g)) {
        Ok(Object::Dictionary(_)) => Ok(()),
        _ => Err(Error::unreadable_by(
            Unreadable::NotCatalog {
                num: n,
                generation: g,
            },
            None,
        )),
    }
}

/// The first occurrence of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}
