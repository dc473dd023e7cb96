//! Word templates (`.docx`): `word/document.xml`, the headers and footers
//! its relationships name, footnotes, endnotes and comments, each read into
//! the [`Collector`] with the run properties `word/styles.xml` resolves.

mod styles;

use crate::archive::Archive;
use crate::error::{TemplateError, TemplateErrorKind};
use crate::model::{Collector, Look, Revision};
use crate::xml::{Element, Flow, Handler, walk};
use signprep_core::SourcePart;
use std::collections::BTreeSet;
use styles::{Props, Styles};

const DOCUMENT: &str = "word/document.xml";

/// Reads every paragraph of a Word template: body, headers, footers,
/// footnotes, endnotes, comments, in that order.
pub(crate) fn read(ar: &mut Archive<'_>) -> Result<Collector, TemplateError> {
    let Some(doc) = ar.read_text(DOCUMENT)? else {
        return Err(TemplateError::new(
            TemplateErrorKind::NotTemplate,
            "the zip holds no `word/document.xml`, so it is no Word document",
        ));
    };
    let styles = match ar.read_text("word/styles.xml")? {
        Some(xml) => Styles::read(&xml, "word/styles.xml")?,
        None => Styles::default(),
    };
    let rels = match ar.read_text("word/_rels/document.xml.rels")? {
        Some(xml) => relationships(&xml)?,
        None => Vec::new(),
    };
    let mut c = Collector::default();
    read_part(&mut c, &styles, &doc, DOCUMENT, Some(SourcePart::Body))?;
    for (kind, part) in [
        ("header", Some(SourcePart::Header)),
        ("footer", Some(SourcePart::Footer)),
        ("footnotes", None),
        ("endnotes", None),
        ("comments", None),
    ] {
        let mut names: Vec<String> = rels
            .iter()
            .filter(|(t, _)| t.rsplit('/').next() == Some(kind))
            .map(|(_, target)| target.clone())
            .collect();
        if names.is_empty() && part.is_none() {
            names.push(format!("word/{kind}.xml"));
        }
        for name in names {
            if let Some(xml) = ar.read_text(&name)? {
                read_part(&mut c, &styles, &xml, &name, part)?;
            }
        }
    }
    Ok(c)
}

/// The relationships of `document.xml`: (type, part name in the zip).
fn relationships(xml: &str) -> Result<Vec<(String, String)>, TemplateError> {
    #[derive(Default)]
    struct Rels(Vec<(String, String)>);
    impl Handler for Rels {
        fn start(&mut self, name: &str, el: &Element<'_, '_>) -> Flow {
            if name == "Relationship"
                && el.attr("TargetMode").as_deref() != Some("External")
                && let (Some(t), Some(target)) = (el.attr("Type"), el.attr("Target"))
            {
                let path = match target.strip_prefix('/') {
                    Some(abs) => abs.to_string(),
                    None => format!("word/{target}"),
                };
                self.0.push((t, path));
            }
            Flow::Enter
        }
        fn end(&mut self, _: &str) {}
        fn text(&mut self, _: &str) {}
    }
    let mut r = Rels::default();
    walk(xml, "word/_rels/document.xml.rels", &mut r)?;
    Ok(r.0)
}

fn read_part(
    c: &mut Collector,
    styles: &Styles,
    xml: &str,
    part_name: &str,
    part: Option<SourcePart>,
) -> Result<(), TemplateError> {
    let mut h = DocHandler {
        c,
        styles,
        stack: Vec::new(),
        paragraphs: Vec::new(),
        runs: Vec::new(),
        revisions: Vec::new(),
        comments: BTreeSet::new(),
        alternates: Vec::new(),
        text: false,
    };
    if let Some(p) = part {
        h.c.enter(p);
    }
    walk(xml, part_name, &mut h)?;
    if part.is_some() {
        c.leave();
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
    Ok(())
}

/// What an element entered did, undone when it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Did {
    Nothing,
    Paragraph,
    Run,
    RunProps,
    Text,
    Revision,
    Table,
    Row,
    Cell,
    Frame,
    Alternate,
    CommentEnd,
}

/// A run being read: its character style, direct properties and look.
#[derive(Debug)]
struct Run {
    char_style: Option<String>,
    direct: Props,
    look: Look,
}

struct DocHandler<'c, 's> {
    c: &'c mut Collector,
    styles: &'s Styles,
    /// Entered elements: name and what entering did.
    stack: Vec<(String, Did)>,
    /// Per open paragraph, the properties its style gives its runs.
    paragraphs: Vec<Props>,
    runs: Vec<Run>,
    revisions: Vec<Revision>,
    comments: BTreeSet<String>,
    /// Per `mc:AlternateContent`, whether a branch was taken.
    alternates: Vec<bool>,
    /// In `w:t` or `w:delText`.
    text: bool,
}

impl DocHandler<'_, '_> {
    fn parent(&self) -> &str {
        self.stack.last().map_or("", |(n, _)| n.as_str())
    }

    fn in_run_props(&self) -> bool {
        self.stack.iter().rev().any(|(_, d)| *d == Did::RunProps)
    }

    fn push_text(&mut self, text: &str) {
        let look = self.runs.last().map(|r| r.look.clone()).unwrap_or_default();
        let revision = self.revisions.last().copied();
        let commented = !self.comments.is_empty();
        self.c.push(text, &look, revision, commented);
    }

