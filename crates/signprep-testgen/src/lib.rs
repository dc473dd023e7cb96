//! Deterministic generator of small fixture PDFs for signprep.
//!
//! Every fixture is a PDF written by hand with lopdf (no embedded font
//! programs) plus an expectation computed from the generator's own layout
//! knowledge — the [`content::ContentWriter`] simulates the text state
//! while it writes each operator — never by parsing the PDF back.
//!
//! Regenerate the checked-in copies with
//! `cargo run -p signprep-testgen -- testdata/fixtures`
//! (`-- --check testdata/fixtures` only compares). Output is byte-identical
//! from run to run: no dates, no /ID, no /Info.
//!
//! Hostile inputs (cycles, bombs, deep nesting, lying lengths, garbage; see
//! [`hostile`]) are written apart, never among the fixtures:
//! `cargo run -p signprep-testgen -- --hostile testdata/hostile`.
//!
//! # Features
//! * Fixtures ([`fixtures`]): one PDF per way a producer writes a tag or a
//!   field (font kinds, encodings, kerning, forms, page boxes, rotation,
//!   UserUnit), each with its expectation, computed as it is written.
//! * Hostile inputs ([`hostile`]), the pre-flight set ([`preflight`]), the
//!   vendor-tagged contracts for `migrate` ([`try_migrate_contracts`]) and
//!   the bundled example ([`example`]).
//! * Word and OpenDocument templates ([`templates`], `--templates`): tags in
//!   each part a template has, one per `template_tag_*` finding, one per
//!   vendor dialect, a thirty-page one, and files a reader must refuse.
//! * `--check DIR`: compares the committed copies, byte for byte (CI runs it).
//!
//! # Limitations
//! * No embedded font programs: fonts are base-14, or TrueType/Type0/Type3
//!   dictionaries with widths only, so a renderer substitutes the glyphs.
//! * Not a PDF writer for users: the structures are the ones the tests need,
//!   some of them broken on purpose.
//!
//! # Example
//! ```
//! let f = signprep_testgen::fixture("base14_courier").expect("a known fixture");
//! assert!(f.pdf.starts_with(b"%PDF-"));
//! let expect = f.expect_typed().expect("its expectation");
//! assert_eq!(expect.tags.len(), 4);
//! ```
//!
//! # Fixtures
//! `base14_courier`, `truetype_widths`, `type0_identity_h`, `type3_font`,
//! `split_tj_kerning`, `form_xobject`, `rotated_pages`, `cropbox_offset`,
//! `user_unit`, `hidden_tags`, `wrapped_tag`, `invalid_ids`,
//! `mixed_page_sizes`, `scaled_text`, `multi_tags_one_line`, `no_tags`,
//! `garbled_text`, `near_miss_tags`, `image_only`; form fixtures `form_hierarchy`, `form_inheritance`,
//! `form_choices`, `form_two_widgets`, `form_geometry`,
//! `form_widget_placement`, `form_no_rotate`, `form_xfa_hybrid`, `form_xfa_only`,
//! `form_signature`, `form_names`, `form_buttons`, `form_duplicate_names`,
//! `form_stacked`; and `form_kids_cycle`, which a scanner
//! must refuse ([`refused_fixtures`]). Each fixture's `description` says
//! what it covers.
//!
//! # Expectation conventions (`NAME.expect.json`, see [`Expect`])
//! * PDF points; origin at the top-left of the page as displayed: CropBox
//!   clipped to MediaBox, then /Rotate applied clockwise; lengths multiplied
//!   by /UserUnit, as viewers display the page (`font_size` is not). A
//!   widget with the NoRotate flag keeps its upper-left corner and its
//!   unrotated size on a turned page.
//!   `pages[].width/height` are the displayed size, `rotation` is /Rotate
//!   normalised to 0/90/180/270.
//! * A tag's box runs from the origin of its `<` to origin + advance of its
//!   `>` (Tc, Tw on single-byte code 32, Tz and TJ kerning move the glyphs
//!   in between; the Tc after the final `>` is not part of the box, as in
//!   pdfminer, whose convention the corpus oracle follows); bottom = baseline + descent × size / 1000 (font
//!   descriptor /Descent; base-14 AFM descents, Courier −194, Helvetica
//!   −207; Type3 without descriptor 0); top = bottom + size. The rectangle
//!   is mapped through Tm × CTM (× form matrices) and the page rotation, and
//!   `x,y,width,height` is its axis-aligned bounding box.
//! * `font_size` is the Tf size times the length of the text-space y unit
//!   vector in user space (so `1.5 0 0 2 x y Tm` with 12 pt gives 24).
//! * `font` is the BaseFont without a subset prefix; the Type3 font, which
//!   has none, is reported by its /Name `T3Sig` (also its resource name).
//! * `tag_id` is the text between `<#` and `#>`, trimmed; `valid` iff it
//!   matches `^[A-Z0-9_]+$`. `hidden` iff render mode 3/7 or white fill.
//! * Every number is rounded to 0.01; compare with a small tolerance
//!   (widths are rounded independently of `x`).
//! * `tags` are listed page by page in content-stream order.
//! * Form fixtures add `fields` (one per widget, in field-tree order, then
//!   widgets only the pages list; boxes like tags, from the widget /Rect; a
//!   widget without a page keeps its raw /Rect), `field_findings` (code,
//!   severity, field) and, for a file the scan must refuse, `error` (the
//!   error code). Other fixtures leave these keys out.
//! * Vendor fixtures (`vendor_*`) add `vendor_tags` (dialect, raw text, page,
//!   box, hidden) and `vendor_split` (one per tag wrapped onto a second
//!   line). The box follows each vendor's documentation, computed from the
//!   placed glyphs: the whole tag from its opening to its closing delimiter
//!   as for `<# #>`; for Adobe, the height of the first `{` only (in text
//!   space: every glyph's advance between the first glyph's bottom and
//!   top). The box is the tag's text; where the vendor places the field
//!   elsewhere, `field` says where: an explicit width/height written in the
//!   tag (DocuSeal `width=`/`height=`, signNow `w:`/`h:`) from the text's
//!   top-left corner; a DocuSign anchor's tab (`vendor_docusign`, read with
//!   [`docusign_envelope`]) from the text's top-left corner (or its last
//!   glyph's right edge, right-aligned) moved by the tab's offsets, at its
//!   size.
//! * `unterminated` has one entry per `<#` an author could have typed as a
//!   tag that has no `#>` on its line, or per tag wrapped onto a second line;
//!   `text_unmappable` (when present) one per font whose misread text holds
//!   a `<#` that is no tag attempt (`garbled_text`).

