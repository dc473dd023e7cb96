//! `signprep-testgen [--check] [--example] [DIR]`: write every fixture
//! (`NAME.pdf`, `NAME.expect.json`) into DIR (default `testdata/fixtures`), each
//! file atomically (temp file + rename). With `--example`, write the PDFs of the
//! worked example instead (DIR defaults to `testdata/example`). With `--check`,
//! write nothing and exit with status 1 if any file in DIR is missing or differs.
//! With `--hostile`, write the hostile inputs (`signprep_testgen::hostile`)
//! instead (DIR defaults to `testdata/hostile`). With `--preflight`, write the
//! fixtures of `signprep check` (`signprep_testgen::preflight`; DIR defaults to
//! `testdata/check`). With `--migrate`, write the vendor-tagged contracts of
//! `signprep migrate` (DIR defaults to `testdata/migrate`). With `--templates`,
//! write the Word and OpenDocument templates of `signprep-template`
//! (`signprep_testgen::templates`; DIR defaults to `testdata/templates`).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use signprep_testgen::{Error, try_fixtures, try_refused_fixtures};

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    Ok(())
}

fn run() -> Result<ExitCode, Error> {
    let mut check = false;
    let mut example = false;
    let mut hostile = false;
    let mut preflight = false;
    let mut migrate = false;
    let mut templates = false;
    let mut dir = None;
    for arg in std::env::args_os().skip(1) {
        if arg == "--check" {
            check = true;
        } else if arg == "--example" {
            example = true;
        } else if arg == "--hostile" {
            hostile = true;
        } else if arg == "--preflight" {
            preflight = true;
        } else if arg == "--migrate" {
            migrate = true;
        } else if arg == "--templates" {
            templates = true;
        } else if arg == "-h" || arg == "--help" {
            return Err(Error::new(
                "usage: signprep-testgen [--check] [--example | --hostile | --preflight | --migrate | --templates] [DIR]",
            ));
        } else {
            dir = Some(PathBuf::from(arg));
        }
    }
    let default = if example {
        "testdata/example"
    } else if hostile {
        "testdata/hostile"
    } else if preflight {
        "testdata/check"
    } else if migrate {
        "testdata/migrate"
    } else if templates {
        "testdata/templates"
    } else {
        "testdata/fixtures"
    };
    let dir = dir.unwrap_or_else(|| PathBuf::from(default));
    if !check {
        fs::create_dir_all(&dir)?;
    }
    let mut stale = Vec::new();
    let mut count = 0;
    let mut files = Vec::new();
    if example {
        for f in signprep_testgen::example::files()? {
            files.push((f.path.to_string(), f.bytes));
        }
    } else if preflight {
        for f in signprep_testgen::preflight::files()? {
            files.push((f.path, f.bytes));
        }
    } else if hostile {
        for fx in signprep_testgen::hostile::all()? {
            files.push((format!("{}.expect.json", fx.name), fx.expect_json()?));
            files.push((format!("{}.pdf", fx.name), fx.pdf));
        }
    } else if templates {
        for f in signprep_testgen::templates::files()? {
            files.push((f.path, f.bytes));
        }
    } else if migrate {
        for fx in signprep_testgen::try_migrate_contracts()? {
            files.push((format!("{}.expect.json", fx.name), fx.expect_json()?));
            files.push((format!("{}.pdf", fx.name), fx.pdf));
        }
    } else {
        for fx in try_fixtures()?.into_iter().chain(try_refused_fixtures()?) {
            files.push((format!("{}.expect.json", fx.name), fx.expect_json()?));
            files.push((format!("{}.pdf", fx.name), fx.pdf));
        }
        files.push((
            "vendor_docusign.envelope.json".to_string(),
            signprep_testgen::docusign_envelope().as_bytes().to_vec(),
        ));
    }
    {
        for (file, bytes) in files {
            let path = dir.join(file);
            if let Some(parent) = path.parent().filter(|_| !check) {
                fs::create_dir_all(parent)?;
            }
            if check {
                if fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
                    stale.push(path);
                }
            } else {
                write_atomic(&path, &bytes)?;
            }
            count += 1;
        }
    }
    report(check, count, &dir, &stale);
    Ok(if stale.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[allow(clippy::print_stderr)]
fn report(check: bool, count: usize, dir: &Path, stale: &[PathBuf]) {
    for p in stale {
        eprintln!("stale or missing: {}", p.display());
    }
    let verb = if check { "checked" } else { "wrote" };
    eprintln!("{verb} {count} files in {}", dir.display());
}

#[allow(clippy::print_stderr)]
fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("signprep-testgen: {e}");
            ExitCode::from(2)
        }
    }
}
