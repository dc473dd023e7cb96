//! Pre-flight: every rule of the specification over a request body, a manifest
//! or a PDF, and the cross-checks between a body and its PDFs (`signprep check`).
//!
//! ```
//! use signprep_pack::{Checker, InputKind};
//! use std::path::Path;
//!
//! let body = br#"{"client_id": "ID", "client_secret": "S",
//!                 "webhook": {"entity_key": "PACK", "callback": "http://localhost:3000/hook"}}"#;
//! let checked = Checker::new().check_bytes(body, Path::new("hook.json"), None);
//! assert_eq!(checked.kind, Some(InputKind::Webhook));
//! let codes: Vec<&str> = checked.findings.iter().map(|f| f.code.as_str()).collect();
//! assert_eq!(codes, ["callback_not_https", "callback_localhost"]);
//! assert_eq!(checked.findings[0].pointer.as_deref(), Some("/webhook/callback"));
//! ```
//!
//! The kind of an input is detected ([`detect`]) unless given: a PDF (by its
//! `%PDF-` header), a v1 pack, a v0 document body, a populate body, the
//! `{"requests": [...]}` that `signprep pack --v0`/`--populate` writes, a webhook
//! or subscription body, or a manifest (TOML, or JSON with `name`). Bodies are
//! read leniently: a forbidden flag combination is a finding, not a parse error.
//! Every finding has a stable [`PackCode`] (or a scan [`signprep_core::Code`] for
//! a PDF), a JSON pointer into the body and, for a PDF's findings, its file,
//! page and tag or field.

mod detect;
mod hooks;
mod json;
mod manifest;
mod pack;
mod pdf;
mod people;
mod placement;
mod populate;
mod secrets;
mod v0;
mod values;

use crate::codes::{Finding, PackCode};
use crate::error::Error;
use crate::ids::IdGenerator;
use crate::model::pack::DocumentPack;
use crate::model::v0::V0Document;
use crate::surface::Surface;
use serde::Serialize;
use signprep_core::{LoadOptions, Scanner};
use std::path::Path;

pub use detect::detect;
pub(crate) use values::email_ok;

/// What an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// A PDF file.
    Pdf,
    /// A v1 document pack body.
    Pack,
    /// A v0 document body (create, update or record).
    V0,
    /// A populate-syntax body (template copy).
    Populate,
    /// `{"requests": [...]}`, as `signprep pack --v0` or `--populate` writes.
    Requests,
    /// A v1 webhook body (`{"client_id", "client_secret", "webhook": {...}}`).
    Webhook,
    /// A v0 subscription body (`{"client_id", "client_secret", "subscription": {...}}`).
    Subscription,
    /// A manifest for `signprep pack` (TOML or JSON).
    Manifest,
}

impl InputKind {
    /// Every kind.
    pub const ALL: &'static [InputKind] = &[
        InputKind::Pdf,
        InputKind::Pack,
        InputKind::V0,
        InputKind::Populate,
        InputKind::Requests,
        InputKind::Webhook,
        InputKind::Subscription,
        InputKind::Manifest,
    ];

    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            InputKind::Pdf => "pdf",
            InputKind::Pack => "pack",
            InputKind::V0 => "v0",
            InputKind::Populate => "populate",
            InputKind::Requests => "requests",
            InputKind::Webhook => "webhook",
            InputKind::Subscription => "subscription",
            InputKind::Manifest => "manifest",
        }
    }

    /// One line on what it is (`signprep check --kind`'s help).
    pub fn summary(self) -> &'static str {
        match self {
            InputKind::Pdf => "A PDF",
            InputKind::Pack => "A v1 document pack body",
            InputKind::V0 => "A v0 document body",
            InputKind::Populate => "A populate-syntax body",
            InputKind::Requests => {
                "`{\"requests\": [...]}` from `signprep pack --v0` or `--populate`"
            }
            InputKind::Webhook => "A v1 webhook body",
            InputKind::Subscription => "A v0 subscription body",
            InputKind::Manifest => "A manifest for `signprep pack`",
        }
    }
}

impl std::str::FromStr for InputKind {
    type Err = UnknownKind;

    /// A kind by its snake_case name ([`InputKind::as_str`]).
    fn from_str(s: &str) -> Result<InputKind, UnknownKind> {
        InputKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

/// A name that is no [`InputKind`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a kind of input (pdf, pack, v0, populate, requests, webhook, subscription, manifest)"
)]
pub struct UnknownKind(pub String);

