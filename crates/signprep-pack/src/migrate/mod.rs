//! Migration from other vendors' text tags: a PDF tagged for Adobe Acrobat
//! Sign, Dropbox Sign, BoldSign, DocuSeal, signNow, PandaDoc or Documenso becomes a v0
//! own-PDF request — a `POST /v0/documents` body whose data fields sit at
//! explicit positions (`x`, `y`, `width`, `height`, page-stacked pixels, the
//! box the vendor would give the field), then the PDF itself, uploaded to the
//! `temp_upload_url_10_min` the create call returns.
//!
//! ```
//! use signprep_pack::{Migrator, SignerMap};
//! let mut signers = SignerMap::new();
//! signers.add_arg("signer1=client@example.com").unwrap();
//! signers.add_arg("signer2=witness@example.com").unwrap();
//! let pdf = signprep_testgen::fixture("vendor_adobe_dropbox").unwrap().pdf;
//! let migrated = Migrator::new(signers).migrate_pdf(&pdf, Some("contract.pdf"), "contract");
//! let plan = migrated.plan.unwrap();
//! let body = &plan.requests[0].body;
//! let field = &body.data_fields.as_ref().unwrap()[0];
//! assert_eq!(field.kind.as_deref(), Some("signature"));
//! assert_eq!(field.signatory_uuid, body.signatories.as_ref().unwrap()[0].uuid);
//! assert_eq!(plan.requests[0].upload.as_deref(), Some("contract.pdf"));
//! ```
//!
//! Nothing is guessed: a vendor kind without a counterpart in the
//! specification ([`TYPE_TABLE`]), a field filled by the sender, or a read-only
//! field is reported and left out. UUIDs are derived from the PDF's bytes and
//! the vendor's signer key, so the output is the same on every run.

mod docusign;
mod mapping;
mod signers;
mod strip;

pub use docusign::{AnchorFile, AnchorFileError, AnchorRecipient};

pub use mapping::{TYPE_TABLE, TypeRow, type_row, type_table_text};
pub use signers::{SignerEntry, SignerMap, SignerMapError};

use crate::codes::{Finding, PackCode, pointer};
use crate::model::plan::{Request, Requests};
use crate::model::v0::{V0DataField, V0Document, V0Signatory};
use crate::nullable::Nullable;
use crate::surface::{Opt, Surface};
use sha2::{Digest, Sha256};
use signprep_core::{Dialects, Document, LoadOptions, Scan, Scanner, Severity, VendorTag};
use std::collections::BTreeMap;

/// Converts vendor-tagged PDFs into v0 own-PDF requests.
#[derive(Clone, Debug)]
pub struct Migrator {
    signers: SignerMap,
    scanner: Scanner,
    load: LoadOptions,
    template: bool,
    overrides: BTreeMap<String, Option<String>>,
    /// DocuSign anchor tabs ([`Migrator::anchors`]), kept to give any later
    /// scanner, and their recipients as signers.
    anchors: Option<AnchorFile>,
    anchor_signers: SignerMap,
    strip: bool,
    surface: Surface,
}

/// What one PDF gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Migrated {
    /// The request to send (one `POST /v0/documents` and its upload), or
    /// `None` when an error-level finding stops this file.
    pub plan: Option<Requests<V0Document>>,
    /// Findings, in page order: the scan's vendor-tag findings, then migration's.
    pub findings: Vec<Finding>,
    /// Counts for the summary line.
    pub summary: MigrateSummary,
    /// With [`Migrator::strip`]: the PDF without the vendor tags' text (an
    /// incremental update of the input), to upload instead of it; `None` when
    /// not asked, when there is no plan, or when no copy could be written
    /// (a `strip_refused` finding says why).
    pub stripped: Option<Vec<u8>>,
}

/// A `KIND=TYPE` rule that is not one ([`Migrator::map_type_rule`]).
#[derive(Debug, thiserror::Error)]
#[error("`{rule}` is not KIND=TYPE (a lower-case type, or `none`)")]
pub struct MapTypeError {
    /// The rule as given.
    pub rule: String,
}

