//! The lazy store's index ([`read`]): the cross-reference table as entries by
//! object number, and the checks made while it is built: the decryptor of an
//! encrypted file, the header at each entry's offset, and the entries of a
//! table rebuilt by scanning ([`super::repair`]); also where each member of
//! an object stream starts.
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

use super::{crypt, indirect, parse, repair, xref};
use crate::error::Encryption;
use crate::options::LoadOptions;
use lopdf::xref::XrefEntry;
use lopdf::{Dictionary, Object, ObjectId};
use std::collections::HashMap;

/// One cross-reference entry.
#[derive(Clone, Copy, Debug)]
pub(super) enum Entry {
    Free,
    Normal {
        offset: u32,
        generation: u16,
    },
    Compressed {
        container: u32,
        /// Its index in the container (as the cross-reference data gives it).
        index: u16,
    },
    /// An entry whose offset holds, right there, the header of another
    /// object number: the table is numbered wrong (asked for while the
    /// document is opened, the table is rebuilt by scanning; after, the eager
    /// load says what this id holds).
    Misnumbered,
}

/// Where an object of the file is, as a complete cross-reference section
/// lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Free,
    /// At this offset (from `%PDF-`), with this generation.
    At {
        offset: u32,
        generation: u16,
    },
    /// Member `index` of object stream `container`.
    In {
        container: u32,
        index: u16,
    },
}

/// A decoded object stream: its data and where each member starts.
#[derive(Debug)]
pub(super) struct ObjStm {
    pub(super) data: Vec<u8>,
    pub(super) members: HashMap<u32, usize>,
}

/// Why [`read`] did not read a file.
#[derive(Debug)]
pub(super) enum Unread {
    /// Encrypted, and the empty user password does not open it.
    Encrypted(Encryption),
    /// Not a file the lazy store reads (the eager load decides).
    Other,
}

/// What [`read`] read: where `%PDF-` starts, the entries by number,
/// the trailer, the decryptor, and whether the table was rebuilt.
pub(super) struct Index {
    pub(super) base: usize,
    pub(super) nums: Vec<u32>,
    pub(super) entries: Vec<Entry>,
    pub(super) trailer: Dictionary,
    pub(super) crypt: Option<crypt::Decryptor>,
    pub(super) repaired: bool,
    /// Some entries in use did not lead to their own header and were looked
    /// for by scanning the file (see [`read`]).
    pub(super) resolved: bool,
    /// The numbers of those entries, ascending.
    pub(super) resolved_nums: Vec<u32>,
}

