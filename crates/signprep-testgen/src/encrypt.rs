//! Encrypting a fixture with the standard security handler, every revision
//! (R2 to R6) and the departures from ISO 32000-2 7.6 that real files show:
//! a V4 key shorter than 128 bits (encrypted, as Acrobat does, with the key
//! extended by zero bytes), no trailer `/ID`, a `/Length` that is not the key
//! length, an empty owner password beside a user password, and handlers
//! other than the standard one.
//!
//! Deterministic: fixed salts, IVs and file keys (lopdf's own encryption
//! draws them at random), so what a test asserts never depends on a draw.
//! The owner password only ever makes `/O` (and `/OE`); readers of these
//! files open them with the empty *user* password or not at all.

use aes::cipher::{BlockModeEncrypt as _, KeyInit as _, KeyIvInit as _};
use lopdf::{Dictionary, Object, ObjectId, StringFormat};
use md5::{Digest as _, Md5};
use sha2::{Sha256, Sha384, Sha512};

/// The padding string of algorithm 2.
const PAD: [u8; 32] = [
    0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
    0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
];

/// How strings and streams are encrypted under V4/V5 (`/CFM`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cipher {
    /// `/V2`: RC4.
    Rc4,
    /// `/AESV2`: AES-128.
    Aes128,
    /// `/AESV3`: AES-256.
    Aes256,
}

/// One way of encrypting a file.
#[derive(Clone, Debug)]
pub struct Encryption {
    /// `/V`: 1, 2, 4 or 5.
    pub version: i64,
    /// `/R`: 2 to 6.
    pub revision: i64,
    /// The key length in bytes (5 to 16; 32 for V5).
    pub key_len: usize,
    /// The `/Length` entry as written; `None` leaves it out.
    pub length: Option<Object>,
    /// The crypt filter method under V4/V5.
    pub cipher: Cipher,
    pub user_password: Vec<u8>,
    pub owner_password: Vec<u8>,
    /// The first string of the trailer `/ID`; `None` writes no `/ID` (the
    /// key is then made with an empty one, as readers read such a file).
    pub id: Option<Vec<u8>>,
    pub encrypt_metadata: bool,
    /// `/Filter` of the `/Encrypt` dictionary (`Standard`).
    pub handler: Vec<u8>,
    /// `/CF` and its crypt filter written as objects of their own, referred
    /// to (pdf.js's `issue7665.pdf`), not inline.
    pub indirect_filters: bool,
}

impl Encryption {
    /// The standard handler of revision `revision` with its usual version,
    /// key length and method, a fixed `/ID`, and the owner password "owner".
    pub fn standard(revision: i64, user_password: &str) -> Encryption {
        let (version, key_len, cipher) = match revision {
            2 => (1, 5, Cipher::Rc4),
            3 => (2, 16, Cipher::Rc4),
            4 => (4, 16, Cipher::Aes128),
            _ => (5, 32, Cipher::Aes256),
        };
        Encryption {
            version,
            revision,
            key_len,
            length: Some(Object::Integer(key_len as i64 * 8)),
            cipher,
            user_password: user_password.as_bytes().to_vec(),
            owner_password: b"owner".to_vec(),
            id: Some(b"0123456789abcdef".to_vec()),
            encrypt_metadata: true,
            handler: b"Standard".to_vec(),
            indirect_filters: false,
        }
    }
}

