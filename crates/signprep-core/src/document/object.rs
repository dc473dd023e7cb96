//! A borrowed, read-only view of the document's objects: what the modules
//! above the document layer (fonts, the stream cache, resources, the content
//! interpreter, forms) read PDF objects through, so that lopdf's object model
//! stays in the document layer and the loader (ARCHITECTURE.md, "Layers").
//!
//! Each view is one reference wrapped (`Copy`, no cost over the reference);
//! references are followed by the [`Document`](super::Document) (bounded by
//! [`LoadOptions::max_reference_chain`](crate::LoadOptions::max_reference_chain)),
//! and streams are decoded by it, within its budgets.
#![allow(clippy::disallowed_types)] // the document layer: wraps lopdf objects

use lopdf::{Dictionary, Object, ObjectId, Stream};
use std::fmt;

/// One object (possibly a reference, which the document resolves).
#[derive(Clone, Copy)]
pub(crate) struct Obj<'a>(&'a Object);

/// A dictionary (a stream's, or a dictionary object).
#[derive(Clone, Copy)]
pub(crate) struct Dict<'a>(&'a Dictionary);

/// An array's items.
#[derive(Clone, Copy, Default)]
pub(crate) struct Array<'a>(&'a [Object]);

/// A stream: its dictionary, and data the document decodes
/// ([`Document::stream_bytes`](super::Document::stream_bytes)).
#[derive(Clone, Copy)]
pub(crate) struct StreamObj<'a>(&'a Stream);

impl fmt::Debug for Obj<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Debug for Dict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Debug for Array<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Debug for StreamObj<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamObj")
            .field("dict", &self.0.dict)
            .field("len", &self.0.content.len())
            .finish()
    }
}

impl<'a> Obj<'a> {
    /// The view of a lopdf object (document layer only).
    #[inline]
    pub(super) fn new(obj: &'a Object) -> Self {
        Obj(obj)
    }

    /// The lopdf object (document layer only).
    #[inline]
    pub(super) fn raw(self) -> &'a Object {
        self.0
    }

    /// A name's bytes (without the `/`).
    #[inline]
    pub(crate) fn as_name(self) -> Option<&'a [u8]> {
        match self.0 {
            Object::Name(n) => Some(n),
            _ => None,
        }
    }

    /// A number: an integer, or a finite real.
    #[inline]
    pub(crate) fn as_number(self) -> Option<f64> {
        super::number(self.0)
    }

    /// An integer (not a real).
    #[inline]
    pub(crate) fn as_i64(self) -> Option<i64> {
        match self.0 {
            Object::Integer(i) => Some(*i),
            _ => None,
        }
    }

    /// A real, as written (finite or not).
    #[inline]
    pub(crate) fn as_real(self) -> Option<f32> {
        match self.0 {
            Object::Real(r) => Some(*r),
            _ => None,
        }
    }

    /// A boolean.
    #[inline]
    pub(crate) fn as_bool(self) -> Option<bool> {
        match self.0 {
            Object::Boolean(b) => Some(*b),
            _ => None,
        }
    }

    /// A string's bytes (literal or hexadecimal, decoded).
    #[inline]
    pub(crate) fn as_string(self) -> Option<&'a [u8]> {
        match self.0 {
            Object::String(s, _) => Some(s),
            _ => None,
        }
    }

    /// An array.
    #[inline]
    pub(crate) fn as_array(self) -> Option<Array<'a>> {
        match self.0 {
            Object::Array(a) => Some(Array(a)),
            _ => None,
        }
    }

    /// A dictionary object (not a stream's dictionary).
    #[inline]
    pub(crate) fn as_dict(self) -> Option<Dict<'a>> {
        match self.0 {
            Object::Dictionary(d) => Some(Dict(d)),
            _ => None,
        }
    }

    /// A dictionary object, or a stream's dictionary.
    #[inline]
    pub(crate) fn as_dict_or_stream_dict(self) -> Option<Dict<'a>> {
        match self.0 {
            Object::Dictionary(d) => Some(Dict(d)),
            Object::Stream(s) => Some(Dict(&s.dict)),
            _ => None,
        }
    }

    /// A stream.
    #[inline]
    pub(crate) fn as_stream(self) -> Option<StreamObj<'a>> {
        match self.0 {
            Object::Stream(s) => Some(StreamObj(s)),
            _ => None,
        }
    }

    /// The id a reference points to.
    #[inline]
    pub(crate) fn as_reference(self) -> Option<ObjectId> {
        match self.0 {
            Object::Reference(id) => Some(*id),
            _ => None,
        }
    }

    /// True for `null`.
    #[inline]
    pub(crate) fn is_null(self) -> bool {
        matches!(self.0, Object::Null)
    }

    /// The object's address: an identity for caches, stable while the
    /// document is scanned (it is not modified then).
    #[inline]
    pub(crate) fn addr(self) -> usize {
        std::ptr::from_ref(self.0) as usize
    }
}

