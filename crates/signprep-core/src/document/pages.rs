//! The page tree: pages in order, with their inherited attributes, read the
//! way viewers read it.
//!
//! - A page listed twice in `/Kids` is a page twice. MuPDF counts and shows
//!   it twice; pdf.js counts its slot twice too (the second slot fails to
//!   render with "circular reference"); neither drops it. A `/Pages` node
//!   reached again, not inside itself, is walked again: its pages are pages
//!   again.
//! - A node reached again that gave no page (an empty node repeated) gives
//!   nothing, and is not walked a second time.
//! - A node listed inside itself (a cycle: a node that is its own ancestor)
//!   is cut there: the walk goes on with the next kid, every page reached is
//!   kept, and a [`Code::PageTreeRepaired`] finding says so. Unless the
//!   cycle hides pages: when the root's `/Count` declares more pages than
//!   the walk reaches, the file is refused, since pages the author wrote are
//!   lost (MuPDF and pdf.js show the pages before the cycle and fail on the
//!   others: "cycle in page tree", "Pages tree contains circular reference").
//! - A page dictionary written directly in `/Kids` (not as a reference) is a
//!   page, as in MuPDF and pdf.js.
//! - A node is a `/Pages` node when its `/Type` says so, a page when its
//!   `/Type` is `/Page`; without a `/Type`, a dictionary with `/Kids` is a
//!   node and one without is a page (pdf.js's rule). A kid whose `/Type`
//!   names anything else (a font, an annotation) is skipped as MuPDF skips
//!   it ("non-page object in page tree"), and reported.
//! - When the tree gives no page at all, the file's objects are scanned for
//!   `/Type /Page` dictionaries (in object number order, as MuPDF's repair
//!   rebuilds the tree), with a finding. When none is found either, the file
//!   is refused, unless its tree is sound and declares no page: then it is
//!   read with a [`Code::DocumentNoPages`] finding.
#![allow(clippy::disallowed_types)] // the document layer: reads lopdf objects

use super::{Dict, Document, Error, Obj};
use crate::diag::{Code, Diagnostic};
use crate::error::{Limit, PageTreeDamage, Unreadable};
use crate::geometry::{PageGeometry, Rect, Rotation};
use lopdf::{Dictionary, Object, ObjectId};
use std::collections::HashSet;
use std::sync::Arc;

/// One page as found in the page tree, with its inherited attributes.
#[derive(Clone, Debug)]
pub(crate) struct PageRef {
    /// The page dictionary.
    pub(crate) object: PageObject,
    pub(crate) geometry: PageGeometry,
    /// `/Resources` (inherited), as written: a dictionary or a reference.
    /// Shared: pages inherit one copy, however many kids the tree lists.
    resources: Option<Arc<Object>>,
}

/// Where a page dictionary is.
#[derive(Clone, Debug)]
pub(crate) enum PageObject {
    /// An object of its own (the usual case).
    Indirect(ObjectId),
    /// Written directly in its parent's `/Kids`: a copy.
    Direct(Arc<Dictionary>),
}

impl PageRef {
    /// The page's object id, unless its dictionary is written in `/Kids`.
    pub(crate) fn id(&self) -> Option<ObjectId> {
        match self.object {
            PageObject::Indirect(id) => Some(id),
            PageObject::Direct(_) => None,
        }
    }

    /// `/Resources` (inherited), as written: a dictionary or a reference.
    #[inline]
    pub(crate) fn resources(&self) -> Option<Obj<'_>> {
        self.resources.as_deref().map(Obj::new)
    }
}

impl Document {
    /// The dictionary of a page.
    pub(crate) fn page_dict<'a>(&'a self, page: &'a PageRef) -> Option<Dict<'a>> {
        match &page.object {
            PageObject::Indirect(id) => self.dictionary(*id),
            PageObject::Direct(dict) => Some(Dict::new(dict)),
        }
    }
}

