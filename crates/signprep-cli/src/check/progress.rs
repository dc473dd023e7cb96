//! A progress bar on standard error, only when it is a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// `[=========>          ] 412/1000 files`, redrawn at most every 80 ms.
#[derive(Debug)]
pub struct Progress {
    enabled: bool,
    /// Output goes to the same terminal: the bar is erased before it is written.
    shares_terminal: bool,
    total: usize,
    done: usize,
    shown: bool,
    last: Option<Instant>,
}

impl Progress {
    /// A bar for `total` inputs; hidden unless stderr is a terminal.
    pub fn new(total: usize) -> Self {
        let enabled = std::io::stderr().is_terminal() && total > 1;
        Progress {
            enabled,
            shares_terminal: enabled && std::io::stdout().is_terminal(),
            total,
            done: 0,
            shown: false,
            last: None,
        }
    }

    /// Counts `n` more inputs done and redraws (or draws again after [`Progress::clear`]).
    pub fn advance(&mut self, n: usize) {
        self.done += n;
        let due = self
            .last
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(80));
        if !self.enabled || !(due || !self.shown || self.done >= self.total) {
            return;
        }
        let width = 30;
        let filled = (self.done * width)
            .checked_div(self.total)
            .unwrap_or(width)
            .min(width);
        let bar: String = (0..width)
            .map(|i| match i.cmp(&filled) {
                std::cmp::Ordering::Less => '=',
                std::cmp::Ordering::Equal => '>',
                std::cmp::Ordering::Greater => ' ',
            })
            .collect();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K[{bar}] {}/{} files", self.done, self.total);
        let _ = err.flush();
        self.shown = true;
        self.last = Some(Instant::now());
    }

    /// Erases the bar before output goes to the same terminal.
    pub fn clear(&mut self) {
        if self.shares_terminal {
            self.erase();
        }
    }

    /// Erases the bar for good.
    pub fn finish(&mut self) {
        self.erase();
    }

    fn erase(&mut self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.shown = false;
        }
    }
}
