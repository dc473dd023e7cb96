//! Where a JSON pointer lands in the text it points into: the 1-based line
//! that CI annotations (`--format github`, `gitlab`, `sarif`) attach a finding to.
//!
//! Works on the raw text of a JSON body or a TOML or JSON manifest; a pointer
//! whose last parts do not exist (a missing key) lands on the deepest part that
//! does. Nothing here recurses on the input's nesting, so hostile nesting cannot
//! exhaust the stack.

/// The 1-based line of the value `pointer` names in `text` (JSON, or TOML when
/// it does not start like JSON), or of the deepest existing part of it; `None`
/// when the text cannot be read at all.
pub fn line(text: &[u8], pointer: &str) -> Option<usize> {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let start = text.iter().position(|b| !b.is_ascii_whitespace())?;
    let offset = if matches!(text.get(start), Some(b'{' | b'[')) {
        json_offset(text, &tokens)
    } else {
        toml_offset(std::str::from_utf8(text).ok()?, &tokens)?
    };
    Some(line_of(text, offset))
}

fn line_of(text: &[u8], offset: usize) -> usize {
    1 + text
        .get(..offset)
        .unwrap_or(text)
        .iter()
        .filter(|b| **b == b'\n')
        .count()
}

/// Byte offset of the value the tokens name (or of the deepest one found).
fn json_offset(s: &[u8], tokens: &[String]) -> usize {
    let mut i = skip_ws(s, 0);
    for tok in tokens {
        let found = match s.get(i) {
            Some(b'{') => object_member(s, i, tok),
            Some(b'[') => tok.parse::<usize>().ok().and_then(|n| array_item(s, i, n)),
            _ => None,
        };
        match found {
            Some(at) => i = at,
            None => break,
        }
    }
    i
}

/// The offset of the value of key `key` in the object at `i`.
fn object_member(s: &[u8], i: usize, key: &str) -> Option<usize> {
    let mut i = skip_ws(s, i + 1);
    loop {
        match s.get(i)? {
            b'}' => return None,
            b'"' => {}
            _ => return None,
        }
        let end = skip_string(s, i)?;
        let name: Option<String> = s
            .get(i..end)
            .and_then(|raw| serde_json::from_slice(raw).ok());
        i = skip_ws(s, end);
        if s.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(s, i + 1);
        if name.as_deref() == Some(key) {
            return Some(i);
        }
        i = skip_ws(s, skip_value(s, i)?);
        match s.get(i)? {
            b',' => i = skip_ws(s, i + 1),
            _ => return None,
        }
    }
}

/// The offset of item `n` of the array at `i`.
fn array_item(s: &[u8], i: usize, n: usize) -> Option<usize> {
    let mut i = skip_ws(s, i + 1);
    if s.get(i) == Some(&b']') {
        return None;
    }
    for _ in 0..n {
        i = skip_ws(s, skip_value(s, i)?);
        match s.get(i)? {
            b',' => i = skip_ws(s, i + 1),
            _ => return None,
        }
    }
    Some(i)
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while s.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The offset just past the string that opens at `i`.
fn skip_string(s: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        match s.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// The offset just past the value at `i` (containers by counting brackets).
fn skip_value(s: &[u8], mut i: usize) -> Option<usize> {
    match s.get(i)? {
        b'"' => skip_string(s, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            loop {
                match s.get(i)? {
                    b'"' => {
                        i = skip_string(s, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            while s
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                i += 1;
            }
            Some(i)
        }
    }
}

/// Byte offset of the value the tokens name in a TOML document (or of the
/// deepest one found; the top of the file for the first missing key).
fn toml_offset(text: &str, tokens: &[String]) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let root = DeTable::parse(text).ok()?;
    let mut at = 0;
    let mut table = Some(root.get_ref());
    let mut array: Option<&[toml::Spanned<DeValue<'_>>]> = None;
    for tok in tokens {
        let next = if let Some(t) = table {
            t.iter()
                .find(|(k, _)| {
                    let key: &str = k.get_ref();
                    key == tok
                })
                .map(|(_, v)| v)
        } else if let Some(a) = array {
            tok.parse::<usize>().ok().and_then(|n| a.get(n))
        } else {
            None
        };
        let Some(v) = next else { break };
        at = v.span().start;
        (table, array) = match v.get_ref() {
            DeValue::Table(t) => (Some(t), None),
            DeValue::Array(a) => (None, Some(&a[..])),
            _ => (None, None),
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::line;

    #[test]
    fn json_pointers_land_on_their_line() {
        let text = br#"{
  "name": "x",
  "documents": [
    {"a": 1},
    {
      "data_fields": [
        {"custom_id": "A"},
        {"custom_id": "B \"quoted\" }]"}
      ]
    }
  ]
}"#;
        assert_eq!(line(text, ""), Some(1));
        assert_eq!(line(text, "/name"), Some(2));
        assert_eq!(line(text, "/documents/1/data_fields/1/custom_id"), Some(8));
        assert_eq!(line(text, "/documents/1/data_fields/0"), Some(7));
        // Missing parts: the deepest part that exists.
        assert_eq!(line(text, "/documents/0/extract"), Some(4));
        assert_eq!(line(text, "/documents/7"), Some(3));
        assert_eq!(line(text, "/nothing"), Some(1));
    }

    #[test]
    fn toml_pointers_land_on_their_line() {
        let text = b"name = \"x\"\n\n[[signers]]\nhandle = \"a\"\n\n[[signers]]\nhandle = \"b\"\nemail = \"bob-at-acme\"\n";
        assert_eq!(line(text, "/name"), Some(1));
        assert_eq!(line(text, "/signers/1/email"), Some(8));
        assert_eq!(line(text, "/signers/0/handle"), Some(4));
        assert_eq!(line(text, "/signers/1/mobile"), Some(6));
    }

    #[test]
    fn broken_text_gives_a_line_or_nothing_and_never_panics() {
        assert_eq!(line(b"", "/a"), None);
        assert_eq!(line(b"{\"a\": [1, 2", "/a/5"), Some(1));
        assert_eq!(line(b"not = = toml", "/a"), None);
        let deep = "[".repeat(100_000);
        assert_eq!(line(deep.as_bytes(), "/0/0/0"), Some(1));
    }
}