/// lopdf's test for a loaded page tree (a file failing it is rebuilt by
/// scanning): the catalog's `/Pages` is a reference to a dictionary whose
/// `/Kids` is an array.
pub(super) fn page_tree_loaded(doc: &Document) -> bool {
    let kids = || {
        let root = doc.trailer().get(b"Root")?.as_reference()?;
        let pages = doc.dictionary(root)?.get(b"Pages")?.as_reference()?;
        let kids = doc.dictionary(pages)?.get(b"Kids")?;
        match kids.as_reference() {
            Some(id) => doc.object(id),
            None => Some(kids),
        }
    };
    kids().and_then(Obj::as_array).is_some()
}

/// False when the trailer's `/Root` names an object that is missing, not a
/// dictionary, or a dictionary whose `/Type` is another name than
/// `/Catalog` (a catalog without `/Type` is still one).
pub(super) fn root_is_catalog(doc: &Document) -> bool {
    let Some(root) = doc.trailer().get(b"Root").and_then(Obj::as_reference) else {
        return false;
    };
    match doc.dictionary(root) {
        Some(catalog) => match catalog.get(b"Type").and_then(Obj::as_name) {
            Some(n) => n == b"Catalog",
            None => true,
        },
        None => false,
    }
}

/// The pages of a document and what was repaired to find them.
pub(super) struct Pages {
    pub(super) pages: Vec<PageRef>,
    pub(super) findings: Vec<Diagnostic>,
}

/// How many kid entries the walk reads in all, per page allowed
/// ([`super::LoadOptions::max_pages`]): a real tree lists about one entry per
/// page and one per node; a tree listing one empty node, or a node full of
/// empty nodes, over and over is stopped here.
const KIDS_PER_PAGE: usize = 4;

/// Reads the pages: the page tree, else a scan of the objects (see the
/// module documentation).
pub(super) fn read_pages(doc: &Document) -> Result<Pages, Error> {
    let root = doc
        .trailer()
        .get(b"Root")
        .and_then(Obj::as_reference)
        .ok_or_else(|| Error::unreadable(Unreadable::NoCatalog))?;
    let catalog = doc
        .dictionary(root)
        .ok_or_else(|| Error::unreadable(Unreadable::CatalogMissing))?;
    let mut walk = Walk::new(doc);
    let top = catalog.get(b"Pages").and_then(Kid::of);
    if let Some(top) = top {
        walk.run(top)?;
    }
    if !walk.out.is_empty() {
        // Pages the root's /Count declares that a cycle hides are lost: the
        // file is not the document it says it is (viewers fail on those
        // pages too).
        let declared = top
            .and_then(|t| match t {
                Kid::Ref(id) => doc.dictionary(id),
                Kid::Direct(d) => Some(d),
            })
            .and_then(|d| doc.get_number(d, b"Count"))
            .unwrap_or(0.0);
        if walk.cuts > 0 && declared > walk.out.len() as f64 {
            return Err(Error::unreadable(Unreadable::PagesHidden {
                damage: walk.damage_parts().unwrap_or_default(),
                declared: declared.ceil() as u64,
                reached: walk.out.len(),
            }));
        }
        let findings = walk.damage().into_iter().collect();
        return Ok(Pages {
            pages: walk.out,
            findings,
        });
    }
    let scanned = scan_for_pages(doc)?;
    if !scanned.is_empty() {
        let why = match (top.is_some(), walk.damage_parts()) {
            (false, _) => "the document catalog has no /Pages tree".to_string(),
            (true, Some(d)) => format!("its page tree gives no page ({d})"),
            (true, None) => "its page tree lists no page".to_string(),
        };
        let finding = Diagnostic::new(
            Code::PageTreeRepaired,
            format!(
                "{why}; {} page(s) were found by scanning the file's objects for /Type /Page, in object order",
                scanned.len()
            ),
        );
        return Ok(Pages {
            pages: scanned,
            findings: vec![finding],
        });
    }
    if top.is_some() && walk.sound() {
        return Ok(Pages {
            pages: Vec::new(),
            findings: vec![Diagnostic::new(
                Code::DocumentNoPages,
                "the document has no page: its page tree is empty and no object is a page",
            )],
        });
    }
    Err(Error::unreadable(Unreadable::NoPage {
        pages_tree: top.is_some(),
        damage: walk.damage_parts(),
    }))
}

