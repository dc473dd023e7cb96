//! The typed reasons of an unreadable file, held to their words.

use super::*;

/// The typed reasons say exactly what the strings they replace said.
#[test]
fn structure_reasons_in_the_words_they_replace() {
    let text = |u: Unreadable| Error::unreadable(u).message();
    assert_eq!(
        text(Unreadable::NoCatalog),
        "not a readable PDF: the trailer has no /Root (document catalog)"
    );
    assert_eq!(
        text(Unreadable::CatalogMissing),
        "not a readable PDF: the document catalog (/Root) is missing or not a dictionary"
    );
    let cycle = PageTreeDamage {
        cycles: 2,
        first_cycle: Some(((3, 0), None)),
        dangling: 1,
        first_dangling: Some((None, Some((2, 0)))),
    };
    assert_eq!(
        cycle.to_string(),
        "2 nodes are listed inside itself (a cycle; first: object 3 0 in the /Kids of the top node), cut there; \
         1 kid is missing or not a page or node (first: a kid that is not a reference in the /Kids of object 2 0), skipped"
    );
    let one = PageTreeDamage {
        cycles: 1,
        first_cycle: Some(((4, 1), Some((2, 0)))),
        ..PageTreeDamage::default()
    };
    assert_eq!((one.cycles(), one.dangling()), (1, 0));
    assert_eq!(
        text(Unreadable::PagesHidden {
            damage: one.clone(),
            declared: 3,
            reached: 1
        }),
        "not a readable PDF: the page tree has a cycle that hides pages: 1 node is listed inside itself \
         (a cycle; first: object 4 1 in the /Kids of object 2 0), cut there; its /Count declares 3 pages \
         and only 1 can be reached"
    );
    let no_page = |pages_tree, damage| text(Unreadable::NoPage { pages_tree, damage });
    let tail = ", and no object of the file is a /Type /Page";
    assert_eq!(
        no_page(false, Some(one.clone())),
        format!(
            "not a readable PDF: the document has no readable page: the document catalog has no /Pages tree{tail}"
        )
    );
    assert_eq!(
        no_page(true, None),
        format!(
            "not a readable PDF: the document has no readable page: its page tree gives no page{tail}"
        )
    );
    assert_eq!(
        no_page(true, Some(one)),
        format!(
            "not a readable PDF: the document has no readable page: its page tree gives no page \
             (1 node is listed inside itself (a cycle; first: object 4 1 in the /Kids of object 2 0), cut there){tail}"
        )
    );
    assert_eq!(
        text(Unreadable::FieldCycle {
            num: 7,
            generation: 0
        }),
        "not a readable PDF: the AcroForm field tree has a cycle (field object 7 0 is its own ancestor through /Kids)"
    );
}