/// Counts of one file, or of a run (`+=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MigrateSummary {
    /// Files.
    pub files: usize,
    /// Vendor tags found.
    pub tags: usize,
    /// Data fields placed.
    pub placed: usize,
    /// Tags left out (no counterpart, sender or read-only).
    pub left_out: usize,
    /// Signatories.
    pub signers: usize,
    /// Signatories without an email address.
    pub signers_without_email: usize,
    /// Files that could not be migrated (an error-level finding).
    pub failed: usize,
}

impl std::ops::AddAssign for MigrateSummary {
    fn add_assign(&mut self, o: Self) {
        self.files += o.files;
        self.tags += o.tags;
        self.placed += o.placed;
        self.left_out += o.left_out;
        self.signers += o.signers;
        self.signers_without_email += o.signers_without_email;
        self.failed += o.failed;
    }
}

/// A signatory being collected: the vendor's key as first written.
struct Party {
    written: String,
    index: Option<u32>,
    first: usize,
}

impl Migrator {
    /// Every dialect, 72 dpi, the signers of `signers`.
    pub fn new(signers: SignerMap) -> Self {
        Migrator {
            signers,
            scanner: Scanner::new().fields(false).dialects(Dialects::all()),
            load: LoadOptions::default(),
            template: false,
            overrides: BTreeMap::new(),
            anchors: None,
            anchor_signers: SignerMap::new(),
            strip: false,
            surface: Surface::Cli,
        }
    }

    /// The front end whose words hints use when they name an option (default:
    /// the command line's flags).
    #[must_use]
    pub fn surface(mut self, surface: Surface) -> Self {
        self.surface = surface;
        self
    }

    /// Also make a copy of each PDF without the text of the tags that became
    /// fields ([`Migrated::stripped`], `signprep migrate --strip`).
    #[must_use]
    pub fn strip(mut self, yes: bool) -> Self {
        self.strip = yes;
        self
    }

    /// The scanner (its dpi or page width and `/UserUnit` choice; give it the
    /// dialects to read: a scanner without dialects finds no vendor tag).
    #[must_use]
    pub fn scanner(mut self, scanner: Scanner) -> Self {
        self.scanner = match &self.anchors {
            Some(a) => scanner.anchors(a.anchors.clone()),
            None => scanner,
        };
        self
    }

    /// Also place DocuSign anchor tabs (`migrate --anchors`). The file's
    /// recipients become signers: keyed by `recipientId` (`1` is `signer1`),
    /// with its email and name, its `roleName` as the signatory's role; the
    /// signer map (`--signer`, by id or by role name) wins over them.
    #[must_use]
    pub fn anchors(mut self, file: AnchorFile) -> Self {
        let mut map = SignerMap::new();
        for r in &file.recipients {
            let Some(key) = r.id.clone().or_else(|| r.role.clone()) else {
                continue;
            };
            // A recipient met twice (an envelope and its template) keeps its first entry.
            let _ = map.insert(SignerEntry {
                key,
                name: r.name.clone(),
                email: r.email.clone(),
                role: r.role.clone(),
                ..SignerEntry::default()
            });
        }
        self.anchor_signers = map;
        self.scanner = self.scanner.anchors(file.anchors.clone());
        self.anchors = Some(file);
        self
    }

    /// Who signs for a signer key: the signer map's entry (by the key, or
    /// by the anchor file's role name for it), completed by the anchor
    /// file's recipient.
    fn signer_entry(&self, canon: &str) -> Option<SignerEntry> {
        let file = self.anchor_signers.get(canon);
        let user = self.signers.get(canon).or_else(|| {
            file.and_then(|f| f.role.as_deref())
                .and_then(|role| self.signers.get(role))
        });
        match (user, file) {
            (Some(u), Some(f)) => Some(SignerEntry {
                name: u.name.clone().or_else(|| f.name.clone()),
                email: u.email.clone().or_else(|| f.email.clone()),
                role: u.role.clone().or_else(|| f.role.clone()),
                ..u.clone()
            }),
            (u, f) => u.or(f).cloned(),
        }
    }

