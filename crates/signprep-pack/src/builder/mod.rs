//! [`PackBuilder`]: signers, children and fields in; a checked body out.

mod children;
mod other;
mod spec;

use crate::codes::{Finding, PackCode, pointer};
use crate::datafields::TypeMap;
use crate::ids::{IdGenerator, RandomIds};
use crate::model::pack::{
    Channel, ChildDocument, DocumentPack, MailSettings, PackCcRecipient, PackDataField,
    PackSignatory, SigningSettings,
};
use signprep_core::{LoadOptions, Scan, Scanner};
use signprep_template::convert::LazyConverter;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use uuid::Uuid;

pub use children::PdfKind;
use spec::{ChildInput, FieldId};
pub use spec::{ChildSpec, FieldSpec, SignerSpec};

/// An output with its warnings and infos (never an error: see [`BuildError`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Warned<T> {
    /// The output.
    pub output: T,
    /// Findings below error level.
    pub warnings: Vec<Finding>,
}

/// A build with at least one error-level finding. It carries every finding
/// (errors, warnings and infos), not only the first.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{} error(s) in the pack; first: {}", self.error_count(), self.first_error())]
pub struct BuildError {
    /// Every finding, in the order found.
    pub findings: Vec<Finding>,
}

impl BuildError {
    fn error_count(&self) -> usize {
        self.findings.iter().filter(|f| f.is_error()).count()
    }

    fn first_error(&self) -> String {
        self.findings
            .iter()
            .find(|f| f.is_error())
            .map(|f| f.to_string())
            .unwrap_or_default()
    }
}

fn finish<T>(output: T, findings: Vec<Finding>) -> Result<Warned<T>, BuildError> {
    if findings.iter().any(Finding::is_error) {
        Err(BuildError { findings })
    } else {
        Ok(Warned {
            output,
            warnings: findings,
        })
    }
}

/// Builds a v1 pack body (or a v0 create body, or a populate body) and checks
/// its structural rules.
///
/// ```
/// use signprep_pack::{ChildSpec, FieldSpec, PackBuilder, SeededIds, SignerSpec};
/// let pdf = std::fs::read("../../testdata/fixtures/base14_courier.pdf")?;
/// let built = PackBuilder::new("NDA")
///     .ids(SeededIds::new(1))
///     .signer(SignerSpec::new("ann").name("Ann").email("ann@example.com"))
///     .document(ChildSpec::pdf_bytes("NDA", pdf).field(FieldSpec::new("SIG_1").signer("ann")))
///     .build()?;
/// let pack = built.output;
/// let docs = pack.documents.unwrap_or_default();
/// assert_eq!(docs[0].document_creation_settings.kind(), signprep_pack::ChildKind::TagSyntax);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PackBuilder {
    pack: DocumentPack,
    signers: Vec<SignerSpec>,
    children: Vec<ChildSpec>,
    fields: Vec<FieldSpec>,
    workspace_defaults: Option<bool>,
    tag_types: TypeMap,
    auto_request: bool,
    ids: Box<dyn IdGenerator>,
    load: LoadOptions,
    scanner: Scanner,
    findings: Vec<Finding>,
    /// The PDFs read and their scans, kept when asked
    /// ([`PackBuilder::keep_scans`]); `None` when not.
    kept: Option<Vec<(Vec<u8>, Scan)>>,
    /// LibreOffice, for `.docx` and `.odt` children ([`PackBuilder::converter`]).
    converter: Option<Arc<LazyConverter>>,
}

/// What a build made, as `check` of a manifest needs it
/// ([`PackBuilder::build_indexed`]).
pub(crate) struct Indexed {
    /// The v1 pack as far as it could be built.
    pub(crate) pack: DocumentPack,
    /// Every finding, errors included.
    pub(crate) findings: Vec<Finding>,
    /// The place among the children given of each child in the pack
    /// (children left out have none).
    pub(crate) given: Vec<usize>,
    /// The PDFs the build read, with their scans, when
    /// [`PackBuilder::keep_scans`] asked for them: the pack rules that `check`
    /// runs on the built pack then do not scan them again.
    pub(crate) scans: Vec<(Vec<u8>, Scan)>,
}

