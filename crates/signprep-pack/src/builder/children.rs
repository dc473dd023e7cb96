//! Children: reading and scanning PDFs, detecting their kind, placing fields.

use super::{ChildInput, ChildSpec, FieldId, FieldSpec, PackBuilder, Signers};
use crate::codes::{Finding, PackCode, pointer};
use crate::datafields::NamePattern;
use crate::model::pack::{ChildDocument, PackDataField};
use crate::model::settings::{Base64Pdf, CreationSettings};
use crate::suggest::{list, lost};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use signprep_core::{Document, Scan};
use std::collections::{BTreeMap, BTreeSet};

/// The kind of a PDF child (detected from its scan unless set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PdfKind {
    /// `<# TAG #>` text tags: `extract_fields_by_tag`.
    TagSyntax,
    /// AcroForm fields: both form-field flags.
    FormField,
}

/// A PDF read and scanned.
pub(super) struct LoadedPdf {
    /// The path, or the name of bytes given in memory.
    pub label: String,
    pub bytes: Vec<u8>,
    pub scan: Scan,
}

/// Field patterns compiled once; `None` where the pattern is malformed (reported).
pub(super) type Patterns = Vec<Option<NamePattern>>;

impl PackBuilder {
    /// Compiles the glob patterns of `specs`, reporting malformed ones.
    pub(super) fn compile(
        specs: &[FieldSpec],
        at: Option<&str>,
        out: &mut Vec<Finding>,
    ) -> Patterns {
        specs
            .iter()
            .map(|s| match &s.id {
                FieldId::Exact(_) => None,
                FieldId::Pattern(p) => match NamePattern::new(p) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        let mut f = Finding::new(
                            PackCode::PatternInvalid,
                            format!(
                                "field pattern `{p}` {}",
                                crate::datafields::pattern_problem(&e)
                            ),
                        );
                        f.pointer = at.map(str::to_string);
                        out.push(f);
                        None
                    }
                },
            })
            .collect()
    }

    /// Reads (for a path), checks and scans a PDF; `None` after reporting why not.
    pub(super) fn load_pdf(
        &mut self,
        at: &str,
        input: ChildInput,
        name: Option<&str>,
        out: &mut Vec<Finding>,
    ) -> Option<LoadedPdf> {
        let (label, bytes) = match input {
            ChildInput::Path(p) => {
                let label = p.display().to_string();
                match crate::read::read_file(&p, self.load.max_file_bytes) {
                    Ok(b) => (label, b),
                    Err(e) => {
                        out.push(Finding::unreadable(&label, &e).at(at).file(label));
                        return None;
                    }
                }
            }
            ChildInput::Bytes(b) => (name.unwrap_or("(bytes)").to_string(), b),
            ChildInput::Named(p, b) => (p.display().to_string(), b),
            ChildInput::Template(_) | ChildInput::Url(_) => return None,
        };
        if let Some(format) = template_format(&label) {
            return self.load_template(at, label, &bytes, format, out);
        }
        let scan = Document::from_bytes(&bytes, &self.load).and_then(|doc| self.scanner.scan(&doc));
        match scan {
            Ok(scan) => {
                out.extend(
                    scan.diagnostics
                        .iter()
                        .map(|d| Finding::from_scan(d, at, &label)),
                );
                if let Some(kept) = self.kept.as_mut() {
                    kept.push((bytes.clone(), scan.clone()));
                }
                Some(LoadedPdf { label, bytes, scan })
            }
            Err(e) => {
                out.push(Finding::unreadable(&label, &e).at(at).file(label));
                None
            }
        }
    }

    /// A `.docx` or `.odt` child: converted by LibreOffice ([`PackBuilder::converter`]) and
    /// scanned as the PDF it becomes, its findings with their place in the template.
    fn load_template(
        &mut self,
        at: &str,
        label: String,
        bytes: &[u8],
        format: signprep_template::Format,
        out: &mut Vec<Finding>,
    ) -> Option<LoadedPdf> {
        let converter = match self.converter.as_deref().map(|c| c.get()) {
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                out.push(
                    Finding::file_error(
                        signprep_core::FileErrorCode::ConvertFailed,
                        format!("{label}: {e}"),
                    )
                    .at(at)
                    .file(label),
                );
                return None;
            }
            None => {
                out.push(
                    Finding::file_error(
                        signprep_core::FileErrorCode::ConvertFailed,
                        format!(
                            "{label} is a Word or OpenDocument template ({}), and this build was given no LibreOffice to convert it",
                            format.as_str()
                        ),
                    )
                    .at(at)
                    .file(label)
                    .hint("convert it to PDF first; or give LibreOffice: the command line finds it on PATH or --soffice, a server is started with --soffice, Python takes soffice="),
                );
                return None;
            }
        };
        let scanned = signprep_template::scan_template(
            label.clone(),
            bytes,
            format,
            converter,
            &self.load,
            &self.scanner,
        );
        let (Some(pdf), None) = (scanned.pdf, &scanned.record.error) else {
            let why = scanned
                .record
                .error
                .map_or_else(|| "no PDF was made".to_string(), |e| e.message);
            out.push(
                Finding::file_error(
                    signprep_core::FileErrorCode::ConvertFailed,
                    format!("{label}: {why}"),
                )
                .at(at)
                .file(label),
            );
            return None;
        };
        let scan = scanned.record.scan;
        out.extend(
            scan.diagnostics
                .iter()
                .map(|d| Finding::from_scan(d, at, &label)),
        );
        if let Some(kept) = self.kept.as_mut() {
            kept.push((pdf.clone(), scan.clone()));
        }
        Some(LoadedPdf {
            label,
            bytes: pdf,
            scan,
        })
    }

    /// One child of the v1 pack.
    pub(super) fn child(
        &mut self,
        i: usize,
        spec: ChildSpec,
        signers: &Signers,
        patterns: &Patterns,
        used: &mut [bool],
        out: &mut Vec<Finding>,
    ) -> Option<ChildDocument> {
        let at = format!("/documents/{i}");
        let ChildSpec {
            name,
            input,
            kind,
            fields,
            workspace_defaults,
        } = spec;
        let (name, settings, names) = match input {
            ChildInput::Template(key) => {
                if kind.is_some() {
                    out.push(kind_ignored(&at, "a template child"));
                }
                (name, CreationSettings::template(key), None)
            }
            ChildInput::Url(url) => {
                if kind == Some(PdfKind::TagSyntax) {
                    out.push(kind_ignored(&at, "a URL child (always form-field)"));
                }
                (name, CreationSettings::form_field_url(url), None)
            }
            input @ (ChildInput::Path(_) | ChildInput::Bytes(_) | ChildInput::Named(..)) => {
                let stem = match &input {
                    ChildInput::Path(p) | ChildInput::Named(p, _) => {
                        p.file_stem().map(|s| s.to_string_lossy().into_owned())
                    }
                    _ => None,
                };
                let pdf = self.load_pdf(&at, input, name.as_deref(), out)?;
                let kind = detect_kind(kind, &pdf, &at, out)?;
                let names = names_of(kind, &pdf.scan);
                let b64 = Base64Pdf::encode(&pdf.bytes);
                drop(pdf);
                let settings = match kind {
                    PdfKind::TagSyntax => CreationSettings::tag_syntax(b64),
                    PdfKind::FormField => CreationSettings::form_field(b64),
                };
                (name.or(stem), settings, names)
            }
        };
        let settings = match workspace_defaults.or(self.workspace_defaults) {
            Some(on) => settings.with_workspace_defaults(on),
            None => settings,
        };
        let own = Self::compile(&fields, Some(&pointer(&at, "data_fields")), out);
        let placed = self.place(&at, &fields, &own, names.as_deref(), patterns, used, out);
        let data_fields: Vec<PackDataField> = placed
            .iter()
            .enumerate()
            .map(|(j, (id, spec))| {
                let fat = format!("{at}/data_fields/{j}");
                Self::resolve_field(signers, spec, id, &fat, out)
            })
            .collect();
        Some(ChildDocument {
            document_name: name,
            document_creation_settings: settings,
            data_fields: (!data_fields.is_empty()).then_some(data_fields),
            key: None,
            serve_pdf_url: None,
            extra: BTreeMap::new(),
        })
    }

    /// The fields of one child, as `(custom_id, spec)`: its own fields, then the
    /// pack-wide ones that its tags or form fields (`names`, when known) include.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn place<'a>(
        &'a self,
        at: &str,
        own: &'a [FieldSpec],
        own_patterns: &Patterns,
        names: Option<&[String]>,
        patterns: &Patterns,
        used: &mut [bool],
        out: &mut Vec<Finding>,
    ) -> Vec<(String, &'a FieldSpec)> {
        let mut placed: Vec<(String, &FieldSpec)> = Vec::new();
        let mut seen = BTreeSet::new();
        for (k, spec) in own.iter().enumerate() {
            let fat = format!("{at}/data_fields");
            match (&spec.id, own_patterns.get(k).and_then(Option::as_ref)) {
                (FieldId::Exact(id), _) => {
                    if let Some(names) = names
                        && !names.contains(id)
                    {
                        let carries = spec.data.is_some()
                            || spec.signer.is_some()
                            || spec.signer_uuid.is_some();
                        let mut f = Finding::new(
                            PackCode::CustomIdNotInDocument,
                            format!(
                                "`{id}` is not a tag or form field of this document{}",
                                lost(carries)
                            ),
                        )
                        .at(pointer(&fat, placed.len()))
                        .hint(format!("the document has: {}", list(names)));
                        if !carries {
                            f.severity = signprep_core::Severity::Warning;
                        }
                        out.push(f);
                    }
                    if !seen.insert(id.clone()) {
                        out.push(
                            Finding::new(
                                PackCode::DataFieldDuplicate,
                                format!("`{id}` is given twice"),
                            )
                            .at(pointer(&fat, placed.len())),
                        );
                    }
                    placed.push((id.clone(), spec));
                }
                (FieldId::Pattern(p), compiled) => {
                    let Some(names) = names else {
                        out.push(
                            Finding::new(
                                PackCode::FieldPatternNeedsScan,
                                format!(
                                    "field pattern `{p}` needs a scanned PDF; this child has none"
                                ),
                            )
                            .at(fat),
                        );
                        continue;
                    };
                    let Some(c) = compiled else { continue };
                    let before = placed.len();
                    for n in names.iter().filter(|n| c.matches(n)) {
                        if seen.insert(n.clone()) {
                            placed.push((n.clone(), spec));
                        }
                    }
                    if placed.len() == before {
                        out.push(
                            Finding::new(
                                PackCode::FieldUnused,
                                format!("field pattern `{p}` matches nothing here"),
                            )
                            .at(fat),
                        );
                    }
                }
            }
        }
        let Some(names) = names else {
            return placed;
        };
        for (k, spec) in self.fields.iter().enumerate() {
            let hits: Vec<&String> = match (&spec.id, patterns.get(k).and_then(Option::as_ref)) {
                (FieldId::Exact(id), _) => names.iter().filter(|n| *n == id).take(1).collect(),
                (FieldId::Pattern(_), Some(c)) => names.iter().filter(|n| c.matches(n)).collect(),
                (FieldId::Pattern(_), None) => Vec::new(),
            };
            for n in hits {
                if let Some(u) = used.get_mut(k) {
                    *u = true;
                }
                if seen.insert(n.clone()) {
                    placed.push((n.clone(), spec));
                }
            }
        }
        placed
    }
}

