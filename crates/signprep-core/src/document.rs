//! A loaded PDF: opening it (through [`crate::loader`]'s lazy store, or its
//! eager load), its pages, and access to its objects. With `loader`, the only
//! modules that open files through lopdf.
#![allow(clippy::disallowed_types)] // the document layer: reads lopdf objects

use crate::error::{Limit, Unreadable};
use crate::geometry::PageGeometry;
use crate::loader::{Lazy, Refused, Store, load_eager};
use lopdf::{Dictionary, Object};
pub(crate) use pages::PageRef;
use pages::{page_tree_loaded, read_pages};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

mod object;
mod pages;
mod streams;
mod update;

pub use crate::options::LoadOptions;
pub(crate) use lopdf::ObjectId;
pub(crate) use object::{Array, Dict, Obj, StreamObj};
pub(crate) use streams::StreamError;

pub use crate::error::Error;

/// A loaded PDF, ready to scan.
///
/// ```
/// # fn main() -> Result<(), signprep_core::Error> {
/// use signprep_core::{Document, LoadOptions};
/// let doc = Document::open("../../testdata/fixtures/base14_courier.pdf", &LoadOptions::default())?;
/// assert!(doc.page_count() > 0);
/// # Ok(()) }
/// ```
pub struct Document {
    /// The objects: parsed eagerly by lopdf, or on demand.
    pub(crate) store: Store,
    pub(crate) pages: Vec<PageRef>,
    /// What was repaired to find the pages (a cycle cut, ...), or that
    /// there are none: reported with every scan.
    pub(crate) page_findings: Vec<crate::diag::Diagnostic>,
    pub(crate) options: LoadOptions,
    /// Bytes inflated so far, across all threads scanning this document
    /// (shared with the store, which inflates object streams).
    pub(crate) inflated: Arc<AtomicUsize>,
    repaired: bool,
    /// When loading started, for the time budget.
    started: Instant,
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("pages", &self.pages.len())
            .field("repaired", &self.repaired)
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

impl Document {
    /// Opens a file. Errors name the path.
    pub fn open(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Document, Error> {
        let path = path.as_ref();
        let read = || -> Result<Vec<u8>, Error> {
            let len = std::fs::metadata(path)?.len();
            if len > options.max_file_bytes {
                return Err(Error::limit(Limit::FileSize {
                    bytes: len,
                    limit: options.max_file_bytes,
                }));
            }
            Ok(std::fs::read(path)?)
        };
        read()
            .and_then(|bytes| Document::from_vec(bytes, options, true))
            .map_err(|e| e.with_path(path))
    }

    /// Loads a PDF from memory.
    pub fn from_bytes(bytes: &[u8], options: &LoadOptions) -> Result<Document, Error> {
        check_input(bytes, options)?;
        Document::from_vec(bytes.to_vec(), options, true)
    }

    /// Loads a PDF from memory with lopdf parsing every object first (the
    /// eager load), never on demand. For differential tests of the two stores.
    #[doc(hidden)]
    pub fn from_bytes_eager(bytes: &[u8], options: &LoadOptions) -> Result<Document, Error> {
        check_input(bytes, options)?;
        Document::from_vec(bytes.to_vec(), options, false)
    }

    /// True when the document's objects are read on demand (the cross-reference
    /// data read cleanly); false when lopdf loaded the whole file.
    #[doc(hidden)]
    pub fn is_lazy(&self) -> bool {
        self.store.is_lazy()
    }

    /// True when a document read on demand needed the eager lopdf load for
    /// an object its strict parser left to lopdf.
    #[doc(hidden)]
    pub fn used_eager_fallback(&self) -> bool {
        self.store.used_eager_fallback()
    }

    fn from_vec(bytes: Vec<u8>, options: &LoadOptions, lazy: bool) -> Result<Document, Error> {
        if check_input(&bytes, options)? == Header::Found {
            return Document::open_bytes(bytes, options, lazy);
        }
        // No header, but the file begins with an object: read it as MuPDF
        // and pdf.js do (both open such a file, MuPDF with "cannot find
        // version marker"), with a header put before it (the offsets of its
        // cross-reference table are then off, and repaired as any others),
        // and say so. When it does not read as a PDF either, the missing
        // header is the reason given.
        let mut headed = b"%PDF-1.7\n".to_vec();
        headed.extend_from_slice(&bytes);
        drop(bytes);
        match Document::open_bytes(headed, options, lazy) {
            Ok(mut doc) => {
                doc.page_findings.push(crate::diag::Diagnostic::new(
                    crate::diag::Code::PdfRepaired,
                    "the file has no %PDF- header (it begins with its first object); it was read as MuPDF and pdf.js read it",
                ));
                Ok(doc)
            }
            Err(e) if matches!(e.kind(), crate::error::ErrorKind::Unreadable { .. }) => {
                Err(Error::unreadable_by(Unreadable::NotPdf, None))
            }
            Err(e) => Err(e),
        }
    }

    /// [`Document::from_vec`] after the input checks.
    fn open_bytes(bytes: Vec<u8>, options: &LoadOptions, lazy: bool) -> Result<Document, Error> {
        let started = Instant::now();
        let inflated = Arc::new(AtomicUsize::new(0));
        let bytes = if lazy {
            match Document::open_lazy(bytes, options, started, &inflated) {
                Ok(doc) => return Ok(doc),
                // Locked by a user password (or a handler not read): refused,
                // whatever lopdf would make of it.
                Err(Refused {
                    encrypted: Some(why),
                    ..
                }) => return Err(Error::encrypted(why)),
                Err(refused) => refused.bytes,
            }
        } else {
            bytes
        };
        Document::open_eager(bytes, options, started, inflated)
    }

    /// The file as lopdf reads it whole: damaged cross-reference data,
    /// encryption, or an object the strict parser leaves to lopdf.
    fn open_eager(
        bytes: Vec<u8>,
        options: &LoadOptions,
        started: Instant,
        inflated: Arc<AtomicUsize>,
    ) -> Result<Document, Error> {
        let (inner, repaired) = load_eager(&bytes, options)?;
        drop(bytes);
        let mut doc = Document::new(Store::Eager(Box::new(inner)), options, started, inflated);
        doc.repaired = repaired;
        let found = read_pages(&doc)?;
        doc.pages = found.pages;
        doc.page_findings = found.findings;
        Ok(doc)
    }

    /// Opens the document on demand; gives the bytes back when it must be
    /// loaded whole instead (by the eager load, which then decides).
    ///
    /// A table that reads cleanly but does not describe the file (an entry
    /// the pages need holds another object; the trailer's `/Root` is no
    /// catalog under it) is rebuilt by scanning the file for object
    /// headers, and the document is opened again on that table.
    fn open_lazy(
        bytes: Vec<u8>,
        options: &LoadOptions,
        started: Instant,
        inflated: &Arc<AtomicUsize>,
    ) -> Result<Document, Refused> {
        let open = |bytes, rebuild| -> Result<Result<Document, Store>, Refused> {
            let lazy = Lazy::open(bytes, options, started, Arc::clone(inflated), rebuild)?;
            let doc = Document::new(Store::Lazy(lazy), options, started, Arc::clone(inflated));
            Ok(Document::read_lazy(doc))
        };
        let refused = |store: Store| Refused {
            bytes: store.into_bytes(),
            encrypted: None,
        };
        match open(bytes, false)? {
            Ok(doc) => Ok(doc),
            Err(store) if store.wants_rebuild() => open(store.into_bytes(), true)?.map_err(refused),
            Err(store) => Err(refused(store)),
        }
    }

    /// Reads the pages of a document opened on demand; the store back when
    /// the document must be opened another way.
    fn read_lazy(mut doc: Document) -> Result<Document, Store> {
        let catalog = pages::root_is_catalog(&doc);
        // lopdf rebuilds the table of a file whose page tree does not load;
        // read_pages errors are left to the eager path, which reports them after
        // its own checks.
        let pages = if catalog && page_tree_loaded(&doc) {
            read_pages(&doc).ok()
        } else {
            None
        };
        match pages {
            Some(found) if doc.store.opened() => {
                doc.repaired = doc.store.rebuilt();
                doc.pages = found.pages;
                doc.page_findings = found.findings;
                Ok(doc)
            }
            _ => {
                if !catalog {
                    doc.store.rebuild_wanted();
                }
                Err(doc.store)
            }
        }
    }

    fn new(
        store: Store,
        options: &LoadOptions,
        started: Instant,
        inflated: Arc<AtomicUsize>,
    ) -> Document {
        Document {
            store,
            pages: Vec::new(),
            page_findings: Vec::new(),
            options: options.clone(),
            inflated,
            repaired: false,
            started,
        }
    }

    /// A fatal error met after opening, while objects were read on demand (a
    /// limit, or a damaged object whose eager load refuses the file).
    pub(crate) fn deferred_error(&self) -> Option<Error> {
        self.store.deferred_error()
    }

    /// The object `id`, following an object that is only a reference to
    /// another (as lopdf's `get_object` does), at most
    /// [`LoadOptions::max_reference_chain`] references in all.
    #[inline]
    pub(crate) fn object(&self, id: ObjectId) -> Option<Obj<'_>> {
        self.follow(self.store.get(id)?, 1).map(Obj::new)
    }

