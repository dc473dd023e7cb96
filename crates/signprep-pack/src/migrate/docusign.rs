//! DocuSign anchor files (`--anchors FILE`, `--anchor STRING=TYPE[:SIGNER]`):
//! a team's tabs, as its JSON holds them, into the core's [`Anchors`] and
//! the recipients who become signers.
//!
//! **JSON, as DocuSign writes it.** An envelope definition, a template (with
//! or without `envelopeTemplateDefinition`), a composite template, a
//! recipients object, a bare tabs object (what *EnvelopeRecipientTabs: list*
//! returns): any object is searched, at any depth. An object with a `tabs`
//! object is a recipient (`signers`, `carbonCopies`, `inPersonSigners`,
//! `witnesses`, `agents`, `editors`, `intermediaries`, `certifiedDeliveries`,
//! `notaries`, `seals`, a `templateRoles` entry, ...): its `recipientId`,
//! `roleName`, `name` and `email` (or `signerName`/`signerEmail`, for
//! in-person signers) become a signer, and its tab lists are read. Every key
//! ending in `Tabs` is a tab list; `radioGroupTabs` read their `radios`;
//! `prefillTabs` are the sender's. Values may be strings (DocuSign's own
//! form: `"anchorXOffset": "1"`, `"anchorIgnoreIfNotPresent": "true"`),
//! numbers or booleans. Keys may also be snake_case, as DocuSign's Python and
//! Ruby SDKs write a model out (`envelope_definition.to_dict()`:
//! `sign_here_tabs`, `anchor_string`, `anchor_x_offset`, `recipient_id`), and
//! a `null` value is a key left out (those SDKs write every unset attribute
//! as `null`). A tab without `anchorString` is placed by position,
//! which this reader does not do; it is counted ([`AnchorFile::positioned`]).
//!
//! **TOML, short.** For a quick file by hand:
//!
//! ```toml
//! [[recipients]]
//! id = "1"                 # recipientId
//! role = "Buyer"           # roleName
//! name = "Bea Buyer"
//! email = "bea@example.com"
//!
//! [[tabs]]
//! type = "signHere"        # a DocuSign tab list, with or without `Tabs`
//! anchor = "/sn1/"
//! recipient = "1"          # a recipient's id (or role)
//! x_offset = 0             # anchorXOffset
//! y_offset = -10           # anchorYOffset
//! units = "pixels"         # pixels, points, inches, mms, cms
//! case_sensitive = false
//! whole_word = false
//! ignore_if_not_present = false
//! align = "left"           # or "right" (anchorHorizontalAlignment)
//! # width, height, scale, label, required, locked, value, options
//! ```
//!
//! Every key but `type` and `anchor` is optional, with DocuSign's defaults.

use serde::Deserialize;
use serde_json::{Map, Value};
use signprep_core::{AnchorTab, AnchorUnits, Anchors, tab_list_name};
use std::path::{Path, PathBuf};

/// A recipient of the anchor file: who a tab's signer is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnchorRecipient {
    /// `recipientId`.
    pub id: Option<String>,
    /// `roleName`.
    pub role: Option<String>,
    /// `name`.
    pub name: Option<String>,
    /// `email`.
    pub email: Option<String>,
}

/// What an anchor file (or several, and `--anchor` arguments) holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnchorFile {
    /// The anchor tabs.
    pub anchors: Anchors,
    /// The recipients, in the order first met.
    pub recipients: Vec<AnchorRecipient>,
    /// Tabs placed by position (no `anchorString`), not read.
    pub positioned: usize,
}

/// An anchor file or argument that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnchorFileError {
    /// An `--anchor` argument is not `STRING=TYPE[:SIGNER]`.
    #[error(
        "`{0}` is not STRING=TYPE[:SIGNER] (TYPE a DocuSign tab type such as signHere, initialHere, dateSigned, text, fullName, checkbox)"
    )]
    Argument(String),
    /// The file could not be read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not JSON or TOML of the expected shape.
    #[error("{}: not a DocuSign anchor file ({reason})", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column where known.
        reason: String,
    },
    /// The file has no tab placed by an anchor string.
    #[error(
        "{}: no tab with an anchorString ({positioned} tab(s) placed by position, which signprep does not read)",
        path.display()
    )]
    NoAnchors {
        /// The file.
        path: PathBuf,
        /// Tabs placed by position.
        positioned: usize,
    },
}

impl AnchorFile {
    /// Nothing yet.
    pub fn new() -> AnchorFile {
        AnchorFile::default()
    }

