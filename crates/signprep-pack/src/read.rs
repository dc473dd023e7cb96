//! Lenient reading of bodies written elsewhere: keep everything, report findings.

use crate::codes::Finding;
use crate::error::Error;
use crate::model::UnknownKeys;
use crate::model::pack::LenientPack;
use crate::model::populate::PopulateBody;
use crate::model::v0::V0Document;

/// A value read leniently, with what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Read<T> {
    /// The value, unknown keys included.
    pub value: T,
    /// Findings, each located by a JSON pointer.
    pub findings: Vec<Finding>,
}

/// Reads a v1 pack body: any flag combination is accepted and reported (see
/// [`LenientPack::findings`]); convert with [`LenientPack::into_typed`].
///
/// ```
/// let body = r#"{"document_pack_name": "NDA", "documents": [{"document_name": "a",
///   "document_creation_settings": {"create_from_template_key": "T", "apply_extracted_fields": true}}]}"#;
/// let read = signprep_pack::read_pack(body)?;
/// assert_eq!(read.findings[0].code.as_str(), "template_with_apply_extracted_fields");
/// assert_eq!(read.findings[0].pointer.as_deref(),
///            Some("/documents/0/document_creation_settings/apply_extracted_fields"));
/// # Ok::<(), signprep_pack::Error>(())
/// ```
pub fn read_pack(json: &str) -> Result<Read<LenientPack>, Error> {
    let value: LenientPack = serde_json::from_str(json)?;
    let findings = value.findings();
    Ok(Read { value, findings })
}

/// Reads a v0 document body, reporting unknown keys.
pub fn read_v0_document(json: &str) -> Result<Read<V0Document>, Error> {
    let value: V0Document = serde_json::from_str(json)?;
    let findings = value.unknown_keys();
    Ok(Read { value, findings })
}

/// Reads a populate-syntax body (every value must be a string).
pub fn read_populate(json: &str) -> Result<Read<PopulateBody>, Error> {
    let value: PopulateBody = serde_json::from_str(json)?;
    Ok(Read {
        value,
        findings: Vec::new(),
    })
}
