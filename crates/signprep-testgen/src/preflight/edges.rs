//! `cases/` at the edges of a body: repeated keys, an encoding other than
//! UTF-8, and placed coordinates that make no sense (issue 32).

use serde_json::{Value, json};

use super::{json_bytes, requests, v0};
use crate::Error;

/// The clean v0 body's text with `old` (which must be there) replaced by `new`.
fn v0_text(old: &str, new: &str) -> Result<Vec<u8>, Error> {
    let text = String::from_utf8(json_bytes(&v0())).map_err(|e| Error::new(e.to_string()))?;
    if !text.contains(old) {
        return Err(Error::new(format!("{old:?} is not in the v0 body")));
    }
    Ok(text.replacen(old, new, 1).into_bytes())
}

/// `base` with the values at `pointer`s (each an object's key) set.
fn set(mut base: Value, changes: &[(&str, Value)]) -> Result<Vec<u8>, Error> {
    for (pointer, new) in changes {
        let (parent, key) = pointer
            .rsplit_once('/')
            .ok_or_else(|| Error::new(format!("bad pointer {pointer}")))?;
        base.pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .ok_or_else(|| Error::new(format!("no object at {parent}")))?
            .insert(key.to_string(), new.clone());
    }
    Ok(json_bytes(&base))
}

/// UTF-16LE with its byte order mark, as PowerShell 5's `>` writes.
fn utf16le(bytes: &[u8]) -> Result<Vec<u8>, Error> {
    let text = std::str::from_utf8(bytes).map_err(|e| Error::new(e.to_string()))?;
    let mut out = vec![0xFF, 0xFE];
    for unit in text.encode_utf16() {
        out.extend(unit.to_le_bytes());
    }
    Ok(out)
}

/// Every case, `(file name, bytes)`.
pub fn all() -> Result<Vec<(String, Vec<u8>)>, Error> {
    let field0 = "/requests/0/body/data_fields/0";
    let (x, y, width) = (
        format!("{field0}/x"),
        format!("{field0}/y"),
        format!("{field0}/width"),
    );
    let out: Vec<(&str, Vec<u8>)> = vec![
        // `email` twice, the first invalid: the parser keeps the second, so
        // no `email_invalid`; the repeat itself is the error.
        (
            "json_duplicate_key.json",
            v0_text(
                "      \"email\": \"ann@example.com\",\n",
                "      \"email\": \"ann@@example\",\n      \"email\": \"ann@example.com\",\n",
            )?,
        ),
        ("text_encoding.json", utf16le(&json_bytes(&v0()))?),
        (
            "data_field_position_invalid.json",
            set(v0(), &[("/data_fields/0/x", json!(-50))])?,
        ),
        (
            "data_field_position_invalid.null.json",
            set(requests(), &[(&x, Value::Null)])?,
        ),
        (
            "data_field_position_invalid.zero.json",
            set(requests(), &[(&width, json!(0))])?,
        ),
        (
            "data_field_off_page.json",
            set(requests(), &[(&y, json!(99_999_999))])?,
        ),
        (
            "data_field_off_page.right.json",
            set(
                requests(),
                &[(&x, json!(600)), (&y, json!(100)), (&width, json!(120))],
            )?,
        ),
    ];
    Ok(out.into_iter().map(|(n, b)| (n.to_string(), b)).collect())
}
