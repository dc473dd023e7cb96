//! Hostile inputs: files built to crash, hang or exhaust a PDF reader.
//!
//! Written with `signprep-testgen --hostile testdata/hostile` (never mixed into
//! the fixtures: these are not documents with an expected layout). Each file
//! comes with `NAME.expect.json`, a [`HostileExpect`] saying how signprep must
//! end: a given error code, or `ok` with given tags and diagnostics.
//!
//! The PDFs are written byte by byte ([`Raw`]), not through lopdf's writer,
//! so they can lie: wrong `/Length`, cycles, absurd counts, missing xref.
//! Output is deterministic (garbage comes from a fixed-seed xorshift).

use crate::flate::{repeated_zlib, zeros_zlib};
use crate::{Error, Fixture};

pub use crate::expect::HostileExpect;
pub use crate::raw::Raw;

mod fonts;
mod pagetree;
mod xref;

const UNREADABLE: &str = "pdf_unreadable";
const LIMIT: &str = "pdf_limit_exceeded";

/// Page content showing one Courier tag.
const TAG_CONTENT: &[u8] = b"BT /F1 12 Tf 72 700 Td (<# SIG_1 #>) Tj ET";
const COURIER: &str =
    "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>";
const PAGE_RESOURCES: &str = "/Resources << /Font << /F1 5 0 R >> >>";

/// One intact page: catalog 1, page tree 2, page 3, content 4, font 5.
fn one_page() -> Raw {
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        .obj(
            3,
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {PAGE_RESOURCES} /Contents 4 0 R >>"
            ),
        )
        .stream(4, "", TAG_CONTENT)
        .obj(5, COURIER);
    r
}

/// Every hostile file, in a fixed order.
pub fn all() -> Result<Vec<Fixture>, Error> {
    let list: Vec<(&'static str, Vec<u8>, HostileExpect)> = vec![
        empty(),
        garbage(),
        garbage_after_header(),
        header_only(),
        truncated_half(),
        truncated_before_xref(),
        truncated_in_catalog(),
        pagetree_kids_cycle(),
        pagetree_parent_cycle(),
        huge_count(),
        pagetree_kids_fanout(),
        xobject_self(),
        xobject_mutual(),
        xobject_deep_chain(),
        flate_bomb_300mb()?,
        flate_bomb_shared_stream()?,
        flate_bomb_forms_over_cache()?,
        flate_bomb_inline_font()?,
        deep_array_object(),
        deep_dict_object(),
        deep_dict_object_no_xref(),
        deep_array_keyword_names(),
        deep_array_content(),
        length_too_short(),
        length_too_long(),
        acroform_kids_cycle(),
        tounicode_absurd_ranges()?,
        reference_loop(),
        fonts::font_damaged(),
        xref::xref_section_misnumbered(),
        xref::xref_root_stale(),
        xref::encrypt_dictionary_damaged(),
        xref::header_missing(),
        xref::header_missing_not_pdf(),
    ]
    .into_iter()
    .chain(pagetree::all())
    .collect();
    list.into_iter()
        .chain(crate::quirks::all()?)
        .map(|(name, pdf, expect)| {
            Ok(Fixture {
                name,
                pdf,
                expect: serde_json::to_value(&expect)?,
            })
        })
        .collect()
}

