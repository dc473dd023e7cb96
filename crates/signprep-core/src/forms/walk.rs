//! Finding the widgets: the `/AcroForm /Fields` tree, then every page's
//! `/Annots`, in the order the output lists them.

use crate::document::{Dict, Document, Error, Obj, ObjectId};
use crate::error::Unreadable;
use std::collections::{HashMap, HashSet};

/// Deepest `/Kids` nesting accepted in the field tree (real forms use under
/// ten levels; LiveCycle forms about five).
pub(super) const MAX_FIELD_DEPTH: usize = 64;

/// A dictionary of the form, with its object id when it is an indirect object.
#[derive(Clone, Copy)]
pub(super) struct Node<'a> {
    pub(super) id: Option<ObjectId>,
    pub(super) dict: Dict<'a>,
}

/// Where a widget entry sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// In this page's `/Annots`.
    OnPage(usize),
    /// A terminal field of the tree in no page's `/Annots`, and where its
    /// `/P` points.
    OffPages(PTarget),
}

/// Where the `/P` of a widget that no page lists points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PTarget {
    /// A page of the page tree: its index and object.
    Page(usize, ObjectId),
    /// An object that is no page of the page tree.
    NotAPage(ObjectId),
    /// `/P` is there but is no reference.
    Invalid,
    /// No `/P`.
    Missing,
}

impl PTarget {
    /// The page it names, if any.
    pub(super) fn page(self) -> Option<usize> {
        match self {
            PTarget::Page(p, _) => Some(p),
            _ => None,
        }
    }
}

/// One entry of the output, before its attributes are read.
pub(super) struct Entry<'a> {
    pub(super) node: Node<'a>,
    pub(super) found: Found,
    /// Not reachable from `/AcroForm /Fields`.
    pub(super) orphan: bool,
    /// A terminal field without `/Rect` and not a Widget annotation.
    pub(super) no_widget: bool,
}

/// What the walk found.
pub(super) struct Walk<'a> {
    pub(super) entries: Vec<Entry<'a>>,
    /// `/AcroForm /XFA` is present.
    pub(super) xfa: bool,
    /// Fields whose `/Kids` hold no dictionary at all (dangling references):
    /// fields without any widget, and without an entry.
    pub(super) empty_fields: Vec<Node<'a>>,
}

/// The dictionary an object is or points to, with the id it was reached by.
pub(super) fn node<'a>(doc: &'a Document, obj: Obj<'a>) -> Option<Node<'a>> {
    if let Some(dict) = obj.as_dict() {
        return Some(Node { id: None, dict });
    }
    let mut id = obj.as_reference()?;
    for _ in 0..doc.options.max_reference_chain {
        let found = doc.object(id)?;
        match found.as_reference() {
            Some(next) => id = next,
            None => {
                return Some(Node {
                    id: Some(id),
                    dict: found.as_dict()?,
                });
            }
        }
    }
    None
}

/// The `/Parent` chain of a widget, the widget first.
pub(super) struct Chain<'a> {
    pub(super) nodes: Vec<Node<'a>>,
    /// It ends at a node without a parent, rather than at a repeated object
    /// or after [`MAX_FIELD_DEPTH`] links (where it depends on the start).
    pub(super) to_root: bool,
}

/// The `/Parent` chain of `start`; stops at a repeated object or after
/// [`MAX_FIELD_DEPTH`] links.
pub(super) fn chain<'a>(doc: &'a Document, start: Node<'a>) -> Chain<'a> {
    let mut nodes = Vec::with_capacity(4);
    nodes.push(start);
    let mut cur = start;
    while nodes.len() <= MAX_FIELD_DEPTH {
        let Some(parent) = cur.dict.get(b"Parent").and_then(|p| node(doc, p)) else {
            return Chain {
                nodes,
                to_root: true,
            };
        };
        // A repeated object ends the chain: looked for among the links so
        // far (at most MAX_FIELD_DEPTH, most chains one to three long).
        if parent.id.is_some() && nodes.iter().any(|n| n.id == parent.id) {
            break;
        }
        nodes.push(parent);
        cur = parent;
    }
    Chain {
        nodes,
        to_root: false,
    }
}

pub(super) fn is_widget(doc: &Document, dict: Dict<'_>) -> bool {
    doc.get_name(dict, b"Subtype") == Some(b"Widget")
}

