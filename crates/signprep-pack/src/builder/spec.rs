//! What goes into a [`PackBuilder`](super::PackBuilder): signers, fields, children.

use super::children::PdfKind;
use crate::model::pack::{Channel, PackSignatory};
use std::fmt;
use std::path::PathBuf;

/// A signer: a local handle (never sent) that fields refer to, and the
/// signatory's details.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignerSpec {
    pub(super) handle: String,
    pub(super) signatory: PackSignatory,
}

impl SignerSpec {
    /// A signer known locally as `handle`.
    pub fn new(handle: impl Into<String>) -> Self {
        SignerSpec {
            handle: handle.into(),
            signatory: PackSignatory::default(),
        }
    }

    /// Name, used in notifications.
    #[must_use]
    pub fn name(mut self, v: impl Into<String>) -> Self {
        self.signatory.name = Some(v.into());
        self
    }

    /// Email address.
    #[must_use]
    pub fn email(mut self, v: impl Into<String>) -> Self {
        self.signatory.email = Some(v.into());
        self
    }

    /// Mobile number, `+` then digits.
    #[must_use]
    pub fn mobile_number(mut self, v: impl Into<String>) -> Self {
        self.signatory.mobile_number = Some(v.into());
        self
    }

    /// Delivery channel.
    #[must_use]
    pub fn channel(mut self, v: Channel) -> Self {
        self.signatory.primary_communication_channel = Some(v);
        self
    }

    /// Template role.
    #[must_use]
    pub fn role(mut self, v: impl Into<String>) -> Self {
        self.signatory.role = Some(v.into());
        self
    }

    /// A fixed UUID (otherwise one is generated).
    #[must_use]
    pub fn uuid(mut self, v: impl Into<String>) -> Self {
        self.signatory.uuid = Some(v.into());
        self
    }

    /// The local handle.
    pub fn handle(&self) -> &str {
        &self.handle
    }
}

/// Which fields a [`FieldSpec`] applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum FieldId {
    Exact(String),
    Pattern(String),
}

/// A data field: a value and/or a signer for a `custom_id`, or for every tag id
/// or form-field name matching a glob pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    pub(super) id: FieldId,
    pub(super) data: Option<String>,
    pub(super) signer: Option<String>,
    pub(super) signer_uuid: Option<String>,
}

impl FieldSpec {
    /// The field with this `custom_id`.
    pub fn new(custom_id: impl Into<String>) -> Self {
        Self::of(FieldId::Exact(custom_id.into()))
    }

    /// Every tag id or form-field name of a scanned PDF matching the glob
    /// `pattern` (`*`, `?`, `[abc]`; a literal `[` as `[[]`), or spelled by it
    /// (`f1[0]` matches the name `f1[0]`).
    pub fn matching(pattern: impl Into<String>) -> Self {
        Self::of(FieldId::Pattern(pattern.into()))
    }

    fn of(id: FieldId) -> Self {
        FieldSpec {
            id,
            data: None,
            signer: None,
            signer_uuid: None,
        }
    }

    /// The value to populate.
    #[must_use]
    pub fn data(mut self, v: impl Into<String>) -> Self {
        self.data = Some(v.into());
        self
    }

    /// Assigned to the signer with this handle.
    #[must_use]
    pub fn signer(mut self, handle: impl Into<String>) -> Self {
        self.signer = Some(handle.into());
        self
    }

    /// Assigned to the signer with this UUID.
    #[must_use]
    pub fn signer_uuid(mut self, uuid: impl Into<String>) -> Self {
        self.signer_uuid = Some(uuid.into());
        self
    }
}

/// Where a child's document comes from.
#[derive(Clone, PartialEq, Eq)]
pub(super) enum ChildInput {
    Path(PathBuf),
    Bytes(Vec<u8>),
    /// Bytes standing for the file at this path (a manifest's PDF uploaded).
    Named(PathBuf, Vec<u8>),
    Template(String),
    Url(String),
}

impl fmt::Debug for ChildInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChildInput::Path(p) => f.debug_tuple("Path").field(p).finish(),
            ChildInput::Bytes(b) => write!(f, "Bytes({} bytes)", b.len()),
            ChildInput::Named(p, b) => write!(f, "Named({}, {} bytes)", p.display(), b.len()),
            ChildInput::Template(k) => f.debug_tuple("Template").field(k).finish(),
            ChildInput::Url(u) => f.debug_tuple("Url").field(u).finish(),
        }
    }
}

/// A child document to add.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildSpec {
    pub(super) name: Option<String>,
    pub(super) input: ChildInput,
    pub(super) kind: Option<PdfKind>,
    pub(super) fields: Vec<FieldSpec>,
    pub(super) workspace_defaults: Option<bool>,
}

impl ChildSpec {
    /// A PDF file, read and scanned at build time; named after the file stem.
    pub fn pdf(path: impl Into<PathBuf>) -> Self {
        Self::of(None, ChildInput::Path(path.into()))
    }

    /// A PDF in memory (moved in, not copied).
    pub fn pdf_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        Self::of(Some(name.into()), ChildInput::Bytes(bytes))
    }

    /// A PDF in memory standing for the file at `path` (a manifest's PDF
    /// given in an upload): named and reported as [`ChildSpec::pdf`] names
    /// and reports the file, read from `bytes` (moved in).
    pub fn pdf_at(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Self {
        Self::of(None, ChildInput::Named(path.into(), bytes))
    }

    /// A copy of the template with this key.
    pub fn template(name: impl Into<String>, key: impl Into<String>) -> Self {
        Self::of(Some(name.into()), ChildInput::Template(key.into()))
    }

    /// A form-field PDF the service fetches from a URL.
    pub fn url(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self::of(Some(name.into()), ChildInput::Url(url.into()))
    }

    fn of(name: Option<String>, input: ChildInput) -> Self {
        ChildSpec {
            name,
            input,
            kind: None,
            fields: Vec::new(),
            workspace_defaults: None,
        }
    }

    /// What to call this child in a message when it has no name.
    pub(super) fn label(&self) -> &str {
        match &self.input {
            ChildInput::Path(p) | ChildInput::Named(p, _) => p.to_str().unwrap_or("(path)"),
            ChildInput::Bytes(_) => "(bytes)",
            ChildInput::Template(k) => k,
            ChildInput::Url(u) => u,
        }
    }

    /// The document name.
    #[must_use]
    pub fn name(mut self, v: impl Into<String>) -> Self {
        self.name = Some(v.into());
        self
    }

    /// Overrides the kind detected from the scan of a PDF.
    #[must_use]
    pub fn kind(mut self, kind: PdfKind) -> Self {
        self.kind = Some(kind);
        self
    }

    /// Adds a data field.
    #[must_use]
    pub fn field(mut self, f: FieldSpec) -> Self {
        self.fields.push(f);
        self
    }

    /// Sets `use_workspace_default_document_settings` for this child.
    #[must_use]
    pub fn use_workspace_defaults(mut self, on: bool) -> Self {
        self.workspace_defaults = Some(on);
        self
    }
}
