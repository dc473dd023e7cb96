//! Writing output files atomically: a temporary file in the target's folder,
//! renamed over the target once complete, so readers never see a partial
//! file and a failure leaves the target as it was.
//!
//! The temporary file is created as any new file is (mode 0666 less the
//! umask, as `>` in a shell would make it); when the target exists, its mode
//! is copied first, so replacing a file keeps its permissions.
//!
//! A target that exists and is not a regular file (`/dev/null`, `/dev/stdout`,
//! a named pipe) is written in place, as `>` would: renaming over it would
//! put a regular file where the device or pipe was (as root, a `-o /dev/null`
//! would have replaced the system's `/dev/null`).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Temporary names are unique within the process: several threads may write
/// into one folder.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// Writes `path` through `write`, atomically.
pub fn write_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut w = BufWriter::new(OpenOptions::new().write(true).open(path)?);
        write(&mut w)?;
        return w.flush();
    }
    let (tmp, file) = create_beside(path)?;
    let result = (|| {
        let mut w = BufWriter::new(file);
        write(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to `path`, atomically.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |w| w.write_all(bytes))
}

/// `cannot write PATH: WHY` for an output that failed: `path` is the target
/// the user gave, never the temporary file beside it (whose name says
/// nothing to them), and the reason is said in our words where we know it.
pub fn cannot_write(path: &Path, e: &io::Error) -> String {
    format!("cannot write {}: {}", path.display(), reason(path, e))
}

/// `cannot create the folder DIR: WHY` for an output folder that could not
/// be made (`--out`, `--out-dir`, `--write`).
pub fn cannot_create(dir: &Path, e: &io::Error) -> String {
    format!(
        "cannot create the folder {}: {}",
        dir.display(),
        reason(dir, e)
    )
}

/// Why `path` could not be written (or made, as a folder).
fn reason(path: &Path, e: &io::Error) -> String {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match e.kind() {
        io::ErrorKind::NotFound if !folder.is_dir() => {
            format!("the folder {} does not exist", folder.display())
        }
        io::ErrorKind::NotADirectory => {
            format!("{} is not a folder", folder.display())
        }
        io::ErrorKind::IsADirectory => "it is a folder".into(),
        io::ErrorKind::AlreadyExists => "a file of that name is in the way".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".into(),
        _ => signprep_core::io_reason(e),
    }
}

/// A new temporary file beside `path` (`.NAME.PID.N.tmp`), with the mode of
/// `path` when it exists.
pub fn create_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => {
                if let Ok(meta) = std::fs::metadata(path)
                    && let Err(e) = file.set_permissions(meta.permissions())
                {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(e);
                }
                return Ok((tmp, file));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A new file: as the umask makes it, never the 0600 of a temp file.
        let fresh = dir.path().join("fresh.json");
        write(&fresh, b"x").unwrap();
        let made = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        let probe = dir.path().join("probe");
        std::fs::write(&probe, b"").unwrap();
        let umask_mode = std::fs::metadata(&probe).unwrap().permissions().mode() & 0o777;
        assert_eq!(made, umask_mode);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 3, "no temporary file left behind");
    }

    /// A named pipe (as a device such as `/dev/null`) is written to, never
    /// renamed over: it stays a pipe and its reader gets the bytes (a rename
    /// put a regular file in its place; as root, `-o /dev/null` replaced the
    /// system's `/dev/null`).
    #[cfg(unix)]
    #[test]
    fn a_pipe_or_device_is_written_in_place() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo failed");
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                std::fs::File::open(fifo)
                    .unwrap()
                    .read_to_end(&mut got)
                    .unwrap();
                got
            })
        };
        write(&fifo, b"through the pipe").unwrap();
        // Checked before waiting for the reader, which a pipe renamed over
        // would leave waiting for good.
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
    }
}
