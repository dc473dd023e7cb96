//! Where a [`Document`](crate::Document)'s objects come from: lopdf's eager load
//! of the whole file, or a lazy store that reads the cross-reference data and
//! parses an object only when it is asked for.
//!
//! The lazy store serves the same `lopdf::Object` values the eager load would
//! hold, so nothing downstream knows which store it reads. It is used only when
//! the file's cross-reference data reads cleanly (see [`xref`]), is not
//! encrypted or opens with the empty user password by a method [`crypt`] reads,
//! and every entry's offset points at its own `N G obj` header; the
//! document then opens without parsing the structure tree, metadata, images or
//! font programs it never looks at.
//!
//! When one object cannot be parsed by the strict parser here ([`parse`]), the
//! store asks a full lopdf load of the same bytes, made once on first need, so a
//! damaged object reads as the eager load reads it. Object streams are decoded
//! once per container. Slots are filled without holding a lock while parsing
//! (two threads may parse the same object; both get the same value), so
//! resolution chains (an indirect `/Length`, an object in an object stream)
//! cannot deadlock, and a guard on the chain stops cycles.
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

mod crypt;
mod eager;
mod index;
mod parse;
mod repair;
mod xref;

use crate::error::{Encryption, Error, Limit};
use crate::options::LoadOptions;
pub(crate) use eager::load_eager;
pub(crate) use index::{check_user_password, holds_object};
use index::{decryptor, dense_index, header_at, misnumbered, object_stream_members, rebuilt};
use lopdf::xref::XrefEntry;
use lopdf::{Dictionary, Object, ObjectId};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Longest chain of objects needed to parse one object (an indirect
/// `/Length` in an object stream whose own `/Length` is indirect, ...).
const MAX_CHAIN: usize = 8;

/// The objects of a document.
pub(crate) enum Store {
    /// Every object, parsed by lopdf when the file was opened.
    Eager(Box<lopdf::Document>),
    /// Objects parsed on demand.
    Lazy(Box<Lazy>),
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Store::Eager(_) => "Store::Eager",
            Store::Lazy(_) => "Store::Lazy",
        })
    }
}

impl Store {
    /// The object stored under `id`, as lopdf's `objects.get(id)` gives it
    /// (a reference stored as an object is not followed).
    pub(crate) fn get(&self, id: ObjectId) -> Option<&Object> {
        match self {
            Store::Eager(doc) => doc.objects.get(&id),
            Store::Lazy(lazy) => lazy.get(id),
        }
    }

    /// The trailer dictionary (of the newest section).
    pub(crate) fn trailer(&self) -> &Dictionary {
        match self {
            Store::Eager(doc) => &doc.trailer,
            Store::Lazy(lazy) => &lazy.trailer,
        }
    }

    /// Every object number with an entry, ascending, with its generation
    /// (for the scan of a file whose page tree gives no page).
    pub(crate) fn ids(&self) -> Vec<ObjectId> {
        match self {
            Store::Eager(doc) => doc.objects.keys().copied().collect(),
            Store::Lazy(lazy) => lazy
                .nums
                .iter()
                .zip(&lazy.entries)
                .filter_map(|(&n, e)| match e {
                    Entry::Free => None,
                    Entry::Normal { generation, .. } => Some((n, *generation)),
                    Entry::Compressed { .. } | Entry::Elsewhere { .. } => Some((n, 0)),
                })
                .collect(),
        }
    }

    pub(crate) fn is_lazy(&self) -> bool {
        matches!(self, Store::Lazy(_))
    }

    /// The input back, for the eager load (nothing for a store that was
    /// loaded eagerly already).
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        match self {
            Store::Lazy(lazy) => lazy.into_bytes(),
            Store::Eager(_) => Vec::new(),
        }
    }

    /// [`Lazy::wants_rebuild`].
    pub(crate) fn wants_rebuild(&self) -> bool {
        matches!(self, Store::Lazy(lazy) if lazy.wants_rebuild())
    }

    /// [`Lazy::rebuild_wanted`].
    pub(crate) fn rebuild_wanted(&self) {
        if let Store::Lazy(lazy) = self {
            lazy.rebuild_wanted();
        }
    }

    /// True when the lazy store rebuilt the cross-reference table by
    /// scanning the file (see [`Lazy::open`]).
    pub(crate) fn rebuilt(&self) -> bool {
        matches!(self, Store::Lazy(lazy) if lazy.repaired)
    }

    pub(crate) fn used_eager_fallback(&self) -> bool {
        matches!(self, Store::Lazy(lazy) if lazy.eager.get().is_some())
    }

    /// A fatal error met while serving objects after the document was opened:
    /// a limit, or the eager load that a damaged object needed failing (the
    /// error the file would have given when opened eagerly).
    pub(crate) fn deferred_error(&self) -> Option<Error> {
        let Store::Lazy(lazy) = self else {
            return None;
        };
        if let Some(Err(e)) = lazy.eager.get() {
            return Some(e.replica());
        }
        lazy.error.get().map(Error::replica)
    }

    /// Ends the opening phase: from now on an object the strict parser cannot
    /// read is read through the eager load.
    pub(crate) fn opened(&self) -> bool {
        match self {
            Store::Eager(_) => true,
            Store::Lazy(lazy) => {
                lazy.opening.store(false, Ordering::Relaxed);
                !lazy.missed.load(Ordering::Relaxed) && lazy.error.get().is_none()
            }
        }
    }
}

