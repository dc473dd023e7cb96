//! The fatal errors of one document: typed, in signprep's words, each with
//! what went wrong and where (the object, when known), and the underlying
//! error of a dependency kept as [`std::error::Error::source`], never as part
//! of the message (a user reads signprep's words, not a library's).
#![allow(clippy::disallowed_types)] // wraps lopdf's error as a source

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a document could not be loaded or scanned at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read (missing, a folder, no permission...):
    /// `cannot read: WHY`, WHY the system's reason in our words
    /// ([`crate::io_reason`]).
    #[error("cannot read: {}", crate::io_reason(.0))]
    Io(#[from] std::io::Error),
    /// The file is encrypted and does not open with an empty user password.
    #[error("{0}")]
    Encrypted(Encryption),
    /// The bytes are not a PDF that can be made sense of.
    #[error("not a readable PDF: {what}")]
    Unreadable {
        /// What could not be read.
        what: Unreadable,
        /// The underlying error, when a dependency reported it.
        #[source]
        cause: Option<Cause>,
    },
    /// A resource limit of [`crate::LoadOptions`] was hit (a decompression
    /// bomb, say); the message names the limit, and the page when one page
    /// hit it.
    #[error("resource limit exceeded: {}", on_page(.limit, *.page))]
    LimitExceeded {
        /// Which limit, and its value.
        limit: Limit,
        /// The page (0-based) whose content hit it, when the limit is one of
        /// a single stream on that page.
        page: Option<usize>,
        /// The underlying error, when a dependency reported the limit.
        #[source]
        cause: Option<Cause>,
    },
    /// A bug: signprep (or a library it uses) panicked on this file. The
    /// panic's own text is the source.
    #[error(
        "internal error (please report it with the file): signprep stopped on an unexpected state"
    )]
    Internal {
        /// What the panic said.
        #[source]
        cause: Cause,
    },
    /// The batch engine ([`crate::batch::Stream`]) gave up on the file, or
    /// never started it: `pdf_limit_exceeded`, like the limits the file hit
    /// itself.
    #[error("{0}")]
    GivenUp(GivenUp),
}

/// Why the batch engine has no result for a file (see [`ErrorKind::GivenUp`]):
/// the configured values, never a measured time, so two runs give the same record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GivenUp {
    /// No result within the watchdog's limit.
    #[error(
        "no result within the {:.1} s watchdog{}: the file was given up on and the batch went on",
        .limit.as_secs_f64(),
        .budget.map_or(String::new(), |b| format!(" (time budget {:.1} s)", b.as_secs_f64()))
    )]
    Watchdog {
        /// The watchdog's limit.
        limit: std::time::Duration,
        /// The time budget behind it, when there is one.
        budget: Option<std::time::Duration>,
    },
    /// Not started: the run had given up on this many files before it, more
    /// than it replaces ([`crate::batch::Stream::max_stuck`]).
    #[error(
        "not scanned: the batch stopped starting files after the watchdog gave up on {abandoned} (each one holds a thread for good); scan it in a run of its own"
    )]
    NotStarted {
        /// Files given up on before it.
        abandoned: usize,
    },
}

/// `limit`, after `page N: ` when a page hit it.
fn on_page(limit: &Limit, page: Option<usize>) -> String {
    match page {
        Some(p) => format!("page {}: {limit}", p + 1),
        None => limit.to_string(),
    }
}

