//! Decoded streams kept for one scan of a [`Document`] (in its
//! [`crate::resources::Resources`]), so that a stream used many times is
//! inflated (and charged to the document's inflate budget) once.
//!
//! Without it, a Form XObject is inflated again at every `Do` and a content
//! stream shared by many pages once per page: only the document's byte budget
//! and the time budget bound that, and a small file can spend both.
//!
//! What is kept, within [`LoadOptions::max_stream_cache_bytes`]:
//! - Form XObjects, from their first use: a form is there to be reused (a
//!   letterhead on every page, a logo drawn many times);
//! - page content streams that more than one page lists (found once, from the
//!   page tree), and no others: a page's own content is read once, and keeping
//!   it would only hold memory.
//!
//! A stream that does not fit is decoded, and charged, at every use, as
//! before: the byte budget still bounds the work. Keys are object ids; a
//! stream written inline has none and is never kept. The cache is shared by
//! the threads scanning pages: a stream being decoded by one thread is waited
//! for by the others rather than decoded twice.
//!
//! [`LoadOptions::max_stream_cache_bytes`]: crate::LoadOptions::max_stream_cache_bytes

use crate::document::{Document, ObjectId, StreamError, StreamObj};
use std::collections::{HashMap, HashSet};
use std::ops::Deref;
use std::sync::{Arc, Mutex, OnceLock};

/// How a stream is used, which decides whether it is worth keeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reuse {
    /// A page's content stream: kept only when several pages list it.
    PageContent,
    /// A Form XObject: kept from its first use.
    Form,
}

/// Decoded stream bytes: shared with the cache, or owned by the caller.
#[derive(Debug)]
pub(crate) enum Decoded {
    /// Kept in the cache.
    Shared(Arc<[u8]>),
    /// Not kept (too large for what is left of the cache, or not reused).
    Owned(Vec<u8>),
}

impl Deref for Decoded {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Decoded::Shared(a) => a,
            Decoded::Owned(v) => v,
        }
    }
}

/// What became of a stream the first time it was asked for.
#[derive(Debug)]
enum Slot {
    Cached(Arc<[u8]>),
    /// It did not fit: decoded at every use.
    Uncached,
    /// It could not be decoded (damaged, or a limit was hit): the same answer
    /// at every use, without trying again.
    Failed(StreamError),
}

/// The stream cache of one scan of a document.
#[derive(Debug)]
pub(crate) struct StreamCache {
    max_bytes: usize,
    inner: Mutex<Inner>,
    /// Content streams listed by more than one page, found on first need.
    shared_contents: OnceLock<HashSet<ObjectId>>,
}

#[derive(Debug, Default)]
struct Inner {
    slots: HashMap<ObjectId, Arc<OnceLock<Slot>>>,
    /// Bytes held by `Slot::Cached` entries.
    used: usize,
}

impl StreamCache {
    /// An empty cache holding at most `max_bytes` of decoded data.
    pub(crate) fn new(max_bytes: usize) -> Self {
        StreamCache {
            max_bytes,
            inner: Mutex::new(Inner::default()),
            shared_contents: OnceLock::new(),
        }
    }

    /// The slot of `id`, created empty on first request.
    fn slot(&self, id: ObjectId) -> Option<Arc<OnceLock<Slot>>> {
        let mut inner = self.inner.lock().ok()?;
        Some(Arc::clone(inner.slots.entry(id).or_default()))
    }

    /// Takes `len` bytes of the cache's room; false when they do not fit.
    fn reserve(&self, len: usize) -> bool {
        let Ok(mut inner) = self.inner.lock() else {
            return false;
        };
        match inner.used.checked_add(len) {
            Some(total) if total <= self.max_bytes => {
                inner.used = total;
                true
            }
            _ => false,
        }
    }
}

impl StreamCache {
    /// Content streams that more than one page lists.
    fn shared_contents(&self, doc: &Document) -> &HashSet<ObjectId> {
        self.shared_contents.get_or_init(|| {
            let mut seen = HashSet::new();
            let mut shared = HashSet::new();
            for page in &doc.pages {
                for (id, _) in doc.content_streams(page) {
                    if let Some(id) = id
                        && !seen.insert(id)
                    {
                        shared.insert(id);
                    }
                }
            }
            shared
        })
    }

