//! Assembling a lopdf [`Document`] page by page while computing the
//! expectation from the oracle's placed tags.

use lopdf::xref::XrefType;
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use crate::content::{Drawn, PlacedTag, PlacedVendorTag};
use crate::expect::{
    Expect, ExpectBox, ExpectField, ExpectFinding, ExpectPage, ExpectTag, ExpectUnmappable,
    ExpectUnterminated, ExpectVendorTag, is_valid_id,
};
use crate::flate::deflate_stream;
use crate::geom::{PageGeom, real, round2};
use crate::{Error, Fixture};

/// One page to add.
#[derive(Debug)]
pub struct PageSpec {
    pub geom: PageGeom,
    /// Leave /MediaBox out of the page (inherited from the page tree root).
    pub inherit_media: bool,
    /// `None`: /Resources inherited from the page tree root.
    pub resources: Option<Dictionary>,
    /// The content (more than one stream: /Contents is an array).
    pub content: Drawn,
    pub compress: bool,
}

impl PageSpec {
    pub fn new(geom: PageGeom, resources: Dictionary, content: Drawn) -> Self {
        PageSpec {
            geom,
            inherit_media: false,
            resources: Some(resources),
            content,
            compress: false,
        }
    }

    pub fn compressed(mut self) -> Self {
        self.compress = true;
        self
    }
}

#[derive(Debug)]
pub struct DocBuilder {
    pub doc: Document,
    pages_id: ObjectId,
    /// Extra entries for the page tree root (inheritable attributes).
    pub root_extra: Dictionary,
    /// Extra entries for the document catalog (`/AcroForm`).
    pub catalog_extra: Dictionary,
    /// Expected form-field widgets (form fixtures).
    pub fields: Option<Vec<ExpectField>>,
    /// Expected field findings (form fixtures).
    pub field_findings: Option<Vec<ExpectFinding>>,
    /// The error code the scan must fail with.
    pub error: Option<String>,
    /// Expected per-font `text_unmappable` findings.
    pub text_unmappable: Option<Vec<ExpectUnmappable>>,
    kids: Vec<Object>,
    expect_pages: Vec<ExpectPage>,
    tags: Vec<ExpectTag>,
    unterminated: Vec<ExpectUnterminated>,
    vendor_tags: Vec<ExpectVendorTag>,
    vendor_split: Vec<ExpectUnterminated>,
    vendor_unread: Vec<ExpectUnterminated>,
}

impl Default for DocBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl DocBuilder {
    pub fn new() -> Self {
        let mut doc = Document::with_version("1.7");
        doc.reference_table.cross_reference_type = XrefType::CrossReferenceTable;
        let pages_id = doc.new_object_id();
        DocBuilder {
            doc,
            pages_id,
            root_extra: Dictionary::new(),
            catalog_extra: Dictionary::new(),
            fields: None,
            field_findings: None,
            error: None,
            text_unmappable: None,
            kids: Vec::new(),
            expect_pages: Vec::new(),
            tags: Vec::new(),
            unterminated: Vec::new(),
            vendor_tags: Vec::new(),
            vendor_split: Vec::new(),
            vendor_unread: Vec::new(),
        }
    }

    /// Write a cross-reference stream instead of a classic xref table.
    pub fn use_xref_stream(&mut self) {
        self.doc.reference_table.cross_reference_type = XrefType::CrossReferenceStream;
    }

    pub fn add(&mut self, obj: impl Into<Object>) -> ObjectId {
        self.doc.add_object(obj)
    }

    /// Add a stream object, Flate-compressed if `compress`.
    pub fn add_stream(
        &mut self,
        dict: Dictionary,
        bytes: Vec<u8>,
        compress: bool,
    ) -> Result<ObjectId, Error> {
        let mut s = Stream::new(dict, bytes);
        if compress {
            deflate_stream(&mut s);
        }
        Ok(self.doc.add_object(s))
    }