/// A resource limit of [`crate::LoadOptions`] (or of the walk) that stopped a
/// document, with the value that was exceeded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Limit {
    /// The file is larger than [`crate::LoadOptions::max_file_bytes`].
    #[error("file is {bytes} bytes, more than the limit of {limit}")]
    FileSize {
        /// Its size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// Bytes in memory larger than [`crate::LoadOptions::max_file_bytes`].
    #[error("input is {bytes} bytes, more than the limit of {limit}")]
    InputSize {
        /// Their size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// [`crate::LoadOptions::time_budget`] was used up.
    #[error("the file took longer than {:.1} s to scan (time_budget)", .budget.as_secs_f64())]
    Time {
        /// The budget.
        budget: std::time::Duration,
    },
    /// [`crate::LoadOptions::cancel`] was raised: the caller no longer wants
    /// the result (never reported as a file's outcome by signprep itself).
    #[error("the work on the file was cancelled before it ended")]
    Cancelled,
    /// One stream inflates past [`crate::LoadOptions::max_stream_bytes`].
    #[error("a stream inflates to more than {limit} bytes")]
    StreamBytes {
        /// The limit.
        limit: usize,
    },
    /// One stream names more filters than are applied.
    #[error("a stream names too many filters")]
    Filters,
    /// The document's streams inflate past
    /// [`crate::LoadOptions::max_document_bytes`].
    #[error("the document's streams inflate to more than {limit} bytes")]
    DocumentBytes {
        /// The limit.
        limit: usize,
    },
    /// A file loaded whole holds more than
    /// [`crate::LoadOptions::max_objects_resolved`] objects.
    #[error("the document holds more than {limit} objects (max_objects_resolved)")]
    ObjectsHeld {
        /// The limit.
        limit: usize,
    },
    /// A scan read on demand needs more than
    /// [`crate::LoadOptions::max_objects_resolved`] objects.
    #[error("the document needs more than {limit} objects (max_objects_resolved)")]
    ObjectsNeeded {
        /// The limit.
        limit: usize,
    },
    /// Arrays and dictionaries nest deeper than
    /// [`crate::LoadOptions::max_nesting_depth`].
    #[error("objects nest more than {limit} levels deep (max_nesting_depth)")]
    Nesting {
        /// The limit.
        limit: usize,
    },
    /// The page tree nests deeper than
    /// [`crate::LoadOptions::max_page_tree_depth`].
    #[error("the page tree is nested more than {limit} levels deep (max_page_tree_depth)")]
    PageTreeDepth {
        /// The limit.
        limit: usize,
    },
    /// More pages than [`crate::LoadOptions::max_pages`].
    #[error("the document has more than {limit} pages")]
    Pages {
        /// The limit.
        limit: usize,
    },
    /// The page tree lists more kids than [`crate::LoadOptions::max_pages`].
    #[error("the page tree lists more than {limit} kids (max_pages)")]
    Kids {
        /// The limit.
        limit: usize,
    },
    /// One page tree node lists more kids than
    /// [`crate::LoadOptions::max_kids_per_node`].
    #[error("a page tree node lists more than {limit} kids (max_kids_per_node)")]
    KidsPerNode {
        /// The limit.
        limit: usize,
    },
    /// The walk read more kid entries in all than `per_page` x
    /// [`crate::LoadOptions::max_pages`] (nodes listed again and again).
    #[error(
        "the page tree lists more than {most} kids in all, counting nodes listed again ({per_page} x max_pages)"
    )]
    KidsInAll {
        /// The limit.
        most: usize,
        /// Kid entries allowed per page.
        per_page: usize,
    },
    /// The AcroForm field tree nests deeper than the walk follows.
    #[error("the AcroForm field tree is nested more than {limit} levels deep")]
    FieldTreeDepth {
        /// The limit.
        limit: usize,
    },
}

