//! Value checks: email addresses, mobile numbers, URLs, colours, UUIDs.

/// `name@domain.tld`: one `@`, a local part without spaces, a domain of
/// non-empty dot-separated labels (letters, digits, `-`), a top-level label of
/// two or more letters. Deliberately simple: it catches typos, not every RFC
/// 5322 oddity.
pub(crate) fn email_ok(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    if local.is_empty()
        || domain.contains('@')
        || local
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | ',' | ';'))
    {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return false;
    }
    let label_ok = |l: &str| {
        !l.is_empty()
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let tld_ok = labels
        .last()
        .is_some_and(|t| t.chars().count() >= 2 && t.chars().all(char::is_alphabetic));
    labels.iter().all(|l| label_ok(l)) && tld_ok
}

/// International format: `+`, then 7 to 15 digits (E.164), nothing else.
pub(crate) fn mobile_ok(s: &str) -> bool {
    s.strip_prefix('+').is_some_and(|digits| {
        (7..=15).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
    })
}

/// A hint for a mobile number that is not international.
pub(crate) fn mobile_hint(s: &str) -> String {
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    if s.starts_with('+') || s.starts_with("00") {
        let digits = digits.strip_prefix("00").unwrap_or(&digits);
        format!("write it as `+{digits}`: `+`, the country code and the number, digits only")
    } else {
        "write `+`, the country code and the number without its leading 0, digits only (`+447700900123`)".to_string()
    }
}

/// The scheme and host of an absolute `scheme://host...` URL, lower-cased.
pub(crate) fn url_parts(s: &str) -> Option<(String, String)> {
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let (scheme, rest) = s.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or_default()
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    if host.is_empty() {
        return None;
    }
    Some((scheme.to_ascii_lowercase(), host.to_ascii_lowercase()))
}

/// An absolute `http://` or `https://` URL with a host.
pub(crate) fn web_url_ok(s: &str) -> bool {
    url_parts(s).is_some_and(|(scheme, _)| scheme == "http" || scheme == "https")
}

/// A host that means "this machine": the service cannot call it back.
pub(crate) fn is_local_host(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "::1"
        || host == "0.0.0.0"
        || host
            .strip_prefix("127.")
            .is_some_and(|rest| rest.split('.').all(|p| p.parse::<u8>().is_ok()))
}

/// `#RGB` or `#RRGGBB`.
pub(crate) fn colour_ok(s: &str) -> bool {
    s.strip_prefix('#')
        .is_some_and(|hex| matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A UUID string (any version, hyphenated or not, as `uuid` parses it).
pub(crate) fn uuid_ok(s: &str) -> bool {
    uuid::Uuid::parse_str(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for ok in [
            "ann@example.com",
            "a.b+tag@sub.example.co.uk",
            "bjørn@exämple.no",
        ] {
            assert!(email_ok(ok), "{ok}");
        }
        for bad in [
            "",
            "ann",
            "ann@",
            "@example.com",
            "ann@@example.com",
            "ann@example",
            "ann @example.com",
            "ann@example.c",
            "ann@-x.com",
            "ann@x..com",
            "Ann <ann@example.com>",
        ] {
            assert!(!email_ok(bad), "{bad}");
        }
    }

    #[test]
    fn mobiles() {
        assert!(mobile_ok("+447700900123"));
        assert!(mobile_ok("+1234567"));
        for bad in [
            "07700900123",
            "+44 7700 900123",
            "+44-7700",
            "+",
            "0044770090012",
        ] {
            assert!(!mobile_ok(bad), "{bad}");
        }
        assert!(mobile_hint("+44 7700 900123").contains("`+447700900123`"));
        assert!(mobile_hint("0044 7700 900123").contains("`+447700900123`"));
        assert!(mobile_hint("07700 900123").contains("country code"));
    }

    #[test]
    fn urls() {
        assert_eq!(
            url_parts("https://User@Example.com:8443/x?y#z"),
            Some(("https".into(), "example.com".into()))
        );
        assert_eq!(
            url_parts("http://[::1]:80/"),
            Some(("http".into(), "::1".into()))
        );
        assert!(web_url_ok("http://example.com"));
        for bad in [
            "example.com/done",
            "/done",
            "https://",
            "ftp://x.org",
            "https://a b.com",
        ] {
            assert!(!web_url_ok(bad), "{bad}");
        }
        for local in [
            "localhost",
            "api.localhost",
            "127.0.0.1",
            "127.1.2.3",
            "::1",
            "0.0.0.0",
        ] {
            assert!(is_local_host(local), "{local}");
        }
        for public in [
            "example.com",
            "127.example.com",
            "localhost.example.com",
            "10.0.0.1",
        ] {
            assert!(!is_local_host(public), "{public}");
        }
    }

    #[test]
    fn colours_and_uuids() {
        assert!(colour_ok("#fff") && colour_ok("#A0b1C2"));
        assert!(
            !colour_ok("fff") && !colour_ok("#ffff") && !colour_ok("yellow") && !colour_ok("#ggg")
        );
        assert!(uuid_ok("3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11"));
        assert!(!uuid_ok("bob"));
    }
}
