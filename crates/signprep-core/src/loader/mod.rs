//! Where a [`Document`](crate::Document)'s objects come from ([`Store`]):
//! lopdf's eager load of the whole file ([`eager`]), or a lazy store
//! ([`lazy`]) that reads the cross-reference data ([`xref`], indexed in
//! [`index`]) and parses an object only when it is asked for ([`parse`],
//! [`indirect`]; decrypted by [`crypt`]).
//!
//! The lazy store serves the same `lopdf::Object` values the eager load would
//! hold, so nothing downstream knows which store it reads. It is used only when
//! the file's cross-reference data reads cleanly (see [`xref`]), is not
//! encrypted or opens with the empty user password by a method [`crypt`] reads,
//! and every entry's offset points at its own `N G obj` header (or the table,
//! rebuilt by scanning ([`repair`]), describes the file); the document then
//! opens without parsing the structure tree, metadata, images or font programs
//! it never looks at. When one object cannot be parsed by the strict parser,
//! the store asks a full lopdf load of the same bytes, made once on first need,
//! so a damaged object reads as the eager load reads it.
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

mod crypt;
mod eager;
pub(crate) mod filters;
mod index;
mod indirect;
pub(crate) mod inflate;
mod lazy;
mod parse;
mod repair;
pub(crate) mod xref;

use crate::error::Error;
pub(crate) use eager::load_eager;
pub(crate) use index::{Place, check_user_password, holds_object};
pub(crate) use lazy::{Lazy, Refused};
use lopdf::{Dictionary, Object, ObjectId};
use std::fmt;

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
            Store::Lazy(lazy) => lazy.trailer(),
        }
    }

    /// Every object number with an entry, ascending, with its generation
    /// (for the scan of a file whose page tree gives no page).
    pub(crate) fn ids(&self) -> Vec<ObjectId> {
        match self {
            Store::Eager(doc) => doc.objects.keys().copied().collect(),
            Store::Lazy(lazy) => lazy.ids(),
        }
    }

    pub(crate) fn is_lazy(&self) -> bool {
        matches!(self, Store::Lazy(_))
    }

    /// True when the file is encrypted (the lazy store's decryptor, or the
    /// eager load's `/Encrypt`).
    pub(crate) fn encrypted(&self) -> bool {
        match self {
            Store::Lazy(lazy) => lazy.encrypted(),
            Store::Eager(doc) => doc.trailer.has(b"Encrypt") || doc.encryption_state.is_some(),
        }
    }

    /// The input as read, and where `%PDF-` starts in it, for a store that
    /// reads on demand (the eager load keeps no bytes).
    pub(crate) fn input(&self) -> Option<(&[u8], usize)> {
        match self {
            Store::Lazy(lazy) => Some(lazy.input()),
            Store::Eager(_) => None,
        }
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
        matches!(self, Store::Lazy(lazy) if lazy.repaired())
    }

    /// Where every object of a file read on demand is (see [`Lazy::table`]);
    /// `None` for the eager load, which keeps no offsets.
    pub(crate) fn table(&self) -> Option<Vec<(u32, Place)>> {
        match self {
            Store::Lazy(lazy) => lazy.table(),
            Store::Eager(_) => None,
        }
    }

    /// True when the lazy store looked for some objects by scanning the file:
    /// their entries led to no header of their own (see `index::read`).
    pub(crate) fn resolved(&self) -> bool {
        matches!(self, Store::Lazy(lazy) if lazy.resolved())
    }

    /// True when the document asked for one of those objects.
    pub(crate) fn resolved_used(&self) -> bool {
        matches!(self, Store::Lazy(lazy) if lazy.resolved_used())
    }

    pub(crate) fn used_eager_fallback(&self) -> bool {
        matches!(self, Store::Lazy(lazy) if lazy.used_eager_fallback())
    }

    /// A fatal error met while serving objects after the document was opened:
    /// a limit, or the eager load that a damaged object needed failing (the
    /// error the file would have given when opened eagerly).
    pub(crate) fn deferred_error(&self) -> Option<Error> {
        match self {
            Store::Eager(_) => None,
            Store::Lazy(lazy) => lazy.deferred_error(),
        }
    }

    /// Ends the opening phase: from now on an object the strict parser cannot
    /// read is read through the eager load.
    pub(crate) fn opened(&self) -> bool {
        match self {
            Store::Eager(_) => true,
            Store::Lazy(lazy) => lazy.opened(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