/// One cross-reference entry.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Free,
    Normal {
        offset: u32,
        generation: u16,
    },
    Compressed {
        container: u32,
    },
    /// An entry whose offset does not lead to its own header: lopdf files
    /// what it finds there under another id (or nothing), so only the eager
    /// load can say what this id holds. `misnumbered`: the offset holds,
    /// right there, the header of another object number (asked for while
    /// the document is opened, the table is rebuilt by scanning instead).
    Elsewhere {
        misnumbered: bool,
    },
}

/// A parsed object, or a note that the eager load must be asked.
#[derive(Debug)]
enum Slot {
    Parsed(Box<Object>),
    Eager,
}

/// What a lookup found.
enum Lookup<'a> {
    Found(&'a Object),
    /// Not in the document (a free entry), or a limit stopped the lookup
    /// (recorded as the deferred error).
    Absent,
    /// Ask the eager load.
    Eager,
}

/// A decoded object stream: its data and where each member starts.
#[derive(Debug)]
struct ObjStm {
    data: Vec<u8>,
    members: HashMap<u32, usize>,
}

/// The limits the lazy store applies.
#[derive(Clone, Debug)]
struct Limits {
    options: LoadOptions,
    started: Instant,
}

/// Objects parsed on demand from the bytes of the file.
pub(crate) struct Lazy {
    /// The whole input.
    bytes: Vec<u8>,
    /// Where `%PDF-` starts: offsets count from there, as in lopdf.
    base: usize,
    /// Object numbers with an entry, ascending, and their entries.
    nums: Vec<u32>,
    entries: Vec<Entry>,
    /// Object number to index + 1 (0: none), when the numbers are dense enough.
    dense: Vec<u32>,
    slots: Vec<OnceLock<Slot>>,
    /// Object streams named by compressed entries, ascending, and their data.
    containers: Vec<u32>,
    streams: Vec<OnceLock<Option<Arc<ObjStm>>>>,
    trailer: Dictionary,
    /// Decrypts objects as they are parsed (an encrypted file).
    crypt: Option<crypt::Decryptor>,
    limits: Limits,
    /// Bytes inflated, shared with the document's content streams.
    inflated: Arc<AtomicUsize>,
    /// Objects parsed so far.
    parsed: AtomicUsize,
    /// While the document is being opened, a miss is only noted (the caller
    /// then opens the file eagerly) instead of loading the file eagerly.
    opening: AtomicBool,
    missed: AtomicBool,
    eager: OnceLock<Result<lopdf::Document, Error>>,
    error: OnceLock<Error>,
    /// The table was rebuilt by scanning the file for object headers.
    repaired: bool,
    /// While opening, an entry whose offset holds another object was asked
    /// for, or the trailer's `/Root` is no catalog: the caller rebuilds.
    rebuild: AtomicBool,
}

/// A file the lazy store does not read: its bytes back (the caller loads
/// them eagerly), or, when it is encrypted and [`crypt`] found that the empty
/// user password does not open it, why (the file is then refused, whatever
/// lopdf would make of it: lopdf also takes the empty password as the owner's).
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) bytes: Vec<u8>,
    pub(crate) encrypted: Option<Encryption>,
}

/// Why [`Lazy::index`] did not read a file.
#[derive(Debug)]
enum Unread {
    /// Encrypted, and the empty user password does not open it.
    Encrypted(Encryption),
    /// Not a file the lazy store reads (the eager load decides).
    Other,
}

/// What [`Lazy::index`] read: where `%PDF-` starts, the entries by number,
/// the trailer, the decryptor, and whether the table was rebuilt.
struct Index {
    base: usize,
    nums: Vec<u32>,
    entries: Vec<Entry>,
    trailer: Dictionary,
    crypt: Option<crypt::Decryptor>,
    repaired: bool,
}

