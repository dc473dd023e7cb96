//! OpenDocument text templates (`.odt`): `content.xml` (the body, its
//! tracked changes, frames, notes and annotations) and the headers and
//! footers of `styles.xml`'s master pages, read into the [`Collector`] with
//! the text properties their styles give.

mod styles;

use crate::archive::Archive;
use crate::error::{TemplateError, TemplateErrorKind};
use crate::format::ODT_MIMETYPE;
use crate::model::{Collector, Look, Revision};
use crate::xml::{Element, Flow, Handler, walk};
use signprep_core::SourcePart;
use std::collections::{BTreeSet, HashMap};
use styles::{Auto, Props, Styles};

/// Reads every paragraph of an OpenDocument text: body, then headers and
/// footers.
pub(crate) fn read(ar: &mut Archive<'_>) -> Result<Collector, TemplateError> {
    if let Some(manifest) = ar.read_text("META-INF/manifest.xml")?
        && manifest.contains("encryption-data")
    {
        return Err(TemplateError::new(
            TemplateErrorKind::Protected,
            "the document is password-protected (its parts are encrypted): save it without a password",
        ));
    }
    if let Some(mime) = ar.read("mimetype")? {
        let mime = String::from_utf8_lossy(&mime);
        if !mime.trim().starts_with(ODT_MIMETYPE) {
            return Err(TemplateError::new(
                TemplateErrorKind::NotTemplate,
                "the OpenDocument file is no text document (its media type is another's: a spreadsheet or a presentation?)",
            ));
        }
    }
    let Some(content) = ar.read_text("content.xml")? else {
        return Err(TemplateError::new(
            TemplateErrorKind::NotTemplate,
            "the zip holds no `content.xml`, so it is no OpenDocument text",
        ));
    };
    let mut styles = Styles::default();
    let styles_xml = ar.read_text("styles.xml")?;
    if let Some(xml) = styles_xml.as_deref() {
        styles.read(xml, "styles.xml", Auto::Styles)?;
    }
    styles.read(&content, "content.xml", Auto::Content)?;
    let mut c = Collector::default();
    c.enter(SourcePart::Body);
    read_part(&mut c, &styles, &content, "content.xml", Auto::Content)?;
    c.leave();
    if let Some(xml) = styles_xml.as_deref() {
        read_part(&mut c, &styles, xml, "styles.xml", Auto::Styles)?;
    }
    if c.too_many {
        return Err(TemplateError::new(
            TemplateErrorKind::Limit,
            format!(
                "the document has more than {} paragraphs",
                crate::model::MAX_PARAGRAPHS
            ),
        ));
    }
    Ok(c)
}

