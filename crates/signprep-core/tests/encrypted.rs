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
#![allow(clippy::disallowed_types)] // builds its inputs with lopdf

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use lopdf::encryption::crypt_filters::{
    Aes128CryptFilter, Aes256CryptFilter, CryptFilter, Rc4CryptFilter,
};
use lopdf::{EncryptionState, EncryptionVersion, Object, Permissions, StringFormat};
use signprep_core::{Document, LoadOptions, Scanner};
use signprep_testgen::encrypt::{self, Cipher, Encryption};

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

/// The crypt filter of a V4/V5 method.
#[derive(Clone, Copy)]
enum Filter {
    Rc4,
    Aes128,
    Aes256,
}

/// One encryption lopdf writes: `version` 1, 2 (128-bit RC4), 4 or 5; the
/// rest is for 4 and 5 (the string filter is `StdCF` or `Identity`).
struct Method {
    name: &'static str,
    version: u8,
    filter: Filter,
    encrypt_metadata: bool,
    strings: &'static [u8],
}

impl Method {
    const fn new(
        name: &'static str,
        version: u8,
        filter: Filter,
        encrypt_metadata: bool,
        strings: &'static [u8],
    ) -> Method {
        Method {
            name,
            version,
            filter,
            encrypt_metadata,
            strings,
        }
    }
}

#[rustfmt::skip]
const METHODS: &[Method] = &[
    Method::new("RC4 40-bit (V1, R2)", 1, Filter::Rc4, true, b"StdCF"),
    Method::new("RC4 128-bit (V2, R3)", 2, Filter::Rc4, true, b"StdCF"),
    Method::new("RC4 crypt filter (V4, R4)", 4, Filter::Rc4, true, b"StdCF"),
    Method::new("AES-128 (V4, R4), metadata in clear", 4, Filter::Aes128, false, b"StdCF"),
    Method::new("AES-256 (V5, R6)", 5, Filter::Aes256, true, b"StdCF"),
    Method::new("AES-256 (V5, R6), strings in clear", 5, Filter::Aes256, false, b"Identity"),
];

/// The state that encrypts `doc` by `m` for the user password `user`.
fn state(m: &Method, doc: &lopdf::Document, user: &str, key: &[u8; 32]) -> EncryptionState {
    let (owner_password, permissions) = ("owner", Permissions::PRINTABLE);
    let filter: Arc<dyn CryptFilter> = match m.filter {
        Filter::Rc4 => Arc::new(Rc4CryptFilter),
        Filter::Aes128 => Arc::new(Aes128CryptFilter),
        Filter::Aes256 => Arc::new(Aes256CryptFilter),
    };
    let crypt_filters = BTreeMap::from([(b"StdCF".to_vec(), filter)]);
    let version = match m.version {
        1 => EncryptionVersion::V1 {
            document: doc,
            owner_password,
            user_password: user,
            permissions,
        },
        2 => EncryptionVersion::V2 {
            document: doc,
            owner_password,
            user_password: user,
            key_length: 128,
            permissions,
        },
        4 => EncryptionVersion::V4 {
            document: doc,
            encrypt_metadata: m.encrypt_metadata,
            crypt_filters,
            stream_filter: b"StdCF".to_vec(),
            string_filter: m.strings.to_vec(),
            owner_password,
            user_password: user,
            permissions,
        },
        _ => EncryptionVersion::V5 {
            encrypt_metadata: m.encrypt_metadata,
            crypt_filters,
            file_encryption_key: key,
            stream_filter: b"StdCF".to_vec(),
            string_filter: m.strings.to_vec(),
            owner_password,
            user_password: user,
            permissions,
        },
    };
    EncryptionState::try_from(version).unwrap()
}

