//! [`Outcome`]: what became of one item of a [`Stream`](super::Stream) run,
//! and [`Outcome::into_result`], the one place a failure becomes the core's
//! [`Error`] (from which every record of a failure is made).

use crate::error::{Error, GivenUp};
use std::time::Duration;

/// What became of one item.
#[derive(Debug)]
pub enum Outcome<T> {
    /// The work returned.
    Done(T),
    /// The work panicked (the message).
    Panicked(String),
    /// The watchdog gave up on it: the limit it had ([`Stream::watchdog`](super::Stream::watchdog),
    /// the configured value, never a measured time).
    Abandoned(Duration),
    /// Not run, or its result dropped: the run had given up on this many
    /// items before it, more than [`Stream::max_stuck`](super::Stream::max_stuck), and stopped starting
    /// items.
    NotStarted(usize),
}

impl<T> Outcome<T> {
    /// The work's result, or why there is none as the core's [`Error`]: a
    /// panic is an internal error ([`Error::internal`]: its text kept as the
    /// source, out of the message), an item given up on or not started is
    /// `pdf_limit_exceeded` ([`GivenUp`]), naming the watchdog's limit and
    /// `budget`, the time budget behind it. Every record of a failure is made
    /// from this error, so they read the same in every command.
    pub fn into_result(self, budget: Option<Duration>) -> Result<T, Error> {
        match self {
            Outcome::Done(t) => Ok(t),
            Outcome::Panicked(m) => Err(Error::internal(m)),
            Outcome::Abandoned(limit) => Err(Error::given_up(GivenUp::Watchdog { limit, budget })),
            Outcome::NotStarted(abandoned) => {
                Err(Error::given_up(GivenUp::NotStarted { abandoned }))
            }
        }
    }
}