impl PackBuilder {
    /// A pack named `name` (`document_pack_name`).
    pub fn new(name: impl Into<String>) -> Self {
        PackBuilder {
            pack: DocumentPack {
                key: None,
                document_pack_name: Some(name.into()),
                document_type: None,
                team_key: None,
                cc_recipients: None,
                signatories: None,
                mail_settings: None,
                documents: None,
                signing_settings: None,
                extra: BTreeMap::new(),
            },
            signers: Vec::new(),
            children: Vec::new(),
            fields: Vec::new(),
            workspace_defaults: None,
            tag_types: TypeMap::new(),
            auto_request: false,
            ids: Box::new(RandomIds),
            load: LoadOptions::default(),
            scanner: Scanner::new(),
            findings: Vec::new(),
            converter: None,
            kept: None,
        }
    }

    /// Generates signer UUIDs with `ids` (random v4 by default).
    #[must_use]
    pub fn ids(mut self, ids: impl IdGenerator + 'static) -> Self {
        self.ids = Box::new(ids);
        self
    }

    /// [`PackBuilder::ids`] with a boxed generator.
    #[must_use]
    pub(crate) fn ids_boxed(mut self, ids: Box<dyn IdGenerator>) -> Self {
        self.ids = ids;
        self
    }

    /// Adds a signer.
    #[must_use]
    pub fn signer(mut self, s: SignerSpec) -> Self {
        self.signers.push(s);
        self
    }

    /// Adds a CC recipient.
    #[must_use]
    pub fn cc(mut self, c: PackCcRecipient) -> Self {
        self.pack.cc_recipients.get_or_insert_with(Vec::new).push(c);
        self
    }

    /// Sets the workspace (`team_key`).
    #[must_use]
    pub fn team_key(mut self, key: impl Into<String>) -> Self {
        self.pack.team_key = Some(key.into());
        self
    }

    /// Sets `document_type` (`template` for a template pack).
    #[must_use]
    pub fn document_type(mut self, t: impl Into<String>) -> Self {
        self.pack.document_type = Some(t.into());
        self
    }

    /// Sets the mail settings.
    #[must_use]
    pub fn mail_settings(mut self, m: MailSettings) -> Self {
        self.pack.mail_settings = Some(m);
        self
    }

    /// Sets the signing settings.
    #[must_use]
    pub fn signing_settings(mut self, s: SigningSettings) -> Self {
        self.pack.signing_settings = Some(s);
        self
    }

    /// Adds a child document.
    #[must_use]
    pub fn document(mut self, c: ChildSpec) -> Self {
        self.children.push(c);
        self
    }

    /// Adds a pack-wide field: it goes into every scanned child whose tags or
    /// form fields include its `custom_id` (or match its pattern).
    #[must_use]
    pub fn field(mut self, f: FieldSpec) -> Self {
        self.fields.push(f);
        self
    }

    /// Sets `use_workspace_default_document_settings` on every child (a child's
    /// own setting wins, but the service does not let children differ).
    #[must_use]
    pub fn use_workspace_defaults(mut self, on: bool) -> Self {
        self.workspace_defaults = Some(on);
        self
    }

    /// Service field types of tags for the v0 body (see
    /// [`TypeMap`]; the default makes `SIG` tags signatures).
    #[must_use]
    pub fn tag_types(mut self, map: TypeMap) -> Self {
        self.tag_types = map;
        self
    }

    /// Adds `auto_request_signatures_when_ready=true` to v0 and populate requests.
    #[must_use]
    pub fn auto_request_signatures(mut self, on: bool) -> Self {
        self.auto_request = on;
        self
    }

    /// PDF loading limits.
    #[must_use]
    pub fn load_options(mut self, o: LoadOptions) -> Self {
        self.load = o;
        self
    }

    /// Convert `.docx` and `.odt` children with this LibreOffice: the child is the PDF it
    /// converts to (embedded as any PDF child), its findings carry their place in the
    /// template. Without one such a child is `convert_failed`.
    #[must_use]
    pub fn converter(mut self, converter: Option<Arc<LazyConverter>>) -> Self {
        self.converter = converter;
        self
    }

    /// The scanner used on PDF children.
    #[must_use]
    pub fn scanner(mut self, s: Scanner) -> Self {
        self.scanner = s;
        self
    }

    /// Keeps every PDF read and its scan, for [`PackBuilder::build_indexed`]
    /// to return.
    #[must_use]
    pub(crate) fn keep_scans(mut self) -> Self {
        self.kept = Some(Vec::new());
        self
    }