/// Inherited page attributes while walking the tree.
#[derive(Clone, Default)]
struct Inherited {
    media_box: Option<Rect>,
    crop_box: Option<Rect>,
    rotate: Option<i64>,
    /// Shared, so cloning for every kid stays cheap.
    resources: Option<Arc<Object>>,
}

impl Inherited {
    /// The attributes `dict` sets, over those inherited.
    fn apply(&mut self, doc: &Document, dict: Dict<'_>) {
        let get_box = |key: &[u8]| dict.get(key).and_then(|o| rect_of(doc, o));
        if let Some(b) = get_box(b"MediaBox") {
            self.media_box = Some(b);
        }
        if let Some(b) = get_box(b"CropBox") {
            self.crop_box = Some(b);
        }
        if let Some(r) = doc.get_number(dict, b"Rotate") {
            self.rotate = Some(r as i64);
        }
        if let Some(r) = dict.get(b"Resources") {
            self.resources = Some(Arc::new(r.raw().clone()));
        }
    }

    /// What a page found outside the tree inherits along its `/Parent`
    /// chain (bounded, cycles stopped).
    fn from_parents(doc: &Document, page: Dict<'_>) -> Inherited {
        let mut chain = Vec::new();
        let mut seen = HashSet::new();
        let mut at = page;
        while chain.len() < doc.options.max_page_tree_depth {
            let Some(id) = at.get(b"Parent").and_then(Obj::as_reference) else {
                break;
            };
            let Some(parent) = doc.dictionary(id).filter(|_| seen.insert(id)) else {
                break;
            };
            chain.push(parent);
            at = parent;
        }
        let mut inh = Inherited::default();
        for node in chain.iter().rev() {
            inh.apply(doc, *node);
        }
        inh
    }

    /// The page, with the attributes it sets itself (already applied).
    fn page(self, doc: &Document, object: PageObject, dict: Dict<'_>) -> PageRef {
        let media = self
            .media_box
            .unwrap_or_else(|| Rect::new(0.0, 0.0, 612.0, 792.0));
        let user_unit = doc.get_number(dict, b"UserUnit").unwrap_or(1.0);
        PageRef {
            object,
            geometry: PageGeometry::new(
                media,
                self.crop_box,
                Rotation::from_degrees(self.rotate.unwrap_or(0)),
                user_unit,
            ),
            resources: self.resources,
        }
    }
}

/// A kid of a node: a reference, or a dictionary written in `/Kids`.
#[derive(Clone, Copy)]
enum Kid<'a> {
    Ref(ObjectId),
    Direct(Dict<'a>),
}

impl<'a> Kid<'a> {
    /// A reference or a dictionary object as a kid.
    fn of(obj: Obj<'a>) -> Option<Kid<'a>> {
        match obj.raw() {
            Object::Reference(id) => Some(Kid::Ref(*id)),
            Object::Dictionary(d) => Some(Kid::Direct(Dict::new(d))),
            _ => None,
        }
    }
}

/// A kid waiting to be walked.
struct Frame<'a> {
    kid: Kid<'a>,
    inherited: Inherited,
    depth: usize,
    /// The node listing it (for messages).
    parent: Option<ObjectId>,
}

/// A node whose kids are being walked.
struct Open {
    id: ObjectId,
    /// The stack's length when the node was taken off it: once the stack is
    /// back to it, every kid of the node has been walked.
    base: usize,
    /// Pages and cuts found before the node.
    pages_before: usize,
    cuts_before: usize,
}

/// The depth-first walk of the tree, on an explicit stack.
struct Walk<'a> {
    doc: &'a Document,
    out: Vec<PageRef>,
    stack: Vec<Frame<'a>>,
    /// The nodes from the top to the one being walked.
    path: Vec<Open>,
    on_path: HashSet<ObjectId>,
    /// Nodes walked that gave no page (and met no cycle, so they give none
    /// wherever they are listed).
    empty: HashSet<ObjectId>,
    /// Kid entries read so far.
    kids_read: usize,
    /// Nodes listed inside themselves: (the node, the node listing it).
    cuts: usize,
    first_cut: Option<(ObjectId, Option<ObjectId>)>,
    /// Kids that are missing, or not a dictionary.
    dangling: usize,
    first_dangling: Option<(Option<ObjectId>, Option<ObjectId>)>,
}