impl Lazy {
    /// Reads the cross-reference data and checks every entry's header; the
    /// bytes back when the file is not one to read lazily.
    ///
    /// With `rebuild`, the table is rebuilt by scanning the file for `N G
    /// obj` headers, as MuPDF's repair and pdf.js's recovery do (compressed
    /// entries are kept for the numbers the scan does not find): asked when
    /// a table that reads cleanly does not describe the file (see
    /// [`Lazy::wants_rebuild`]).
    pub(crate) fn open(
        bytes: Vec<u8>,
        options: &LoadOptions,
        started: Instant,
        inflated: Arc<AtomicUsize>,
        rebuild: bool,
    ) -> Result<Box<Lazy>, Refused> {
        match Self::index(&bytes, options, rebuild) {
            Ok(Index {
                base,
                nums,
                entries,
                trailer,
                crypt,
                repaired,
            }) => {
                let dense = dense_index(&nums);
                let mut containers: Vec<u32> = entries
                    .iter()
                    .filter_map(|e| match e {
                        Entry::Compressed { container } => Some(*container),
                        _ => None,
                    })
                    .collect();
                containers.sort_unstable();
                containers.dedup();
                let slots = entries.iter().map(|_| OnceLock::new()).collect();
                let streams = containers.iter().map(|_| OnceLock::new()).collect();
                Ok(Box::new(Lazy {
                    bytes,
                    base,
                    nums,
                    entries,
                    dense,
                    slots,
                    containers,
                    streams,
                    trailer,
                    crypt,
                    limits: Limits {
                        options: options.clone(),
                        started,
                    },
                    inflated,
                    parsed: AtomicUsize::new(0),
                    opening: AtomicBool::new(true),
                    missed: AtomicBool::new(false),
                    eager: OnceLock::new(),
                    error: OnceLock::new(),
                    repaired,
                    rebuild: AtomicBool::new(false),
                }))
            }
            Err(why) => Err(Refused {
                bytes,
                encrypted: match why {
                    Unread::Encrypted(e) => Some(e),
                    Unread::Other => None,
                },
            }),
        }
    }

    /// True when the table should be rebuilt by scanning: while the
    /// document was opened, an entry whose offset holds another object was
    /// asked for (as MuPDF and pdf.js check an object's number when they
    /// load it), or [`Lazy::rebuild_wanted`] was called. Never after a
    /// rebuild.
    pub(crate) fn wants_rebuild(&self) -> bool {
        !self.repaired && self.rebuild.load(Ordering::Relaxed)
    }

    /// Notes that the table should be rebuilt (the trailer's `/Root` is no
    /// catalog under it).
    pub(crate) fn rebuild_wanted(&self) {
        self.rebuild.store(true, Ordering::Relaxed);
    }