/// Walks the form and the pages. Fails on a `/Kids` cycle or a tree nested
/// deeper than [`MAX_FIELD_DEPTH`].
pub(super) fn walk(doc: &Document) -> Result<Walk<'_>, Error> {
    let page_of: HashMap<ObjectId, usize> = doc
        .pages
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((p.id()?, i)))
        .collect();

    // Widgets of each page, in /Annots order (a widget listed twice on one
    // page counts once), and the pages each widget object is on.
    let mut annots: Vec<Vec<Node<'_>>> = Vec::with_capacity(doc.pages.len());
    let mut pages_of: HashMap<ObjectId, Vec<usize>> = HashMap::new();
    for (i, page) in doc.pages.iter().enumerate() {
        let mut list = Vec::new();
        let mut seen = HashSet::new();
        let arr = doc
            .page_dict(page)
            .and_then(|d| doc.get_array(d, b"Annots"))
            .unwrap_or_default();
        for a in arr {
            let Some(n) = node(doc, a) else { continue };
            if !is_widget(doc, n.dict) {
                continue;
            }
            if let Some(id) = n.id {
                if !seen.insert(id) {
                    continue;
                }
                pages_of.entry(id).or_default().push(i);
            }
            list.push(n);
        }
        annots.push(list);
    }

    let acroform = doc
        .trailer()
        .get(b"Root")
        .and_then(|r| doc.resolve(r))
        .and_then(Obj::as_dict)
        .and_then(|c| doc.get_dict(c, b"AcroForm"));
    let xfa = acroform
        .and_then(|af| doc.get(af, b"XFA"))
        .is_some_and(|x| !x.is_null());

    let mut tree = Tree {
        doc,
        visited: HashSet::new(),
        path: Vec::new(),
        leaves: Vec::new(),
        empty: Vec::new(),
    };
    if let Some(fields) = acroform.and_then(|af| doc.get_array(af, b"Fields")) {
        for f in fields {
            if let Some(n) = node(doc, f) {
                tree.visit(n, 0)?;
            }
        }
    }

    let mut entries = Vec::new();
    let mut emitted: HashSet<ObjectId> = HashSet::new();
    for leaf in tree.leaves {
        let on = leaf.id.and_then(|id| pages_of.get(&id));
        match on {
            Some(pages) => {
                for &p in pages {
                    entries.push(Entry {
                        node: leaf,
                        found: Found::OnPage(p),
                        orphan: false,
                        no_widget: false,
                    });
                }
            }
            None => {
                let target = match leaf.dict.get(b"P").map(Obj::as_reference) {
                    None => PTarget::Missing,
                    Some(Some(id)) => match page_of.get(&id) {
                        Some(&p) => PTarget::Page(p, id),
                        None => PTarget::NotAPage(id),
                    },
                    Some(None) => PTarget::Invalid,
                };
                let widget = is_widget(doc, leaf.dict) || leaf.dict.has(b"Rect");
                entries.push(Entry {
                    node: leaf,
                    found: Found::OffPages(target),
                    orphan: false,
                    no_widget: !widget,
                });
            }
        }
        if let Some(id) = leaf.id {
            emitted.insert(id);
        }
    }

    // Widgets on pages that the tree did not list, in page and /Annots order.
    // One whose /Parent chain meets the tree belongs to the form (its parent
    // just does not list it in /Kids); the others are orphans.
    for (p, list) in annots.iter().enumerate() {
        for n in list {
            if n.id.is_some_and(|id| emitted.contains(&id)) {
                continue;
            }
            let reachable = chain(doc, *n)
                .nodes
                .iter()
                .any(|c| c.id.is_some_and(|id| tree.visited.contains(&id)));
            entries.push(Entry {
                node: *n,
                found: Found::OnPage(p),
                orphan: !reachable,
                no_widget: false,
            });
        }
    }

    Ok(Walk {
        entries,
        xfa,
        empty_fields: tree.empty,
    })
}

/// Depth-first walk of the field tree.
struct Tree<'a> {
    doc: &'a Document,
    visited: HashSet<ObjectId>,
    /// Ids of the nodes from the root to the current one: a kid among them
    /// is a cycle.
    path: Vec<ObjectId>,
    leaves: Vec<Node<'a>>,
    empty: Vec<Node<'a>>,
}

impl<'a> Tree<'a> {
    fn visit(&mut self, n: Node<'a>, depth: usize) -> Result<(), Error> {
        if depth > MAX_FIELD_DEPTH {
            return Err(Error::limit(crate::error::Limit::FieldTreeDepth {
                limit: MAX_FIELD_DEPTH,
            }));
        }
        if let Some(id) = n.id {
            if self.path.contains(&id) {
                return Err(Error::unreadable(Unreadable::FieldCycle {
                    num: id.0,
                    generation: id.1,
                }));
            }
            // A node listed twice (two parents, or twice in /Fields) is
            // walked once.
            if !self.visited.insert(id) {
                return Ok(());
            }
        }
        let kids = self.doc.get_array(n.dict, b"Kids").unwrap_or_default();
        if kids.is_empty() {
            self.leaves.push(n);
            return Ok(());
        }
        if let Some(id) = n.id {
            self.path.push(id);
        }
        let mut any = false;
        for k in kids {
            if let Some(kid) = node(self.doc, k) {
                any = true;
                self.visit(kid, depth + 1)?;
            }
        }
        if n.id.is_some() {
            self.path.pop();
        }
        if !any {
            self.empty.push(n);
        }
        Ok(())
    }
}
