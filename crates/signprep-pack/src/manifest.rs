//! The manifest: a pack described in TOML (or JSON) with signers by handle,
//! documents by path or glob, fields by custom_id or pattern, and tag types.

use crate::builder::{ChildSpec, FieldSpec, PackBuilder, PdfKind, SignerSpec};
use crate::codes::{Finding, PackCode, pointer};
use crate::datafields::TypeMap;
use crate::error::Error;
use crate::model::UnknownKeys;
use crate::model::pack::{Channel, MailSettings, PackCcRecipient, SigningSettings};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::json;
use std::borrow::Cow;
use std::fmt;
use std::path::Path;

/// A pack described for `signprep pack`. Paths are relative to the manifest's
/// folder. Unknown keys are rejected.
///
/// ```
/// let m = signprep_pack::Manifest::from_toml(r#"
///     name = "NDA"
///     [[signers]]
///     handle = "ann"
///     email = "ann@example.com"
///     [tag_types]
///     "DATE_*" = "text"
///     [[documents]]
///     path = "contracts/*.pdf"
///     [[fields]]
///     match = "SIG_*"
///     signer = "ann"
/// "#)?;
/// assert_eq!(m.signers[0].handle, "ann");
/// # Ok::<(), toml::de::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// `document_pack_name`.
    pub name: String,
    /// `document_type` (`template` for a template pack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_type: Option<String>,
    /// Workspace key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_key: Option<String>,
    /// `use_workspace_default_document_settings` on every child.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_workspace_defaults: Option<bool>,
    /// Adds `auto_request_signatures_when_ready=true` to v0 and populate requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_request_signatures: Option<bool>,
    /// Signers, in signing order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signers: Vec<ManifestSigner>,
    /// CC recipients.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cc: Vec<ManifestCc>,
    /// `mail_settings`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mail: Option<MailSettings>,
    /// `signing_settings`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signing: Option<SigningSettings>,
    /// Service field type per tag id or glob (`"SIG_*" = "signature"`), for the v0
    /// body; the last matching rule wins; `none` leaves the tag out.
    #[serde(default, skip_serializing_if = "TagTypes::is_empty")]
    pub tag_types: TagTypes,
    /// Pack-wide fields: each goes into every PDF child that has its tag or form field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<ManifestField>,
    /// Child documents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<ManifestDocument>,
}

/// A signer, named by a local handle that fields refer to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestSigner {
    /// Local name used by `signer = "..."` in fields; never sent.
    pub handle: String,
    /// Name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Mobile number, `+` then digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_number: Option<String>,
    /// `email`, `sms` or `whatsapp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    /// Template role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Fixed UUID; generated (random v4) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
}

/// A CC recipient.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestCc {
    /// Name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Mobile number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_number: Option<String>,
    /// Gets status mails and a tracking link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_track_progress: Option<bool>,
}

/// A field: exactly one of `custom_id` and `match`, with `data` and/or `signer`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestField {
    /// The field's custom_id (a tag id, a form-field name, a template field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_id: Option<String>,
    /// A glob over the tag ids and form-field names of the scanned PDFs (`*`, `?`,
    /// `[0-9]`; a literal `[` as `[[]`; a pattern that spells a whole name also matches it).
    #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Value to populate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Handle of the signer who completes the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer: Option<String>,
}

/// A document entry: exactly one of `path` (a file or a glob: one child per
/// file, sorted), `template` and `url`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestDocument {
    /// PDF path or glob, relative to the manifest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Template key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// URL of a form-field PDF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Document name; defaults to the file stem. Used only when one file matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Overrides the kind detected from the scan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<PdfKind>,
    /// Fields of this document (every child it gives).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<ManifestField>,
}

/// `[tag_types]`: `pattern = type` rules in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagTypes(pub Vec<(String, String)>);

impl TagTypes {
    /// No rules.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for TagTypes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for TagTypes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TagTypes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of `pattern = \"type\"`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TagTypes, A::Error> {
                let mut rules = Vec::new();
                while let Some(kv) = map.next_entry::<String, String>()? {
                    rules.push(kv);
                }
                Ok(TagTypes(rules))
            }
        }
        d.deserialize_map(V)
    }
}

impl JsonSchema for TagTypes {
    fn schema_name() -> Cow<'static, str> {
        "TagTypes".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        match json!({
            "description": "Tag id, or glob (`*`, `?`, `[0-9]`; a literal `[` as `[[]`), to service field type (lower-case letters, digits, `_`; `none` leaves the tag out). The last matching rule wins.",
            "type": "object",
            "additionalProperties": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
        }) {
            serde_json::Value::Object(m) => Schema::from(m),
            _ => Schema::default(),
        }
    }
}