/// `pdf` (a fixture without encryption) encrypted as `e` says.
pub fn encrypt(pdf: &[u8], e: &Encryption) -> Result<Vec<u8>, crate::Error> {
    let err = |what: &str| crate::Error::new(format!("encrypt: {what}"));
    let mut doc = lopdf::Document::load_mem(pdf).map_err(|x| err(&x.to_string()))?;
    let id0 = e.id.clone().unwrap_or_default();
    let permissions: i64 = -3904; // print, fill forms; no modify or copy
    let file_key: Vec<u8> = (0..32u8)
        .map(|i| i.wrapping_mul(29).wrapping_add(11))
        .collect();
    let mut dict = Dictionary::new();
    dict.set("Filter", Object::Name(e.handler.clone()));
    dict.set("V", e.version);
    dict.set("R", e.revision);
    if let Some(l) = &e.length {
        dict.set("Length", l.clone());
    }
    dict.set("P", permissions);
    let key = if e.revision <= 4 {
        let o = owner_value(e);
        let key = key_r4(e, &e.user_password, &o, permissions, &id0);
        let u = user_value(e, &key, &id0);
        dict.set("O", Object::String(o, StringFormat::Hexadecimal));
        dict.set("U", Object::String(u, StringFormat::Hexadecimal));
        key
    } else {
        let key = file_key.get(..32).unwrap_or_default().to_vec();
        let (u, ue) = hashed_value(e, &e.user_password, b"usaltusa", b"ukeysalt", &[], &key);
        let (o, oe) = hashed_value(e, &e.owner_password, b"osaltosa", b"okeysalt", &u, &key);
        let mut perms = Vec::new();
        perms.extend_from_slice(&(permissions as u32).to_le_bytes());
        perms.extend_from_slice(&[0xff; 4]);
        perms.push(if e.encrypt_metadata { b'T' } else { b'F' });
        perms.extend_from_slice(b"adb0000");
        aes_ecb(&key, &mut perms);
        for (k, v) in [("U", u), ("UE", ue), ("O", o), ("OE", oe), ("Perms", perms)] {
            dict.set(k, Object::String(v, StringFormat::Hexadecimal));
        }
        key
    };
    if e.version >= 4 {
        let method: &[u8] = match e.cipher {
            Cipher::Rc4 => b"V2",
            Cipher::Aes128 => b"AESV2",
            Cipher::Aes256 => b"AESV3",
        };
        let mut cf = Dictionary::new();
        cf.set("Type", Object::Name(b"CryptFilter".to_vec()));
        cf.set("CFM", Object::Name(method.to_vec()));
        cf.set("AuthEvent", Object::Name(b"DocOpen".to_vec()));
        let mut filters = Dictionary::new();
        if e.indirect_filters {
            // Names only: encrypting every object below leaves them as they are.
            filters.set("StdCF", Object::Reference(doc.add_object(cf)));
            dict.set("CF", Object::Reference(doc.add_object(filters)));
        } else {
            filters.set("StdCF", cf);
            dict.set("CF", filters);
        }
        dict.set("StmF", Object::Name(b"StdCF".to_vec()));
        dict.set("StrF", Object::Name(b"StdCF".to_vec()));
        if !e.encrypt_metadata {
            dict.set("EncryptMetadata", false);
        }
    }
    // The key objects are encrypted with: a short V4 key extended to 16 bytes.
    let mut object_key_base = key;
    if e.version == 4 && object_key_base.len() < 16 {
        object_key_base.resize(16, 0);
    }
    let cipher = if e.version >= 4 {
        e.cipher
    } else {
        Cipher::Rc4
    };
    let ids: Vec<ObjectId> = doc.objects.keys().copied().collect();
    for id in ids {
        if let Some(obj) = doc.objects.get_mut(&id) {
            encrypt_object(obj, id, &object_key_base, cipher, e.encrypt_metadata);
        }
    }
    let encrypt_id = doc.add_object(dict);
    doc.trailer.set("Encrypt", Object::Reference(encrypt_id));
    match &e.id {
        Some(id) => {
            let s = Object::String(id.clone(), StringFormat::Hexadecimal);
            doc.trailer.set("ID", Object::Array(vec![s.clone(), s]));
        }
        None => {
            doc.trailer.remove(b"ID");
        }
    }
    let mut out = Vec::new();
    doc.save_to(&mut out).map_err(|x| err(&x.to_string()))?;
    Ok(out)
}

fn encrypt_object(obj: &mut Object, id: ObjectId, key: &[u8], cipher: Cipher, meta: bool) {
    match obj {
        Object::String(s, _) => *s = encrypt_bytes(s, id, key, cipher),
        Object::Array(items) => {
            for item in items {
                encrypt_object(item, id, key, cipher, meta);
            }
        }
        Object::Dictionary(d) => {
            for (_, v) in d.iter_mut() {
                encrypt_object(v, id, key, cipher, meta);
            }
        }
        Object::Stream(s) => {
            if s.dict.has_type(b"XRef") || (!meta && s.dict.has_type(b"Metadata")) {
                return;
            }
            for (_, v) in s.dict.iter_mut() {
                encrypt_object(v, id, key, cipher, meta);
            }
            let content = encrypt_bytes(&s.content, id, key, cipher);
            s.set_content(content);
        }
        _ => {}
    }
}