    /// Adds a finding found before the build (a manifest's), reported with the rest.
    pub(crate) fn push_finding(&mut self, f: Finding) {
        self.findings.push(f);
    }

    /// The v1 pack body, or every problem found.
    pub fn build(self) -> Result<Warned<DocumentPack>, BuildError> {
        let (pack, findings) = self.build_partial();
        finish(pack, findings)
    }

    /// The v1 pack body as far as it can be built, with every finding, errors
    /// included: for tools that show a flawed pack rather than refuse it
    /// (`signprep preview --manifest`). Never send it when a finding is an
    /// error. A child whose PDF cannot be read, or whose kind cannot be told,
    /// is left out (a finding says why), so `documents` may be shorter than
    /// the children given and the findings' `/documents/N` pointers count the
    /// children given.
    pub fn build_partial(self) -> (DocumentPack, Vec<Finding>) {
        let built = self.build_indexed();
        (built.pack, built.findings)
    }

    /// [`PackBuilder::build_partial`], with the place among the children given
    /// of each child in the pack and the PDFs read ([`Indexed`]).
    pub(crate) fn build_indexed(mut self) -> Indexed {
        let mut out = std::mem::take(&mut self.findings);
        if self
            .pack
            .document_pack_name
            .as_deref()
            .is_none_or(|n| n.trim().is_empty())
        {
            out.push(
                Finding::new(PackCode::PackNameMissing, "the pack has no name")
                    .at("/document_pack_name"),
            );
        }
        let signers = self.resolve_signers(&mut out);
        if self.children.is_empty() {
            out.push(
                Finding::new(PackCode::DocumentsMissing, "the pack has no document")
                    .at("/documents"),
            );
        }
        let patterns = Self::compile(&self.fields, None, &mut out);
        let mut used = self.invalid_patterns(&patterns);
        let mut docs = Vec::with_capacity(self.children.len());
        let mut given = Vec::with_capacity(self.children.len());
        let children = std::mem::take(&mut self.children);
        for (i, spec) in children.into_iter().enumerate() {
            if let Some(d) = self.child(i, spec, &signers, &patterns, &mut used, &mut out) {
                docs.push(d);
                given.push(i);
            }
        }
        self.report_unused(&used, &mut out);
        workspace_rules(&docs, self.pack.team_key.is_some(), &mut out);
        self.pack.signatories = Some(signers.signatories);
        self.pack.documents = Some(docs);
        Indexed {
            pack: self.pack,
            findings: out,
            given,
            scans: self.kept.unwrap_or_default(),
        }
    }

    fn resolve_signers(&mut self, out: &mut Vec<Finding>) -> Signers {
        let mut s = Signers::default();
        if self.signers.is_empty() {
            out.push(
                Finding::new(PackCode::SignersMissing, "the pack has no signer").at("/signatories"),
            );
        }
        for (i, spec) in self.signers.iter().enumerate() {
            let at = format!("/signatories/{i}");
            let mut sig = spec.signatory.clone();
            let uuid = match &sig.uuid {
                Some(u) => {
                    if Uuid::parse_str(u).is_err() {
                        out.push(
                            Finding::new(
                                PackCode::SignerUuidInvalid,
                                format!("`{u}` is not a UUID"),
                            )
                            .at(pointer(&at, "uuid")),
                        );
                    }
                    u.clone()
                }
                None => self.ids.next_uuid().to_string(),
            };
            if !s.uuids.insert(uuid.clone()) {
                out.push(
                    Finding::new(
                        PackCode::SignerUuidDuplicate,
                        format!("uuid `{uuid}` is used by an earlier signer too"),
                    )
                    .at(pointer(&at, "uuid")),
                );
            }
            if s.by_handle
                .insert(spec.handle.clone(), uuid.clone())
                .is_some()
            {
                out.push(
                    Finding::new(
                        PackCode::SignerHandleDuplicate,
                        format!("handle `{}` names two signers", spec.handle),
                    )
                    .at(at.clone()),
                );
            }
            if let Some(Channel::Other(c)) = &sig.primary_communication_channel {
                out.push(
                    Finding::new(
                        PackCode::ChannelUnknown,
                        format!("channel `{c}` is not one of email, sms, whatsapp"),
                    )
                    .at(pointer(&at, "primary_communication_channel")),
                );
            }
            sig.uuid = Some(uuid);
            s.signatories.push(sig);
        }
        s
    }

