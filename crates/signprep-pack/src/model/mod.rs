//! The service's request and response objects (serde), per the specification.
//!
//! Every object keeps the keys it does not know in `extra`, so that a body
//! written elsewhere survives a read and a write unchanged; [`UnknownKeys`]
//! reports them (they are probably typos). Optional fields are omitted when
//! unset; a field the specification types as "or null" is a [`Nullable`] and
//! keeps an explicit `null`.
//!
//! [`Nullable`]: crate::Nullable

pub(crate) mod pack;
pub(crate) mod plan;
pub(crate) mod populate;
pub(crate) mod settings;
pub(crate) mod v0;

use crate::codes::{Finding, PackCode, pointer};
use std::collections::BTreeMap;

/// Keys an object does not know, with their values, in key order.
pub type Extra = BTreeMap<String, serde_json::Value>;

/// Objects that can list the keys they did not recognise.
pub trait UnknownKeys {
    /// Appends an [`PackCode::UnknownKey`] finding for every unknown key, located
    /// under the JSON pointer `at`.
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>);

    /// Every unknown key, located from the root of this object.
    fn unknown_keys(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        self.unknown_keys_at("", &mut out);
        out
    }
}

impl<T: UnknownKeys> UnknownKeys for Option<T> {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        if let Some(v) = self {
            v.unknown_keys_at(at, out);
        }
    }
}

impl<T: UnknownKeys> UnknownKeys for Vec<T> {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        for (i, v) in self.iter().enumerate() {
            v.unknown_keys_at(&pointer(at, i), out);
        }
    }
}

/// Reports each key of `extra` as unknown to `object`, with the closest known
/// key as a hint.
pub(crate) fn report_extra(
    extra: &Extra,
    at: &str,
    object: &str,
    known: &[&str],
    out: &mut Vec<Finding>,
) {
    for key in extra.keys() {
        let mut f = Finding::new(
            PackCode::UnknownKey,
            format!("`{key}` is not a key of {object}; it is kept and sent as is"),
        )
        .at(pointer(at, key));
        if let Some(best) = closest(key, known) {
            f = f.hint(format!("did you mean `{best}`?"));
        }
        out.push(f);
    }
}

/// The known key nearest to `key` (edit distance at most a third of its length).
fn closest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let mut budget = usize::MAX;
    crate::suggest::closest(key, known.iter().copied(), &mut budget)
}
