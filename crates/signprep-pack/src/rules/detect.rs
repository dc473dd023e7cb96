//! What an input is, and handing it to its rules.

use super::{
    Ctx, InputKind, hooks, json, manifest, pack, pdf, placement, populate, secrets, typed, v0,
};
use crate::codes::{Finding, PackCode};
use crate::model::pack::LenientPack;
use crate::model::v0::V0Document;
use crate::surface::{Opt, Surface};
use serde_json::Value;
use std::path::Path;

/// The kind of an input, from its bytes and its file name: a PDF by its
/// `%PDF-` header (or a `.pdf` name), a manifest by a `.toml` name and a
/// manifest's top-level keys (a `Cargo.toml` is none), and JSON by its keys.
/// `None` when the bytes are none of these.
///
/// ```
/// use signprep_pack::{InputKind, detect};
/// use std::path::Path;
/// assert_eq!(detect(br#"{"signer_0_email": "a@example.com"}"#, Path::new("b.json")), Some(InputKind::Populate));
/// assert_eq!(detect(br#"{"document_pack_name": "P"}"#, Path::new("b.json")), Some(InputKind::Pack));
/// assert_eq!(detect(b"%PDF-1.7\n...", Path::new("x")), Some(InputKind::Pdf));
/// assert_eq!(detect(b"[1, 2]", Path::new("x.json")), None);
/// ```
pub fn detect(bytes: &[u8], path: &Path) -> Option<InputKind> {
    if let Some(k) = sniff(bytes, path) {
        return Some(k);
    }
    // UTF-16 and UTF-32 text with a byte order mark is told by its keys too.
    let (text, _) = crate::text::decode(bytes).ok()?;
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => classify(&v),
        Err(_) => toml_manifest(&text).then_some(InputKind::Manifest),
    }
}

/// True for TOML text that reads as a manifest (`name` and a manifest's
/// tables): how a manifest is told without a `.toml` name (standard input).
fn toml_manifest(text: &str) -> bool {
    toml::from_str::<Value>(text).is_ok_and(|v| classify(&v) == Some(InputKind::Manifest))
}

fn has_ext(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// A PDF or a TOML manifest, told without parsing.
fn sniff(bytes: &[u8], path: &Path) -> Option<InputKind> {
    // A text file (`.json`, `.toml`) may mention `%PDF-`; it is a PDF only
    // when it starts with the header.
    let text = has_ext(path, "json") || has_ext(path, "toml");
    let pdf = if text {
        bytes.trim_ascii_start().starts_with(b"%PDF-")
    } else {
        pdf::is_pdf(bytes)
    };
    if pdf || has_ext(path, "pdf") {
        Some(InputKind::Pdf)
    } else if has_ext(path, "toml") {
        toml_is_manifest(bytes).then_some(InputKind::Manifest)
    } else {
        None
    }
}

/// The top-level keys of a manifest ([`crate::Manifest`]'s fields; a test
/// keeps the two in step).
pub(crate) const MANIFEST_KEYS: &[&str] = &[
    "name",
    "document_type",
    "team_key",
    "use_workspace_defaults",
    "auto_request_signatures",
    "signers",
    "cc",
    "mail",
    "signing",
    "tag_types",
    "fields",
    "documents",
];

/// True for a `.toml` file to judge as a manifest: one with a manifest's
/// top-level key, or one that does not parse (a manifest with a syntax error
/// is reported, never skipped). A `Cargo.toml` or `pyproject.toml` parses and
/// has none of them.
fn toml_is_manifest(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return true;
    };
    match toml::from_str::<toml::Table>(text) {
        Ok(table) => table.keys().any(|k| MANIFEST_KEYS.contains(&k.as_str())),
        Err(_) => true,
    }
}

/// JSON with `//` and `/* */` comments and trailing commas (a `tsconfig.json`,
/// VS Code's settings) as plain JSON, or `None` when it has none of them or
/// still does not parse: a file that only reads this way is someone else's
/// configuration, not a body with a syntax error.
fn jsonc(text: &str) -> Option<Value> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    let mut changed = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                changed = true;
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push(c);
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                changed = true;
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            (',', _) => {
                // A comma before `}` or `]` (whitespace between) is dropped.
                let rest: String = chars.clone().collect();
                let next = rest.trim_start().chars().next();
                if matches!(next, Some('}' | ']')) {
                    changed = true;
                } else {
                    out.push(c);
                }
            }
            _ => out.push(c),
        }
    }
    if !changed {
        return None;
    }
    serde_json::from_str(&out).ok()
}

