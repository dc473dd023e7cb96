//! Findings about fields: orphans, missing widgets, sizes, names, placement.

use super::walk::PTarget;
use super::{Field, TermKey};
use crate::diag::{Code, Diagnostic};
use crate::document::Document;
use crate::geometry::Rect;
use std::collections::BTreeMap;

/// Where an entry was found, beside its output record.
pub(super) struct Placed {
    /// The terminal field the entry is a widget of.
    pub(super) term: TermKey,
    pub(super) page: Option<usize>,
    /// The widget rectangle in displayed user-space units of its page.
    pub(super) rect: Option<Rect>,
    pub(super) orphan: bool,
    pub(super) no_widget: bool,
    /// A widget in no page's `/Annots`: where its `/P` points.
    pub(super) off_pages: Option<PTarget>,
}

/// Per-entry findings in entry order, then per-name findings in name order.
pub(super) fn check(doc: &Document, fields: &[Field], placed: &[Placed]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (f, p) in fields.iter().zip(placed) {
        let on = |d: Diagnostic| match p.page {
            Some(page) => d.page(page),
            None => d,
        };
        // A finding's message makes the name's invisible characters visible.
        let name = || f.name.as_str();
        let at = || match p.page {
            Some(page) => format!("page {}: ", page + 1),
            None => String::new(),
        };
        if p.orphan {
            out.push(on(Diagnostic::new(
                Code::WidgetNotInAcroform,
                format!("{}widget of `{}` is not reachable from /AcroForm /Fields; the service and some viewers may ignore it", at(), name()),
            )
            .field(&f.name)
            .hint("re-save the form in a form editor so that every widget belongs to a field of the form")));
        }
        if p.no_widget {
            out.push(without_widget(&f.name, p.page));
            continue;
        }
        if let Some(target) = p.off_pages {
            out.push(on(not_on_page(name(), target)).field(&f.name));
        }
        if f.width == 0.0 || f.height == 0.0 {
            out.push(on(Diagnostic::new(
                Code::FieldZeroSize,
                format!(
                    "{}field `{}` has a {} x {} box{}",
                    at(),
                    name(),
                    f.width,
                    f.height,
                    if f.kind == Some(super::FieldType::Signature) {
                        " (an invisible signature)"
                    } else {
                        ""
                    }
                ),
            )
            .field(&f.name)));
        }
        if let (Some(page), Some(rect)) = (p.page, p.rect)
            && let Some(pr) = doc.pages.get(page)
        {
            let (w, h) = pr.geometry.displayed_size();
            let visible = Rect::new(0.0, 0.0, w, h);
            if rect.width() > 0.0 && rect.height() > 0.0 && !visible.contains(&rect) {
                let whole = visible.intersect(&rect).is_none();
                out.push(
                    Diagnostic::new(
                        Code::FieldOffPage,
                        format!(
                            "{}field `{}` is {} outside the visible page (CropBox)",
                            at(),
                            name(),
                            if whole { "entirely" } else { "partly" }
                        ),
                    )
                    .page(page)
                    .field(&f.name),
                );
            }
        }
    }
    out.extend(name_findings(fields, placed));
    out
}

/// A terminal field without any widget.
pub(super) fn without_widget(name: &str, page: Option<usize>) -> Diagnostic {
    let d = Diagnostic::new(
        Code::FieldWithoutWidget,
        format!("field `{name}` has no widget: it is shown on no page and cannot be placed"),
    )
    .field(name)
    .hint("give the field a widget (a box on a page) or remove it");
    match page {
        Some(p) => d.page(p),
        None => d,
    }
}

/// A widget that no page's `/Annots` lists, and where its `/P` points.
fn not_on_page(name: &str, target: PTarget) -> Diagnostic {
    let whither = match target {
        PTarget::Page(p, id) => format!(
            "its /P points to page {} (object {} {}), where it is reported",
            p + 1,
            id.0,
            id.1
        ),
        PTarget::NotAPage(id) => format!(
            "its /P points to object {} {}, which is no page of the page tree, so it is reported without a page",
            id.0, id.1
        ),
        PTarget::Invalid => {
            "its /P is not a reference to a page, so it is reported without a page".to_string()
        }
        PTarget::Missing => "it has no /P, so it is reported without a page".to_string(),
    };
    Diagnostic::new(
        Code::WidgetNotOnPage,
        format!("widget of `{name}` is in no page's /Annots, so viewers show it nowhere; {whither}"),
    )
    .hint("list the widget in the /Annots of the page it belongs on (re-save the form in a form editor), or remove the field")
}

