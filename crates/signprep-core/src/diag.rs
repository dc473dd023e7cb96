//! Diagnostics: findings that do not stop a scan, each with a stable code.

use crate::source::SourcePlace;
use crate::visible::into_visible;
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The service will reject the request or silently do the wrong thing.
    Error,
    /// Probably wrong; worth a look.
    Warning,
    /// Worth knowing; often on purpose.
    Info,
}

impl Severity {
    /// Lower-case name, as in the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Declares a code enum: each variant with its doc comment (the code's
/// documentation, [`Code::doc`]), its stable snake_case name and its severity;
/// `ALL`, `as_str`, `severity`, `doc` and `from_name` are generated, and its
/// JSON Schema (a string, one of the names: what its `Serialize` writes).
/// The core's [`Code`] and [`FileErrorCode`](crate::FileErrorCode) and the
/// pack crate's `PackCode` are declared with it.
#[doc(hidden)]
#[macro_export]
macro_rules! codes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $ty:ident {
            $( $(#[doc = $doc:literal])* $variant:ident => $name:literal, $sev:ident; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        $vis enum $ty {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl $ty {
            /// Every code, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// The stable snake_case name.
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $name,)* }
            }

            /// The severity this code is reported with.
            pub fn severity(self) -> $crate::Severity {
                match self { $($ty::$variant => $crate::Severity::$sev,)* }
            }

            /// The code's documentation: what it means and why it matters.
            pub fn doc(self) -> &'static str {
                match self { $($ty::$variant => concat!($($doc, "\n"),*),)* }
            }

            /// Looks a code up by its snake_case name.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name { $($name => Some($ty::$variant),)* _ => None }
            }
        }

        /// One of the codes, as written: a string listed in `enum`.
        impl $crate::__schemars::JsonSchema for $ty {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($ty).into()
            }

            fn json_schema(_: &mut $crate::__schemars::SchemaGenerator) -> $crate::__schemars::Schema {
                let codes: ::std::vec::Vec<&str> = $ty::ALL.iter().map(|c| c.as_str()).collect();
                $crate::__schemars::json_schema!({
                    "description": "Stable snake_case code (`signprep explain CODE`).",
                    "type": "string",
                    "enum": codes,
                })
            }
        }
    };
}

