//! Each vendor's documented examples → parsed attributes (sources in each
//! dialect module), and the grammar edge cases → problems.

use super::*;

/// The dialect that reads `raw` when every dialect is asked for, and its parse.
fn read(raw: &str) -> (Dialect, Parsed) {
    let c = [
        Delim::DoubleBrace,
        Delim::Brace,
        Delim::Bracket,
        Delim::DoubleBracket,
    ]
    .into_iter()
    .flat_map(|d| candidates(raw, d))
    .min_by_key(|c| (c.start, std::cmp::Reverse(c.end)))
    .unwrap_or_else(|| panic!("no candidate in {raw}"));
    let inner = c.inner(raw).trim().to_string();
    let d = contenders(c.delim, &inner)
        .into_iter()
        .find(|d| claims(*d, &inner))
        .unwrap_or_else(|| panic!("no dialect claims {raw}"));
    (d, parse(d, &inner))
}

/// A compact, comparable summary: dialect, kind, type, signer, index,
/// required, read-only, then the optional parts that are set.
fn summary(raw: &str) -> String {
    let (d, p) = read(raw);
    let a = &p.attrs;
    let mut s = format!(
        "{d} {}({}) signer={} idx={} req={} ro={}",
        a.kind,
        a.field_type,
        a.signer.as_deref().unwrap_or("-"),
        a.signer_index.map_or("-".into(), |n| n.to_string()),
        a.required,
        a.read_only
    );
    for (k, v) in [
        ("label", &a.label),
        ("name", &a.name),
        ("id", &a.id),
        ("default", &a.default),
    ] {
        if let Some(v) = v {
            s.push_str(&format!(" {k}={v}"));
        }
    }
    if !a.options.is_empty() {
        s.push_str(&format!(" options={}", a.options.join(",")));
    }
    if let Some(w) = a.width {
        s.push_str(&format!(" w={w}"));
    }
    if let Some(h) = a.height {
        s.push_str(&format!(" h={h}"));
    }
    for (k, v) in &a.extra {
        s.push_str(&format!(" {k}:{v}"));
    }
    for pr in &p.problems {
        s.push_str(&format!(" !{pr:?}"));
    }
    s
}