impl<'a> Walk<'a> {
    fn new(doc: &'a Document) -> Self {
        Walk {
            doc,
            out: Vec::new(),
            stack: Vec::new(),
            path: Vec::new(),
            on_path: HashSet::new(),
            empty: HashSet::new(),
            kids_read: 0,
            cuts: 0,
            first_cut: None,
            dangling: 0,
            first_dangling: None,
        }
    }

    fn run(&mut self, top: Kid<'a>) -> Result<(), Error> {
        self.stack.push(Frame {
            kid: top,
            inherited: Inherited::default(),
            depth: 0,
            parent: None,
        });
        loop {
            // Close the nodes whose kids are all walked, innermost first.
            while let Some(open) = self.path.last()
                && self.stack.len() <= open.base
            {
                if self.out.len() == open.pages_before && self.cuts == open.cuts_before {
                    self.empty.insert(open.id);
                }
                self.on_path.remove(&open.id);
                self.path.pop();
            }
            let Some(frame) = self.stack.pop() else {
                return Ok(());
            };
            self.visit(frame)?;
        }
    }

    fn visit(&mut self, frame: Frame<'a>) -> Result<(), Error> {
        let options = &self.doc.options;
        if frame.depth > options.max_page_tree_depth {
            return Err(Error::limit(Limit::PageTreeDepth {
                limit: options.max_page_tree_depth,
            }));
        }
        let (id, dict) = match frame.kid {
            Kid::Ref(id) => {
                if self.on_path.contains(&id) {
                    self.cuts += 1;
                    self.first_cut.get_or_insert((id, frame.parent));
                    return Ok(());
                }
                if self.empty.contains(&id) {
                    return Ok(());
                }
                let Some(dict) = self.doc.dictionary(id) else {
                    self.dangle(Some(id), frame.parent);
                    return Ok(());
                };
                (Some(id), dict)
            }
            Kid::Direct(dict) => (None, dict),
        };
        let Some(node) = kind(self.doc, dict) else {
            self.dangle(id, frame.parent);
            return Ok(());
        };
        let mut inherited = frame.inherited;
        inherited.apply(self.doc, dict);
        if node == Kind::Page {
            if self.out.len() >= options.max_pages {
                return Err(Error::limit(Limit::Pages {
                    limit: options.max_pages,
                }));
            }
            let object = match id {
                Some(id) => PageObject::Indirect(id),
                None => PageObject::Direct(Arc::new(dict.raw().clone())),
            };
            let page = inherited.page(self.doc, object, dict);
            self.out.push(page);
            return Ok(());
        }
        let kids = self.doc.get_array(dict, b"Kids").unwrap_or_default();
        // Every pending kid is a page to come or a node holding some: more
        // than max_pages of them is refused before they are queued.
        if self.out.len() + self.stack.len() + kids.len() > options.max_pages {
            return Err(Error::limit(Limit::Kids {
                limit: options.max_pages,
            }));
        }
        if kids.len() > options.max_kids_per_node {
            return Err(Error::limit(Limit::KidsPerNode {
                limit: options.max_kids_per_node,
            }));
        }
        self.kids_read += kids.len();
        let most = options.max_pages.saturating_mul(KIDS_PER_PAGE);
        if self.kids_read > most {
            return Err(Error::limit(Limit::KidsInAll {
                most,
                per_page: KIDS_PER_PAGE,
            }));
        }
        if let Some(id) = id {
            self.on_path.insert(id);
            self.path.push(Open {
                id,
                base: self.stack.len(),
                pages_before: self.out.len(),
                cuts_before: self.cuts,
            });
        }
        prefetch(self.doc, kids);
        for kid in kids.iter().rev() {
            let Some(kid) = Kid::of(kid) else {
                self.dangle(None, id);
                continue;
            };
            self.stack.push(Frame {
                kid,
                inherited: inherited.clone(),
                depth: frame.depth + 1,
                parent: id,
            });
        }
        Ok(())
    }

