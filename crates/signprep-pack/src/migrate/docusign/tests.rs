//! The anchor-file reader on DocuSign JSON (API and SDK forms), TOML and
//! `--anchor` arguments.
#![allow(clippy::unwrap_used)]
use super::*;

#[test]
fn envelope_definition_recipients_and_tabs() {
    let json = br#"{
      "emailSubject": "Please sign",
      "documents": [{"documentId": "1", "name": "c.pdf", "documentBase64": "JVBERi0="}],
      "recipients": {
        "signers": [{
          "recipientId": "1", "roleName": "Buyer", "name": "Bea", "email": "bea@example.com",
          "tabs": {
            "signHereTabs": [{"anchorString": "/sn1/", "anchorYOffset": "-10", "anchorUnits": "pixels"}],
            "dateSignedTabs": [{"anchorString": "/ds1/", "anchorIgnoreIfNotPresent": "true"}],
            "textTabs": [{"xPosition": "10", "yPosition": "20", "pageNumber": "1", "documentId": "1"}],
            "radioGroupTabs": [{"groupName": "pay", "radios": [
              {"anchorString": "/r1/", "value": "card"}, {"anchorString": "/r2/", "value": "cash"}]}],
            "prefillTabs": {"textTabs": [{"anchorString": "/pf/"}]}
          }
        }],
        "carbonCopies": [{"recipientId": "2", "name": "Cid", "email": "cid@example.com"}]
      }
    }"#;
    let mut f = AnchorFile::new();
    f.add_file(Path::new("env.json"), json).unwrap();
    // JSON objects are read in key order (serde_json's map is sorted).
    let by = |a: &str| f.anchors.tabs().iter().find(|t| t.anchor == a).unwrap();
    assert_eq!(f.anchors.tabs().len(), 5);
    assert_eq!(by("/sn1/").list, "signHereTabs");
    assert_eq!(by("/sn1/").y_offset, -10.0);
    assert_eq!(by("/sn1/").recipient_id.as_deref(), Some("1"));
    assert_eq!(by("/sn1/").role.as_deref(), Some("Buyer"));
    assert!(by("/ds1/").ignore_if_not_present);
    assert_eq!(by("/r2/").options, ["card", "cash"]);
    assert_eq!(by("/r2/").label.as_deref(), Some("pay"));
    assert!(by("/pf/").sender && by("/pf/").read_only);
    assert_eq!(f.positioned, 1);
    assert_eq!(f.recipients.len(), 2);
    assert_eq!(f.recipients[0].email.as_deref(), Some("cid@example.com"));
}

/// What `json.dumps(envelope_definition.to_dict())` writes with DocuSign's
/// Python SDK (docusign-esign): snake_case keys, every unset attribute
/// `null`. Read as the REST API's camelCase form is.
#[test]
fn python_sdk_dicts_are_read_like_the_api_json() {
    let json = br#"{
      "email_subject": "Please sign", "status": null,
      "documents": [{"document_id": "1", "document_base64": "JVBERi0=", "name": "c.pdf"}],
      "recipients": {
        "agents": null, "carbon_copies": [{"recipient_id": "2", "email": "cid@example.com", "name": "Cid", "tabs": null}],
        "signers": [{
          "recipient_id": "1", "role_name": "Buyer", "name": "Bea", "email": "bea@example.com",
          "tabs": {
            "approve_tabs": null,
            "sign_here_tabs": [{"anchor_string": "/sn1/", "anchor_y_offset": "-10", "anchor_units": "pixels",
                                "anchor_case_sensitive": null, "anchor_ignore_if_not_present": null,
                                "anchor_x_offset": "20", "width": null, "tab_label": "Sig"}],
            "date_signed_tabs": [{"anchor_string": "/ds1/", "anchor_ignore_if_not_present": "true",
                                  "anchorIgnoreIfNotPresent": "false"}],
            "radio_group_tabs": [{"group_name": "pay", "radios": [
              {"anchor_string": "/r1/", "value": "card"}, {"anchor_string": "/r2/", "value": "cash"}]}]
          }
        }]
      }
    }"#;
    let mut f = AnchorFile::new();
    f.add_file(Path::new("env.json"), json).unwrap();
    let by = |a: &str| f.anchors.tabs().iter().find(|t| t.anchor == a).unwrap();
    assert_eq!(f.anchors.tabs().len(), 4);
    let sig = by("/sn1/");
    assert_eq!(sig.list, "signHereTabs");
    assert_eq!((sig.x_offset, sig.y_offset), (20.0, -10.0));
    assert_eq!(sig.recipient_id.as_deref(), Some("1"));
    assert_eq!(sig.role.as_deref(), Some("Buyer"));
    assert_eq!(sig.label.as_deref(), Some("Sig"));
    assert!(sig.problems.is_empty(), "{:?}", sig.problems);
    assert!(!sig.ignore_if_not_present);
    // Both spellings: the API's wins.
    assert!(!by("/ds1/").ignore_if_not_present);
    assert_eq!(by("/r2/").options, ["card", "cash"]);
    assert_eq!(by("/r2/").label.as_deref(), Some("pay"));
    assert_eq!(f.recipients.len(), 2);
    assert_eq!(f.recipients[0].email.as_deref(), Some("cid@example.com"));
}

