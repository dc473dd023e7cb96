//! Template bodies (`.docx`, `.odt`): which bodies are templates (by their
//! media type, or by their bytes when the type says nothing), and the
//! server's LibreOffice, looked for once at start-up and only when asked
//! (`--soffice`, `$SIGNPREP_SOFFICE`). A template is scanned and checked
//! through [`crate::templates`], as the command line does, so its record is
//! the CLI's; a server without LibreOffice answers it with the
//! `convert_failed` record (422) and serves PDFs as ever. A form's manifest
//! naming template parts (`/v1/check`, `/v1/pack`) has them converted by the
//! pack crate with the same converter ([`ServeTemplates::lazy`]).

use crate::args::ConvertArgs;
use crate::templates::Templates;
use signprep_core::{ErrorInfo, FileErrorCode, LoadOptions, Record, Scanner};
use signprep_template::convert::{LazyConverter, SOFFICE_ENV};
use signprep_template::{Format, Scanned};
use std::sync::Arc;

/// The media type of a Word document (`.docx`).
pub const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/// The media type of an OpenDocument text (`.odt`).
pub const ODT: &str = "application/vnd.oasis.opendocument.text";

/// The template a body is: by its media type (`media`, lower-cased, without
/// parameters), or, when the type says nothing of what it is
/// (`application/octet-stream`, none), by its bytes. `None`: not a template
/// (a PDF or a request body, as before).
pub fn body_format(media: Option<&str>, bytes: &[u8]) -> Option<Format> {
    match media {
        Some(DOCX) => Some(Format::Docx),
        Some(ODT) => Some(Format::Odt),
        None | Some("application/octet-stream") => Format::sniff(bytes),
        Some(_) => None,
    }
}

/// The server's templates: converted by [`Templates`] when LibreOffice was
/// asked for, refused in one message otherwise.
#[derive(Debug)]
pub struct ServeTemplates {
    /// `None`: no `--soffice` and no `$SIGNPREP_SOFFICE`; LibreOffice was not
    /// looked for.
    templates: Option<Templates>,
}

impl ServeTemplates {
    /// From `serve`'s options: LibreOffice is looked for now when `--soffice`
    /// or `$SIGNPREP_SOFFICE` names it (its absence is then each template's
    /// `convert_failed`, said once here). Returns the line to print at
    /// start-up, if any.
    pub fn start(args: &ConvertArgs) -> (ServeTemplates, Option<String>) {
        let asked =
            args.soffice.is_some() || std::env::var_os(SOFFICE_ENV).is_some_and(|v| !v.is_empty());
        if !asked {
            return (ServeTemplates { templates: None }, None);
        }
        let templates = Templates::new(args);
        let line = match templates.converter() {
            Ok(c) => format!(
                "templates (.docx, .odt): {} at {}, {} at once",
                c.version(),
                c.program().display(),
                args.convert_jobs.max(1)
            ),
            Err((e, _)) => format!(
                "warning: templates (.docx, .odt) will not be converted: {e}; PDFs are served as ever"
            ),
        };
        (
            ServeTemplates {
                templates: Some(templates),
            },
            Some(line),
        )
    }

    /// True when templates are converted (LibreOffice found and runnable).
    pub fn available(&self) -> bool {
        self.templates
            .as_ref()
            .is_some_and(|t| t.converter().is_ok())
    }

    /// The converter as the pack crate takes it, for a form manifest's `.docx`
    /// and `.odt` parts (`Checker::converter`): `None` when LibreOffice was not
    /// asked for (each such part is then its `convert_failed` finding, saying
    /// no LibreOffice was given); when asked for and missing, the same
    /// `convert_failed` finding `signprep check` gives without it.
    pub fn lazy(&self) -> Option<Arc<LazyConverter>> {
        self.templates.as_ref().map(Templates::lazy)
    }

    /// Scans one template body called `name`: its record (the CLI's for the
    /// same file) and its PDF; `convert_failed` when this server converts no
    /// templates.
    pub fn scanned(
        &self,
        name: String,
        bytes: &[u8],
        format: Format,
        options: &LoadOptions,
        scanner: &Scanner,
    ) -> Scanned {
        match &self.templates {
            Some(t) => t.scanned_bytes(name, bytes, format, options, scanner),
            None => Scanned {
                record: Record::failed(
                    name,
                    ErrorInfo::new(
                        FileErrorCode::ConvertFailed,
                        format!(
                            "this server converts no {} template: it was started without LibreOffice (start it with --soffice PATH, or {SOFFICE_ENV}=PATH); send the PDF instead",
                            format.as_str()
                        ),
                    ),
                ),
                pdf: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DOCX, ODT, body_format};
    use signprep_template::Format;

    #[test]
    fn a_body_is_a_template_by_its_type_or_when_the_type_says_nothing_by_its_bytes() {
        assert_eq!(body_format(Some(DOCX), b""), Some(Format::Docx));
        assert_eq!(body_format(Some(ODT), b"%PDF-1.7"), Some(Format::Odt));
        assert_eq!(body_format(Some("application/pdf"), b"PK\x03\x04"), None);
        assert_eq!(
            body_format(Some("application/octet-stream"), b"%PDF-1.7"),
            None
        );
        assert_eq!(body_format(None, b"%PDF-1.7"), None);
    }
}
