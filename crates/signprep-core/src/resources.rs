//! What the scan of one document shares across its pages, above the document
//! layer: fonts read once by object id, and decoded streams kept for reuse
//! ([`crate::stream_cache`]). One [`Resources`] lives as long as one scan of a
//! document; the document itself only reads objects.

use crate::document::{Document, Obj, ObjectId, StreamError, StreamObj};
use crate::fonts::Font;
use crate::stream_cache::{Decoded, Reuse, StreamCache};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The caches of one scan of `doc`, shared by the threads scanning its pages.
pub(crate) struct Resources<'d> {
    doc: &'d Document,
    /// Fonts read so far, by object id.
    fonts: Mutex<HashMap<FontKey, Arc<Font>>>,
    fallback: OnceLock<Arc<Font>>,
    /// Decoded streams kept for reuse.
    pub(crate) streams: StreamCache,
}

impl std::fmt::Debug for Resources<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resources")
            .field("streams", &self.streams)
            .finish_non_exhaustive()
    }
}

/// How [`Resources::font`] caches a font: by object id, or for an inline
/// dictionary by the address of the object (stable: the document is not
/// modified while it is scanned).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum FontKey {
    Object(ObjectId),
    Inline(usize),
}

impl<'d> Resources<'d> {
    /// Empty caches for a scan of `doc`.
    pub(crate) fn new(doc: &'d Document) -> Self {
        Resources {
            doc,
            fonts: Mutex::new(HashMap::new()),
            fallback: OnceLock::new(),
            streams: StreamCache::new(doc.options.max_stream_cache_bytes),
        }
    }

    /// The document scanned.
    pub(crate) fn doc(&self) -> &'d Document {
        self.doc
    }

    /// The font a resource entry names, read once per scan.
    ///
    /// `entry` must be an object of this document (it is, when it comes from
    /// a resource dictionary): an inline font dictionary is cached by its
    /// address, so a content stream selecting it a million times loads it once.
    pub(crate) fn font(&self, entry: Obj<'_>) -> Arc<Font> {
        let key = match entry.as_reference() {
            Some(id) => FontKey::Object(id),
            None => FontKey::Inline(entry.addr()),
        };
        if let Ok(cache) = self.fonts.lock()
            && let Some(f) = cache.get(&key)
        {
            return Arc::clone(f);
        }
        let font = match self.doc.resolve(entry).and_then(Obj::as_dict) {
            Some(d) => Arc::new(Font::load(self.doc, d)),
            None => self.fallback_font(),
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

    /// [`Resources::fallback_font`], borrowed.
    pub(crate) fn fallback(&self) -> &Font {
        self.fallback.get_or_init(|| Arc::new(Font::fallback()))
    }

    /// A stream decoded, from the stream cache when it is there (see
    /// [`StreamCache::decoded`]).
    pub(crate) fn decoded_stream(
        &self,
        id: Option<ObjectId>,
        stream: StreamObj<'_>,
        reuse: Reuse,
    ) -> Result<Decoded, StreamError> {
        self.streams.decoded(self.doc, id, stream, reuse)
    }
}
