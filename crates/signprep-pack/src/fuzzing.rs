//! Entry points for fuzz targets (`fuzz/`) and regression tests: what
//! `signprep check` does with a request body or a manifest, on arbitrary
//! bytes. Not a stable API.
//!
//! Inputs are checked as if read from `testdata/check/cases/` of this
//! repository, so the relative paths the committed cases use
//! (`../pdfs/contract.pdf`) name real PDFs and the cross-checks with scanned
//! documents run too.

use crate::rules::{Checker, InputKind};
use signprep_core::LoadOptions;
use std::path::PathBuf;
use std::time::Duration;

/// The kinds a leading control byte (`0x00` to `0x07`) forces, in order:
/// bodies the detection would not classify still reach every typed reader.
const FORCED: [Option<InputKind>; 8] = [
    None,
    Some(InputKind::Pack),
    Some(InputKind::V0),
    Some(InputKind::Populate),
    Some(InputKind::Requests),
    Some(InputKind::Webhook),
    Some(InputKind::Subscription),
    Some(InputKind::Manifest),
];

/// The folder inputs are read from (it need not hold the file).
fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/check/cases")
}

/// A checker with production rules and the PDF limits of the core `document`
/// target (16 MiB per stream, 64 MiB per document, 5 s per body).
fn checker() -> Checker {
    let mut load = LoadOptions::default();
    load.max_stream_bytes = 16 << 20;
    load.max_document_bytes = 64 << 20;
    load.time_budget = Some(Duration::from_secs(5));
    Checker::new().load_options(load)
}

/// Checks `data` as `signprep check` checks a `.json` file: a v1 pack, a v0
/// body, a populate body, a request plan, a webhook or subscription body or a
/// JSON manifest, detected by its keys. A first byte `0x00`-`0x07` is removed
/// and forces a kind (see `FORCED`), as `--kind` does.
pub fn check_body(data: &[u8]) {
    let (kind, body) = match data.split_first() {
        Some((&b, rest)) if usize::from(b) < FORCED.len() => {
            (FORCED.get(usize::from(b)).copied().flatten(), rest)
        }
        _ => (None, data),
    };
    let path = cases_dir().join("fuzz.json");
    let _ = checker().check_bytes(body, &path, kind);
}

/// Checks `data` as `signprep check` checks a `.toml` manifest: parsed, built
/// into a pack (PDFs named by path or glob are read and scanned) and checked.
pub fn manifest(data: &[u8]) {
    let path = cases_dir().join("fuzz.toml");
    let _ = checker().check_bytes(data, &path, None);
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrappers_run_on_samples() {
        super::check_body(br#"{"document_pack_name": "P", "documents": []}"#);
        super::check_body(b"\x02{\"signatories\": [{}]}");
        super::check_body(b"\x07{\"name\": \"x\"}");
        super::check_body(b"");
        super::manifest(b"name = \"x\"\n[[documents]]\npath = \"../pdfs/contract.pdf\"\n");
        super::manifest(b"\xff");
    }
}