/// Why an encrypted file is not opened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Encryption {
    /// The empty password is not the user password: opening the file needs one.
    #[error(
        "the PDF is encrypted with a user password (standard security handler, revision {revision}); signprep only opens files whose user password is empty"
    )]
    UserPassword {
        /// `/R` of the `/Encrypt` dictionary.
        revision: i64,
    },
    /// A security handler other than the standard one (`/Adobe.PubSec`:
    /// certificates), which needs what signprep does not have.
    #[error(
        "the PDF is encrypted by the /{name} security handler; signprep only opens files of the standard (password) handler whose user password is empty"
    )]
    Handler {
        /// The handler's name (`/Filter` of the `/Encrypt` dictionary).
        name: String,
    },
    /// The standard handler, by a method or with entries signprep does not read.
    #[error("the PDF is encrypted by a method signprep does not read: {what}")]
    Unsupported {
        /// What is not read.
        what: String,
    },
    /// Encrypted, and damaged so that it cannot be decrypted (its
    /// cross-reference data rebuilt, or its `/Encrypt` dictionary unreadable).
    #[error(
        "the PDF is encrypted and damaged (its cross-reference data or encryption dictionary cannot be read as written); signprep does not decrypt it"
    )]
    Damaged,
    /// The trailer's `/Encrypt` names an object the file holds but that does
    /// not read as a dictionary: the file is encrypted, but how cannot be
    /// known, so nothing true can be said about its text.
    #[error(
        "the PDF is encrypted, but its encryption dictionary (object {num} {generation}) is damaged; its text cannot be decrypted"
    )]
    DamagedDictionary {
        /// Object number of the `/Encrypt` dictionary.
        num: u32,
        /// Its generation number.
        generation: u16,
    },
}

/// What made a file unreadable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unreadable {
    /// No bytes at all.
    #[error("the file is empty")]
    Empty,
    /// No `%PDF-` header where one must be.
    #[error("no %PDF- header in the first 1024 bytes: this is not a PDF file")]
    NotPdf,
    /// The cross-reference data is damaged and the file could not be rebuilt
    /// from its objects either.
    #[error("its cross-reference data is damaged and the file cannot be rebuilt from its objects")]
    CrossReference,
    /// The object at a byte offset does not parse.
    #[error("the object at byte offset {offset} cannot be parsed")]
    ObjectAt {
        /// Where it starts.
        offset: usize,
    },
    /// An object the structure needs does not exist.
    #[error("object {num} {generation} is missing")]
    MissingObject {
        /// Object number.
        num: u32,
        /// Generation number.
        generation: u16,
    },
    /// Objects refer to each other in a cycle where a value is needed.
    #[error("object {num} {generation} refers back to itself")]
    ReferenceCycle {
        /// Object number.
        num: u32,
        /// Generation number.
        generation: u16,
    },
    /// A cross-reference or object stream does not decode.
    #[error("a cross-reference or object stream does not decode")]
    StructureStream,
    /// A cross-reference or object stream uses a filter signprep does not decode.
    #[error("a cross-reference or object stream uses a filter signprep does not decode")]
    StructureFilter,
    /// The syntax cannot be parsed.
    #[error("its syntax cannot be parsed")]
    Syntax,
    /// The trailer's `/Root` names an object that is not a catalog.
    #[error(
        "the trailer's /Root points to object {num} {generation}, which is not a document catalog"
    )]
    NotCatalog {
        /// Object number.
        num: u32,
        /// Generation number.
        generation: u16,
    },
    /// The trailer names no document catalog (`/Root`).
    #[error("the trailer has no /Root (document catalog)")]
    NoCatalog,
    /// The trailer's `/Root` names an object that is missing or no dictionary.
    #[error("the document catalog (/Root) is missing or not a dictionary")]
    CatalogMissing,
    /// Cycles in the page tree hide pages that its top node's `/Count`
    /// declares: the file is not the document it says it is.
    #[error(
        "the page tree has a cycle that hides pages: {damage}; its /Count declares {declared} pages and only {reached} can be reached"
    )]
    PagesHidden {
        /// What the walk cut and skipped.
        damage: PageTreeDamage,
        /// The page count the top node declares (rounded up).
        declared: u64,
        /// The pages the walk reached.
        reached: usize,
    },
    /// No page can be read: the page tree gives none (`pages_tree`: whether
    /// the catalog has one; `damage`: what its walk skipped) and no object of
    /// the file is a `/Type /Page`.
    #[error(
        "the document has no readable page: {}, and no object of the file is a /Type /Page",
        no_page_why(*pages_tree, damage.as_ref())
    )]
    NoPage {
        /// Whether the catalog has a `/Pages` tree.
        pages_tree: bool,
        /// What the walk of that tree skipped, if anything.
        damage: Option<PageTreeDamage>,
    },
    /// The AcroForm field tree has a cycle: a field is its own ancestor.
    #[error(
        "the AcroForm field tree has a cycle (field object {num} {generation} is its own ancestor through /Kids)"
    )]
    FieldCycle {
        /// Object number of the field met again.
        num: u32,
        /// Its generation number.
        generation: u16,
    },
    /// Damaged in a way not listed above.
    #[error("the file is damaged beyond what signprep repairs")]
    Damaged,
}