type Entry = (&'static str, Vec<u8>, HostileExpect);

fn empty() -> Entry {
    (
        "empty",
        Vec::new(),
        HostileExpect::error("a file of 0 bytes", UNREADABLE),
    )
}

/// Deterministic noise (xorshift64).
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn garbage() -> Entry {
    (
        "garbage",
        noise(0x5157_4e50_5245_5031, 4096),
        HostileExpect::error("4 KiB of random bytes, no PDF header", UNREADABLE),
    )
}

fn garbage_after_header() -> Entry {
    let mut pdf = b"%PDF-1.7\n".to_vec();
    pdf.extend(noise(0x0bad_5eed, 16384));
    (
        "garbage_after_header",
        pdf,
        HostileExpect::error(
            "a %PDF-1.7 header followed by 16 KiB of random bytes",
            UNREADABLE,
        ),
    )
}

fn header_only() -> Entry {
    (
        "header_only",
        b"%PDF-1.7\n".to_vec(),
        HostileExpect::error("nothing but the header line", UNREADABLE),
    )
}

fn truncated_half() -> Entry {
    let full = one_page().finish();
    let cut = full.get(..full.len() / 2).unwrap_or_default().to_vec();
    (
        "truncated_half",
        cut,
        HostileExpect::ok(
            "an intact one-page file cut in half, inside its content stream: catalog, page tree and page survive; the content (no endstream), font, xref and trailer are lost, so the page is recovered empty, and the lost content stream said in a finding",
            1,
            &[],
            &["content_unreadable", "pdf_repaired"],
        ),
    )
}

fn truncated_before_xref() -> Entry {
    let full = one_page().finish();
    let at = full
        .windows(5)
        .rposition(|w| w == b"xref\n")
        .unwrap_or(full.len());
    let cut = full.get(..at).unwrap_or_default().to_vec();
    (
        "truncated_before_xref",
        cut,
        HostileExpect::ok(
            "an intact one-page file cut just before its xref table (no xref, trailer or %%EOF): rebuilt by scanning",
            1,
            &["SIG_1"],
            &["pdf_repaired"],
        ),
    )
}

fn truncated_in_catalog() -> Entry {
    let full = one_page().finish();
    // Inside the first object's dictionary: `1 0 obj\n<< /Type /Cat`.
    let at = full
        .windows(5)
        .position(|w| w == b"/Cata")
        .map_or(full.len(), |p| p + 4);
    let cut = full.get(..at).unwrap_or_default().to_vec();
    (
        "truncated_in_catalog",
        cut,
        HostileExpect::error(
            "an intact one-page file cut inside its first object, the catalog: no object survives whole, so there is nothing to rebuild the file from",
            UNREADABLE,
        ),
    )
}

fn pagetree_kids_cycle() -> Entry {
    let mut r = one_page();
    // Root 2 -> [page 3, node 6]; node 6 -> [root 2].
    replace(&mut r, 2, "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>");
    r.obj(6, "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>");
    (
        "pagetree_kids_cycle",
        r.finish(),
        HostileExpect::error(
            "the page tree root's /Kids lists an intermediate node whose /Kids lists the root again; the root's /Count says 2 pages, the cycle hides the second",
            UNREADABLE,
        ),
    )
}

fn pagetree_parent_cycle() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        2,
        "<< /Type /Pages /Kids [6 0 R] /Count 1 /Parent 6 0 R >>",
    );
    r.obj(
        6,
        "<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 2 0 R /Rotate 0 >>",
    );
    replace(
        &mut r,
        3,
        &format!(
            "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] {PAGE_RESOURCES} /Contents 4 0 R >>"
        ),
    );
    (
        "pagetree_parent_cycle",
        r.finish(),
        HostileExpect::ok(
            "/Parent links form cycles (root <-> intermediate node, the page its own parent); /Kids are sound",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

fn huge_count() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        2,
        "<< /Type /Pages /Kids [3 0 R] /Count 9223372036854775807 >>",
    );
    (
        "huge_count",
        r.finish(),
        HostileExpect::ok(
            "the page tree claims /Count 2^63-1 and holds one page",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

fn pagetree_kids_fanout() -> Entry {
    let mut r = one_page();
    // Inherited resources worth cloning (~20 KB), and 100,001 kids.
    let fonts: String = (0..1000).map(|i| format!("/F{i} 5 0 R ")).collect();
    let kids = "3 0 R ".repeat(100_001);
    replace(
        &mut r,
        2,
        &format!("<< /Type /Pages /Resources << /Font << {fonts} >> >> /Kids [{kids}] /Count 1 >>"),
    );
    (
        "pagetree_kids_fanout",
        r.finish(),
        HostileExpect::error(
            "the page tree root has 100,001 kids (all the same page) and a 20 KB /Resources they inherit: more kids than max_pages",
            LIMIT,
        ),
    )
}

const FORM_DICT: &str = "/Type /XObject /Subtype /Form /BBox [0 0 612 792]";

fn xobject_self() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /X1 6 0 R >> >> /Contents 4 0 R >>",
    );
    replace_stream(
        &mut r,
        4,
        "",
        b"BT /F1 12 Tf 72 700 Td (<# SIG_1 #>) Tj ET /X1 Do",
    );
    r.stream(
        6,
        &format!("{FORM_DICT} /Resources << /XObject << /X1 6 0 R >> >>"),
        b"/X1 Do",
    );
    (
        "xobject_self",
        r.finish(),
        HostileExpect::ok(
            "a Form XObject whose own resources name it, and which draws itself",
            1,
            &["SIG_1"],
            &["xobject_depth_exceeded"],
        ),
    )
}

fn xobject_mutual() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /A 6 0 R >> >> /Contents 4 0 R >>",
    );
    replace_stream(&mut r, 4, "", b"/A Do");
    r.stream(
        6,
        &format!("{FORM_DICT} /Resources << /Font << /F1 5 0 R >> /XObject << /B 7 0 R >> >>"),
        b"BT /F1 12 Tf 72 700 Td (<# SIG_1 #>) Tj ET /B Do",
    )
    .stream(
        7,
        &format!("{FORM_DICT} /Resources << /XObject << /A 6 0 R >> >>"),
        b"/A Do",
    );
    (
        "xobject_mutual",
        r.finish(),
        HostileExpect::ok(
            "Form XObject A draws B, which draws A again",
            1,
            &["SIG_1"],
            &["xobject_depth_exceeded"],
        ),
    )
}