/// The result of checking one input.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The kind, as given or detected; `None` when it could not be told.
    pub kind: Option<InputKind>,
    /// Every finding, in the order found.
    pub findings: Vec<Finding>,
    /// The body (or the manifest) as JSON, to look the findings' pointers up in.
    pub source: Option<serde_json::Value>,
}

/// Runs the pre-flight rules. Holds the options: PDF limits, the payload limit
/// and template documents (`--template`), which let populate keys and template
/// children be checked against the template's fields.
#[derive(Clone, Debug)]
pub struct Checker {
    load: LoadOptions,
    scanner: Scanner,
    payload_limit: u64,
    templates: Vec<V0Document>,
    surface: Surface,
    converter: Option<std::sync::Arc<signprep_template::convert::LazyConverter>>,
}

impl Default for Checker {
    fn default() -> Self {
        Checker::new()
    }
}

impl Checker {
    /// The default payload limit: 10 MiB.
    pub const DEFAULT_PAYLOAD_LIMIT: u64 = 10 * 1024 * 1024;

    /// Default limits, no template.
    pub fn new() -> Self {
        Checker {
            load: LoadOptions::default(),
            scanner: Scanner::new(),
            payload_limit: Self::DEFAULT_PAYLOAD_LIMIT,
            templates: Vec::new(),
            surface: Surface::Cli,
            converter: None,
        }
    }

    /// LibreOffice, for a manifest's `.docx` and `.odt` children
    /// ([`PackBuilder::converter`](crate::PackBuilder::converter)).
    #[must_use]
    pub fn converter(
        mut self,
        converter: Option<std::sync::Arc<signprep_template::convert::LazyConverter>>,
    ) -> Self {
        self.converter = converter;
        self
    }

    /// The front end whose words hints use when they name an option (default:
    /// the command line's flags).
    #[must_use]
    pub fn surface(mut self, surface: Surface) -> Self {
        self.surface = surface;
        self
    }

    /// Bodies and PDFs larger than this many bytes get `payload_large`.
    #[must_use]
    pub fn payload_limit(mut self, bytes: u64) -> Self {
        self.payload_limit = bytes;
        self
    }

    /// A template document (its v0 JSON, see [`read_template`]): populate bodies
    /// and template children with its `key` (or any, when it is the only
    /// template and has no key) are checked against its fields and signers.
    #[must_use]
    pub fn template(mut self, template: V0Document) -> Self {
        self.templates.push(template);
        self
    }

    /// PDF loading limits.
    #[must_use]
    pub fn load_options(mut self, o: LoadOptions) -> Self {
        self.load = o;
        self
    }

    /// The scanner used on PDFs.
    #[must_use]
    pub fn scanner(mut self, s: Scanner) -> Self {
        self.scanner = s;
        self
    }

