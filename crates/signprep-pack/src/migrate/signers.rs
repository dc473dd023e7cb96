//! The signer map: vendor signers (`signer1`, `1`, a role name such as
//! `Client`) → the people who sign in this service.

use crate::manifest::ManifestSigner;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One person of the map, named by the vendor's signer key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignerEntry {
    /// The vendor's signer as written in the tags: `signer1`, `1` (the same
    /// signer), or a role name (`Client`); matched case-insensitively.
    pub key: String,
    /// Name.
    pub name: Option<String>,
    /// Email address.
    pub email: Option<String>,
    /// Mobile number.
    pub mobile_number: Option<String>,
    /// The signatory's `role` (by default the vendor's signer as written).
    pub role: Option<String>,
    /// A fixed signatory UUID (by default one derived from the PDF and the key).
    pub uuid: Option<String>,
}

/// A signer map that cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SignerMapError {
    /// A `--signer` argument is not `KEY=EMAIL`, `KEY=Name <email>` or
    /// `KEY=First Last` (a name with no address has a space).
    #[error("`{0}` is not KEY=EMAIL, KEY=\"Name <email>\" or KEY=\"First Last\"")]
    Argument(String),
    /// The same key twice.
    #[error("signer `{0}` is given twice")]
    Duplicate(String),
    /// The signer file could not be read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The signer file is not a manifest's `[[signers]]` list.
    #[error("{}: not a signer list ({reason})", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column where known.
        reason: String,
    },
}

/// Vendor signers → people. Keys are compared case-insensitively, and
/// `signerN` and `N` name the same signer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignerMap {
    entries: Vec<SignerEntry>,
}

/// Only the `signers` of a manifest (every other key is ignored, so a pack
/// manifest can be given as it is).
#[derive(Deserialize)]
struct SignersOnly {
    #[serde(default)]
    signers: Vec<ManifestSigner>,
}

impl SignerMap {
    /// An empty map: every signer becomes a signatory without an email.
    pub fn new() -> Self {
        SignerMap::default()
    }

    /// The entries, in the order given.
    pub fn entries(&self) -> &[SignerEntry] {
        &self.entries
    }

    /// Adds one entry.
    pub fn insert(&mut self, entry: SignerEntry) -> Result<(), SignerMapError> {
        let k = canonical(&entry.key);
        if self.entries.iter().any(|e| canonical(&e.key) == k) {
            return Err(SignerMapError::Duplicate(entry.key));
        }
        self.entries.push(entry);
        Ok(())
    }

    /// Adds `KEY=EMAIL`, `KEY=Name <email>` or `KEY=First Last` (a
    /// `--signer` argument).
    ///
    /// A value without `<` and without a space is an address; a value with a
    /// space and no `<` is a name with no address. So a mistyped address
    /// (`wendy@example`, `wendy.example.com`) is never taken for a name: the
    /// migration reports it (`email_invalid`, the rule `check` applies) when
    /// the PDF has that signer. A one-word name with no address goes in a
    /// signer file (`name = "Carla"`).
    ///
    /// ```
    /// let mut m = signprep_pack::SignerMap::new();
    /// m.add_arg("signer1=client@example.com").unwrap();
    /// m.add_arg("Witness=Wendy Ward <wendy@example.com>").unwrap();
    /// m.add_arg("Client=Carla Client").unwrap();
    /// m.add_arg("signer3=carla").unwrap(); // an address, that migration reports
    /// assert_eq!(m.entries()[1].name.as_deref(), Some("Wendy Ward"));
    /// assert_eq!(m.entries()[2].email, None);
    /// assert_eq!(m.entries()[3].email.as_deref(), Some("carla"));
    /// assert!(m.add_arg("1=other@example.com").is_err()); // signer1 again
    /// ```
    pub fn add_arg(&mut self, arg: &str) -> Result<(), SignerMapError> {
        let bad = || SignerMapError::Argument(arg.to_string());
        let (key, value) = arg.split_once('=').ok_or_else(bad)?;
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || value.is_empty() {
            return Err(bad());
        }
        let mut e = SignerEntry {
            key: key.to_string(),
            ..SignerEntry::default()
        };
        if let Some((name, rest)) = value.split_once('<') {
            let email = rest.strip_suffix('>').ok_or_else(bad)?.trim();
            if email.is_empty() {
                return Err(bad());
            }
            e.email = Some(email.to_string());
            e.name =
                Some(name.trim().trim_matches('"').trim().to_string()).filter(|n| !n.is_empty());
        } else if value.contains(char::is_whitespace) {
            e.name = Some(value.trim_matches('"').trim().to_string());
        } else {
            e.email = Some(value.to_string());
        }
        self.insert(e)
    }