/// Why an input whose kind could not be told is skipped, for its
/// `kind_unknown` finding.
pub(super) fn unknown_why(bytes: &[u8], path: &Path, surface: Surface) -> String {
    let ask = format!(
        "name it with {} to check it as one",
        surface.name(Opt::Kind)
    );
    if bytes.trim_ascii().is_empty() {
        return "it is empty: nothing to check".into();
    }
    let keys = |v: &Value| -> String {
        let mut keys: Vec<&str> = v
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if keys.is_empty() {
            return "no key".into();
        }
        let more = keys.len().saturating_sub(6);
        keys.truncate(6);
        let mut s = format!("top-level keys {}", keys.join(", "));
        if more > 0 {
            s.push_str(&format!(" and {more} more"));
        }
        s
    };
    let decoded = crate::text::decode(bytes).ok();
    let text = decoded.as_ref().map(|(t, _)| t.as_ref());
    if has_ext(path, "toml")
        && let Some(t) = text.and_then(|t| toml::from_str::<Value>(t).ok())
    {
        return format!(
            "a TOML file that is not a manifest ({}; a manifest has `name`, `signers`, `documents`, ...): skipped; {ask}",
            keys(&t)
        );
    }
    let json = text.and_then(|t| serde_json::from_str::<Value>(t).ok().or_else(|| jsonc(t)));
    match json {
        Some(v) => format!(
            "a JSON file that is no request body, plan or manifest ({}): skipped; {ask}",
            keys(&v)
        ),
        None => format!("not a PDF, request body, plan or manifest: skipped; {ask}"),
    }
}

/// Keys of a v0 document that no other body has at its top level.
const V0_KEYS: &[&str] = &[
    "signatories",
    "data_fields",
    "document_name",
    "document_type",
    "cc_recipients",
    "sequential_signing",
    "use_two_factor_authentication",
    "post_signing_url",
    "document_appendices",
];

/// Every top-level key of a v0 document: a body with only these (`{"status":
/// "awaiting_signatures"}`, say) is one too.
const V0_ALL_KEYS: &[&str] = crate::model::v0::V0_DOCUMENT_KEYS;

/// The kind of a JSON body, by its keys.
fn classify(v: &Value) -> Option<InputKind> {
    let obj = v.as_object()?;
    let has = |k: &str| obj.contains_key(k);
    if obj.get("requests").is_some_and(Value::is_array) {
        return Some(InputKind::Requests);
    }
    if has("webhook") || has("webhook_key") {
        return Some(InputKind::Webhook);
    }
    if has("subscription") || has("subscriber_key") {
        return Some(InputKind::Subscription);
    }
    let pack_children = obj
        .get("documents")
        .and_then(Value::as_array)
        .is_some_and(|a| {
            a.iter()
                .any(|c| c.get("document_creation_settings").is_some())
        });
    if has("document_pack_name") || pack_children {
        return Some(InputKind::Pack);
    }
    if has("name")
        && [
            "signers",
            "documents",
            "fields",
            "tag_types",
            "cc",
            "mail",
            "signing",
        ]
        .iter()
        .any(|k| has(k))
    {
        return Some(InputKind::Manifest);
    }
    if has("entity_key") && has("callback") {
        return Some(InputKind::Webhook);
    }
    let only_v0_keys = !obj.is_empty() && obj.keys().all(|k| V0_ALL_KEYS.contains(&k.as_str()));
    if V0_KEYS.iter().any(|k| has(k)) || only_v0_keys {
        return Some(InputKind::V0);
    }
    // A flat object of strings is a populate body only with a signer or cc
    // key: `package.json` and other such files are not, and must not pass as
    // one that was checked clean (`--kind populate` says so for the rest).
    let party = obj.keys().any(|k| {
        !matches!(
            crate::model::populate::PopulateKey::parse(k),
            crate::model::populate::PopulateKey::Field(_)
        )
    });
    if party && obj.values().all(Value::is_string) {
        return Some(InputKind::Populate);
    }
    None
}

