//! Loading PDFs with limits. With [`crate::loader`], the only modules that
//! open files through lopdf.

use crate::error::Unreadable;
use crate::fonts::Font;
use crate::geometry::PageGeometry;
use crate::loader::{Lazy, Refused, Store};
use crate::stream_cache::StreamCache;
use lopdf::{Dictionary, Object, ObjectId};
pub(crate) use pages::PageRef;
use pages::{page_tree_loaded, read_pages};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

mod pages;

/// Resource limits applied while loading and scanning a document. The defaults
/// are generous for real documents and stop decompression bombs and deep nesting.
///
/// Reviewed against 500 real-world PDFs from public test suites (pdf.js,
/// qpdf, PyMuPDF, pypdf, PDF Association; issue 16): no file a viewer reads
/// hits a default. Each field says what the corpus showed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Largest input file, in bytes.
    pub max_file_bytes: u64,
    /// Most bytes one stream may inflate to.
    pub max_stream_bytes: usize,
    /// Most bytes all streams of one document may inflate to, together.
    pub max_document_bytes: usize,
    /// Most bytes of decoded streams one document keeps for reuse (Form
    /// XObjects, content streams several pages share), so that they are
    /// inflated once; past it, streams are inflated at every use.
    pub max_stream_cache_bytes: usize,
    /// Deepest array/dictionary nesting accepted: in any object read, and
    /// anywhere in the file when it must be loaded whole (damaged
    /// cross-reference data, encryption), since lopdf's parser recurses.
    /// Default 256: real files nest at most 8 levels (61 in a qpdf test of odd
    /// tokens); only fuzzing reproductions go past it, by 20,000 to 68,000
    /// levels, where no limit lopdf's recursion survives would help. A
    /// trailer nested past it is dropped and the file rebuilt from its
    /// objects (qpdf issue-202.pdf); an object nested past it is refused.
    pub max_nesting_depth: usize,
    /// Deepest chain of Form XObjects (`Do` inside `Do`).
    pub max_xobject_depth: usize,
    /// Most pages walked in the page tree (a page listed twice counts
    /// twice). The walk also reads at most 4 x this many `/Kids` entries in
    /// all, so a tree listing nodes over and over stops early. Default
    /// 100,000; the longest real file seen has 352 pages.
    pub max_pages: usize,
    /// Most content operators interpreted on one page (Form XObjects included);
    /// past it the rest of the page is skipped with a warning.
    pub max_operators_per_page: usize,
    /// Most glyphs recorded on one page; past it the rest of the page is skipped
    /// with a warning.
    pub max_glyphs_per_page: usize,
    /// Time allowed for loading and scanning one file (checked cooperatively);
    /// `None` for no limit.
    pub time_budget: Option<std::time::Duration>,
    /// Most references followed to reach one object (`1 0 R` naming an object
    /// that is itself a reference, ...); a longer chain reads as missing.
    pub max_reference_chain: usize,
    /// Most distinct objects parsed for one document. Objects are parsed when
    /// the scan needs them; a file that needs more is refused. A file that
    /// must be loaded whole (damaged cross-reference data) is refused when it
    /// holds more.
    pub max_objects_resolved: usize,
    /// Deepest nesting of the page tree (`/Pages` nodes inside `/Pages` nodes).
    /// Default 256; the deepest real tree seen is a qpdf test of 108 levels.
    pub max_page_tree_depth: usize,
    /// Most entries in one `/Kids` array of the page tree.
    pub max_kids_per_node: usize,
    /// Spread the work inside one document over the rayon pool (parsing a
    /// long page tree's page dictionaries); on by default. Turn it off, with
    /// [`crate::Scanner::parallel_pages`], when files are already spread over
    /// the threads: nested, one file's work only draws the other threads
    /// away from the files waiting.
    pub parallel: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_file_bytes: 1 << 30,
            max_stream_bytes: 64 << 20,
            max_document_bytes: 512 << 20,
            // As large as one stream may be: a stream shared by every page
            // is inflated once, whatever its size.
            max_stream_cache_bytes: 64 << 20,
            max_nesting_depth: 256,
            max_xobject_depth: 16,
            max_pages: 100_000,
            max_operators_per_page: 20_000_000,
            max_glyphs_per_page: 4_000_000,
            time_budget: Some(std::time::Duration::from_secs(60)),
            max_reference_chain: 32,
            max_objects_resolved: 5_000_000,
            max_page_tree_depth: 256,
            max_kids_per_node: 100_000,
            parallel: true,
        }
    }
}