    /// Limits for reading PDFs.
    #[must_use]
    pub fn load_options(mut self, load: LoadOptions) -> Self {
        self.load = load;
        self
    }

    /// Write `document_type: template` (the default writes a document).
    #[must_use]
    pub fn template(mut self, yes: bool) -> Self {
        self.template = yes;
        self
    }

    /// Maps a vendor kind to a service type the table leaves out (or `None`
    /// to leave a mapped kind out): for a type your account's documentation
    /// names, e.g. `initials`. Choice kinds then carry `options_as_csv`.
    #[must_use]
    pub fn map_type(mut self, kind: &str, service: Option<&str>) -> Self {
        self.overrides
            .insert(kind.to_ascii_lowercase(), service.map(str::to_string));
        self
    }

    /// [`Migrator::map_type`] from a `KIND=TYPE` rule (`migrate --map-type`):
    /// TYPE is lower-case ASCII letters, digits and `_`, or `none` to leave
    /// the kind out.
    pub fn map_type_rule(self, rule: &str) -> Result<Self, MapTypeError> {
        let (kind, ty) = rule
            .split_once('=')
            .map(|(k, t)| (k.trim(), t.trim()))
            .filter(|(k, t)| {
                !k.is_empty()
                    && !t.is_empty()
                    && t.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            })
            .ok_or_else(|| MapTypeError { rule: rule.into() })?;
        Ok(self.map_type(kind, (ty != "none").then_some(ty)))
    }

    /// Scans `pdf` and migrates it. `upload` is the path written as the PDF
    /// to upload (`None` for standard input); `name` the document name.
    pub fn migrate_pdf(&self, pdf: &[u8], upload: Option<&str>, name: &str) -> Migrated {
        let file = upload.unwrap_or(name);
        let doc = match Document::from_bytes(pdf, &self.load) {
            Ok(doc) => doc,
            Err(e) => return unreadable(file, &e),
        };
        let scan = match self.scanner.scan(&doc) {
            Ok(scan) => scan,
            Err(e) => return unreadable(file, &e),
        };
        self.finish(&doc, &scan, pdf, upload, name)
    }

    /// The scanner and limits a migration reads a PDF with (dialects, anchors, scale): a
    /// caller that scans the PDF itself (a converted template, whose scan carries the
    /// template's places) scans with them, then calls [`Migrator::migrate_scanned`].
    pub fn pdf_reader(&self) -> (&Scanner, &LoadOptions) {
        (&self.scanner, &self.load)
    }

    /// Migrates `pdf`, already scanned with [`Migrator::pdf_reader`]'s scanner as `scan`:
    /// [`Migrator::migrate_pdf`] without the scan (the PDF is opened again only to strip).
    pub fn migrate_scanned(
        &self,
        pdf: &[u8],
        scan: &Scan,
        upload: Option<&str>,
        name: &str,
    ) -> Migrated {
        let file = upload.unwrap_or(name);
        match Document::from_bytes(pdf, &self.load) {
            Ok(doc) => self.finish(&doc, scan, pdf, upload, name),
            Err(e) => unreadable(file, &e),
        }
    }

    fn finish(
        &self,
        doc: &Document,
        scan: &Scan,
        pdf: &[u8],
        upload: Option<&str>,
        name: &str,
    ) -> Migrated {
        let file = upload.unwrap_or(name);
        let digest = Sha256::digest(pdf).into();
        let mut migrated = self.migrate_scan(scan, &digest, upload, name);
        if self.strip && migrated.plan.is_some() {
            strip::strip(doc, scan, file, &mut migrated);
        }
        migrated
    }

