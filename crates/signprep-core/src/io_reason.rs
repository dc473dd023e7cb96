//! Why a file could not be read or written, in signprep's words: the system's
//! reason (`No such file or directory (os error 2)`) is the operating
//! system's text, so the kinds a user meets are said here, and any other
//! keeps the system's words without its error number.

use std::io;

/// The reason of `e` for a message such as `cannot read PATH: REASON`:
/// `no such file`, `permission denied`, `it is a folder`, `a part of its
/// path is not a folder`; for another kind, the system's text, lower-case
/// first, without its `(os error N)`. An error made with a message of its own
/// (`io::Error::new(kind, "...")`, signprep's words) is that message.
pub fn io_reason(e: &io::Error) -> String {
    if let Some(inner) = e.get_ref() {
        return inner.to_string();
    }
    let words = match e.kind() {
        io::ErrorKind::NotFound => "no such file",
        io::ErrorKind::PermissionDenied => "permission denied",
        io::ErrorKind::IsADirectory => "it is a folder",
        io::ErrorKind::NotADirectory => "a part of its path is not a folder",
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only",
        io::ErrorKind::StorageFull => "no space left on the device",
        _ => return system_words(e),
    };
    words.to_owned()
}

/// The system's text of `e` without ` (os error N)`, lower-case first.
fn system_words(e: &io::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text.get(..at).unwrap_or(&text).to_owned(),
        _ => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "an input/output error".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::io_reason;
    use std::io;

    #[test]
    fn the_kinds_a_user_meets_are_said_in_our_words() {
        let missing = std::fs::read("/nonexistent/signprep/file.pdf").unwrap_err();
        assert_eq!(io_reason(&missing), "no such file");
        let folder = std::fs::read(std::env::temp_dir()).unwrap_err();
        assert_eq!(io_reason(&folder), "it is a folder");
        assert_eq!(
            io_reason(&io::Error::from(io::ErrorKind::PermissionDenied)),
            "permission denied"
        );
    }

    #[test]
    fn other_kinds_keep_the_system_words_without_the_number() {
        let eio = io::Error::from_raw_os_error(5);
        assert_eq!(io_reason(&eio), "input/output error");
        assert_eq!(
            io_reason(&io::Error::from(io::ErrorKind::TimedOut)),
            "timed out"
        );
    }

    #[test]
    fn an_error_with_its_own_message_keeps_it() {
        let ours = io::Error::new(io::ErrorKind::NotFound, "line 3 of list.txt: no path");
        assert_eq!(io_reason(&ours), "line 3 of list.txt: no path");
    }
}