    fn start_inner(&mut self, name: &str, el: &Element<'_, '_>) -> (Flow, Did) {
        let parent = self.parent().to_string();
        if self.in_run_props() {
            if name == "w:rStyle" {
                if let Some(r) = self.runs.last_mut() {
                    r.char_style = el.attr("w:val");
                }
            } else if name == "w:rPrChange" {
                return (Flow::Skip, Did::Nothing);
            } else if let Some(r) = self.runs.last_mut() {
                r.direct.apply(name, el);
            }
            return (Flow::Enter, Did::Nothing);
        }
        let did = match name {
            "w:p" => {
                self.c.paragraph_start();
                self.paragraphs.push(self.styles.paragraph(None));
                Did::Paragraph
            }
            "w:pStyle" if parent == "w:pPr" => {
                if let Some(top) = self.paragraphs.last_mut() {
                    *top = self.styles.paragraph(el.attr("w:val").as_deref());
                }
                Did::Nothing
            }
            // The paragraph mark's properties, revisions of properties,
            // section and table properties: no text of a run.
            "w:rPr" if parent == "w:pPr" => return (Flow::Skip, Did::Nothing),
            "w:pPrChange" | "w:sectPr" | "w:tblPr" | "w:tblGrid" | "w:tblPrEx" | "w:sdtPr"
            | "w:sdtEndPr" | "w:tabs" | "w:instrText" | "w:delInstrText" | "mc:Fallback" => {
                return (Flow::Skip, Did::Nothing);
            }
            "w:r" => {
                let base = self.paragraphs.last().cloned().unwrap_or_default();
                let look = self.styles.run(&base, None, &Props::default());
                self.runs.push(Run {
                    char_style: None,
                    direct: Props::default(),
                    look,
                });
                Did::Run
            }
            "w:rPr" if parent == "w:r" => Did::RunProps,
            "w:t" | "w:delText" if parent == "w:r" => {
                self.text = true;
                Did::Text
            }
            "w:tab" if parent == "w:r" => {
                self.push_text("\t");
                Did::Nothing
            }
            "w:br" | "w:cr" if parent == "w:r" => {
                self.push_text("\n");
                Did::Nothing
            }
            "w:noBreakHyphen" if parent == "w:r" => {
                self.push_text("\u{2011}");
                Did::Nothing
            }
            "w:ins" | "w:del" | "w:moveFrom" | "w:moveTo" => {
                self.revisions.push(match name {
                    "w:ins" => Revision::Inserted,
                    "w:del" => Revision::Deleted,
                    "w:moveFrom" => Revision::MovedFrom,
                    _ => Revision::MovedTo,
                });
                Did::Revision
            }
            "w:commentRangeStart" => {
                self.comments.insert(el.attr("w:id").unwrap_or_default());
                Did::Nothing
            }
            "w:commentRangeEnd" => {
                self.comments.remove(&el.attr("w:id").unwrap_or_default());
                Did::CommentEnd
            }
            "mc:AlternateContent" => {
                self.alternates.push(false);
                Did::Alternate
            }
            "mc:Choice" => match self.alternates.last_mut() {
                Some(taken) if !*taken => {
                    *taken = true;
                    Did::Nothing
                }
                _ => return (Flow::Skip, Did::Nothing),
            },
            "w:txbxContent" => {
                self.c.enter(SourcePart::TextBox);
                Did::Frame
            }
            "w:footnote" | "w:endnote" | "w:comment" => {
                if matches!(
                    el.attr("w:type").as_deref(),
                    Some("separator" | "continuationSeparator" | "continuationNotice")
                ) {
                    return (Flow::Skip, Did::Nothing);
                }
                self.c.enter(match name {
                    "w:footnote" => SourcePart::Footnote,
                    "w:endnote" => SourcePart::Endnote,
                    _ => SourcePart::Comment,
                });
                Did::Frame
            }
            "w:tbl" => {
                self.c.table_start();
                Did::Table
            }
            "w:tr" => {
                self.c.row_start();
                Did::Row
            }
            "w:gridBefore" => {
                let n = num(el.attr("w:val"));
                self.c.skip_columns(n);
                Did::Nothing
            }
            "w:tc" => {
                self.c.cell_start();
                Did::Cell
            }
            "w:gridSpan" if parent == "w:tcPr" => {
                self.c.skip_columns(num(el.attr("w:val")).saturating_sub(1));
                Did::Nothing
            }
            _ => Did::Nothing,
        };
        (Flow::Enter, did)
    }
}

/// A count attribute, 1 when absent or unreadable, at most 1024.
fn num(v: Option<String>) -> usize {
    v.and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .min(1024)
}

impl Handler for DocHandler<'_, '_> {
    fn start(&mut self, name: &str, el: &Element<'_, '_>) -> Flow {
        let (flow, did) = self.start_inner(name, el);
        if flow == Flow::Enter {
            self.stack.push((name.to_string(), did));
        }
        flow
    }

    fn end(&mut self, _name: &str) {
        let Some((_, did)) = self.stack.pop() else {
            return;
        };
        match did {
            Did::Paragraph => {
                self.c.paragraph_end();
                self.paragraphs.pop();
            }
            Did::Run => {
                self.runs.pop();
            }
            Did::RunProps => {
                let base = self.paragraphs.last().cloned().unwrap_or_default();
                if let Some(r) = self.runs.last_mut() {
                    r.look = self.styles.run(&base, r.char_style.as_deref(), &r.direct);
                }
            }
            Did::Text => self.text = false,
            Did::Revision => {
                self.revisions.pop();
            }
            Did::Table => self.c.table_end(),
            Did::Row => {}
            Did::Cell => self.c.cell_end(),
            Did::Frame => self.c.leave(),
            Did::Alternate => {
                self.alternates.pop();
            }
            Did::Nothing | Did::CommentEnd => {}
        }
    }

    fn text(&mut self, text: &str) {
        if self.text {
            self.push_text(text);
        }
    }
}