    /// Migrates a scan made with dialects. `digest` (the SHA-256 of the PDF)
    /// seeds the signatory UUIDs.
    pub fn migrate_scan(
        &self,
        scan: &Scan,
        digest: &[u8; 32],
        upload: Option<&str>,
        name: &str,
    ) -> Migrated {
        let file = upload.unwrap_or(name).to_string();
        let at = "/requests/0/body";
        let mut findings: Vec<Finding> = scan
            .diagnostics
            .iter()
            .filter(|d| {
                d.code.as_str().starts_with("vendor_")
                    || d.code.as_str().starts_with("template_")
                    || d.severity == Severity::Error
            })
            .map(|d| Finding {
                pointer: None,
                ..Finding::from_scan(d, at, &file)
            })
            .collect();
        // A Dropbox Sign definition tag (`[def:$name|...]`) places no field:
        // its references do.
        let tags: Vec<&VendorTag> = scan
            .vendor_tags
            .as_deref()
            .unwrap_or_default()
            .iter()
            .filter(|t| t.attributes.kind != "definition")
            .collect();
        let mut summary = MigrateSummary {
            files: 1,
            tags: tags.len(),
            ..MigrateSummary::default()
        };
        let mut parties: BTreeMap<String, Party> = BTreeMap::new();
        let mut fields: Vec<(String, V0DataField)> = Vec::new();
        for (n, &t) in tags.iter().enumerate() {
            let Some(service) = self.service_type(t, &file, &mut findings) else {
                summary.left_out += 1;
                continue;
            };
            let key = match signer_of(t) {
                SignerOf::Sender(why) => {
                    summary.left_out += 1;
                    findings.push(located(
                        Finding::new(
                            PackCode::MigrateFieldReadOnly,
                            format!("{} tag `{}` {why}: no signatory of this service completes it; left out", t.dialect.vendor(), t.raw),
                        )
                        .hint("pre-populate the value with the field's `data`, or write it into the PDF"),
                        t,
                        &file,
                    ));
                    continue;
                }
                SignerOf::Key(k) => k,
                SignerOf::Nobody => {
                    findings.push(located(
                        Finding::new(
                            PackCode::MigrateSignerDefaulted,
                            format!(
                                "{} tag `{}` names no signer; it is assigned to signer1",
                                t.dialect.vendor(),
                                t.raw
                            ),
                        ),
                        t,
                        &file,
                    ));
                    "signer1".to_string()
                }
            };
            let canon = signers::canonical(&key);
            parties.entry(canon.clone()).or_insert_with(|| Party {
                written: key.clone(),
                index: canon.strip_prefix("signer").and_then(|d| d.parse().ok()),
                first: n,
            });
            fields.push((canon, data_field(t, service)));
        }

        // Numbered signers in order, then roles as they first appear.
        let mut order: Vec<(&String, &Party)> = parties.iter().collect();
        order.sort_by_key(|(_, p)| (p.index.is_none(), p.index, p.first));
        if !order.is_empty() {
            self.unknown_signers(&order, &file, &mut findings);
        }
        let mut signatories = Vec::new();
        let mut uuids = BTreeMap::new();
        for (i, (canon, p)) in order.iter().enumerate() {
            let entry = self.signer_entry(canon);
            let entry = entry.as_ref();
            let uuid = entry
                .and_then(|e| e.uuid.clone())
                .unwrap_or_else(|| derived_uuid(digest, canon));
            uuids.insert((*canon).clone(), uuid.clone());
            let email = entry.and_then(|e| e.email.clone());
            if let Some(e) = email.as_deref().filter(|e| !crate::rules::email_ok(e)) {
                findings.push(
                    Finding::new(
                        PackCode::EmailInvalid,
                        format!(
                            "signer `{}`: `{e}` (the signer map's) is not a valid email address",
                            p.written
                        ),
                    )
                    .at(pointer(&pointer(&pointer(at, "signatories"), i), "email"))
                    .file(file.clone())
                    .hint(format!(
                        "write it as name@domain.tld: {}, or {}; a name with no address has a space ({})",
                        self.surface.option(Opt::Signer, Some(&p.written), "name@example.com"),
                        self.surface.option(Opt::Signer, Some(&p.written), "Name <name@example.com>"),
                        self.surface.option(Opt::Signer, Some(&p.written), "First Last"),
                    )),
                );
            }
            if email.is_none() {
                summary.signers_without_email += 1;
                findings.push(
                    Finding::new(
                        PackCode::MigrateSignerUnmapped,
                        format!(
                            "signer `{}` has no email in the signer map: a signatory without an address (required before signature requests)",
                            p.written
                        ),
                    )
                    .at(pointer(&pointer(at, "signatories"), i))
                    .file(file.clone())
                    .hint(format!(
                        "add {} (or a [[signers]] entry with handle = \"{}\" in a signer file)",
                        self.surface.option(Opt::Signer, Some(&p.written), "EMAIL"),
                        p.written
                    )),
                );
            }
            signatories.push(V0Signatory {
                uuid: Some(uuid),
                role: Some(
                    entry
                        .and_then(|e| e.role.clone())
                        .unwrap_or_else(|| p.written.clone()),
                ),
                name: entry.and_then(|e| e.name.clone()),
                email,
                mobile_number: entry
                    .and_then(|e| e.mobile_number.clone())
                    .map_or(Nullable::Absent, Nullable::Value),
                ..V0Signatory::default()
            });
        }
        summary.signers = signatories.len();
        let data_fields: Vec<V0DataField> = fields
            .into_iter()
            .map(|(canon, mut f)| {
                f.signatory_uuid = uuids.get(&canon).cloned();
                f
            })
            .collect();
        summary.placed = data_fields.len();
        if data_fields.is_empty() {
            let why = if tags.is_empty() {
                "no vendor tag was found".to_string()
            } else {
                format!("all {} vendor tags were left out", tags.len())
            };
            findings.push(
                Finding::new(
                    PackCode::MigrateNoFields,
                    format!("{why}: nothing to migrate"),
                )
                .file(file.clone())
                .hint(format!(
                    "check {} (it must name the vendor the PDF was tagged for), or scan the file with {} to see every vendor's tags",
                    self.surface.name(Opt::Dialect),
                    self.surface.option(Opt::Dialect, None, "all"),
                )),
            );
        }
        findings.sort_by_key(|f| f.page.unwrap_or(usize::MAX));
        let failed = findings.iter().any(Finding::is_error);
        summary.failed = usize::from(failed);
        let plan = (!failed).then(|| Requests {
            requests: vec![Request {
                method: "POST".into(),
                path: "/v0/documents".into(),
                query: BTreeMap::new(),
                body: V0Document {
                    document_type: Some(
                        if self.template {
                            "template"
                        } else {
                            "document"
                        }
                        .into(),
                    ),
                    document_name: Some(name.to_string()),
                    signatories: Some(signatories),
                    data_fields: Some(data_fields),
                    ..V0Document::default()
                },
                upload: upload.map(str::to_string),
            }],
        });
        Migrated {
            plan,
            findings,
            summary,
            stripped: None,
        }
    }