/// Detects (unless given) and checks; returns the kind and the source JSON.
pub(super) fn dispatch(
    ctx: &mut Ctx<'_>,
    bytes: &[u8],
    path: &Path,
    kind: Option<InputKind>,
) -> (Option<InputKind>, Option<Value>) {
    match kind.or_else(|| sniff(bytes, path)) {
        Some(InputKind::Pdf) => {
            ctx.payload(bytes.len() as u64, "the PDF", None);
            let file = ctx.label.to_string();
            let _ = pdf::load(ctx, bytes, None, Some(&file));
            return (Some(InputKind::Pdf), None);
        }
        Some(InputKind::Manifest) => {
            let (source, _) = manifest::check(
                ctx,
                bytes,
                path,
                check_ids(),
                crate::manifest::Files::Disk(ctx.base_dir),
            );
            return (Some(InputKind::Manifest), source);
        }
        _ => {}
    }
    let (text, encoding) = match crate::text::decode(bytes) {
        Ok(t) => t,
        Err(why) => {
            ctx.push(Finding::new(PackCode::BodyInvalid, why));
            return (kind, None);
        }
    };
    let text = text.as_ref();
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) if kind.is_none() && !has_ext(path, "json") && toml_manifest(text) => {
            let (source, _) = manifest::check(
                ctx,
                bytes,
                path,
                check_ids(),
                crate::manifest::Files::Disk(ctx.base_dir),
            );
            return (Some(InputKind::Manifest), source);
        }
        Err(e) => {
            // JSON with comments whose keys are no body's (a `tsconfig.json`)
            // is someone else's file: skipped as `kind_unknown`.
            let foreign = || jsonc(text).is_some_and(|v| classify(&v).is_none());
            if kind.is_some() || (has_ext(path, "json") && !foreign()) {
                ctx.push(
                    Finding::new(
                        PackCode::BodyInvalid,
                        format!("not valid JSON: {}", crate::parse_error::json(&e)),
                    )
                    .hint("check for a missing comma or quote at the line and column given"),
                );
            }
            return (kind, None);
        }
    };
    let Some(kind) = kind.or_else(|| classify(&value)) else {
        return (None, None);
    };
    // A manifest's own check says these, in the manifest's words.
    if kind != InputKind::Manifest {
        json::encoding(ctx, encoding, "the body");
        json::duplicate_keys(ctx, text);
    }
    match kind {
        InputKind::Pack => {
            ctx.payload(bytes.len() as u64, "the pack body", None);
            secrets::check(ctx, &value, "", "a pack body");
            if let Some(p) = typed::<LenientPack>(ctx, text, &value, "a v1 pack") {
                pack::check(ctx, &p);
            }
            secrets::drop_shadowed(&mut ctx.out);
        }
        InputKind::V0 => {
            ctx.payload(bytes.len() as u64, "the document body", None);
            secrets::check(ctx, &value, "", "a document body");
            if let Some(doc) = typed::<V0Document>(ctx, text, &value, "a v0 document") {
                let flow = v0::Flow::standalone(&doc);
                v0::check(ctx, &doc, "", &flow, None);
                placement::check(ctx, &value, "", None);
            }
            secrets::drop_shadowed(&mut ctx.out);
        }
        InputKind::Populate => {
            ctx.payload(bytes.len() as u64, "the populate body", None);
            secrets::check(ctx, &value, "", "a populate body");
            populate::check(ctx, &value, "", None, false);
        }
        InputKind::Requests => v0::check_plan(ctx, text, &value),
        InputKind::Webhook => hooks::check(ctx, &value, true),
        InputKind::Subscription => hooks::check(ctx, &value, false),
        // A JSON manifest, told by its keys.
        InputKind::Manifest => {
            let _ = manifest::check(
                ctx,
                bytes,
                path,
                check_ids(),
                crate::manifest::Files::Disk(ctx.base_dir),
            );
        }
        InputKind::Pdf => {}
    }
    (Some(kind), Some(value))
}

/// Signer UUIDs of a manifest's pack when only its findings are wanted.
fn check_ids() -> Box<dyn crate::ids::IdGenerator> {
    Box::new(crate::ids::SeededIds::new(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(json: &str) -> Option<InputKind> {
        detect(json.as_bytes(), Path::new("body.json"))
    }

    #[test]
    fn kinds_by_keys() {
        assert_eq!(kind(r#"{"requests": []}"#), Some(InputKind::Requests));
        assert_eq!(
            kind(r#"{"client_id": "a", "webhook": {}}"#),
            Some(InputKind::Webhook)
        );
        assert_eq!(
            kind(r#"{"subscription": {}}"#),
            Some(InputKind::Subscription)
        );
        assert_eq!(
            kind(r#"{"entity_key": "K", "callback": "https://x.org"}"#),
            Some(InputKind::Webhook)
        );
        assert_eq!(
            kind(r#"{"documents": [{"document_creation_settings": {}}]}"#),
            Some(InputKind::Pack)
        );
        assert_eq!(
            kind(r#"{"name": "P", "signers": []}"#),
            Some(InputKind::Manifest)
        );
        assert_eq!(kind(r#"{"status": "setup"}"#), Some(InputKind::V0));
        assert_eq!(
            kind(r#"{"status": "error", "description": "an expectation", "tags": []}"#),
            None
        );
        assert_eq!(
            detect(
                b"{\"description\": \"a %PDF-1.7 header\", \"tags\": []}",
                Path::new("x.json")
            ),
            None
        );
        assert_eq!(
            kind(r#"{"FEE": "100", "signer_1_email": "a@example.com"}"#),
            Some(InputKind::Populate)
        );
        // Strings alone (package.json) are no populate body: not checked clean.
        assert_eq!(kind(r#"{"FEE": "100"}"#), None);
        assert_eq!(kind(r#"{"name": "pkg", "version": "1.0.0"}"#), None);
        assert_eq!(kind(r#"{"FEE": 100}"#), None);
        assert_eq!(kind("{}"), None);
        assert_eq!(kind("not json"), None);
        assert_eq!(
            detect(b"name = 'x'", Path::new("m.toml")),
            Some(InputKind::Manifest)
        );
        // Standard input: a manifest told by its TOML keys.
        assert_eq!(
            detect(b"name = 'x'\n[[signers]]\nhandle = 'a'\n", Path::new("-")),
            Some(InputKind::Manifest)
        );
        assert_eq!(detect(b"title = 'x'\n", Path::new("-")), None);
    }
}
