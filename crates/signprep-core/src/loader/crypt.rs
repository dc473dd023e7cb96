//! The standard security handler: whether a file opens with the empty user
//! password, and its objects decrypted as they are parsed.
//!
//! This module alone decides whether an encrypted file is read (lopdf's own
//! decryption also accepts the empty password as the *owner* password, which
//! would open a file its author locked with a user password; see
//! [`crate::document`]). It reads every revision of the standard handler as ISO
//! 32000-2 7.6.4 describes it: RC4 (V1/V2, R2/R3), V4 crypt filters (RC4 or
//! AES-128, R4) and AES-256 (V5, R5/R6), the key from the empty user password
//! (algorithms 2, 2.A, 2.B, 6, 11), and lopdf's exemptions when it decrypts an
//! object (cross-reference streams, `/Metadata` without `/EncryptMetadata`, a
//! signature's `/Contents`). Where files depart from the standard it reads
//! them as viewers do:
//!
//! - a missing or malformed trailer `/ID` is an empty one (pdf.js, qpdf);
//! - a `/Length` that is missing or not a valid key length is not trusted: the
//!   key lengths 40 to 128 bits are tried, the declared one first, and the one
//!   whose `/U` checks is the key (qpdf derives it from `/V`);
//! - under V4, a key shorter than 16 bytes is extended with zero bytes before
//!   per-object keys are made (Acrobat and pdf.js; pdf.js issue 19484);
//! - under R5/R6, `/Perms` is not required to check once `/U` has (qpdf warns).
//!
//! Anything it cannot decide within one object is left to the eager load:
//! [`Decryptor::decrypt`] returns `false` for a stream with its own `/Crypt`
//! filter or a string whose AES padding does not check (lopdf keeps such a
//! string encrypted).
//!
//! Why a module of its own: lopdf checks the empty password as the owner's and
//! as the user's, then derives the key checking both again, which runs the
//! deliberately slow AES-256 hash of algorithm 2.B five times; two suffice.
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

use crate::error::Encryption;
use aes::cipher::{BlockModeDecrypt as _, BlockModeEncrypt as _, KeyIvInit as _};
use lopdf::{Dictionary, Object, ObjectId};
use md5::{Digest as _, Md5};
use sha2::{Sha256, Sha384, Sha512};

/// The padding string of algorithm 2 (ISO 32000-2 7.6.4.3.2, step a).
const PAD: [u8; 32] = [
    0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
    0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
];

/// How strings or streams are encrypted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Identity,
    Rc4,
    Aes128,
    Aes256,
}

/// Decrypts the objects of one document.
#[derive(Debug)]
pub(crate) struct Decryptor {
    key: Vec<u8>,
    strings: Method,
    streams: Method,
    encrypt_metadata: bool,
}

/// The key the empty password gives, or that it is not the user password.
enum Key {
    Open(Vec<u8>),
    Locked,
}

/// What [`Decryptor::new`] reads from the `/Encrypt` dictionary.
struct Params<'a> {
    version: i64,
    revision: i64,
    /// `/Length` in bits, as written (not trusted: see the module comment).
    length: Option<i64>,
    encrypt_metadata: bool,
    owner: &'a [u8],
    user: &'a [u8],
    user_encrypted: Option<&'a [u8]>,
    permissions: i64,
}

/// A refusal naming what is not read.
fn unsupported(what: impl Into<String>) -> Encryption {
    Encryption::Unsupported { what: what.into() }
}