codes! {
    /// A stable diagnostic code. The snake_case name never changes once released.
    pub enum Code {
        /// A tag id contains lower-case letters. The service accepts upper-case ASCII
        /// only, so the tag is ignored and no field is created there.
        TagIdNotUppercase => "tag_id_not_uppercase", Error;
        /// A tag id contains characters outside ASCII (accented letters, look-alikes).
        /// The service accepts upper-case ASCII only.
        TagIdNotAscii => "tag_id_not_ascii", Error;
        /// A tag has no id (`<# #>`). The service cannot link it to a data field.
        TagIdEmpty => "tag_id_empty", Error;
        /// A tag id contains a character other than `A-Z`, `0-9` and `_` (a space,
        /// a hyphen, a dot). The service will not match it.
        TagIdInvalidChar => "tag_id_invalid_char", Error;
        /// A `<#` that an author could have typed as a tag has no `#>` on its line.
        /// Most often the tag was wrapped onto the next line by the word processor,
        /// and the service silently ignores it. Only a tag attempt counts: a space
        /// and an id-like word after the `<#` (`<# SIG_1`), or an id-like word
        /// straight after it that runs into a `#` or the end of the line
        /// (`<#SIG_1#`); a wrapped tag's words must be id-like too. Other text
        /// after a `<#` (`<#3’4%56#`, `<#   and later   #`) is no tag for the
        /// service either, and gets no tag finding (see `text_unmappable`).
        TagUnterminated => "tag_unterminated", Error;
        /// A tag is set in a proportional font. The box width follows the glyph widths,
        /// not the character count, so padding a tag with spaces will not size the field
        /// as expected. A monospaced font such as Inconsolata is recommended.
        TagFontProportional => "tag_font_proportional", Warning;
        /// A tag is painted invisibly (white fill, render mode 3 or 7, opacity 0).
        /// Often done on purpose so that tags do not show in the signed document.
        TagHidden => "tag_hidden", Info;
        /// Two tag boxes overlap: the fields created from them will overlap too.
        TagOverlap => "tag_overlap", Warning;
        /// A tag box is partly or entirely outside the visible page (CropBox).
        TagOutsidePage => "tag_outside_page", Warning;
        /// A tag runs vertically on the displayed page (rotated page or text). The
        /// field box will be tall and narrow.
        TagVertical => "tag_vertical", Warning;
        /// The same tag id occurs more than once; every occurrence gets a field with
        /// the same id.
        TagDuplicateId => "tag_duplicate_id", Info;
        /// A page has images but no text: probably a scan. Tags in it cannot be found.
        PageNoTextLayer => "page_no_text_layer", Warning;
        /// Text near a tag has no usable Unicode mapping, so a tag there may be
        /// misread or missed. Said per tag when glyphs on the tag's line have no
        /// mapping at all (no ToUnicode, unknown glyph names); and once per font
        /// when a `<#` that is no tag attempt (`<#3’4%56#`, see `tag_unterminated`)
        /// was read from such glyphs, or from a font whose text is a guess: an
        /// embedded TrueType program without ToUnicode (its own `cmap` decides
        /// which glyph a code draws, whatever the `/Encoding` says: a figure
        /// label then reads as garbage), or an embedded font with neither
        /// ToUnicode nor `/Encoding`. A warning, not an error: the service reads
        /// no tag there either.
        TextUnmappable => "text_unmappable", Warning;
        /// A content stream of a page could not be read (corrupt data, or an object
        /// lost to damage, as in a truncated file); text in it is missing from the scan.
        ContentUnreadable => "content_unreadable", Warning;
        /// A font could not be fully read (missing widths, broken CMap); glyph positions
        /// on the page may be approximate.
        FontUnreadable => "font_unreadable", Warning;
        /// Form XObjects nest deeper than the configured limit or call each other in a
        /// cycle; the inner content was skipped.
        XobjectDepthExceeded => "xobject_depth_exceeded", Warning;
        /// The file was damaged (cross-reference data rebuilt by scanning); what could be
        /// recovered was scanned.
        PdfRepaired => "pdf_repaired", Info;
        /// The page tree is damaged and was read as viewers read it: a `/Pages`
        /// node listed inside itself (a cycle) was cut there, a kid that is
        /// missing, or neither a page nor a node (a font, say), was skipped, or,
        /// when the tree gave no
        /// page at all, the pages were found by scanning the file's objects for
        /// `/Type /Page` (in object order, as MuPDF's repair does). Every page
        /// reached is scanned, but pages may be missing or in another order than
        /// the author meant: check the page count before sending the document.
        PageTreeRepaired => "page_tree_repaired", Warning;
        /// The document has no page: its page tree is empty and no object of the
        /// file is a page. There is nothing to place a tag or a field on, and
        /// the service cannot show the document to a signer: an error, as an empty
        /// input never passes.
        DocumentNoPages => "document_no_pages", Error;
        /// A Widget annotation on a page is not reachable from `/AcroForm /Fields`
        /// (neither the widget nor any `/Parent` of it). It is still reported, but
        /// the service and many viewers only see fields listed in the form, so it
        /// may be ignored.
        WidgetNotInAcroform => "widget_not_in_acroform", Warning;
        /// A widget of the form is listed in no page's `/Annots`. Viewers draw a
        /// widget only from a page's `/Annots`, so the signer never sees it. It is
        /// reported on the page its `/P` names; when `/P` is missing or points to
        /// an object that is no page of the page tree, it is reported without a
        /// page (`page: null`, raw `/Rect`), and the message says where `/P`
        /// points. A field placed from it may land where nothing is shown.
        WidgetNotOnPage => "widget_not_on_page", Warning;
        /// The form carries an XFA description (`/AcroForm /XFA`). The service
        /// reads AcroForm fields only; XFA-only content is lost. Reported as an
        /// error (not the default warning) when the file has no AcroForm widget
        /// at all: an XFA-only form has nothing to extract.
        XfaForm => "xfa_form", Warning;
        /// A terminal field has no widget (no `/Rect`, no Widget annotation): it
        /// has no place on any page, so it cannot become a positioned data field.
        FieldWithoutWidget => "field_without_widget", Warning;
        /// A widget's rectangle has zero width or height (an invisible signature,
        /// say): a data field made from it has no area to click.
        FieldZeroSize => "field_zero_size", Warning;
        /// One full field name is used with two different field types. A pack
        /// that references the name by `custom_id` cannot tell which is meant.
        FieldNameConflict => "field_name_conflict", Error;
        /// Two or more separate fields (not widgets of one field) have one full
        /// name, with one type (two types are `field_name_conflict`). PDF allows
        /// one name only for the widgets of one field; the service finds a field
        /// by its name, so a value pre-filled or a `custom_id` given for it
        /// cannot tell them apart. The message gives each field's page and box.
        FieldNameDuplicate => "field_name_duplicate", Warning;
        /// A field's full name is empty or holds non-printable characters
        /// (control or zero-width characters, undecodable bytes); a pack cannot
        /// reference it by `custom_id`.
        FieldNameUnaddressable => "field_name_unaddressable", Warning;
        /// A widget's rectangle is partly or entirely outside the visible page
        /// (CropBox): its data field will be clipped or invisible.
        FieldOffPage => "field_off_page", Warning;
        /// A vendor text tag (read with `scan --dialect`) names a field type its
        /// vendor does not document. The vendor would treat it as plain text or
        /// guess; a migration cannot tell which field to place.
        VendorTagUnknownType => "vendor_tag_unknown_type", Warning;
        /// A vendor text tag breaks its vendor's grammar (a missing required part,
        /// a value of the wrong form, an attribute the vendor does not know). The
        /// message says which part; the vendor may ignore the tag or read it
        /// differently than intended.
        VendorTagMalformed => "vendor_tag_malformed", Warning;
        /// A vendor text tag assigns its field to signer 0 (`signer0`, `|0|`); the
        /// vendors number signers from 1, so no signer would get the field.
        VendorTagSignerOutOfRange => "vendor_tag_signer_out_of_range", Warning;
        /// A vendor text tag starts on one line and ends on the next, or on the
        /// next page (wrapped by the word processor, as in a narrow table cell).
        /// The message names the tag and both places. Its vendor reads tags
        /// within one line, so no field is placed there, and none is migrated
        /// (signNow, which reads a tag broken before or after a `:` or `;`, is
        /// read whole and not reported).
        VendorTagSplitAcrossLines => "vendor_tag_split_across_lines", Warning;
        /// A vendor text tag is painted visibly (not white, not render mode 3/7,
        /// not entirely outside the clip). Adobe Acrobat Sign and DocuSeal remove
        /// their tag text when they place fields; this service does not, so after
        /// migration the old tag shows under (or beside) the new field (`signprep
        /// preview --dialect` draws both). Clip paths are approximated by their
        /// bounding boxes: a tag outside the box is certainly hidden; one inside
        /// a curved or non-rectangular clip may be reported although it is not
        /// painted.
        VendorTagVisible => "vendor_tag_visible", Info;
        /// A vendor text tag holds only the place of a field: what the field is
        /// (type, signer, label) is given elsewhere, in the vendor's API request
        /// (a signNow complex text tag such as `{{Name}}`). A migration cannot
        /// tell which field to place.
        VendorTagDefinedElsewhere => "vendor_tag_defined_elsewhere", Warning;
        /// Under several dialects (`--dialect all`), a `{{…}}` that none of the
        /// document's own vendors reads as a tag, though another vendor's grammar
        /// would (`{{(English)English}}` in an Adobe Acrobat Sign document is not a
        /// DocuSeal field). A document's vendors are the dialects whose distinctive
        /// tags it holds; the text is left as text, not read as another vendor's
        /// field. `--dialect NAME` forces one vendor's reading.
        VendorTagUnread => "vendor_tag_unread", Warning;
        /// Vendor tag text (under `--dialect` or `--anchors`) that an
        /// annotation's appearance draws (a FreeText, Stamp or other markup
        /// annotation; form widgets are fields, read as such), not the page's
        /// content. The vendors read tags in a page's text as text extractors
        /// give it (pdf.js, MuPDF, pdfium: the page's content, not its
        /// annotations), so no field is placed and none is migrated; viewers
        /// still draw the annotation, so the text shows on the upload, and
        /// `migrate --strip` leaves it. The message names the annotation.
        VendorTagInAnnotation => "vendor_tag_in_annotation", Warning;
        /// A DocuSign anchor tab (`scan --anchors`) whose `anchorString` is on no
        /// page of the document, and which does not say
        /// `anchorIgnoreIfNotPresent`. DocuSign would refuse to send the envelope;
        /// a migration has no field for it. One anchor file often serves several
        /// documents, so this is a warning, not a failed scan.
        VendorAnchorNotFound => "vendor_anchor_not_found", Warning;
        /// `migrate --strip` left a migrated vendor tag's text in the stripped
        /// copy, because it cannot be removed exactly: its glyphs are drawn by a
        /// Type 3 font, at font size 0, from a stream that is not an object of
        /// its own or by an operator split across two content streams, by a
        /// Form XObject or content stream that also draws text that stays (on
        /// this page or another), or its glyphs could not be found again. The
        /// message says which; the tag still shows (and is searchable) in the
        /// uploaded copy. Text inside an image is never found by a scan, so
        /// never stripped.
        StripTagKept => "strip_tag_kept", Warning;
        /// `migrate --strip` wrote no stripped copy, and the plan uploads the
        /// original PDF with every tag's text in it: the file is encrypted
        /// (signprep does not write encrypted files), its cross-reference data
        /// is damaged (an update cannot be chained to it), or a content stream
        /// cannot be replaced. The message says which.
        StripRefused => "strip_refused", Warning;
        /// `migrate --strip` changed a document that holds signatures
        /// (`/AcroForm /SigFlags` says so). The copy is an incremental update, so
        /// the signed bytes are all still there, but the signatures no longer
        /// cover the document as shown: viewers report it changed after signing.
        StripSignatureInvalidated => "strip_signature_invalidated", Warning;
        /// A page could not be drawn for `signprep preview` or `signprep report`:
        /// the page renderer cannot read the file's structure (damage the scan
        /// read past), the page is too large to draw, or the renderer and the scan
        /// disagree on the pages. The scan itself stands: the tags and fields
        /// listed are what was read, only the picture is missing. `report` shows
        /// the file as scanned with this finding; `preview`, which has nothing to
        /// write, exits with status 1. Check the pages in a PDF viewer.
        PageNotDrawn => "page_not_drawn", Warning;
        /// A Word or OpenDocument template: the font, size, colour, highlight
        /// or visibility changes inside one tag. The converted PDF draws the tag
        /// in pieces (a tag whose `<` is 10 pt and `#>` 12 pt has a box of
        /// neither size, and a change of font can move its end), and vendors
        /// read such a tag wrongly or not at all. Select the whole tag in the
        /// template and give it one format (clear the direct formatting).
        TemplateTagFormatChanges => "template_tag_format_changes", Warning;
        /// A Word or OpenDocument template: a tag stands inside a tracked change
        /// that is not accepted (an insertion or a deletion) or inside a comment.
        /// The converter shows or drops it by the document's view settings, not
        /// by what the author meant: an insertion not yet accepted may be
        /// exported, a deletion kept. Accept or reject the change (Review, Accept
        /// All) and move tags out of comments before the template is used.
        TemplateTagInRevision => "template_tag_in_revision", Error;
        /// A Word or OpenDocument template: a tag is in text the conversion does
        /// not draw (hidden text, the "vanish" property, a hidden paragraph or
        /// section) or in a text box the converter may drop, so the PDF has no
        /// field there. White or tiny text is the documented way to hide a tag
        /// and is reported as info only. Make the text visible, or move the tag
        /// out of the text box into the body or a table cell.
        TemplateTagHidden => "template_tag_hidden", Error;
        /// A Word or OpenDocument template: AutoCorrect or a copy from a word
        /// processor put typographic characters where the tag's syntax needs
        /// plain ones: curly quotes (`“ ” ‘ ’`) around a signNow or Adobe value,
        /// an en or em dash, an ellipsis, a non-breaking or zero-width space,
        /// a full-width `＃` or `＜`. The vendor's parser and ours do not read
        /// them as syntax. The message names the character, where it is and
        /// what it should be; turn off "Replace straight quotes with smart
        /// quotes" (Word: AutoCorrect Options, AutoFormat As You Type) and retype it.
        TemplateTagAutocorrected => "template_tag_autocorrected", Error;
        /// A Word or OpenDocument template: a tag in the source is absent from the
        /// converted PDF, broken, or wrapped over two lines there, so the PDF has
        /// no field where the author put one. The message names both places: the
        /// paragraph in the template and, where the PDF has the text, the page.
        /// Usually the tag does not fit in its line or cell once converted (a
        /// substituted font is wider): shorten it, widen the cell, or make the
        /// font smaller.
        TemplateTagLost => "template_tag_lost", Error;
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One finding: a code, its severity, a message and where it is.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Severity (from the code).
    pub severity: Severity,
    /// Stable code.
    pub code: Code,
    /// Human message naming the page and the tag or field; invisible and
    /// control characters in it are written as `U+XXXX`.
    pub message: String,
    /// 0-based page index, when the finding is on a page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<usize>,
    /// The tag id concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// The field name concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Where it stands in the template the PDF was converted from (a `.docx`
    /// or `.odt` input): the place its author fixes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourcePlace>,
}

impl Diagnostic {
    /// A diagnostic with the code's severity. Invisible and control
    /// characters in `message` (from a tag id or a field name it quotes) are
    /// written as `U+XXXX`, so the reader sees them ([`crate::visible`]);
    /// the `tag` and `field` data keep them.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: code.severity(),
            code,
            message: into_visible(message.into()),
            page: None,
            tag: None,
            field: None,
            hint: None,
            source: None,
        }
    }

    /// At this place of the template the PDF was converted from.
    #[must_use]
    pub fn source(mut self, place: SourcePlace) -> Self {
        self.source = Some(place);
        self
    }

    /// On this page (0-based).
    #[must_use]
    pub fn page(mut self, page: usize) -> Self {
        self.page = Some(page);
        self
    }

    /// About this tag id.
    #[must_use]
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tag = Some(tag.into());
        self
    }

    /// About this field name.
    #[must_use]
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// With a hint (its invisible characters made visible, as the message's).
    #[must_use]
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(into_visible(hint.into()));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_documented_snake_case_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for &code in Code::ALL {
            let name = code.as_str();
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()),
                "{name} is not snake_case"
            );
            assert!(seen.insert(name), "{name} twice");
            assert!(code.doc().trim().len() > 20, "{name} has no documentation");
            assert_eq!(Code::from_name(name), Some(code));
        }
    }
}
