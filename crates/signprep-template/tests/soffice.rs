//! Through real LibreOffice: each template fixture converted to PDF, the PDF
//! scanned by the core, and `round_trip` run on the scan. Ignored by
//! default (they need `soffice` and take seconds each); CI runs them with
//! `cargo test -p signprep-template -- --ignored soffice_`.
//!
//! LibreOffice is called directly here, with a private profile per test and
//! a 120 s limit, not through `convert.rs`, so that these tests measure the
//! reader alone.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Code, Dialects, Document, LoadOptions, Scan, Scanner};
use signprep_template::{Format, Template, round_trip};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

/// Converts a fixture to PDF with `soffice --headless`, its own profile.
fn convert(name: &str) -> Vec<u8> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/templates")
        .join(name);
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("soffice-{name}"));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("a work directory");
    let profile = format!("file://{}", work.join("profile").display());
    let mut cmd = Command::new("soffice");
    cmd.arg("--headless")
        .arg(format!("-env:UserInstallation={profile}"))
        .args(["--convert-to", "pdf", "--outdir"])
        .arg(&work)
        .arg(&src)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn().expect("soffice runs (LibreOffice installed)");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("waiting for soffice") {
            break s;
        }
        if start.elapsed() > LIMIT {
            // The whole group: soffice starts soffice.bin.
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            panic!("soffice did not convert {name} within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "soffice failed on {name}: {status}");
    let pdf = work.join(Path::new(name).with_extension("pdf"));
    std::fs::read(&pdf).expect("soffice wrote the PDF")
}

/// The fixture converted and scanned (every dialect), with `round_trip` run.
fn scanned(name: &str) -> (Template, Scan) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/templates")
        .join(name);
    let bytes = std::fs::read(&path).expect("fixture");
    let template =
        Template::read(&bytes, Format::from_path(&path).expect("extension")).expect("reads");
    let pdf = convert(name);
    let doc = Document::from_bytes(&pdf, &LoadOptions::default()).expect("the PDF opens");
    let mut scan = Scanner::new()
        .dialects(Dialects::all())
        .scan(&doc)
        .expect("the PDF scans");
    round_trip(&template, Dialects::all(), &mut scan);
    (template, scan)
}

fn lost(scan: &Scan) -> Vec<String> {
    scan.diagnostics
        .iter()
        .filter(|d| d.code == Code::TemplateTagLost)
        .map(|d| d.message.clone())
        .collect()
}

/// Every tag of the template that should show is in the PDF, and every tag
/// of the PDF knows its place in the template.
fn round_trips_whole(name: &str) {
    let (template, scan) = scanned(name);
    assert!(lost(&scan).is_empty(), "{name}: {:?}", lost(&scan));
    let expected = template
        .tags(Dialects::all())
        .iter()
        .filter(|t| t.shows_in_pdf)
        .count();
    let found = scan.tags.len() + scan.vendor_tags.as_ref().map_or(0, Vec::len);
    assert!(
        found >= expected,
        "{name}: {found} tags in the PDF, {expected} expected"
    );
    for t in &scan.tags {
        assert!(t.source.is_some(), "{name}: `{}` has no place", t.raw);
    }
    for t in scan.vendor_tags.iter().flatten() {
        assert!(t.source.is_some(), "{name}: `{}` has no place", t.raw);
    }
}

macro_rules! whole {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            #[ignore = "needs LibreOffice (soffice); CI runs --ignored soffice_"]
            fn $test() {
                round_trips_whole($file);
            }
        )*
    };
}

whole! {
    soffice_docx_clean_one_page => "docx_clean_one_page.docx",
    soffice_docx_places => "docx_places.docx",
    soffice_docx_format_change => "docx_format_change.docx",
    soffice_docx_tracked_insertion => "docx_tracked_insertion.docx",
    soffice_docx_comment => "docx_comment.docx",
    soffice_docx_vanish => "docx_vanish.docx",
    soffice_docx_white_text => "docx_white_text.docx",
    soffice_docx_text_box => "docx_text_box.docx",
    soffice_docx_vendor_adobe => "docx_vendor_adobe.docx",
    soffice_docx_vendor_dropbox => "docx_vendor_dropbox.docx",
    soffice_docx_vendor_boldsign => "docx_vendor_boldsign.docx",
    soffice_docx_vendor_docuseal => "docx_vendor_docuseal.docx",
    soffice_docx_vendor_signnow => "docx_vendor_signnow.docx",
    soffice_docx_vendor_pandadoc => "docx_vendor_pandadoc.docx",
    soffice_docx_vendor_documenso => "docx_vendor_documenso.docx",
    soffice_docx_thirty_pages => "docx_thirty_pages.docx",
    soffice_odt_clean_one_page => "odt_clean_one_page.odt",
    soffice_odt_places => "odt_places.odt",
    soffice_odt_format_change => "odt_format_change.odt",
    soffice_odt_comment => "odt_comment.odt",
    soffice_odt_hidden => "odt_hidden.odt",
    soffice_odt_white_text => "odt_white_text.odt",
    soffice_odt_thirty_pages => "odt_thirty_pages.odt",
    soffice_odt_tracked_changes => "odt_tracked_changes.odt",
    soffice_odt_autocorrected => "odt_autocorrected.odt",
    soffice_docx_curly_quotes => "docx_curly_quotes.docx",
    soffice_docx_en_dash => "docx_en_dash.docx",
    soffice_docx_ellipsis => "docx_ellipsis.docx",
    soffice_docx_nbsp => "docx_nbsp.docx",
}

#[test]
#[ignore = "needs LibreOffice (soffice); CI runs --ignored soffice_"]
fn soffice_docx_tracked_deletion_draws_the_deletion() {
    // LibreOffice draws unaccepted deletions (struck through): the deleted
    // tag is in the PDF and gets its place; the tag the template reads once
    // the deletion is accepted is not, and is lost.
    let (_, scan) = scanned("docx_tracked_deletion.docx");
    let raws: Vec<&str> = scan.tags.iter().map(|t| t.raw.as_str()).collect();
    assert_eq!(
        raws,
        ["<# DELETED_1 #>", "<# SIGN_OLD_NEW #>", "<# KEPT_1 #>"]
    );
    assert_eq!(
        scan.tags
            .first()
            .and_then(|t| t.source.as_ref())
            .map(|p| p.paragraph),
        Some(2)
    );
    let lost = lost(&scan);
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert!(lost.iter().all(|m| m.contains("SIGN_NEW")), "{lost:?}");
}

#[test]
#[ignore = "needs LibreOffice (soffice); CI runs --ignored soffice_"]
fn soffice_docx_fullwidth_hash_has_no_tag_in_the_pdf() {
    let (template, scan) = scanned("docx_fullwidth_hash.docx");
    assert!(template.tags(Dialects::all()).is_empty());
    assert!(scan.tags.is_empty());
}