/// Reads the cross-reference data of `bytes` and checks every entry's header
/// (with `rebuild`, rebuilds the table by scanning instead: see
/// [`super::Lazy::open`]).
pub(super) fn read(bytes: &[u8], options: &LoadOptions, rebuild: bool) -> Result<Index, Unread> {
    let other = || Unread::Other;
    let base = bytes
        .windows(5)
        .position(|w| w == b"%PDF-")
        .ok_or_else(other)?;
    let buf = bytes.get(base..).ok_or_else(other)?;
    // lopdf needs an end of line after the header.
    if !buf.iter().any(|&c| c == b'\r' || c == b'\n') {
        return Err(other());
    }
    let limits = xref::XrefLimits {
        max_depth: options.max_nesting_depth,
        max_stream_bytes: options.max_stream_bytes,
    };
    let xref::Sections {
        xref: table,
        mut trailer,
        older_damaged,
    } = xref::read(buf, limits).ok_or_else(other)?;
    let crypt = match trailer.get(b"Encrypt") {
        Err(_) => None,
        Ok(encrypt) => {
            let (decryptor, encrypt_id) =
                decryptor(buf, &table, &trailer, encrypt, options.max_nesting_depth)?;
            // As after lopdf's decryption: no /Encrypt, and its object gone.
            trailer.remove(b"Encrypt");
            Some((decryptor, encrypt_id))
        }
    };
    let encrypt_id = crypt.as_ref().and_then(|(_, id)| *id);
    let crypt = crypt.map(|(d, _)| d);
    if rebuild {
        let (nums, entries) = rebuilt(buf, &table, encrypt_id);
        return Ok(Index {
            base,
            nums,
            entries,
            trailer,
            crypt,
            repaired: true,
            resolved: false,
            resolved_nums: Vec::new(),
        });
    }
    let mut nums = Vec::with_capacity(table.entries.len());
    let mut entries = Vec::with_capacity(table.entries.len());
    // Entries whose offset does not lead to their own header, by index.
    let mut strays: Vec<usize> = Vec::new();
    for (&num, entry) in &table.entries {
        let e = match *entry {
            XrefEntry::Free | XrefEntry::UnusableFree => Entry::Free,
            XrefEntry::Normal { generation, .. } if Some((num, generation)) == encrypt_id => {
                Entry::Free
            }
            XrefEntry::Normal { offset, generation } => {
                let header = header_at(buf, offset as usize);
                if header.is_none_or(|(id, _)| id != (num, generation)) {
                    if misnumbered(buf, num, entry) {
                        // The offset holds, right there, another object's
                        // header: the table is numbered wrong (a section
                        // one off, say), and is rebuilt by scanning when the
                        // document asks for this entry.
                        Entry::Misnumbered
                    } else {
                        strays.push(entries.len());
                        Entry::Normal { offset, generation }
                    }
                } else {
                    Entry::Normal { offset, generation }
                }
            }
            XrefEntry::Compressed { container, index } => Entry::Compressed { container, index },
        };
        nums.push(num);
        entries.push(e);
    }
    // An entry in use whose offset leads to no header of its own (offset 0,
    // written by some producers for objects they never wrote; an offset past
    // the end; a stale offset) is looked for by scanning the file, and the
    // last definition in file order wins, as MuPDF's and pdf.js's recovery
    // read it; with none, the object is null (ISO 32000-1 7.3.10). It never
    // stands for another object: lopdf files what it reads at such an offset
    // under that object's own number, and so the first object past the header
    // (the page of an edited document, say) would be read as it was before
    // the edit.
    //
    // Objects an older section listed, when that section is damaged, are
    // found the same way: the newer sections' entries all stand.
    let resolved = !strays.is_empty() || older_damaged;
    let mut resolved_nums: Vec<u32> = strays
        .iter()
        .filter_map(|&ix| nums.get(ix).copied())
        .collect();
    if resolved {
        let found = repair::scan_headers(buf);
        for ix in strays {
            let (Some(&num), Some(e)) = (nums.get(ix), entries.get_mut(ix)) else {
                continue;
            };
            let Entry::Normal { generation, .. } = *e else {
                continue;
            };
            *e = match found.get(&num) {
                Some(&(g, at)) if g == generation => match u32::try_from(at) {
                    Ok(offset) => Entry::Normal { offset, generation },
                    Err(_) => Entry::Free,
                },
                _ => Entry::Free,
            };
        }
        if older_damaged {
            let mut all: std::collections::BTreeMap<u32, Entry> =
                nums.iter().copied().zip(entries.iter().copied()).collect();
            for (&num, &(generation, at)) in &found {
                if Some((num, generation)) == encrypt_id {
                    continue;
                }
                if let (std::collections::btree_map::Entry::Vacant(slot), Ok(offset)) =
                    (all.entry(num), u32::try_from(at))
                {
                    slot.insert(Entry::Normal { offset, generation });
                    resolved_nums.push(num);
                }
            }
            (nums, entries) = all.into_iter().unzip();
        }
    }
    Ok(Index {
        base,
        nums,
        entries,
        trailer,
        crypt,
        repaired: false,
        resolved,
        resolved_nums: {
            resolved_nums.sort_unstable();
            resolved_nums
        },
    })
}

