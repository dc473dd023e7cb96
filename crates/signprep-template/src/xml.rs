//! One walk over an XML part: start, end and text callbacks, subtrees
//! skipped on request, nesting bounded, entity references resolved. Names
//! are compared as written, with the prefixes Word and LibreOffice write
//! (`w:`, `text:`, ...).

use crate::error::{TemplateError, TemplateErrorKind};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// Deepest element nesting read (Word's own documents stay far below; a
/// table in a table in a text box is some 30 levels).
pub(crate) const MAX_DEPTH: usize = 256;

/// What to do with an element just started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Read its content.
    Enter,
    /// Skip it and everything in it (no `end` call either).
    Skip,
}

/// Receives a part's elements and text, in document order.
pub(crate) trait Handler {
    /// An element starts (an empty element starts and then ends).
    fn start(&mut self, name: &str, el: &Element<'_, '_>) -> Flow;
    /// An element entered ends.
    fn end(&mut self, name: &str);
    /// Character data, entities resolved.
    fn text(&mut self, text: &str);
}

/// An element's start tag, for its attributes.
pub(crate) struct Element<'a, 'i>(&'a BytesStart<'i>);

impl Element<'_, '_> {
    /// The value of the attribute written `name` (`w:val`), entities
    /// resolved; `None` when absent or unreadable.
    pub(crate) fn attr(&self, name: &str) -> Option<String> {
        self.0
            .attributes()
            .with_checks(false)
            .flatten()
            .find(|a| a.key.as_ref() == name)
            .and_then(|a| {
                a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                    .ok()
                    .map(|v| v.into_owned())
            })
    }
}

/// Walks `xml` (the part named `part`, for errors) into `h`.
pub(crate) fn walk(xml: &str, part: &str, h: &mut impl Handler) -> Result<(), TemplateError> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().expand_empty_elements = true;
    let mut names: Vec<String> = Vec::new();
    // The depth (in `names`) of an element being skipped.
    let mut skip: Option<usize> = None;
    loop {
        let event = reader.read_event().map_err(|e| {
            TemplateError::damaged(
                part,
                format!(
                    "its XML is not well formed (near byte {})",
                    reader.error_position()
                ),
            )
            .with_source(e)
        })?;
        match event {
            Event::Start(e) => {
                if names.len() >= MAX_DEPTH {
                    return Err(TemplateError::new(
                        TemplateErrorKind::Limit,
                        format!("the part `{part}` nests elements deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let name = e.name().as_ref().to_string();
                if skip.is_none() && h.start(&name, &Element(&e)) == Flow::Skip {
                    skip = Some(names.len());
                }
                names.push(name);
            }
            Event::End(_) => {
                let name = names.pop().unwrap_or_default();
                match skip {
                    Some(d) if d == names.len() => skip = None,
                    Some(_) => {}
                    None => h.end(&name),
                }
            }
            Event::Text(t) if skip.is_none() => h.text(&t.xml10_content()),
            Event::CData(t) if skip.is_none() => h.text(&t.xml10_content()),
            Event::GeneralRef(r) if skip.is_none() => {
                let ch = match r.resolve_char_ref() {
                    Ok(Some(c)) => Some(c),
                    Ok(None) => match r.as_ref() {
                        "lt" => Some('<'),
                        "gt" => Some('>'),
                        "amp" => Some('&'),
                        "quot" => Some('"'),
                        "apos" => Some('\''),
                        _ => None,
                    },
                    Err(_) => None,
                };
                if let Some(c) = ch {
                    h.text(c.encode_utf8(&mut [0; 4]));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !names.is_empty() {
        return Err(TemplateError::damaged(
            part,
            "its XML ends before its elements are closed (truncated)",
        ));
    }
    Ok(())
}
