//! Templates to PDF with LibreOffice headless: `soffice --headless --convert-to pdf`, a
//! private user profile per slot (two LibreOffice processes on one profile hand their work to
//! each other and exit early), a time limit per file, a bounded number of processes at once,
//! and a cache of converted PDFs keyed by the template's content hash, the format and the
//! converter's version, so a re-run converts nothing it has seen.
//!
//! Starting LibreOffice dominates a conversion (about 2.6 s on the 2-core CI machine, whether
//! it converts one file or several): [`Converter::prepare`] converts many templates per
//! process, into the cache, before a batch scans them; [`Converter::convert`] converts one
//! (or takes it from the cache).

use sha2::{Digest, Sha256};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::Format;

/// The environment variable naming LibreOffice's program when no option does.
pub const SOFFICE_ENV: &str = "SIGNPREP_SOFFICE";

/// How Debian and Ubuntu install what converts templates (Writer without a display).
pub const INSTALL_HINT: &str = "install it (Debian, Ubuntu: `apt-get install libreoffice-writer-nogui`; Fedora: `dnf install libreoffice-writer`; macOS: `brew install --cask libreoffice`)";

/// The default time limit of one conversion.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The most templates one LibreOffice process converts in [`Converter::prepare`].
const BATCH: usize = 16;

/// Why a template could not be converted, in our words; what LibreOffice wrote is kept
/// in the message only where it says more than we can.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// No LibreOffice where we looked.
    #[error(
        "LibreOffice is needed to convert Word and OpenDocument files and was not found ({looked}): {INSTALL_HINT}, or name its `soffice` program in {SOFFICE_ENV}"
    )]
    NotInstalled {
        /// Where we looked.
        looked: String,
    },
    /// The program named could not be run.
    #[error("cannot run LibreOffice at {}: {}", program.display(), why_not_run(source))]
    NotRunnable {
        /// The program.
        program: PathBuf,
        /// The OS's error.
        #[source]
        source: io::Error,
    },
    /// LibreOffice ran and gave no PDF.
    #[error("LibreOffice could not convert it ({why})")]
    Refused {
        /// What went wrong, as far as LibreOffice said.
        why: String,
    },
    /// Past the time limit: LibreOffice was stopped.
    #[error("LibreOffice took longer than {} s to convert it and was stopped (a password-protected or very large document does this; the limit is --convert-timeout)", .limit.as_secs())]
    TimedOut {
        /// The limit.
        limit: Duration,
    },
    /// A scratch file or the cache could not be written or read.
    #[error("cannot {what} {}", path.display())]
    Io {
        /// What was being done (`write the conversion's scratch file`).
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// The OS's error.
        #[source]
        source: io::Error,
    },
}

/// The most LibreOffice processes a converter runs at once ([`ConvertOptions::jobs`]
/// is clamped to it): each takes about 150 MB.
pub const MAX_JOBS: usize = 64;

/// Where LibreOffice is and how to run it.
#[derive(Clone, Debug)]
pub struct ConvertOptions {
    /// The `soffice` program; `None`: [`SOFFICE_ENV`], then `soffice` and `libreoffice` on
    /// `PATH`, then the usual install folders.
    pub program: Option<PathBuf>,
    /// LibreOffice processes at once (each with its own profile); from 1 to
    /// [`MAX_JOBS`].
    pub jobs: usize,
    /// The time limit of one conversion.
    pub timeout: Duration,
    /// Where converted PDFs are kept by content hash; `None`: kept for this converter's
    /// life only (so [`Converter::prepare`] still converts ahead), nothing between runs.
    pub cache_dir: Option<PathBuf>,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            program: None,
            jobs: 2,
            timeout: DEFAULT_TIMEOUT,
            cache_dir: None,
        }
    }
}

/// The default cache folder: `$XDG_CACHE_HOME/signprep/convert`, else
/// `~/.cache/signprep/convert` (`~/Library/Caches/signprep/convert` on macOS).
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("signprep").join("convert"));
    }
    let home = PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?);
    if cfg!(target_os = "macos") {
        return Some(home.join("Library/Caches/signprep/convert"));
    }
    Some(home.join(".cache").join("signprep").join("convert"))
}