    /// Reads and checks a file. Fails only when the file cannot be read.
    pub fn check_file(&self, path: &Path, kind: Option<InputKind>) -> Result<Checked, Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(self.check_bytes(&bytes, path, kind))
    }

    /// A template converted and scanned (`signprep_template::scan_template`): `pdf`, the
    /// PDF it became, checked by every rule of a PDF; the template's own findings
    /// (`template_*`, from `scan`) first; a finding about a tag found in the template names
    /// its place there. The one merge `check`, `signprep serve` and Python make.
    pub fn check_converted(&self, pdf: &[u8], scan: &signprep_core::Scan, path: &Path) -> Checked {
        let shown = path.display().to_string();
        let mut checked = self.check_bytes(pdf, path, Some(InputKind::Pdf));
        for f in &mut checked.findings {
            if f.source.is_none()
                && let Some(tag) = &f.tag
            {
                let on_page = |p: usize| f.page.is_none_or(|q| q == p);
                f.source = scan
                    .tags
                    .iter()
                    .find(|t| &t.tag_id == tag && on_page(t.page))
                    .and_then(|t| t.source.clone())
                    .or_else(|| {
                        scan.vendor_tags
                            .iter()
                            .flatten()
                            .find(|t| &t.raw == tag && on_page(t.page))
                            .and_then(|t| t.source.clone())
                    });
            }
        }
        let mut findings: Vec<Finding> = scan
            .diagnostics
            .iter()
            .filter(|d| d.code.as_str().starts_with("template_"))
            .map(|d| Finding {
                pointer: None,
                ..Finding::from_scan(d, "", &shown)
            })
            .collect();
        findings.append(&mut checked.findings);
        checked.findings = findings;
        checked
    }

    /// Checks bytes read from `path` (used for the kind's detection, for the
    /// findings' file names and, for manifests and request plans, to resolve
    /// relative paths). `kind` overrides detection.
    pub fn check_bytes(&self, bytes: &[u8], path: &Path, kind: Option<InputKind>) -> Checked {
        let base = path.parent().unwrap_or(Path::new(""));
        let label = path.display().to_string();
        let mut ctx = Ctx::new(self, base, &label);
        let (kind, source) = detect::dispatch(&mut ctx, bytes, path, kind);
        if kind.is_none() && ctx.out.is_empty() {
            ctx.push(Finding::new(
                PackCode::KindUnknown,
                detect::unknown_why(bytes, path, self.surface),
            ));
        }
        Checked {
            kind,
            findings: ctx.out,
            source,
        }
    }

    /// Checks a manifest (TOML, or JSON when `path` ends in `.json` or the
    /// text starts with `{`) exactly as [`Checker::check_bytes`] does, the
    /// same findings located in the manifest, and returns the v1 pack it
    /// builds, with signer UUIDs from `ids`, when no finding is an error.
    /// `signprep check` and `signprep pack` both call this: a manifest
    /// `check` fails is never packed.
    ///
    /// ```
    /// use signprep_pack::{Checker, SeededIds};
    /// use std::path::Path;
    /// let toml = br#"
    ///     name = "NDA"
    ///     [[signers]]
    ///     handle = "bob"
    ///     email = "bob-at-acme"
    ///     [[documents]]
    ///     template = "TPL"
    /// "#;
    /// let (checked, pack) = Checker::new().check_manifest(toml, Path::new("pack.toml"), SeededIds::new(1));
    /// assert!(pack.is_none());
    /// let f = checked.findings.iter().find(|f| f.code.as_str() == "email_invalid").unwrap();
    /// assert_eq!(f.pointer.as_deref(), Some("/signers/0/email"));
    /// ```
    pub fn check_manifest(
        &self,
        bytes: &[u8],
        path: &Path,
        ids: impl IdGenerator + 'static,
    ) -> (Checked, Option<DocumentPack>) {
        let base = path.parent().unwrap_or(Path::new(""));
        let label = path.display().to_string();
        let mut ctx = Ctx::new(self, base, &label);
        let (source, pack) = manifest::check(
            &mut ctx,
            bytes,
            path,
            Box::new(ids),
            crate::manifest::Files::Disk(base),
        );
        let checked = Checked {
            kind: Some(InputKind::Manifest),
            findings: ctx.out,
            source,
        };
        (checked, pack)
    }

    /// [`Checker::check_manifest`] of a manifest whose PDFs are given in
    /// memory by name (an upload): its `path`s match the names (relative to
    /// `label`'s folder, as on disk); nothing is read from disk. `label`
    /// names the manifest in findings (a `.json` end or a text starting with
    /// `{` makes it JSON, else TOML).
    pub fn check_manifest_given(
        &self,
        bytes: &[u8],
        label: &str,
        given: &crate::manifest::Given,
        ids: impl IdGenerator + 'static,
    ) -> (Checked, Option<DocumentPack>) {
        let path = Path::new(label);
        let base = path.parent().unwrap_or(Path::new(""));
        let mut ctx = Ctx::new(self, base, label);
        let (source, pack) = manifest::check(
            &mut ctx,
            bytes,
            path,
            Box::new(ids),
            crate::manifest::Files::Given(base, given),
        );
        let checked = Checked {
            kind: Some(InputKind::Manifest),
            findings: ctx.out,
            source,
        };
        (checked, pack)
    }

    /// The template for a key; the only keyless template when no key matches.
    pub(crate) fn template_for(&self, key: Option<&str>) -> Option<&V0Document> {
        if let Some(k) = key
            && let Some(t) = self.templates.iter().find(|t| t.key.as_deref() == Some(k))
        {
            return Some(t);
        }
        match self.templates.as_slice() {
            [only] if only.key.is_none() || key.is_none() => Some(only),
            _ => None,
        }
    }
}

/// Reads a template document for [`Checker::template`]: its v0 JSON, bare or
/// in the `{"document": ...}` or `{"data": {"document": ...}}` envelope of a
/// `GET /v0/documents/{key}` response.
pub fn read_template(json: &str) -> Result<V0Document, Error> {
    let v: serde_json::Value = serde_json::from_str(json)?;
    let inner = v
        .pointer("/data/document")
        .or_else(|| v.get("document"))
        .unwrap_or(&v);
    Ok(serde_json::from_value(inner.clone())?)
}