    /// Add a form XObject whose content was drawn into `drawn`.
    pub fn add_form(
        &mut self,
        drawn: &Drawn,
        bbox: crate::geom::Rect,
        matrix: crate::geom::Matrix,
        resources: Dictionary,
        compress: bool,
    ) -> Result<ObjectId, Error> {
        let dict = dictionary! {
            "Type" => "XObject",
            "Subtype" => "Form",
            "BBox" => bbox.to_array(),
            "Matrix" => matrix.to_array(),
            "Resources" => resources,
        };
        self.add_stream(dict, drawn.streams.concat(), compress)
    }

    /// Adds a page; returns its object id.
    pub fn add_page(&mut self, spec: PageSpec) -> Result<ObjectId, Error> {
        let index = self.kids.len();
        let mut contents = Vec::new();
        for bytes in &spec.content.streams {
            let id = self.add_stream(Dictionary::new(), bytes.clone(), spec.compress)?;
            contents.push(Object::Reference(id));
        }
        let mut page = dictionary! {
            "Type" => "Page",
            "Parent" => self.pages_id,
        };
        if !spec.inherit_media {
            page.set("MediaBox", spec.geom.media.to_array());
        }
        if let Some(c) = spec.geom.crop {
            page.set("CropBox", c.to_array());
        }
        if spec.geom.rotate != 0 {
            page.set("Rotate", spec.geom.rotate);
        }
        if let Some(u) = spec.geom.user_unit {
            page.set("UserUnit", real(u));
        }
        if let Some(r) = spec.resources {
            page.set("Resources", r);
        }
        match contents.len() {
            0 => {}
            1 => page.set("Contents", contents.remove(0)),
            _ => page.set("Contents", contents),
        }
        let id = self.doc.add_object(page);
        self.kids.push(Object::Reference(id));

        let (w, h) = spec.geom.displayed_size();
        self.expect_pages.push(ExpectPage {
            index,
            width: round2(w),
            height: round2(h),
            rotation: spec.geom.rotation(),
        });
        for t in &spec.content.tags {
            self.tags.push(expect_tag(index, &spec.geom, t)?);
        }
        for _ in 0..spec.content.unterminated {
            self.unterminated.push(ExpectUnterminated { page: index });
        }
        for t in &spec.content.vendor_tags {
            self.vendor_tags
                .push(expect_vendor_tag(index, &spec.geom, t)?);
        }
        for _ in 0..spec.content.vendor_split {
            self.vendor_split.push(ExpectUnterminated { page: index });
        }
        for _ in 0..spec.content.vendor_unread {
            self.vendor_unread.push(ExpectUnterminated { page: index });
        }
        Ok(id)
    }

    /// Write the page tree and catalog, and serialise.
    pub fn finish(mut self, name: &'static str, description: &str) -> Result<Fixture, Error> {
        let count = i64::try_from(self.kids.len()).map_err(|_| Error::new("too many pages"))?;
        let mut pages = dictionary! {
            "Type" => "Pages",
            "Kids" => std::mem::take(&mut self.kids),
            "Count" => count,
        };
        for (k, v) in std::mem::take(&mut self.root_extra) {
            pages.set(k, v);
        }
        self.doc
            .objects
            .insert(self.pages_id, Object::Dictionary(pages));
        let mut catalog = dictionary! {
            "Type" => "Catalog",
            "Pages" => self.pages_id,
        };
        for (k, v) in std::mem::take(&mut self.catalog_extra) {
            catalog.set(k, v);
        }
        let catalog = self.doc.add_object(catalog);
        self.doc.trailer.set("Root", catalog);
        let mut pdf = Vec::new();
        self.doc.save_to(&mut pdf)?;
        let expect = Expect {
            description: description.to_string(),
            pages: self.expect_pages,
            tags: self.tags,
            unterminated: self.unterminated,
            fields: self.fields,
            field_findings: self.field_findings,
            error: self.error,
            vendor_tags: (!self.vendor_tags.is_empty()
                || !self.vendor_split.is_empty()
                || !self.vendor_unread.is_empty())
            .then_some(self.vendor_tags),
            vendor_split: (!self.vendor_split.is_empty()).then_some(self.vendor_split),
            text_unmappable: self.text_unmappable,
            vendor_unread: (!self.vendor_unread.is_empty()).then_some(self.vendor_unread),
        };
        Ok(Fixture {
            name,
            pdf,
            expect: serde_json::to_value(&expect)?,
        })
    }
}