impl Decryptor {
    /// The decryptor of a file whose `/Encrypt` dictionary is `encrypt` and
    /// whose trailer `/ID` starts with `id0` (`None`: no usable `/ID`, read as
    /// empty), when the empty user password opens it; else why not.
    pub(crate) fn new(encrypt: &Dictionary, id0: Option<&[u8]>) -> Result<Decryptor, Encryption> {
        match encrypt.get(b"Filter") {
            Ok(Object::Name(n)) if n.as_slice() == b"Standard" => {}
            Ok(Object::Name(n)) => {
                return Err(Encryption::Handler {
                    name: String::from_utf8_lossy(n).into_owned(),
                });
            }
            _ => {
                return Err(unsupported(
                    "the /Encrypt dictionary names no security handler",
                ));
            }
        }
        let p = Params::read(encrypt)?;
        let (strings, streams) = match p.version {
            1 | 2 => (Method::Rc4, Method::Rc4),
            4 | 5 => {
                let filter = |key: &[u8]| match encrypt.get(key) {
                    Err(_) => Ok(Method::Identity),
                    Ok(Object::Name(n)) => crypt_filter(encrypt, n),
                    Ok(_) => Err(unsupported(format!(
                        "/{} is not a crypt filter name",
                        String::from_utf8_lossy(key)
                    ))),
                };
                (filter(b"StrF")?, filter(b"StmF")?)
            }
            v => return Err(unsupported(format!("algorithm /V {v}"))),
        };
        let key = match p.revision {
            2..=4 => p.key_r4(id0.unwrap_or_default())?,
            5 | 6 => p.key_r6()?,
            r => {
                return Err(unsupported(format!(
                    "standard security handler revision {r}"
                )));
            }
        };
        let mut key = match key {
            Key::Open(key) => key,
            Key::Locked => {
                return Err(Encryption::UserPassword {
                    revision: p.revision,
                });
            }
        };
        // Acrobat and pdf.js extend a short V4 key to 16 bytes.
        if p.version == 4 && key.len() < 16 {
            key.resize(16, 0);
        }
        // The per-object keys the filters take: AES-128 needs a 16-byte
        // object key (a file key of 11 bytes or more), AES-256 the 32-byte file key.
        let fits = |m: Method| match m {
            Method::Aes128 => key.len() >= 11,
            Method::Aes256 => key.len() == 32,
            Method::Rc4 | Method::Identity => !key.is_empty(),
        };
        if !fits(strings) || !fits(streams) {
            return Err(unsupported(format!(
                "a {}-bit key for its crypt filter",
                key.len() * 8
            )));
        }
        Ok(Decryptor {
            key,
            strings,
            streams,
            encrypt_metadata: p.encrypt_metadata,
        })
    }

    /// Decrypts the object `id` just parsed, as lopdf's loader does; `false`
    /// when part of it is for the eager load to decide.
    pub(crate) fn decrypt(&self, id: ObjectId, obj: &mut Object) -> bool {
        if let Object::Stream(s) = obj {
            if s.dict.has_type(b"XRef") {
                return true;
            }
            if has_crypt_filter(&s.dict) {
                return false;
            }
        }
        self.value(id, obj)
    }

    /// An object of `id`, or one inside it: lopdf leaves a `/Metadata`
    /// dictionary or stream in clear without `/EncryptMetadata` wherever it is.
    fn value(&self, id: ObjectId, obj: &mut Object) -> bool {
        let dict = match obj {
            Object::Dictionary(d) => Some(&*d),
            Object::Stream(s) => Some(&s.dict),
            _ => None,
        };
        if !self.encrypt_metadata && dict.is_some_and(|d| d.has_type(b"Metadata")) {
            return true;
        }
        match obj {
            Object::String(bytes, _) => self.bytes(id, self.strings, bytes),
            // On a failure the whole object goes to the eager load: stop there.
            Object::Array(items) => items.iter_mut().all(|item| self.value(id, item)),
            Object::Dictionary(dict) => self.dictionary(id, dict),
            Object::Stream(stream) => {
                if !self.dictionary(id, &mut stream.dict)
                    || !self.bytes(id, self.streams, &mut stream.content)
                {
                    return false;
                }
                // As lopdf's `set_content`.
                let len = i64::try_from(stream.content.len()).unwrap_or(i64::MAX);
                stream.dict.set("Length", len);
                true
            }
            _ => true,
        }
    }

    /// Every entry but a signature dictionary's `/Contents` (ISO 32000-1 7.6.2).
    fn dictionary(&self, id: ObjectId, dict: &mut Dictionary) -> bool {
        let signature = dict.has_type(b"Sig")
            || dict.has_type(b"DocTimeStamp")
            || (dict.has(b"ByteRange") && dict.has(b"Contents"));
        dict.iter_mut()
            .filter(|(k, _)| !(signature && k.as_slice() == b"Contents"))
            .all(|(_, v)| self.value(id, v))
    }

    /// Decrypts `data` in place; `false` (and `data` untouched) when it does not decrypt.
    fn bytes(&self, id: ObjectId, method: Method, data: &mut Vec<u8>) -> bool {
        let plain = match method {
            Method::Identity => return true,
            Method::Rc4 => Some(rc4(&self.object_key(id, false), data)),
            Method::Aes128 => aes_cbc_unpad::<aes::Aes128>(&self.object_key(id, true), data),
            Method::Aes256 => aes_cbc_unpad::<aes::Aes256>(&self.key, data),
        };
        match plain {
            Some(p) => {
                *data = p;
                true
            }
            None => false,
        }
    }