fn kind_ignored(at: &str, what: &str) -> Finding {
    Finding::new(
        PackCode::CreationFlagUnexpected,
        format!("a PDF kind was set on {what}; it is ignored"),
    )
    .at(pointer(at, "document_creation_settings"))
}

/// The kind of a PDF child: as set, or detected (form fields win over tags).
fn detect_kind(
    set: Option<PdfKind>,
    pdf: &LoadedPdf,
    at: &str,
    out: &mut Vec<Finding>,
) -> Option<PdfKind> {
    let scan = &pdf.scan;
    let has_tags = scan.tags.iter().any(|t| t.valid);
    let found = |code: PackCode, msg: &str| {
        Finding::new(code, format!("{}: {msg}", pdf.label))
            .at(at)
            .file(pdf.label.clone())
    };
    match set {
        Some(PdfKind::TagSyntax) => {
            if !has_tags {
                out.push(found(
                    PackCode::DocumentWithoutTags,
                    "no valid `<# TAG #>` tag",
                ));
            }
            Some(PdfKind::TagSyntax)
        }
        Some(PdfKind::FormField) => {
            if scan.fields.is_empty() {
                out.push(found(PackCode::DocumentWithoutFormFields, "no form field"));
            }
            Some(PdfKind::FormField)
        }
        None if !scan.fields.is_empty() => {
            if !scan.tags.is_empty() {
                out.push(
                    found(
                        PackCode::DocumentHasTagsAndFields,
                        "both tags and form fields; sent as form-field",
                    )
                    .hint("set the kind to tag_syntax to use the tags"),
                );
            }
            Some(PdfKind::FormField)
        }
        None if !scan.tags.is_empty() => Some(PdfKind::TagSyntax),
        None => {
            out.push(
                found(
                    PackCode::DocumentKindUnknown,
                    "neither tags nor form fields",
                )
                .hint("set the kind (tag_syntax or form_field) if this is intended"),
            );
            None
        }
    }
}

/// What fields of a PDF child can be addressed: its valid tag ids, or its form
/// field names (`None` when the scan found no form field, so nothing is known).
pub(super) fn names_of(kind: PdfKind, scan: &Scan) -> Option<Vec<String>> {
    let mut seen = BTreeSet::new();
    let names: Vec<String> = match kind {
        PdfKind::TagSyntax => scan
            .tags
            .iter()
            .filter(|t| t.valid)
            .map(|t| t.tag_id.clone())
            .filter(|n| seen.insert(n.clone()))
            .collect(),
        PdfKind::FormField => scan
            .fields
            .iter()
            .map(|f| f.name.clone())
            .filter(|n| seen.insert(n.clone()))
            .collect(),
    };
    (kind == PdfKind::TagSyntax || !names.is_empty()).then_some(names)
}

/// The template format a child's path names (`.docx`, `.odt`), if any.
fn template_format(label: &str) -> Option<signprep_template::Format> {
    signprep_template::Format::from_path(std::path::Path::new(label))
}
