//! `signprep preview --pack` and `--manifest` on the worked example
//! (`testdata/example`: a manifest, two tag-syntax PDFs, a form-field PDF and
//! a template child).
#![cfg(feature = "render")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{Scratch, scratch as scratch_in};

fn example() -> PathBuf {
    common::testdata("example")
}

fn scratch(name: &str) -> Scratch {
    scratch_in("preview-pack", name)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(args)
        .output()
        .expect("signprep runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The pack `signprep pack` writes for the example.
fn example_pack(dir: &Path) -> PathBuf {
    let out = dir.join("pack.json");
    let o = run(&["pack", s(&example().join("pack.toml")), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    out
}

/// The overlay JSON of every page, by child stem (`01-nda`), pages in order.
fn overlays(dir: &Path) -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for name in listing(dir).iter().filter(|n| n.ends_with(".json")) {
        let (stem, _) = name.rsplit_once("-p").unwrap();
        let v: Value = serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap();
        out.entry(stem.to_string()).or_default().push(v);
    }
    out
}

const EXAMPLE_FILES: &[&str] = &[
    "01-nda-p1.json",
    "01-nda-p1.png",
    "02-services-p1.json",
    "02-services-p1.png",
    "02-services-p2.json",
    "02-services-p2.png",
    "03-Client-onboarding-p1.json",
    "03-Client-onboarding-p1.png",
];

#[test]
fn manifest_previews_every_pdf_child_with_signers_and_values() {
    let out = scratch("manifest");
    let o = run(&[
        "preview",
        "--manifest",
        s(&example().join("pack.toml")),
        "-o",
        s(&out),
        "--overlay-json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(listing(&out), EXAMPLE_FILES);
    // The template child has no PDF here, and says so.
    let err = stderr(&o);
    assert!(
        err.contains("document 4 `Pricing schedule` is made from a template"),
        "{err}"
    );
    // stdout lists what was written, in order.
    let stdout = String::from_utf8(o.stdout).unwrap();
    let written: Vec<&str> = stdout.lines().collect();
    assert_eq!(written.len(), EXAMPLE_FILES.len());
    assert!(written[0].ends_with("01-nda-p1.png"), "{stdout}");

    let all = overlays(&out);
    for (stem, pages) in &all {
        insta::assert_json_snapshot!(format!("overlay_{stem}"), pages);
    }

    // Who signs where and what is pre-filled, as the manifest says: `*_CLIENT`
    // to the client, `*_COMPANY` to the company, CLIENT_NAME and FEE values.
    let boxes: Vec<&Value> = all
        .values()
        .flatten()
        .flat_map(|p| p["boxes"].as_array().unwrap())
        .collect();
    let find = |stem: &str, label: &str| -> Value {
        all[stem]
            .iter()
            .flat_map(|p| p["boxes"].as_array().unwrap().clone())
            .find(|b| b["label"] == label)
            .unwrap_or_else(|| panic!("{label} in {stem}"))
    };
    assert_eq!(find("01-nda", "SIG_CLIENT")["signer"], "Ann Client");
    assert_eq!(find("01-nda", "SIG_COMPANY")["signer"], "Bob Acme");
    assert_eq!(find("01-nda", "CLIENT_NAME")["value"], "Ann Client");
    assert_eq!(find("02-services", "FEE")["value"], "1200");
    assert_eq!(find("02-services", "SIG_COMPANY")["signer"], "Bob Acme");
    assert_eq!(
        find("03-Client-onboarding", "client_name")["value"],
        "Ann Client"
    );
    assert_eq!(find("03-Client-onboarding", "iban")["signer"], Value::Null);
    // START_DATE has no data field: an info note on its box, no outline.
    let start = find("02-services", "START_DATE");
    assert_eq!(start["note_codes"], json!(["tag_without_data_field"]));
    assert_eq!(start["severity"], Value::Null);

    // One colour per signer across every child, and different signers differ.
    let mut colours: BTreeMap<String, String> = BTreeMap::new();
    for b in &boxes {
        if let Some(signer) = b["signer"].as_str() {
            let c = b["colour"].as_str().unwrap().to_string();
            assert_eq!(colours.entry(signer.to_string()).or_insert(c.clone()), &c);
        }
    }
    assert_eq!(colours.len(), 2, "{colours:?}");
    assert_ne!(colours["Ann Client"], colours["Bob Acme"]);
}

#[test]
fn pack_previews_match_the_manifests() {
    let dir = scratch("pack");
    let pack = example_pack(&dir);
    let (a, b) = (dir.join("from-manifest"), dir.join("from-pack"));
    let o = run(&[
        "preview",
        "--manifest",
        s(&example().join("pack.toml")),
        "-o",
        s(&a),
        "--overlay-json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "preview",
        "--pack",
        s(&pack),
        "-o",
        s(&b),
        "--overlay-json",
        "--jobs",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(listing(&b), EXAMPLE_FILES);
    for name in EXAMPLE_FILES {
        assert!(
            std::fs::read(a.join(name)).unwrap() == std::fs::read(b.join(name)).unwrap(),
            "{name} differs between --manifest and --pack"
        );
    }
    // No temporary file is left behind.
    assert!(listing(&b).iter().all(|n| !n.ends_with(".tmp")));
}

/// Adds data fields to child `child` of the example pack and writes it.
fn pack_with(dir: &Path, child: usize, fields: Value) -> PathBuf {
    let pack = example_pack(dir);
    let mut v: Value = serde_json::from_slice(&std::fs::read(&pack).unwrap()).unwrap();
    let list = v["documents"][child]["data_fields"].as_array_mut().unwrap();
    list.extend(fields.as_array().unwrap().iter().cloned());
    let path = dir.join("edited.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    path
}

#[test]
fn a_data_field_naming_a_missing_tag_is_a_finding() {
    let dir = scratch("missing");
    let pack = pack_with(
        &dir,
        0,
        json!([{"custom_id": "SIG_WITNESS", "signatory_uuid": "b8e4d6c2-1a3f-4e5b-9c7d-2f0a8b6e4d22"}]),
    );
    let out = dir.join("out");
    let o = run(&[
        "preview",
        "--pack",
        s(&pack),
        "-o",
        s(&out),
        "--overlay-json",
        "--pages",
        "1",
    ]);
    // An error, as the field's signer is lost (issue 16 item 8): the images
    // are still written, exit 1, and the last line says why.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("error[custom_id_not_in_document]"), "{err}");
    assert!(
        err.lines()
            .last()
            .is_some_and(|l| l.starts_with("error: 1 error-level finding in ")),
        "{err}"
    );
    assert!(err.contains("SIG_WITNESS"), "{err}");
    let all = overlays(&out);
    let notes = &all["01-nda"][0]["notes"];
    let note = notes
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["code"] == "custom_id_not_in_document")
        .unwrap_or_else(|| panic!("no note in {notes}"));
    assert_eq!(note["severity"], "error");
    assert_eq!(note["name"], "SIG_WITNESS");
    assert!(note["message"].as_str().unwrap().contains("SIG_WITNESS"));
    // Only on its own child.
    assert!(all["02-services"][0].get("notes").is_none_or(|n| {
        !n.as_array()
            .unwrap()
            .iter()
            .any(|n| n["code"] == "custom_id_not_in_document")
    }));
    // `--pages 1` draws page 1 of every child.
    assert_eq!(
        listing(&out)
            .iter()
            .filter(|n| n.ends_with(".png"))
            .collect::<Vec<_>>(),
        [
            "01-nda-p1.png",
            "02-services-p1.png",
            "03-Client-onboarding-p1.png"
        ]
    );
}

#[test]
fn an_unknown_signer_is_an_error_on_its_box() {
    let dir = scratch("unknown-signer");
    let pack = pack_with(
        &dir,
        2,
        json!([{"custom_id": "iban", "data": "GB00", "signatory_uuid": "00000000-0000-4000-8000-000000000000"}]),
    );
    let out = dir.join("out");
    let o = run(&[
        "preview",
        "--pack",
        s(&pack),
        "-o",
        s(&out),
        "--overlay-json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("error[data_field_signer_unknown]"));
    let page = &overlays(&out)["03-Client-onboarding"][0];
    let iban = page["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["label"] == "iban")
        .unwrap();
    assert_eq!(iban["severity"], "error");
    assert_eq!(iban["value"], "GB00");
    assert_eq!(iban["signer"], "unknown 00000000");
    assert_eq!(iban["note_codes"], json!(["data_field_signer_unknown"]));
    // The images are still written.
    assert!(out.join("03-Client-onboarding-p1.png").is_file());
}

#[test]
fn a_manifest_field_naming_a_missing_field_is_a_finding() {
    let dir = scratch("manifest-missing");
    std::fs::copy(
        example().join("forms/onboarding.pdf"),
        dir.join("onboarding.pdf"),
    )
    .unwrap();
    std::fs::copy(example().join("contracts/nda.pdf"), dir.join("nda.pdf")).unwrap();
    let manifest = dir.join("pack.toml");
    std::fs::write(
        &manifest,
        r#"
name = "Missing"
[[signers]]
handle = "ann"
name = "Ann"
email = "ann@example.com"
[[documents]]
path = "onboarding.pdf"
name = "Form"
[[documents.fields]]
custom_id = "client_signature"
signer = "ann"
[[documents.fields]]
custom_id = "client_nmae"
data = "Ann"
[[documents]]
path = "nda.pdf"
name = "Form"
[[documents.fields]]
match = "SIG_*"
signer = "ann"
"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = run(&[
        "preview",
        "--manifest",
        s(&manifest),
        "-o",
        s(&out),
        "--overlay-json",
    ]);
    // `client_nmae` carries a value the service would drop: an error.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // Two children with one name never share a file.
    assert_eq!(
        listing(&out),
        [
            "01-Form-p1.json",
            "01-Form-p1.png",
            "02-Form-p1.json",
            "02-Form-p1.png"
        ]
    );
    let all = overlays(&out);
    let notes = all["01-Form"][0]["notes"].as_array().unwrap();
    let missing = notes
        .iter()
        .find(|n| n["code"] == "custom_id_not_in_document")
        .unwrap_or_else(|| panic!("{notes:?}"));
    assert_eq!(missing["name"], "client_nmae");
    // The manifest's own findings are printed, located in the manifest.
    let err = stderr(&o);
    assert!(err.contains("error[custom_id_not_in_document]"), "{err}");
    assert!(err.contains("  --> /documents/0/fields/1, in "), "{err}");
    // The pattern assigns both SIG tags of the second child to Ann.
    let signed: Vec<&str> = all["02-Form"][0]["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["signer"] == "Ann")
        .map(|b| b["label"].as_str().unwrap())
        .collect();
    assert_eq!(signed, ["SIG_CLIENT", "SIG_COMPANY"]);
}

#[test]
fn bad_requests_exit_2_naming_the_file() {
    let dir = scratch("bad");
    let out = dir.join("out");
    let missing = dir.join("nope.json");
    let o = run(&["preview", "--pack", s(&missing), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(s(&missing)), "{}", stderr(&o));

    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"documents\": [").unwrap();
    let o = run(&["preview", "--pack", s(&broken), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(s(&broken)), "{}", stderr(&o));

    let manifest = example().join("pack.toml");
    let o = run(&["preview", "--pack", s(&manifest), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("use --manifest"), "{}", stderr(&o));

    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "name = \"x\"\nsigners = 3\n").unwrap();
    let o = run(&["preview", "--manifest", s(&bad_toml), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(s(&bad_toml)), "{}", stderr(&o));

    // --signer belongs to single-file previews.
    let o = run(&[
        "preview",
        "--manifest",
        s(&manifest),
        "--signer",
        "A=b",
        "-o",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists(), "nothing is written on a usage error");
}

#[test]
fn an_undecodable_child_is_reported_and_the_rest_drawn() {
    let dir = scratch("undecodable");
    let pack = example_pack(&dir);
    let mut v: Value = serde_json::from_slice(&std::fs::read(&pack).unwrap()).unwrap();
    v["documents"][0]["document_creation_settings"]["base_64_document"] = json!("%%% not base64");
    std::fs::write(&pack, serde_json::to_vec(&v).unwrap()).unwrap();
    let out = dir.join("out");
    let o = run(&["preview", "--pack", s(&pack), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("document 1 `nda`"), "{}", stderr(&o));
    assert_eq!(
        listing(&out),
        [
            "02-services-p1.png",
            "02-services-p2.png",
            "03-Client-onboarding-p1.png"
        ]
    );
}

/// `preview --pack PLAN.json`: a request plan `migrate` wrote, moved with
/// its PDF to another folder and previewed from a third working folder,
/// draws the PDF its `upload` names (read from the plan's folder) with every
/// positioned data field where the plan puts it, labelled with its type and
/// signer. Before, `--pack` refused a plan (`is a requests body`).
#[test]
fn a_request_plan_previews_the_pdf_it_uploads_from_its_own_folder() {
    let root = scratch("plan");
    let first = root.join("first");
    std::fs::create_dir_all(&first).unwrap();
    std::fs::copy(
        common::testdata("migrate").join("dropbox_contract.pdf"),
        first.join("contract.pdf"),
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args([
            "migrate",
            "contract.pdf",
            "-q",
            "-o",
            "plans",
            "--signer",
            "signer1=client@example.com",
            "--signer",
            "signer2=Wendy Ward <wendy@example.com>",
        ])
        .current_dir(&first)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The plan and its PDF move together; the preview runs from elsewhere.
    let moved = root.join("moved");
    std::fs::rename(&first, &moved).unwrap();
    let third = root.join("third");
    std::fs::create_dir_all(&third).unwrap();
    let plan_path = moved.join("plans/contract.json");
    let plan: Value = serde_json::from_slice(&std::fs::read(&plan_path).unwrap()).unwrap();
    assert_eq!(plan["requests"][0]["upload"], "../contract.pdf");
    let o = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args([
            "preview",
            "--pack",
            s(&plan_path),
            "-o",
            "out",
            "--overlay-json",
        ])
        .current_dir(&third)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = third.join("out");
    assert_eq!(listing(&out), ["01-contract-p1.json", "01-contract-p1.png"]);
    let overlay: Value =
        serde_json::from_slice(&std::fs::read(out.join("01-contract-p1.json")).unwrap()).unwrap();
    let boxes = overlay["boxes"].as_array().unwrap();
    let body = &plan["requests"][0]["body"];
    let fields = body["data_fields"].as_array().unwrap();
    assert!(!fields.is_empty());
    // Plan pixels are 72 dpi (migrate's default); the preview draws at 96.
    let k = 96.0 / 72.0;
    let near = |a: &Value, b: f64| (a.as_f64().unwrap() - b).abs() < 0.01;
    for f in fields {
        let x = f["x"].as_f64().unwrap() * k;
        let y = f["y"].as_f64().unwrap() * k;
        let drawn = boxes
            .iter()
            .find(|b| near(&b["x"], x) && near(&b["y"], y))
            .unwrap_or_else(|| panic!("{f} is not drawn: {overlay:#}"));
        assert_eq!(drawn["type"], f["type"], "{drawn}");
        assert!(near(&drawn["width"], f["width"].as_f64().unwrap() * k));
        let uuid = &f["signatory_uuid"];
        let who = body["signatories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["uuid"] == *uuid)
            .map(|s| s["name"].as_str().or(s["email"].as_str()).unwrap());
        assert_eq!(drawn["signer"].as_str(), who, "{drawn}");
    }
    let signers: Vec<&str> = boxes.iter().filter_map(|b| b["signer"].as_str()).collect();
    assert!(signers.contains(&"client@example.com"), "{signers:?}");
    assert!(signers.contains(&"Wendy Ward"), "{signers:?}");
}

/// A folder given to `--manifest` or `--pack` is a usage error in our words,
/// not the system's `Is a directory`.
#[test]
fn a_folder_for_manifest_or_pack_is_named_as_one() {
    let dir = example();
    for flag in ["--manifest", "--pack"] {
        let o = run(&["preview", flag, s(&dir), "-o", "/nonexistent/never"]);
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        let last = stderr(&o).lines().last().unwrap().to_string();
        assert!(!last.contains("os error"), "{flag}: {last}");
        assert!(
            last.starts_with(&format!(
                "error: {} is a folder: {flag} takes one file",
                dir.display()
            )),
            "{flag}: {last}"
        );
    }
}
