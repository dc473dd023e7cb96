//! AcroForm fields and their widgets.
//!
//! One [`Field`] per *widget* (the box a user fills in): a field with two
//! widgets, on one page or two, gives two entries with the same name.
//!
//! * **Finding widgets.** The `/AcroForm /Fields` tree is walked depth-first
//!   through `/Kids` (a node without `/Kids` is a widget, possibly merged
//!   with its field). A widget is placed on the page whose `/Annots` lists
//!   it, so widgets without `/P` are placed too. Widget annotations that the
//!   tree does not list come after, in page and `/Annots` order; when neither
//!   they nor any `/Parent` of theirs is in the tree they are orphans
//!   ([`Code::WidgetNotInAcroform`]). A terminal field of the tree that no
//!   page lists (an invisible signature, say) gets an entry with its `/P`
//!   page, or page `None`, and a [`Code::WidgetNotOnPage`] finding saying
//!   where its `/P` points: viewers show a widget only from a page's
//!   `/Annots`.
//! * **Names and attributes.** The full name joins the non-empty `/T` of the
//!   widget's `/Parent` chain with `.`. `/FT`, `/Ff` and `/Opt` are inherited
//!   along the whole chain (widget first); `/V`, `/DV` and `/MaxLen` from the
//!   terminal field (the first node of the chain with a `/T`) upwards;
//!   `/TU` is the terminal field's own. A check box or radio button without
//!   `/V` is off: its value is `Off` (ISO 32000-1, 12.7.4.2.3: the off state
//!   is named `Off`), as pdf.js and PyMuPDF report it.
//! * **Button export values.** A check box or radio button field's `/Opt`
//!   (PDF 1.4) holds one export value per widget of the field, in `/Kids`
//!   order; the widgets' on-states are then often named by index (`/0`,
//!   `/1`: pdf-lib writes them so). The export values become the entry's
//!   `options`, the on-state names they map to (what `/V` holds) its
//!   `option_values`, as for a choice field's `[export display]` pairs.
//! * **Geometry.** The widget's `/Rect`, normalised, in displayed
//!   coordinates of its page (CropBox origin, `/Rotate`; a widget with the
//!   NoRotate flag stays upright at its upper-left corner, as viewers draw
//!   it), then in the scan's page-stacked pixels (`/UserUnit` applied unless
//!   the scanner is told otherwise). An entry without a page keeps its
//!   `/Rect` as is, in user-space units.
//! * **Limits.** A `/Kids` cycle is a fatal error (the corpus and qpdf treat
//!   such a form as broken); so is a tree deeper than 64 levels. `/Parent`
//!   chains stop at the first repeated object.

mod checks;
mod text;
mod walk;

use crate::diag::{Code, Diagnostic, Severity};
use crate::document::{Dict, Document, Error, Obj, ObjectId};
use crate::geometry::{PageGeometry, Rect, round2};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashMap;
use walk::{Chain, Entry, Found, Node, PTarget};

/// A field's type, from `/FT` and `/Ff` (inherited).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    /// `/FT /Tx`.
    Text,
    /// `/FT /Btn`, neither radio nor pushbutton.
    Checkbox,
    /// `/FT /Btn` with Ff bit 16 (radio).
    Radio,
    /// `/FT /Ch` with Ff bit 18 (combo).
    Combo,
    /// `/FT /Ch` without the combo bit.
    List,
    /// `/FT /Sig`.
    Signature,
    /// `/FT /Btn` with Ff bit 17 (pushbutton).
    Pushbutton,
}