/// The entries of one full name.
struct Named<'a> {
    /// The first entry's page.
    page: Option<usize>,
    /// Field types, in order of appearance.
    types: Vec<&'static str>,
    /// The separate terminal fields, in order of appearance, each with its
    /// entries (widgets).
    fields: Vec<(TermKey, Vec<&'a Field>)>,
}

/// Conflicting types per name, separate fields with one name, and names a
/// pack cannot reference.
fn name_findings(fields: &[Field], placed: &[Placed]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut by_name: BTreeMap<&str, Named<'_>> = BTreeMap::new();
    for (f, p) in fields.iter().zip(placed) {
        let e = by_name.entry(&f.name).or_insert_with(|| Named {
            page: f.page,
            types: Vec::new(),
            fields: Vec::new(),
        });
        let t = f.kind.map_or("unknown", super::FieldType::as_str);
        if !e.types.contains(&t) {
            e.types.push(t);
        }
        match e.fields.iter_mut().find(|(k, _)| *k == p.term) {
            Some((_, widgets)) => widgets.push(f),
            None => e.fields.push((p.term, vec![f])),
        }
    }
    for (name, named) in &by_name {
        let (page, types) = (&named.page, &named.types);
        let on = |d: Diagnostic| match page {
            Some(p) => d.page(*p),
            None => d,
        };
        if !name.is_empty() && types.len() > 1 {
            out.push(on(Diagnostic::new(
                Code::FieldNameConflict,
                format!(
                    "field name `{}` is used with {} types ({}); a pack cannot tell which one `custom_id` means",
                    name,
                    types.len(),
                    types.join(", ")
                ),
            )
            .field(*name)
            .hint("rename one of the fields")));
        } else if !name.trim().is_empty() && named.fields.len() > 1 {
            out.push(on(duplicate(name, &named.fields)));
        }
        if let Some(why) = unaddressable(name) {
            let what = if name.is_empty() {
                "a field has no name".to_string()
            } else {
                format!("field name `{name}` {why}")
            };
            out.push(on(Diagnostic::new(
                Code::FieldNameUnaddressable,
                format!("{what}; a pack cannot reference it by `custom_id`"),
            )
            .field(*name)
            .hint("give the field a printable name (/T)")));
        }
    }
    out
}

/// Separate fields shown at most in a duplicate-name message (the rest are counted).
const DUPLICATES_SHOWN: usize = 5;

/// Separate fields (not widgets of one field) with one full name, each
/// placed by its first widget: the page and the box as the `fields` entries
/// give them.
fn duplicate(name: &str, fields: &[(TermKey, Vec<&Field>)]) -> Diagnostic {
    let place = |widgets: &[&Field]| {
        let Some(f) = widgets.first() else {
            return String::new();
        };
        let at = match f.page {
            Some(p) => format!("page {} at x {}, y {}", p + 1, f.x, f.y),
            None => "no page".to_string(),
        };
        let more = match widgets.len() {
            0 | 1 => String::new(),
            2 => " and 1 more widget".to_string(),
            n => format!(" and {} more widgets", n - 1),
        };
        format!("{at}, {} x {}{more}", f.width, f.height)
    };
    let mut places: Vec<String> = fields
        .iter()
        .take(DUPLICATES_SHOWN)
        .map(|(_, w)| format!("({})", place(w)))
        .collect();
    if fields.len() > DUPLICATES_SHOWN {
        places.push(format!("and {} more", fields.len() - DUPLICATES_SHOWN));
    }
    Diagnostic::new(
        Code::FieldNameDuplicate,
        format!(
            "field name `{}` is used by {} separate fields: {}; the service finds a field by its name, so a value or a `custom_id` for it cannot tell them apart",
            name,
            fields.len(),
            places.join(", ")
        ),
    )
    .field(name)
    .hint("rename all but one of the fields, or make them widgets of one field (one value shown in several places)")
}

/// Why a name cannot be referenced, if it cannot.
fn unaddressable(name: &str) -> Option<&'static str> {
    if name.trim().is_empty() {
        return Some("is empty");
    }
    if name.contains('\u{FFFD}') {
        return Some("holds bytes that do not decode as text");
    }
    if name.chars().any(crate::visible::is_invisible) {
        return Some("holds control or invisible characters");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addressable_names() {
        assert_eq!(unaddressable("client.name"), None);
        assert_eq!(unaddressable("topmostSubform[0].f1_1[0]"), None);
        assert_eq!(unaddressable("Prénom"), None);
        assert!(unaddressable("").is_some());
        assert!(unaddressable("  ").is_some());
        assert!(unaddressable("a\u{0}b").is_some());
        assert!(unaddressable("a\u{200B}b").is_some());
        assert!(unaddressable("x\u{FFFD}").is_some());
    }
}
