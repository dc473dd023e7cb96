//! AcroForm fields: the generated form fixtures against the expectations
//! their generator computed and insta snapshots of the fields, one test module
//! per fixture (`per_form_fixture!`); and, with `--ignored`, the shared
//! corpus oracle's fields.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

mod common;

use serde_json::Value;
use signprep_core::{Document, LoadOptions, Record, Scan, Scanner};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures")
}

/// Names of the fixtures whose expectation lists fields or an error.
fn form_fixture_names() -> BTreeSet<String> {
    std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|f| f.strip_suffix(".expect.json").map(str::to_string))
        .filter(|name| {
            let v = expectation(name);
            v.get("fields").is_some() || v.get("error").is_some()
        })
        .collect()
}

fn expectation(name: &str) -> Value {
    let path = fixtures_dir().join(format!("{name}.expect.json"));
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn scan(name: &str) -> Result<Scan, signprep_core::Error> {
    let path = fixtures_dir().join(format!("{name}.pdf"));
    let doc = Document::open(path, &LoadOptions::default())?;
    Scanner::new().scan(&doc)
}

fn is_field_code(code: &str) -> bool {
    code.starts_with("field_")
        || code == "widget_not_in_acroform"
        || code == "widget_not_on_page"
        || code == "xfa_form"
}

/// One module of tests per form fixture, so that a failure names its
/// fixture; the list is checked against the fixtures on disk.
macro_rules! per_form_fixture {
    ($($name:ident),* $(,)?) => {
        const LISTED: &[&str] = &[$(stringify!($name)),*];
        $(
            mod $name {
                #[test]
                fn fields_match_the_generator() {
                    super::fields_match_the_generator(stringify!($name));
                }

                #[test]
                fn field_snapshot() {
                    super::field_snapshot(stringify!($name));
                }
            }
        )*
    };
}

per_form_fixture! {
    form_buttons,
    form_choices,
    form_duplicate_names,
    form_geometry,
    form_hierarchy,
    form_inheritance,
    form_kids_cycle,
    form_names,
    form_no_rotate,
    form_signature,
    form_stacked,
    form_two_widgets,
    form_widget_placement,
    form_xfa_hybrid,
    form_xfa_only,
}

#[test]
fn every_form_fixture_is_listed() {
    let listed: BTreeSet<String> = LISTED.iter().map(|s| (*s).to_string()).collect();
    assert_eq!(
        listed,
        form_fixture_names(),
        "list every form fixture in `per_form_fixture!`"
    );
}

/// Fields, their boxes and their findings as the generator computed them.
fn fields_match_the_generator(name: &str) {
    let expect = expectation(name);
    let result = scan(name);
    if let Some(code) = expect.get("error").and_then(Value::as_str) {
        let err = result.expect_err(&format!("{name}: the scan must fail"));
        assert_eq!(err.code(), code, "{name}: {err}");
        return;
    }
    let scan = result.unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = expect["fields"].as_array().unwrap();
    assert_eq!(scan.fields.len(), want.len(), "{name}: number of fields");
    for (i, (got, want)) in scan.fields.iter().zip(want).enumerate() {
        let at = format!("{name} field {i} ({})", want["name"]);
        let got = serde_json::to_value(got).unwrap();
        for key in [
            "name",
            "type",
            "page",
            "required",
            "read_only",
            "multiline",
            "password",
            "comb",
            "multi_select",
            "options",
            "option_values",
            "value",
            "default_value",
            "tooltip",
            "max_len",
            "widget_index",
        ] {
            assert_eq!(got.get(key), want.get(key), "{at}: {key}");
        }
        // Expected boxes are within the page; output y is page-stacked.
        let offset = match want["page"].as_u64() {
            Some(p) => scan.pages[p as usize].y_offset,
            None => 0.0,
        };
        for key in ["x", "y", "width", "height"] {
            let mut g = got[key].as_f64().unwrap();
            if key == "y" {
                g -= offset;
            }
            let w = want[key].as_f64().unwrap();
            assert!((g - w).abs() <= 0.01, "{at}: {key} {g} != {w}");
        }
    }
    let mut got: Vec<(String, String, Option<String>)> = scan
        .diagnostics
        .iter()
        .filter(|d| is_field_code(d.code.as_str()))
        .map(|d| (d.code.to_string(), d.severity.to_string(), d.field.clone()))
        .collect();
    got.sort();
    let mut want: Vec<(String, String, Option<String>)> = expect["field_findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["field"].as_str().map(str::to_string),
            )
        })
        .collect();
    want.sort();
    assert_eq!(got, want, "{name}: field findings");
}