    /// Algorithm 1: MD5 of the file key, the object number (3 bytes) and
    /// generation (2 bytes), low byte first, and "sAlT" for AES; its first
    /// min(n + 5, 16) bytes.
    fn object_key(&self, (num, generation): ObjectId, aes: bool) -> Vec<u8> {
        let mut h = Md5::new();
        h.update(&self.key);
        h.update(num.to_le_bytes().get(..3).unwrap_or_default());
        h.update(generation.to_le_bytes());
        if aes {
            h.update(b"sAlT");
        }
        let digest = h.finalize();
        let n = (self.key.len() + 5).min(16);
        digest.get(..n).unwrap_or_default().to_vec()
    }
}

impl<'a> Params<'a> {
    /// The entries the key derivation needs; a refusal naming the first that
    /// is missing or unusable.
    fn read(e: &'a Dictionary) -> Result<Params<'a>, Encryption> {
        // pdf.js: anything but `false` encrypts the metadata.
        let encrypt_metadata = !matches!(e.get(b"EncryptMetadata"), Ok(Object::Boolean(false)));
        let version =
            int(e, b"V").ok_or_else(|| unsupported("an /Encrypt dictionary without /V"))?;
        let revision =
            int(e, b"R").ok_or_else(|| unsupported("an /Encrypt dictionary without /R"))?;
        let length = int(e, b"Length");
        // /O and /U: 32 bytes up to R4, 48 from R5 (longer values are cut,
        // as qpdf and pdf.js read them).
        let value = |key: &[u8]| -> Result<&'a [u8], Encryption> {
            let n = if revision <= 4 { 32 } else { 48 };
            string(e, key).and_then(|v| v.get(..n)).ok_or_else(|| {
                unsupported(format!(
                    "an /Encrypt dictionary whose /{} is not a {n}-byte string",
                    String::from_utf8_lossy(key)
                ))
            })
        };
        let permissions = match int(e, b"P") {
            Some(p) => p,
            // Only the RC4 key (algorithm 2) mixes /P in.
            None if revision >= 5 => 0,
            None => return Err(unsupported("an /Encrypt dictionary without /P")),
        };
        Ok(Params {
            version,
            revision,
            length,
            encrypt_metadata,
            owner: value(b"O")?,
            user: value(b"U")?,
            user_encrypted: string(e, b"UE").and_then(|s| s.get(..32)),
            permissions,
        })
    }

    /// The key lengths (bytes) to try under R3/R4: the declared one when it
    /// is a key length (in bits, or in bytes as some writers put it), then
    /// 128 bits, 40 bits and the rest (qpdf and pdf.js read a bad /Length
    /// their own ways; the one whose `/U` checks is the key).
    fn key_lengths(&self) -> Vec<usize> {
        let declared = self.length.and_then(|l| {
            let l = usize::try_from(l).ok()?;
            if l % 8 == 0 && (40..=128).contains(&l) {
                Some(l / 8)
            } else if (5..=16).contains(&l) {
                Some(l)
            } else {
                None
            }
        });
        let mut lengths: Vec<usize> = declared.into_iter().collect();
        for n in [16, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if !lengths.contains(&n) {
                lengths.push(n);
            }
        }
        lengths
    }

    /// Algorithms 2 and 6: the key from the empty password, if it is the user
    /// password (R2: /U is RC4 of the padding; R3/R4: the first 16 bytes of
    /// /U are the 20-round RC4 of MD5(padding, ID)).
    fn key_r4(&self, id0: &[u8]) -> Result<Key, Encryption> {
        let lengths = if self.revision >= 3 {
            self.key_lengths()
        } else {
            vec![5]
        };
        // What does not depend on the key length.
        let mut h = Md5::new();
        h.update(PAD);
        h.update(self.owner);
        // /P as a 32-bit value, low byte first.
        h.update((self.permissions as u64 as u32).to_le_bytes());
        h.update(id0);
        if self.revision >= 4 && !self.encrypt_metadata {
            h.update([0xff; 4]);
        }
        let first = h.finalize();
        let u_seed = Md5::new().chain_update(PAD).chain_update(id0).finalize();
        for n in lengths {
            let mut digest = first;
            if self.revision >= 3 {
                for _ in 0..50 {
                    digest = Md5::digest(digest.get(..n).unwrap_or_default());
                }
            }
            let Some(key) = digest.get(..n).map(<[u8]>::to_vec) else {
                continue;
            };
            let matches = if self.revision == 2 {
                rc4(&key, &PAD) == self.user
            } else {
                let mut x = rc4(&key, &u_seed);
                let mut round_key = key.clone();
                for i in 1..=19u8 {
                    for (r, k) in round_key.iter_mut().zip(&key) {
                        *r = k ^ i;
                    }
                    x = rc4(&round_key, &x);
                }
                self.user.get(..16) == Some(x.as_slice())
            };
            if matches {
                return Ok(Key::Open(key));
            }
        }
        Ok(Key::Locked)
    }