/// Why no page could be read ([`Unreadable::NoPage`]).
fn no_page_why(pages_tree: bool, damage: Option<&PageTreeDamage>) -> String {
    match (pages_tree, damage) {
        (false, _) => "the document catalog has no /Pages tree".to_string(),
        (true, Some(d)) => format!("its page tree gives no page ({d})"),
        (true, None) => "its page tree gives no page".to_string(),
    }
}

/// An object's number and generation.
type Id = (u32, u16);

/// What a walk of the page tree skipped: nodes listed inside themselves (a
/// cycle, cut there) and kids that are missing or neither a page nor a node,
/// each with the first one met and the node whose `/Kids` lists it. Its
/// `Display` says it in words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageTreeDamage {
    /// Nodes listed inside themselves.
    pub(crate) cycles: usize,
    /// The first of them, and the node listing it (`None`: the top node).
    pub(crate) first_cycle: Option<(Id, Option<Id>)>,
    /// Kids missing or neither a page nor a node.
    pub(crate) dangling: usize,
    /// The first of them (`None`: a kid that is no reference), and the node
    /// listing it (`None`: a node written in `/Kids`).
    pub(crate) first_dangling: Option<(Option<Id>, Option<Id>)>,
}

impl PageTreeDamage {
    /// How many nodes were listed inside themselves (cut there).
    pub fn cycles(&self) -> usize {
        self.cycles
    }

    /// How many kids were missing or neither a page nor a node (skipped).
    pub fn dangling(&self) -> usize {
        self.dangling
    }
}

impl fmt::Display for PageTreeDamage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let obj = |(num, generation): Id| format!("object {num} {generation}");
        let count = |n: usize, one: &str, many: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        };
        let mut parts = Vec::new();
        if let Some((node, parent)) = self.first_cycle {
            parts.push(format!(
                "{} listed inside itself (a cycle; first: {} in the /Kids of {}), cut there",
                count(self.cycles, "node is", "nodes are"),
                obj(node),
                parent.map_or("the top node".to_string(), obj),
            ));
        }
        if let Some((kid, parent)) = self.first_dangling {
            parts.push(format!(
                "{} missing or not a page or node (first: {} in the /Kids of {}), skipped",
                count(self.dangling, "kid is", "kids are"),
                kid.map_or("a kid that is not a reference".to_string(), obj),
                parent.map_or("a node written in /Kids".to_string(), obj),
            ));
        }
        f.write_str(&parts.join("; "))
    }
}

