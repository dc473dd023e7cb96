//! The page tree walk against a model of how viewers read a tree: random
//! graphs of `/Pages` nodes and pages, with pages and nodes listed more than
//! once, cycles, missing kids and empty nodes.
//!
//! The model, written recursively and naively: a page is a page each time it
//! is listed; a node lists its kids in order, except a node inside itself (an
//! ancestor listed again), which is cut; a missing kid is skipped. When that
//! gives no page, every page object is a page, in object order; when there is
//! none, the file is read as having no page only if nothing was cut or
//! skipped, and refused otherwise.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use signprep_core::{Document, LoadOptions, Scanner};
use signprep_testgen::hostile::Raw;

/// One object of the graph: a page, or a node listing kids (indices into
/// the graph; an index past its end is a missing object).
#[derive(Clone, Debug)]
enum Obj {
    Page,
    Node(Vec<usize>),
}

/// Object number of graph entry `i` (object 1 is the catalog).
fn num(i: usize) -> usize {
    10 + i
}

fn pdf(graph: &[Obj]) -> Vec<u8> {
    let mut r = Raw::default();
    r.obj(1, format!("<< /Type /Catalog /Pages {} 0 R >>", num(0)));
    for (i, o) in graph.iter().enumerate() {
        let body = match o {
            // The width tells the pages apart.
            Obj::Page => format!("<< /Type /Page /MediaBox [0 0 {} 792] >>", 100 + i),
            Obj::Node(kids) => {
                let kids: String = kids.iter().map(|&k| format!("{} 0 R ", num(k))).collect();
                format!("<< /Type /Pages /Kids [{kids}] >>")
            }
        };
        r.obj(num(i) as u32, body);
    }
    r.finish()
}

#[derive(Debug, PartialEq)]
enum Read {
    /// Graph indices of the pages, in order, and whether the tree was repaired.
    Pages(Vec<usize>, bool),
    /// No page, said in a finding.
    NoPages,
    Refused,
}

fn model(graph: &[Obj]) -> Read {
    fn walk(g: &[Obj], i: usize, path: &mut Vec<usize>, out: &mut Vec<usize>, damage: &mut bool) {
        match g.get(i) {
            None => *damage = true,
            Some(Obj::Page) => out.push(i),
            Some(Obj::Node(kids)) => {
                if path.contains(&i) {
                    *damage = true;
                    return;
                }
                path.push(i);
                for &k in kids {
                    walk(g, k, path, out, damage);
                }
                path.pop();
            }
        }
    }
    let (mut out, mut damage) = (Vec::new(), false);
    walk(graph, 0, &mut Vec::new(), &mut out, &mut damage);
    if !out.is_empty() {
        return Read::Pages(out, damage);
    }
    let all: Vec<usize> = (0..graph.len())
        .filter(|&i| matches!(graph[i], Obj::Page))
        .collect();
    if !all.is_empty() {
        Read::Pages(all, true)
    } else if damage {
        Read::Refused
    } else {
        Read::NoPages
    }
}

fn read(bytes: &[u8]) -> Read {
    let Ok(doc) = Document::from_bytes(bytes, &LoadOptions::default()) else {
        return Read::Refused;
    };
    let scan = Scanner::new().scan(&doc).unwrap();
    let codes: Vec<&str> = scan.diagnostics.iter().map(|d| d.code.as_str()).collect();
    if doc.page_count() == 0 {
        assert_eq!(codes, ["document_no_pages"]);
        return Read::NoPages;
    }
    let pages = (0..doc.page_count())
        .map(|i| doc.page_geometry(i).unwrap().displayed_size().0 as usize - 100)
        .collect();
    Read::Pages(pages, codes.contains(&"page_tree_repaired"))
}

/// Graphs of up to 6 objects, the first a node; kids may point anywhere,
/// one past the end (a missing object) included.
fn graph() -> impl Strategy<Value = Vec<Obj>> {
    (1usize..=6).prop_flat_map(|n| {
        let kids = prop::collection::vec(0..=n, 0..=3);
        let obj = prop_oneof![Just(None), kids.prop_map(Some)];
        (
            prop::collection::vec(0..=n, 0..=3),
            prop::collection::vec(obj, n - 1),
        )
            .prop_map(|(root, rest)| {
                std::iter::once(Obj::Node(root))
                    .chain(rest.into_iter().map(|o| o.map_or(Obj::Page, Obj::Node)))
                    .collect()
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_walk_reads_a_tree_as_the_model_does(g in graph()) {
        prop_assert_eq!(read(&pdf(&g)), model(&g), "{:?}", g);
    }
}

/// The cases the model is about, spelled out.
#[test]
fn named_shapes() {
    use Obj::{Node, Page};
    let cases: [(&str, Vec<Obj>, Read); 6] = [
        (
            "page twice",
            vec![Node(vec![1, 1]), Page],
            Read::Pages(vec![1, 1], false),
        ),
        (
            "empty node three times",
            vec![Node(vec![2, 1, 2, 2]), Page, Node(vec![])],
            Read::Pages(vec![1], false),
        ),
        (
            "cycle after a page",
            vec![Node(vec![1, 2]), Page, Node(vec![0])],
            Read::Pages(vec![1], true),
        ),
        (
            "a node listed twice, not inside itself",
            vec![Node(vec![2, 2]), Page, Node(vec![1, 1])],
            Read::Pages(vec![1, 1, 1, 1], false),
        ),
        ("no page anywhere", vec![Node(vec![])], Read::NoPages),
        ("only a cycle", vec![Node(vec![0])], Read::Refused),
    ];
    for (name, g, want) in cases {
        assert_eq!(model(&g), want, "model: {name}");
        assert_eq!(read(&pdf(&g)), want, "walk: {name}");
    }
}

/// Nodes each listing the next twice over one page: 2^12 pages, past a
/// `max_pages` of 1,000, are refused as a limit (with the default limit the
/// same shape 20 levels deep is refused the same way, only slower to build
/// up in a debug build).
#[test]
fn a_repeated_node_explosion_stops_at_max_pages() {
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 10 0 R >>");
    for n in 10..22u32 {
        r.obj(
            n,
            format!("<< /Type /Pages /Kids [{m} 0 R {m} 0 R] >>", m = n + 1),
        );
    }
    r.obj(22, "<< /Type /Pages /Kids [30 0 R] >>");
    r.obj(30, "<< /Type /Page /MediaBox [0 0 612 792] >>");
    let mut options = LoadOptions::default();
    options.max_pages = 1000;
    let err = Document::from_bytes(&r.finish(), &options).unwrap_err();
    assert_eq!(err.code(), "pdf_limit_exceeded", "{err}");
    options.max_pages = 4096;
    let doc = Document::from_bytes(&r.finish(), &options).unwrap();
    assert_eq!(doc.page_count(), 4096);
}
