//! The progress bar: stderr, only when it is a terminal and `--quiet` is not given.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// Files, pages and findings so far, rate and ETA; a no-op when hidden.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Suspend the bar while writing a record (stdout is the same terminal).
    suspend_for_output: bool,
    /// Count pages too (`scan`); `check`'s inputs are not all PDFs.
    count_pages: bool,
    pages: u64,
    findings: u64,
}

impl Progress {
    /// A bar over `total` files (a spinner when unknown), shown when `show`.
    pub fn new(show: bool, total: Option<usize>, stdout_is_terminal: bool) -> Progress {
        let bar = show.then(|| {
            let bar = ProgressBar::with_draw_target(
                total.map(|n| n as u64),
                ProgressDrawTarget::stderr_with_hz(10),
            );
            let template = if total.is_some() {
                "{spinner} {elapsed} [{bar:30}] {pos}/{len} files, {msg}, {per_sec:0}, ETA {eta}"
            } else {
                "{spinner} {elapsed} {pos} files, {msg}, {per_sec:0}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message("0 pages, 0 findings");
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            suspend_for_output: stdout_is_terminal,
            count_pages: true,
            pages: 0,
            findings: 0,
        }
    }

    /// No bar (a command that prints a line per file instead).
    pub fn hidden() -> Progress {
        Progress::new(false, None, false)
    }

    /// Findings only in the message, no pages.
    #[must_use]
    pub fn without_pages(mut self) -> Progress {
        self.count_pages = false;
        if let Some(bar) = &self.bar {
            bar.set_message("0 findings");
        }
        self
    }

    /// One more file done.
    pub fn file(&mut self, pages: usize, findings: usize) {
        if let Some(bar) = &self.bar {
            self.pages += pages as u64;
            self.findings += findings as u64;
            if self.count_pages {
                bar.set_message(format!("{} pages, {} findings", self.pages, self.findings));
            } else {
                bar.set_message(format!("{} findings", self.findings));
            }
            bar.inc(1);
        }
    }

    /// One input fewer to count: `check` found it in a folder and it is of no
    /// kind it checks (a `.json` that is neither a body nor a manifest), so it
    /// is skipped. The bar counts what is checked: 500 PDFs beside 500 other
    /// JSON files are `500/500`, not `1000/1000`.
    pub fn skipped(&mut self) {
        if let Some(bar) = &self.bar
            && bar.length().is_some()
        {
            bar.dec_length(1);
        }
    }

    /// Runs `f` (a write to stdout) with the bar out of the way when both share a terminal.
    pub fn around_output<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) if self.suspend_for_output => bar.suspend(f),
            _ => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shown bar, drawn nowhere.
    fn hidden(total: Option<usize>) -> Progress {
        let p = Progress::new(true, total, false).without_pages();
        if let Some(bar) = &p.bar {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        p
    }

    fn counts(p: &Progress) -> (u64, Option<u64>) {
        let bar = p.bar.as_ref().map(|b| (b.position(), b.length()));
        bar.unwrap_or((0, None))
    }

    #[test]
    fn skipped_inputs_leave_the_count_of_files_checked() {
        let mut p = hidden(Some(4));
        p.file(0, 2);
        p.skipped();
        p.file(0, 0);
        p.skipped();
        assert_eq!(counts(&p), (2, Some(2)));
    }

    #[test]
    fn skipped_inputs_of_an_unknown_total_are_not_counted() {
        let mut p = hidden(None);
        p.file(0, 0);
        p.skipped();
        assert_eq!(counts(&p), (1, None));
    }
}