/// The fields (or the error) as `forms__fields_NAME.snap` (`forms__error_NAME.snap`).
fn field_snapshot(name: &str) {
    match scan(name) {
        Ok(scan) => insta::assert_json_snapshot!(format!("fields_{name}"), scan.fields),
        Err(e) => {
            assert!(expectation(name).get("error").is_some(), "{name}: {e}");
            insta::assert_json_snapshot!(
                format!("error_{name}"),
                serde_json::json!({"code": e.code(), "message": e.message()})
            );
        }
    }
}

/// The shared corpus (`../shared/corpus` beside the repository, or
/// `$SIGNPREP_CORPUS`): every oracle field is found, on its page, with its
/// box (0.5 pt), type, flags, options (of choice fields: the oracle gives
/// no button's `/Opt`), value (`"Off"` for a button the oracle gives no
/// `/V`), tooltip and max_len; nothing extra. Run with `cargo test -p signprep-core --test forms -- --ignored`
/// (`.ci/run` does).
#[test]
#[ignore = "needs the shared corpus ($SIGNPREP_CORPUS or ../shared/corpus): run with --ignored"]
fn corpus_fields_match_the_oracle() {
    let root = common::corpus_root();
    let mut checked = 0;
    for folder in ["forms", "real", "malformed"] {
        let Ok(dir) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        let mut pdfs: Vec<PathBuf> = dir
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
            .collect();
        pdfs.sort();
        for pdf in pdfs {
            let Ok(bytes) = std::fs::read(pdf.with_extension("oracle.json")) else {
                continue;
            };
            let oracle: Value = serde_json::from_slice(&bytes).unwrap();
            if oracle["expect"] == "error" {
                continue;
            }
            let want = oracle["fields"].as_array().unwrap();
            let record = Record::scan_file(&pdf, &LoadOptions::default(), &Scanner::new());
            let name = pdf.display();
            assert!(record.error.is_none(), "{name}: {:?}", record.error);
            let got: Vec<Value> = record
                .scan
                .fields
                .iter()
                .map(|f| serde_json::to_value(f).unwrap())
                .collect();
            let mut pool: Vec<Option<&Value>> = got.iter().map(Some).collect();
            for w in want {
                let in_page = |g: &Value| -> (f64, f64) {
                    let off = g["page"]
                        .as_u64()
                        .map_or(0.0, |p| record.scan.pages[p as usize].y_offset);
                    (g["x"].as_f64().unwrap(), g["y"].as_f64().unwrap() - off)
                };
                let best = pool
                    .iter()
                    .enumerate()
                    .filter_map(|(i, g)| g.map(|g| (i, g)))
                    .filter(|(_, g)| g["name"] == w["name"] && g["page"] == w["page"])
                    .min_by(|a, b| {
                        let d = |g: &Value| {
                            let (x, y) = in_page(g);
                            (x - w["x"].as_f64().unwrap()).abs()
                                + (y - w["y"].as_f64().unwrap()).abs()
                        };
                        d(a.1).total_cmp(&d(b.1))
                    });
                let (i, g) = best.unwrap_or_else(|| panic!("{name}: missed {}", w["name"]));
                let (x, y) = in_page(g);
                for (a, b, what) in [
                    (x, w["x"].as_f64().unwrap(), "x"),
                    (y, w["y"].as_f64().unwrap(), "y"),
                    (
                        g["width"].as_f64().unwrap(),
                        w["width"].as_f64().unwrap(),
                        "width",
                    ),
                    (
                        g["height"].as_f64().unwrap(),
                        w["height"].as_f64().unwrap(),
                        "height",
                    ),
                ] {
                    assert!(
                        (a - b).abs() <= 0.5,
                        "{name} {}: {what} {a} != {b}",
                        w["name"]
                    );
                }
                let button = w["type"] == "checkbox" || w["type"] == "radio";
                for key in [
                    "type",
                    "required",
                    "read_only",
                    "multiline",
                    "options",
                    "tooltip",
                    "max_len",
                ] {
                    // The oracle lists the /Opt of choice fields only; a
                    // button's export values are checked on the generated
                    // fixtures (form_buttons).
                    if key == "options" && button {
                        continue;
                    }
                    assert_eq!(g[key], w[key], "{name} {}: {key}", w["name"]);
                }
                // The oracle's value is /V as written (null without one); a
                // check box or radio button without /V is off, which we report
                // as "Off", as pdf.js and PyMuPDF do (README, "Form fields").
                let want_value = match &w["value"] {
                    Value::Null if button => Value::from("Off"),
                    v => v.clone(),
                };
                assert_eq!(g["value"], want_value, "{name} {}: value", w["name"]);
                pool[i] = None;
                checked += 1;
            }
            let extra: Vec<&Value> = pool.into_iter().flatten().collect();
            assert!(extra.is_empty(), "{name}: extra fields {extra:?}");
        }
    }
    eprintln!("{checked} corpus fields checked");
}

