//! Lenient reading of bodies written elsewhere: keep everything, report findings.

use crate::codes::Finding;
use crate::error::Error;
use crate::json_walk::duplicate_key_findings;
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
    let mut findings = duplicate_key_findings(json);
    findings.extend(value.findings());
    Ok(Read { value, findings })
}

/// Reads a v0 document body, reporting repeated and unknown keys.
pub fn read_v0_document(json: &str) -> Result<Read<V0Document>, Error> {
    let value: V0Document = serde_json::from_str(json)?;
    let mut findings = duplicate_key_findings(json);
    findings.extend(value.unknown_keys());
    Ok(Read { value, findings })
}

/// Reads a populate-syntax body (every value must be a string), reporting
/// repeated keys.
pub fn read_populate(json: &str) -> Result<Read<PopulateBody>, Error> {
    let value: PopulateBody = serde_json::from_str(json)?;
    Ok(Read {
        value,
        findings: duplicate_key_findings(json),
    })
}

/// Reads a PDF a body or a manifest names: a regular file (a device or a pipe
/// could be endless, or block) of at most `max` bytes, read no further than
/// that even if it grows meanwhile. The error is the core's, so its code is the
/// one `signprep scan` gives the same file (`io_error`, `pdf_limit_exceeded`).
pub(crate) fn read_file(path: &std::path::Path, max: u64) -> Result<Vec<u8>, signprep_core::Error> {
    use std::io::Read as _;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file").into(),
        );
    }
    let too_large = |len: u64| signprep_core::Error::file_too_large(len, max);
    if meta.len() > max {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    std::fs::File::open(path)?
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::read_file;
    use std::path::Path;

    #[test]
    fn only_bounded_regular_files_are_read() {
        let err = read_file(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(err.code(), "io_error");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.pdf");
        std::fs::write(&f, b"%PDF-1.7 0123456789").unwrap();
        assert_eq!(read_file(&f, 19).unwrap().len(), 19);
        let err = read_file(&f, 18).unwrap_err();
        assert_eq!(err.code(), "pdf_limit_exceeded");
        assert!(read_file(dir.path(), 100).is_err(), "a folder");
    }
}
