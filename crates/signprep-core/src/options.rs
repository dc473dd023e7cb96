//! [`LoadOptions`]: every resource limit applied while loading and scanning
//! a document, with the reason for its default, and the [`Cancel`] flag.

use crate::error::Limit;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Resource limits applied while loading and scanning a document. The defaults
/// are generous for real documents and stop decompression bombs and deep nesting.
///
/// Reviewed against 500 real-world PDFs from public test suites (pdf.js,
/// qpdf, PyMuPDF, pypdf, PDF Association; issue 16): no file a viewer reads
/// hits a default. Each field says what the corpus showed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Largest input file, in bytes.
    pub max_file_bytes: u64,
    /// Most bytes one stream may inflate to.
    pub max_stream_bytes: usize,
    /// Most bytes all streams of one document may inflate to, together.
    pub max_document_bytes: usize,
    /// Most bytes of decoded streams one document keeps for reuse (Form
    /// XObjects, content streams several pages share), so that they are
    /// inflated once; past it, streams are inflated at every use.
    pub max_stream_cache_bytes: usize,
    /// Deepest array/dictionary nesting accepted: in any object read, and
    /// anywhere in the file when it must be loaded whole (damaged
    /// cross-reference data, encryption), since lopdf's parser recurses.
    /// Default 256: real files nest at most 8 levels (61 in a qpdf test of odd
    /// tokens); only fuzzing reproductions go past it, by 20,000 to 68,000
    /// levels, where no limit lopdf's recursion survives would help. A
    /// trailer nested past it is dropped and the file rebuilt from its
    /// objects (qpdf issue-202.pdf); an object nested past it is refused.
    pub max_nesting_depth: usize,
    /// Deepest chain of Form XObjects (`Do` inside `Do`).
    pub max_xobject_depth: usize,
    /// Most pages walked in the page tree (a page listed twice counts
    /// twice). The walk also reads at most 4 x this many `/Kids` entries in
    /// all, so a tree listing nodes over and over stops early. Default
    /// 100,000; the longest real file seen has 352 pages.
    pub max_pages: usize,
    /// Most content operators interpreted on one page (Form XObjects included);
    /// past it the rest of the page is skipped with a warning.
    pub max_operators_per_page: usize,
    /// Most glyphs recorded on one page; past it the rest of the page is skipped
    /// with a warning.
    pub max_glyphs_per_page: usize,
    /// Time allowed for loading and scanning one file (checked cooperatively);
    /// `None` for no limit.
    pub time_budget: Option<std::time::Duration>,
    /// Stops the work on the file early once raised, at the same points as
    /// the time budget (the file then fails with [`crate::Limit::Cancelled`]):
    /// for a caller whose answer is no longer wanted (`signprep serve` when
    /// the client hangs up). `None` (the default): never cancelled.
    pub cancel: Option<Cancel>,
    /// Most references followed to reach one object (`1 0 R` naming an object
    /// that is itself a reference, ...); a longer chain reads as missing.
    pub max_reference_chain: usize,
    /// Most distinct objects parsed for one document. Objects are parsed when
    /// the scan needs them; a file that needs more is refused. A file that
    /// must be loaded whole (damaged cross-reference data) is refused when it
    /// holds more.
    pub max_objects_resolved: usize,
    /// Deepest nesting of the page tree (`/Pages` nodes inside `/Pages` nodes).
    /// Default 256; the deepest real tree seen is a qpdf test of 108 levels.
    pub max_page_tree_depth: usize,
    /// Most entries in one `/Kids` array of the page tree.
    pub max_kids_per_node: usize,
    /// Spread the work inside one document over the rayon pool (parsing a
    /// long page tree's page dictionaries); on by default. Turn it off, with
    /// [`crate::Scanner::parallel_pages`], when files are already spread over
    /// the threads: nested, one file's work only draws the other threads
    /// away from the files waiting.
    pub parallel: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_file_bytes: 1 << 30,
            max_stream_bytes: 64 << 20,
            max_document_bytes: 512 << 20,
            // As large as one stream may be: a stream shared by every page
            // is inflated once, whatever its size.
            max_stream_cache_bytes: 64 << 20,
            max_nesting_depth: 256,
            max_xobject_depth: 16,
            max_pages: 100_000,
            max_operators_per_page: 20_000_000,
            max_glyphs_per_page: 4_000_000,
            time_budget: Some(std::time::Duration::from_secs(60)),
            cancel: None,
            max_reference_chain: 32,
            max_objects_resolved: 5_000_000,
            max_page_tree_depth: 256,
            max_kids_per_node: 100_000,
            parallel: true,
        }
    }
}

impl LoadOptions {
    /// These options with [`LoadOptions::parallel`] set.
    #[must_use]
    pub fn parallel(mut self, yes: bool) -> Self {
        self.parallel = yes;
        self
    }

    /// These options with [`LoadOptions::cancel`] set.
    #[must_use]
    pub fn cancel(mut self, cancel: Cancel) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// The limit that stops work begun at `started` now: the cancel flag
    /// raised, or the time budget used up. The one check of both.
    #[inline]
    pub(crate) fn out_of_time(&self, started: Instant) -> Option<Limit> {
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Some(Limit::Cancelled);
        }
        match self.time_budget {
            Some(budget) if started.elapsed() > budget => Some(Limit::Time { budget }),
            _ => None,
        }
    }
}

/// A flag that cancels the work on a document ([`LoadOptions::cancel`]):
/// cheap to clone (every clone raises and reads the same flag), raised once,
/// never lowered. Two are equal when they are the same flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not raised.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Raises the flag: work that carries it stops at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once raised.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A flag shared with another use (a [`crate::batch::Stream`]'s stop flag).
impl From<Arc<AtomicBool>> for Cancel {
    fn from(flag: Arc<AtomicBool>) -> Cancel {
        Cancel(flag)
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
