//! `signprep explain`, the README and the guide (`docs/src/**/*.md`) give every
//! code the same severity.
//!
//! The README and the guide's pages state severities in tables (`| code(s) | severity | ... |`,
//! several codes in a row with one severity each, `error, warning`, or one for
//! all; what follows a `;` or a `(` is a condition: `warning; error when ...`)
//! and in prose (`` `vendor_anchor_not_found` warning ``, `` (`code`, info) ``,
//! `` an error (`document_kind_unknown`) ``). Each of them is compared with
//! `signprep explain --list`; every disagreement is listed with its line. And every
//! pack code is documented on some written page (the "Pack findings" table and the
//! pages around it), not only in the generated reference.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::process::Command;

const SEVERITIES: [&str; 3] = ["error", "warning", "info"];

/// Code -> severity, as `signprep explain --list` prints them.
fn explained() -> BTreeMap<String, String> {
    let o = Command::new(env!("CARGO_BIN_EXE_signprep"))
        .args(["explain", "--list"])
        .output()
        .expect("signprep runs");
    assert!(o.status.success());
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut words = l.split_whitespace();
            let code = words.next().expect("a code").to_string();
            let severity = words.next().expect("a severity").to_string();
            (code, severity)
        })
        .collect()
}

/// One severity a page states: its page, line, the code and the word.
#[derive(Debug, PartialEq)]
struct Stated {
    page: String,
    line: usize,
    code: String,
    severity: String,
}

/// The code spans of a line (the text between backticks).
fn spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// A table row's severities: `error`, `error, warning`, `error / info`;
/// `None` when its second cell is no severity.
fn row_severities(cell: &str) -> Option<Vec<&str>> {
    let head = cell.split([';', '(']).next().unwrap_or_default();
    let words: Vec<&str> = head.split([',', '/']).map(str::trim).collect();
    words
        .iter()
        .all(|w| SEVERITIES.contains(w))
        .then_some(words)
}