/// What the rules of one input share: the options, where the input is, and the
/// findings so far.
pub(crate) struct Ctx<'a> {
    pub(crate) checker: &'a Checker,
    /// The folder of the input, for relative paths.
    pub(crate) base_dir: &'a Path,
    /// The input's path as shown.
    pub(crate) label: &'a str,
    pub(crate) out: Vec<Finding>,
    /// Work left for "did you mean" hints ([`suggest::BUDGET`](crate::suggest::BUDGET)).
    pub(crate) suggest_budget: usize,
    /// When checking began: the PDFs a body embeds or names share one time
    /// budget (`LoadOptions::time_budget`), so that many of them cannot add
    /// up to an endless check.
    pub(crate) started: std::time::Instant,
    /// PDFs already scanned with this checker's options (a manifest's, by its
    /// build), and their scans: the same bytes are not scanned again.
    pub(crate) scanned: &'a [(Vec<u8>, signprep_core::Scan)],
}

impl<'a> Ctx<'a> {
    fn new(checker: &'a Checker, base_dir: &'a Path, label: &'a str) -> Ctx<'a> {
        Ctx {
            checker,
            base_dir,
            label,
            out: Vec::new(),
            suggest_budget: crate::suggest::BUDGET,
            started: std::time::Instant::now(),
            scanned: &[],
        }
    }

    pub(crate) fn push(&mut self, f: Finding) {
        self.out.push(f);
    }

    /// `payload_large` when `size` is over the limit.
    pub(crate) fn payload(&mut self, size: u64, what: &str, pointer: Option<String>) {
        let limit = self.checker.payload_limit;
        if size > limit {
            let mut f = Finding::new(
                PackCode::PayloadLarge,
                format!(
                    "{what} is {} ({size} bytes), over the limit of {}",
                    human_size(size),
                    human_size(limit)
                ),
            )
            .hint("split the pack, or compress the PDFs (images are the usual culprit)");
            f.pointer = pointer;
            self.push(f);
        }
    }
}

/// The typed (lenient) body, or a `body_invalid` finding. Reading from the text
/// again on failure gives the line, column and pointer of the bad value.
fn typed<T: serde::de::DeserializeOwned>(
    ctx: &mut Ctx<'_>,
    text: &str,
    value: &serde_json::Value,
    what: &str,
) -> Option<T> {
    typed_in(ctx, text, (0, text.len()), value, "", what)
}

/// [`typed`] of the value at `at` (`span` in `text`): the finding is at the
/// bad value's pointer, with its line and column in `text`.
fn typed_in<T: serde::de::DeserializeOwned>(
    ctx: &mut Ctx<'_>,
    text: &str,
    span: (usize, usize),
    value: &serde_json::Value,
    at: &str,
    what: &str,
) -> Option<T> {
    match T::deserialize(value) {
        Ok(v) => Some(v),
        Err(e) => {
            let (msg, pointer) = json::type_error::<T>(text, span)
                .unwrap_or_else(|| (crate::parse_error::json(&e), None));
            let mut f = Finding::new(PackCode::BodyInvalid, format!("not {what}: {msg}"))
                .hint("the specification types this value differently; see `signprep schema`");
            f.pointer = pointer
                .filter(|p| !p.is_empty())
                .or_else(|| (!at.is_empty()).then(|| at.to_string()));
            ctx.push(f);
            None
        }
    }
}

fn human_size(n: u64) -> String {
    const KIB: u64 = 1024;
    if n >= KIB * KIB {
        format!("{:.1} MiB", n as f64 / (KIB * KIB) as f64)
    } else if n >= KIB {
        format!("{:.1} KiB", n as f64 / KIB as f64)
    } else {
        format!("{n} B")
    }
}

/// The section of `docs/src/reference/diagnostics.md` a code belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Group {
    /// Parsing and unknown keys.
    Body,
    /// Signers and CC recipients.
    Signers,
    /// Data fields.
    DataFields,
    /// Child documents and their PDFs.
    Children,
    /// Signing and mail settings.
    Settings,
    /// v0 document bodies and populate bodies.
    V0Populate,
    /// Webhooks and subscriptions.
    Hooks,
    /// Credentials.
    Credentials,
    /// Manifests (`signprep pack` and `signprep check`).
    Manifest,
    /// What `signprep pack --v0` and `--populate` leave out.
    PackOutput,
    /// `signprep migrate`: other vendors' tags converted to data fields.
    Migrate,
}

