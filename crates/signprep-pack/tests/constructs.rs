//! The constructs tables of the guide's vendor pages
//! (`docs/src/migrate/VENDOR.md`) are true: each row's example is in the
//! generated fixture it names, and a scan with every dialect (and the
//! fixture's DocuSign envelope, when it has one) reads it as the row says.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use signprep_core::{Code, Dialect, Dialects, Document, LoadOptions, Scan, Scanner};
use signprep_pack::AnchorFile;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One row of the table.
#[derive(Debug)]
struct Row {
    vendor: String,
    example: String,
    fixture: String,
    kind: String,
    signer: String,
    boxed: String,
    finding: String,
}

/// The cells of a table line: split on `|` not escaped, `\|` unescaped.
fn cells(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.trim().trim_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    out.push(cur.trim().to_string());
    out
}

fn code(cell: &str) -> String {
    cell.trim_matches('`').to_string()
}

/// The vendor page of the guide that holds a vendor's rows.
fn page_of(vendor: &str) -> &'static str {
    vendors()
        .find(|d| d.vendor() == vendor)
        .map(Dialect::as_str)
        .unwrap_or_else(|| panic!("a row of an unknown vendor `{vendor}`"))
}

/// Every vendor `migrate` reads: the text-tag dialects and DocuSign's anchors.
fn vendors() -> impl Iterator<Item = Dialect> {
    Dialect::ALL.into_iter().chain([Dialect::Docusign])
}

/// The rows of one page's constructs table (none when the page has none).
fn rows_of(page: &str, doc: &str) -> Vec<Row> {
    let mut lines = doc.lines().skip_while(|l| !l.starts_with("| vendor |"));
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    assert_eq!(
        cells(header),
        [
            "vendor",
            "construct",
            "documented example",
            "source",
            "fixture (`testdata/`)",
            "kind",
            "signer",
            "box",
            "finding"
        ],
        "{page}: the table's header"
    );
    lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let c = cells(l);
            assert_eq!(c.len(), 9, "{page}: {l}");
            assert!(
                c[3].contains("](https://"),
                "{page}: a row cites its page: {l}"
            );
            assert_eq!(
                page_of(&c[0]),
                page,
                "{page}: a {} row belongs on that vendor's page: {l}",
                c[0]
            );
            Row {
                vendor: c[0].clone(),
                example: code(&c[2]),
                fixture: code(&c[4]),
                kind: c[5].clone(),
                signer: c[6].clone(),
                boxed: c[7].clone(),
                finding: c[8].clone(),
            }
        })
        .collect()
}

/// Every row of every vendor page, in page order.
fn rows() -> Vec<Row> {
    let dir = root().join("docs/src/migrate");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    let mut rows = Vec::new();
    for page in pages {
        let name = page.file_stem().unwrap().to_string_lossy().into_owned();
        rows.extend(rows_of(&name, &std::fs::read_to_string(&page).unwrap()));
    }
    rows
}

fn scan(fixture: &str) -> Scan {
    let pdf = root().join("testdata").join(fixture);
    let bytes = std::fs::read(&pdf).unwrap_or_else(|e| panic!("{fixture}: {e}"));
    let doc = Document::from_bytes(&bytes, &LoadOptions::default()).unwrap();
    let mut scanner = Scanner::new().dialects(Dialects::all());
    let env = pdf.with_extension("envelope.json");
    if env.exists() {
        let mut file = AnchorFile::new();
        file.add_file(&env, &std::fs::read(&env).unwrap()).unwrap();
        scanner = scanner.anchors(file.anchors);
    }
    scanner.scan(&doc).unwrap()
}

/// What is wrong with `row` in `s`.
fn problems(row: &Row, s: &Scan) -> Vec<String> {
    let mut out = Vec::new();
    let tag = s
        .vendor_tags
        .as_deref()
        .unwrap_or_default()
        .iter()
        .find(|t| t.raw == row.example);
    let finding = |code: &str| {
        s.diagnostics
            .iter()
            .any(|d| d.code.as_str() == code && d.tag.as_deref() == Some(row.example.as_str()))
    };
    match (tag, row.kind.as_str()) {
        (Some(t), "—") => out.push(format!("read as a {} tag", t.attributes.kind)),
        (None, "—") => {}
        (None, _) => out.push("no vendor tag reads it".into()),
        (Some(t), kind) => {
            if t.attributes.kind != kind {
                out.push(format!("kind `{}`", t.attributes.kind));
            }
            let signer = t.attributes.signer.as_deref().unwrap_or("—");
            if signer != row.signer {
                out.push(format!("signer `{signer}`"));
            }
            let boxed = if t.field.is_some() { "field" } else { "text" };
            if boxed != row.boxed {
                out.push(format!("box `{boxed}`"));
            }
            let others: Vec<&str> = s
                .diagnostics
                .iter()
                .filter(|d| {
                    d.tag.as_deref() == Some(t.raw.as_str())
                        && d.page.is_none_or(|p| p == t.page)
                        && d.code != Code::VendorTagVisible
                })
                .map(|d| d.code.as_str())
                .collect();
            if row.finding == "—" && !others.is_empty() {
                out.push(format!("findings {others:?}"));
            }
        }
    }
    if row.finding != "—" && !finding(&row.finding) {
        out.push(format!("no `{}` finding", row.finding));
    }
    out
}

#[test]
fn every_row_of_the_constructs_table_is_read_as_it_says() {
    let rows = rows();
    let mut scans: BTreeMap<String, Scan> = BTreeMap::new();
    let mut failures = Vec::new();
    for row in &rows {
        let s = scans
            .entry(row.fixture.clone())
            .or_insert_with(|| scan(&row.fixture));
        for p in problems(row, s) {
            failures.push(format!(
                "{} `{}` ({}): {p}",
                row.vendor, row.example, row.fixture
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every vendor has its rows.
    for vendor in vendors().map(Dialect::vendor) {
        assert!(
            rows.iter().any(|r| r.vendor == vendor),
            "no row for {vendor}"
        );
    }
    assert!(rows.len() >= 73, "{} rows", rows.len());
}

#[test]
fn a_row_that_says_otherwise_fails() {
    let mut row = rows().remove(0);
    let s = scan(&row.fixture);
    assert_eq!(problems(&row, &s), Vec::<String>::new());
    row.kind = "checkbox".into();
    row.signer = "signer9".into();
    assert_eq!(problems(&row, &s).len(), 2, "{:?}", problems(&row, &s));
}