/// The underlying error of a fatal error: a dependency's report, or a
/// panic's text. Shown only as [`std::error::Error::source`].
#[derive(Clone)]
pub struct Cause(Arc<dyn std::error::Error + Send + Sync + 'static>);

impl Cause {
    pub(crate) fn new(e: impl std::error::Error + Send + Sync + 'static) -> Cause {
        Cause(Arc::new(e))
    }

    fn text(text: String) -> Cause {
        #[derive(Debug)]
        struct Text(String);
        impl fmt::Display for Text {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl std::error::Error for Text {}
        Cause(Arc::new(Text(text)))
    }
}

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Cause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// A fatal error for one document, naming the file when there is one.
#[derive(Debug)]
pub struct Error {
    path: Option<PathBuf>,
    kind: ErrorKind,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Error { path: None, kind }
    }

    /// The document's structure cannot be read, for a typed reason.
    pub(crate) fn unreadable(what: Unreadable) -> Self {
        Error::new(ErrorKind::Unreadable { what, cause: None })
    }

    /// An unreadable file, for a typed reason and the dependency's error behind it.
    pub(crate) fn unreadable_by(what: Unreadable, cause: Option<Cause>) -> Self {
        Error::new(ErrorKind::Unreadable { what, cause })
    }

    pub(crate) fn encrypted(why: Encryption) -> Self {
        Error::new(ErrorKind::Encrypted(why))
    }

    /// A limit hit by the document as a whole.
    pub(crate) fn limit(limit: Limit) -> Self {
        Error::new(ErrorKind::LimitExceeded {
            limit,
            page: None,
            cause: None,
        })
    }

    /// A file of `bytes` bytes, over the file-size limit `limit`
    /// ([`crate::LoadOptions::max_file_bytes`]): for a caller that reads the
    /// file itself (the pack crate's PDFs named in a body or manifest).
    pub fn file_too_large(bytes: u64, limit: u64) -> Self {
        Error::limit(Limit::FileSize { bytes, limit })
    }

    /// A limit hit by a stream of page `page` (0-based).
    pub(crate) fn limit_on_page(limit: Limit, page: usize) -> Self {
        Error::new(ErrorKind::LimitExceeded {
            limit,
            page: Some(page),
            cause: None,
        })
    }

    /// The same error again, for a document that reports it more than once
    /// (an I/O error, which cannot be copied, becomes an internal error).
    pub(crate) fn replica(&self) -> Error {
        let kind = match &self.kind {
            ErrorKind::Io(e) => ErrorKind::Internal {
                cause: Cause::text(e.to_string()),
            },
            ErrorKind::Encrypted(e) => ErrorKind::Encrypted(e.clone()),
            ErrorKind::Unreadable { what, cause } => ErrorKind::Unreadable {
                what: what.clone(),
                cause: cause.clone(),
            },
            ErrorKind::LimitExceeded { limit, page, cause } => ErrorKind::LimitExceeded {
                limit: limit.clone(),
                page: *page,
                cause: cause.clone(),
            },
            ErrorKind::Internal { cause } => ErrorKind::Internal {
                cause: cause.clone(),
            },
            ErrorKind::GivenUp(g) => ErrorKind::GivenUp(g.clone()),
        };
        Error {
            path: self.path.clone(),
            kind,
        }
    }

    /// An internal error (a caught panic); `msg`, the panic's text, is kept
    /// as the source, not shown in the message.
    pub fn internal(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Internal {
            cause: Cause::text(msg.into()),
        })
    }

    /// The batch engine gave up on the file, or never started it.
    pub fn given_up(why: GivenUp) -> Self {
        Error::new(ErrorKind::GivenUp(why))
    }

    /// The same error, naming a file.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// The file concerned, when known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The stable code of this error, as written in error records and in
    /// every command's finding about this file.
    pub fn file_code(&self) -> FileErrorCode {
        match self.kind {
            ErrorKind::Io(_) => FileErrorCode::IoError,
            ErrorKind::Encrypted(_) => FileErrorCode::PdfEncrypted,
            ErrorKind::Unreadable { .. } => FileErrorCode::PdfUnreadable,
            ErrorKind::LimitExceeded { .. } | ErrorKind::GivenUp(_) => {
                FileErrorCode::PdfLimitExceeded
            }
            ErrorKind::Internal { .. } => FileErrorCode::InternalError,
        }
    }

    /// [`Error::file_code`]'s snake_case name.
    pub fn code(&self) -> &'static str {
        self.file_code().as_str()
    }

    /// The message without the path.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}: {}", p.display(), self.kind),
            None => self.kind.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(e))
    }
}

