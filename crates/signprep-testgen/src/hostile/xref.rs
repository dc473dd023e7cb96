//! Cross-reference data that reads cleanly but does not describe the file:
//! the table is rebuilt by scanning for `N G obj` headers (as MuPDF's repair
//! and pdf.js's recovery do). And an encryption dictionary that is damaged.

use super::{Entry, HostileExpect, Raw, one_page};

/// `needle` replaced by `with`, once (the generator's own text: present).
fn splice(pdf: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    match pdf.windows(needle.len()).position(|w| w == needle) {
        Some(at) => [&pdf[..at], with, &pdf[at + needle.len()..]].concat(),
        None => pdf.to_vec(),
    }
}

/// Where the (last) `xref` keyword of a table starts.
fn xref_at(pdf: &[u8]) -> usize {
    pdf.windows(6)
        .rposition(|w| w == b"\nxref\n")
        .map_or(pdf.len(), |at| at + 1)
}

/// The `startxref` value of `pdf` moved by `by` bytes.
fn move_startxref(pdf: &[u8], by: usize) -> Vec<u8> {
    let Some(at) = pdf.windows(10).rposition(|w| w == b"startxref\n") else {
        return pdf.to_vec();
    };
    let head = &pdf[..at + 10];
    let tail = &pdf[at + 10..];
    let digits = tail.iter().take_while(|c| c.is_ascii_digit()).count();
    let old: usize = std::str::from_utf8(&tail[..digits])
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    [head, (old + by).to_string().as_bytes(), &tail[digits..]].concat()
}

/// pdf.js `issue7229.pdf`, in small: the first section is numbered one off
/// (`1 6` for `0 6`, so every entry's offset holds the object before it)
/// and an incremental update rewrites the catalog, the page tree and the
/// content stream 4 and adds a second page. Page 1 (object 3) is then
/// reached by no entry: the entry that held it (number 4) is replaced by
/// the update, and the catalog the trailer names is found. Every viewer rebuilds
/// the table by scanning and shows both pages.
pub(super) fn xref_section_misnumbered() -> Entry {
    let first = one_page().finish();
    let prev = xref_at(&first);
    // The section and trailer with CR line ends, as in the original.
    let (body, table) = first.split_at(prev);
    let table: Vec<u8> = table
        .iter()
        .map(|&c| if c == b'\n' { b'\r' } else { c })
        .collect();
    let mut pdf = splice(&[body, &table].concat(), b"xref\r0 6\r", b"xref\r1 6\r");
    let mut offsets = Vec::new();
    for (n, body) in [
        (1, "<< /Type /Catalog /Pages 2 0 R >>".to_string()),
        (2, "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>".to_string()),
        (
            4,
            "<< /Length 42 >>\nstream\nBT /F1 12 Tf 72 700 Td (<# SIG_1 #>) Tj ET\nendstream".to_string(),
        ),
        (
            6,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 7 0 R >>"
                .to_string(),
        ),
        (
            7,
            "<< /Length 42 >>\nstream\nBT /F1 12 Tf 72 700 Td (<# SIG_2 #>) Tj ET\nendstream".to_string(),
        ),
    ] {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{n} 0 obj\n{body}\nendobj\n").as_bytes());
    }
    let xref = pdf.len();
    let [catalog, pages, content1, page, content2] = offsets[..] else {
        return (
            "xref_section_misnumbered",
            pdf,
            HostileExpect::error("", ""),
        );
    };
    pdf.extend_from_slice(
        format!(
            "xref\n0 3\n0000000000 65535 f \n{catalog:010} 00000 n \n{pages:010} 00000 n \n4 1\n{content1:010} 00000 n \n\
             6 2\n{page:010} 00000 n \n{content2:010} 00000 n \n\
             trailer\n<< /Size 8 /Root 1 0 R /Prev {prev} >>\nstartxref\n{xref}\n%%EOF\n"
        )
        .as_bytes(),
    );
    (
        "xref_section_misnumbered",
        pdf,
        HostileExpect::ok(
            "the first xref section is numbered one off (`1 6`), so each entry's offset holds the object before it, and an update rewrites objects 1, 2 and 4 (whose old entry held page 1) and adds page 2: rebuilt by scanning for object headers, both pages read",
            2,
            &["SIG_1", "SIG_2"],
            &["pdf_repaired"],
        ),
    )
}

/// A clean table whose entry for the catalog's number leads to an older
/// object of that number (a font); the catalog was appended after it without
/// a new entry. `/Root` is no catalog under the table: rebuilt by scanning,
/// the later header of object 1 wins.
pub(super) fn xref_root_stale() -> Entry {
    let mut r = Raw::default();
    r.obj(
        1,
        "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
    );
    let mut page = one_page();
    page.objects.retain(|(n, _)| *n != 1);
    r.objects.extend(page.objects);
    let written = r.finish();
    let catalog = b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
    let xref = xref_at(&written);
    let pdf = [&written[..xref], catalog, &written[xref..]].concat();
    let pdf = move_startxref(&pdf, catalog.len());
    (
        "xref_root_stale",
        pdf,
        HostileExpect::ok(
            "the xref entry of the catalog's number leads to an older object 1 (a font); the catalog 1 0 obj written after it has no entry: rebuilt by scanning, the later header wins",
            1,
            &["SIG_1"],
            &["pdf_repaired"],
        ),
    )
}

/// PDFBOX-4352-0 in small: the trailer names `/Encrypt 6 0 R`, object 6 is
/// damaged (`E<` for `<<`) and so is the cross-reference table. The file is
/// encrypted but how cannot be read: refused, naming object 6 (MuPDF drops
/// the dictionary and shows ciphertext as text).
pub(super) fn encrypt_dictionary_damaged() -> Entry {
    let mut r = one_page();
    r.obj(
        6,
        "E< /Filter /Standard /V 5 /R 6 /Length 256 /O <00> /U <00> /P -4 >>",
    );
    let pdf = r.finish();
    let pdf = splice(&pdf, b"/Root 1 0 R >>", b"/Root 1 0 R /Encrypt 6 0 R >>");
    let pdf = splice(&pdf, b"xref\n0 7\n", b"xref\n0 7 garbage\n");
    (
        "encrypt_dictionary_damaged",
        pdf,
        HostileExpect::error(
            "the trailer names /Encrypt 6 0 R, but object 6 is damaged (E< for <<) and so is the xref: encrypted by a method that cannot be read, refused",
            "pdf_encrypted",
        ),
    )
}

/// pdf.js `bug1606566.pdf`, in small: a file with no `%PDF-` header that
/// begins with a binary comment and its first object. MuPDF ("cannot find
/// version marker") and pdf.js read it; so does signprep, with a finding.
pub(super) fn header_missing() -> Entry {
    let pdf = one_page().finish();
    let pdf = splice(&pdf, b"%PDF-1.7\n", b"");
    (
        "header_missing",
        pdf,
        HostileExpect::ok(
            "no %PDF- header: the file begins with a binary comment and `1 0 obj` (pdf.js bug1606566.pdf); read as MuPDF and pdf.js read it, with a pdf_repaired finding",
            1,
            &["SIG_1"],
            &["pdf_repaired"],
        ),
    )
}

/// Text that begins like an object but is no PDF: the missing header is the
/// reason given.
pub(super) fn header_missing_not_pdf() -> Entry {
    (
        "header_missing_not_pdf",
        b"1 0 obj\nthis is a note about object 1, not a PDF\nendobj\n".to_vec(),
        HostileExpect::error(
            "begins with `1 0 obj` but holds no PDF: refused as no PDF (no %PDF- header)",
            "pdf_unreadable",
        ),
    )
}