    /// Algorithms 2.A and 11 for the empty user password: /U's hash checks,
    /// and /UE decrypts to the key. (/Perms is not required to check: qpdf
    /// only warns, and the key is already known good from /U.)
    fn key_r6(&self) -> Result<Key, Encryption> {
        let hash = |salt: &[u8]| -> Option<Vec<u8>> {
            if self.revision == 5 {
                Some(Sha256::digest(salt).to_vec())
            } else {
                hash_2b(salt)
            }
        };
        let bad = || unsupported("an /Encrypt dictionary whose /U does not hash");
        let (Some(u_hash), Some(u_salt), Some(ue_salt)) = (
            self.user.get(..32),
            self.user.get(32..40),
            self.user.get(40..48),
        ) else {
            return Err(bad());
        };
        if hash(u_salt).ok_or_else(bad)?.as_slice() != u_hash {
            return Ok(Key::Locked);
        }
        let ue_key = hash(ue_salt).ok_or_else(bad)?;
        let mut key = self
            .user_encrypted
            .ok_or_else(|| unsupported("an /Encrypt dictionary without a 32-byte /UE"))?
            .to_vec();
        aes_cbc_raw::<aes::Aes256>(&ue_key, &[0; 16], &mut key, false).ok_or_else(bad)?;
        Ok(Key::Open(key))
    }
}

/// Algorithm 2.B (R6) for the empty password and no /U: SHA-256 of the salt,
/// then at least 64 rounds of AES-128-CBC over 64 copies of the state, each
/// hashed with SHA-256, -384 or -512 as its first 16 bytes say.
fn hash_2b(salt: &[u8]) -> Option<Vec<u8>> {
    let mut k = Sha256::digest(salt).to_vec();
    let mut round = 0u32;
    loop {
        round += 1;
        let mut k1 = Vec::with_capacity(64 * k.len());
        for _ in 0..64 {
            k1.extend_from_slice(&k);
        }
        aes_cbc_raw::<aes::Aes128>(k.get(..16)?, k.get(16..32)?, &mut k1, true)?;
        let sum: u32 = k1.get(..16)?.iter().map(|&b| u32::from(b)).sum();
        k = match sum % 3 {
            0 => Sha256::digest(&k1).to_vec(),
            1 => Sha384::digest(&k1).to_vec(),
            _ => Sha512::digest(&k1).to_vec(),
        };
        if round >= 64 && u32::from(*k1.last()?) <= round - 32 {
            break;
        }
    }
    k.truncate(32);
    Some(k)
}

/// RC4 of `data` under `key` (1 to 256 bytes; other keys give `data` back).
fn rc4(key: &[u8], data: &[u8]) -> Vec<u8> {
    if key.is_empty() || key.len() > 256 {
        return data.to_vec();
    }
    let mut s: [u8; 256] = std::array::from_fn(|i| i as u8);
    let mut j = 0u8;
    for i in 0..256 {
        let k = key.get(i % key.len()).copied().unwrap_or_default();
        j = j.wrapping_add(s[i]).wrapping_add(k);
        s.swap(i, usize::from(j));
    }
    let (mut i, mut j) = (0u8, 0u8);
    data.iter()
        .map(|&b| {
            i = i.wrapping_add(1);
            j = j.wrapping_add(s[usize::from(i)]);
            s.swap(usize::from(i), usize::from(j));
            b ^ s[usize::from(s[usize::from(i)].wrapping_add(s[usize::from(j)]))]
        })
        .collect()
}

/// AES-128 or AES-256.
trait Aes:
    aes::cipher::BlockCipherEncrypt
    + aes::cipher::BlockCipherDecrypt
    + aes::cipher::KeyInit
    + aes::cipher::BlockSizeUser<BlockSize = aes::cipher::consts::U16>
{
}

impl Aes for aes::Aes128 {}
impl Aes for aes::Aes256 {}

/// AES-CBC over whole blocks in place, no padding; `None` for a bad key, IV or length.
fn aes_cbc_raw<C>(key: &[u8], iv: &[u8], data: &mut [u8], encrypt: bool) -> Option<()>
where
    C: Aes,
{
    let (blocks, rest) = data.as_chunks_mut::<16>();
    if !rest.is_empty() {
        return None;
    }
    if encrypt {
        let mut c = cbc::Encryptor::<C>::new_from_slices(key, iv).ok()?;
        for b in blocks {
            c.encrypt_block(b.into());
        }
    } else {
        let mut c = cbc::Decryptor::<C>::new_from_slices(key, iv).ok()?;
        for b in blocks {
            c.decrypt_block(b.into());
        }
    }
    Some(())
}