impl FieldType {
    /// The lower-case name, as in the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::Checkbox => "checkbox",
            FieldType::Radio => "radio",
            FieldType::Combo => "combo",
            FieldType::List => "list",
            FieldType::Signature => "signature",
            FieldType::Pushbutton => "pushbutton",
        }
    }

    /// The type a `/FT` name and `/Ff` flags give; `None` without a known `/FT`.
    pub fn from_pdf(ft: &[u8], ff: i64) -> Option<FieldType> {
        Some(match ft {
            b"Tx" => FieldType::Text,
            b"Sig" => FieldType::Signature,
            b"Ch" if ff & FF_COMBO != 0 => FieldType::Combo,
            b"Ch" => FieldType::List,
            b"Btn" if ff & FF_PUSHBUTTON != 0 => FieldType::Pushbutton,
            b"Btn" if ff & FF_RADIO != 0 => FieldType::Radio,
            b"Btn" => FieldType::Checkbox,
            _ => return None,
        })
    }

    /// True for combo boxes and list boxes.
    pub fn is_choice(self) -> bool {
        matches!(self, FieldType::Combo | FieldType::List)
    }
}

// Field flags (PDF 2.0, 12.7.4): bit n is `1 << (n - 1)`.
const FF_READ_ONLY: i64 = 1 << 0;
const FF_REQUIRED: i64 = 1 << 1;
const FF_MULTILINE: i64 = 1 << 12;
const FF_PASSWORD: i64 = 1 << 13;
const FF_RADIO: i64 = 1 << 15;
const FF_PUSHBUTTON: i64 = 1 << 16;
const FF_COMBO: i64 = 1 << 17;
const FF_MULTI_SELECT: i64 = 1 << 21;
const FF_COMB: i64 = 1 << 24;

/// A field value: one string, or a list (a multi-select list box).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum FieldValue {
    /// Text, a chosen option, a button state name without `/`, or `"signed"`.
    Text(String),
    /// Several chosen options.
    List(Vec<String>),
}

/// One form-field widget (a field with two widgets gives two entries).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Field {
    /// Fully qualified name: the `/T` of the field and its ancestors, joined with `.`.
    pub name: String,
    /// Field type; `null` when no `/FT` is found on the widget or its parents.
    #[serde(rename = "type")]
    pub kind: Option<FieldType>,
    /// 0-based page; `None` for a field that no page shows and whose `/P` names no page.
    pub page: Option<usize>,
    /// Left edge, pixels (user-space units when `page` is `None`).
    pub x: f64,
    /// Top edge, page-stacked pixels (the `/Rect` bottom when `page` is `None`).
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Ff bit 2.
    pub required: bool,
    /// Ff bit 1.
    pub read_only: bool,
    /// Ff bit 13, text fields only.
    pub multiline: bool,
    /// Ff bit 14, text fields only.
    pub password: bool,
    /// Ff bit 25, text fields only.
    pub comb: bool,
    /// Ff bit 22, combo and list boxes only.
    pub multi_select: bool,
    /// Display strings of `/Opt` (combo and list boxes); for a check box or
    /// radio button field with `/Opt`, its export values, one per widget in
    /// `/Kids` order; empty otherwise.
    pub options: Vec<String>,
    /// What `value` holds for each of `options`, when some differ from them:
    /// the export values of a choice field's `/Opt`; the on-state names of a
    /// button's widgets (`"0"`, `"1"` where pdf-lib names states by index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub option_values: Option<Vec<String>>,
    /// `/V`: text, chosen option(s), the state name of a button (`"Off"` when
    /// off, also when a check box or radio button has no `/V`), `"signed"`
    /// for a signed signature field.
    pub value: Option<FieldValue>,
    /// `/DV`, read like `value`.
    pub default_value: Option<FieldValue>,
    /// `/TU` of the field.
    pub tooltip: Option<String>,
    /// `/MaxLen` (text fields).
    pub max_len: Option<u32>,
    /// 0-based position among the widgets of the same field, when it has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub widget_index: Option<usize>,
}

/// Maps a displayed rectangle on a page to output `(x, y, width, height)`.
pub(crate) type ToPixels<'a> = dyn Fn(usize, &Rect) -> (f64, f64, f64, f64) + 'a;