fn xobject_deep_chain() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /X 100 0 R >> >> /Contents 4 0 R >>",
    );
    replace_stream(&mut r, 4, "", b"/X Do");
    // 100 -> 101 -> ... -> 139: 40 distinct forms, the last one shows the tag.
    for n in 100..140u32 {
        if n == 139 {
            r.stream(
                n,
                &format!("{FORM_DICT} /Resources << /Font << /F1 5 0 R >> >>"),
                TAG_CONTENT,
            );
        } else {
            r.stream(
                n,
                &format!(
                    "{FORM_DICT} /Resources << /XObject << /X {} 0 R >> >>",
                    n + 1
                ),
                b"/X Do",
            );
        }
    }
    (
        "xobject_deep_chain",
        r.finish(),
        HostileExpect::ok(
            "40 distinct Form XObjects, each drawing the next (no cycle); the tag is in the last one, past max_xobject_depth",
            1,
            &[],
            &["xobject_depth_exceeded"],
        ),
    )
}

fn flate_bomb_300mb() -> Result<Entry, Error> {
    let mut r = one_page();
    replace_stream(&mut r, 4, "/Filter /FlateDecode", &zeros_zlib(300)?);
    Ok((
        "flate_bomb_300mb",
        r.finish(),
        HostileExpect::error(
            "the page's content stream inflates to 300 MiB of zero bytes (file ~300 KB); max_stream_bytes is 64 MiB",
            LIMIT,
        ),
    ))
}

fn flate_bomb_shared_stream() -> Result<Entry, Error> {
    let mut r = Raw::default();
    let pages = 10u32;
    let kids: Vec<String> = (0..pages).map(|i| format!("{} 0 R", 10 + i)).collect();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>").obj(
        2,
        format!(
            "<< /Type /Pages /Kids [{}] /Count {pages} /MediaBox [0 0 612 792] >>",
            kids.join(" ")
        ),
    );
    // `[` bytes: each page's content is refused after 257 bytes (nesting), so
    // the cost is the inflating, not the interpreting.
    r.stream(4, "/Filter /FlateDecode", &repeated_zlib(b'[', 60)?);
    for i in 0..pages {
        r.obj(10 + i, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>");
    }
    Ok((
        "flate_bomb_shared_stream",
        r.finish(),
        HostileExpect::ok(
            "10 pages share one content stream inflating to 60 MiB of `[` (under max_stream_bytes): 600 MiB if inflated for each page, over max_document_bytes (512 MiB); the stream cache inflates it once",
            pages as usize,
            &[],
            &["content_unreadable"],
        ),
    ))
}