/// A string or stream under AESV2/AESV3: a 16-byte IV, then CBC blocks with
/// PKCS#5 padding, checked strictly as lopdf does; an empty result for no
/// data or an IV alone.
fn aes_cbc_unpad<C>(key: &[u8], data: &[u8]) -> Option<Vec<u8>>
where
    C: Aes,
{
    if !data.len().is_multiple_of(16) {
        return None;
    }
    if data.len() <= 16 {
        return Some(Vec::new());
    }
    let (iv, body) = data.split_at(16);
    let mut plain = body.to_vec();
    aes_cbc_raw::<C>(key, iv, &mut plain, false)?;
    let n = usize::from(*plain.last()?);
    if n == 0 || n > 16 || plain.len() < n {
        return None;
    }
    let keep = plain.len() - n;
    if plain.get(keep..)?.iter().any(|&b| usize::from(b) != n) {
        return None;
    }
    plain.truncate(keep);
    Some(plain)
}

/// A `/CF` filter by name, read as pdf.js reads it: `Identity`, or a filter
/// that is not listed, or one without `/CFM` (or `/CFM /None`), leaves data in
/// clear; an unknown `/CFM` is refused.
fn crypt_filter(encrypt: &Dictionary, name: &[u8]) -> Result<Method, Encryption> {
    if name == b"Identity" {
        return Ok(Method::Identity);
    }
    let f = match encrypt.get(b"CF") {
        Ok(Object::Dictionary(filters)) => match filters.get(name) {
            Ok(Object::Dictionary(f)) => f,
            _ => return Ok(Method::Identity),
        },
        _ => return Ok(Method::Identity),
    };
    match f.get(b"CFM") {
        Ok(Object::Name(m)) => match m.as_slice() {
            b"V2" => Ok(Method::Rc4),
            b"AESV2" => Ok(Method::Aes128),
            b"AESV3" => Ok(Method::Aes256),
            b"None" | b"Identity" => Ok(Method::Identity),
            other => Err(unsupported(format!(
                "the crypt filter method /{}",
                String::from_utf8_lossy(other)
            ))),
        },
        _ => Ok(Method::Identity),
    }
}

/// A stream whose `/Filter` names `/Crypt` (its own crypt filter).
fn has_crypt_filter(dict: &Dictionary) -> bool {
    match dict.get(b"Filter") {
        Ok(Object::Name(n)) => n.as_slice() == b"Crypt",
        Ok(Object::Array(a)) => a
            .iter()
            .any(|f| matches!(f, Object::Name(n) if n.as_slice() == b"Crypt")),
        _ => false,
    }
}

fn int(d: &Dictionary, key: &[u8]) -> Option<i64> {
    match d.get(key) {
        Ok(Object::Integer(n)) => Some(*n),
        _ => None,
    }
}

fn string<'a>(d: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    match d.get(key) {
        Ok(Object::String(s, _)) => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn rc4_matches_the_published_vectors() {
        // RFC 6229 is keystream only; these are the classic "Key"/"Plaintext" vectors.
        assert_eq!(
            rc4(b"Key", b"Plaintext"),
            [0xBB, 0xF3, 0x16, 0xE8, 0xD9, 0x40, 0xAF, 0x0A, 0xD3]
        );
        assert_eq!(rc4(b"Wiki", b"pedia"), [0x10, 0x21, 0xBF, 0x04, 0x20]);
        assert_eq!(rc4(&[], b"abc"), b"abc");
    }

    #[test]
    fn aes_padding_is_checked_strictly() {
        let key = [7u8; 16];
        let iv = [1u8; 16];
        let encrypt = |plain: &[u8]| {
            let mut d = plain.to_vec();
            aes_cbc_raw::<aes::Aes128>(&key, &iv, &mut d, true).unwrap();
            [iv.as_slice(), &d].concat()
        };
        let mut good = b"hello world".to_vec();
        good.extend([5u8; 5]);
        assert_eq!(
            aes_cbc_unpad::<aes::Aes128>(&key, &encrypt(&good)).unwrap(),
            b"hello world"
        );
        let mut bad = b"hello world".to_vec();
        bad.extend([5, 5, 4, 5, 5]);
        assert_eq!(aes_cbc_unpad::<aes::Aes128>(&key, &encrypt(&bad)), None);
        assert_eq!(aes_cbc_unpad::<aes::Aes128>(&key, &[0; 17]), None);
        assert_eq!(aes_cbc_unpad::<aes::Aes128>(&key, &[0; 16]).unwrap(), b"");
    }
}