/// `bytes` encrypted by `m` (the trailer gets an `/ID`: RC4 and AES-128 keys
/// need one); with `direct`, the `/Encrypt` dictionary is written in the
/// trailer itself, as MuPDF writes it.
fn encrypt(bytes: &[u8], m: &Method, user: &str, direct: bool) -> Vec<u8> {
    let mut doc = lopdf::Document::load_mem(bytes).unwrap();
    let id = Object::String(b"0123456789abcdef".to_vec(), StringFormat::Hexadecimal);
    doc.trailer.set("ID", Object::Array(vec![id.clone(), id]));
    let key: [u8; 32] = std::array::from_fn(|i| (i * 7 + 3) as u8);
    let state = state(m, &doc, user, &key);
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
    for name in FIXTURES {
        let plain = std::fs::read(dir.join(format!("{name}.pdf"))).unwrap();
        let want = scan(Document::from_bytes(&plain, &options));
        assert!(want.starts_with('{'), "{name}: {want}");
        for m in METHODS {
            let method = m.name;
            let bytes = encrypt(&plain, m, "", false);
            let doc = Document::from_bytes(&bytes, &options).unwrap();
            assert!(doc.is_lazy(), "{name}, {method}: not read on demand");
            assert!(!doc.used_eager_fallback(), "{name}, {method}");
            assert_eq!(scan(Ok(doc)), want, "{name}, {method}: lazy");
            let eager = scan(Document::from_bytes_eager(&bytes, &options));
            assert_eq!(eager, want, "{name}, {method}: eager");

            // lopdf 0.47's eager load does not read a direct /Encrypt (every
            // file PyMuPDF encrypts): the lazy store does.
            let direct = encrypt(&plain, m, "", true);
            let doc = Document::from_bytes(&direct, &options).unwrap();
            assert!(
                doc.is_lazy(),
                "{name}, {method}, direct: not read on demand"
            );
            assert_eq!(scan(Ok(doc)), want, "{name}, {method}, direct");

            for direct in [false, true] {
                let locked = encrypt(&plain, m, "secret", direct);
                let refused = scan(Document::from_bytes(&locked, &options));
                assert!(
                    refused.starts_with("error pdf_encrypted"),
                    "{name}, {method}: {refused}"
                );
            }
        }
    }
}

/// One file made by the fixture generator's own encryption (every revision,
/// fixed keys) and what opening it must give: `None` scans as the plain
/// fixture, `Some(text)` is a `pdf_encrypted` error whose message holds `text`.
struct Case {
    name: String,
    encryption: Encryption,
    refused: Option<String>,
}

fn case(name: impl Into<String>, encryption: Encryption, refused: Option<&str>) -> Case {
    Case {
        name: name.into(),
        encryption,
        refused: refused.map(str::to_string),
    }
}