impl LoadOptions {
    /// These options with [`LoadOptions::parallel`] set.
    #[must_use]
    pub fn parallel(mut self, yes: bool) -> Self {
        self.parallel = yes;
        self
    }
}

pub use crate::error::{Encryption, Error, ErrorKind};

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
    /// Decoded streams kept for reuse.
    pub(crate) streams: StreamCache,
    repaired: bool,
    /// Fonts read so far, by object id, shared by the threads scanning pages.
    fonts: Mutex<HashMap<FontKey, Arc<Font>>>,
    fallback: OnceLock<Arc<Font>>,
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
                return Err(Error::limit(format!(
                    "file is {len} bytes, more than the limit of {}",
                    options.max_file_bytes
                )));
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

    /// Loads a PDF from memory the way signprep did before objects were read
    /// on demand: lopdf parses every object first. For differential tests.
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
        check_input(&bytes, options)?;
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
    /// loaded whole instead (and then reads exactly as it did before).
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
            streams: StreamCache::new(options.max_stream_cache_bytes),
            repaired: false,
            fonts: Mutex::new(HashMap::new()),
            fallback: OnceLock::new(),
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
    pub(crate) fn object(&self, id: ObjectId) -> Option<&Object> {
        self.follow(self.store.get(id)?, 1)
    }

    /// The dictionary `id` (not a stream's), as lopdf's `get_dictionary` reads it.
    pub(crate) fn dictionary(&self, id: ObjectId) -> Option<&Dictionary> {
        self.object(id)?.as_dict().ok()
    }

    /// The trailer dictionary.
    pub(crate) fn trailer(&self) -> &Dictionary {
        self.store.trailer()
    }

    /// Fails once the file has used up its time budget.
    pub(crate) fn check_time(&self) -> Result<(), Error> {
        self.over_time()
            .map_or(Ok(()), |msg| Err(Error::limit(msg)))
    }

    /// What to say when the file has used up its time budget.
    fn over_time(&self) -> Option<String> {
        match self.options.time_budget {
            Some(budget) if self.started.elapsed() > budget => Some(format!(
                "the file took longer than {:.1} s to scan (time_budget)",
                budget.as_secs_f64()
            )),
            _ => None,
        }
    }

    /// Number of pages.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Geometry of a page (0-based), or `None` past the end.
    pub fn page_geometry(&self, index: usize) -> Option<&PageGeometry> {
        self.pages.get(index).map(|p| &p.geometry)
    }

    /// True when lopdf had to rebuild the cross-reference data.
    pub fn was_repaired(&self) -> bool {
        self.repaired
    }

    /// The options the document was loaded with.
    pub fn options(&self) -> &LoadOptions {
        &self.options
    }

    /// The font a resource entry names, read once per document.
    ///
    /// `entry` must be an object of this document (it is, when it comes from
    /// a resource dictionary): an inline font dictionary is cached by its
    /// address, so a content stream selecting it a million times loads it once.
    pub(crate) fn font(&self, entry: &Object) -> Arc<Font> {
        let key = match entry {
            Object::Reference(id) => FontKey::Object(*id),
            inline => FontKey::Inline(std::ptr::from_ref(inline) as usize),
        };
        if let Ok(cache) = self.fonts.lock()
            && let Some(f) = cache.get(&key)
        {
            return Arc::clone(f);
        }
        let font = match self.resolve(entry) {
            Some(Object::Dictionary(d)) => Arc::new(Font::load(self, d)),
            _ => self.fallback_font(),
        };
        if let Ok(mut cache) = self.fonts.lock() {
            cache.insert(key, Arc::clone(&font));
        }
        font
    }

    /// Helvetica, for text shown without a usable font.
    pub(crate) fn fallback_font(&self) -> Arc<Font> {
        Arc::clone(self.fallback.get_or_init(|| Arc::new(Font::fallback())))
    }

    /// [`Document::fallback_font`], borrowed.
    pub(crate) fn fallback(&self) -> &Font {
        self.fallback.get_or_init(|| Arc::new(Font::fallback()))
    }

    /// Follows references (bounded) to a direct object.
    pub(crate) fn resolve<'a>(&'a self, obj: &'a Object) -> Option<&'a Object> {
        self.follow(obj, 0)
    }

    /// Follows references from `obj`, `hops` of them already followed.
    fn follow<'a>(&'a self, obj: &'a Object, hops: usize) -> Option<&'a Object> {
        self.follow_with_id(obj, hops).map(|(_, o)| o)
    }

    /// [`Document::follow`], also giving the id of the last object followed
    /// (`None` when `obj` is direct).
    pub(crate) fn follow_with_id<'a>(
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
    pub(crate) fn get<'a>(&'a self, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
        self.resolve(lookup(dict, key)?)
    }

    pub(crate) fn get_dict<'a>(
        &'a self,
        dict: &'a Dictionary,
        key: &[u8],
    ) -> Option<&'a Dictionary> {
        match self.get(dict, key)? {
            Object::Dictionary(d) => Some(d),
            Object::Stream(s) => Some(&s.dict),
            _ => None,
        }
    }

    pub(crate) fn get_number(&self, dict: &Dictionary, key: &[u8]) -> Option<f64> {
        self.get(dict, key).and_then(number)
    }

    pub(crate) fn get_name<'a>(&'a self, dict: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
        match self.get(dict, key)? {
            Object::Name(n) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn get_array<'a>(
        &'a self,
        dict: &'a Dictionary,
        key: &[u8],
    ) -> Option<&'a [Object]> {
        match self.get(dict, key)? {
            Object::Array(a) => Some(a),
            _ => None,
        }
    }

    /// Decodes a stream, charging its size to the document's budget.
    pub(crate) fn stream_bytes(&self, stream: &lopdf::Stream) -> Result<Vec<u8>, StreamError> {
        // Inflating is the costly step, and a stream that fails in a later
        // filter is not charged to the byte budget: check the clock first.
        if let Some(msg) = self.over_time() {
            return Err(StreamError::DocumentLimit(msg));
        }
        // Once the document's budget is spent, refuse before inflating: callers
        // that skip a failed stream (a font's ToUnicode) must not pay again.
        if self.inflated.load(Ordering::Relaxed) > self.options.max_document_bytes {
            return Err(StreamError::DocumentLimit(format!(
                "the document's streams inflate to more than {} bytes",
                self.options.max_document_bytes
            )));
        }
        let limit = self.options.max_stream_bytes;
        // Abbreviated filter names (`/Fl`, `/AHx`, ...) decode as the full ones.
        let expanded = crate::filters::expanded(stream);
        let stream = expanded.as_ref().unwrap_or(stream);
        let decoded = match crate::inflate::inflate(stream, limit) {
            crate::inflate::Inflated::Data(d) => Ok(d),
            crate::inflate::Inflated::OverLimit => Err(lopdf::Error::Decompress(
                lopdf::DecompressError::MemoryLimitExceeded { limit },
            )),
            crate::inflate::Inflated::Lopdf => stream.decompressed_content_with_limit(limit),
        };
        let data = match decoded {
            Ok(d) => d,
            Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                ..
            })) => {
                return Err(StreamError::Limit(format!(
                    "a stream inflates to more than {} bytes",
                    self.options.max_stream_bytes
                )));
            }
            Err(lopdf::Error::Decompress(lopdf::DecompressError::TooManyFilters { .. })) => {
                return Err(StreamError::Limit("a stream names too many filters".into()));
            }
            // A filter not decoded here (an image's: JBIG2, JPX, DCT, CCITT):
            // the stream is skipped, never the page.
            Err(lopdf::Error::Unimplemented(_)) => {
                return Err(StreamError::Corrupt(format!(
                    "it uses a filter signprep does not decode: {}",
                    crate::filters::names(stream)
                )));
            }
            // lopdf's own words stay out of findings.
            Err(_) => {
                return Err(StreamError::Corrupt(format!(
                    "its {} data is damaged",
                    crate::filters::names(stream)
                )));
            }
        };
        let total = self.inflated.fetch_add(data.len(), Ordering::Relaxed) + data.len();
        if total > self.options.max_document_bytes {
            return Err(StreamError::DocumentLimit(format!(
                "the document's streams inflate to more than {} bytes",
                self.options.max_document_bytes
            )));
        }
        Ok(data)
    }
}