    fn dangle(&mut self, kid: Option<ObjectId>, parent: Option<ObjectId>) {
        self.dangling += 1;
        self.first_dangling.get_or_insert((kid, parent));
    }

    /// True when nothing was skipped: no cycle, no missing kid.
    fn sound(&self) -> bool {
        self.cuts == 0 && self.dangling == 0
    }

    /// The finding for what the walk skipped, if anything.
    fn damage(&self) -> Option<Diagnostic> {
        let parts = self.damage_parts()?;
        Some(Diagnostic::new(
            Code::PageTreeRepaired,
            format!(
                "the page tree is damaged: {parts}; the {} page(s) it gives are scanned",
                self.out.len()
            ),
        ))
    }

    /// What the walk skipped, if anything.
    fn damage_parts(&self) -> Option<PageTreeDamage> {
        (!self.sound()).then_some(PageTreeDamage {
            cycles: self.cuts,
            first_cycle: self.first_cut,
            dangling: self.dangling,
            first_dangling: self.first_dangling,
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Node,
    Page,
}

/// What a dictionary of the tree is: a node, a page, or neither (see the
/// module documentation).
fn kind(doc: &Document, dict: Dict<'_>) -> Option<Kind> {
    match dict
        .get(b"Type")
        .and_then(|t| doc.resolve(t))
        .and_then(Obj::as_name)
    {
        Some(b"Pages") => Some(Kind::Node),
        Some(b"Page") => Some(Kind::Page),
        Some(_) => None,
        None if dict.has(b"Kids") => Some(Kind::Node),
        None => Some(Kind::Page),
    }
}

/// Every `/Type /Page` dictionary among the objects, in object order, with
/// what it inherits along its `/Parent` chain.
fn scan_for_pages(doc: &Document) -> Result<Vec<PageRef>, Error> {
    let mut out = Vec::new();
    for id in doc.store.ids() {
        let Some(Object::Dictionary(dict)) = doc.store.get(id) else {
            continue;
        };
        let dict = Dict::new(dict);
        if doc.get_name(dict, b"Type") != Some(b"Page") {
            continue;
        }
        if out.len() >= doc.options.max_pages {
            return Err(Error::limit(Limit::Pages {
                limit: doc.options.max_pages,
            }));
        }
        let mut inherited = Inherited::from_parents(doc, dict);
        inherited.apply(doc, dict);
        out.push(inherited.page(doc, PageObject::Indirect(id), dict));
    }
    Ok(out)
}

fn rect_of(doc: &Document, obj: Obj<'_>) -> Option<Rect> {
    let arr = doc.resolve(obj)?.as_array()?;
    let mut v = [0.0; 4];
    if arr.len() < 4 {
        return None;
    }
    for (slot, o) in v.iter_mut().zip(arr) {
        *slot = doc.resolve(o).and_then(Obj::as_number)?;
    }
    let r = Rect::new(v[0], v[1], v[2], v[3]);
    (r.width() > 0.0 && r.height() > 0.0).then_some(r)
}

/// Kids parsed at once per node before the walk reads them one by one.
const PREFETCH_MIN: usize = 4;

/// Parses the kids of a page tree node on all threads: the walk itself is
/// serial, and parsing the page dictionaries was most of the time a scan of a
/// long document spent before its pages could be read in parallel (the
/// lazy store's slots are filled once, whichever thread gets there first).
fn prefetch(doc: &Document, kids: super::Array<'_>) {
    use rayon::prelude::*;
    if kids.len() < PREFETCH_MIN || !doc.store.is_lazy() || !doc.options.parallel {
        return;
    }
    kids.raw().par_iter().for_each(|kid| {
        if let Ok(id) = kid.as_reference() {
            let _ = doc.store.get(id);
        }
    });
}