/// The severity word that `text` (what follows a code span) starts with:
/// `` warning``, ``, info``, `` is an error``.
fn severity_after(text: &str) -> Option<&'static str> {
    let t = text.strip_prefix(',').unwrap_or(text);
    let t = t.strip_prefix(' ')?;
    let t = t.strip_prefix("is ").unwrap_or(t);
    let t = t
        .strip_prefix("an ")
        .or_else(|| t.strip_prefix("a "))
        .unwrap_or(t);
    SEVERITIES.into_iter().find(|s| {
        t.strip_prefix(s)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// The severity word that `text` (what comes before a code span) ends with:
/// ``an error, ``, ``an error (``, ``error-level finding (``.
fn severity_before(text: &str) -> Option<&'static str> {
    let t = text.strip_suffix('(').unwrap_or(text);
    let t = t.strip_suffix(' ')?;
    let t = t.strip_suffix(',').unwrap_or(t);
    let t = t.strip_suffix(" finding").unwrap_or(t);
    let t = t.strip_suffix("-level").unwrap_or(t);
    SEVERITIES.into_iter().find(|s| {
        t.strip_suffix(s)
            .is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// Every severity `page` states for a code `known` holds, and the rows it
/// cannot read (a count of severities that fits neither one code nor each).
fn stated(
    page: &str,
    readme: &str,
    known: &BTreeMap<String, String>,
) -> (Vec<Stated>, Vec<String>) {
    let mut out = Vec::new();
    let mut unread = Vec::new();
    for (i, line) in readme.lines().enumerate() {
        let n = i + 1;
        if line.starts_with('|') {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
            let (Some(codes), Some(sev)) = (cells.first(), cells.get(1)) else {
                continue;
            };
            let Some(words) = row_severities(sev) else {
                continue;
            };
            let codes = spans(codes);
            let words = if words.len() == 1 {
                vec![words[0]; codes.len()]
            } else {
                words
            };
            if words.len() != codes.len() {
                unread.push(format!("{page}:{n}: {line}"));
                continue;
            }
            for (code, word) in codes.into_iter().zip(words) {
                out.push(Stated {
                    page: page.to_string(),
                    line: n,
                    code: code.to_string(),
                    severity: word.to_string(),
                });
            }
            continue;
        }
        let parts: Vec<&str> = line.split('`').collect();
        for k in (1..parts.len()).step_by(2) {
            let code = parts[k];
            if !known.contains_key(code) {
                continue;
            }
            let after = parts.get(k + 1).copied().and_then(severity_after);
            let before = parts.get(k - 1).copied().and_then(severity_before);
            for word in [after, before].into_iter().flatten() {
                out.push(Stated {
                    page: page.to_string(),
                    line: n,
                    code: code.to_string(),
                    severity: word.to_string(),
                });
            }
        }
    }
    (out, unread)
}

#[test]
fn the_readme_reader_finds_tables_and_prose() {
    let known: BTreeMap<String, String> = [("a_code", "error"), ("b_code", "info")]
        .into_iter()
        .map(|(c, s)| (c.to_string(), s.to_string()))
        .collect();
    let text = "| `a_code`, `b_code` | error, info | what |\n\
                | `a_code` | warning; error when it matters | what |\n\
                | `a_code` / `b_code` | error | what |\n\
                | `a_code` | `b_code` | not a severity |\n\
                | `a_code`, `b_code` | error, info, warning | three for two |\n\
                A `b_code` warning here, (`a_code`, info) there, and an error (`b_code`).\n\
                `a_code` is an error; the `a_code` records; an information `b_code`.\n";
    let (got, unread) = stated("t.md", text, &known);
    let got: Vec<(usize, &str, &str)> = got
        .iter()
        .map(|s| (s.line, s.code.as_str(), s.severity.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "a_code", "error"),
            (1, "b_code", "info"),
            (2, "a_code", "warning"),
            (3, "a_code", "error"),
            (3, "b_code", "error"),
            (6, "b_code", "warning"),
            (6, "a_code", "info"),
            (6, "b_code", "error"),
            (7, "a_code", "error"),
        ]
    );
    assert_eq!(unread.len(), 1, "{unread:?}");
}

/// The generated reference (`signprep explain --markdown`, kept equal to it by
/// CI's diff and by codes.rs) is no statement of ours: it is left out, so the
/// count below measures what the README and the written pages say.
const GENERATED: &str = "docs/src/reference/diagnostics.md";

#[test]
fn explain_the_readme_and_the_guide_agree_on_every_severity() {
    let known = explained();
    let mut stated_all = Vec::new();
    let mut unread = Vec::new();
    for (page, text) in common::guide() {
        if page == GENERATED {
            continue;
        }
        let (s, u) = stated(&page, &text, &known);
        stated_all.extend(s);
        unread.extend(u);
    }
    assert!(unread.is_empty(), "rows not read: {unread:#?}");
    assert!(
        stated_all.len() > 100,
        "only {} severities read from the README and the guide's pages",
        stated_all.len()
    );
    let wrong: Vec<String> = stated_all
        .iter()
        .filter_map(|s| match known.get(&s.code) {
            None => Some(format!(
                "{}:{}: `{}` ({}) is no code of `signprep explain --list`",
                s.page, s.line, s.code, s.severity
            )),
            Some(sev) if *sev != s.severity => Some(format!(
                "{}:{}: `{}` is {} there, {sev} in `signprep explain`",
                s.page, s.line, s.code, s.severity
            )),
            Some(_) => None,
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every pack code is documented: the "Pack findings" table and the pages around it,
/// in the README or on whichever page of the guide holds them. The generated
/// reference lists every code by construction; it is no evidence that the written
/// pages document one.
#[test]
fn every_pack_code_is_documented_in_the_readme_or_the_guide() {
    let texts: Vec<String> = common::guide()
        .into_iter()
        .filter(|(page, _)| page != GENERATED)
        .map(|(_, text)| text)
        .collect();
    assert!(
        texts.iter().any(|t| t
            .lines()
            .any(|l| l.starts_with('#') && l.trim_start_matches('#').trim() == "Pack findings")),
        "no `Pack findings` heading in the README or docs/src"
    );
    let missing: Vec<&str> = signprep_pack::PackCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !texts.iter().any(|t| t.contains(&format!("`{c}`"))))
        .collect();
    assert!(
        missing.is_empty(),
        "codes documented on no page of the README or docs/src (but {GENERATED}): {missing:?}"
    );
}