/// Extracts every field widget, in field-tree order, then the widgets that
/// only the pages list. Fails on a `/Kids` cycle or an absurdly deep tree.
pub(crate) fn extract(
    doc: &Document,
    to_px: &ToPixels<'_>,
) -> Result<(Vec<Field>, Vec<Diagnostic>), Error> {
    let walked = walk::walk(doc)?;
    let mut fields = Vec::with_capacity(walked.entries.len());
    let mut placed = Vec::with_capacity(walked.entries.len());
    let mut names = Names::default();
    for (i, entry) in walked.entries.iter().enumerate() {
        let (field, term) = read_field(doc, entry, to_px, &mut names);
        placed.push(checks::Placed {
            term: term.map_or(TermKey::Entry(i), TermKey::Id),
            page: field.page,
            rect: displayed_rect(doc, entry),
            orphan: entry.orphan,
            no_widget: entry.no_widget,
            off_pages: match entry.found {
                Found::OffPages(t) if !entry.no_widget => Some(t),
                _ => None,
            },
        });
        fields.push(field);
    }
    number_widgets(&mut fields, &placed);

    let mut diags = checks::check(doc, &fields, &placed);
    for n in &walked.empty_fields {
        let name = names.full_name(&walk::chain(doc, *n));
        diags.push(checks::without_widget(&name, None));
    }
    if walked.xfa {
        let widgets = placed.iter().filter(|p| !p.no_widget).count();
        let mut d = Diagnostic::new(
            Code::XfaForm,
            if widgets == 0 {
                "the form is XFA-only: it has an /XFA description and no AcroForm widget, so there are no fields to extract".to_string()
            } else {
                format!(
                    "the form also carries an XFA description; the {widgets} AcroForm widget(s) are reported, XFA-only content is not"
                )
            },
        )
        .hint("export the form as a static AcroForm (e.g. \"Save as Static PDF Form\" in LiveCycle / Acrobat)");
        if widgets == 0 {
            // The code's default is a warning; an XFA-only form has nothing to extract.
            d.severity = Severity::Error;
        }
        diags.push(d);
    }
    Ok((fields, diags))
}

/// Identity of a terminal field: to number the widgets it has, and to tell
/// separate fields with one full name from the widgets of one field.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum TermKey {
    Id(ObjectId),
    /// A direct dictionary: its entry index.
    Entry(usize),
}

/// Sets `widget_index` on the entries of fields with more than one widget.
fn number_widgets(fields: &mut [Field], placed: &[checks::Placed]) {
    let mut count: HashMap<TermKey, usize> = HashMap::new();
    for p in placed {
        *count.entry(p.term).or_default() += 1;
    }
    let mut next: HashMap<TermKey, usize> = HashMap::new();
    for (f, k) in fields.iter_mut().zip(placed.iter().map(|p| p.term)) {
        if count.get(&k).copied().unwrap_or(0) > 1 {
            let n = next.entry(k).or_default();
            f.widget_index = Some(*n);
            *n += 1;
        }
    }
}

/// The widget's rectangle in displayed user-space units of its page.
fn displayed_rect(doc: &Document, entry: &Entry<'_>) -> Option<Rect> {
    let page = match entry.found {
        Found::OnPage(p) | Found::OffPages(PTarget::Page(p, _)) => p,
        Found::OffPages(_) => return None,
    };
    let g = &doc.pages.get(page)?.geometry;
    Some(on_page(doc, entry.node.dict, g))
}

/// Annotation flag NoRotate (`/F` bit 5).
const F_NO_ROTATE: i64 = 1 << 4;

/// A widget's `/Rect` in displayed user-space units of its page: turned with
/// the page, or, with the NoRotate flag, upright at its upper-left corner
/// ([`PageGeometry::to_displayed_no_rotate`]), as viewers draw it.
fn on_page(doc: &Document, dict: Dict<'_>, g: &PageGeometry) -> Rect {
    let rect = widget_rect(doc, dict);
    let flags = doc.get_number(dict, b"F").map_or(0, |f| f as i64);
    if flags & F_NO_ROTATE != 0 {
        g.to_displayed_no_rotate(&rect)
    } else {
        g.to_displayed(&rect)
    }
}