pub mod content;
pub mod encrypt;
pub mod example;
pub mod expect;
mod fixtures;
pub mod flate;
pub mod fonts;
pub mod geom;
pub mod hostile;
pub mod pdfbuild;
pub mod preflight;
mod quirks;
mod raw;
pub mod templates;

use std::fmt;

pub use expect::{
    Expect, ExpectField, ExpectFinding, ExpectPage, ExpectTag, ExpectUnmappable,
    ExpectUnterminated, ExpectVendorTag,
};

/// One generated fixture.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// File stem: the fixture is `NAME.pdf` plus `NAME.expect.json`.
    pub name: &'static str,
    pub pdf: Vec<u8>,
    /// The [`Expect`] as JSON.
    pub expect: serde_json::Value,
}

impl Fixture {
    /// The expectation as a typed value.
    pub fn expect_typed(&self) -> Result<Expect, Error> {
        Ok(serde_json::from_value(self.expect.clone())?)
    }

    /// The bytes of `NAME.expect.json` (pretty JSON, trailing newline).
    pub fn expect_json(&self) -> Result<Vec<u8>, Error> {
        let mut v = serde_json::to_vec_pretty(&self.expect)?;
        v.push(b'\n');
        Ok(v)
    }
}

/// A generation error (always a bug in a fixture definition).
#[derive(Debug)]
pub struct Error(String);

impl Error {
    pub fn new(msg: impl Into<String>) -> Self {
        Error(msg.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<lopdf::Error> for Error {
    fn from(e: lopdf::Error) -> Self {
        Error(format!("lopdf: {e}"))
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error(format!("io: {e}"))
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error(format!("json: {e}"))
    }
}

/// Every fixture that scans, or the first generation error.
pub fn try_fixtures() -> Result<Vec<Fixture>, Error> {
    fixtures::all()
}

/// The fixtures a scanner must refuse (`form_kids_cycle`): their
/// expectation's `error` names the error code. Kept apart from
/// [`fixtures`], whose every file scans.
pub fn try_refused_fixtures() -> Result<Vec<Fixture>, Error> {
    fixtures::refused()
}

/// The fixtures a scanner must refuse; see [`try_refused_fixtures`].
///
/// # Panics
/// Only if a fixture definition is internally inconsistent.
pub fn refused_fixtures() -> Vec<Fixture> {
    match try_refused_fixtures() {
        Ok(f) => f,
        Err(e) => panic!("signprep-testgen: {e}"),
    }
}

/// Every fixture that scans, built in memory.
///
/// # Panics
/// Only if a fixture definition is internally inconsistent, which the
/// crate's own tests rule out.
pub fn fixtures() -> Vec<Fixture> {
    match try_fixtures() {
        Ok(f) => f,
        Err(e) => panic!("signprep-testgen: {e}"),
    }
}

/// The vendor-tagged contracts of `testdata/migrate` (`adobe_contract`,
/// `dropbox_contract`): what `signprep migrate` is shown and tested on. Not
/// among [`fixtures`], whose every file has native tags or fields.
pub fn try_migrate_contracts() -> Result<Vec<Fixture>, Error> {
    let mut all = fixtures::contracts::all()?;
    all.push(fixtures::strip::strip_contract()?);
    all.push(fixtures::strip::strip_leftovers()?);
    all.push(fixtures::wrapped_table::docuseal_table()?);
    Ok(all)
}

/// One contract of [`try_migrate_contracts`] by name.
///
/// # Panics
/// Only if a fixture definition is internally inconsistent.
pub fn migrate_contract(name: &str) -> Option<Fixture> {
    match try_migrate_contracts() {
        Ok(all) => all.into_iter().find(|f| f.name == name),
        Err(e) => panic!("signprep-testgen: {e}"),
    }
}

/// The DocuSign envelope definition of the `vendor_docusign` fixture
/// (written beside it as `vendor_docusign.envelope.json`).
pub fn docusign_envelope() -> &'static str {
    fixtures::docusign::ENVELOPE
}

/// One fixture by name.
pub fn fixture(name: &str) -> Option<Fixture> {
    fixtures().into_iter().find(|f| f.name == name)
}
