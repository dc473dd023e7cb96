//! The page tree: pages in order, with their inherited attributes.

use super::{Document, Error, PageRef, lookup, number};
use crate::geometry::{PageGeometry, Rect, Rotation};
use lopdf::Object;
use std::collections::HashSet;
use std::sync::Arc;

/// lopdf's test for a loaded page tree (a file failing it is rebuilt by
/// scanning): the catalog's `/Pages` is a reference to a dictionary whose
/// `/Kids` is an array.
pub(super) fn page_tree_loaded(doc: &Document) -> bool {
    let kids = || {
        let root = doc.trailer().get(b"Root").ok()?.as_reference().ok()?;
        let pages = doc
            .dictionary(root)?
            .get(b"Pages")
            .ok()?
            .as_reference()
            .ok()?;
        match doc.dictionary(pages)?.get(b"Kids").ok()? {
            Object::Reference(id) => doc.object(*id),
            other => Some(other),
        }
    };
    matches!(kids(), Some(Object::Array(_)))
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

/// Walks `/Root /Pages` depth-first with cycle and size guards.
pub(super) fn walk_pages(doc: &Document) -> Result<Vec<PageRef>, Error> {
    let options = &doc.options;
    let root = doc
        .trailer()
        .get(b"Root")
        .ok()
        .and_then(|r| r.as_reference().ok())
        .ok_or_else(|| Error::unreadable("the trailer has no /Root (document catalog)"))?;
    let catalog = doc.dictionary(root).ok_or_else(|| {
        Error::unreadable("the document catalog (/Root) is missing or not a dictionary")
    })?;
    let pages_id = catalog
        .get(b"Pages")
        .ok()
        .and_then(|r| r.as_reference().ok())
        .ok_or_else(|| Error::unreadable("the document catalog has no /Pages tree"))?;

    let mut out = Vec::new();
    let mut visited = HashSet::new();
    // Explicit stack: (node id, inherited attributes, depth).
    let mut stack = vec![(pages_id, Inherited::default(), 0usize)];
    while let Some((id, inherited, depth)) = stack.pop() {
        if depth > options.max_page_tree_depth {
            return Err(Error::limit(format!(
                "the page tree is nested more than {} levels deep (max_page_tree_depth)",
                options.max_page_tree_depth
            )));
        }
        if !visited.insert(id) {
            return Err(Error::unreadable(format!(
                "the page tree has a cycle (object {} {} is reached twice)",
                id.0, id.1
            )));
        }
        let Some(dict) = doc.dictionary(id) else {
            // A dangling kid: lenient readers skip it.
            continue;
        };
        let mut inh = inherited;
        let get_box = |key: &[u8]| lookup(dict, key).and_then(|o| rect_of(doc, o));
        if let Some(b) = get_box(b"MediaBox") {
            inh.media_box = Some(b);
        }
        if let Some(b) = get_box(b"CropBox") {
            inh.crop_box = Some(b);
        }
        if let Some(r) = doc.get_number(dict, b"Rotate") {
            inh.rotate = Some(r as i64);
        }
        if let Some(r) = lookup(dict, b"Resources") {
            inh.resources = Some(Arc::new(r.clone()));
        }
        let is_pages = lookup(dict, b"Kids").is_some() && !matches!(dict.get_type(), Ok(b"Page"));
        if is_pages {
            if let Some(kids) = doc.get_array(dict, b"Kids") {
                // Every pending kid is a page to come or a node holding some:
                // more than max_pages of them is refused before they are queued.
                if out.len() + stack.len() + kids.len() > options.max_pages {
                    return Err(Error::limit(format!(
                        "the page tree lists more than {} kids (max_pages)",
                        options.max_pages
                    )));
                }
                if kids.len() > options.max_kids_per_node {
                    return Err(Error::limit(format!(
                        "a page tree node lists more than {} kids (max_kids_per_node)",
                        options.max_kids_per_node
                    )));
                }
                prefetch(doc, kids);
                for kid in kids.iter().rev() {
                    if let Ok(kid_id) = kid.as_reference() {
                        stack.push((kid_id, inh.clone(), depth + 1));
                    }
                }
            }
            continue;
        }
        if out.len() >= options.max_pages {
            return Err(Error::limit(format!(
                "the document has more than {} pages",
                options.max_pages
            )));
        }
        let media = inh
            .media_box
            .unwrap_or_else(|| Rect::new(0.0, 0.0, 612.0, 792.0));
        let user_unit = doc.get_number(dict, b"UserUnit").unwrap_or(1.0);
        out.push(PageRef {
            id,
            geometry: PageGeometry::new(
                media,
                inh.crop_box,
                Rotation::from_degrees(inh.rotate.unwrap_or(0)),
                user_unit,
            ),
            resources: inh.resources,
        });
    }
    Ok(out)
}

fn rect_of(doc: &Document, obj: &Object) -> Option<Rect> {
    let arr = doc.resolve(obj)?.as_array().ok()?;
    let mut v = [0.0; 4];
    if arr.len() < 4 {
        return None;
    }
    for (slot, o) in v.iter_mut().zip(arr) {
        *slot = doc.resolve(o).and_then(number)?;
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
fn prefetch(doc: &Document, kids: &[Object]) {
    use rayon::prelude::*;
    if kids.len() < PREFETCH_MIN || !doc.store.is_lazy() || !doc.options.parallel {
        return;
    }
    kids.par_iter().for_each(|kid| {
        if let Ok(id) = kid.as_reference() {
            let _ = doc.store.get(id);
        }
    });
}