    /// Decodes a stream, from the cache when it is there. A stream is charged
    /// to the document's inflate budget each time it is inflated: once when
    /// it is kept, at every use when it is not.
    pub(crate) fn decoded(
        &self,
        doc: &Document,
        id: Option<ObjectId>,
        stream: StreamObj<'_>,
        reuse: Reuse,
    ) -> Result<Decoded, StreamError> {
        let keep = match (id, reuse) {
            (Some(id), Reuse::Form) => Some(id),
            (Some(id), Reuse::PageContent) => self.shared_contents(doc).contains(&id).then_some(id),
            (None, _) => None,
        };
        let Some(slot) = keep.and_then(|id| self.slot(id)) else {
            return doc.stream_bytes(stream).map(Decoded::Owned);
        };
        // The thread that fills the slot keeps the bytes it decoded when they
        // do not fit; the others wait for it, then read the slot.
        let mut mine = None;
        let slot = slot.get_or_init(|| match doc.stream_bytes(stream) {
            Ok(data) if self.reserve(data.len()) => Slot::Cached(Arc::from(data)),
            Ok(data) => {
                mine = Some(data);
                Slot::Uncached
            }
            Err(e) => Slot::Failed(e),
        });
        if let Some(data) = mine {
            return Ok(Decoded::Owned(data));
        }
        match slot {
            Slot::Cached(data) => {
                // Reading a kept stream costs no inflating, but running it
                // does: the clock is checked as before each inflate.
                if let Some(limit) = doc.over_time() {
                    return Err(StreamError::DocumentLimit(limit));
                }
                Ok(Decoded::Shared(Arc::clone(data)))
            }
            Slot::Uncached => doc.stream_bytes(stream).map(Decoded::Owned),
            Slot::Failed(e) => Err(e.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LoadOptions;
    use crate::loader::tests::classic;

    /// A PDF of `pages` pages that all list one content stream (object 4)
    /// drawing Form XObject `/X` (object 5), each `len` bytes of spaces, and
    /// a last page with its own content stream (object 6).
    fn shared_pdf(pages: usize, len: usize) -> Vec<u8> {
        let stream = |dict: &str, body: &str| {
            format!("<< {dict} /Length {len} >>\nstream\n{body:<len$}\nendstream")
        };
        let kids: Vec<String> = (0..=pages).map(|k| format!("{} 0 R", k + 7)).collect();
        let mut objects = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            format!(
                "<< /Type /Pages /Kids [{}] /Count {} >>",
                kids.join(" "),
                kids.len()
            ),
            "null".to_string(),
            stream("", "/X Do "),
            stream("/Type /XObject /Subtype /Form", ""),
            stream("", "/X Do "),
        ];
        for k in 0..=pages {
            let contents = if k == pages { 6 } else { 4 };
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /Contents {contents} 0 R /Resources << /XObject << /X 5 0 R >> >> >>"
            ));
        }
        let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
        classic(&objects)
    }

    fn load(bytes: &[u8], cache: usize) -> Document {
        let o = LoadOptions {
            max_stream_cache_bytes: cache,
            ..LoadOptions::default()
        };
        Document::from_bytes(bytes, &o).unwrap()
    }

    fn inflated(doc: &Document) -> usize {
        doc.inflated.load(std::sync::atomic::Ordering::Relaxed)
    }

    #[test]
    fn shared_content_and_forms_are_inflated_once() {
        let doc = load(&shared_pdf(10, 1000), 1 << 20);
        let res = crate::resources::Resources::new(&doc);
        for page in 0..doc.page_count() {
            crate::content::interpret_page(&res, page).unwrap();
        }
        // The shared content stream and the form once each, the last page's
        // own content once.
        assert_eq!(inflated(&doc), 3 * 1000);
        let shared = res.streams.shared_contents(&doc);
        assert_eq!(shared.len(), 1);
        assert!(shared.contains(&(4, 0)));
    }

    #[test]
    fn without_room_every_use_is_inflated_and_charged() {
        let doc = load(&shared_pdf(10, 1000), 999);
        let res = crate::resources::Resources::new(&doc);
        for page in 0..doc.page_count() {
            crate::content::interpret_page(&res, page).unwrap();
        }
        // 11 pages, each running its content stream and the form.
        assert_eq!(inflated(&doc), 22 * 1000);
    }

    #[test]
    fn pages_in_parallel_share_one_decode() {
        let doc = load(&shared_pdf(64, 5000), 1 << 20);
        let scan = crate::Scanner::new().scan(&doc).unwrap();
        assert_eq!(scan.pages.len(), 65);
        assert_eq!(inflated(&doc), 3 * 5000);
    }

    #[test]
    fn the_cache_is_bounded() {
        let doc = load(&shared_pdf(3, 1000), 1500);
        let res = crate::resources::Resources::new(&doc);
        for page in 0..doc.page_count() {
            crate::content::interpret_page(&res, page).unwrap();
        }
        // The shared content stream is asked for first and kept; the form
        // does not fit beside it, so it is inflated on each of the 4 pages.
        assert_eq!(inflated(&doc), 1000 + 4 * 1000 + 1000);
        let used = res.streams.inner.lock().unwrap().used;
        assert_eq!(used, 1000);
    }
}