#[test]
fn adobe_documented_examples() {
    let cases = [
        (
            "{{Sig_es_:signer1:signature}}",
            "adobe signature(signature) signer=signer1 idx=1 req=true ro=false name=Sig",
        ),
        (
            "{{Int_es_:signer1:initials}}",
            "adobe initials(initials) signer=signer1 idx=1 req=true ro=false name=Int",
        ),
        (
            "{{Cmpy_es_:signer2:company}}",
            "adobe company(company) signer=signer2 idx=2 req=false ro=false name=Cmpy",
        ),
        (
            "{{address_es_:signer1}}",
            "adobe text(text) signer=signer1 idx=1 req=false ro=false name=address",
        ),
        (
            "{{*city_es_:signer1}}",
            "adobe text(text) signer=signer1 idx=1 req=true ro=false name=city",
        ),
        (
            "{{!price}}",
            "adobe text(text) signer=- idx=- req=false ro=true name=price",
        ),
        (
            "{{SigStamp_es_:signer1:stampimage(25)}}",
            "adobe stamp(stampimage) signer=signer1 idx=1 req=false ro=false name=SigStamp stampimage:25",
        ),
        (
            "{{OSig_es_:signer1:optsignature}}",
            "adobe signature(optsignature) signer=signer1 idx=1 req=false ro=false name=OSig",
        ),
        (
            "{{ signed_date_es_:signer1:date }}",
            "adobe date_signed(date) signer=signer1 idx=1 req=false ro=true name=signed_date",
        ),
        (
            "{{Name_es_:sender:text:label(Full name)}}",
            "adobe text(text) signer=sender idx=- req=false ro=false label=Full name name=Name",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
}

#[test]
fn dropbox_documented_examples() {
    let cases = [
        (
            "[text|noreq|signer1|Label|UniqueId]",
            "dropbox text(text) signer=signer1 idx=1 req=false ro=false label=Label id=UniqueId",
        ),
        (
            "[sig|req|signer1|customer_signature|customer_id]",
            "dropbox signature(sig) signer=signer1 idx=1 req=true ro=false label=customer_signature id=customer_id",
        ),
        (
            "[text-merge|req|sender|firstname|firstname_api_id]",
            "dropbox text(text-merge) signer=sender idx=- req=true ro=true label=firstname id=firstname_api_id",
        ),
        (
            "[checkbox-merge|req|signer1|is_registered|product_id]",
            "dropbox checkbox(checkbox-merge) signer=signer1 idx=1 req=true ro=false label=is_registered id=product_id",
        ),
        (
            "[initial|req|signer2|OptionalLabel|OptionalID]",
            "dropbox initials(initial) signer=signer2 idx=2 req=true ro=false label=OptionalLabel id=OptionalID",
        ),
        (
            "[sig|req|signer1 ]",
            "dropbox signature(sig) signer=signer1 idx=1 req=true ro=false",
        ),
        (
            "[date|req|signer1]",
            "dropbox date_signed(date) signer=signer1 idx=1 req=true ro=true",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
}

#[test]
fn boldsign_documented_examples() {
    let cases = [
        (
            "{{text|1|*|Enter name|field_1}}",
            "boldsign text(text) signer=1 idx=1 req=true ro=false label=Enter name id=field_1",
        ),
        (
            "{{text|1}}",
            "boldsign text(text) signer=1 idx=1 req=false ro=false",
        ),
        (
            "{{text|1|*}}",
            "boldsign text(text) signer=1 idx=1 req=true ro=false",
        ),
        (
            "{{text|1| |}}",
            "boldsign text(text) signer=1 idx=1 req=false ro=false",
        ),
        (
            "{{text|1|*|Enter name}}",
            "boldsign text(text) signer=1 idx=1 req=true ro=false label=Enter name",
        ),
        (
            "{{editdate|1|*|yyyy,MMM dd}}",
            "boldsign date(editdate) signer=1 idx=1 req=true ro=false date_format:yyyy,MMM dd",
        ),
        (
            "{{sign|2|*|Label|sig_2}}",
            "boldsign signature(sign) signer=2 idx=2 req=true ro=false label=Label id=sig_2",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
}

#[test]
fn docuseal_documented_examples() {
    let cases = [
        (
            "{{DOB;type=date;role=Customer;required=false}}",
            "docuseal date(date) signer=Customer idx=- req=false ro=false name=DOB",
        ),
        (
            "{{Field Name}}",
            "docuseal text(text) signer=- idx=- req=true ro=false name=Field Name",
        ),
        (
            "{{Sign;type=signature}}",
            "docuseal signature(signature) signer=- idx=- req=true ro=false name=Sign",
        ),
        (
            "{{Date;type=datenow}}",
            "docuseal date_signed(datenow) signer=- idx=- req=true ro=true name=Date",
        ),
        (
            "{{Photo;type=image}}",
            "docuseal image(image) signer=- idx=- req=true ro=false name=Photo",
        ),
        (
            "{{type=checkbox}}",
            "docuseal checkbox(checkbox) signer=- idx=- req=true ro=false",
        ),
        (
            "{{Radio name;type=radio;options=Opt1,Opt2}}",
            "docuseal radio(radio) signer=- idx=- req=true ro=false name=Radio name options=Opt1,Opt2",
        ),
        (
            "{{Name;type=signature;role=Client}}",
            "docuseal signature(signature) signer=Client idx=- req=true ro=false name=Name",
        ),
        (
            "{{Sum;type=text;readonly=true;default=100;width=120;height=20}}",
            "docuseal text(text) signer=- idx=- req=true ro=true name=Sum default=100 w=120 h=20",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
}

#[test]
fn signnow_documented_examples() {
    let cases = [
        (
            "{{t:s;r:y;o:\"CEO\";w:100;h:15;}}",
            "signnow signature(s) signer=CEO idx=- req=true ro=false w=100 h=15",
        ),
        (
            "{{t:i;r:n;o:\"CEO\";w:50;}}",
            "signnow initials(i) signer=CEO idx=- req=false ro=false w=50",
        ),
        (
            "{{t:t;r:n;o:\"CEO\";l:\"Label\";h:75;}}",
            "signnow text(t) signer=CEO idx=- req=false ro=false label=Label h=75",
        ),
        (
            "{{t:t;r:n;o:\"CEO\";l:\"Label\";w:100;v:\"13435fa6c2a17f83177fcbb5c4a9376ce85befeb\";}}",
            "signnow text(t) signer=CEO idx=- req=false ro=false label=Label w=100 validator_id:13435fa6c2a17f83177fcbb5c4a9376ce85befeb",
        ),
        (
            "{{t:s;r:y;o:\"Signer1\";}}",
            "signnow signature(s) signer=Signer1 idx=- req=true ro=false",
        ),
        (
            "{{t:t;r:y;o:\"Signer1\";l:\"Date\";}}",
            "signnow text(t) signer=Signer1 idx=- req=true ro=false label=Date",
        ),
        (
            "{{t:d;r:y;o:\"Client\";dd:\"Yes,No\";}}",
            "signnow dropdown(d) signer=Client idx=- req=true ro=false options=Yes,No",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
}

#[test]
fn pandadoc_documented_examples() {
    let cases = [
        (
            "[textfield:user:name___]",
            "pandadoc text(textfield) signer=user idx=- req=true ro=false id=name",
        ),
        (
            "{signature:*:s1:sigBox17_____}",
            "pandadoc signature(signature) signer=s1 idx=- req=false ro=false id=sigBox17",
        ),
        (
            "{s:Client__________}",
            "pandadoc signature(s) signer=Client idx=- req=true ro=false",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
}

#[test]
fn grammar_edge_cases_are_problems() {
    let cases = [
        ("{{Sig_es_:signer1:signatur}}", "UnknownType(\"signatur\")"),
        (
            "{{Sig_es_:signer0:signature}}",
            "SignerOutOfRange(\"signer0\")",
        ),
        ("{{Sig_es_}}", "Malformed"),
        ("[sig|required|signer1]", "Malformed"),
        ("[sig|req|signer0]", "SignerOutOfRange(\"signer0\")"),
        ("[signature|req|signer1]", "UnknownType(\"signature\")"),
        ("[sig|req]", "Malformed"),
        ("{{text|0|*}}", "SignerOutOfRange(\"0\")"),
        ("{{text|one}}", "Malformed"),
        ("{{checkbox|1}}", "UnknownType(\"checkbox\")"),
        ("{{text|1|*|L|bad id!}}", "Malformed"),
        ("{{X;type=sig}}", "UnknownType(\"sig\")"),
        ("{{X;required=maybe}}", "Malformed"),
        ("{{X;type=select}}", "Malformed"),
        ("{{X;width=wide}}", "Malformed"),
        ("{{t:x;r:y;o:\"A\";}}", "UnknownType(\"x\")"),
        ("{{t:s;o:\"A\";}}", "Malformed"),
        ("{{t:s;r:y;}}", "Malformed"),
        ("{signature:s1:}", "Malformed"),
        ("{signature:my_role}", "Malformed"),
        ("{stamp:Client}", "UnknownType(\"stamp\")"),
    ];
    for (raw, want) in cases {
        let (_, p) = read(raw);
        let got = format!("{:?}", p.problems);
        assert!(got.contains(want), "{raw}: {got} lacks {want}");
    }
}

#[test]
fn dialect_precedence_and_selection() {
    let text = "a {{Sig_es_:signer1:signature}} b {{x|1}} c {{t:s;r:y;o:\"A\";}} d [sig|req|signer1] e {{Client name}}";
    let got: Vec<(Dialect, String)> = {
        let mut all: Vec<Candidate> = [Delim::DoubleBrace, Delim::Brace, Delim::Bracket]
            .into_iter()
            .flat_map(|d| candidates(text, d))
            .collect();
        all.sort_by_key(|c| c.start);
        all.into_iter()
            .filter_map(|c| {
                let inner = c.inner(text).trim().to_string();
                contenders(c.delim, &inner)
                    .into_iter()
                    .find(|d| claims(*d, &inner))
                    .map(|d| (d, inner))
            })
            .collect()
    };
    let dialects: Vec<Dialect> = got.iter().map(|(d, _)| *d).collect();
    assert_eq!(
        dialects,
        [
            Dialect::Adobe,
            Dialect::Boldsign,
            Dialect::Signnow,
            Dialect::Dropbox,
            Dialect::Docuseal
        ]
    );
}

#[test]
fn candidates_stay_on_their_line() {
    // Wrapped tags are paired by column (`wrap`), not by text order.
    let text = "x {{Sig_es_:\nsigner1}} {{a\nb\nc}} {{ok}}";
    let c = candidates(text, Delim::DoubleBrace);
    let found: Vec<&str> = c.iter().map(|c| &text[c.start..c.end]).collect();
    assert_eq!(found, ["{{ok}}"]);
    assert!(candidates("{{never closed", Delim::DoubleBrace).is_empty());
    // A single brace inside double braces is not a PandaDoc candidate.
    assert!(candidates("{{s:Client}}", Delim::Brace).is_empty());
    assert_eq!(candidates("{s:Client} {{x}}", Delim::Brace).len(), 1);
}

#[test]
fn dialect_lists_parse() {
    assert_eq!(Dialects::parse("all"), Ok(Dialects::all()));
    let two = Dialects::parse("adobe, HelloSign").unwrap_or_default();
    assert_eq!(
        two.iter().collect::<Vec<_>>(),
        [Dialect::Adobe, Dialect::Dropbox]
    );
    assert!(Dialects::parse("").unwrap_or(Dialects::all()).is_empty());
    assert_eq!(
        Dialects::parse("nonsense"),
        Err(DialectError::Unknown("nonsense".into()))
    );
    // DocuSign has no text tags: named anywhere, before an unknown name.
    for list in ["docusign", "adobe, DocuSign", "nonsense,docusign"] {
        assert_eq!(Dialects::parse(list), Err(DialectError::Docusign), "{list}");
    }
}

#[test]
fn documenso_documented_examples() {
    // docs.documenso.com/users/documents/pdf-placeholders and the PR that
    // introduced placeholders (documenso#2111).
    let cases = [
        (
            "{{signature, r1}}",
            "documenso signature(signature) signer=r1 idx=1 req=true ro=false",
        ),
        (
            "{{name, r1}}",
            "documenso name(name) signer=r1 idx=1 req=true ro=false",
        ),
        (
            "{{email, r2}}",
            "documenso email(email) signer=r2 idx=2 req=true ro=false",
        ),
        (
            "{{date, r1}}",
            "documenso date_signed(date) signer=r1 idx=1 req=true ro=true",
        ),
        (
            "{{text, r1, required=true}}",
            "documenso text(text) signer=r1 idx=1 req=true ro=false",
        ),
        (
            "{{initials, r1}}",
            "documenso initials(initials) signer=r1 idx=1 req=true ro=false",
        ),
        (
            "{{text, r1, required=true, label=Company Name}}",
            "documenso text(text) signer=r1 idx=1 req=true ro=false label=Company Name",
        ),
        (
            "{{number, r1, minValue=0, maxValue=100, value=50}}",
            "documenso number(number) signer=r1 idx=1 req=false ro=false default=50 maxValue:100 minValue:0",
        ),
        (
            "{{name, r1, fontSize=14}}",
            "documenso name(name) signer=r1 idx=1 req=true ro=false fontSize:14",
        ),
        (
            "{{text, r2, readOnly=true, text=Contract #12345}}",
            "documenso text(text) signer=r2 idx=2 req=false ro=true default=Contract #12345",
        ),
        (
            "{{text,r1,required=true,textAlign=right,fontSize=50}}",
            "documenso text(text) signer=r1 idx=1 req=true ro=false fontSize:50 textAlign:right",
        ),
        (
            "{{ SIGNATURE, r1 }}",
            "documenso signature(signature) signer=r1 idx=1 req=true ro=false",
        ),
        (
            "{{free_signature, r2}}",
            "documenso signature(free_signature) signer=r2 idx=2 req=true ro=false",
        ),
        // Short aliases (helpers.ts): types, keys and values.
        (
            "{{s, R3}}",
            "documenso signature(signature) signer=r3 idx=3 req=true ro=false",
        ),
        (
            "{{t, r1, r=t, ta=c, l=company_name, p:your_name}}",
            "documenso text(text) signer=r1 idx=1 req=true ro=false label=Company Name placeholder:Your Name textAlign:center",
        ),
        (
            "{{dd, r2, dv=Blue}}",
            "documenso dropdown(dropdown) signer=r2 idx=2 req=false ro=false default=Blue",
        ),
        (
            "{{cb, r1, dir=h, vr=at_least, vl=1}}",
            "documenso checkbox(checkbox) signer=r1 idx=1 req=false ro=false direction:horizontal validationLength:1 validationRule:at_least",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
}

#[test]
fn documenso_edge_cases_are_problems() {
    let cases = [
        ("{{sig, r1}}", "UnknownType(\"sig\")"),
        ("{{signature, r0}}", "SignerOutOfRange(\"r0\")"),
        ("{{text, r1, readonly=true}}", "Malformed"),
        ("{{signature, r1, required=false}}", "Malformed"),
        ("{{text, r1, fontSize=big}}", "Malformed"),
        ("{{text, r1, fontSize=200}}", "Malformed"),
    ];
    for (raw, want) in cases {
        let (d, p) = read(raw);
        assert_eq!(d, Dialect::Documenso, "{raw}");
        let got = format!("{:?}", p.problems);
        assert!(got.contains(want), "{raw}: {got} lacks {want}");
    }
    // Without a recipient Documenso makes no field ("reserved for API use").
    assert!(!documenso::claims("signature"));
    assert!(!documenso::claims("signature, signer1"));
    assert!(documenso::claims("signature, r12"));
}

#[test]
fn dropbox_definitions_and_references() {
    // help.dropbox.com/integrations/grouping-checkboxes-using-text-tags-dropbox-sign
    let cases = [
        (
            "[def:$chk|check|req2|signer1]",
            "dropbox checkbox(check) signer=signer1 idx=1 req=true ro=false definition:chk group_requirement:req2",
        ),
        (
            "[def:$chk2|check|req1-2|signer1]",
            "dropbox checkbox(check) signer=signer1 idx=1 req=true ro=false definition:chk2 group_requirement:req1-2",
        ),
        (
            "[def:$name|text|req|signer1|Full name|name_id]",
            "dropbox text(text) signer=signer1 idx=1 req=true ro=false label=Full name id=name_id definition:name",
        ),
        (
            "[$chk]",
            "dropbox unknown($chk) signer=- idx=- req=false ro=false reference:chk",
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(summary(raw), want, "{raw}");
    }
    // A price in brackets is no reference.
    assert!(!dropbox::claims("$5"));
    assert!(!dropbox::claims("def:$x"));
}

#[test]
fn signnow_other_brackets_and_complex_tags() {
    let cases = [
        (
            "{t:s;r:y;o:\"Client\";}",
            "signnow signature(s) signer=Client idx=- req=true ro=false",
        ),
        (
            "[t:s;r:y;o:\"Client\";]",
            "signnow signature(s) signer=Client idx=- req=true ro=false",
        ),
        (
            "[[t:i;r:n;o:\"Signer 1\";]]",
            "signnow initials(i) signer=Signer 1 idx=- req=false ro=false",
        ),
        (
            "{{t:t;r:n;o:\"CEO\";l:\"Label\";p:\"test prefilled text\";h:75;}}",
            "signnow text(t) signer=CEO idx=- req=false ro=false label=Label default=test prefilled text h=75",
        ),
        (
            "[[name]]",
            "signnow unknown(complex) signer=- idx=- req=false ro=false name=name !DefinedElsewhere(",
        ),
    ];
    for (raw, want) in cases {
        let got = summary(raw);
        assert!(got.starts_with(want), "{raw}: {got}");
    }
    assert!(signnow::reads_wrapped(&["{{t:s;r:y;", "o:\"CEO\";}}"]));
    assert!(signnow::reads_wrapped(&["{{t:s;r:y", ";o:\"CEO\";}}"]));
    assert!(!signnow::reads_wrapped(&["{{t:s;r:y;o:\"C", "EO\";}}"]));
}

#[test]
fn bare_names_fall_back_to_docuseal_without_other_evidence() {
    // With no document to decide by, a bare name is read as before.
    let (d, _) = read("{{Client name}}");
    assert_eq!(d, Dialect::Docuseal);
    // A placeholder with a recipient is Documenso's, not a DocuSeal name.
    let (d, _) = read("{{signature,r1}}");
    assert_eq!(d, Dialect::Documenso);
}
