//! The contract an independent test holds `migrate` to, on every generated
//! vendor-tagged document (`testdata/migrate`, `testdata/fixtures/vendor_*`):
//! `scan --dialect all [--anchors ENVELOPE.json]` gives every tag of the
//! fixture's oracle with its text box within 1 pt and no other, and
//! `migrate --dialect all [--anchors ...] --strip --out DIR` writes the
//! stripped copy at exactly `DIR/<stem>.pdf` (inputs given as files and as a
//! folder), which the plan uploads, and in which a scan with every dialect
//! finds no vendor tag.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{scratch, testdata};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .output()
        .expect("signprep runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Every vendor-tagged fixture, with its DocuSign envelope when it has one.
fn documents() -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut out = Vec::new();
    for (dir, prefix) in [("migrate", ""), ("fixtures", "vendor_")] {
        for e in std::fs::read_dir(testdata(dir)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with(prefix) && name.ends_with(".pdf") {
                let env = p.with_extension("envelope.json");
                out.push((p, env.exists().then_some(env)));
            }
        }
    }
    out.sort();
    out
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// `scan --dialect all [--anchors ENV] PDF`'s vendor tags.
fn vendor_tags(pdf: &Path, env: Option<&Path>) -> Result<Vec<Value>, String> {
    let mut args = vec!["scan", "--dialect", "all", "--format", "json"];
    if let Some(env) = env {
        args.extend(["--anchors", env.to_str().unwrap()]);
    }
    args.push(pdf.to_str().unwrap());
    let o = run(&args);
    let v: Value = serde_json::from_slice(&o.stdout)
        .map_err(|e| format!("scan of {}: {e}: {}", pdf.display(), text(&o.stderr)))?;
    Ok(v["documents"][0]["vendor_tags"]
        .as_array()
        .cloned()
        .unwrap_or_default())
}

/// What is wrong with the scan of `pdf` against its `.expect.json` (boxes in
/// page coordinates there, page-stacked in the scan).
fn scan_problems(pdf: &Path, env: Option<&Path>) -> Vec<String> {
    let expect: Value =
        serde_json::from_slice(&std::fs::read(pdf.with_extension("expect.json")).unwrap()).unwrap();
    let mut offsets = vec![0.0];
    for p in expect["pages"].as_array().unwrap() {
        let h = if p["rotation"].as_i64().unwrap_or(0) % 180 == 0 {
            p["height"].as_f64().unwrap()
        } else {
            p["width"].as_f64().unwrap()
        };
        offsets.push(offsets.last().unwrap() + h);
    }
    let want = expect["vendor_tags"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let got = match vendor_tags(pdf, env) {
        Ok(g) => g,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    if got.len() != want.len() {
        problems.push(format!(
            "{} vendor tags, {} expected",
            got.len(),
            want.len()
        ));
    }
    let near = |g: &Value, e: &Value| {
        let page = e["page"].as_u64().unwrap() as usize;
        g["raw"] == e["raw"]
            && g["page"] == e["page"]
            && ["x", "width", "height"]
                .iter()
                .all(|k| (g[k].as_f64().unwrap() - e[k].as_f64().unwrap()).abs() <= 1.0)
            && (g["y"].as_f64().unwrap() - e["y"].as_f64().unwrap() - offsets[page]).abs() <= 1.0
    };
    for e in &want {
        if !got.iter().any(|g| near(g, e)) {
            problems.push(format!("{} not found within 1 pt of its box", e["raw"]));
        }
    }
    for g in &got {
        if !want
            .iter()
            .any(|e| g["raw"] == e["raw"] && g["page"] == e["page"])
        {
            problems.push(format!("extra tag {} on page {}", g["raw"], g["page"]));
        }
    }
    problems
}

/// What is wrong with `out/<stem>.pdf` and `out/<stem>.json` for `pdf`.
fn strip_problems(pdf: &Path, env: Option<&Path>, out: &Path) -> Vec<String> {
    let s = stem(pdf);
    let copy = out.join(format!("{s}.pdf"));
    let mut problems = Vec::new();
    let Ok(bytes) = std::fs::read(&copy) else {
        return vec![format!("no stripped copy at {}", copy.display())];
    };
    if bytes == std::fs::read(pdf).unwrap() {
        problems.push("the copy is the input unchanged".into());
    }
    let plan: Value =
        serde_json::from_slice(&std::fs::read(out.join(format!("{s}.json"))).unwrap()).unwrap();
    let upload = plan["requests"][0]["upload"].as_str().unwrap_or_default();
    if upload != format!("{s}.pdf") {
        problems.push(format!("the plan uploads `{upload}`, not the copy"));
    }
    match vendor_tags(&copy, env) {
        Ok(left) if left.is_empty() => {}
        Ok(left) => problems.extend(
            left.iter()
                .map(|t| format!("{} is still in the copy", t["raw"])),
        ),
        Err(e) => problems.push(e),
    }
    problems
}

fn migrate(inputs: &[&Path], env: Option<&Path>, out: &Path) -> Output {
    let mut args = vec![
        "migrate",
        "--dialect",
        "all",
        "--strip",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(env) = env {
        args.extend(["--anchors", env.to_str().unwrap()]);
    }
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    run(&args)
}

#[test]
fn every_vendor_document_scans_to_its_boxes_and_strips_clean() {
    let docs = documents();
    assert!(docs.len() >= 11, "{docs:?}");
    let mut failures = Vec::new();
    for (pdf, env) in &docs {
        let env = env.as_deref();
        let mut problems = scan_problems(pdf, env);
        // Each file given as a file.
        let out = scratch("contract", &stem(pdf));
        let o = migrate(&[pdf], env, &out);
        if o.status.code() != Some(0) {
            problems.push(format!("migrate exits {:?}: {}", o.status, text(&o.stderr)));
        }
        problems.extend(strip_problems(pdf, env, &out));
        failures.extend(
            problems
                .into_iter()
                .map(|p| format!("{}: {p}", pdf.display())),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_folder_given_writes_each_copy_at_out_stem_pdf() {
    let dir = testdata("migrate");
    let out = scratch("contract", "folder");
    let o = migrate(&[&dir], None, &out);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let mut failures = Vec::new();
    let mut n = 0;
    for (pdf, _) in documents().iter().filter(|(p, _)| p.starts_with(&dir)) {
        n += 1;
        failures.extend(
            strip_problems(pdf, None, &out)
                .into_iter()
                .map(|p| format!("{}: {p}", pdf.display())),
        );
    }
    assert_eq!(n, 5);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