impl Manifest {
    /// Parses TOML.
    pub fn from_toml(text: &str) -> Result<Manifest, toml::de::Error> {
        toml::from_str(text)
    }

    /// Parses JSON.
    pub fn from_json(text: &str) -> Result<Manifest, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Reads a manifest: JSON when the file ends in `.json` or starts with `{`,
    /// TOML otherwise.
    pub fn load(path: &Path) -> Result<Manifest, Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Manifest::from_bytes(&bytes, path)
    }

    /// Parses a manifest read from `path` (which tells JSON from TOML, with
    /// the text: JSON when the name ends in `.json` or the text starts with `{`).
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Manifest, Error> {
        // UTF-16 and UTF-32 with a byte order mark are read as `check` reads them.
        let (text, _) = crate::text::decode(bytes).map_err(|message| Error::ManifestToml {
            path: path.to_path_buf(),
            message,
        })?;
        let text = text.as_ref();
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
            || text.trim_start().starts_with('{');
        if json {
            Manifest::from_json(text).map_err(|source| Error::ManifestJson {
                path: path.to_path_buf(),
                source,
            })
        } else {
            Manifest::from_toml(text).map_err(|e| Error::ManifestToml {
                path: path.to_path_buf(),
                message: crate::parse_error::toml(&e, text),
            })
        }
    }

    /// A builder for this manifest: paths and globs resolved against `base_dir`
    /// (sorted), manifest problems carried as findings located in the manifest
    /// (`file` is `label`).
    pub fn builder(&self, base_dir: &Path, label: &str) -> PackBuilder {
        self.builder_in(Files::Disk(base_dir), label)
    }

    /// [`Manifest::builder`] with the documents' paths looked up in `files`:
    /// on disk, or among PDFs given in memory (an upload; nothing is read
    /// from disk then).
    pub fn builder_in(&self, files: Files<'_>, label: &str) -> PackBuilder {
        let mut findings = Vec::new();
        let mut b = PackBuilder::new(self.name.clone());
        if let Some(t) = &self.document_type {
            b = b.document_type(t.clone());
        }
        if let Some(t) = &self.team_key {
            b = b.team_key(t.clone());
        }
        if let Some(on) = self.use_workspace_defaults {
            b = b.use_workspace_defaults(on);
        }
        b = b.auto_request_signatures(self.auto_request_signatures == Some(true));
        for s in &self.signers {
            let mut spec = SignerSpec::new(s.handle.clone());
            spec = opt(spec, &s.name, SignerSpec::name);
            spec = opt(spec, &s.email, SignerSpec::email);
            spec = opt(spec, &s.mobile_number, SignerSpec::mobile_number);
            spec = opt(spec, &s.role, SignerSpec::role);
            spec = opt(spec, &s.uuid, SignerSpec::uuid);
            if let Some(c) = &s.channel {
                spec = spec.channel(c.clone());
            }
            b = b.signer(spec);
        }
        for c in &self.cc {
            b = b.cc(PackCcRecipient {
                email: c.email.clone(),
                mobile_number: c.mobile_number.clone(),
                name: c.name.clone(),
                can_track_progress: c.can_track_progress,
                extra: Default::default(),
            });
        }
        if let Some(m) = &self.mail {
            report_keys(m, "/mail", &mut findings);
            b = b.mail_settings(m.clone());
        }
        if let Some(s) = &self.signing {
            report_keys(s, "/signing", &mut findings);
            b = b.signing_settings(s.clone());
        }
        let mut map = TypeMap::new();
        for (p, t) in &self.tag_types.0 {
            if let Err(e) = map.add(&format!("{p}={t}")) {
                findings.push(
                    Finding::new(PackCode::ManifestTagTypeInvalid, e.to_string())
                        .at(pointer("/tag_types", p)),
                );
            }
        }
        b = b.tag_types(map);
        for (i, f) in self.fields.iter().enumerate() {
            if let Some(spec) = field_spec(f, &format!("/fields/{i}"), &mut findings) {
                b = b.field(spec);
            }
        }
        for (i, d) in self.documents.iter().enumerate() {
            for child in children(d, files, &format!("/documents/{i}"), &mut findings) {
                b = b.document(child);
            }
        }
        for mut f in findings {
            f.file = Some(label.to_string());
            b.push_finding(f);
        }
        b
    }
}