/// Finds LibreOffice's `soffice`: the program named, else [`SOFFICE_ENV`], else `PATH`,
/// else the usual install folders.
pub fn locate(program: Option<&Path>) -> Result<PathBuf, ConvertError> {
    if let Some(p) = program {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os(SOFFICE_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let names = ["soffice", "libreoffice"];
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            for n in names {
                let c = dir.join(n);
                if c.is_file() {
                    return Ok(c);
                }
            }
        }
    }
    let usual = [
        "/usr/lib/libreoffice/program/soffice",
        "/opt/libreoffice/program/soffice",
        "/Applications/LibreOffice.app/Contents/MacOS/soffice",
    ];
    for u in usual {
        if Path::new(u).is_file() {
            return Ok(PathBuf::from(u));
        }
    }
    Err(ConvertError::NotInstalled {
        looked: format!(
            "{SOFFICE_ENV}, `soffice` and `libreoffice` on PATH, {}",
            usual.join(", ")
        ),
    })
}

/// A converter made on first use and shared: LibreOffice is looked for only when the first
/// template comes, and a missing one is the same error for every template after.
#[derive(Debug)]
pub struct LazyConverter {
    options: ConvertOptions,
    cell: OnceLock<Result<Converter, ConvertError>>,
}

impl LazyConverter {
    /// Nothing looked for yet.
    pub fn new(options: ConvertOptions) -> LazyConverter {
        LazyConverter {
            options,
            cell: OnceLock::new(),
        }
    }

    /// One already made.
    pub fn made(options: ConvertOptions, converter: Converter) -> LazyConverter {
        let cell = OnceLock::new();
        let _ = cell.set(Ok(converter));
        LazyConverter { options, cell }
    }

    /// The converter, made now if it was not; or why there is none.
    pub fn get(&self) -> Result<&Converter, &ConvertError> {
        self.cell
            .get_or_init(|| Converter::new(&self.options))
            .as_ref()
    }
}

/// What tells two kept converters apart: the options, and `$SIGNPREP_SOFFICE` when no
/// program is named (it is read when the converter is made).
type SharedKey = (
    Option<PathBuf>,
    Option<std::ffi::OsString>,
    usize,
    Duration,
    Option<PathBuf>,
);

/// The converters [`shared`] made in this process.
static SHARED: Mutex<Vec<(SharedKey, Arc<LazyConverter>)>> = Mutex::new(Vec::new());

/// The converter for `options`, kept for the process and shared by every call with the
/// same options (the Python and Node bindings, whose calls have no run to hold one): made
/// on first use, its LibreOffice found then. A failure is not kept: a later call looks
/// again. [`release_shared`] drops them.
pub fn shared(options: &ConvertOptions) -> Result<Arc<LazyConverter>, ConvertError> {
    let env = options
        .program
        .is_none()
        .then(|| std::env::var_os(SOFFICE_ENV))
        .flatten();
    let key = (
        options.program.clone(),
        env,
        options.jobs,
        options.timeout,
        options.cache_dir.clone(),
    );
    let mut all = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, c)) = all.iter().find(|(have, _)| *have == key) {
        return Ok(Arc::clone(c));
    }
    let made = Arc::new(LazyConverter::made(
        options.clone(),
        Converter::new(options)?,
    ));
    all.push((key, Arc::clone(&made)));
    Ok(made)
}

/// Drops the converters [`shared`] keeps (their scratch folders and profiles are removed
/// with them): at the process's exit, or the addon's unloading.
pub fn release_shared() {
    SHARED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clear();
}

/// One conversion's result.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The PDF.
    pub pdf: Vec<u8>,
    /// Taken from the cache.
    pub cached: bool,
    /// SHA-256 of the PDF, hex.
    pub pdf_sha256: String,
}

/// LibreOffice, ready to convert: its program and version, the profile slots, the cache.
#[derive(Debug)]
pub struct Converter {
    program: PathBuf,
    version: String,
    timeout: Duration,
    cache: Option<PathBuf>,
    /// Private profiles (and scratch space) for this process, removed on drop.
    scratch: PathBuf,
    /// Profile slots free (their numbers).
    free: Mutex<Vec<usize>>,
    freed: Condvar,
    seq: AtomicU64,
}