/// Separate fields with one full name: one finding per name, naming every
/// field's page and box as the `fields` entries give them (page-stacked
/// pixels); the widgets of one field (`total`) and a type conflict (`sign`)
/// are no duplicate.
#[test]
fn duplicate_names_give_every_place() {
    let scan = scan("form_duplicate_names").unwrap();
    let dup: Vec<(&str, &str, Option<usize>)> = scan
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "field_name_duplicate")
        .map(|d| (d.field.as_deref().unwrap(), d.message.as_str(), d.page))
        .collect();
    assert_eq!(
        dup,
        [
            (
                "client.phone",
                "field name `client.phone` is used by 2 separate fields: (page 1 at x 100, y 122, 200 x 20), \
                 (page 1 at x 100, y 152, 200 x 20); the service finds a field by its name, so a value or a \
                 `custom_id` for it cannot tell them apart",
                Some(0)
            ),
            (
                "email",
                "field name `email` is used by 2 separate fields: (page 1 at x 100, y 72, 200 x 20), \
                 (page 2 at x 120, y 1064, 200 x 20); the service finds a field by its name, so a value or a \
                 `custom_id` for it cannot tell them apart",
                Some(0)
            ),
        ]
    );
}

/// Buttons as pdf-lib, ReportLab and Acrobat write them: an unset check box
/// or radio group is "Off"; `/Opt` export values are the options, mapped to
/// the widgets' state names.
#[test]
fn button_values_and_export_values() {
    let scan = scan("form_buttons").unwrap();
    let by_name = |name: &str| {
        let f = scan.fields.iter().find(|f| f.name == name).unwrap();
        serde_json::to_value(f).unwrap()
    };
    let payment = by_name("payment");
    assert_eq!(
        payment["options"],
        serde_json::json!(["Card", "Transfer", "Cash"])
    );
    assert_eq!(payment["option_values"], serde_json::json!(["0", "1", "2"]));
    assert_eq!(payment["value"], "1");
    assert_eq!(by_name("terms")["value"], "Off");
    assert_eq!(by_name("size")["value"], "Off");
    assert_eq!(by_name("size")["options"], serde_json::json!([]));
    let tier = by_name("tier");
    assert_eq!(tier["options"], serde_json::json!(["gold", "silver"]));
    assert!(tier.get("option_values").is_none());
}
