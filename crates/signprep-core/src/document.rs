//! Loading PDFs with limits. The only module that opens files through lopdf.

use crate::fonts::Font;
use crate::geometry::{PageGeometry, Rect, Rotation};
use crate::stream_cache::StreamCache;
use lopdf::{Dictionary, Object, ObjectId};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// Resource limits applied while loading and scanning a document. The defaults
/// are generous for real documents and stop decompression bombs and deep nesting.
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
    /// Deepest array/dictionary nesting accepted in the file.
    pub max_nesting_depth: usize,
    /// Deepest chain of Form XObjects (`Do` inside `Do`).
    pub max_xobject_depth: usize,
    /// Most pages walked in the page tree.
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
        }
    }
}

/// Why a document could not be loaded or scanned at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read.
    #[error("cannot read file: {0}")]
    Io(#[from] std::io::Error),
    /// The file is encrypted and does not open with an empty password.
    #[error(
        "the PDF is encrypted with a password; signprep only opens files whose user password is empty"
    )]
    Encrypted,
    /// The bytes are not a PDF that can be made sense of.
    #[error("not a readable PDF: {0}")]
    Unreadable(String),
    /// A resource limit of [`LoadOptions`] was hit (a decompression bomb, say).
    #[error("resource limit exceeded: {0}")]
    LimitExceeded(String),
    /// A bug: signprep (or a library it uses) panicked on this file.
    #[error("internal error (please report it with the file): {0}")]
    Internal(String),
}

/// A fatal error for one document, naming the file when there is one.
#[derive(Debug)]
pub struct Error {
    path: Option<PathBuf>,
    kind: ErrorKind,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Error { path: None, kind }
    }

    pub(crate) fn unreadable(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Unreadable(msg.into()))
    }

    pub(crate) fn limit(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::LimitExceeded(msg.into()))
    }

    /// An internal error (a caught panic).
    pub fn internal(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Internal(msg.into()))
    }

    /// The same error, naming a file.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// The file concerned, when known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The stable code of this error, as written in error records.
    pub fn code(&self) -> &'static str {
        match self.kind {
            ErrorKind::Io(_) => "io_error",
            ErrorKind::Encrypted => "pdf_encrypted",
            ErrorKind::Unreadable(_) => "pdf_unreadable",
            ErrorKind::LimitExceeded(_) => "pdf_limit_exceeded",
            ErrorKind::Internal(_) => "internal_error",
        }
    }

    /// The message without the path.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}: {}", p.display(), self.kind),
            None => self.kind.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(e))
    }
}