impl Converter {
    /// Finds LibreOffice ([`locate`]), asks its version, and readies `options.jobs` profile
    /// slots. Fails when it is missing or cannot be run: one error for the whole run.
    pub fn new(options: &ConvertOptions) -> Result<Converter, ConvertError> {
        let program = locate(options.program.as_deref())?;
        let version = version_of(&program)?;
        let scratch = std::env::temp_dir().join(format!(
            "signprep-convert-{}-{}",
            std::process::id(),
            unique()
        ));
        fs::create_dir_all(&scratch).map_err(|source| ConvertError::Io {
            what: "create the conversion's scratch folder",
            path: scratch.clone(),
            source,
        })?;
        let cache = options
            .cache_dir
            .clone()
            .unwrap_or_else(|| scratch.join("cache"));
        Ok(Converter {
            program,
            version,
            timeout: options.timeout,
            cache: Some(cache),
            scratch,
            free: Mutex::new((0..options.jobs.clamp(1, MAX_JOBS)).rev().collect()),
            freed: Condvar::new(),
            seq: AtomicU64::new(0),
        })
    }

    /// What converts: `LibreOffice 7.4.7.2`, say.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The program run.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// Converts one template (or takes its PDF from the cache).
    pub fn convert(&self, bytes: &[u8], format: Format) -> Result<Conversion, ConvertError> {
        let key = self.key(bytes, format);
        if let Some(pdf) = self.cached(&key) {
            return Ok(done(pdf, true));
        }
        let pdf = self.with_slot(|slot| {
            let mut out = self.run(slot, &[(bytes, format)], self.timeout)?;
            out.pop().unwrap_or_else(|| {
                Err(ConvertError::Refused {
                    why: "it wrote no PDF".into(),
                })
            })
        })?;
        self.store(&key, &pdf);
        Ok(done(pdf, false))
    }