fn expect_tag(page: usize, geom: &PageGeom, t: &PlacedTag) -> Result<ExpectTag, Error> {
    let first = t.glyphs.first().ok_or_else(|| Error::new("empty tag"))?;
    let size = first.effective_size();
    for g in &t.glyphs {
        if g.font != first.font
            || g.hidden != first.hidden
            || (g.effective_size() - size).abs() > 1e-9
        {
            return Err(Error::new(format!("tag {:?} mixes styles", t.text)));
        }
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for g in &t.glyphs {
        for (ux, uy) in g.corners() {
            let (x, y) = geom.to_display(ux, uy);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    let inner = t
        .text
        .strip_prefix("<#")
        .and_then(|s| s.strip_suffix("#>"))
        .ok_or_else(|| Error::new("not a tag"))?;
    let id = inner.trim().to_string();
    Ok(ExpectTag {
        valid: is_valid_id(&id),
        tag_id: id,
        page,
        x: round2(x0),
        y: round2(y0),
        width: round2(x1 - x0),
        height: round2(y1 - y0),
        font: first.font.clone(),
        font_size: round2(size),
        hidden: first.hidden,
    })
}

/// A vendor tag's field box as its vendor documents it (see the crate docs).
fn expect_vendor_tag(
    page: usize,
    geom: &PageGeom,
    t: &PlacedVendorTag,
) -> Result<ExpectVendorTag, Error> {
    let first = t
        .tag
        .glyphs
        .first()
        .ok_or_else(|| Error::new("empty vendor tag"))?;
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for g in &t.tag.glyphs {
        // Adobe: every glyph spans the first `{`'s bottom and top (text
        // space; the font size is in these numbers, not in the matrix).
        let (bottom, top) = if t.dialect == "adobe" {
            (first.bottom, first.top)
        } else {
            (g.bottom, g.top)
        };
        for (ux, uy) in [
            g.m.apply(0.0, bottom),
            g.m.apply(g.advance, bottom),
            g.m.apply(0.0, top),
            g.m.apply(g.advance, top),
        ] {
            let (x, y) = geom.to_display(ux, uy);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    // An explicit size places the field from the text's top-left corner.
    let mut field = (t.width.is_some() || t.height.is_some()).then(|| ExpectBox {
        x: round2(x0),
        y: round2(y0),
        width: round2(t.width.unwrap_or(x1 - x0)),
        height: round2(t.height.unwrap_or(y1 - y0)),
    });
    if let Some(a) = t.anchor_tab {
        // The anchor's last glyph's right edge, for right alignment.
        let right = t
            .tag
            .glyphs
            .last()
            .map(|g| {
                [g.m.apply(g.advance, g.bottom), g.m.apply(g.advance, g.top)]
                    .iter()
                    .map(|(ux, uy)| geom.to_display(*ux, *uy).0)
                    .fold(f64::MIN, f64::max)
            })
            .unwrap_or(x1);
        let left = if a.from_right { right } else { x0 };
        field = Some(ExpectBox {
            x: round2(left + a.dx),
            y: round2(y0 + a.dy),
            width: round2(a.width),
            height: round2(a.height),
        });
    }
    Ok(ExpectVendorTag {
        dialect: t.dialect.to_string(),
        raw: t.tag.text.clone(),
        page,
        x: round2(x0),
        y: round2(y0),
        width: round2(x1 - x0),
        height: round2(y1 - y0),
        hidden: t.tag.glyphs.iter().all(|g| g.hidden),
        field,
    })
}