fn flate_bomb_forms_over_cache() -> Result<Entry, Error> {
    let mut r = Raw::default();
    let pages = 10u32;
    let kids: Vec<String> = (0..pages).map(|i| format!("{} 0 R", 10 + i)).collect();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>").obj(
        2,
        format!(
            "<< /Type /Pages /Kids [{}] /Count {pages} /MediaBox [0 0 612 792] /Resources << /XObject << /X1 5 0 R /X2 6 0 R >> >> >>",
            kids.join(" ")
        ),
    );
    r.stream(4, "", b"/X1 Do /X2 Do");
    let form = repeated_zlib(b'[', 60)?;
    r.stream(
        5,
        "/Type /XObject /Subtype /Form /BBox [0 0 9 9] /Filter /FlateDecode",
        &form,
    );
    r.stream(
        6,
        "/Type /XObject /Subtype /Form /BBox [0 0 9 9] /Filter /FlateDecode",
        &form,
    );
    for i in 0..pages {
        r.obj(10 + i, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>");
    }
    Ok((
        "flate_bomb_forms_over_cache",
        r.finish(),
        HostileExpect::error(
            "10 pages draw two Form XObjects, each inflating to 60 MiB of `[`: the first fills the stream cache (64 MiB), so the second is inflated and charged at every page, 600 MiB in all, over max_document_bytes (512 MiB)",
            LIMIT,
        ),
    ))
}

fn flate_bomb_inline_font() -> Result<Entry, Error> {
    let mut r = one_page();
    // An inline font dictionary has no object id to be cached by. Its ToUnicode
    // inflates to 60 MiB of zeros that ASCIIHexDecode then turns into nothing:
    // the inflating is never charged to max_document_bytes, so reading the font
    // again at each of 2,000 Tf would cost minutes.
    replace(
        &mut r,
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Courier /ToUnicode 6 0 R >> >> >> /Contents 4 0 R >>",
    );
    let mut content = b"BT 72 700 Td ".to_vec();
    for _ in 0..2000 {
        content.extend_from_slice(b"/F1 12 Tf ");
    }
    content.extend_from_slice(b"(<# SIG_1 #>) Tj ET");
    replace_stream(&mut r, 4, "", &content);
    r.stream(
        6,
        "/Filter [/FlateDecode /ASCIIHexDecode]",
        &zeros_zlib(60)?,
    );
    Ok((
        "flate_bomb_inline_font",
        r.finish(),
        HostileExpect::ok(
            "2,000 Tf select an inline font whose ToUnicode inflates to 60 MiB and then does not decode: the font is read once, and reported once (font_unreadable)",
            1,
            &["SIG_1"],
            &["font_unreadable"],
        ),
    ))
}

const DEEP: usize = 100_000;

fn deep_array_object() -> Entry {
    let mut r = one_page();
    let deep = format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP));
    replace(
        &mut r,
        3,
        &format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {PAGE_RESOURCES} /Contents 4 0 R /Deep {deep} >>"
        ),
    );
    (
        "deep_array_object",
        r.finish(),
        HostileExpect::error(
            "the page dictionary holds an array nested 100,000 levels deep",
            LIMIT,
        ),
    )
}