    /// True when no tab was added.
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
    }

    /// Adds the tabs and recipients of one file (DocuSign JSON, or the short
    /// TOML form); `path` names it in errors and picks the format (`.json`,
    /// `.toml`, else by the first character).
    pub fn add_file(&mut self, path: &Path, bytes: &[u8]) -> Result<(), AnchorFileError> {
        let format = |reason: String| AnchorFileError::Format {
            path: path.to_path_buf(),
            reason,
        };
        let text = std::str::from_utf8(bytes).map_err(|e| format(crate::parse_error::utf8(&e)))?;
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let json = match ext.as_deref() {
            Some("json") => true,
            Some("toml") => false,
            _ => text.trim_start().starts_with(['{', '[']),
        };
        let mut one = AnchorFile::new();
        if json {
            let v: Value =
                serde_json::from_str(text).map_err(|e| format(crate::parse_error::json(&e)))?;
            one.walk(&sdk_keys(v), None);
        } else {
            let t: TomlFile =
                toml::from_str(text).map_err(|e| format(crate::parse_error::toml(&e, text)))?;
            one.add_toml(t);
        }
        if one.anchors.is_empty() {
            return Err(AnchorFileError::NoAnchors {
                path: path.to_path_buf(),
                positioned: one.positioned,
            });
        }
        self.merge(one);
        Ok(())
    }

    /// Adds one `--anchor STRING=TYPE[:SIGNER]` (`/sn1/=signHere:1`): SIGNER
    /// is a recipient id or role.
    pub fn add_arg(&mut self, arg: &str) -> Result<(), AnchorFileError> {
        let bad = || AnchorFileError::Argument(arg.to_string());
        let (anchor, rest) = arg.rsplit_once('=').ok_or_else(bad)?;
        let (ty, signer) = match rest.split_once(':') {
            Some((t, s)) => (t.trim(), Some(s.trim()).filter(|s| !s.is_empty())),
            None => (rest.trim(), None),
        };
        let list = tab_list_name(ty).ok_or_else(bad)?;
        if anchor.trim().is_empty() {
            return Err(bad());
        }
        let mut tab = AnchorTab::new(list, anchor);
        tab.recipient_id = signer.map(str::to_string);
        self.anchors.push(tab);
        Ok(())
    }

    fn merge(&mut self, other: AnchorFile) {
        for t in other.anchors.tabs() {
            self.anchors.push(t.clone());
        }
        for r in other.recipients {
            self.add_recipient(r);
        }
        self.positioned += other.positioned;
    }

    fn add_recipient(&mut self, r: AnchorRecipient) {
        let same = |a: &AnchorRecipient| match (&a.id, &r.id) {
            (Some(x), Some(y)) => x == y,
            (None, None) => a.role.is_some() && a.role == r.role,
            _ => false,
        };
        match self.recipients.iter_mut().find(|a| same(a)) {
            Some(a) => {
                a.role = a.role.take().or(r.role);
                a.name = a.name.take().or(r.name);
                a.email = a.email.take().or(r.email);
            }
            None => self.recipients.push(r),
        }
    }

    /// Searches any JSON value for recipients and tabs.
    fn walk(&mut self, v: &Value, ctx: Option<&AnchorRecipient>) {
        match v {
            Value::Array(items) => {
                for i in items {
                    self.walk(i, ctx);
                }
            }
            Value::Object(m) => {
                let recipient = recipient_of(m);
                if let Some(r) = &recipient {
                    self.add_recipient(r.clone());
                }
                let here = recipient.as_ref().or(ctx);
                for (k, val) in m {
                    if k == "tabs" {
                        if let Value::Object(t) = val {
                            self.read_tabs(t, here, false);
                        }
                    } else if is_tab_key(k) || k == "prefillTabs" {
                        // A bare tabs object: read its lists below, once.
                    } else if !matches!(k.as_str(), "documentBase64" | "pdfBytes") {
                        self.walk(val, here);
                    }
                }
                if m.keys().any(|k| is_tab_key(k) || k == "prefillTabs") {
                    self.read_tabs(m, here, false);
                }
            }
            _ => {}
        }
    }

    /// Reads the tab lists of a `tabs` object.
    fn read_tabs(
        &mut self,
        tabs: &Map<String, Value>,
        ctx: Option<&AnchorRecipient>,
        sender: bool,
    ) {
        for (key, list) in tabs {
            if key == "prefillTabs" {
                if let Value::Object(p) = list {
                    self.read_tabs(p, ctx, true);
                }
                continue;
            }
            if !is_tab_key(key) {
                continue;
            }
            let Value::Array(items) = list else { continue };
            for item in items {
                let Value::Object(t) = item else { continue };
                if key == "radioGroupTabs" {
                    self.read_radio_group(t, ctx, sender);
                } else {
                    self.read_tab(key, t, None, ctx, sender);
                }
            }
        }
    }

    fn read_radio_group(
        &mut self,
        group: &Map<String, Value>,
        ctx: Option<&AnchorRecipient>,
        sender: bool,
    ) {
        let Some(Value::Array(radios)) = group.get("radios") else {
            return;
        };
        let options: Vec<String> = radios
            .iter()
            .filter_map(|r| r.as_object().and_then(|o| text(o, "value")))
            .collect();
        for r in radios {
            if let Value::Object(o) = r {
                self.read_tab("radioGroupTabs", o, Some((group, &options)), ctx, sender);
            }
        }
    }

    /// One tab object of list `key`; `group` is its radio group.
    fn read_tab(
        &mut self,
        key: &str,
        t: &Map<String, Value>,
        group: Option<(&Map<String, Value>, &Vec<String>)>,
        ctx: Option<&AnchorRecipient>,
        sender: bool,
    ) {
        let Some(anchor) = t
            .get("anchorString")
            .or_else(|| group.and_then(|(g, _)| g.get("anchorString")))
            .and_then(scalar)
            .filter(|a| !a.trim().is_empty())
        else {
            self.positioned += 1;
            return;
        };
        // Anchor options of a radio are its own, else its group's.
        let get = |k: &str| t.get(k).or_else(|| group.and_then(|(g, _)| g.get(k)));
        let mut tab = AnchorTab::new(key, &anchor);
        let mut problems = Vec::new();
        let mut flag = |k: &str, default: bool| match get(k) {
            None => default,
            Some(v) => boolean(v).unwrap_or_else(|| {
                problems.push(format!("`{k}` is `{}`, not true or false", show(v)));
                default
            }),
        };
        tab.case_sensitive = flag("anchorCaseSensitive", false);
        tab.whole_word = flag("anchorMatchWholeWord", false);
        tab.ignore_if_not_present = flag("anchorIgnoreIfNotPresent", false);
        tab.read_only = flag("locked", false) || sender;
        let optional = flag("optional", false);
        tab.required = flag("required", tab.required && !optional);
        let mut number = |k: &str| {
            get(k).and_then(
                |v| match scalar(v).and_then(|s| s.trim().parse::<f64>().ok()) {
                    Some(n) if n.is_finite() => Some(n),
                    _ => {
                        problems.push(format!("`{k}` is `{}`, not a number", show(v)));
                        None
                    }
                },
            )
        };
        tab.x_offset = number("anchorXOffset").unwrap_or(0.0);
        tab.y_offset = number("anchorYOffset").unwrap_or(0.0);
        tab.width = number("width").filter(|w| *w > 0.0);
        tab.height = number("height").filter(|h| *h > 0.0);
        tab.scale = number("scaleValue").filter(|s| *s > 0.0);
        if let Some(u) = get("anchorUnits").and_then(scalar) {
            match AnchorUnits::parse(&u) {
                Some(units) => tab.units = units,
                None => problems.push(format!(
                    "`anchorUnits` is `{u}`, not pixels, points, inches, mms or cms; read as pixels"
                )),
            }
        }
        tab.align_right = get("anchorHorizontalAlignment")
            .and_then(scalar)
            .is_some_and(|a| a.trim().eq_ignore_ascii_case("right"));
        tab.recipient_id = text(t, "recipientId").or_else(|| ctx.and_then(|r| r.id.clone()));
        tab.role = ctx.and_then(|r| r.role.clone());
        tab.label = text(t, "tabLabel")
            .or_else(|| group.and_then(|(g, _)| text(g, "groupName")))
            .or_else(|| text(t, "name"));
        tab.value = text(t, "value");
        tab.sender = sender;
        if let Some((_, options)) = group {
            tab.options = options.clone();
        } else if let Some(Value::Array(items)) = t.get("listItems") {
            tab.options = items
                .iter()
                .filter_map(|i| {
                    i.as_object()
                        .and_then(|o| text(o, "value").or_else(|| text(o, "text")))
                })
                .collect();
        }
        tab.problems = problems;
        self.anchors.push(tab);
    }

    fn add_toml(&mut self, f: TomlFile) {
        for r in f.recipients {
            self.add_recipient(AnchorRecipient {
                id: r.id,
                role: r.role,
                name: r.name,
                email: r.email,
            });
        }
        for t in f.tabs {
            let mut tab = AnchorTab::new(&t.r#type, &t.anchor);
            tab.case_sensitive = t.case_sensitive;
            tab.whole_word = t.whole_word;
            tab.ignore_if_not_present = t.ignore_if_not_present;
            tab.align_right = t.align.eq_ignore_ascii_case("right");
            tab.x_offset = t.x_offset;
            tab.y_offset = t.y_offset;
            match AnchorUnits::parse(&t.units) {
                Some(u) => tab.units = u,
                None => tab.problems.push(format!(
                    "`units` is `{}`, not pixels, points, inches, mms or cms; read as pixels",
                    t.units
                )),
            }
            tab.width = t.width.filter(|w| *w > 0.0);
            tab.height = t.height.filter(|h| *h > 0.0);
            tab.scale = t.scale.filter(|s| *s > 0.0);
            if let Some(req) = t.required {
                tab.required = req;
            }
            tab.read_only = t.locked;
            tab.label = t.label;
            tab.value = t.value;
            tab.options = t.options;
            // The recipient, by id or role.
            if let Some(who) = t.recipient {
                let r = self
                    .recipients
                    .iter()
                    .find(|r| r.id.as_deref() == Some(&who) || r.role.as_deref() == Some(&who));
                tab.recipient_id = r.and_then(|r| r.id.clone()).or(Some(who.clone()));
                tab.role = r.and_then(|r| r.role.clone());
            }
            self.anchors.push(tab);
        }
    }
}

