//! Page trees that break the rules the way real files do (pages listed
//! twice, empty nodes repeated, cycles, pages written in `/Kids`, no tree at
//! all), trees built to make a walk explode, and names with a `#` that is no
//! escape. Minimal reproductions of what qpdf's and pdf.js's test files do;
//! each expectation says how a viewer reads the file.

use super::{
    COURIER, Entry, HostileExpect, PAGE_RESOURCES, Raw, TAG_CONTENT, UNREADABLE, one_page, replace,
};

const REPAIRED: &str = "page_tree_repaired";

/// Every case of this module, in a fixed order.
pub(super) fn all() -> Vec<Entry> {
    vec![
        page_listed_twice(),
        empty_node_repeated(),
        cycle_before_a_page(),
        direct_pages(),
        direct_node(),
        dangling_kid(),
        no_tree_pages_found_by_scan(),
        catalog_without_pages(),
        declared_empty(),
        nothing_to_find(),
        empty_node_explosion(),
        name_pound_not_escape(),
        deep_trailer(),
    ]
}

/// A page as object `n`, under node `parent`, showing `content` object.
fn page(parent: u32, content: u32) -> String {
    format!(
        "<< /Type /Page /Parent {parent} 0 R /MediaBox [0 0 612 792] {PAGE_RESOURCES} /Contents {content} 0 R >>"
    )
}

fn page_listed_twice() -> Entry {
    let mut r = one_page();
    replace(&mut r, 2, "<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 2 >>");
    (
        "pagetree_page_listed_twice",
        r.finish(),
        HostileExpect::ok(
            "the root's /Kids lists the same page twice (qpdf duplicate-page-inherited.pdf): a page twice, as MuPDF reads it",
            2,
            &["SIG_1", "SIG_1"],
            &["tag_duplicate_id"],
        ),
    )
}

