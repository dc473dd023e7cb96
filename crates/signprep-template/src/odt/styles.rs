//! OpenDocument text properties (`style:text-properties`) and the styles
//! that carry them: common styles and default styles of `styles.xml`,
//! automatic styles of the part being read, each with a parent.

use crate::error::TemplateError;
use crate::model::Look;
use crate::xml::{Element, Flow, Handler, walk};
use std::collections::HashMap;

/// What one `style:text-properties` sets; `None` leaves the inherited value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Props {
    font: Option<String>,
    size: Option<u32>,
    size_other: Option<String>,
    color: Option<Option<String>>,
    highlight: Option<Option<String>>,
    hidden: Option<bool>,
}

/// `12pt` → 1200 hundredths; other units converted, percentages kept as
/// written.
fn points(v: &str) -> Result<u32, String> {
    let v = v.trim();
    let (num, factor) = if let Some(n) = v.strip_suffix("pt") {
        (n, 1.0)
    } else if let Some(n) = v.strip_suffix("in") {
        (n, 72.0)
    } else if let Some(n) = v.strip_suffix("cm") {
        (n, 72.0 / 2.54)
    } else if let Some(n) = v.strip_suffix("mm") {
        (n, 72.0 / 25.4)
    } else {
        return Err(v.to_string());
    };
    match num.trim().parse::<f64>() {
        Ok(x) if (0.0..10_000.0).contains(&x) => Ok((x * factor * 100.0).round() as u32),
        _ => Err(v.to_string()),
    }
}

impl Props {
    pub(crate) fn overlay(&mut self, top: &Props) {
        if top.font.is_some() {
            self.font.clone_from(&top.font);
        }
        if top.size.is_some() || top.size_other.is_some() {
            self.size = top.size;
            self.size_other.clone_from(&top.size_other);
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

    fn read(el: &Element<'_, '_>) -> Props {
        let mut p = Props {
            font: el
                .attr("style:font-name")
                .or_else(|| el.attr("fo:font-family")),
            ..Props::default()
        };
        if let Some(s) = el.attr("fo:font-size") {
            match points(&s) {
                Ok(v) => p.size = Some(v),
                Err(other) => p.size_other = Some(other),
            }
        }
        if let Some(c) = el.attr("fo:color") {
            let hex = c.trim().trim_start_matches('#').to_ascii_uppercase();
            p.color = Some(Some(hex));
        }
        if el.attr("style:use-window-font-color").as_deref() == Some("true") {
            p.color = Some(None);
        }
        if let Some(b) = el.attr("fo:background-color") {
            p.highlight =
                Some((!b.eq_ignore_ascii_case("transparent")).then(|| b.to_ascii_uppercase()));
        }
        if let Some(d) = el.attr("text:display") {
            p.hidden = Some(d == "none");
        }
        p
    }

    pub(crate) fn look(&self) -> Look {
        Look {
            font: self.font.clone(),
            size: self.size,
            size_other: self.size_other.clone(),
            color: self.color.clone().flatten(),
            highlight: self.highlight.clone().flatten(),
            hidden: self.hidden.unwrap_or(false),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Style {
    parent: Option<String>,
    props: Props,
}

/// The styles a part's text is read with.
#[derive(Clone, Debug, Default)]
pub(crate) struct Styles {
    default_paragraph: Props,
    common: HashMap<String, Style>,
    /// Automatic styles of `styles.xml` (headers and footers use them).
    styles_auto: HashMap<String, Style>,
    /// Automatic styles of `content.xml`.
    content_auto: HashMap<String, Style>,
}

/// Which automatic styles apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Auto {
    /// `styles.xml`'s (master pages).
    Styles,
    /// `content.xml`'s (the body).
    Content,
}

const MAX_CHAIN: usize = 32;

impl Styles {
    /// Reads the styles of `styles.xml` (`Auto::Styles`) or the automatic
    /// styles of `content.xml` (`Auto::Content`) into `self`.
    pub(crate) fn read(&mut self, xml: &str, part: &str, which: Auto) -> Result<(), TemplateError> {
        let mut h = StylesHandler {
            out: self,
            which,
            container: None,
            current: None,
            default_paragraph: false,
        };
        walk(xml, part, &mut h)
    }

    fn get(&self, name: &str, which: Auto) -> Option<&Style> {
        let auto = match which {
            Auto::Styles => &self.styles_auto,
            Auto::Content => &self.content_auto,
        };
        auto.get(name).or_else(|| self.common.get(name))
    }

    /// A style's text properties over its parents'.
    pub(crate) fn chain(&self, name: &str, which: Auto) -> Props {
        let mut chain = Vec::new();
        let mut at = Some(name.to_string());
        while let Some(n) = at {
            let Some(s) = self.get(&n, which) else {
                break;
            };
            if chain.len() >= MAX_CHAIN {
                break;
            }
            chain.push(&s.props);
            at = s.parent.clone().filter(|p| *p != n);
        }
        let mut out = Props::default();
        for p in chain.iter().rev() {
            out.overlay(p);
        }
        out
    }

    /// What a paragraph of style `name` gives its text.
    pub(crate) fn paragraph(&self, name: Option<&str>, which: Auto) -> Props {
        let mut out = self.default_paragraph.clone();
        if let Some(n) = name {
            out.overlay(&self.chain(n, which));
        }
        out
    }
}

struct StylesHandler<'s> {
    out: &'s mut Styles,
    which: Auto,
    /// Inside `office:styles` (false) or `office:automatic-styles` (true).
    container: Option<bool>,
    current: Option<(String, Style)>,
    default_paragraph: bool,
}

impl Handler for StylesHandler<'_> {
    fn start(&mut self, name: &str, el: &Element<'_, '_>) -> Flow {
        match name {
            "office:styles" => self.container = Some(false),
            "office:automatic-styles" => self.container = Some(true),
            "office:body" | "office:master-styles" | "office:font-face-decls" => return Flow::Skip,
            "style:style" if self.container.is_some() => {
                let n = el.attr("style:name").unwrap_or_default();
                self.current = Some((
                    n,
                    Style {
                        parent: el.attr("style:parent-style-name"),
                        props: Props::default(),
                    },
                ));
            }
            "style:default-style" => {
                self.default_paragraph = el.attr("style:family").as_deref() == Some("paragraph");
            }
            "style:text-properties" => {
                let p = Props::read(el);
                if let Some((_, s)) = self.current.as_mut() {
                    s.props.overlay(&p);
                } else if self.default_paragraph {
                    self.out.default_paragraph.overlay(&p);
                }
            }
            _ => {}
        }
        Flow::Enter
    }

    fn end(&mut self, name: &str) {
        match name {
            "office:styles" | "office:automatic-styles" => self.container = None,
            "style:default-style" => self.default_paragraph = false,
            "style:style" => {
                if let Some((n, s)) = self.current.take() {
                    let map = match (self.container, self.which) {
                        (Some(false), _) => &mut self.out.common,
                        (_, Auto::Styles) => &mut self.out.styles_auto,
                        (_, Auto::Content) => &mut self.out.content_auto,
                    };
                    map.entry(n).or_insert(s);
                }
            }
            _ => {}
        }
    }

    fn text(&mut self, _text: &str) {}
}