/// The short TOML form.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlFile {
    #[serde(default)]
    recipients: Vec<TomlRecipient>,
    #[serde(default)]
    tabs: Vec<TomlTab>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlRecipient {
    id: Option<String>,
    role: Option<String>,
    name: Option<String>,
    email: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlTab {
    r#type: String,
    anchor: String,
    recipient: Option<String>,
    #[serde(default)]
    x_offset: f64,
    #[serde(default)]
    y_offset: f64,
    #[serde(default)]
    units: String,
    #[serde(default)]
    case_sensitive: bool,
    #[serde(default)]
    whole_word: bool,
    #[serde(default)]
    ignore_if_not_present: bool,
    #[serde(default)]
    align: String,
    width: Option<f64>,
    height: Option<f64>,
    scale: Option<f64>,
    label: Option<String>,
    required: Option<bool>,
    #[serde(default)]
    locked: bool,
    value: Option<String>,
    #[serde(default)]
    options: Vec<String>,
}

/// The JSON with snake_case keys written as DocuSign's REST API writes them
/// (`anchor_x_offset` -> `anchorXOffset`) and `null` values left out. A key
/// present in both spellings keeps the API's.
fn sdk_keys(v: Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.into_iter().map(sdk_keys).collect()),
        Value::Object(m) => {
            let mut out = Map::new();
            let mut snake = Vec::new();
            for (k, val) in m {
                if val.is_null() {
                    continue;
                }
                let camel = camel_case(&k);
                if camel == k {
                    out.insert(k, sdk_keys(val));
                } else {
                    snake.push((camel, sdk_keys(val)));
                }
            }
            for (k, val) in snake {
                out.entry(k).or_insert(val);
            }
            Value::Object(out)
        }
        other => other,
    }
}