fn empty_node_repeated() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        2,
        "<< /Type /Pages /Kids [6 0 R 3 0 R 6 0 R 6 0 R] /Count 1 >>",
    );
    r.obj(6, "<< /Type /Pages /Parent 2 0 R /Kids [] /Count 0 >>");
    (
        "pagetree_empty_node_repeated",
        r.finish(),
        HostileExpect::ok(
            "an empty /Pages node is listed three times around the one page: it gives nothing, and the file is read without a finding",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

fn cycle_before_a_page() -> Entry {
    let mut r = one_page();
    // Root 2 -> [node 6, page 3, node 8]; 6 -> [7]; 7 -> [6] (a cycle with
    // no page); 8 -> [page 9, root 2] (a cycle after a page).
    replace(
        &mut r,
        2,
        "<< /Type /Pages /Kids [6 0 R 3 0 R 8 0 R] /Count 2 >>",
    );
    r.obj(6, "<< /Type /Pages /Parent 2 0 R /Kids [7 0 R] /Count 1 >>")
        .obj(7, "<< /Type /Pages /Parent 6 0 R /Kids [6 0 R] /Count 1 >>")
        .obj(
            8,
            "<< /Type /Pages /Parent 2 0 R /Kids [9 0 R 2 0 R] /Count 1 >>",
        )
        .obj(9, page(8, 10))
        .stream(10, "", b"BT /F1 12 Tf 72 700 Td (<# SIG_2 #>) Tj ET");
    (
        "pagetree_cycles_cut",
        r.finish(),
        HostileExpect::ok(
            "two cycles (pdf.js Pages-tree-refs.pdf, qpdf pages-loop.pdf): a node pair listing each other before the first page, and a node listing the root after the second; both are cut there and both pages are read",
            2,
            &["SIG_1", "SIG_2"],
            &[REPAIRED],
        ),
    )
}

fn direct_pages() -> Entry {
    let mut r = one_page();
    // Two page dictionaries written in /Kids (qpdf direct-pages.pdf).
    let direct = |content: u32| {
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {PAGE_RESOURCES} /Contents {content} 0 R >>"
        )
    };
    replace(
        &mut r,
        2,
        &format!(
            "<< /Type /Pages /Kids [{} {}] /Count 2 >>",
            direct(4),
            direct(6)
        ),
    );
    r.objects.retain(|(n, _)| *n != 3);
    r.stream(6, "", b"BT /F1 12 Tf 72 700 Td (<# SIG_2 #>) Tj ET");
    (
        "pagetree_direct_pages",
        r.finish(),
        HostileExpect::ok(
            "both page dictionaries are written directly in /Kids, not as objects (qpdf direct-pages.pdf): two pages, as MuPDF and pdf.js read them",
            2,
            &["SIG_1", "SIG_2"],
            &[],
        ),
    )
}

fn direct_node() -> Entry {
    let mut r = one_page();
    // A /Pages node written in /Kids, with a /Rotate its page inherits.
    replace(
        &mut r,
        2,
        "<< /Type /Pages /Kids [<< /Type /Pages /Kids [3 0 R] /Count 1 >>] /Count 1 >>",
    );
    (
        "pagetree_direct_node",
        r.finish(),
        HostileExpect::ok(
            "an intermediate /Pages node written directly in the root's /Kids: its page is read",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

fn dangling_kid() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        2,
        "<< /Type /Pages /Kids [3 0 R 40 0 R null] /Count 3 >>",
    );
    (
        "pagetree_dangling_kid",
        r.finish(),
        HostileExpect::ok(
            "the root lists a page, an object that does not exist and null: the page is read, and the missing kids are reported",
            1,
            &["SIG_1"],
            &[REPAIRED],
        ),
    )
}

fn no_tree_pages_found_by_scan() -> Entry {
    let mut r = one_page();
    // The tree lists nothing that exists; the page (object 3) is still there,
    // inheriting its MediaBox and Resources from its /Parent.
    replace(
        &mut r,
        2,
        &format!(
            "<< /Type /Pages /Kids [40 0 R] /Count 1 /MediaBox [0 0 612 792] {PAGE_RESOURCES} >>"
        ),
    );
    replace(&mut r, 3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>");
    (
        "pagetree_rebuilt_by_scan",
        r.finish(),
        HostileExpect::ok(
            "the page tree lists only a missing object; the page object exists (with /Parent, inheriting /MediaBox and /Resources): found by scanning the objects, as MuPDF's repair does",
            1,
            &["SIG_1"],
            &[REPAIRED],
        ),
    )
}

fn catalog_without_pages() -> Entry {
    let mut r = one_page();
    // The catalog names no /Pages at all (a damaged key, as in qpdf's
    // issue-120.pdf): the scan finds the page by scanning the objects; the
    // page renderer cannot read the file (report: `page_not_drawn`).
    replace(&mut r, 1, "<< /Type /Catalog /Pxxxs 2 0 R >>");
    (
        "pagetree_catalog_without_pages",
        r.finish(),
        HostileExpect::ok(
            "the catalog has no /Pages key (a damaged name); the page tree and page exist: the page is found by scanning the objects, while the page renderer cannot read the file",
            1,
            &["SIG_1"],
            &[REPAIRED],
        ),
    )
}

fn declared_empty() -> Entry {
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .obj(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        .obj(5, COURIER);
    (
        "pagetree_declared_empty",
        r.finish(),
        HostileExpect::ok(
            "a sound page tree with no kid, and no page object anywhere: a document of no page, said in a finding",
            0,
            &[],
            &["document_no_pages"],
        ),
    )
}

fn nothing_to_find() -> Entry {
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .obj(2, "<< /Type /Pages /Kids [40 0 R 3 0 R] /Count 2 >>")
        .obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
        .stream(4, "", TAG_CONTENT);
    (
        "pagetree_nothing_to_find",
        r.finish(),
        HostileExpect::error(
            "the page tree lists a missing object and a font; no object is a page: refused, never read as a document of 0 pages",
            UNREADABLE,
        ),
    )
}

/// Nodes 6..=35, each listing the next 8 times; the last is empty. Walked
/// naively, 8^30 visits.
fn empty_node_explosion() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        2,
        "<< /Type /Pages /Kids [6 0 R 3 0 R 6 0 R] /Count 1 >>",
    );
    for n in 6..36u32 {
        let next = format!("{} 0 R ", n + 1).repeat(8);
        r.obj(n, format!("<< /Type /Pages /Kids [{next}] /Count 0 >>"));
    }
    r.obj(36, "<< /Type /Pages /Kids [] /Count 0 >>");
    (
        "pagetree_empty_node_explosion",
        r.finish(),
        HostileExpect::ok(
            "30 empty /Pages nodes, each listing the next 8 times (8^30 paths, no page): each is walked once, and the one page is read",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

fn name_pound_not_escape() -> Entry {
    let mut r = one_page();
    // `/F#1` and `/F#` are names with a `#` that starts no escape (qpdf
    // name-pound-images.pdf names its images so): pdf.js and MuPDF read the
    // `#` as itself.
    replace(
        &mut r,
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F#1 5 0 R /F# 5 0 R >> >> /Contents 4 0 R /X#zz /Y#2 >>",
    );
    r.objects.retain(|(n, _)| *n != 4);
    r.stream(
        4,
        "",
        b"BT /F#1 12 Tf 72 700 Td (<# SIG_1 #>) Tj /F# 12 Tf 0 -100 Td (<# SIG_2 #>) Tj ET",
    );
    (
        "name_pound_not_escape",
        r.finish(),
        HostileExpect::ok(
            "font resources named /F#1 and /F# (a # not followed by two hex digits), used by the content: the # is itself, the page and both tags are read",
            1,
            &["SIG_1", "SIG_2"],
            &[],
        ),
    )
}

/// The trailer dictionary nested 60,000 levels deep (qpdf issue-202.pdf,
/// which MuPDF reads): damaged data, not content, so the file is rebuilt
/// from its objects; an object nested so deep is still refused.
fn deep_trailer() -> Entry {
    let full = one_page().finish();
    // The trailer comes after every offset the xref table gives.
    let at = full
        .windows(8)
        .rposition(|w| w == b"trailer\n")
        .map_or(full.len(), |p| p + 8);
    let (head, tail) = full.split_at(at);
    let mut pdf = head.to_vec();
    pdf.extend_from_slice("<<".repeat(60_000).as_bytes());
    let end = tail
        .windows(10)
        .position(|w| w == b"\nstartxref")
        .unwrap_or(tail.len());
    let (dict, rest) = tail.split_at(end);
    pdf.extend_from_slice(dict);
    pdf.extend_from_slice(">>".repeat(60_000).as_bytes());
    pdf.extend_from_slice(rest);
    (
        "deep_trailer",
        pdf,
        HostileExpect::ok(
            "the trailer dictionary is nested 60,000 levels deep (qpdf issue-202.pdf); the xref table is intact: the trailer is dropped and the file rebuilt from its objects, as MuPDF reads it",
            1,
            &["SIG_1"],
            &["pdf_repaired"],
        ),
    )
}
