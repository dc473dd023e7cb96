//! The parse errors of serde_json, toml and UTF-8 decoding, said in
//! signprep's words: `line L, column C: WHAT`, on one line. The libraries'
//! own text (a TOML error's code snippet, serde's `invalid type: ...,
//! expected a sequence`, `EOF while parsing a list`) never reaches a user
//! verbatim; a phrase not recognised here is passed on, after the place.

use std::str::Utf8Error;

/// A JSON text that does not parse, or does not fit the type asked for.
pub fn json(e: &serde_json::Error) -> String {
    let what = json_what(e);
    if e.line() == 0 {
        return what;
    }
    format!("line {}, column {}: {what}", e.line(), e.column().max(1))
}

/// What a JSON error is about, without its place.
pub(crate) fn json_what(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    let what = full.strip_suffix(&place).unwrap_or(&full);
    // JSON has objects, not TOML's tables.
    words(what).replace(" (a table)", "")
}

/// A TOML text that does not parse, or does not fit the type asked for;
/// `text` is what was parsed (for the line and column of the error's span).
pub fn toml(e: &toml::de::Error, text: &str) -> String {
    let what = words(e.message().trim());
    match e.span() {
        Some(span) => {
            let (line, column) = crate::json_walk::line_column(text, span.start);
            format!("line {line}, column {column}: {what}")
        }
        None => what,
    }
}

/// Bytes that are not UTF-8 text.
pub fn utf8(e: &Utf8Error) -> String {
    format!(
        "not UTF-8 text (the bytes after the first {} are not UTF-8)",
        e.valid_up_to()
    )
}

/// serde's and the parsers' phrases, in ours.
fn words(msg: &str) -> String {
    const FIXED: &[(&str, &str)] = &[
        (
            "EOF while parsing a list",
            "the text ends inside a list (a `]` is missing)",
        ),
        (
            "EOF while parsing an object",
            "the text ends inside an object (a `}` is missing)",
        ),
        (
            "EOF while parsing a string",
            "the text ends inside a string (a `\"` is missing)",
        ),
        (
            "EOF while parsing a value",
            "the text ends where a value should be",
        ),
        ("expected value", "a value should be here"),
        ("expected ident", "a value should be here"),
        ("expected `:`", "a `:` should be here"),
        ("expected `,` or `]`", "a `,` or `]` should be here"),
        ("expected `,` or `}`", "a `,` or `}` should be here"),
        (
            "key must be a string",
            "an object key must be a string in double quotes",
        ),
        (
            "trailing comma",
            "a comma before `]` or `}` (JSON allows none there)",
        ),
        (
            "trailing characters",
            "more text after the end of the JSON value",
        ),
        ("invalid escape", "an invalid escape in a string"),
        ("invalid number", "an invalid number"),
        ("number out of range", "a number out of range"),
        ("recursion limit exceeded", "nested too deep"),
    ];
    if let Some((_, ours)) = FIXED.iter().find(|(theirs, _)| *theirs == msg) {
        return (*ours).to_string();
    }
    if msg.starts_with("control character") {
        return "a control character inside a string (write it escaped, as `\\n`)".into();
    }
    if let Some(field) = msg.strip_prefix("missing field ") {
        return format!("the key {field} is missing");
    }
    if let Some(field) = msg.strip_prefix("duplicate field ") {
        return format!("the key {field} is given twice");
    }
    if let Some(rest) = msg.strip_prefix("unknown field ") {
        return match rest.split_once(", expected ") {
            Some((key, expected)) => match meant(key, expected) {
                Some(best) => {
                    format!("unknown key {key} (did you mean `{best}`?); expected {expected}")
                }
                None => format!("unknown key {key}; expected {expected}"),
            },
            None => format!(
                "unknown key {}",
                rest.split_once(", ").map_or(rest, |(k, _)| k)
            ),
        };
    }
    if let Some(rest) = msg.strip_prefix("unknown variant ") {
        return match rest.split_once(", expected ") {
            Some((value, expected)) => format!("{value} is not {}", expected_words(expected)),
            None => format!("unknown value {rest}"),
        };
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some((found, expected)) = msg
            .strip_prefix(prefix)
            .and_then(|rest| rest.split_once(", expected "))
        {
            return format!(
                "{} where {} should be",
                found_words(found),
                expected_words(expected)
            );
        }
    }
    if let Some((n, expected)) = msg
        .strip_prefix("invalid length ")
        .and_then(|rest| rest.split_once(", expected "))
    {
        return format!(
            "a list of {n} items where {} should be",
            expected_words(expected)
        );
    }
    // The TOML parser's `unclosed array, expected `]``.
    if let Some((what, expected)) = msg.split_once(", expected ") {
        return format!("{what}: {expected} should be here");
    }
    msg.to_string()
}