/// The error for a file lopdf could not load, in signprep's words, with
/// lopdf's error as the source.
pub(crate) fn from_lopdf(e: lopdf::Error) -> Error {
    use lopdf::Error as L;
    let what = match &e {
        L::InvalidPassword | L::Decryption(_) => return Error::encrypted(Encryption::Damaged),
        L::UnsupportedSecurityHandler(name) => {
            return Error::encrypted(Encryption::Handler {
                name: String::from_utf8_lossy(name).into_owned(),
            });
        }
        L::Decompress(lopdf::DecompressError::MemoryLimitExceeded { limit }) => {
            let limit = Limit::StreamBytes { limit: *limit };
            return Error::new(ErrorKind::LimitExceeded {
                limit,
                page: None,
                cause: Some(Cause::new(e)),
            });
        }
        L::Unimplemented(_) => Unreadable::StructureFilter,
        L::Decompress(_) | L::InvalidStream(_) | L::InvalidObjectStream(_) => {
            Unreadable::StructureStream
        }
        L::Xref(_) | L::MissingXrefEntry | L::InvalidOffset(_) | L::ObjectIdMismatch => {
            Unreadable::CrossReference
        }
        L::IndirectObject { offset } => Unreadable::ObjectAt { offset: *offset },
        L::ObjectNotFound((num, generation)) => Unreadable::MissingObject {
            num: *num,
            generation: *generation,
        },
        L::ReferenceCycle((num, generation)) => Unreadable::ReferenceCycle {
            num: *num,
            generation: *generation,
        },
        L::Parse(_) | L::Syntax(_) | L::CharacterEncoding | L::TextStringDecode => {
            Unreadable::Syntax
        }
        _ => Unreadable::Damaged,
    };
    Error::unreadable_by(what, Some(Cause::new(e)))
}

crate::codes! {
    /// A code of a file that could not be read at all: the `error.code` of an
    /// error record (`signprep scan`, `check`, `report`, the Python package's
    /// exceptions) and the code of the finding `check`, `pack` and `migrate`
    /// report for a PDF they cannot read. One condition, one code, in every
    /// command: these come from the core's typed [`Error`] ([`Error::file_code`]).
    pub enum FileErrorCode {
        /// The bytes are not a PDF that can be made sense of (no `%PDF-` header,
        /// no cross-reference data and nothing to rebuild it from, a broken page
        /// tree). No tag or field can be found.
        PdfUnreadable => "pdf_unreadable", Error;
        /// The PDF is encrypted and does not open with an empty user password (the empty
        /// password opening it as its owner does not count), or is encrypted for certificates
        /// (`/Adobe.PubSec`) or by another security handler; the message says which. signprep
        /// does not ask for passwords. The service cannot read it either: remove the password.
        PdfEncrypted => "pdf_encrypted", Error;
        /// A resource limit was hit: a file larger than the file-size limit, a stream
        /// inflating past its limit (a decompression bomb), absurd nesting, too many pages
        /// or operators, or the time budget. The file is refused rather than scanned
        /// partly. In a batch, a file still running at twice its time budget plus 5 s (code
        /// that never checks the budget) is given up on by the watchdog and the batch goes
        /// on; after more than 8 such files the batch stops starting files, and each file
        /// after the last one given up on gets this code too.
        PdfLimitExceeded => "pdf_limit_exceeded", Error;
        /// The file could not be read (missing, a permission, a folder that cannot be
        /// listed). `signprep check` and `signprep scan` exit with status 2 for an input
        /// they cannot read; a PDF named inside a body or manifest that cannot be read is
        /// an error-level finding with this code.
        IoError => "io_error", Error;
        /// signprep (or a library it uses) failed on this file: a bug. The run goes on
        /// with the next file; please report it with the file.
        InternalError => "internal_error", Error;
        /// A Word or OpenDocument input (`.docx`, `.odt`) could not be turned into a
        /// PDF: LibreOffice refused it (not a document it reads, damaged, protected by
        /// a password), gave no PDF, or ran past its time limit (`--convert-timeout`).
        /// The message says which, with what LibreOffice wrote where it helps. The
        /// run goes on with the next file. Open the file in LibreOffice Writer to see
        /// what it makes of it; save it again as `.docx` or `.odt`.
        ConvertFailed => "convert_failed", Error;
    }
}

impl fmt::Display for FileErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for FileErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests;