impl<'a> Dict<'a> {
    /// The view of a lopdf dictionary (document layer only).
    #[inline]
    pub(super) fn new(dict: &'a Dictionary) -> Self {
        Dict(dict)
    }

    /// The lopdf dictionary (document layer only).
    #[inline]
    pub(super) fn raw(self) -> &'a Dictionary {
        self.0
    }

    /// `self[key]`, as written (a reference is not followed; see
    /// [`Document::get`](super::Document::get)).
    #[inline]
    pub(crate) fn get(self, key: &[u8]) -> Option<Obj<'a>> {
        super::lookup(self.0, key).map(Obj)
    }

    /// True when `key` is present (whatever its value).
    #[inline]
    pub(crate) fn has(self, key: &[u8]) -> bool {
        super::lookup(self.0, key).is_some()
    }

    /// The keys, in the order written (without the `/`).
    pub(crate) fn keys(self) -> impl Iterator<Item = &'a [u8]> {
        self.0.iter().map(|(k, _)| k.as_slice())
    }
}

impl<'a> Array<'a> {
    /// The lopdf items (document layer only).
    #[inline]
    pub(super) fn raw(self) -> &'a [Object] {
        self.0
    }

    /// The number of items.
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.0.len()
    }

    /// True without items.
    #[inline]
    pub(crate) fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// Item `i`, as written.
    #[inline]
    pub(crate) fn get(self, i: usize) -> Option<Obj<'a>> {
        self.0.get(i).map(Obj)
    }

    /// The first item.
    #[inline]
    pub(crate) fn first(self) -> Option<Obj<'a>> {
        self.0.first().map(Obj)
    }

    /// The items, in order, as written.
    #[inline]
    pub(crate) fn iter(self) -> Items<'a> {
        Items(self.0.iter())
    }
}

impl<'a> IntoIterator for Array<'a> {
    type Item = Obj<'a>;
    type IntoIter = Items<'a>;

    #[inline]
    fn into_iter(self) -> Items<'a> {
        self.iter()
    }
}

/// The items of an [`Array`].
#[derive(Clone, Debug)]
pub(crate) struct Items<'a>(std::slice::Iter<'a, Object>);

impl<'a> Iterator for Items<'a> {
    type Item = Obj<'a>;

    #[inline]
    fn next(&mut self) -> Option<Obj<'a>> {
        self.0.next().map(Obj)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Items<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(Obj)
    }
}

impl ExactSizeIterator for Items<'_> {}

impl<'a> StreamObj<'a> {
    /// The view of a lopdf stream (document layer only).
    #[inline]
    pub(super) fn new(stream: &'a Stream) -> Self {
        StreamObj(stream)
    }

    /// The lopdf stream (document layer only).
    #[inline]
    pub(super) fn raw(self) -> &'a Stream {
        self.0
    }

    /// The stream's dictionary.
    #[inline]
    pub(crate) fn dict(self) -> Dict<'a> {
        Dict(&self.0.dict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn a_view_is_its_reference() {
        // One pointer each (two for an array's slice), and `None` costs nothing.
        assert_eq!(size_of::<Obj<'_>>(), size_of::<&Object>());
        assert_eq!(size_of::<Option<Obj<'_>>>(), size_of::<&Object>());
        assert_eq!(size_of::<Dict<'_>>(), size_of::<&Dictionary>());
        assert_eq!(size_of::<StreamObj<'_>>(), size_of::<&Stream>());
        assert_eq!(size_of::<Option<Array<'_>>>(), size_of::<&[Object]>());
    }

    #[test]
    fn accessors_read_what_is_written() {
        let items = [
            Object::Integer(7),
            Object::Real(1.5),
            Object::Real(f32::INFINITY),
            Object::Name(b"Fl".to_vec()),
            Object::Reference((3, 0)),
        ];
        let arr = Array(&items);
        let nums: Vec<Option<f64>> = arr.iter().map(Obj::as_number).collect();
        assert_eq!(nums, [Some(7.0), Some(1.5), None, None, None]);
        assert_eq!(arr.get(2).and_then(Obj::as_real), Some(f32::INFINITY));
        assert_eq!(arr.get(3).and_then(Obj::as_name), Some(&b"Fl"[..]));
        assert_eq!(arr.get(4).and_then(Obj::as_reference), Some((3, 0)));
        assert_eq!(arr.iter().rev().count(), 5);
        assert!(arr.get(5).is_none());
        let mut d = Dictionary::new();
        d.set("Type", Object::Name(b"Page".to_vec()));
        let dict = Dict(&d);
        assert!(dict.has(b"Type") && !dict.has(b"Kids"));
        assert_eq!(dict.get(b"Type").and_then(Obj::as_name), Some(&b"Page"[..]));
        let s = Object::Stream(Stream::new(d.clone(), Vec::new()));
        let s = Obj(&s);
        assert!(s.as_dict().is_none());
        assert!(s.as_dict_or_stream_dict().is_some_and(|d| d.has(b"Type")));
        assert!(s.as_stream().is_some_and(|st| st.dict().has(b"Type")));
    }
}