fn read_part(
    c: &mut Collector,
    styles: &Styles,
    xml: &str,
    part: &str,
    which: Auto,
) -> Result<(), TemplateError> {
    let mut h = OdtHandler {
        c,
        styles,
        which,
        stack: Vec::new(),
        looks: Vec::new(),
        changes: HashMap::new(),
        region: None,
        deleted: None,
        inserting: BTreeSet::new(),
        comments: BTreeSet::new(),
        notes: Vec::new(),
        hidden_sections: 0,
        // In `styles.xml` only the master pages' headers and footers are text.
        in_text: which == Auto::Content,
    };
    walk(xml, part, &mut h)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Did {
    Nothing,
    Paragraph,
    Span,
    Frame,
    Table,
    Row(usize),
    Cell,
    Note,
    Region,
    Deletion,
    DeletedParagraph,
    HiddenSection,
    Text,
}

/// A tracked change of `text:tracked-changes`.
#[derive(Clone, Debug)]
enum Change {
    Insertion,
    Deletion(String),
    Other,
}

struct OdtHandler<'c, 's> {
    c: &'c mut Collector,
    styles: &'s Styles,
    which: Auto,
    stack: Vec<Did>,
    /// The look of each open paragraph and span, innermost last.
    looks: Vec<Props>,
    changes: HashMap<String, Change>,
    /// The changed region being read (its id).
    region: Option<String>,
    /// The text of the deletion being read.
    deleted: Option<String>,
    inserting: BTreeSet<String>,
    comments: BTreeSet<String>,
    /// `text:note-class` of each open note.
    notes: Vec<SourcePart>,
    hidden_sections: usize,
    in_text: bool,
}

/// A count attribute (`text:c`, `…-repeated`), 1 when absent, at most 1024.
fn count(v: Option<String>) -> usize {
    v.and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .clamp(1, 1024)
}

impl OdtHandler<'_, '_> {
    fn look(&self) -> Look {
        self.looks.last().map(Props::look).unwrap_or_default()
    }

    fn revision(&self) -> Option<Revision> {
        (!self.inserting.is_empty()).then_some(Revision::Inserted)
    }

    fn push(&mut self, text: &str) {
        let look = self.look();
        let rev = self.revision();
        let commented = !self.comments.is_empty();
        self.c.push(text, &look, rev, commented);
    }

    fn start_inner(&mut self, name: &str, el: &Element<'_, '_>) -> Option<Did> {
        // Tracked changes: their regions, and a deletion's text.
        if self.region.is_some() {
            return Some(match name {
                "text:insertion" => {
                    self.set_change(Change::Insertion);
                    Did::Nothing
                }
                "text:deletion" => {
                    self.deleted = Some(String::new());
                    Did::Deletion
                }
                "office:change-info" => return None,
                "text:p" | "text:h" if self.deleted.is_some() => Did::DeletedParagraph,
                _ => Did::Nothing,
            });
        }
        if name.starts_with("text:") && name.ends_with("-source") {
            return None;
        }
        let did = match name {
            "office:automatic-styles"
            | "office:styles"
            | "office:font-face-decls"
            | "office:scripts"
            | "office:forms"
            | "text:sequence-decls"
            | "text:variable-decls"
            | "text:user-field-decls"
            | "table:table-column"
            | "table:table-columns"
            | "table:table-header-columns"
            | "svg:title"
            | "svg:desc" => return None,
            "style:header" | "style:header-left" | "style:header-first" if !self.in_text => {
                self.c.enter(SourcePart::Header);
                self.in_text = true;
                Did::Frame
            }
            "style:footer" | "style:footer-left" | "style:footer-first" if !self.in_text => {
                self.c.enter(SourcePart::Footer);
                self.in_text = true;
                Did::Frame
            }
            _ if !self.in_text => Did::Nothing,
            "text:tracked-changes" => Did::Nothing,
            "text:changed-region" => {
                self.region = el.attr("text:id").or_else(|| el.attr("xml:id"));
                self.set_change(Change::Other);
                Did::Region
            }
            "text:change-start" => {
                if let Some(id) = el.attr("text:change-id")
                    && matches!(self.changes.get(&id), Some(Change::Insertion))
                {
                    self.inserting.insert(id);
                }
                Did::Nothing
            }
            "text:change-end" => {
                if let Some(id) = el.attr("text:change-id") {
                    self.inserting.remove(&id);
                }
                Did::Nothing
            }
            "text:change" => {
                let text = el
                    .attr("text:change-id")
                    .and_then(|id| match self.changes.get(&id) {
                        Some(Change::Deletion(t)) => Some(t.clone()),
                        _ => None,
                    });
                if let Some(t) = text {
                    let look = self.look();
                    let commented = !self.comments.is_empty();
                    self.c.push(&t, &look, Some(Revision::Deleted), commented);
                }
                Did::Nothing
            }
            "text:p" | "text:h" => {
                self.c.paragraph_start();
                if self.hidden_sections > 0 {
                    self.c.paragraph_hidden();
                }
                let style = el.attr("text:style-name");
                self.looks
                    .push(self.styles.paragraph(style.as_deref(), self.which));
                Did::Paragraph
            }
            "text:span" => {
                let mut p = self.looks.last().cloned().unwrap_or_default();
                if let Some(s) = el.attr("text:style-name") {
                    p.overlay(&self.styles.chain(&s, self.which));
                }
                self.looks.push(p);
                Did::Span
            }
            "text:s" => {
                let n = count(el.attr("text:c"));
                self.push(&" ".repeat(n));
                Did::Nothing
            }
            "text:tab" => {
                self.push("\t");
                Did::Nothing
            }
            "text:line-break" => {
                self.push("\n");
                Did::Nothing
            }
            "text:hidden-text" => {
                let hidden = el.attr("text:is-hidden").as_deref() != Some("false");
                if let Some(v) = el.attr("text:string-value") {
                    let mut look = self.look();
                    look.hidden = look.hidden || hidden;
                    let rev = self.revision();
                    let commented = !self.comments.is_empty();
                    self.c.push(&v, &look, rev, commented);
                }
                return None;
            }
            "text:hidden-paragraph" => {
                if el.attr("text:is-hidden").as_deref() != Some("false") {
                    self.c.paragraph_hidden();
                }
                return None;
            }
            "text:section" => {
                let display = el.attr("text:display");
                if matches!(display.as_deref(), Some("none" | "condition")) {
                    self.hidden_sections += 1;
                    Did::HiddenSection
                } else {
                    Did::Nothing
                }
            }
            "text:note" => {
                self.notes.push(
                    if el.attr("text:note-class").as_deref() == Some("endnote") {
                        SourcePart::Endnote
                    } else {
                        SourcePart::Footnote
                    },
                );
                Did::Note
            }
            "text:note-body" => {
                self.c
                    .enter(self.notes.last().copied().unwrap_or(SourcePart::Footnote));
                Did::Frame
            }
            "draw:text-box" => {
                self.c.enter(SourcePart::TextBox);
                Did::Frame
            }
            "office:annotation" => {
                if let Some(n) = el.attr("office:name") {
                    self.comments.insert(n);
                }
                self.c.enter(SourcePart::Comment);
                Did::Frame
            }
            "office:annotation-end" => {
                if let Some(n) = el.attr("office:name") {
                    self.comments.remove(&n);
                }
                Did::Nothing
            }
            "table:table" => {
                self.c.table_start();
                Did::Table
            }
            "table:table-row" => {
                self.c.row_start();
                Did::Row(count(el.attr("table:number-rows-repeated")))
            }
            "table:table-cell" | "table:covered-table-cell" => {
                self.c.cell_start();
                self.c
                    .skip_columns(count(el.attr("table:number-columns-repeated")) - 1);
                Did::Cell
            }
            _ => Did::Text,
        };
        Some(did)
    }

    fn set_change(&mut self, change: Change) {
        if let Some(id) = self.region.clone() {
            self.changes.insert(id, change);
        }
    }
}

impl Handler for OdtHandler<'_, '_> {
    fn start(&mut self, name: &str, el: &Element<'_, '_>) -> Flow {
        match self.start_inner(name, el) {
            Some(did) => {
                self.stack.push(did);
                Flow::Enter
            }
            None => Flow::Skip,
        }
    }

    fn end(&mut self, _name: &str) {
        match self.stack.pop() {
            Some(Did::Paragraph) => {
                self.c.paragraph_end();
                self.looks.pop();
            }
            Some(Did::Span) => {
                self.looks.pop();
            }
            Some(Did::Frame) => {
                self.c.leave();
                if self.which == Auto::Styles && !self.stack.contains(&Did::Frame) {
                    self.in_text = false;
                }
            }
            Some(Did::Table) => self.c.table_end(),
            Some(Did::Row(n)) => self.c.row_repeat(n),
            Some(Did::Cell) => self.c.cell_end(),
            Some(Did::Note) => {
                self.notes.pop();
            }
            Some(Did::Region) => self.region = None,
            Some(Did::Deletion) => {
                let text = self.deleted.take().unwrap_or_default();
                self.set_change(Change::Deletion(text));
            }
            Some(Did::DeletedParagraph) => {
                if let Some(d) = self.deleted.as_mut()
                    && !d.is_empty()
                {
                    d.push('\n');
                }
            }
            Some(Did::HiddenSection) => {
                self.hidden_sections = self.hidden_sections.saturating_sub(1);
            }
            Some(Did::Nothing | Did::Text) | None => {}
        }
    }

    fn text(&mut self, text: &str) {
        if let Some(d) = self.deleted.as_mut() {
            if self.stack.contains(&Did::DeletedParagraph) {
                d.push_str(text);
            }
            return;
        }
        if !self.in_text || !self.c.in_paragraph() {
            return;
        }
        // ODF collapses white space in text: a run of it is one space, none
        // at a paragraph's start (`text:s` and `text:tab` write the rest).
        let mut out = String::with_capacity(text.len());
        let mut space = matches!(self.c.last_char(), None | Some(' '));
        for ch in text.chars() {
            if matches!(ch, ' ' | '\t' | '\n' | '\r') {
                if !space {
                    out.push(' ');
                    space = true;
                }
            } else {
                out.push(ch);
                space = false;
            }
        }
        self.push(&out);
    }
}