impl Group {
    /// Every group, in document order.
    pub const ALL: &'static [Group] = &[
        Group::Body,
        Group::Signers,
        Group::DataFields,
        Group::Children,
        Group::Settings,
        Group::V0Populate,
        Group::Hooks,
        Group::Credentials,
        Group::Manifest,
        Group::PackOutput,
        Group::Migrate,
    ];

    /// The section title.
    pub fn title(self) -> &'static str {
        match self {
            Group::Body => "Bodies",
            Group::Signers => "Signers",
            Group::DataFields => "Data fields",
            Group::Children => "Children",
            Group::Settings => "Settings and mail",
            Group::V0Populate => "v0 and populate",
            Group::Hooks => "Webhooks and subscriptions",
            Group::Credentials => "Credentials hygiene",
            Group::Manifest => "Manifests",
            Group::PackOutput => "`signprep pack --v0` and `--populate` output",
            Group::Migrate => "`signprep migrate`",
        }
    }

    /// The group of a pack code.
    pub fn of(code: PackCode) -> Group {
        use PackCode as C;
        match code {
            C::UnknownKey
            | C::BodyInvalid
            | C::JsonDuplicateKey
            | C::TextEncoding
            | C::KindUnknown
            | C::PayloadLarge => Group::Body,
            C::SignersMissing
            | C::SignerUuidInvalid
            | C::SignerUuidDuplicate
            | C::SignerHandleDuplicate
            | C::ChannelUnknown
            | C::SignerEmailMissing
            | C::EmailInvalid
            | C::MobileNotInternational
            | C::ChannelNeedsMobile
            | C::ChannelNeedsEnablement
            | C::SignerWithoutSignatureField
            | C::RoleMissingForTemplate => Group::Signers,
            C::DataFieldSignerUnknown
            | C::DataFieldCustomIdMissing
            | C::DataFieldDuplicate
            | C::DataFieldEmpty
            | C::CustomIdNotInDocument
            | C::FieldUnused
            | C::FieldPatternNeedsScan
            | C::DataForSignatureField
            | C::BackgroundColourInvalid
            | C::TagWithoutDataField
            | C::DataFieldTagIdInvalid
            | C::DataFieldPositionInvalid
            | C::DataFieldOffPage => Group::DataFields,
            C::TemplateWithApplyExtractedFields
            | C::SyntaxDocMissingExtractFlag
            | C::FormDocMissingFlags
            | C::DocumentSourceMissing
            | C::DocumentSourceAmbiguous
            | C::CreationFlagUnexpected
            | C::Base64Invalid
            | C::PackNameMissing
            | C::DocumentsMissing
            | C::DocumentKindUnknown
            | C::DocumentHasTagsAndFields
            | C::DocumentWithoutTags
            | C::DocumentWithoutFormFields
            | C::WorkspaceDefaultsWithoutTeam
            | C::WorkspaceDefaultsMixed => Group::Children,
            C::PostSigningUrlInvalid | C::ReplyEmailInvalid | C::TwoFactorWithoutContact => {
                Group::Settings
            }
            C::PopulateKeyUnknown
            | C::PopulateIndexGap
            | C::PopulateBodyEmpty
            | C::V0TagNotInPdf
            | C::RequestSignaturesWithoutEmail
            | C::SignatoryEmailMissing
            | C::UpdateFieldOutsideSetup
            | C::RequestUnknown => Group::V0Populate,
            C::CallbackNotHttps
            | C::CallbackLocalhost
            | C::EntityKeyMissing
            | C::CallbackMissing => Group::Hooks,
            C::SecretInBody => Group::Credentials,
            C::ManifestNoMatch
            | C::ManifestPathNormalised
            | C::PatternInvalid
            | C::ManifestDocumentSource
            | C::ManifestFieldId
            | C::ManifestTagTypeInvalid
            | C::ManifestKeyUnknown
            | C::ManifestInvalid
            | C::FormPartUnused => Group::Manifest,
            C::V0NeedsPdf | C::SettingDropped | C::PopulateSignerIgnored | C::PopulateIgnored => {
                Group::PackOutput
            }
            C::MigrateTypeUnmapped
            | C::MigrateFieldReadOnly
            | C::MigrateSignerDefaulted
            | C::MigrateSignerUnmapped
            | C::MigrateNoFields
            | C::MigrateSignerUnknown => Group::Migrate,
        }
    }
}