/// The decryptor of an encrypted file and the id of its `/Encrypt` object
/// (`None` when the dictionary is direct); `Err` when the file is for the
/// eager load (an `/Encrypt` that is not a plain object, a method or password
/// [`crypt`] does not read).
pub(super) fn decryptor(
    buf: &[u8],
    table: &lopdf::xref::Xref,
    trailer: &Dictionary,
    encrypt: &Object,
    max_depth: usize,
) -> Result<(crypt::Decryptor, Option<ObjectId>), Unread> {
    let other = || Unread::Other;
    let id0 = first_id(trailer);
    let (dict, id) = match encrypt {
        Object::Dictionary(d) => (d.clone(), None),
        Object::Reference(id) => (
            plain_dict(buf, table, *id, max_depth).ok_or_else(other)?,
            Some(*id),
        ),
        _ => return Err(other()),
    };
    let dict = inline_crypt_filters(buf, table, dict, max_depth).ok_or_else(other)?;
    let decryptor = crypt::Decryptor::new(&dict, id0).map_err(Unread::Encrypted)?;
    Ok((decryptor, id))
}

/// The `/Encrypt` dictionary with its `/CF` dictionary, and each crypt filter
/// in it, direct: a file may give them as references (pdf.js's
/// `issue7665.pdf`: `/CF 7 0 R`, `/StdCF 8 0 R`), and read as missing they
/// would leave every string and stream in ciphertext. `None` when a
/// reference leads to no dictionary (the eager load decides).
fn inline_crypt_filters(
    buf: &[u8],
    table: &lopdf::xref::Xref,
    mut dict: Dictionary,
    max_depth: usize,
) -> Option<Dictionary> {
    let fetch = |id: ObjectId| plain_dict(buf, table, id, max_depth);
    let mut filters = match dict.get(b"CF") {
        Err(_) => return Some(dict),
        Ok(Object::Reference(id)) => fetch(*id)?,
        Ok(Object::Dictionary(d)) => d.clone(),
        Ok(_) => return Some(dict),
    };
    for (_, filter) in filters.iter_mut() {
        if let Object::Reference(id) = filter {
            *filter = Object::Dictionary(fetch(*id)?);
        }
    }
    dict.set("CF", Object::Dictionary(filters));
    Some(dict)
}

/// The dictionary object `id` as the file writes it, read before any
/// decryption (the `/Encrypt` dictionary and its crypt filters are never
/// encrypted): `None` when its entry or its object is not a plain dictionary.
fn plain_dict(
    buf: &[u8],
    table: &lopdf::xref::Xref,
    id: ObjectId,
    max_depth: usize,
) -> Option<Dictionary> {
    let Some(XrefEntry::Normal { offset, generation }) = table.entries.get(&id.0) else {
        return None;
    };
    if *generation != id.1 {
        return None;
    }
    let mut no_length = |_| None;
    match indirect::indirect_object(
        buf,
        *offset as usize,
        indirect::Expect::Id(id),
        max_depth,
        &mut no_length,
    )? {
        (_, Object::Dictionary(d)) => Some(d),
        _ => None,
    }
}