    /// Adds the `[[signers]]` of a manifest (TOML, or JSON): `handle` is the
    /// vendor's signer (`signer1`, `Client`), with `name`, `email`,
    /// `mobile_number`, `role` and `uuid`. Other keys of the file are ignored.
    pub fn add_file(&mut self, path: &Path, bytes: &[u8]) -> Result<(), SignerMapError> {
        let format = |reason: String| SignerMapError::Format {
            path: path.to_path_buf(),
            reason,
        };
        let text = std::str::from_utf8(bytes).map_err(|_| format("not UTF-8 text".into()))?;
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
            || text.trim_start().starts_with('{');
        let list: SignersOnly = if json {
            serde_json::from_str(text).map_err(|e| {
                format(format!(
                    "line {}, column {}: expected a `signers` list",
                    e.line(),
                    e.column()
                ))
            })?
        } else {
            toml::from_str(text).map_err(|e| {
                let at = e
                    .span()
                    .map(|s| {
                        let line = text.get(..s.start).map_or(0, |t| t.lines().count().max(1));
                        format!("line {line}: ")
                    })
                    .unwrap_or_default();
                format(format!(
                    "{at}expected `[[signers]]` with handle, name, email, mobile_number, role, uuid"
                ))
            })?
        };
        for s in list.signers {
            self.insert(SignerEntry {
                key: s.handle,
                name: s.name,
                email: s.email,
                mobile_number: s.mobile_number,
                role: s.role,
                uuid: s.uuid,
            })?;
        }
        Ok(())
    }

    /// The entry for a vendor signer key.
    pub(crate) fn get(&self, key: &str) -> Option<&SignerEntry> {
        let k = canonical(key);
        self.entries.iter().find(|e| canonical(&e.key) == k)
    }
}

/// `Signer1`, `signer1` and `1` → `signer1`; a role → lower case.
pub(crate) fn canonical(key: &str) -> String {
    let k = key.trim().to_ascii_lowercase();
    if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) {
        format!("signer{}", k.trim_start_matches('0'))
    } else {
        k
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn arguments_and_files() {
        let mut m = SignerMap::new();
        m.add_arg("Signer2=b@example.com").unwrap();
        m.add_arg("Client=Carla Client").unwrap();
        m.add_arg("signer3=not-an-email").unwrap();
        assert!(matches!(
            m.add_arg("nothing"),
            Err(SignerMapError::Argument(_))
        ));
        assert!(matches!(
            m.add_arg("2=x@example.com"),
            Err(SignerMapError::Duplicate(_))
        ));
        assert_eq!(
            m.get("signer2").unwrap().email.as_deref(),
            Some("b@example.com")
        );
        assert_eq!(
            m.get("client").unwrap().name.as_deref(),
            Some("Carla Client")
        );
        // One word is an address (checked when a PDF has the signer), never a name.
        let third = m.get("3").unwrap();
        assert_eq!(
            (third.name.as_deref(), third.email.as_deref()),
            (None, Some("not-an-email"))
        );
        let toml = b"name = \"ignored\"\n[[signers]]\nhandle = \"signer1\"\nemail = \"a@example.com\"\nrole = \"Buyer\"\n";
        m.add_file(Path::new("s.toml"), toml).unwrap();
        assert_eq!(m.get("1").unwrap().role.as_deref(), Some("Buyer"));
        let err = m
            .add_file(Path::new("s.toml"), b"[[signers]]\nemail = 3\n")
            .unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
    }
}