/// `anchor_x_offset` -> `anchorXOffset`; a key without an inner `_` as it is.
fn camel_case(k: &str) -> String {
    let trimmed = k.trim_matches('_');
    if !trimmed.contains('_') {
        return k.to_string();
    }
    let mut out = String::with_capacity(trimmed.len());
    for (i, part) in trimmed.split('_').filter(|p| !p.is_empty()).enumerate() {
        let mut chars = part.chars();
        match chars.next() {
            Some(c) if i > 0 => {
                out.extend(c.to_uppercase());
                out.push_str(chars.as_str());
            }
            Some(c) => {
                out.push(c);
                out.push_str(chars.as_str());
            }
            None => {}
        }
    }
    out
}

/// A key naming a tab list (`signHereTabs`, or any other `...Tabs`).
fn is_tab_key(k: &str) -> bool {
    k.len() > 4 && k.ends_with("Tabs") && k != "prefillTabs"
}

/// An object that is a recipient: it has tabs, or names a recipient.
fn recipient_of(m: &Map<String, Value>) -> Option<AnchorRecipient> {
    let has_tabs = matches!(m.get("tabs"), Some(Value::Object(_)));
    let id = text(m, "recipientId");
    let role = text(m, "roleName");
    if !has_tabs && id.is_none() && role.is_none() {
        return None;
    }
    Some(AnchorRecipient {
        id,
        role,
        name: text(m, "name").or_else(|| text(m, "signerName")),
        email: text(m, "email").or_else(|| text(m, "signerEmail")),
    })
}

/// A string, number or boolean as text.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A non-empty trimmed scalar of `m[k]`.
fn text(m: &Map<String, Value>, k: &str) -> Option<String> {
    m.get(k)
        .and_then(scalar)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// `true`/`false` as DocuSign writes them (strings, any case) or JSON booleans.
fn boolean(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.trim().eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.trim().eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

/// A value, short, for a message.
fn show(v: &Value) -> String {
    let s = scalar(v).unwrap_or_else(|| v.to_string());
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests;