/// Every revision both ways, and the departures from the standard that real
/// files show (pdf.js `issue19484_1.pdf`, `pr6531_2.pdf`; qpdf
/// `invalid-id-xref.pdf`, `bad-encryption-length.pdf`).
fn cases() -> Vec<Case> {
    let std = Encryption::standard;
    let mut v = Vec::new();
    for r in 2..=6 {
        let open = format!("R{r}, empty user password");
        let locked = format!("R{r}, user password");
        let msg = format!("revision {r})");
        v.push(case(open, std(r, ""), None));
        v.push(case(locked, std(r, "secret"), Some(&msg)));
        // The owner password empty, the user password not: lopdf opens it
        // as the owner, a viewer asks for the password (pdf.js pr6531_2.pdf).
        let mut e = std(r, "secret");
        e.owner_password = Vec::new();
        let name = format!("R{r}, user password, empty owner password");
        v.push(case(name, e, Some(&msg)));
    }
    let mut short = std(4, "");
    short.cipher = Cipher::Rc4;
    short.key_len = 5;
    short.length = Some(Object::Integer(40));
    v.push(case(
        "R4 RC4, 40-bit key (zero-padded)",
        short.clone(),
        None,
    ));
    let mut short48 = short.clone();
    short48.key_len = 6;
    short48.length = Some(Object::Integer(48));
    v.push(case("R4 RC4, 48-bit key (zero-padded)", short48, None));
    let mut short_aes = std(4, "");
    short_aes.key_len = 5;
    short_aes.length = Some(Object::Integer(40));
    v.push(case(
        "R4 AES-128, 40-bit key (zero-padded)",
        short_aes,
        None,
    ));
    let mut short_locked = short;
    short_locked.user_password = b"secret".to_vec();
    v.push(case(
        "R4 RC4, 40-bit key, user password",
        short_locked,
        Some("revision 4)"),
    ));
    for r in [2, 3, 4] {
        let mut e = std(r, "");
        e.id = None;
        let name = format!("R{r}, no trailer /ID");
        v.push(case(name, e, None));
    }
    let mut no_meta = std(4, "");
    no_meta.encrypt_metadata = false;
    v.push(case("R4, metadata in clear", no_meta, None));
    for (what, length) in [
        ("/Length 1000", Some(Object::Integer(1000))),
        ("/Length -8", Some(Object::Integer(-8))),
        ("/Length a name", Some(Object::Name(b"Bad".to_vec()))),
        ("no /Length", None),
    ] {
        let mut e = std(3, "");
        e.length = length.clone();
        let name = format!("R3 128-bit, {what}");
        v.push(case(name, e, None));
        let mut e = std(3, "");
        e.key_len = 5;
        e.length = length;
        let name = format!("R3 40-bit, {what}");
        v.push(case(name, e, None));
    }
    let mut wrong = std(3, "");
    wrong.length = Some(Object::Integer(40));
    v.push(case("R3 128-bit key, /Length 40", wrong, None));
    // pdf.js issue7665.pdf: /CF and its /StdCF as objects of their own; read
    // as missing, every string and stream stayed ciphertext (a page of
    // nothing, reported clean).
    for r in [4, 6] {
        let mut e = std(r, "");
        e.indirect_filters = true;
        v.push(case(format!("R{r}, /CF and its filter indirect"), e, None));
    }
    let mut v6 = std(6, "");
    v6.length = Some(Object::Integer(7));
    v.push(case("R6, /Length 7", v6, None));
    for handler in ["Adobe.PubSec", "FooSecurity"] {
        let mut e = std(4, "");
        e.handler = handler.as_bytes().to_vec();
        v.push(case(handler, e, Some(handler)));
    }
    v
}

#[test]
fn every_revision_opens_with_an_empty_user_password_and_no_other() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures");
    let options = LoadOptions::default();
    let mut failures = Vec::new();
    for fixture in ["base14_courier", "form_two_widgets"] {
        let plain = std::fs::read(dir.join(format!("{fixture}.pdf"))).unwrap();
        let want = scan(Document::from_bytes(&plain, &options));
        assert!(want.starts_with('{'), "{fixture}: {want}");
        for c in cases() {
            let bytes = encrypt::encrypt(&plain, &c.encryption).unwrap();
            let lazy = scan(Document::from_bytes(&bytes, &options));
            let eager = scan(Document::from_bytes_eager(&bytes, &options));
            match c.refused {
                None => {
                    if lazy != want {
                        failures.push(format!("{fixture}, {}: {lazy}", c.name));
                    }
                    // lopdf decrypts the eager load: it reads fewer of these
                    // files, and refuses the rest (never reads them wrongly).
                    if eager != want && !eager.starts_with("error pdf_encrypted") {
                        failures.push(format!("{fixture}, {}, eager: {eager}", c.name));
                    }
                }
                Some(text) => {
                    for (how, got) in [("lazy", &lazy), ("eager", &eager)] {
                        let ok =
                            got.starts_with("error pdf_encrypted") && got.contains(text.as_str());
                        if !ok {
                            failures.push(format!("{fixture}, {}, {how}: {got}", c.name));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