fn deep_dict_object() -> Entry {
    let mut r = one_page();
    let deep = format!("{}{}", "<</A".repeat(DEEP / 2), ">>".repeat(DEEP / 2));
    r.obj(6, deep);
    (
        "deep_dict_object",
        r.finish(),
        HostileExpect::ok(
            "an unreferenced object holds dictionaries nested 50,000 levels deep: read on demand, nothing refers to it, so it is never parsed",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

/// The same deep object in a file whose xref table is gone: the whole file is
/// read by lopdf's recursive parser, so the nesting pre-scan must refuse it.
fn deep_dict_object_no_xref() -> Entry {
    let (_, full, _) = deep_dict_object();
    let at = full
        .windows(5)
        .rposition(|w| w == b"xref\n")
        .unwrap_or(full.len());
    (
        "deep_dict_object_no_xref",
        full.get(..at).unwrap_or_default().to_vec(),
        HostileExpect::error(
            "an unreferenced object holds dictionaries nested 50,000 levels deep, and the file is cut before its xref table: rebuilding reads every object",
            LIMIT,
        ),
    )
}

/// The nesting pre-check once took any `stream` or `endobj` bytes for
/// keywords: a name `/stream` made it skip to the next `endstream` (here, past
/// the page's content stream) and `/endobj` reset its count, so a nesting
/// sprinkled with such names got past it to lopdf's recursive parser.
fn deep_array_keyword_names() -> Entry {
    let mut r = one_page();
    let mut deep = String::new();
    let noise = [
        "/stream", "/endobj", "(endobj)", "/endobjX", "endobjX", "(stream)",
    ];
    for k in 0..DEEP {
        deep.push('[');
        if k % 64 == 0 {
            deep.push_str(noise.get(k / 64 % noise.len()).copied().unwrap_or_default());
            deep.push(' ');
        }
    }
    deep.push_str(&"]".repeat(DEEP));
    replace(
        &mut r,
        3,
        &format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {PAGE_RESOURCES} /Contents 4 0 R /Deep {deep} >>"
        ),
    );
    (
        "deep_array_keyword_names",
        r.finish(),
        HostileExpect::error(
            "the page dictionary holds an array nested 100,000 levels deep, with the names /stream and /endobj (and strings holding those words) every 64 levels",
            LIMIT,
        ),
    )
}

fn deep_array_content() -> Entry {
    let mut r = one_page();
    let mut content = TAG_CONTENT.to_vec();
    content.extend_from_slice(b"\n");
    content.extend(std::iter::repeat_n(b'[', DEEP));
    content.extend(std::iter::repeat_n(b']', DEEP));
    content.extend_from_slice(b" TJ");
    replace_stream(&mut r, 4, "", &content);
    (
        "deep_array_content",
        r.finish(),
        HostileExpect::ok(
            "after a tag, the content stream holds a TJ operand nested 100,000 arrays deep: the tag is found, the rest of the stream (an operand flood) is skipped",
            1,
            &["SIG_1"],
            &["content_unreadable"],
        ),
    )
}

fn length_too_short() -> Entry {
    let mut r = one_page();
    r.objects.retain(|(n, _)| *n != 4);
    r.stream_with_length(4, "", TAG_CONTENT, 10);
    (
        "length_too_short",
        r.finish(),
        HostileExpect::ok(
            "the content stream's /Length says 10; the data runs to 42 bytes before endstream",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

fn length_too_long() -> Entry {
    let mut r = one_page();
    r.objects.retain(|(n, _)| *n != 4);
    r.stream_with_length(4, "", TAG_CONTENT, 1_000_000);
    (
        "length_too_long",
        r.finish(),
        HostileExpect::ok(
            "the content stream's /Length says 1,000,000, past the end of the file",
            1,
            &["SIG_1"],
            &[],
        ),
    )
}

fn acroform_kids_cycle() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        1,
        "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [10 0 R] >> >>",
    );
    replace(
        &mut r,
        3,
        &format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {PAGE_RESOURCES} /Contents 4 0 R /Annots [12 0 R] >>"
        ),
    );
    r.obj(10, "<< /T (a) /Kids [11 0 R] >>")
        .obj(11, "<< /T (b) /Parent 10 0 R /Kids [10 0 R 12 0 R] >>")
        .obj(
            12,
            "<< /Type /Annot /Subtype /Widget /FT /Tx /T (c) /Parent 11 0 R /Rect [72 600 272 620] /P 3 0 R >>",
        );
    (
        "acroform_kids_cycle",
        r.finish(),
        HostileExpect::error(
            "the AcroForm field tree has a /Kids cycle: field a -> b -> a",
            UNREADABLE,
        ),
    )
}

fn tounicode_absurd_ranges() -> Result<Entry, Error> {
    let mut r = one_page();
    replace(
        &mut r,
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F2 6 0 R >> >> /Contents 4 0 R >>",
    );
    // `<# SIG_1 #>` as two-byte CIDs (Identity-H), CID = Unicode.
    let hex: String = "<# SIG_1 #>"
        .bytes()
        .map(|b| format!("00{b:02X}"))
        .collect();
    replace_stream(
        &mut r,
        4,
        "",
        format!("BT /F2 12 Tf 72 700 Td <{hex}> Tj ET").as_bytes(),
    );
    r.obj(
        6,
        "<< /Type /Font /Subtype /Type0 /BaseFont /Mono /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
    )
    .obj(
        7,
        "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Mono /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 600 >>",
    );
    let mut cmap = String::from(
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
         /CMapName /Absurd def /CMapType 2 def\n\
         4 begincodespacerange <00> <FF> <0000> <FFFF> <000000> <FFFFFF> <00000000> <FFFFFFFF> endcodespacerange\n\
         1 beginbfrange <0000> <FFFF> <0000> endbfrange\n\
         9 beginbfrange\n\
         <00000000> <FFFFFFFF> <FFFF>\n\
         <FFFFFFFF> <00000000> <0041>\n\
         <00> <FFFFFFFF> <0041>\n\
         <FE00> <FEFF> [<0041> <>]\n\
         <FFF0> <FFFF> <FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF>\n\
         <FF00> <FFFF> <DBFF>\n\
         <00000000> <FFFFFFFF> [<0041> <0042> <0043>]\n\
         <000000> <FFFFFF> /uniFFFF\n\
         <0000> <FFFF> 4294967295\n\
         endbfrange\n\
         2 begincidrange <00000000> <FFFFFFFF> 4294967295 <0000> <FFFF> 4294967295 endcidrange\n\
         1 begincidchar <FFFFFFFF> 4294967295 endcidchar\n",
    );
    // 150,000 single mappings of high codes (more than the parser keeps), in
    // sections of 100, repeated (so the stream compresses well).
    for _ in 0..1500 {
        cmap.push_str("100 beginbfchar\n");
        for i in 0..100u32 {
            let code = 0x8000 + i;
            cmap.push_str(&format!("<{code:04X}> <{:04X}>\n", 0x4E00 + i));
        }
        cmap.push_str("endbfchar\n");
    }
    cmap.push_str("endcmap CMapName currentdict /CMap defineresource pop end end\n");
    let compressed = miniz_oxide::deflate::compress_to_vec_zlib(cmap.as_bytes(), 9);
    r.stream(8, "/Filter /FlateDecode", &compressed);
    Ok((
        "tounicode_absurd_ranges",
        r.finish(),
        HostileExpect::ok(
            "a Type0 font whose ToUnicode CMap has 4-byte ranges over all codes, reversed and mixed-length ranges, a 64-unit destination, cid ranges overflowing u32 and 150,000 bfchar entries",
            1,
            &["SIG_1"],
            &[],
        ),
    ))
}

fn reference_loop() -> Entry {
    let mut r = one_page();
    replace(
        &mut r,
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 6 0 R /Contents 4 0 R /Rotate 8 0 R >>",
    );
    r.obj(6, "7 0 R").obj(7, "6 0 R").obj(8, "8 0 R");
    (
        "reference_loop",
        r.finish(),
        HostileExpect::ok(
            "the page's /Resources is a reference to a reference back to itself, and /Rotate refers to itself: the tag is read with Helvetica metrics",
            1,
            &["SIG_1"],
            &["font_unreadable", "tag_font_proportional"],
        ),
    )
}

/// Replaces object `n`'s body.
fn replace(r: &mut Raw, n: u32, body: &str) {
    r.objects.retain(|(m, _)| *m != n);
    r.obj(n, body);
}

/// Replaces object `n` with a stream.
fn replace_stream(r: &mut Raw, n: u32, dict: &str, data: &[u8]) {
    r.objects.retain(|(m, _)| *m != n);
    r.stream(n, dict, data);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn deterministic_small_and_uniquely_named() {
        let a = all().unwrap();
        let b = all().unwrap();
        let mut names = std::collections::BTreeSet::new();
        for (x, y) in a.iter().zip(&b) {
            assert!(x.pdf == y.pdf, "{} differs between runs", x.name);
            assert!(x.pdf.len() < 1 << 20, "{} is {} bytes", x.name, x.pdf.len());
            assert!(names.insert(x.name));
            let e: HostileExpect = serde_json::from_value(x.expect.clone()).unwrap();
            assert_eq!(e.status == "error", e.error_code.is_some(), "{}", x.name);
        }
    }
}