    /// The dictionary `id` (not a stream's), as lopdf's `get_dictionary` reads it.
    #[inline]
    pub(crate) fn dictionary(&self, id: ObjectId) -> Option<Dict<'_>> {
        self.object(id)?.as_dict()
    }

    /// The trailer dictionary.
    #[inline]
    pub(crate) fn trailer(&self) -> Dict<'_> {
        Dict::new(self.store.trailer())
    }

    /// Fails once the file has used up its time budget or is cancelled.
    pub(crate) fn check_time(&self) -> Result<(), Error> {
        self.over_time()
            .map_or(Ok(()), |limit| Err(Error::limit(limit)))
    }

    /// The time budget, once the file has used it up, or the cancel flag
    /// once raised ([`LoadOptions::out_of_time`]).
    pub(crate) fn over_time(&self) -> Option<Limit> {
        self.options.out_of_time(self.started)
    }

    /// Number of pages.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Geometry of a page (0-based), or `None` past the end.
    pub fn page_geometry(&self, index: usize) -> Option<&PageGeometry> {
        self.pages.get(index).map(|p| &p.geometry)
    }

    /// True when the cross-reference data had to be rebuilt, or an object
    /// the document used was found by scanning the file (its entry led to no
    /// header of its own).
    pub fn was_repaired(&self) -> bool {
        self.repaired || self.store.resolved_used()
    }

    /// The options the document was loaded with.
    pub fn options(&self) -> &LoadOptions {
        &self.options
    }

    /// Follows references (bounded) to a direct object.
    #[inline]
    pub(crate) fn resolve<'a>(&'a self, obj: Obj<'a>) -> Option<Obj<'a>> {
        self.follow(obj.raw(), 0).map(Obj::new)
    }

    /// Follows references from `obj`, `hops` of them already followed.
    fn follow<'a>(&'a self, obj: &'a Object, hops: usize) -> Option<&'a Object> {
        self.follow_with_id(obj, hops).map(|(_, o)| o)
    }

    /// [`Document::follow`], also giving the id of the last object followed
    /// (`None` when `obj` is direct).
    fn follow_with_id<'a>(
        &'a self,
        mut obj: &'a Object,
        mut hops: usize,
    ) -> Option<(Option<ObjectId>, &'a Object)> {
        let mut last = None;
        while let Object::Reference(id) = obj {
            if hops >= self.options.max_reference_chain {
                return None;
            }
            obj = self.store.get(*id)?;
            last = Some(*id);
            hops += 1;
        }
        Some((last, obj))
    }

    /// A dictionary entry, resolved.
    #[inline]
    pub(crate) fn get<'a>(&'a self, dict: Dict<'a>, key: &[u8]) -> Option<Obj<'a>> {
        self.resolve(dict.get(key)?)
    }

    /// A dictionary entry, resolved, when it is a dictionary (or a stream,
    /// whose dictionary it gives).
    #[inline]
    pub(crate) fn get_dict<'a>(&'a self, dict: Dict<'a>, key: &[u8]) -> Option<Dict<'a>> {
        self.get(dict, key)?.as_dict_or_stream_dict()
    }

    /// A dictionary entry, resolved, when it is a number.
    #[inline]
    pub(crate) fn get_number(&self, dict: Dict<'_>, key: &[u8]) -> Option<f64> {
        self.get(dict, key)?.as_number()
    }

    /// A dictionary entry, resolved, when it is a name.
    #[inline]
    pub(crate) fn get_name<'a>(&'a self, dict: Dict<'a>, key: &[u8]) -> Option<&'a [u8]> {
        self.get(dict, key)?.as_name()
    }

    /// A dictionary entry, resolved, when it is an array.
    #[inline]
    pub(crate) fn get_array<'a>(&'a self, dict: Dict<'a>, key: &[u8]) -> Option<Array<'a>> {
        self.get(dict, key)?.as_array()
    }

    /// Follows references (bounded, as [`Document::resolve`]) to a stream;
    /// with the id of the object that holds it, when it is not inline.
    #[inline]
    pub(crate) fn resolve_stream<'a>(
        &'a self,
        obj: Obj<'a>,
    ) -> Option<(Option<ObjectId>, StreamObj<'a>)> {
        match self.follow_with_id(obj.raw(), 0)? {
            (id, Object::Stream(s)) => Some((id, StreamObj::new(s))),
            _ => None,
        }
    }

    /// The content streams of page object `page`, in order, with their ids.
    pub(crate) fn content_streams<'a>(
        &'a self,
        page: &'a PageRef,
    ) -> Vec<(Option<ObjectId>, StreamObj<'a>)> {
        let Some(dict) = self.page_dict(page) else {
            return Vec::new();
        };
        let Some(contents) = dict.get(b"Contents") else {
            return Vec::new();
        };
        if let Some(one) = self.resolve_stream(contents) {
            return vec![one];
        }
        match self.resolve(contents).and_then(Obj::as_array) {
            Some(arr) => arr.iter().filter_map(|o| self.resolve_stream(o)).collect(),
            None => Vec::new(),
        }
    }

    /// The objects page `page`'s `/Contents` names that hold no stream: a
    /// reference to an object lost to damage (a truncated file), or to
    /// something else. [`Document::content_streams`] skips them; the page's
    /// text they held is missing, which a scan must say.
    pub(crate) fn lost_content_streams(&self, page: &PageRef) -> Vec<ObjectId> {
        let Some(contents) = self.page_dict(page).and_then(|d| d.get(b"Contents")) else {
            return Vec::new();
        };
        let entries: Vec<Obj<'_>> = match self.resolve(contents).and_then(Obj::as_array) {
            Some(arr) => arr.iter().collect(),
            None => vec![contents],
        };
        entries
            .into_iter()
            .filter(|o| self.resolve_stream(*o).is_none())
            .filter_map(Obj::as_reference)
            .collect()
    }
}

