//! A template to a scan record: read its XML, convert it, scan the PDF, and join the two
//! (every tag's place in the source, the template findings, the round trip's). The one
//! way every front end (CLI, server, Python) scans a template.

use crate::convert::{Conversion, Converter};
use crate::{Format, Template, round_trip};
use signprep_core::{
    Converted, Document, ErrorInfo, FileErrorCode, LoadOptions, Record, Scan, Scanner,
};

/// What scanning a template gives: its record and, when it converted, the PDF (the bytes
/// that would be uploaded: `--keep-pdf`).
#[derive(Debug)]
pub struct Scanned {
    /// The record: `converted` set, tags with their `source`, the template findings first.
    pub record: Record,
    /// The PDF LibreOffice made, when it made one.
    pub pdf: Option<Vec<u8>>,
}

impl Scanned {
    /// The PDF that was made and its scan, for a front end that goes on with them
    /// (check, migrate, preview); else why there are none: the record's error (its code:
    /// `convert_failed`, or the scan's own for a PDF that would not scan), or
    /// `convert_failed` when no PDF was made.
    pub fn into_pdf(self) -> Result<(Vec<u8>, Scan), ErrorInfo> {
        match (self.pdf, self.record.error) {
            (Some(pdf), None) => Ok((pdf, self.record.scan)),
            (_, Some(e)) => Err(e),
            (None, None) => Err(ErrorInfo::new(
                FileErrorCode::ConvertFailed,
                "no PDF was made".to_string(),
            )),
        }
    }
}

/// Reads, converts and scans one template called `name` in records. Never fails: a template
/// that cannot be read or converted gives an error record (`convert_failed`), as a PDF that
/// cannot be read gives one.
pub fn scan_template(
    name: String,
    bytes: &[u8],
    format: Format,
    converter: &Converter,
    options: &LoadOptions,
    scanner: &Scanner,
) -> Scanned {
    let failed = |why: String| Scanned {
        record: Record::failed(
            name.clone(),
            ErrorInfo::new(FileErrorCode::ConvertFailed, why),
        ),
        pdf: None,
    };
    let template = match Template::read(bytes, format) {
        Ok(t) => t,
        Err(e) => {
            return failed(format!(
                "cannot read it as a {} template: {e}",
                format.as_str()
            ));
        }
    };
    let Conversion {
        pdf, pdf_sha256, ..
    } = match converter.convert(bytes, format) {
        Ok(c) => c,
        Err(e) => return failed(e.to_string()),
    };
    let result = Document::from_bytes(&pdf, options).and_then(|doc| scanner.scan(&doc));
    let mut record = Record::from_result(name, result);
    if let Some(e) = record.error.as_mut() {
        e.message = format!("the PDF LibreOffice made of it: {}", e.message);
    }
    record.converted = Some(Converted::new(
        format.as_str(),
        converter.version(),
        pdf_sha256,
    ));
    if record.error.is_none() {
        let dialects = scanner.dialects_read();
        round_trip(&template, dialects, &mut record.scan);
        // A finding of the PDF about a tag stands where the tag stands in the template.
        for d in &mut record.scan.diagnostics {
            if d.source.is_none()
                && let Some(tag) = &d.tag
            {
                let on_page = |p: usize| d.page.is_none_or(|q| q == p);
                d.source = record
                    .scan
                    .tags
                    .iter()
                    .find(|t| &t.tag_id == tag && on_page(t.page))
                    .and_then(|t| t.source.clone())
                    .or_else(|| {
                        record
                            .scan
                            .vendor_tags
                            .iter()
                            .flatten()
                            .find(|t| &t.raw == tag && on_page(t.page))
                            .and_then(|t| t.source.clone())
                    });
            }
        }
        let mut findings = template.findings(dialects);
        // A template finding about a tag the PDF has names its page there too.
        for d in &mut findings {
            if d.page.is_none()
                && let Some(place) = &d.source
            {
                d.page = record
                    .scan
                    .tags
                    .iter()
                    .filter_map(|t| Some((t.source.as_ref()?, t.page)))
                    .chain(
                        record
                            .scan
                            .vendor_tags
                            .iter()
                            .flatten()
                            .filter_map(|t| Some((t.source.as_ref()?, t.page))),
                    )
                    .find(|(s, _)| *s == place)
                    .map(|(_, p)| p);
            }
        }
        findings.append(&mut record.scan.diagnostics);
        record.scan.diagnostics = findings;
    }
    Scanned {
        record,
        pdf: Some(pdf),
    }
}
