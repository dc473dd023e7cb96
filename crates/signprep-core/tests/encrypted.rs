//! Encrypted files are read on demand, their objects decrypted as they are
//! parsed (`loader/crypt.rs`): every fixture with tags or fields, encrypted by
//! lopdf with each method it writes and an empty user password, scans exactly
//! as the plain fixture does, read lazily, and as lopdf's own eager decryption
//! reads it; with the `/Encrypt` dictionary in the trailer itself (MuPDF's way,
//! which lopdf's eager load does not read) too. A user password still refuses
//! the file.
//!
//! lopdf encrypts with random IVs and keys, so the files are made here at each
//! run instead of being committed (what is asserted does not depend on them).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use lopdf::encryption::crypt_filters::{
    Aes128CryptFilter, Aes256CryptFilter, CryptFilter, Rc4CryptFilter,
};
use lopdf::{EncryptionState, EncryptionVersion, Object, Permissions, StringFormat};
use signprep_core::{Document, LoadOptions, Scanner};

/// The fixtures with tags or form fields (strings and streams both matter).
const FIXTURES: &[&str] = &[
    "base14_courier",
    "form_choices",
    "form_names",
    "form_signature",
    "form_two_widgets",
    "form_xobject",
    "rotated_pages",
    "type0_identity_h",
    "type3_font",
];

fn scan(doc: Result<Document, signprep_core::Error>) -> String {
    match doc.and_then(|d| Scanner::new().scan(&d)) {
        Ok(scan) => serde_json::to_string(&scan).unwrap(),
        Err(e) => format!("error {}: {}", e.code(), e.message()),
    }
}

/// How to encrypt a document for a user password.
type Method<'a> = Box<dyn Fn(&lopdf::Document, &str) -> EncryptionState + 'a>;

/// Every encryption lopdf writes, with a name for messages.
fn methods(key: &[u8; 32]) -> Vec<(&'static str, Method<'_>)> {
    let filters = |f: Arc<dyn CryptFilter>| BTreeMap::from([(b"StdCF".to_vec(), f)]);
    vec![
        (
            "RC4 40-bit (V1, R2)",
            Box::new(|doc, user| {
                EncryptionState::try_from(EncryptionVersion::V1 {
                    document: doc,
                    owner_password: "owner",
                    user_password: user,
                    permissions: Permissions::PRINTABLE,
                })
                .unwrap()
            }),
        ),
        (
            "RC4 128-bit (V2, R3)",
            Box::new(|doc, user| {
                EncryptionState::try_from(EncryptionVersion::V2 {
                    document: doc,
                    owner_password: "owner",
                    user_password: user,
                    key_length: 128,
                    permissions: Permissions::PRINTABLE,
                })
                .unwrap()
            }),
        ),
        (
            "RC4 crypt filter (V4, R4)",
            Box::new(move |doc, user| {
                EncryptionState::try_from(EncryptionVersion::V4 {
                    document: doc,
                    encrypt_metadata: true,
                    crypt_filters: filters(Arc::new(Rc4CryptFilter)),
                    stream_filter: b"StdCF".to_vec(),
                    string_filter: b"StdCF".to_vec(),
                    owner_password: "owner",
                    user_password: user,
                    permissions: Permissions::PRINTABLE,
                })
                .unwrap()
            }),
        ),
        (
            "AES-128 (V4, R4), metadata in clear",
            Box::new(move |doc, user| {
                EncryptionState::try_from(EncryptionVersion::V4 {
                    document: doc,
                    encrypt_metadata: false,
                    crypt_filters: filters(Arc::new(Aes128CryptFilter)),
                    stream_filter: b"StdCF".to_vec(),
                    string_filter: b"StdCF".to_vec(),
                    owner_password: "owner",
                    user_password: user,
                    permissions: Permissions::PRINTABLE,
                })
                .unwrap()
            }),
        ),
        (
            "AES-256 (V5, R6)",
            Box::new(move |_, user| {
                EncryptionState::try_from(EncryptionVersion::V5 {
                    encrypt_metadata: true,
                    crypt_filters: filters(Arc::new(Aes256CryptFilter)),
                    file_encryption_key: key,
                    stream_filter: b"StdCF".to_vec(),
                    string_filter: b"StdCF".to_vec(),
                    owner_password: "owner",
                    user_password: user,
                    permissions: Permissions::PRINTABLE,
                })
                .unwrap()
            }),
        ),
        (
            "AES-256 (V5, R6), strings in clear",
            Box::new(move |_, user| {
                EncryptionState::try_from(EncryptionVersion::V5 {
                    encrypt_metadata: false,
                    crypt_filters: filters(Arc::new(Aes256CryptFilter)),
                    file_encryption_key: key,
                    stream_filter: b"StdCF".to_vec(),
                    string_filter: b"Identity".to_vec(),
                    owner_password: "owner",
                    user_password: user,
                    permissions: Permissions::PRINTABLE,
                })
                .unwrap()
            }),
        ),
    ]
}