    /// `migrate_signer_unknown` for each key of the signer map that names no
    /// signer of this PDF (`order`: its signers, canonical key first), by its
    /// key or by the role name a DocuSign anchor file gives it.
    fn unknown_signers(&self, order: &[(&String, &Party)], file: &str, out: &mut Vec<Finding>) {
        let known: Vec<&str> = order.iter().map(|(c, _)| c.as_str()).collect();
        let roles: Vec<String> = known
            .iter()
            .filter_map(|k| self.anchor_signers.get(k)?.role.as_deref())
            .map(signers::canonical)
            .collect();
        let written: Vec<&str> = order.iter().map(|(_, p)| p.written.as_str()).collect();
        let mut budget = crate::suggest::BUDGET;
        for e in self.signers.entries() {
            let canon = signers::canonical(&e.key);
            if known.contains(&canon.as_str()) || roles.contains(&canon) {
                continue;
            }
            let has = format!("this PDF's signers: {}", crate::suggest::list(&written));
            let hint = crate::suggest::closest(&canon, known.iter().copied(), &mut budget)
                .and_then(|best| known.iter().position(|k| *k == best))
                .and_then(|i| written.get(i))
                .map_or_else(
                    || has.clone(),
                    |best| format!("did you mean `{best}`? {has}"),
                );
            out.push(
                Finding::new(
                    PackCode::MigrateSignerUnknown,
                    format!(
                        "the signer map names `{}`, which is not a signer of this PDF: nobody would sign as them",
                        e.key
                    ),
                )
                .file(file)
                .hint(hint),
            );
        }
    }

