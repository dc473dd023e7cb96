//! Indirect objects as a file frames them: the `N G obj` header, the body
//! ([`Parser`]'s direct objects), a stream's data after `stream` (its
//! `/Length` resolved by the caller), `endobj`; the members of an object
//! stream; and lopdf's test for where an object starts, which decides
//! whether a cross-reference offset is taken as written.
//!
//! As in [`super::parse`], anything unusual is a failure (`None`), and the
//! caller then asks the eager lopdf load.
#![allow(clippy::disallowed_types)] // the loader: builds lopdf objects

use super::parse::Parser;
use lopdf::{Dictionary, Object, ObjectId, Stream};

/// How an indirect object's header must read.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Expect {
    /// Exactly this id.
    Id(ObjectId),
    /// Any id (a cross-reference stream).
    Any,
}

/// Parses the indirect object at `offset`: header, body, `endobj`.
///
/// A stream's `/Length` must be an integer, or a reference that `length_of`
/// resolves to one; the data must be followed by an optional end of line and
/// `endstream`. The stream is built with [`Stream::new`], as lopdf does, so its
/// `/Length` becomes the direct data length.
pub(crate) fn indirect_object(
    buf: &[u8],
    offset: usize,
    expect: Expect,
    max_depth: usize,
    length_of: &mut dyn FnMut(ObjectId) -> Option<i64>,
) -> Option<(ObjectId, Object)> {
    let mut p = Parser::new(buf, offset, max_depth);
    let id = p.object_header()?;
    if let Expect::Id(want) = expect
        && want != id
    {
        return None;
    }
    let object = if p.starts_with(b"<<") {
        let dict = p.dictionary(0)?;
        let after = p.pos();
        p.skip_space();
        if p.eat(b"stream") {
            p.blanks();
            if !p.eol() {
                return None;
            }
            stream_data(&mut p, dict, length_of)?
        } else {
            p.seek(after);
            Object::Dictionary(dict)
        }
    } else {
        p.object(0)?
    };
    p.skip_space();
    if !p.eat(b"endobj") {
        return None;
    }
    Some((id, object))
}

fn stream_data(
    p: &mut Parser<'_>,
    dict: Dictionary,
    length_of: &mut dyn FnMut(ObjectId) -> Option<i64>,
) -> Option<Object> {
    let length = match dict.get(b"Length").ok()? {
        Object::Integer(n) => *n,
        Object::Reference(id) => length_of(*id)?,
        _ => return None,
    };
    let data = p.take(usize::try_from(length).ok()?)?;
    p.eol();
    if !p.eat(b"endstream") {
        return None;
    }
    Some(Object::Stream(Stream::new(dict, data.to_vec())))
}

/// The object at `offset` of an object stream's decoded data (white space and
/// comments before it skipped), as lopdf reads a member.
pub(crate) fn member_object(data: &[u8], offset: usize, max_depth: usize) -> Option<Object> {
    if offset >= data.len() {
        return None;
    }
    let mut p = Parser::new(data, offset, max_depth);
    p.skip_space();
    if p.at_end() {
        return None;
    }
    p.object(0)
}

/// lopdf's test for "an indirect object starts here" (used to accept a
/// cross-reference offset as written): `N G obj` with no leading white space,
/// at most 10 and 5 digits, blanks between, and `obj` ending the token.
pub(crate) fn starts_object_header(input: &[u8]) -> bool {
    fn digits(input: &[u8], cap: usize) -> Option<(&[u8], &[u8])> {
        let n = input.iter().take_while(|b| b.is_ascii_digit()).count();
        (0 < n && n <= cap).then(|| input.split_at(n))
    }
    fn spaces(input: &[u8]) -> Option<&[u8]> {
        let n = input
            .iter()
            .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .count();
        (n > 0).then(|| input.get(n..)).flatten()
    }
    let check = || -> Option<()> {
        let (number, rest) = digits(input, 10)?;
        std::str::from_utf8(number).ok()?.parse::<u32>().ok()?;
        let rest = spaces(rest)?;
        let (generation, rest) = digits(rest, 5)?;
        std::str::from_utf8(generation).ok()?.parse::<u16>().ok()?;
        let rest = spaces(rest)?;
        let tail = rest.strip_prefix(b"obj")?;
        match tail.first() {
            Some(b) if b.is_ascii_alphanumeric() => None,
            _ => Some(()),
        }
    };
    check().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indirect_objects_and_streams() {
        let buf = b"7 0 obj\n<< /Length 5 >>\nstream\nhello\nendstream\nendobj\n";
        let (id, o) = indirect_object(buf, 0, Expect::Id((7, 0)), 256, &mut |_| None).unwrap();
        assert_eq!(id, (7, 0));
        let s = o.as_stream().unwrap();
        assert_eq!(s.content, b"hello");
        assert!(indirect_object(buf, 0, Expect::Id((8, 0)), 256, &mut |_| None).is_none());
        // A wrong /Length fails.
        let bad = b"7 0 obj\n<< /Length 3 >>\nstream\nhello\nendstream\nendobj\n";
        assert!(indirect_object(bad, 0, Expect::Any, 256, &mut |_| None).is_none());
        // An indirect /Length is resolved, and becomes direct.
        let ind = b"7 0 obj\n<< /Length 9 0 R /Filter /X >>\nstream\r\nhello\nendstream\nendobj\n";
        let (_, o) = indirect_object(ind, 0, Expect::Any, 256, &mut |id| {
            (id == (9, 0)).then_some(5)
        })
        .unwrap();
        let s = o.as_stream().unwrap();
        assert_eq!(s.content, b"hello");
        assert_eq!(s.dict.get(b"Length").unwrap(), &Object::Integer(5));
        assert!(indirect_object(ind, 0, Expect::Any, 256, &mut |_| None).is_none());
        // No endobj fails.
        assert!(indirect_object(b"1 0 obj 5 ", 0, Expect::Any, 256, &mut |_| None).is_none());
        assert!(
            indirect_object(b" %c\n1 0 obj 5 endobj", 0, Expect::Any, 256, &mut |_| None).is_some()
        );
    }

    #[test]
    fn object_header_test() {
        assert!(starts_object_header(b"12 0 obj"));
        assert!(starts_object_header(b"12 0 obj<<"));
        assert!(!starts_object_header(b" 12 0 obj"));
        assert!(!starts_object_header(b"12 0 objx"));
        assert!(!starts_object_header(b"xref"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn never_panics(data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let _ = indirect_object(&data, 0, Expect::Any, 64, &mut |_| Some(3));
            let _ = member_object(&data, 0, 64);
            let _ = starts_object_header(&data);
        }
    }
}