impl Manifest {
    /// True when a `path` of `[[documents]]` names a Word or OpenDocument template
    /// (`.docx`, `.odt`, a glob ending so included): building it needs LibreOffice
    /// ([`PackBuilder::converter`](crate::PackBuilder::converter)).
    pub fn names_templates(&self) -> bool {
        self.documents.iter().any(|d| {
            d.path.as_deref().is_some_and(|p| {
                let p = p.to_ascii_lowercase();
                p.ends_with(".docx") || p.ends_with(".odt")
            })
        })
    }

    /// The children a build makes, in order: for each, the index of its
    /// `[[documents]]` entry and, for a `path` entry, its file. Used to locate
    /// a finding about a child at the manifest entry that made it.
    pub(crate) fn children_of(&self, files: Files<'_>) -> Vec<(usize, Option<std::path::PathBuf>)> {
        let mut ignored = Vec::new();
        let mut out = Vec::new();
        for (k, d) in self.documents.iter().enumerate() {
            match (&d.path, &d.template, &d.url) {
                (Some(p), None, None) => {
                    out.extend(
                        expand(files, p, "", &mut ignored)
                            .into_iter()
                            .map(|f| (k, Some(f))),
                    );
                }
                (None, Some(_), None) | (None, None, Some(_)) => out.push((k, None)),
                _ => {}
            }
        }
        out
    }
}

fn opt(
    spec: SignerSpec,
    v: &Option<String>,
    set: fn(SignerSpec, String) -> SignerSpec,
) -> SignerSpec {
    match v {
        Some(v) => set(spec, v.clone()),
        None => spec,
    }
}

/// Manifests reject unknown keys; the settings tables reuse the lenient body
/// types, so their unknown keys are reported as errors here.
fn report_keys(v: &impl UnknownKeys, at: &str, out: &mut Vec<Finding>) {
    let mut found = Vec::new();
    v.unknown_keys_at(at, &mut found);
    out.extend(found.into_iter().map(|mut f| {
        f.code = crate::codes::FindingCode::Pack(PackCode::ManifestKeyUnknown);
        f.severity = PackCode::ManifestKeyUnknown.severity();
        f.message = f
            .message
            .replace("it is kept and sent as is", "manifests reject unknown keys");
        f
    }));
}

fn field_spec(f: &ManifestField, at: &str, out: &mut Vec<Finding>) -> Option<FieldSpec> {
    let mut spec = match (&f.custom_id, &f.pattern) {
        (Some(id), None) => FieldSpec::new(id.clone()),
        (None, Some(p)) => FieldSpec::matching(p.clone()),
        _ => {
            out.push(
                Finding::new(
                    PackCode::ManifestFieldId,
                    "a field needs exactly one of `custom_id` and `match`",
                )
                .at(at),
            );
            return None;
        }
    };
    if let Some(d) = &f.data {
        spec = spec.data(d.clone());
    }
    if let Some(s) = &f.signer {
        spec = spec.signer(s.clone());
    }
    Some(spec)
}

fn children(
    d: &ManifestDocument,
    files: Files<'_>,
    at: &str,
    out: &mut Vec<Finding>,
) -> Vec<ChildSpec> {
    let mut fields = Vec::new();
    for (j, f) in d.fields.iter().enumerate() {
        if let Some(spec) = field_spec(f, &format!("{at}/fields/{j}"), out) {
            fields.push(spec);
        }
    }
    let with = |mut c: ChildSpec| {
        for f in &fields {
            c = c.field(f.clone());
        }
        match d.kind {
            Some(k) => c.kind(k),
            None => c,
        }
    };
    match (&d.path, &d.template, &d.url) {
        (Some(p), None, None) => {
            let found = expand(files, p, &pointer(at, "path"), out);
            let single = found.len() == 1;
            found
                .into_iter()
                .map(|f| {
                    let c = match files {
                        Files::Disk(_) => ChildSpec::pdf(f),
                        Files::Given(base, given) => {
                            let name = f.strip_prefix(base).unwrap_or(&f);
                            let bytes = given
                                .get(name.to_string_lossy().as_ref())
                                .cloned()
                                .unwrap_or_default();
                            ChildSpec::pdf_at(f, bytes)
                        }
                    };
                    with(match (&d.name, single) {
                        (Some(n), true) => c.name(n.clone()),
                        _ => c,
                    })
                })
                .collect()
        }
        (None, Some(k), None) => {
            let name = d.name.clone().unwrap_or_else(|| k.clone());
            vec![with(ChildSpec::template(name, k.clone()))]
        }
        (None, None, Some(u)) => {
            let tail = u.trim_end_matches('/').rsplit('/').next().unwrap_or(u);
            let name = d.name.clone().unwrap_or_else(|| tail.to_string());
            vec![with(ChildSpec::url(name, u.clone()))]
        }
        _ => {
            out.push(
                Finding::new(
                    PackCode::ManifestDocumentSource,
                    "a document needs exactly one of `path`, `template`, `url`",
                )
                .at(at),
            );
            Vec::new()
        }
    }
}