/// `bytes` encrypted by `state` (the trailer gets an `/ID`: RC4 and AES-128
/// keys need one); with `direct`, the `/Encrypt` dictionary is written in the
/// trailer itself, as MuPDF writes it.
fn encrypt(
    bytes: &[u8],
    state: impl Fn(&lopdf::Document, &str) -> EncryptionState,
    user: &str,
    direct: bool,
) -> Vec<u8> {
    let mut doc = lopdf::Document::load_mem(bytes).unwrap();
    let id = Object::String(b"0123456789abcdef".to_vec(), StringFormat::Hexadecimal);
    doc.trailer.set("ID", Object::Array(vec![id.clone(), id]));
    let state = state(&doc, user);
    doc.encrypt(&state).unwrap();
    if direct {
        let r = doc.trailer.get(b"Encrypt").unwrap().as_reference().unwrap();
        let dict = doc.objects.remove(&r).unwrap();
        doc.trailer.set("Encrypt", dict);
    }
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

#[test]
fn encrypted_fixtures_scan_as_the_plain_ones_read_lazily() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures");
    let options = LoadOptions::default();
    let key: [u8; 32] = std::array::from_fn(|i| (i * 7 + 3) as u8);
    for name in FIXTURES {
        let plain = std::fs::read(dir.join(format!("{name}.pdf"))).unwrap();
        let want = scan(Document::from_bytes(&plain, &options));
        assert!(want.starts_with('{'), "{name}: {want}");
        for (method, state) in methods(&key) {
            let bytes = encrypt(&plain, &state, "", false);
            let doc = Document::from_bytes(&bytes, &options).unwrap();
            assert!(doc.is_lazy(), "{name}, {method}: not read on demand");
            assert!(!doc.used_eager_fallback(), "{name}, {method}");
            assert_eq!(scan(Ok(doc)), want, "{name}, {method}: lazy");
            let eager = scan(Document::from_bytes_eager(&bytes, &options));
            assert_eq!(eager, want, "{name}, {method}: eager");

            // lopdf 0.47's eager load does not read a direct /Encrypt (every
            // file PyMuPDF encrypts): the lazy store does.
            let direct = encrypt(&plain, &state, "", true);
            let doc = Document::from_bytes(&direct, &options).unwrap();
            assert!(
                doc.is_lazy(),
                "{name}, {method}, direct: not read on demand"
            );
            assert_eq!(scan(Ok(doc)), want, "{name}, {method}, direct");

            for direct in [false, true] {
                let locked = encrypt(&plain, &state, "secret", direct);
                let refused = scan(Document::from_bytes(&locked, &options));
                assert!(
                    refused.starts_with("error pdf_encrypted"),
                    "{name}, {method}: {refused}"
                );
            }
        }
    }
}