/// One page as found in the page tree, with its inherited attributes.
#[derive(Clone, Debug)]
pub(crate) struct PageRef {
    pub(crate) id: ObjectId,
    pub(crate) geometry: PageGeometry,
    /// `/Resources` (inherited), as written: a dictionary or a reference.
    /// Shared: pages inherit one copy, however many kids the tree lists.
    pub(crate) resources: Option<Arc<Object>>,
}

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
    pub(crate) inner: lopdf::Document,
    pub(crate) pages: Vec<PageRef>,
    pub(crate) options: LoadOptions,
    /// Bytes inflated so far, across all threads scanning this document.
    pub(crate) inflated: AtomicUsize,
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
            .and_then(|bytes| Document::from_bytes(&bytes, options))
            .map_err(|e| e.with_path(path))
    }

    /// Loads a PDF from memory.
    pub fn from_bytes(bytes: &[u8], options: &LoadOptions) -> Result<Document, Error> {
        if bytes.len() as u64 > options.max_file_bytes {
            return Err(Error::limit(format!(
                "input is {} bytes, more than the limit of {}",
                bytes.len(),
                options.max_file_bytes
            )));
        }
        if bytes.is_empty() {
            return Err(Error::unreadable("the file is empty"));
        }
        let head = &bytes[..bytes.len().min(1024)];
        if !head.windows(5).any(|w| w == b"%PDF-") {
            return Err(Error::unreadable(
                "no %PDF- header in the first 1024 bytes: this is not a PDF file",
            ));
        }
        let started = Instant::now();
        check_nesting(bytes, options.max_nesting_depth)?;
        let lopts = lopdf::LoadOptions {
            max_decompressed_size: Some(options.max_stream_bytes),
            ..lopdf::LoadOptions::default()
        };
        let inner = lopdf::Document::load_mem_with_options(bytes, lopts).map_err(map_load_error)?;
        if inner.is_encrypted() {
            return Err(Error::new(ErrorKind::Encrypted));
        }
        let repaired = inner.xref_recovery.is_some();
        if repaired {
            check_written_root(bytes, &inner)?;
        }
        let pages = walk_pages(&inner, options)?;
        Ok(Document {
            inner,
            pages,
            options: options.clone(),
            inflated: AtomicUsize::new(0),
            streams: StreamCache::new(options.max_stream_cache_bytes),
            repaired,
            fonts: Mutex::new(HashMap::new()),
            fallback: OnceLock::new(),
            started,
        })
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

    /// Follows references (bounded) to a direct object.
    pub(crate) fn resolve<'a>(&'a self, mut obj: &'a Object) -> Option<&'a Object> {
        for _ in 0..32 {
            match obj {
                Object::Reference(id) => obj = self.inner.get_object(*id).ok()?,
                other => return Some(other),
            }
        }
        None
    }

    /// A dictionary entry, resolved.
    pub(crate) fn get<'a>(&'a self, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
        self.resolve(dict.get(key).ok()?)
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
            return Err(StreamError::Limit(msg));
        }
        // Once the document's budget is spent, refuse before inflating: callers
        // that skip a failed stream (a font's ToUnicode) must not pay again.
        if self.inflated.load(Ordering::Relaxed) > self.options.max_document_bytes {
            return Err(StreamError::Limit(format!(
                "the document's streams inflate to more than {} bytes",
                self.options.max_document_bytes
            )));
        }
        let data = match stream.decompressed_content_with_limit(self.options.max_stream_bytes) {
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
            Err(lopdf::Error::Unimplemented(_)) => {
                let filters = stream
                    .filters()
                    .map(|f| {
                        f.iter()
                            .map(|n| String::from_utf8_lossy(n).into_owned())
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                return Err(StreamError::Corrupt(format!(
                    "it uses a filter signprep cannot decode: {filters}"
                )));
            }
            Err(e) => return Err(StreamError::Corrupt(e.to_string())),
        };
        let total = self.inflated.fetch_add(data.len(), Ordering::Relaxed) + data.len();
        if total > self.options.max_document_bytes {
            return Err(StreamError::Limit(format!(
                "the document's streams inflate to more than {} bytes",
                self.options.max_document_bytes
            )));
        }
        Ok(data)
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
    /// A limit was hit: fatal for the document.
    Limit(String),
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

fn map_load_error(e: lopdf::Error) -> Error {
    match e {
        lopdf::Error::InvalidPassword | lopdf::Error::Decryption(_) => {
            Error::new(ErrorKind::Encrypted)
        }
        lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded { limit }) => {
            Error::limit(format!("a stream inflates to more than {limit} bytes"))
        }
        other => Error::unreadable(other.to_string()),
    }
}

/// Rejects files whose arrays/dictionaries nest deeper than the limit, before the
/// recursive parser sees them (lopdf's parser recurses once per level); see
/// [`crate::nesting`].
fn check_nesting(bytes: &[u8], max_depth: usize) -> Result<(), Error> {
    if crate::nesting::nesting_exceeds(bytes, max_depth) {
        return Err(Error::limit(format!(
            "objects nest more than {max_depth} levels deep (max_nesting_depth)"
        )));
    }
    Ok(())
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
        _ => Err(Error::unreadable(format!(
            "the trailer's /Root points to object {n} {g}, which is not a document catalog"
        ))),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Inherited page attributes while walking the tree.
#[derive(Clone, Default)]
struct Inherited {
    media_box: Option<Rect>,
    crop_box: Option<Rect>,
    rotate: Option<i64>,
    /// Shared, so cloning for every kid stays cheap.
    resources: Option<Arc<Object>>,
}

/// Walks `/Root /Pages` depth-first with cycle and size guards.
fn walk_pages(doc: &lopdf::Document, options: &LoadOptions) -> Result<Vec<PageRef>, Error> {
    let root = doc
        .trailer
        .get(b"Root")
        .ok()
        .and_then(|r| r.as_reference().ok())
        .ok_or_else(|| Error::unreadable("the trailer has no /Root (document catalog)"))?;
    let catalog = doc.get_dictionary(root).map_err(|_| {
        Error::unreadable("the document catalog (/Root) is missing or not a dictionary")
    })?;
    let pages_id = catalog
        .get(b"Pages")
        .ok()
        .and_then(|r| r.as_reference().ok())
        .ok_or_else(|| Error::unreadable("the document catalog has no /Pages tree"))?;

    let mut out = Vec::new();
    let mut visited = HashSet::new();
    // Explicit stack: (node id, inherited attributes, depth).
    let mut stack = vec![(pages_id, Inherited::default(), 0usize)];
    while let Some((id, inherited, depth)) = stack.pop() {
        if depth > options.max_nesting_depth {
            return Err(Error::limit("the page tree is nested too deeply"));
        }
        if !visited.insert(id) {
            return Err(Error::unreadable(format!(
                "the page tree has a cycle (object {} {} is reached twice)",
                id.0, id.1
            )));
        }
        let Ok(dict) = doc.get_dictionary(id) else {
            // A dangling kid: lenient readers skip it.
            continue;
        };
        let mut inh = inherited;
        let get_box = |key: &[u8]| dict.get(key).ok().and_then(|o| rect_of(doc, o));
        if let Some(b) = get_box(b"MediaBox") {
            inh.media_box = Some(b);
        }
        if let Some(b) = get_box(b"CropBox") {
            inh.crop_box = Some(b);
        }
        if let Some(r) = dict
            .get(b"Rotate")
            .ok()
            .and_then(|o| deref(doc, o))
            .and_then(number)
        {
            inh.rotate = Some(r as i64);
        }
        if let Ok(r) = dict.get(b"Resources") {
            inh.resources = Some(Arc::new(r.clone()));
        }
        let is_pages = dict.get(b"Kids").is_ok() && !matches!(dict.get_type(), Ok(b"Page"));
        if is_pages {
            let kids = dict
                .get(b"Kids")
                .ok()
                .and_then(|k| deref(doc, k))
                .and_then(|k| k.as_array().ok());
            if let Some(kids) = kids {
                // Every pending kid is a page to come or a node holding some:
                // more than max_pages of them is refused before they are queued.
                if out.len() + stack.len() + kids.len() > options.max_pages {
                    return Err(Error::limit(format!(
                        "the page tree lists more than {} kids (max_pages)",
                        options.max_pages
                    )));
                }
                for kid in kids.iter().rev() {
                    if let Ok(kid_id) = kid.as_reference() {
                        stack.push((kid_id, inh.clone(), depth + 1));
                    }
                }
            }
            continue;
        }
        if out.len() >= options.max_pages {
            return Err(Error::limit(format!(
                "the document has more than {} pages",
                options.max_pages
            )));
        }
        let media = inh
            .media_box
            .unwrap_or_else(|| Rect::new(0.0, 0.0, 612.0, 792.0));
        let user_unit = dict
            .get(b"UserUnit")
            .ok()
            .and_then(|o| deref(doc, o))
            .and_then(number)
            .unwrap_or(1.0);
        out.push(PageRef {
            id,
            geometry: PageGeometry::new(
                media,
                inh.crop_box,
                Rotation::from_degrees(inh.rotate.unwrap_or(0)),
                user_unit,
            ),
            resources: inh.resources,
        });
    }
    Ok(out)
}

fn deref<'a>(doc: &'a lopdf::Document, mut obj: &'a Object) -> Option<&'a Object> {
    for _ in 0..32 {
        match obj {
            Object::Reference(id) => obj = doc.get_object(*id).ok()?,
            other => return Some(other),
        }
    }
    None
}

fn rect_of(doc: &lopdf::Document, obj: &Object) -> Option<Rect> {
    let arr = deref(doc, obj)?.as_array().ok()?;
    let mut v = [0.0; 4];
    if arr.len() < 4 {
        return None;
    }
    for (slot, o) in v.iter_mut().zip(arr) {
        *slot = deref(doc, o).and_then(number)?;
    }
    let r = Rect::new(v[0], v[1], v[2], v[3]);
    (r.width() > 0.0 && r.height() > 0.0).then_some(r)
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