/// PDFs given in memory by name (an upload), in place of the files a
/// manifest's `path`s name on disk.
pub type Given = std::collections::BTreeMap<String, Vec<u8>>;

/// Where a manifest's `path`s (and globs) are looked up.
#[derive(Clone, Copy, Debug)]
pub enum Files<'a> {
    /// On disk, relative to this folder (the manifest's).
    Disk(&'a Path),
    /// Among these PDFs, by name: a pattern matches a name as it matches a
    /// path relative to the manifest's folder (the path given first, which
    /// findings name, as on disk). Nothing is read from disk.
    Given(&'a Path, &'a Given),
}

/// The files a path or glob names (relative to the manifest's folder, or
/// among the PDFs given), sorted.
fn expand(
    files: Files<'_>,
    pattern: &str,
    at: &str,
    out: &mut Vec<Finding>,
) -> Vec<std::path::PathBuf> {
    let base = match files {
        Files::Disk(base) => base,
        Files::Given(base, given) => return expand_given(base, given, pattern, at, out),
    };
    let mut files = match glob_files(base, pattern, at, out) {
        Some(f) => f,
        None => return Vec::new(),
    };
    if files.is_empty()
        && let Some((form, found)) = other_forms(pattern).find_map(|(form, p)| {
            let found = glob_files(base, &p, at, &mut Vec::new())?;
            (!found.is_empty()).then_some((form, found))
        })
    {
        out.push(normalised(pattern, form, &found, at));
        files = found;
    }
    if files.is_empty() {
        out.push(
            Finding::new(
                PackCode::ManifestNoMatch,
                format!("`{pattern}` matches no file"),
            )
            .at(at),
        );
    }
    files
}

/// The regular files `pattern` (relative to `base`) matches, sorted; `None`
/// (with its finding) when it is no valid glob.
fn glob_files(
    base: &Path,
    pattern: &str,
    at: &str,
    out: &mut Vec<Finding>,
) -> Option<Vec<std::path::PathBuf>> {
    let full = if Path::new(pattern).is_absolute() {
        pattern.to_string()
    } else {
        let base = glob::Pattern::escape(&base.to_string_lossy());
        if base.is_empty() {
            pattern.to_string()
        } else {
            format!("{}/{pattern}", base.trim_end_matches('/'))
        }
    };
    let paths = match glob::glob(&full) {
        Ok(p) => p,
        Err(e) => {
            out.push(
                Finding::new(
                    PackCode::PatternInvalid,
                    format!("`{pattern}` {}", crate::datafields::pattern_problem(&e)),
                )
                .at(at),
            );
            return None;
        }
    };
    let mut files = Vec::new();
    for p in paths {
        match p {
            Ok(p) if p.is_file() => files.push(p),
            Ok(_) => {}
            Err(e) => out.push(
                Finding::file_error(
                    signprep_core::FileErrorCode::IoError,
                    format!(
                        "cannot read {}: {}",
                        e.path().display(),
                        signprep_core::io_reason(e.error())
                    ),
                )
                .at(at),
            ),
        }
    }
    files.sort();
    Some(files)
}

