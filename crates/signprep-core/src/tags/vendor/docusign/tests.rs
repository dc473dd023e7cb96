//! The anchor matcher's unit tests.

#![allow(clippy::unwrap_used)]
use super::*;
use crate::geometry::Rect;

fn lines(text: &str) -> Lines {
    Lines {
        text: text.to_string(),
        owner: vec![0; text.len()],
        line_of: vec![0; text.len()],
        unmapped: vec![false],
    }
}

fn tab(anchor: &str) -> AnchorTab {
    AnchorTab::new("signHereTabs", anchor)
}

#[test]
fn case_is_ignored_unless_asked() {
    let l = lines("Sign: /SN1/ and /sn1/");
    assert_eq!(matches(&l, &tab("/sn1/")).len(), 2);
    let mut t = tab("/sn1/");
    t.case_sensitive = true;
    assert_eq!(matches(&l, &t), vec![(16, 21)]);
}

#[test]
fn whole_word_follows_docusigns_examples() {
    let mut t = tab("man");
    t.whole_word = true;
    let l = lines("man manpower fireman penmanship -man- 1man2 man_");
    let got: Vec<&str> = matches(&l, &t)
        .into_iter()
        .map(|(s, e)| &l.text[s..e])
        .collect();
    assert_eq!(got, vec!["man", "man", "man"]);
    t.whole_word = false;
    assert_eq!(matches(&l, &t).len(), 7);
    // Punctuation anchors followed by underscores match as whole words.
    let mut t = tab("\\s1\\");
    t.whole_word = true;
    assert_eq!(matches(&lines("x \\s1\\_____"), &t).len(), 1);
    // An anchor inside a word does not.
    let mut t = tab("sn1");
    t.whole_word = true;
    assert!(matches(&lines("xsn1y"), &t).is_empty());
}

#[test]
fn a_repeated_single_character_is_one_tab() {
    assert_eq!(matches(&lines("skiing"), &tab("i")), vec![(2, 4)]);
}

#[test]
fn unicode_case_folding() {
    assert_eq!(occurrences("x ÉCOLE y", "école", false), vec![(2, 8)]);
    assert!(occurrences("x ECOLE y", "école", false).is_empty());
}

#[test]
fn units_and_placement() {
    assert_eq!(AnchorUnits::parse("inches").unwrap().to_points(1.0), 72.0);
    assert!((AnchorUnits::parse("mms").unwrap().to_points(25.4) - 72.0).abs() < 1e-9);
    assert!((AnchorUnits::parse("cms").unwrap().to_points(2.54) - 72.0).abs() < 1e-9);
    assert_eq!(AnchorUnits::parse("parsecs"), None);
    let text = Rect::new(100.0, 200.0, 130.0, 210.0);
    let last = Rect::new(125.0, 200.0, 130.0, 210.0);
    let mut t = AnchorTab::new("textTabs", "x");
    t.x_offset = 1.0;
    t.units = AnchorUnits::Inches;
    assert_eq!(
        t.field_box(&text, &last),
        Rect::new(172.0, 200.0, 292.0, 216.0)
    );
    t.align_right = true;
    t.x_offset = 0.0;
    t.width = Some(50.0);
    assert_eq!(
        t.field_box(&text, &last),
        Rect::new(130.0, 200.0, 180.0, 216.0)
    );
    let mut s = AnchorTab::new("signHere", "x");
    s.scale = Some(0.5);
    assert_eq!(
        s.field_box(&text, &last),
        Rect::new(100.0, 221.0, 160.0, 241.0)
    );
}

#[test]
fn list_names() {
    assert_eq!(tab_list_name("signHere"), Some("signHereTabs"));
    assert_eq!(tab_list_name("DateSignedTabs"), Some("dateSignedTabs"));
    assert_eq!(tab_list_name("bogus"), None);
    assert_eq!(AnchorTab::new("bogus", "x").list, "bogus");
}