    /// `true` for the malformed pattern fields (already reported), so that they
    /// are not reported as unused too.
    fn invalid_patterns(&self, patterns: &children::Patterns) -> Vec<bool> {
        self.fields
            .iter()
            .zip(patterns)
            .map(|(f, c)| matches!(f.id, FieldId::Pattern(_)) && c.is_none())
            .collect()
    }

    fn report_unused(&self, used: &[bool], out: &mut Vec<Finding>) {
        for (f, u) in self.fields.iter().zip(used) {
            if !u {
                let what = match &f.id {
                    FieldId::Exact(id) => format!("pack-wide field `{id}`"),
                    FieldId::Pattern(p) => format!("field pattern `{p}`"),
                };
                out.push(Finding::new(
                    PackCode::FieldUnused,
                    format!("{what} matches no tag or form field of any scanned document"),
                ));
            }
        }
    }

    /// Resolves a field's signer to a UUID, reporting unknown ones.
    fn resolve_field(
        signers: &Signers,
        spec: &FieldSpec,
        custom_id: &str,
        at: &str,
        out: &mut Vec<Finding>,
    ) -> PackDataField {
        let mut uuid = None;
        if let Some(h) = &spec.signer {
            match signers.by_handle.get(h) {
                Some(u) => uuid = Some(u.clone()),
                None => out.push(
                    Finding::new(
                        PackCode::DataFieldSignerUnknown,
                        format!("field `{custom_id}` names signer `{h}`, which is not a signer of the pack"),
                    )
                    .at(pointer(at, "signatory_uuid"))
                    .hint(format!("signers: {}", signers.handles())),
                ),
            }
        }
        if let Some(u) = &spec.signer_uuid {
            if !signers.uuids.contains(u) {
                out.push(
                    Finding::new(
                        PackCode::DataFieldSignerUnknown,
                        format!(
                            "field `{custom_id}` names signatory uuid `{u}`, which no signer has"
                        ),
                    )
                    .at(pointer(at, "signatory_uuid")),
                );
            }
            uuid = Some(u.clone());
        }
        if custom_id.trim().is_empty() {
            out.push(
                Finding::new(
                    PackCode::DataFieldCustomIdMissing,
                    "a data field has an empty custom_id",
                )
                .at(pointer(at, "custom_id")),
            );
        }
        if spec.data.is_none() && spec.signer.is_none() && spec.signer_uuid.is_none() {
            out.push(
                Finding::new(
                    PackCode::DataFieldEmpty,
                    format!("field `{custom_id}` has neither data nor a signer"),
                )
                .at(at),
            );
        }
        PackDataField {
            custom_id: Some(custom_id.to_string()),
            data: spec.data.clone(),
            signatory_uuid: uuid,
            extra: BTreeMap::new(),
        }
    }
}

/// The resolved signers.
#[derive(Debug, Default)]
struct Signers {
    signatories: Vec<PackSignatory>,
    by_handle: BTreeMap<String, String>,
    uuids: BTreeSet<String>,
}

impl Signers {
    fn handles(&self) -> String {
        let v: Vec<&str> = self.by_handle.keys().map(String::as_str).collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(", ")
        }
    }
}

/// `use_workspace_default_document_settings`: needs a team, and cannot differ
/// between children.
fn workspace_rules(docs: &[ChildDocument], has_team: bool, out: &mut Vec<Finding>) {
    let values: Vec<bool> = docs
        .iter()
        .map(|d| d.document_creation_settings.workspace_defaults() == Some(true))
        .collect();
    if let Some(i) = values.iter().position(|v| *v) {
        let at = format!(
            "/documents/{i}/document_creation_settings/use_workspace_default_document_settings"
        );
        if !has_team {
            out.push(
                Finding::new(
                    PackCode::WorkspaceDefaultsWithoutTeam,
                    "workspace defaults are on but the pack has no team_key: the personal workspace's defaults apply",
                )
                .at(at.clone())
                .hint("set team_key"),
            );
        }
        if values.iter().any(|v| !v) {
            out.push(
                Finding::new(
                    PackCode::WorkspaceDefaultsMixed,
                    "some children use workspace defaults and some do not; a child cannot opt out individually",
                )
                .at(at),
            );
        }
    }
}