    /// The service type of a tag, or `None` (reported) when it has none.
    fn service_type(&self, t: &VendorTag, file: &str, out: &mut Vec<Finding>) -> Option<String> {
        let kind = t.attributes.kind.as_str();
        if let Some(over) = self.overrides.get(kind) {
            return over.clone();
        }
        let row = type_row(kind);
        if let Some(s) = row.service {
            return Some(s.to_string());
        }
        out.push(located(
            Finding::new(
                PackCode::MigrateTypeUnmapped,
                format!(
                    "{} tag `{}` is of kind `{kind}` (written `{}`), which has no counterpart among the types the specification shows: {}; left out",
                    t.dialect.vendor(),
                    t.raw,
                    t.attributes.field_type,
                    row.reason
                ),
            )
            .hint(format!(
                "place it by hand, or {} if your account documents a type for it",
                self.surface.option(Opt::MapType, Some(kind), "TYPE")
            )),
            t,
            file,
        ));
        None
    }
}

enum SignerOf {
    Key(String),
    Sender(&'static str),
    Nobody,
}

/// Who completes a tag's field.
fn signer_of(t: &VendorTag) -> SignerOf {
    let a = &t.attributes;
    if a.signer
        .as_deref()
        .is_some_and(|s| s.eq_ignore_ascii_case("sender"))
    {
        return SignerOf::Sender("is filled by the sender");
    }
    if a.read_only {
        return SignerOf::Sender("is read-only");
    }
    match (a.signer_index, a.signer.as_deref()) {
        (Some(n), _) => SignerOf::Key(format!("signer{n}")),
        (None, Some(s)) if !s.trim().is_empty() => SignerOf::Key(s.trim().to_string()),
        _ => SignerOf::Nobody,
    }
}

/// The data field of a mapped tag (its signatory set later).
fn data_field(t: &VendorTag, service: String) -> V0DataField {
    let a = &t.attributes;
    let mut description = a.label.clone();
    if let Some(fmt) = a.extra.get("date_format") {
        description = Some(match description {
            Some(d) if d != *fmt => format!("{d} (date format {fmt})"),
            _ => format!("Date ({fmt})"),
        });
    }
    let choice = mapping::CHOICE_KINDS.contains(&a.kind.as_str());
    // Where the vendor places the field (its `field` box), else the tag's text.
    let place = t.field_box();
    V0DataField {
        custom_id: a
            .id
            .clone()
            .or_else(|| a.name.clone())
            .map_or(Nullable::Absent, Nullable::Value),
        data: match &a.default {
            Some(d) if service != "signature" => Nullable::Value(d.clone()),
            _ => Nullable::Absent,
        },
        kind: Some(service),
        required: Some(a.required),
        description: description.map_or(Nullable::Absent, Nullable::Value),
        // A plan never holds a number JSON cannot (serde_json writes `null`
        // for one); the scale is range-checked, so this guards a damaged file.
        x: finite(place.x),
        y: finite(place.y),
        width: finite(place.width),
        height: finite(place.height),
        options_as_csv: (choice && !a.options.is_empty()).then(|| a.options.join(",")),
        ..V0DataField::default()
    }
}

/// `v`, when it is finite.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// A finding about one tag: its file, page and raw text.
fn located(mut f: Finding, t: &VendorTag, file: &str) -> Finding {
    f.file = Some(file.to_string());
    f.page = Some(t.page);
    f.tag = Some(t.raw.clone());
    f.source.clone_from(&t.source);
    f
}

/// A UUID (version 4 layout) from the PDF's digest and the signer key.
fn derived_uuid(digest: &[u8; 32], key: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"signprep migrate signatory\0");
    h.update(digest);
    h.update(key.as_bytes());
    let d = h.finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&d[..16]);
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .to_string()
}

fn unreadable(file: &str, e: &signprep_core::Error) -> Migrated {
    Migrated {
        plan: None,
        findings: vec![Finding::unreadable(file, e).file(file)],
        summary: MigrateSummary {
            files: 1,
            failed: 1,
            ..MigrateSummary::default()
        },
        stripped: None,
    }
}

#[cfg(test)]
mod tests;
