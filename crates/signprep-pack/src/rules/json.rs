//! What every JSON input gets before its own rules: its encoding said, its
//! repeated keys found, and a type error located by line, column and pointer.

use super::Ctx;
use crate::codes::{Finding, PackCode};
use crate::json_walk::{self, Probe};
use crate::text::Encoding;

/// `text_encoding` for an input decoded from `encoding` (`what` names it).
pub(super) fn encoding(ctx: &mut Ctx<'_>, encoding: Option<Encoding>, what: &str) {
    if let Some(e) = encoding {
        ctx.push(
            Finding::new(
                PackCode::TextEncoding,
                format!("{what} is {}; it was decoded and checked as such", e.name()),
            )
            .hint("save it as UTF-8 without a byte order mark: the service (and any TOML reader) expects that"),
        );
    }
}

/// `json_duplicate_key` for every key `text` repeats in one object.
pub(super) fn duplicate_keys(ctx: &mut Ctx<'_>, text: &str) {
    ctx.out.extend(json_walk::duplicate_key_findings(text));
}

/// A type error in the value `whole[span]`, read as `T` from its text: the
/// error in our words with the line and column (in characters, in `whole`)
/// and the pointer (in `whole`) of the value it is about. `None` when the
/// text reads as `T` after all.
pub(super) fn type_error<T: serde::de::DeserializeOwned>(
    whole: &str,
    span: (usize, usize),
) -> Option<(String, Option<String>)> {
    let part = whole.get(span.0..span.1).filter(|p| !p.is_empty())?;
    let e = serde_json::from_str::<T>(part).err()?;
    let what = crate::parse_error::json_what(&e);
    if e.line() == 0 {
        return Some((what, None));
    }
    // serde_json points just past the value it is about; its line and
    // column are of the value's last character.
    let at = span.0 + json_walk::offset_of(part, e.line(), e.column())?;
    let last = at.saturating_sub(1);
    let (line, column) = json_walk::line_column(whole, last);
    let probe = Probe {
        at: Some(last),
        span_of: None,
    };
    let pointer = json_walk::walk(whole, probe).and_then(|w| w.innermost);
    Some((format!("line {line}, column {column}: {what}"), pointer))
}

/// The byte range of the value at `pointer` in `text`.
pub(super) fn span_of(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let probe = Probe {
        at: None,
        span_of: Some(pointer),
    };
    json_walk::walk(text, probe)?.span
}