/// Algorithm 1 (RC4, AES-128) or the file key (AES-256), with a fixed IV.
fn encrypt_bytes(data: &[u8], (num, generation): ObjectId, key: &[u8], cipher: Cipher) -> Vec<u8> {
    if cipher == Cipher::Aes256 {
        return aes_cbc_pad::<aes::Aes256>(key, data);
    }
    let mut h = Md5::new();
    h.update(key);
    h.update(num.to_le_bytes().get(..3).unwrap_or_default());
    h.update(generation.to_le_bytes());
    if cipher == Cipher::Aes128 {
        h.update(b"sAlT");
    }
    let digest = h.finalize();
    let object_key = digest.get(..(key.len() + 5).min(16)).unwrap_or_default();
    match cipher {
        Cipher::Rc4 => rc4(object_key, data),
        _ => aes_cbc_pad::<aes::Aes128>(object_key, data),
    }
}

/// The password padded or cut to 32 bytes.
fn padded(password: &[u8]) -> Vec<u8> {
    password
        .iter()
        .chain(PAD.iter())
        .take(32)
        .copied()
        .collect()
}

/// Algorithm 3: `/O` from the owner password (R2-R4).
fn owner_value(e: &Encryption) -> Vec<u8> {
    let n = if e.revision == 2 { 5 } else { e.key_len };
    let mut digest = Md5::digest(padded(&e.owner_password));
    if e.revision >= 3 {
        for _ in 0..50 {
            digest = Md5::digest(digest.get(..n).unwrap_or_default());
        }
    }
    let key = digest.get(..n).unwrap_or_default().to_vec();
    let mut o = rc4(&key, &padded(&e.user_password));
    if e.revision >= 3 {
        for i in 1..=19u8 {
            let k: Vec<u8> = key.iter().map(|b| b ^ i).collect();
            o = rc4(&k, &o);
        }
    }
    o
}

/// Algorithm 2: the file key from the user password (R2-R4).
fn key_r4(e: &Encryption, password: &[u8], o: &[u8], p: i64, id0: &[u8]) -> Vec<u8> {
    let n = if e.revision == 2 { 5 } else { e.key_len };
    let mut h = Md5::new();
    h.update(padded(password));
    h.update(o);
    h.update((p as u32).to_le_bytes());
    h.update(id0);
    if e.revision >= 4 && !e.encrypt_metadata {
        h.update([0xff; 4]);
    }
    let mut digest = h.finalize();
    if e.revision >= 3 {
        for _ in 0..50 {
            digest = Md5::digest(digest.get(..n).unwrap_or_default());
        }
    }
    digest.get(..n).unwrap_or_default().to_vec()
}

/// Algorithms 4 and 5: `/U` (R2-R4).
fn user_value(e: &Encryption, key: &[u8], id0: &[u8]) -> Vec<u8> {
    if e.revision == 2 {
        return rc4(key, &PAD);
    }
    let mut h = Md5::new();
    h.update(PAD);
    h.update(id0);
    let mut x = rc4(key, &h.finalize());
    for i in 1..=19u8 {
        let k: Vec<u8> = key.iter().map(|b| b ^ i).collect();
        x = rc4(&k, &x);
    }
    x.resize(32, 0);
    x
}

/// Algorithms 8 and 9: (`/U`, `/UE`) or (`/O`, `/OE`) for R5/R6; `udata` is
/// the 48-byte `/U` for the owner's values.
fn hashed_value(
    e: &Encryption,
    password: &[u8],
    validation_salt: &[u8],
    key_salt: &[u8],
    udata: &[u8],
    file_key: &[u8],
) -> (Vec<u8>, Vec<u8>) {
    let password = password.get(..password.len().min(127)).unwrap_or_default();
    let mut value = hash(e.revision, password, validation_salt, udata);
    value.extend_from_slice(validation_salt);
    value.extend_from_slice(key_salt);
    let mut wrapped = file_key.to_vec();
    let k = hash(e.revision, password, key_salt, udata);
    let mut c = cbc::Encryptor::<aes::Aes256>::new_from_slices(&k, &[0; 16]).ok();
    if let Some(c) = c.as_mut() {
        let (blocks, _) = wrapped.as_chunks_mut::<16>();
        for b in blocks {
            c.encrypt_block(b.into());
        }
    }
    (value, wrapped)
}