/// `/Rect`, normalised; an empty rectangle at the origin when missing or broken.
fn widget_rect(doc: &Document, dict: Dict<'_>) -> Rect {
    let read = || {
        let arr = doc.get_array(dict, b"Rect")?;
        let mut v = [0.0; 4];
        if arr.len() < 4 {
            return None;
        }
        for (slot, o) in v.iter_mut().zip(arr) {
            *slot = doc.resolve(o).and_then(Obj::as_number)?;
        }
        Some(Rect::new(v[0], v[1], v[2], v[3]))
    };
    read().unwrap_or(Rect::new(0.0, 0.0, 0.0, 0.0))
}

/// The full name: non-empty `/T` of the chain, outermost first, joined with
/// `.`. The names of parent fields are remembered: the widgets of one form
/// share their parents, whose `/T` would otherwise be decoded again for each.
/// Only chains that end at the root are remembered (one cut at a cycle or at
/// the depth limit names its nodes after where it started).
#[derive(Default)]
struct Names(HashMap<ObjectId, String>);

impl Names {
    fn full_name(&mut self, chain: &Chain<'_>) -> String {
        let nodes = &chain.nodes;
        // The nearest ancestor already named, and its name.
        let known = chain
            .to_root
            .then(|| {
                nodes
                    .iter()
                    .enumerate()
                    .skip(1)
                    .find_map(|(i, n)| Some((i, self.0.get(&n.id?)?.clone())))
            })
            .flatten();
        let (known, mut name) = known.unwrap_or((nodes.len(), String::new()));
        for (i, n) in nodes.iter().enumerate().take(known).rev() {
            let part = n
                .dict
                .get(b"T")
                .and_then(text::object_text)
                .filter(|t| !t.is_empty());
            if let Some(part) = part {
                if !name.is_empty() {
                    name.push('.');
                }
                name.push_str(&part);
            }
            if chain.to_root
                && i > 0
                && let Some(id) = n.id
            {
                self.0.insert(id, name.clone());
            }
        }
        name
    }
}