    /// Converts many templates ahead of a batch, up to 16 per LibreOffice process and as many
    /// processes at once as slots, into the cache. A template
    /// that fails here is left for [`Converter::convert`], which reports it alone. Returns
    /// how many were converted.
    pub fn prepare(&self, templates: &[(PathBuf, Format)]) -> usize {
        if self.cache.is_none() {
            return 0;
        }
        let todo: Vec<(Vec<u8>, Format, String)> = templates
            .iter()
            .filter_map(|(p, f)| {
                let bytes = fs::read(p).ok()?;
                let key = self.key(&bytes, *f);
                (!self.cache_path(&key).is_some_and(|c| c.is_file())).then_some((bytes, *f, key))
            })
            .collect();
        let chunks: Vec<&[(Vec<u8>, Format, String)]> = todo.chunks(BATCH).collect();
        let next = AtomicU64::new(0);
        let converted = AtomicU64::new(0);
        let slots = self.free.lock().map(|f| f.len()).unwrap_or(1).max(1);
        std::thread::scope(|s| {
            for _ in 0..slots.min(chunks.len()) {
                s.spawn(|| {
                    loop {
                        let i = usize::try_from(next.fetch_add(1, Ordering::Relaxed))
                            .unwrap_or(usize::MAX);
                        let Some(chunk) = chunks.get(i) else { break };
                        let items: Vec<(&[u8], Format)> =
                            chunk.iter().map(|(b, f, _)| (b.as_slice(), *f)).collect();
                        let limit = self
                            .timeout
                            .saturating_mul(u32::try_from(items.len()).unwrap_or(u32::MAX));
                        let Ok(results) = self.with_slot(|slot| self.run(slot, &items, limit))
                        else {
                            continue;
                        };
                        for (r, (_, _, key)) in results.into_iter().zip(chunk.iter()) {
                            if let Ok(pdf) = r {
                                self.store(key, &pdf);
                                converted.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        usize::try_from(converted.load(Ordering::Relaxed)).unwrap_or(usize::MAX)
    }

    fn key(&self, bytes: &[u8], format: Format) -> String {
        let mut h = Sha256::new();
        h.update(format.as_str().as_bytes());
        h.update([0]);
        h.update(self.version.as_bytes());
        h.update([0]);
        h.update(bytes);
        hex(&h.finalize())
    }

    fn cache_path(&self, key: &str) -> Option<PathBuf> {
        let dir = self.cache.as_ref()?;
        let shard = key.get(..2).unwrap_or("00");
        Some(dir.join(shard).join(format!("{key}.pdf")))
    }

    fn cached(&self, key: &str) -> Option<Vec<u8>> {
        let pdf = fs::read(self.cache_path(key)?).ok()?;
        pdf.starts_with(b"%PDF-").then_some(pdf)
    }

    /// Into the cache, atomically (a temporary file renamed); a cache that cannot be written
    /// costs a conversion next time, nothing else.
    fn store(&self, key: &str, pdf: &[u8]) {
        let Some(path) = self.cache_path(key) else {
            return;
        };
        let Some(dir) = path.parent() else { return };
        if fs::create_dir_all(dir).is_err() {
            return;
        }
        let tmp = dir.join(format!(".{key}.{}.{}.tmp", std::process::id(), unique()));
        if fs::write(&tmp, pdf).is_ok() && fs::rename(&tmp, &path).is_ok() {
            return;
        }
        let _ = fs::remove_file(&tmp);
    }

    /// Runs `f` holding a profile slot (waiting for one).
    fn with_slot<T>(
        &self,
        f: impl FnOnce(usize) -> Result<T, ConvertError>,
    ) -> Result<T, ConvertError> {
        let slot = {
            let mut free = self
                .free
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            loop {
                if let Some(s) = free.pop() {
                    break s;
                }
                free = self
                    .freed
                    .wait(free)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        let r = f(slot);
        self.free
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(slot);
        self.freed.notify_one();
        r
    }

    /// One LibreOffice process converting `items` with the profile of `slot`, within `limit`.
    /// One result per item, in order.
    fn run(
        &self,
        slot: usize,
        items: &[(&[u8], Format)],
        limit: Duration,
    ) -> Result<Vec<Result<Vec<u8>, ConvertError>>, ConvertError> {
        let n = self.seq.fetch_add(1, Ordering::Relaxed);
        let work = self.scratch.join(format!("job-{n}"));
        let out = work.join("out");
        let io = |what: &'static str, path: &Path| {
            let path = path.to_path_buf();
            move |source| ConvertError::Io { what, path, source }
        };
        fs::create_dir_all(&out).map_err(io("create the conversion's scratch folder", &out))?;
        let mut inputs = Vec::with_capacity(items.len());
        for (i, (bytes, format)) in items.iter().enumerate() {
            let p = work.join(format!("in{i}.{}", format.as_str()));
            fs::write(&p, bytes).map_err(io("write the conversion's scratch file", &p))?;
            inputs.push(p);
        }
        let profile = self.scratch.join(format!("profile-{slot}"));
        let log = work.join("soffice.log");
        let result = self.spawn_and_wait(&profile, &out, &inputs, &log, limit);
        let said = fs::read_to_string(&log).unwrap_or_default();
        let results = match result {
            Err(e) => {
                let _ = fs::remove_dir_all(&work);
                return Err(e);
            }
            Ok(()) => (0..inputs.len())
                .map(|i| {
                    let pdf = out.join(format!("in{i}.pdf"));
                    match fs::read(&pdf) {
                        Ok(b) if b.starts_with(b"%PDF-") => Ok(b),
                        Ok(_) => Err(ConvertError::Refused {
                            why: "what it wrote is no PDF".into(),
                        }),
                        Err(_) => Err(ConvertError::Refused {
                            why: refusal(&said),
                        }),
                    }
                })
                .collect(),
        };
        let _ = fs::remove_dir_all(&work);
        Ok(results)
    }

    fn spawn_and_wait(
        &self,
        profile: &Path,
        out: &Path,
        inputs: &[PathBuf],
        log: &Path,
        limit: Duration,
    ) -> Result<(), ConvertError> {
        let log_file = fs::File::create(log).map_err(|source| ConvertError::Io {
            what: "write the conversion's log",
            path: log.to_path_buf(),
            source,
        })?;
        let log_err = log_file.try_clone().map_err(|source| ConvertError::Io {
            what: "write the conversion's log",
            path: log.to_path_buf(),
            source,
        })?;
        let mut cmd = Command::new(&self.program);
        cmd.arg("--headless")
            .arg("--invisible")
            .arg("--norestore")
            .arg("--nolockcheck")
            .arg("--nodefault")
            .arg("--nologo")
            .arg(format!("-env:UserInstallation={}", file_url(profile)))
            .arg("--convert-to")
            .arg("pdf:writer_pdf_Export")
            .arg("--outdir")
            .arg(out)
            .args(inputs)
            .stdin(Stdio::null())
            .stdout(log_file)
            .stderr(log_err);
        own_process_group(&mut cmd);
        let mut child = cmd.spawn().map_err(|source| ConvertError::NotRunnable {
            program: self.program.clone(),
            source,
        })?;
        wait_within(&mut child, limit)
    }
}

impl Drop for Converter {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.scratch);
    }
}

fn done(pdf: Vec<u8>, cached: bool) -> Conversion {
    let pdf_sha256 = hex(&Sha256::digest(&pdf));
    Conversion {
        pdf,
        cached,
        pdf_sha256,
    }
}

/// Waits for the child within `limit`; past it the child's whole process group is killed
/// (LibreOffice's launcher starts `soffice.bin` as a child of its own).
fn wait_within(child: &mut Child, limit: Duration) -> Result<(), ConvertError> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return Ok(()),
            Ok(None) => {}
            Err(_) => break,
        }
        if start.elapsed() >= limit {
            kill_group(child);
            return Err(ConvertError::TimedOut { limit });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
    kill_group(child);
    Err(ConvertError::Refused {
        why: "its process could not be waited for".into(),
    })
}

#[cfg(unix)]
fn own_process_group(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
}

#[cfg(not(unix))]
fn own_process_group(_cmd: &mut Command) {}

fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .arg("-KILL")
            .arg("--")
            .arg(format!("-{}", child.id()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// `LibreOffice 7.4.7.2` from `soffice --version` (within 30 s).
fn version_of(program: &Path) -> Result<String, ConvertError> {
    let not_runnable = |source| ConvertError::NotRunnable {
        program: program.to_path_buf(),
        source,
    };
    let out = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(not_runnable)?;
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = text.split_whitespace().take(2).collect();
    match words.as_slice() {
        [name, version] if version.starts_with(|c: char| c.is_ascii_digit()) => {
            Ok(format!("{name} {version}"))
        }
        _ => Err(not_runnable(io::Error::other(
            "`--version` did not name a LibreOffice version",
        ))),
    }
}

/// Why LibreOffice gave no PDF, from what it printed (its `Error:` line), in our words
/// where we know them.
fn refusal(said: &str) -> String {
    let line = said
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("Error:"))
        .unwrap_or("");
    if line.contains("source file could not be loaded") {
        return "it could not load the file: not a document it reads, damaged, or protected by a password".into();
    }
    if line.is_empty() {
        return "it wrote no PDF and said nothing".into();
    }
    let mut l: String = line.chars().take(200).collect();
    l = signprep_core::visible(&l).into_owned();
    format!("it said \"{l}\"")
}

fn file_url(path: &Path) -> String {
    let s = path.to_string_lossy();
    let mut url = String::from("file://");
    for c in s.chars() {
        match c {
            ' ' => url.push_str("%20"),
            '%' => url.push_str("%25"),
            '#' => url.push_str("%23"),
            '?' => url.push_str("%3F"),
            c => url.push(c),
        }
    }
    url
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

fn unique() -> u64 {
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Why a program could not be run, in our words.
fn why_not_run(e: &io::Error) -> &'static str {
    match e.kind() {
        io::ErrorKind::NotFound => "no such program",
        io::ErrorKind::PermissionDenied => "not allowed to run it (is it executable?)",
        _ if e.raw_os_error() == Some(8) => "not a program this system runs",
        _ => "it did not start",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_libreoffice_names_the_install_command() {
        let e = ConvertError::NotInstalled {
            looked: "PATH".into(),
        };
        assert_eq!(
            e.to_string(),
            "LibreOffice is needed to convert Word and OpenDocument files and was not found (PATH): install it (Debian, Ubuntu: `apt-get install libreoffice-writer-nogui`; Fedora: `dnf install libreoffice-writer`; macOS: `brew install --cask libreoffice`), or name its `soffice` program in SIGNPREP_SOFFICE"
        );
    }

    #[test]
    fn a_program_that_is_not_there_is_named() {
        let options = ConvertOptions {
            program: Some(PathBuf::from("/nonexistent/soffice")),
            ..ConvertOptions::default()
        };
        let e = Converter::new(&options).err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("cannot run LibreOffice at /nonexistent/soffice: no such program")
        );
    }

    #[test]
    fn what_libreoffice_said_is_put_in_our_words() {
        assert_eq!(
            refusal("Error: source file could not be loaded\n"),
            "it could not load the file: not a document it reads, damaged, or protected by a password"
        );
        assert_eq!(refusal(""), "it wrote no PDF and said nothing");
        assert_eq!(file_url(Path::new("/tmp/a b#")), "file:///tmp/a%20b%23");
    }
}
