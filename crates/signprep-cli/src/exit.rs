//! How a command ends: [`ExitStatus`], the process's exit status (the
//! contract scripts and CI gates rely on; `signprep serve` answers with HTTP
//! statuses of its own and uses this only for the process), and the one
//! last line on stderr that says why it is not 0: [`fail`] for one reason,
//! [`crate::batch::Summary`] for a run's inputs and the reasons a command
//! gathers as it runs (`preview`'s).

use std::process::ExitCode;

/// The exit status of a command, as ruff's: the variants are ordered, so the
/// worst of several problems is their [`Ord::max`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// 0: done, nothing error-level found.
    #[default]
    Success,
    /// 1: error-level findings (or an input that could not be scanned,
    /// panicked, or that the watchdog gave up on).
    Failure,
    /// 2: a usage or I/O error (an argument, an unreadable input, an output
    /// that cannot be written).
    Error,
    /// 130: stopped by Ctrl-C or SIGTERM (128 + SIGINT).
    Interrupted,
}

impl ExitStatus {
    /// The number the process exits with.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
            ExitStatus::Interrupted => 130,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(status.code())
    }
}

/// Ends a command that failed: its reason as the last line on stderr,
/// `error: ...`, and the exit status to return.
pub fn fail(message: &str, status: ExitStatus) -> ExitStatus {
    eprintln!("error: {message}");
    status
}

#[cfg(test)]
mod tests {
    use super::ExitStatus;

    #[test]
    fn the_worst_status_wins_and_the_numbers_are_the_documented_ones() {
        let all = [
            ExitStatus::Success,
            ExitStatus::Failure,
            ExitStatus::Error,
            ExitStatus::Interrupted,
        ];
        assert_eq!(all.map(ExitStatus::code), [0, 1, 2, 130]);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            ExitStatus::Failure.max(ExitStatus::Error),
            ExitStatus::Error
        );
    }
}