/// `dict[key]`, cheaper than `Dictionary::get`: a missing key costs lopdf an
/// error holding the key as a new `String` (two allocations), and the small
/// dictionaries of pages, fonts, resources and widgets are found faster by
/// comparing keys than by hashing one with SipHash (~40% of the
/// 98 k lookups of a bench-set scan miss).
fn lookup<'a>(dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    const LINEAR: usize = 16;
    if dict.len() <= LINEAR {
        dict.iter()
            .find(|(k, _)| k.as_slice() == key)
            .map(|(_, v)| v)
    } else {
        // The map itself: one hash, and no error for a missing key.
        dict.as_hashmap().get(key)
    }
}

/// A number operand or entry.
fn number(obj: &Object) -> Option<f64> {
    match obj {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) if r.is_finite() => Some(f64::from(*r)),
        _ => None,
    }
}

/// Whether a file has the `%PDF-` header (ISO 32000-2, 7.5.2: in its
/// first 1024 bytes, as Acrobat accepts it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Header {
    Found,
    /// No header, but the file begins with an object (`1 0 obj`), after
    /// comments and white space at most.
    Missing,
}

/// The checks every input passes before it is parsed at all.
fn check_input(bytes: &[u8], options: &LoadOptions) -> Result<Header, Error> {
    if bytes.len() as u64 > options.max_file_bytes {
        return Err(Error::limit(Limit::InputSize {
            bytes: bytes.len() as u64,
            limit: options.max_file_bytes,
        }));
    }
    if bytes.is_empty() {
        return Err(Error::unreadable_by(Unreadable::Empty, None));
    }
    let head = bytes.get(..bytes.len().min(1024)).unwrap_or_default();
    if head.windows(5).any(|w| w == b"%PDF-") {
        Ok(Header::Found)
    } else if begins_with_object(head) {
        Ok(Header::Missing)
    } else {
        Err(Error::unreadable_by(Unreadable::NotPdf, None))
    }
}