/// The first string of the trailer's `/ID`, when there is one.
fn first_id(trailer: &Dictionary) -> Option<&[u8]> {
    match trailer.get(b"ID") {
        Ok(Object::Array(ids)) => match ids.first() {
            Some(Object::String(s, _)) => Some(s.as_slice()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the empty user password opens a file that lopdf decrypted (its
/// `/Encrypt` dictionary as lopdf read it, and the trailer's `/ID`): lopdf
/// also accepts the empty password as the owner's.
pub(crate) fn check_user_password(
    encrypt: &Dictionary,
    trailer: &Dictionary,
) -> Result<(), Encryption> {
    crypt::Decryptor::new(encrypt, first_id(trailer)).map(|_| ())
}

/// True when `bytes` hold a header `N G obj` of object `id` (outside stream
/// data).
pub(crate) fn holds_object(bytes: &[u8], id: ObjectId) -> bool {
    repair::scan_headers(bytes)
        .get(&id.0)
        .is_some_and(|&(generation, _)| generation == id.1)
}

/// True when the entry's offset holds, right there, the header of an object
/// with another number (not a comment or the file's header line before one,
/// as a linearized file's entry at offset 0 leads to).
pub(super) fn misnumbered(buf: &[u8], num: u32, entry: &XrefEntry) -> bool {
    let XrefEntry::Normal { offset, .. } = *entry else {
        return false;
    };
    let offset = offset as usize;
    let start = offset
        + buf
            .get(offset..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| parse::is_ws(c))
            .count();
    matches!(header_at(buf, offset), Some(((n, _), at)) if at == start && n != num)
}

/// The entries of a table rebuilt by scanning `buf` for object headers
/// ([`repair::scan_headers`]), with the compressed entries of `table` for the
/// numbers the scan does not find; the `/Encrypt` object is free (as after
/// decryption).
pub(super) fn rebuilt(
    buf: &[u8],
    table: &lopdf::xref::Xref,
    encrypt_id: Option<ObjectId>,
) -> (Vec<u32>, Vec<Entry>) {
    let mut all: std::collections::BTreeMap<u32, Entry> = repair::scan_headers(buf)
        .into_iter()
        .filter_map(|(num, (generation, at))| {
            let offset = u32::try_from(at).ok()?;
            let entry = if Some((num, generation)) == encrypt_id {
                Entry::Free
            } else {
                Entry::Normal { offset, generation }
            };
            Some((num, entry))
        })
        .collect();
    for (&num, entry) in &table.entries {
        if let XrefEntry::Compressed { container, index } = *entry {
            all.entry(num)
                .or_insert(Entry::Compressed { container, index });
        }
    }
    all.into_iter().unzip()
}

/// The id of the `N G obj` header lopdf reads at `offset` and where it starts.
pub(super) fn header_at(buf: &[u8], offset: usize) -> Option<(ObjectId, usize)> {
    let mut p = parse::Parser::new(buf, offset, 1);
    p.skip_space();
    let at = p.pos();
    p.object_header().map(|id| (id, at))
}

/// The member offsets of an object stream's decoded `data`, read as lopdf reads
/// them; a number listed twice keeps its last offset.
pub(super) fn object_stream_members(stream: &lopdf::Stream, data: Vec<u8>) -> Option<ObjStm> {
    let mut members = HashMap::new();
    if data.is_empty() {
        return Some(ObjStm { data, members });
    }
    let first = usize::try_from(stream.dict.get(b"First").ok()?.as_i64().ok()?).ok()?;
    let header = std::str::from_utf8(data.get(..first)?).ok()?;
    let numbers: Vec<Option<u32>> = header
        .split(['\r', '\n'])
        .flat_map(|line| {
            line.split('%')
                .next()
                .unwrap_or_default()
                .split_whitespace()
        })
        .map(|n| n.parse::<u32>().ok())
        .collect();
    stream.dict.get(b"N").ok()?.as_i64().ok()?;
    for pair in numbers.chunks_exact(2) {
        if let [Some(num), Some(off)] = *pair {
            members.insert(num, first + off as usize);
        }
    }
    Some(ObjStm { data, members })
}

/// A dense number-to-index table when the numbers leave few holes.
pub(super) fn dense_index(nums: &[u32]) -> Vec<u32> {
    let Some(&max) = nums.last() else {
        return Vec::new();
    };
    let max = max as usize;
    if max > nums.len().saturating_mul(4).saturating_add(1024) {
        return Vec::new();
    }
    let mut dense = vec![0u32; max + 1];
    for (i, &n) in nums.iter().enumerate() {
        if let (Some(d), Ok(v)) = (dense.get_mut(n as usize), u32::try_from(i + 1)) {
            *d = v;
        }
    }
    dense
}