#[test]
fn camel_case_of_sdk_keys() {
    for (snake, camel) in [
        ("anchor_x_offset", "anchorXOffset"),
        ("sign_here_tabs", "signHereTabs"),
        ("in_person_signers", "inPersonSigners"),
        ("anchorString", "anchorString"),
        ("name", "name"),
        ("_private", "_private"),
    ] {
        assert_eq!(camel_case(snake), camel, "{snake}");
    }
}

#[test]
fn bad_values_are_problems_not_failures() {
    let json = br#"{"signHereTabs": [{"anchorString": "x", "anchorXOffset": "one", "anchorUnits": "furlongs", "anchorCaseSensitive": "maybe"}]}"#;
    let mut f = AnchorFile::new();
    f.add_file(Path::new("t.json"), json).unwrap();
    assert_eq!(
        f.anchors.tabs()[0].problems.len(),
        3,
        "{:?}",
        f.anchors.tabs()[0].problems
    );
}

#[test]
fn files_without_anchors_and_bad_files_are_errors() {
    let mut f = AnchorFile::new();
    let e = f
        .add_file(
            Path::new("t.json"),
            br#"{"textTabs": [{"xPosition": "1"}]}"#,
        )
        .unwrap_err();
    assert!(e.to_string().contains("1 tab(s) placed by position"), "{e}");
    let e = f.add_file(Path::new("t.json"), b"{").unwrap_err();
    assert!(
        e.to_string()
            .contains("t.json: not a DocuSign anchor file (line 1"),
        "{e}"
    );
    let e = f
        .add_file(
            Path::new("t.toml"),
            b"[[tabs]]\ntype = \"signHere\"\nanchor = \"x\"\nbogus = 1\n",
        )
        .unwrap_err();
    assert!(e.to_string().contains("line 4"), "{e}");
}

#[test]
fn toml_and_arguments() {
    let toml = b"[[recipients]]\nid = \"1\"\nrole = \"Buyer\"\nemail = \"b@example.com\"\n\n[[tabs]]\ntype = \"initialHere\"\nanchor = \"*in1*\"\nrecipient = \"Buyer\"\nunits = \"mms\"\nx_offset = 5\n";
    let mut f = AnchorFile::new();
    f.add_file(Path::new("a.toml"), toml).unwrap();
    let t = &f.anchors.tabs()[0];
    assert_eq!(t.list, "initialHereTabs");
    assert_eq!(t.recipient_id.as_deref(), Some("1"));
    assert_eq!(t.units, AnchorUnits::Mms);
    f.add_arg("/FullName/=fullName:2").unwrap();
    f.add_arg("a=b=text").unwrap();
    assert_eq!(f.anchors.tabs()[2].anchor, "a=b");
    assert!(f.add_arg("x=nosuchtype").is_err());
    assert!(f.add_arg("=signHere").is_err());
    assert!(f.add_arg("nothing").is_err());
}