/// Reads one entry: name, type, flags, values, box. Also returns the
/// terminal field's object id (to number widgets of one field).
fn read_field<'a>(
    doc: &'a Document,
    entry: &Entry<'a>,
    to_px: &ToPixels<'_>,
    names: &mut Names,
) -> (Field, Option<ObjectId>) {
    let walked = walk::chain(doc, entry.node);
    let chain = &walked.nodes;
    let term_at = chain
        .iter()
        .position(|n| n.dict.has(b"T"))
        .unwrap_or_default();
    let term = chain.get(term_at).copied().unwrap_or(entry.node);
    let term_chain = chain.get(term_at..).unwrap_or_default();
    let inherited = |nodes: &[Node<'a>], key: &[u8]| -> Option<Obj<'a>> {
        nodes
            .iter()
            .find_map(|n| n.dict.get(key))
            .and_then(|o| doc.resolve(o))
    };

    let ff = inherited(chain, b"Ff")
        .and_then(Obj::as_number)
        .map_or(0, |v| v as i64);
    let kind = inherited(chain, b"FT")
        .and_then(Obj::as_name)
        .and_then(|ft| FieldType::from_pdf(ft, ff));
    let is = |t: FieldType| kind == Some(t);
    let text_flag = |bit: i64| is(FieldType::Text) && ff & bit != 0;

    let value_of = |key: &[u8]| -> Option<FieldValue> {
        let v = inherited(term_chain, key)?;
        if is(FieldType::Signature) {
            return v.as_dict().map(|_| FieldValue::Text("signed".into()));
        }
        field_value(doc, v)
    };

    let (options, option_values) = match kind {
        Some(k) if k.is_choice() => read_options(doc, inherited(chain, b"Opt")),
        Some(FieldType::Checkbox | FieldType::Radio) => {
            button_options(doc, term, inherited(chain, b"Opt"))
        }
        _ => (Vec::new(), None),
    };
    let is_button = is(FieldType::Checkbox) || is(FieldType::Radio);
    // A button without /V is off (ISO 32000-1, 12.7.4.2.3), as viewers show it.
    let value = value_of(b"V").or_else(|| is_button.then(|| FieldValue::Text("Off".into())));
    let max_len = if is(FieldType::Text) {
        inherited(term_chain, b"MaxLen")
            .and_then(Obj::as_number)
            .filter(|v| *v >= 0.0 && *v <= f64::from(u32::MAX))
            .map(|v| v as u32)
    } else {
        None
    };

    let rect = widget_rect(doc, entry.node.dict);
    let page = match entry.found {
        Found::OnPage(p) => Some(p),
        Found::OffPages(t) => t.page(),
    };
    let (page, (x, y, width, height)) = match page.and_then(|p| Some((p, doc.pages.get(p)?))) {
        Some((p, pr)) => (
            Some(p),
            to_px(p, &on_page(doc, entry.node.dict, &pr.geometry)),
        ),
        None => (None, (rect.x0, rect.y0, rect.width(), rect.height())),
    };

    let field = Field {
        name: names.full_name(&walked),
        kind,
        page,
        x: round2(x),
        y: round2(y),
        width: round2(width),
        height: round2(height),
        required: ff & FF_REQUIRED != 0,
        read_only: ff & FF_READ_ONLY != 0,
        multiline: text_flag(FF_MULTILINE),
        password: text_flag(FF_PASSWORD),
        comb: text_flag(FF_COMB),
        multi_select: kind.is_some_and(FieldType::is_choice) && ff & FF_MULTI_SELECT != 0,
        options,
        option_values,
        value,
        default_value: value_of(b"DV"),
        tooltip: term
            .dict
            .get(b"TU")
            .and_then(|o| doc.resolve(o))
            .and_then(text::object_text),
        max_len,
        widget_index: None,
    };
    (field, term.id)
}

/// A `/V` or `/DV` object as a value: strings and names as text, arrays as
/// lists, numbers and booleans as their text; `None` for anything else (a
/// rich-text stream, a dictionary).
fn field_value(doc: &Document, v: Obj<'_>) -> Option<FieldValue> {
    match v.as_array() {
        Some(items) => Some(FieldValue::List(
            items
                .iter()
                .filter_map(|o| doc.resolve(o).and_then(scalar_text))
                .collect(),
        )),
        None => scalar_text(v).map(FieldValue::Text),
    }
}

fn scalar_text(o: Obj<'_>) -> Option<String> {
    if let Some(i) = o.as_i64() {
        Some(i.to_string())
    } else if let Some(r) = o.as_real() {
        Some(r.to_string())
    } else if let Some(b) = o.as_bool() {
        Some(b.to_string())
    } else {
        text::object_text(o)
    }
}

/// `/Opt` of a check box or radio button field (PDF 1.4; ISO 32000-1,
/// 12.7.4.2.3): one export value per widget of `field`, in `/Kids` order (the
/// field itself when it is its own widget), and the on-state names of those
/// widgets when some differ from the export values. A widget without an
/// on-state in its appearance (nor in `/AS`) is named by its index, as
/// producers that write `/Opt` name the states.
fn button_options(
    doc: &Document,
    field: Node<'_>,
    opt: Option<Obj<'_>>,
) -> (Vec<String>, Option<Vec<String>>) {
    let Some(items) = opt.and_then(Obj::as_array) else {
        return (Vec::new(), None);
    };
    let kids = doc.get_array(field.dict, b"Kids");
    let mut export = Vec::with_capacity(items.len());
    let mut states = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        // A text string; an `[export display]` pair (a choice field's form,
        // written by some producers) gives its export value.
        let value = doc.resolve(item).and_then(|o| match o.as_array() {
            Some(pair) => pair
                .first()
                .and_then(|o| doc.resolve(o))
                .and_then(scalar_text),
            None => scalar_text(o),
        });
        let Some(value) = value else { continue };
        let widget = match kids {
            Some(kids) => kids.get(i).and_then(|k| walk::node(doc, k)).map(|n| n.dict),
            None => (i == 0).then_some(field.dict),
        };
        let state = widget
            .and_then(|w| on_state(doc, w))
            .unwrap_or_else(|| i.to_string());
        export.push(value);
        states.push(state);
    }
    let differ = export != states;
    (export, differ.then_some(states))
}