/// SHA-256 (R5) or algorithm 2.B (R6) of password, salt and udata.
fn hash(revision: i64, password: &[u8], salt: &[u8], udata: &[u8]) -> Vec<u8> {
    let mut k = Sha256::new()
        .chain_update(password)
        .chain_update(salt)
        .chain_update(udata)
        .finalize()
        .to_vec();
    if revision == 5 {
        return k;
    }
    let mut round = 0u32;
    loop {
        round += 1;
        let one: Vec<u8> = [password, &k, udata].concat();
        let mut k1 = Vec::with_capacity(64 * one.len());
        for _ in 0..64 {
            k1.extend_from_slice(&one);
        }
        if let Ok(mut c) = cbc::Encryptor::<aes::Aes128>::new_from_slices(
            k.get(..16).unwrap_or_default(),
            k.get(16..32).unwrap_or_default(),
        ) {
            let (blocks, _) = k1.as_chunks_mut::<16>();
            for b in blocks {
                c.encrypt_block(b.into());
            }
        }
        let sum: u32 = k1.iter().take(16).map(|&b| u32::from(b)).sum();
        k = match sum % 3 {
            0 => Sha256::digest(&k1).to_vec(),
            1 => Sha384::digest(&k1).to_vec(),
            _ => Sha512::digest(&k1).to_vec(),
        };
        if round >= 64 && u32::from(k1.last().copied().unwrap_or(0)) <= round - 32 {
            break;
        }
    }
    k.truncate(32);
    k
}

/// AES-CBC with PKCS#5 padding, after a fixed 16-byte IV.
fn aes_cbc_pad<C>(key: &[u8], data: &[u8]) -> Vec<u8>
where
    C: aes::cipher::BlockCipherEncrypt + aes::cipher::KeyInit,
    C: aes::cipher::BlockSizeUser<BlockSize = aes::cipher::consts::U16>,
{
    let iv = [0x5au8; 16];
    let n = 16 - data.len() % 16;
    let mut body = data.to_vec();
    body.extend(std::iter::repeat_n(n as u8, n));
    if let Ok(mut c) = cbc::Encryptor::<C>::new_from_slices(key, &iv) {
        let (blocks, _) = body.as_chunks_mut::<16>();
        for b in blocks {
            c.encrypt_block(b.into());
        }
    }
    [iv.as_slice(), &body].concat()
}

/// AES-256-ECB of one 16-byte block (`/Perms`).
fn aes_ecb(key: &[u8], block: &mut [u8]) {
    if let (Ok(c), Some(b)) = (
        aes::Aes256::new_from_slice(key),
        block.first_chunk_mut::<16>(),
    ) {
        use aes::cipher::BlockCipherEncrypt as _;
        c.encrypt_block(b.into());
    }
}

/// RC4 of `data` under `key`.
fn rc4(key: &[u8], data: &[u8]) -> Vec<u8> {
    if key.is_empty() {
        return data.to_vec();
    }
    let mut s: Vec<u8> = (0..=255u8).collect();
    let mut j = 0u8;
    for i in 0..256usize {
        let k = key.get(i % key.len()).copied().unwrap_or(0);
        j = j
            .wrapping_add(s.get(i).copied().unwrap_or(0))
            .wrapping_add(k);
        s.swap(i, usize::from(j));
    }
    let (mut i, mut j) = (0u8, 0u8);
    data.iter()
        .map(|&b| {
            i = i.wrapping_add(1);
            j = j.wrapping_add(s.get(usize::from(i)).copied().unwrap_or(0));
            s.swap(usize::from(i), usize::from(j));
            let t = s
                .get(usize::from(i))
                .copied()
                .unwrap_or(0)
                .wrapping_add(s.get(usize::from(j)).copied().unwrap_or(0));
            b ^ s.get(usize::from(t)).copied().unwrap_or(0)
        })
        .collect()
}