/// `dict[key]`, cheaper than `Dictionary::get`: a missing key costs lopdf an
/// error holding the key as a new `String` (two allocations), and the small
/// dictionaries of pages, fonts, resources and widgets are found faster by
/// comparing keys than by hashing one with SipHash (~40% of the
/// 98 k lookups of a bench-set scan miss).
pub(crate) fn lookup<'a>(dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
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

/// How [`Document::font`] caches a font: by object id, or for an inline
/// dictionary by the address of the object (stable: the document is not
/// modified while it is scanned).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum FontKey {
    Object(ObjectId),
    Inline(usize),
}

/// Why a stream could not be decoded.
#[derive(Clone, Debug)]
pub(crate) enum StreamError {
    /// A limit of one stream was hit: fatal for the document.
    Limit(String),
    /// A limit of the whole document (its inflate or time budget) was hit:
    /// fatal too, but which page crosses it first depends on how the pages
    /// were scheduled, so messages do not name the page (output must not
    /// depend on the thread count).
    DocumentLimit(String),
    /// The data is damaged: the stream is skipped.
    Corrupt(String),
}

/// A number operand or entry.
pub(crate) fn number(obj: &Object) -> Option<f64> {
    match obj {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) if r.is_finite() => Some(f64::from(*r)),
        _ => None,
    }
}