/// A button widget's on-state: the first name of its normal appearance
/// (`/AP /N`) other than `Off`, else its `/AS` when that is not `Off`.
fn on_state(doc: &Document, widget: Dict<'_>) -> Option<String> {
    let normal = doc
        .get_dict(widget, b"AP")
        .and_then(|ap| doc.get(ap, b"N"))
        .and_then(Obj::as_dict);
    normal
        .and_then(|n| n.keys().find(|k| *k != b"Off"))
        .or_else(|| doc.get_name(widget, b"AS").filter(|s| *s != b"Off"))
        .map(text::name_text)
}

/// `/Opt` of a choice field: display strings, and export values when some
/// differ. An element is a string, or an `[export display]` pair.
fn read_options(doc: &Document, opt: Option<Obj<'_>>) -> (Vec<String>, Option<Vec<String>>) {
    let Some(items) = opt.and_then(Obj::as_array) else {
        return (Vec::new(), None);
    };
    let mut display = Vec::with_capacity(items.len());
    let mut export = Vec::with_capacity(items.len());
    for item in items {
        let pair = match doc.resolve(item).map(|o| (o, o.as_array())) {
            Some((_, Some(pair))) => {
                let part = |i: usize| {
                    pair.get(i)
                        .and_then(|o| doc.resolve(o))
                        .and_then(scalar_text)
                };
                match (part(0), part(1)) {
                    (Some(e), Some(d)) => Some((e, d)),
                    (Some(e), None) => Some((e.clone(), e)),
                    _ => None,
                }
            }
            Some((o, None)) => scalar_text(o).map(|s| (s.clone(), s)),
            None => None,
        };
        if let Some((e, d)) = pair {
            export.push(e);
            display.push(d);
        }
    }
    let differ = export != display;
    (display, differ.then_some(export))
}

#[cfg(test)]
mod tests {
    use crate::document::{Document, LoadOptions};
    use crate::loader::tests::classic;
    use crate::scan::Scanner;

    /// Widgets sharing a parent, and a `/Parent` cycle (9 -> 12 -> 9) whose
    /// names depend on where the chain starts: remembered parent names must
    /// not leak from one chain into the other.
    #[test]
    fn full_names_with_shared_parents_and_a_parent_cycle() {
        let w = "/Subtype /Widget /FT /Tx /Rect [10 10 50 30] /P 3 0 R";
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R 9 0 R] >> >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots [7 0 R 8 0 R 10 0 R 11 0 R] >>".to_string(),
            "<< /Length 0 >>\nstream\n\nendstream".to_string(),
            "<< >>".to_string(),
            "<< /T (parent) /Kids [7 0 R 8 0 R] >>".to_string(),
            format!("<< /Parent 6 0 R /T (a) {w} >>"),
            format!("<< /Parent 6 0 R /T (b) {w} >>"),
            "<< /T (x) /Parent 12 0 R /Kids [10 0 R 11 0 R] >>".to_string(),
            format!("<< /Parent 9 0 R /T (c) {w} >>"),
            format!("<< /Parent 12 0 R /T (d) {w} >>"),
            "<< /T (y) /Parent 9 0 R >>".to_string(),
        ];
        let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
        let doc = Document::from_bytes(&classic(&objects), &LoadOptions::default()).unwrap();
        let scan = Scanner::new().scan(&doc).unwrap();
        let names: Vec<&str> = scan.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["parent.a", "parent.b", "y.x.c", "x.y.d"]);
    }
}
