//! Word's run properties (`w:rPr`) and the styles that give them:
//! `word/styles.xml`'s document defaults, paragraph and character styles,
//! each `w:basedOn` another.

use crate::error::TemplateError;
use crate::model::Look;
use crate::xml::{Element, Flow, Handler, walk};
use std::collections::HashMap;

/// The properties one `w:rPr` sets; `None` leaves the inherited value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Props {
    font: Option<String>,
    size: Option<u32>,
    /// `Some(None)`: automatic colour set explicitly.
    color: Option<Option<String>>,
    highlight: Option<Option<String>>,
    hidden: Option<bool>,
}

/// Word's on/off property: absent value or `true`/`1`/`on` is on.
fn on(el: &Element<'_, '_>) -> bool {
    !matches!(
        el.attr("w:val").as_deref(),
        Some("false" | "0" | "off" | "none")
    )
}

impl Props {
    /// `top` over `self`: what `top` sets wins.
    pub(crate) fn overlay(&mut self, top: &Props) {
        if top.font.is_some() {
            self.font.clone_from(&top.font);
        }
        if top.size.is_some() {
            self.size = top.size;
        }
        if top.color.is_some() {
            self.color.clone_from(&top.color);
        }
        if top.highlight.is_some() {
            self.highlight.clone_from(&top.highlight);
        }
        if top.hidden.is_some() {
            self.hidden = top.hidden;
        }
    }

    /// Applies one child element of a `w:rPr`; false when it is none of the
    /// properties read.
    pub(crate) fn apply(&mut self, name: &str, el: &Element<'_, '_>) -> bool {
        match name {
            "w:rFonts" => {
                let font = ["w:ascii", "w:hAnsi", "w:asciiTheme", "w:cs"]
                    .iter()
                    .find_map(|a| el.attr(a));
                if font.is_some() {
                    self.font = font;
                }
            }
            "w:sz" => {
                if let Some(half) = el.attr("w:val").and_then(|v| v.trim().parse::<u32>().ok()) {
                    self.size = Some(half.saturating_mul(50));
                }
            }
            "w:color" => {
                if let Some(v) = el.attr("w:val") {
                    self.color =
                        Some((!v.eq_ignore_ascii_case("auto")).then(|| v.to_ascii_uppercase()));
                }
            }
            "w:highlight" => {
                if let Some(v) = el.attr("w:val") {
                    self.highlight = Some((!v.eq_ignore_ascii_case("none")).then_some(v));
                }
            }
            "w:shd" => {
                if let Some(fill) = el
                    .attr("w:fill")
                    .filter(|f| !f.eq_ignore_ascii_case("auto"))
                {
                    self.highlight = Some(Some(format!("shading {}", fill.to_ascii_uppercase())));
                }
            }
            "w:vanish" | "w:specVanish" => self.hidden = Some(on(el)),
            _ => return false,
        }
        true
    }

    /// The look these properties give.
    pub(crate) fn look(&self) -> Look {
        Look {
            font: self.font.clone(),
            size: self.size,
            size_other: None,
            color: self.color.clone().flatten(),
            highlight: self.highlight.clone().flatten(),
            hidden: self.hidden.unwrap_or(false),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Style {
    based_on: Option<String>,
    props: Props,
}

/// `word/styles.xml`, read for run properties.
#[derive(Clone, Debug, Default)]
pub(crate) struct Styles {
    defaults: Props,
    default_paragraph: Option<String>,
    styles: HashMap<String, Style>,
}

/// Deepest `w:basedOn` chain followed (Word's own stay under 10).
const MAX_CHAIN: usize = 32;

impl Styles {
    /// Reads `xml` (the part `part`).
    pub(crate) fn read(xml: &str, part: &str) -> Result<Styles, TemplateError> {
        let mut h = StylesHandler::default();
        walk(xml, part, &mut h)?;
        Ok(h.out)
    }

    /// A style's properties with those of the styles it is based on.
    fn chain(&self, id: &str) -> Props {
        let mut chain = Vec::new();
        let mut at = Some(id.to_string());
        while let Some(name) = at {
            let Some(s) = self.styles.get(&name) else {
                break;
            };
            if chain.len() >= MAX_CHAIN {
                break;
            }
            chain.push(&s.props);
            at = s.based_on.clone().filter(|b| *b != name);
        }
        let mut out = Props::default();
        for p in chain.iter().rev() {
            out.overlay(p);
        }
        out
    }

    /// What a paragraph of style `id` (or the default paragraph style) gives
    /// its runs: the document defaults under the style's chain.
    pub(crate) fn paragraph(&self, id: Option<&str>) -> Props {
        let mut out = self.defaults.clone();
        if let Some(id) = id.or(self.default_paragraph.as_deref()) {
            out.overlay(&self.chain(id));
        }
        out
    }

    /// A run's look: the paragraph's properties, the character style's
    /// chain, then the run's own.
    pub(crate) fn run(&self, paragraph: &Props, char_style: Option<&str>, direct: &Props) -> Look {
        let mut p = paragraph.clone();
        if let Some(id) = char_style {
            p.overlay(&self.chain(id));
        }
        p.overlay(direct);
        p.look()
    }
}

#[derive(Debug, Default)]
struct StylesHandler {
    out: Styles,
    /// The style being read, with its id.
    current: Option<(String, Style)>,
    in_defaults: bool,
    in_rpr: bool,
}

impl Handler for StylesHandler {
    fn start(&mut self, name: &str, el: &Element<'_, '_>) -> Flow {
        match name {
            "w:rPrDefault" => self.in_defaults = true,
            "w:style" => {
                let id = el.attr("w:styleId").unwrap_or_default();
                if el.attr("w:type").as_deref() == Some("paragraph")
                    && on_attr(el.attr("w:default").as_deref())
                {
                    self.out.default_paragraph = Some(id.clone());
                }
                self.current = Some((id, Style::default()));
            }
            "w:basedOn" => {
                if let Some((_, s)) = self.current.as_mut() {
                    s.based_on = el.attr("w:val");
                }
            }
            "w:rPr" => self.in_rpr = true,
            "w:rPrChange" | "w:pPr" | "w:tblPr" | "w:tblStylePr" | "w:pPrDefault" => {
                return Flow::Skip;
            }
            _ if self.in_rpr => {
                if self.in_defaults {
                    self.out.defaults.apply(name, el);
                } else if let Some((_, s)) = self.current.as_mut() {
                    s.props.apply(name, el);
                }
            }
            _ => {}
        }
        Flow::Enter
    }

    fn end(&mut self, name: &str) {
        match name {
            "w:rPrDefault" => self.in_defaults = false,
            "w:rPr" => self.in_rpr = false,
            "w:style" => {
                if let Some((id, s)) = self.current.take() {
                    self.out.styles.entry(id).or_insert(s);
                }
            }
            _ => {}
        }
    }

    fn text(&mut self, _text: &str) {}
}

fn on_attr(v: Option<&str>) -> bool {
    matches!(v, Some("1" | "true" | "on"))
}
