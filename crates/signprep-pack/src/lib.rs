//! signprep-pack: the e-signature service's request bodies as types, a builder
//! that makes the right body easy to write, and the structural rules that catch
//! a wrong one before upload.
//!
//! ```
//! use signprep_pack::{ChildSpec, FieldSpec, PackBuilder, SeededIds, SignerSpec};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let built = PackBuilder::new("NDA 2025")
//!     .ids(SeededIds::new(42)) // reproducible signer UUIDs; random v4 by default
//!     .signer(SignerSpec::new("client").name("Ann Client").email("ann@example.com"))
//!     .document(
//!         // kind detected from the scan: tags, so a tag-syntax child
//!         ChildSpec::pdf("../../testdata/fixtures/base14_courier.pdf")
//!             .field(FieldSpec::matching("SIG_*").signer("client"))
//!             .field(FieldSpec::new("DATE_1").data("2025-01-31").signer("client")),
//!     )
//!     .document(ChildSpec::template("Schedule", "TEMPLATE_KEY"))
//!     .build()?; // every problem at once, or the body
//!
//! let json = serde_json::to_value(&built.output)?;
//! let child = &json["documents"][0];
//! assert_eq!(child["document_creation_settings"]["extract_fields_by_tag"], true);
//! assert_eq!(child["data_fields"][0]["custom_id"], "SIG_1");
//! assert_eq!(child["data_fields"][0]["signatory_uuid"], json["signatories"][0]["uuid"]);
//! // a template child never carries extraction flags
//! assert_eq!(
//!     json["documents"][1]["document_creation_settings"],
//!     serde_json::json!({"create_from_template_key": "TEMPLATE_KEY"})
//! );
//! # Ok(()) }
//! ```
//!
//! # What is here
//! - **Types** for the v1 pack ([`DocumentPack`] and its parts), the v0
//!   [`V0Document`] (with [`V0Signatory`], [`V0CcRecipient`], [`V0DataField`]) and
//!   the [`PopulateBody`]. Optional fields are omitted when unset; fields the
//!   specification types "or null" are [`Nullable`]. Unknown keys are kept in
//!   `extra` and reported by [`UnknownKeys`].
//! - [`CreationSettings`]: one variant per kind of child (template, tag-syntax,
//!   form-field), each serialising to exactly its flags. It cannot be built with
//!   a forbidden combination; [`read_pack`] reads any combination leniently and
//!   reports it ([`RawCreationSettings::check`]).
//! - [`PackBuilder`]: signers by handle (UUIDs generated, [`IdGenerator`]),
//!   children from PDFs (kind detected from a scan), templates or URLs, fields
//!   by `custom_id` or glob; [`PackBuilder::build`] returns the body or every
//!   finding ([`BuildError`]); also [`PackBuilder::build_v0`] and
//!   [`PackBuilder::build_populate`].
//! - [`Manifest`]: the TOML (or JSON) file `signprep pack` reads.
//! - [`Migrator`] ([`migrate`]): PDFs tagged for another vendor as v0 own-PDF
//!   requests with fields at explicit positions (`signprep migrate`).
//! - [`SchemaName`]: JSON Schemas of the pack, the manifest, the scan record and
//!   the v0 and populate outputs.
//! - [`Checker`]: pre-flight (`signprep check`): every rule over a body, a
//!   manifest or a PDF of any [`InputKind`] (detected by [`detect`]), with the
//!   cross-checks between a body and its PDFs; [`Group`] sorts the codes into
//!   the sections of `docs/src/reference/diagnostics.md`.
//!
//! Findings ([`Finding`]) have stable codes ([`PackCode`], or a scan
//! [`signprep_core::Code`] for a child's PDF) and a JSON pointer
//! (`/documents/1/data_fields/3/custom_id`).
//!
//! Memory: PDF children are read, scanned and Base64-encoded one at a time, so
//! building holds one PDF plus the pack (whose size is that of the output).
//!
//! Checking a body before it is sent:
//!
//! ```
//! use signprep_pack::{Checker, InputKind};
//! use std::path::Path;
//!
//! let body = br#"{"document_pack_name": "NDA", "documents": [],
//!                 "signatories": [{"name": "Ann", "email": "ann-at-example"}]}"#;
//! let checked = Checker::new().check_bytes(body, Path::new("pack.json"), None);
//! assert_eq!(checked.kind, Some(InputKind::Pack));
//! let f = checked.findings.iter().find(|f| f.code.as_str() == "email_invalid").unwrap();
//! assert_eq!(f.pointer.as_deref(), Some("/signatories/0/email"));
//! assert!(f.is_error());
//! ```
//!
//! # Features
//!
//! None of its own: the crate always builds the model, the builder, the
//! rules, the schemas and migration. It renders no page (previews are
//! signprep-render's, which it does not depend on).
//!
//! # Limitations
//!
//! - The rules check what a body says against the specification and against
//!   the PDFs it names or embeds; they cannot know the service's state
//!   (whether a template key, a team or a signer's account exists), so a body
//!   with no finding can still be refused by the service.
//! - Nothing is fetched over the network: a child the service fetches from a
//!   URL (`document_url`) is not read, so its form fields are not checked.
//! - Migration reads the text tags of the vendors that
//!   [`signprep_core::Dialect`] lists; fields another vendor keeps outside
//!   the PDF (in its own template) are not seen.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod builder;
mod codes;
mod datafields;
mod error;
#[doc(hidden)]
pub mod fuzzing;
mod ids;
mod json_walk;
mod manifest;
pub mod migrate;
mod model;
mod nullable;
pub mod parse_error;
mod read;
mod rules;
mod schema;
mod suggest;
mod surface;
mod text;
mod upload;

pub use builder::{BuildError, ChildSpec, FieldSpec, PackBuilder, PdfKind, SignerSpec, Warned};
pub use codes::{Finding, FindingCode, PackCode, PackPlace, pointer};
pub use datafields::{DataField, ScanRecord, TypeMap, TypeMapError, data_fields};
pub use error::Error;
pub use ids::{IdGenerator, RandomIds, SeededIds};
pub use manifest::{
    Files, Given, Manifest, ManifestCc, ManifestDocument, ManifestField, ManifestSigner, TagTypes,
};
pub use migrate::{
    AnchorFile, AnchorFileError, AnchorRecipient, MapTypeError, MigrateSummary, Migrated, Migrator,
    SignerMap,
};
pub use model::pack::{
    Channel, ChildDocument, DocumentPack, LenientPack, MailSettings, PackCcRecipient,
    PackDataField, PackSignatory, SigningSettings,
};
pub use model::plan::{Request, Requests};
pub use model::populate::{Party, PopulateBody, PopulateKey};
pub use model::settings::{
    Base64Error, Base64Pdf, ChildKind, CreationSettings, RawCreationSettings, SettingsError,
};
pub use model::v0::{V0CcRecipient, V0DataField, V0Document, V0Signatory};
pub use model::{Extra, UnknownKeys};
pub use nullable::Nullable;
pub use read::{Read, read_pack, read_populate, read_v0_document};
pub use rules::{Checked, Checker, Group, InputKind, UnknownKind, detect, read_template};
pub use schema::SchemaName;
pub use signprep_core;
pub use surface::Surface;
pub use upload::{resolve_upload, upload_path};