/// The checks every input passes before it is parsed at all.
fn check_input(bytes: &[u8], options: &LoadOptions) -> Result<(), Error> {
    if bytes.len() as u64 > options.max_file_bytes {
        return Err(Error::limit(format!(
            "input is {} bytes, more than the limit of {}",
            bytes.len(),
            options.max_file_bytes
        )));
    }
    if bytes.is_empty() {
        return Err(Error::unreadable_by(Unreadable::Empty, None));
    }
    let head = bytes.get(..bytes.len().min(1024)).unwrap_or_default();
    if !head.windows(5).any(|w| w == b"%PDF-") {
        return Err(Error::unreadable_by(Unreadable::NotPdf, None));
    }
    Ok(())
}

/// Loads the whole file with lopdf, as signprep always did: the nesting
/// pre-scan, the load, the encryption and catalog checks. Returns the document and whether lopdf rebuilt its table.
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
        return Err(Error::limit(format!(
            "the document holds more than {} objects (max_objects_resolved)",
            options.max_objects_resolved
        )));
    }
    Ok((inner, repaired))
}

/// An encrypted file that lopdf loaded whole is read only when the empty
/// password is its *user* password ([`crate::loader::check_user_password`]):
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
            Ok(dict) => crate::loader::check_user_password(&dict, &inner.trailer).or_else(refuse),
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
            _ if crate::loader::holds_object(bytes, *id) => {
                return refuse(Encryption::DamagedDictionary {
                    num: id.0,
                    generation: id.1,
                });
            }
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    match crate::loader::check_user_password(dict, &inner.trailer) {
        Err(why) => refuse(why),
        // Encrypted by a method read here, but not decrypted by the eager load.
        Ok(()) => refuse(Encryption::Damaged),
    }
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
    let refuse = || {
        Error::limit(format!(
            "objects nest more than {max_depth} levels deep (max_nesting_depth)"
        ))
    };
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

/// A six-number matrix array, resolved; `None` unless all six are finite numbers.
pub(crate) fn matrix_of(doc: &Document, arr: &[Object]) -> Option<crate::geometry::Matrix> {
    let mut v = [0.0; 6];
    if arr.len() < 6 {
        return None;
    }
    for (slot, o) in v.iter_mut().zip(arr) {
        *slot = doc.resolve(o).and_then(number)?;
    }
    let m = crate::geometry::Matrix::new(v[0], v[1], v[2], v[3], v[4], v[5]);
    m.is_finite().then_some(m)
}
