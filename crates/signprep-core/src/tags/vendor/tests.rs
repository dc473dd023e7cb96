//! Each vendor's documented examples → parsed attributes (sources in each
//! dialect module), and the grammar edge cases → problems.

use super::*;

/// The dialect that reads `raw` when every dialect is asked for, and its parse.
fn read(raw: &str) -> (Dialect, Parsed) {
    let c = [Delim::DoubleBrace, Delim::Brace, Delim::Bracket]
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
fn candidates_stay_on_two_lines_and_mark_splits() {
    let c = candidates(
        "x {{Sig_es_:\nsigner1}} {{a\nb\nc}} {{ok}}",
        Delim::DoubleBrace,
    );
    let splits: Vec<bool> = c.iter().map(|c| c.split).collect();
    assert_eq!(splits, [true, false]);
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
        Dialects::parse("docusign"),
        Err(UnknownDialect("docusign".into()))
    );
}