/// `pattern` in the Unicode normal forms it is not already in (NFC: `é` as
/// one code point; NFD: `e` and a combining accent), each with its name.
fn other_forms(pattern: &str) -> impl Iterator<Item = (&'static str, String)> + '_ {
    use unicode_normalization::UnicodeNormalization;
    [
        ("NFC", pattern.nfc().collect::<String>()),
        ("NFD", pattern.nfd().collect::<String>()),
    ]
    .into_iter()
    .filter(move |(_, p)| p != pattern)
}

/// `manifest_path_normalised`: `pattern` matched `found` only in Unicode
/// normal form `form`.
fn normalised(pattern: &str, form: &str, found: &[std::path::PathBuf], at: &str) -> Finding {
    let names: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
    Finding::new(
        PackCode::ManifestPathNormalised,
        format!(
            "`{pattern}` matches {} only with its accented letters written another way \
             (Unicode {form}): the manifest and the file name write them differently; used",
            names.join(", ")
        ),
    )
    .at(at)
    .hint("write the path as the file name is written, or rename the file, so that byte-exact tools find it too")
}

/// [`expand`] among PDFs given by name: `./` at the start of either is
/// ignored; `*` does not cross a `/`. The paths are the names under `base`
/// (the manifest's folder), as on disk.
fn expand_given(
    base: &Path,
    given: &Given,
    pattern: &str,
    at: &str,
    out: &mut Vec<Finding>,
) -> Vec<std::path::PathBuf> {
    let trimmed = pattern.trim_start_matches("./");
    let compiled = match glob::Pattern::new(trimmed) {
        Ok(p) => p,
        Err(e) => {
            out.push(
                Finding::new(
                    PackCode::PatternInvalid,
                    format!("`{pattern}` {}", crate::datafields::pattern_problem(&e)),
                )
                .at(at),
            );
            return Vec::new();
        }
    };
    let options = glob::MatchOptions {
        case_sensitive: true,
        require_literal_separator: true,
        require_literal_leading_dot: false,
    };
    let mut files: Vec<std::path::PathBuf> = given
        .keys()
        .filter(|name| compiled.matches_with(name.trim_start_matches("./"), options))
        .map(|name| base.join(name))
        .collect();
    if files.is_empty() {
        // Both in NFC: a name given in the other form matches.
        use unicode_normalization::UnicodeNormalization;
        let nfc = |s: &str| s.nfc().collect::<String>();
        let found: Vec<std::path::PathBuf> = glob::Pattern::new(&nfc(trimmed))
            .map(|p| {
                given
                    .keys()
                    .filter(|name| p.matches_with(&nfc(name.trim_start_matches("./")), options))
                    .map(|name| base.join(name))
                    .collect()
            })
            .unwrap_or_default();
        if !found.is_empty() {
            out.push(normalised(pattern, "NFC", &found, at));
            files = found;
        }
    }
    if files.is_empty() {
        let names: Vec<&str> = given.keys().map(String::as_str).collect();
        out.push(
            Finding::new(
                PackCode::ManifestNoMatch,
                format!("`{pattern}` matches no file"),
            )
            .at(at)
            .hint(if names.is_empty() {
                "no PDF was given with the manifest: add one for each path it names".to_string()
            } else {
                format!(
                    "the PDFs given with the manifest: {} (name each as the manifest's path)",
                    names.join(", ")
                )
            }),
        );
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(found: &[std::path::PathBuf]) -> Vec<String> {
        found.iter().map(|p| p.display().to_string()).collect()
    }

    #[test]
    fn paths_match_the_names_given_as_they_match_files() {
        let given: Given = ["../pdfs/a.pdf", "./b.pdf", "sub/c.pdf", "d.PDF"]
            .iter()
            .map(|n| (n.to_string(), Vec::new()))
            .collect();
        let base = Path::new("forms");
        let mut out = Vec::new();
        let mut at =
            |pattern: &str| names(&expand(Files::Given(base, &given), pattern, "/p", &mut out));
        assert_eq!(at("../pdfs/*.pdf"), ["forms/../pdfs/a.pdf"]);
        // `*` does not cross a `/`; `./` is ignored; case counts.
        assert_eq!(at("*.pdf"), ["forms/./b.pdf"]);
        assert_eq!(at("./b.pdf"), ["forms/./b.pdf"]);
        assert_eq!(at("sub/*.pdf"), ["forms/sub/c.pdf"]);
        assert_eq!(
            at("**/*.pdf"),
            ["forms/../pdfs/a.pdf", "forms/./b.pdf", "forms/sub/c.pdf"]
        );
        assert!(at("missing.pdf").is_empty());
        assert!(at("[").is_empty());
        let codes: Vec<_> = out.iter().map(|f| f.code.to_string()).collect();
        assert_eq!(codes, ["manifest_no_match", "pattern_invalid"]);
        assert_eq!(out[0].message, "`missing.pdf` matches no file");
        assert_eq!(
            out[0].hint.as_deref(),
            Some(
                "the PDFs given with the manifest: ../pdfs/a.pdf, ./b.pdf, d.PDF, sub/c.pdf (name each as the manifest's path)"
            )
        );
    }
}