/// True when `head`, past white space and `%` comment lines, begins with an
/// object header: two whole numbers and `obj`.
fn begins_with_object(head: &[u8]) -> bool {
    let mut rest = head;
    loop {
        rest = rest.trim_ascii_start();
        match rest.first() {
            Some(b'%') => {
                let end = rest.iter().position(|&b| b == b'\n' || b == b'\r');
                match end {
                    Some(i) => rest = rest.get(i..).unwrap_or_default(),
                    None => return false,
                }
            }
            _ => break,
        }
    }
    let mut parts = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|p| !p.is_empty());
    let number = |p: Option<&[u8]>| p.is_some_and(|p| p.iter().all(u8::is_ascii_digit));
    number(parts.next())
        && number(parts.next())
        && parts.next().is_some_and(|p| p.starts_with(b"obj"))
}

/// A six-number matrix array, resolved; `None` unless all six are finite numbers.
pub(crate) fn matrix_of(doc: &Document, arr: Array<'_>) -> Option<crate::geometry::Matrix> {
    let mut v = [0.0; 6];
    if arr.len() < 6 {
        return None;
    }
    for (slot, o) in v.iter_mut().zip(arr) {
        *slot = doc.resolve(o).and_then(Obj::as_number)?;
    }
    let m = crate::geometry::Matrix::new(v[0], v[1], v[2], v[3], v[4], v[5]);
    m.is_finite().then_some(m)
}