/// serde's name of what was found: `integer `3``, `string "x"`, `map`.
/// The key of serde's list (`` one of `a`, `b` `` or `` `a` or `b` ``) that an
/// unknown `` `key` `` was probably meant as (`singers`: `signers`).
fn meant<'a>(key: &str, expected: &'a str) -> Option<&'a str> {
    let key = key.trim_matches('`');
    let names = expected.split('`').skip(1).step_by(2);
    let mut budget = crate::suggest::BUDGET;
    crate::suggest::closest(key, names, &mut budget)
}

fn found_words(found: &str) -> String {
    match found {
        "map" => "an object (a table)".into(),
        "sequence" => "a list".into(),
        "unit value" | "null" => "null".into(),
        other => format!("the {other}"),
    }
}

/// serde's name of what was expected: `a sequence`, `a map`, `struct X`.
fn expected_words(expected: &str) -> String {
    match expected {
        "a sequence" => "a list".into(),
        "a map" => "an object (a table)".into(),
        e if e.starts_with("struct ") => "an object (a table)".into(),
        e if e.starts_with("one of ") => e.to_string(),
        e if e.starts_with('`') => format!("one of {e}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct M {
        name: String,
        #[serde(default)]
        signers: Vec<String>,
    }

    #[test]
    fn json_syntax_and_types_in_our_words() {
        let e = serde_json::from_str::<M>("{\"name\": \"a\",\n\"signers\": [\n").unwrap_err();
        assert_eq!(
            json(&e),
            "line 3, column 1: the text ends inside a list (a `]` is missing)"
        );
        let e = serde_json::from_str::<M>(r#"{"name": 3}"#).unwrap_err();
        assert_eq!(
            json(&e),
            "line 1, column 10: the integer `3` where a string should be"
        );
        let e = serde_json::from_str::<M>(r#"{"name": "a", "nmae": 1}"#).unwrap_err();
        assert_eq!(
            json(&e),
            "line 1, column 20: unknown key `nmae` (did you mean `name`?); expected `name` or `signers`"
        );
        let e = serde_json::from_str::<M>("{}").unwrap_err();
        assert_eq!(json(&e), "line 1, column 2: the key `name` is missing");
        let e = serde_json::from_str::<M>("[]").unwrap_err();
        assert_eq!(
            json(&e),
            "line 1, column 2: a list of 0 items where an object should be"
        );
        // JSON says object, not TOML's table.
        let e = serde_json::from_str::<M>(r#"{"name": "a", "signers": {}}"#).unwrap_err();
        assert_eq!(
            json(&e),
            "line 1, column 25: an object where a list should be"
        );
    }

    /// An unknown key names the one it was probably meant as, from serde's list.
    #[test]
    fn an_unknown_key_names_the_key_meant() {
        let text = "name = \"a\"\nsingers = []\n";
        let e = toml::from_str::<M>(text).unwrap_err();
        assert_eq!(
            toml(&e, text),
            "line 2, column 1: unknown key `singers` (did you mean `signers`?); expected `name` or `signers`"
        );
        let text = "name = \"a\"\nwhatever = 1\n";
        let e = toml::from_str::<M>(text).unwrap_err();
        assert_eq!(
            toml(&e, text),
            "line 2, column 1: unknown key `whatever`; expected `name` or `signers`"
        );
    }

    #[test]
    fn toml_errors_are_one_line_with_the_place() {
        let text = "name = \"a\"\nsigners = 3\n";
        let e = toml::from_str::<M>(text).unwrap_err();
        assert_eq!(
            toml(&e, text),
            "line 2, column 11: the integer `3` where a list should be"
        );
        let text = "name = \"unterminated\n";
        let e = toml::from_str::<M>(text).unwrap_err();
        let said = toml(&e, text);
        assert!(said.starts_with("line 1, column "), "{said}");
        assert!(
            !said.contains('\n') && !said.contains("TOML parse error"),
            "{said}"
        );
        let e = toml::from_str::<M>("").unwrap_err();
        assert_eq!(toml(&e, ""), "line 1, column 1: the key `name` is missing");
    }

    #[test]
    fn utf8_says_where() {
        let bytes: Vec<u8> = [b"ab".as_slice(), &[0xff], b"cd"].concat();
        let e = std::str::from_utf8(&bytes).unwrap_err();
        assert_eq!(
            utf8(&e),
            "not UTF-8 text (the bytes after the first 2 are not UTF-8)"
        );
    }
}
