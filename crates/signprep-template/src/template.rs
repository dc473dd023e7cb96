//! [`Template`]: a template read, its paragraphs, tags and findings.

use crate::archive::{Archive, Limits};
use crate::error::{TemplateError, TemplateErrorKind};
use crate::findings::{autocorrected, tag_findings};
use crate::format::Format;
use crate::model::Paragraph;
use crate::tags::{SourceTag, locate};
use crate::{docx, odt};
use signprep_core::{Diagnostic, Dialects};

/// A Word or OpenDocument template, read: its paragraphs in reading order
/// (body, then headers, footers, footnotes, endnotes and comments; a text
/// box's paragraphs before the paragraph it is anchored in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    format: Format,
    paragraphs: Vec<Paragraph>,
}

impl Template {
    /// Reads a template's bytes as `format`, within the default [`Limits`]
    /// (256 MiB inflated, 10,000 zip entries), XML nested at most 256 deep
    /// and a million paragraphs. Never panics on any input.
    pub fn read(bytes: &[u8], format: Format) -> Result<Template, TemplateError> {
        Template::read_with(bytes, format, Limits::default())
    }

    /// [`Template::read`] within other limits than the default ones.
    pub fn read_with(
        bytes: &[u8],
        format: Format,
        limits: Limits,
    ) -> Result<Template, TemplateError> {
        let mut ar = Archive::open(bytes, limits)?;
        let collected = match format {
            Format::Docx => {
                if !ar.has("word/document.xml") && ar.has("content.xml") {
                    return Err(TemplateError::new(
                        TemplateErrorKind::NotTemplate,
                        "the file is an OpenDocument file, not a Word document: name it .odt",
                    ));
                }
                docx::read(&mut ar)?
            }
            Format::Odt => {
                if !ar.has("content.xml") && ar.has("word/document.xml") {
                    return Err(TemplateError::new(
                        TemplateErrorKind::NotTemplate,
                        "the file is a Word document, not an OpenDocument text: name it .docx",
                    ));
                }
                odt::read(&mut ar)?
            }
        };
        Ok(Template {
            format,
            paragraphs: collected.done,
        })
    }

    /// The format it was read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Every paragraph, in reading order.
    pub fn paragraphs(&self) -> &[Paragraph] {
        &self.paragraphs
    }

    /// Every tag, native and of the requested `dialects`, in reading order.
    pub fn tags(&self, dialects: Dialects) -> Vec<SourceTag> {
        locate(&self.paragraphs, dialects)
            .into_iter()
            .map(|l| l.tag)
            .collect()
    }

    /// The template's findings (`template_tag_format_changes`,
    /// `template_tag_in_revision`, `template_tag_hidden`,
    /// `template_tag_autocorrected`), in reading order, each with its
    /// [`signprep_core::SourcePlace`].
    pub fn findings(&self, dialects: Dialects) -> Vec<Diagnostic> {
        let located = locate(&self.paragraphs, dialects);
        let mut out = Vec::new();
        let mut next = located.iter().peekable();
        for p in &self.paragraphs {
            while let Some(l) = next.next_if(|l| std::ptr::eq(l.paragraph, p)) {
                tag_findings(l, &mut out);
            }
            autocorrected(p, dialects, &mut out);
        }
        out
    }
}
