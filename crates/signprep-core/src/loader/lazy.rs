//! The lazy store: objects parsed on demand from the bytes of the file, by
//! the entries of its index ([`super::index`]).
//!
//! Object streams are decoded once per container. Slots are filled without
//! holding a lock while parsing (two threads may parse the same object; both
//! get the same value), so resolution chains (an indirect `/Length`, an
//! object in an object stream) cannot deadlock, and a guard on the chain
//! stops cycles. An object the strict parser cannot read is read from the
//! eager load of the same bytes, made once on first need (while the document
//! is being opened, the miss is only noted: the caller then opens the file
//! eagerly).
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

use super::index::{self, Entry, Index, ObjStm, Place, Unread, dense_index, object_stream_members};
use super::{crypt, indirect, load_eager};
use crate::error::{Encryption, Error, Limit};
use crate::options::LoadOptions;
use lopdf::{Dictionary, Object, ObjectId};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Longest chain of objects needed to parse one object (an indirect
/// `/Length` in an object stream whose own `/Length` is indirect, ...).
const MAX_CHAIN: usize = 8;

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
    /// Some entries were looked for by scanning the file (their offsets led
    /// to no header of their own): [`index::read`].
    resolved: bool,
    /// Their numbers, ascending, and whether the document asked for one.
    resolved_nums: Vec<u32>,
    resolved_used: AtomicBool,
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
        match index::read(&bytes, options, rebuild) {
            Ok(index) => {
                let Index {
                    base,
                    nums,
                    entries,
                    trailer,
                    crypt,
                    repaired,
                    resolved,
                    resolved_nums,
                } = index;
                let dense = dense_index(&nums);
                let mut containers: Vec<u32> = entries
                    .iter()
                    .filter_map(|e| match e {
                        Entry::Compressed { container, .. } => Some(*container),
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
                    resolved,
                    resolved_nums,
                    resolved_used: AtomicBool::new(false),
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

    /// True when objects are decrypted as they are read.
    pub(crate) fn encrypted(&self) -> bool {
        self.crypt.is_some()
    }

    /// The whole input, and where `%PDF-` starts in it (offsets in the
    /// cross-reference data count from there).
    pub(crate) fn input(&self) -> (&[u8], usize) {
        (&self.bytes, self.base)
    }

    /// Hands the input back (the caller then loads it eagerly).
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The trailer dictionary (of the newest section).
    pub(super) fn trailer(&self) -> &Dictionary {
        &self.trailer
    }

    /// Every object number with an entry, ascending, with its generation.
    pub(super) fn ids(&self) -> Vec<ObjectId> {
        self.nums
            .iter()
            .zip(&self.entries)
            .filter_map(|(&n, e)| match e {
                Entry::Free => None,
                Entry::Normal { generation, .. } => Some((n, *generation)),
                Entry::Compressed { .. } | Entry::Misnumbered => Some((n, 0)),
            })
            .collect()
    }

    /// The whole table as read (and resolved or rebuilt): each object
    /// number with an entry, ascending, where it is; `None` when an entry's
    /// place is not known (an entry whose offset holds another object).
    pub(super) fn table(&self) -> Option<Vec<(u32, Place)>> {
        self.nums
            .iter()
            .zip(&self.entries)
            .map(|(&n, e)| {
                let place = match *e {
                    Entry::Free => Place::Free,
                    Entry::Normal { offset, generation } => Place::At { offset, generation },
                    Entry::Compressed { container, index } => Place::In { container, index },
                    Entry::Misnumbered => return None,
                };
                Some((n, place))
            })
            .collect()
    }

    /// True when the table was rebuilt by scanning the file for object headers.
    pub(super) fn repaired(&self) -> bool {
        self.repaired
    }

    /// True when some entries were looked for by scanning the file.
    pub(super) fn resolved(&self) -> bool {
        self.resolved
    }

    /// True when the document asked for an object whose entry was looked
    /// for by scanning (an entry nothing uses does not make the file read
    /// as repaired).
    pub(super) fn resolved_used(&self) -> bool {
        self.resolved_used.load(Ordering::Relaxed)
    }

    /// True once the eager load was made (an object the strict parser could
    /// not read was asked for).
    pub(super) fn used_eager_fallback(&self) -> bool {
        self.eager.get().is_some()
    }

    /// The fatal error met while serving objects: the eager load failing,
    /// or a limit.
    pub(super) fn deferred_error(&self) -> Option<Error> {
        if let Some(Err(e)) = self.eager.get() {
            return Some(e.replica());
        }
        self.error.get().map(Error::replica)
    }

    /// Ends the opening phase (see [`super::Store::opened`]); false when an
    /// object was missed or a limit met while opening.
    pub(super) fn opened(&self) -> bool {
        self.opening.store(false, Ordering::Relaxed);
        !self.missed.load(Ordering::Relaxed) && self.error.get().is_none()
    }

    /// Objects parsed so far.
    #[cfg(test)]
    pub(super) fn parsed(&self) -> usize {
        self.parsed.load(Ordering::Relaxed)
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

    pub(super) fn get(&self, id: ObjectId) -> Option<&Object> {
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
        if !self.resolved_nums.is_empty() && self.resolved_nums.binary_search(&id.0).is_ok() {
            self.resolved_used.store(true, Ordering::Relaxed);
        }
        let Some(ix) = self.position(id.0) else {
            // No entry: lopdf may still find it in an object stream.
            return Lookup::Eager;
        };
        let (Some(entry), Some(slot)) = (self.entries.get(ix), self.slots.get(ix)) else {
            return Lookup::Eager;
        };
        match *entry {
            Entry::Free => return Lookup::Absent,
            Entry::Misnumbered => {
                if self.opening.load(Ordering::Relaxed) {
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
            Entry::Compressed { container, .. } => match self.member(container, id.0, path) {
                Ok(o) => o,
                Err(absent) => {
                    path.pop();
                    return absent;
                }
            },
            Entry::Free | Entry::Misnumbered => None,
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
            if let Some(Entry::Compressed { container, .. }) =
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
        indirect::indirect_object(
            self.buf(),
            offset,
            indirect::Expect::Id(id),
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
        Ok(indirect::member_object(
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
        if let Some(limit) = o.out_of_time(self.limits.started) {
            return Err(self.fail(Error::limit(limit)));
        }
        let over_document = || {
            Error::limit(Limit::DocumentBytes {
                limit: o.max_document_bytes,
            })
        };
        if self.inflated.load(Ordering::Relaxed) > o.max_document_bytes {
            return Err(self.fail(over_document()));
        }
        let expanded = super::filters::expanded(stream);
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