    /// Hands the input back (the caller then loads it eagerly).
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    fn index(bytes: &[u8], options: &LoadOptions, rebuild: bool) -> Result<Index, Unread> {
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
        let (table, mut trailer) = xref::read(buf, limits).ok_or_else(other)?;
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
            });
        }
        let mut nums = Vec::with_capacity(table.entries.len());
        let mut entries = Vec::with_capacity(table.entries.len());
        // (entry, header found at its offset, misnumbered) where the two differ.
        type Stray = (usize, Option<(ObjectId, usize)>, bool);
        let mut strays: Vec<Stray> = Vec::new();
        for (&num, entry) in &table.entries {
            let e = match *entry {
                XrefEntry::Free | XrefEntry::UnusableFree => Entry::Free,
                XrefEntry::Normal { generation, .. } if Some((num, generation)) == encrypt_id => {
                    Entry::Free
                }
                XrefEntry::Normal { offset, generation } => {
                    // lopdf files every object under the id its header names.
                    let header = header_at(buf, offset as usize);
                    if header.is_none_or(|(id, _)| id != (num, generation)) {
                        strays.push((entries.len(), header, misnumbered(buf, num, entry)));
                    }
                    Entry::Normal { offset, generation }
                }
                XrefEntry::Compressed { container, .. } => Entry::Compressed { container },
            };
            nums.push(num);
            entries.push(e);
        }
        // A stray entry is read through the eager load, and so is the object
        // lopdf files from its offset, unless that is the very object the
        // other id's own entry points at (a linearized file's entry at offset 0
        // reaching the first object past the header comment, say).
        for (ix, header, misnumbered) in strays {
            if let Some(e) = entries.get_mut(ix) {
                *e = Entry::Elsewhere { misnumbered };
            }
            let Some(((n, g), at)) = header else {
                continue;
            };
            let Ok(other) = nums.binary_search(&n) else {
                continue;
            };
            let same = match entries.get(other) {
                Some(Entry::Normal { offset, generation }) => {
                    *generation == g && header_at(buf, *offset as usize) == Some(((n, g), at))
                }
                _ => false,
            };
            // When the stray entry is misnumbered, asking for this one
            // rebuilds the table too: the eager load would file the stray's
            // object under this id.
            if !same && let Some(e) = entries.get_mut(other) {
                *e = Entry::Elsewhere { misnumbered };
            }
        }
        Ok(Index {
            base,
            nums,
            entries,
            trailer,
            crypt,
            repaired: false,
        })
    }

    fn buf(&self) -> &[u8] {
        self.bytes.get(self.base..).unwrap_or_default()
    }

    fn position(&self, num: u32) -> Option<usize> {
        if !self.dense.is_empty() {
            let i = *self.dense.get(num as usize)?;
            return (i > 0).then(|| i as usize - 1);
        }
        self.nums.binary_search(&num).ok()
    }

    fn get(&self, id: ObjectId) -> Option<&Object> {
        match self.load(id, &mut Vec::new()) {
            Lookup::Found(o) => Some(o),
            Lookup::Absent => None,
            Lookup::Eager => self.eager_get(id),
        }
    }

    /// The object from the eager load of the same bytes.
    fn eager_get(&self, id: ObjectId) -> Option<&Object> {
        if self.opening.load(Ordering::Relaxed) {
            self.missed.store(true, Ordering::Relaxed);
            return None;
        }
        let doc = self
            .eager
            .get_or_init(|| load_eager(&self.bytes, &self.limits.options).map(|(doc, _)| doc));
        doc.as_ref().ok()?.objects.get(&id)
    }

    /// Records a fatal error (the first one wins) and reports the object absent.
    fn fail<'a>(&self, e: Error) -> Lookup<'a> {
        let _ = self.error.set(e);
        Lookup::Absent
    }

    fn load(&self, id: ObjectId, path: &mut Vec<ObjectId>) -> Lookup<'_> {
        let Some(ix) = self.position(id.0) else {
            // No entry: lopdf may still find it in an object stream.
            return Lookup::Eager;
        };
        let (Some(entry), Some(slot)) = (self.entries.get(ix), self.slots.get(ix)) else {
            return Lookup::Eager;
        };
        match *entry {
            Entry::Free => return Lookup::Absent,
            Entry::Elsewhere { misnumbered } => {
                if misnumbered && self.opening.load(Ordering::Relaxed) {
                    self.rebuild.store(true, Ordering::Relaxed);
                }
                return Lookup::Eager;
            }
            Entry::Normal { generation, .. } if generation != id.1 => {
                // Only an object stream can hold another generation, and only 0.
                return if id.1 == 0 {
                    Lookup::Eager
                } else {
                    Lookup::Absent
                };
            }
            Entry::Compressed { .. } if id.1 != 0 => return Lookup::Absent,
            _ => {}
        }
        if let Some(s) = slot.get() {
            return match s {
                Slot::Parsed(o) => Lookup::Found(o),
                Slot::Eager => Lookup::Eager,
            };
        }
        if path.len() >= MAX_CHAIN || path.contains(&id) {
            return Lookup::Eager;
        }
        let limit = self.limits.options.max_objects_resolved;
        if self.parsed.load(Ordering::Relaxed) >= limit {
            return self.fail(Error::limit(Limit::ObjectsNeeded { limit }));
        }
        path.push(id);
        let parsed = match *entry {
            Entry::Normal { offset, .. } => {
                self.parse_at(id, offset as usize, path)
                    .and_then(|mut o| match &self.crypt {
                        Some(c) if !c.decrypt(id, &mut o) => None,
                        _ => Some(o),
                    })
            }
            Entry::Compressed { container } => match self.member(container, id.0, path) {
                Ok(o) => o,
                Err(absent) => {
                    path.pop();
                    return absent;
                }
            },
            Entry::Free | Entry::Elsewhere { .. } => None,
        };
        path.pop();
        let value = match parsed {
            Some(o) => {
                self.parsed.fetch_add(1, Ordering::Relaxed);
                Slot::Parsed(Box::new(o))
            }
            None => Slot::Eager,
        };
        // Another thread may have filled the slot meanwhile, with the same value.
        let _ = slot.set(value);
        match slot.get() {
            Some(Slot::Parsed(o)) => Lookup::Found(o),
            _ => Lookup::Eager,
        }
    }

    /// The indirect object at `offset`, which must be `id`.
    fn parse_at(&self, id: ObjectId, offset: usize, path: &mut Vec<ObjectId>) -> Option<Object> {
        let max_depth = self.limits.options.max_nesting_depth;
        let mut length_of = |lid: ObjectId| -> Option<i64> {
            // lopdf reads a compressed /Length from container `N 0` only.
            if let Some(Entry::Compressed { container }) =
                self.position(lid.0).and_then(|i| self.entries.get(i))
            {
                let gen0 = self
                    .position(*container)
                    .and_then(|i| self.entries.get(i))
                    .is_some_and(|e| matches!(e, Entry::Normal { generation: 0, .. }));
                if !gen0 {
                    return None;
                }
            }
            match self.load(lid, path) {
                Lookup::Found(Object::Integer(n)) => Some(*n),
                _ => None,
            }
        };
        parse::indirect_object(
            self.buf(),
            offset,
            parse::Expect::Id(id),
            max_depth,
            &mut length_of,
        )
        .map(|(_, o)| o)
    }

    /// Member `num` of object stream `container`. `Ok(None)`: ask the eager load;
    /// `Err`: settled without it.
    fn member<'a>(
        &'a self,
        container: u32,
        num: u32,
        path: &mut Vec<ObjectId>,
    ) -> Result<Option<Object>, Lookup<'a>> {
        let Some(stm) = self.object_stream(container, path)? else {
            return Ok(None);
        };
        let Some(&offset) = stm.members.get(&num) else {
            // The container lopdf reads this object from does not list it.
            return Err(Lookup::Absent);
        };
        Ok(parse::member_object(
            &stm.data,
            offset,
            self.limits.options.max_nesting_depth,
        ))
    }

    /// Decodes an object stream once. `Ok(None)`: unusable here (ask the eager
    /// load); `Err`: a limit stopped it.
    fn object_stream<'a>(
        &'a self,
        container: u32,
        path: &mut Vec<ObjectId>,
    ) -> Result<Option<Arc<ObjStm>>, Lookup<'a>> {
        let Ok(k) = self.containers.binary_search(&container) else {
            return Ok(None);
        };
        let Some(cell) = self.streams.get(k) else {
            return Ok(None);
        };
        if let Some(s) = cell.get() {
            return Ok(s.clone());
        }
        let generation = match self.position(container).and_then(|i| self.entries.get(i)) {
            Some(Entry::Normal { generation, .. }) => *generation,
            _ => return Ok(None),
        };
        let stream = match self.load((container, generation), path) {
            Lookup::Found(Object::Stream(s)) => s,
            Lookup::Absent => return Err(Lookup::Absent),
            _ => return Ok(None),
        };
        let decoded = self.decode_object_stream(stream)?;
        let _ = cell.set(decoded.map(Arc::new));
        Ok(cell.get().cloned().flatten())
    }

    /// lopdf's reading of an object stream (`ObjectStream::new_with_limit`),
    /// keeping offsets instead of parsing every member.
    fn decode_object_stream<'a>(
        &'a self,
        stream: &lopdf::Stream,
    ) -> Result<Option<ObjStm>, Lookup<'a>> {
        if !stream.dict.has_type(b"ObjStm") {
            return Ok(None);
        }
        let o = &self.limits.options;
        if let Some(budget) = o.time_budget
            && self.limits.started.elapsed() > budget
        {
            return Err(self.fail(Error::limit(Limit::Time { budget })));
        }
        let over_document = || {
            Error::limit(Limit::DocumentBytes {
                limit: o.max_document_bytes,
            })
        };
        if self.inflated.load(Ordering::Relaxed) > o.max_document_bytes {
            return Err(self.fail(over_document()));
        }
        let expanded = crate::filters::expanded(stream);
        let Ok(data) = expanded
            .as_ref()
            .unwrap_or(stream)
            .get_plain_content_with_limit(o.max_stream_bytes)
        else {
            // The eager load reports a bomb, with the same limit error.
            return Ok(None);
        };
        let total = self.inflated.fetch_add(data.len(), Ordering::Relaxed) + data.len();
        if total > o.max_document_bytes {
            return Err(self.fail(over_document()));
        }
        Ok(object_stream_members(stream, data))
    }
}

impl fmt::Debug for Lazy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lazy")
            .field("entries", &self.entries.len())
            .field("parsed", &self.parsed.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
pub(crate) mod tests;
