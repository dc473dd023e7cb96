//! Files that depart from ISO 32000 the way real-world files do, and that
//! viewers read: abbreviated stream filter names with predictors, image
//! filters beside text, damaged streams, and encryption a viewer refuses
//! (a user password behind an empty owner password, a certificate handler).
//! Written with the hostile files (same [`HostileExpect`]), since both say
//! how a scan must end; minimal reproductions of pdf.js and qpdf test files
//! (named in each description), never copies of them.

use miniz_oxide::deflate::compress_to_vec_zlib;

use crate::Error;
use crate::encrypt::{self, Encryption};
use crate::expect::HostileExpect;
use crate::raw::Raw;

type Entry = (&'static str, Vec<u8>, HostileExpect);

const COURIER: &str =
    "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>";

/// Every quirk file, in a fixed order.
pub(crate) fn all() -> Result<Vec<Entry>, Error> {
    Ok(vec![
        filter_abbreviations(),
        image_filters_beside_text(),
        damaged_content_streams(),
        encrypted_user_password_empty_owner()?,
        encrypted_public_key_handler()?,
    ])
}

/// The content `BT ... Tj ET` showing `tag` at height `y`.
fn tag(tag: &str, y: u32) -> Vec<u8> {
    format!("BT /F1 12 Tf 72 {y} Td (<# {tag} #>) Tj ET\n").into_bytes()
}

/// PNG "Up" rows of `columns` bytes (predictor 12), the data padded with spaces.
fn png_up(data: &[u8], columns: usize) -> Vec<u8> {
    let mut padded = data.to_vec();
    while !padded.len().is_multiple_of(columns) {
        padded.push(b' ');
    }
    let mut out = Vec::new();
    let mut prev = vec![0u8; columns];
    for row in padded.chunks(columns) {
        out.push(2);
        out.extend(row.iter().zip(&prev).map(|(b, p)| b.wrapping_sub(*p)));
        prev = row.to_vec();
    }
    out
}

/// ASCII85 with the `~>` end marker.
fn ascii85(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(4) {
        let mut word = [0u8; 4];
        for (w, b) in word.iter_mut().zip(chunk) {
            *w = *b;
        }
        let mut n = u32::from_be_bytes(word);
        if chunk.len() == 4 && n == 0 {
            out.push(b'z');
            continue;
        }
        let mut digits = [0u8; 5];
        for d in digits.iter_mut().rev() {
            *d = (n % 85) as u8 + b'!';
            n /= 85;
        }
        out.extend_from_slice(digits.get(..chunk.len() + 1).unwrap_or_default());
    }
    out.extend_from_slice(b"~>");
    out
}

/// Run-length: literal runs of up to 128 bytes, then the end marker.
fn run_length(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for run in data.chunks(128) {
        out.push((run.len() - 1) as u8);
        out.extend_from_slice(run);
    }
    out.push(128);
    out
}

fn hex(data: &[u8]) -> Vec<u8> {
    let mut s: String = data.iter().map(|b| format!("{b:02x}")).collect();
    s.push('>');
    s.into_bytes()
}

/// qpdf `filter-abbreviation.pdf`: the cross-reference stream and every
/// content stream name their filters by the inline-image abbreviations.
fn filter_abbreviations() -> Entry {
    let one = compress_to_vec_zlib(&png_up(&tag("SIG_1", 700), 8), 6);
    let two = ascii85(&compress_to_vec_zlib(&tag("SIG_2", 650), 6));
    let three = hex(&run_length(&tag("SIG_3", 600)));
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> /Contents [4 0 R 5 0 R 6 0 R] >>".to_vec(),
    ];
    let stream = |dict: &str, data: &[u8]| {
        let mut o = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
        o.extend_from_slice(data);
        o.extend_from_slice(b"\nendstream");
        o
    };
    objects.push(stream(
        "/Filter /Fl /DecodeParms << /Predictor 12 /Columns 8 >>",
        &one,
    ));
    objects.push(stream("/Filter [/A85 /Fl]", &two));
    objects.push(stream("/Filter [/AHx /RL]", &three));
    objects.push(COURIER.as_bytes().to_vec());
    let mut out = b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    // The cross-reference stream, object 8: W [1 4 2], Flate by its short name.
    let xref_at = out.len();
    offsets.push(xref_at);
    let mut rows = vec![0u8, 0, 0, 0, 0, 0xff, 0xff];
    for off in &offsets {
        rows.push(1);
        rows.extend_from_slice(&(*off as u32).to_be_bytes());
        rows.extend_from_slice(&[0, 0]);
    }
    let z = compress_to_vec_zlib(&rows, 6);
    let size = offsets.len() + 1;
    out.extend_from_slice(format!("{size} 0 obj\n").as_bytes());
    out.extend_from_slice(&stream(
        &format!("/Type /XRef /Size {size} /W [1 4 2] /Root 1 0 R /Filter /Fl"),
        &z,
    ));
    out.extend_from_slice(format!("\nendobj\nstartxref\n{xref_at}\n%%EOF\n").as_bytes());
    (
        "filter_abbreviations",
        out,
        HostileExpect::ok(
            "qpdf filter-abbreviation.pdf: /Fl (PNG predictor), [/A85 /Fl] and [/AHx /RL] content streams and a /Fl cross-reference stream; every viewer reads the abbreviations",
            1,
            &["SIG_1", "SIG_2", "SIG_3"],
            &[],
        ),
    )
}

/// Images whose filters signprep does not decode (JBIG2, JPX, DCT), drawn
/// between two tags, and an inline image with `/F /DCT`: text is found.
fn image_filters_beside_text() -> Entry {
    let mut content = tag("SIG_1", 700);
    content.extend_from_slice(b"q 10 0 0 10 0 0 cm /J Do /X Do /D Do Q\n");
    content.extend_from_slice(
        b"q 10 0 0 10 0 0 cm BI /W 2 /H 2 /CS /G /BPC 8 /F /DCT ID \xff\xd8\xff\xd9 EI Q\n",
    );
    content.extend_from_slice(&tag("SIG_2", 650));
    let image = |filter: &str| {
        format!(
            "/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter {filter}"
        )
    };
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        .obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /J 6 0 R /X 7 0 R /D 8 0 R >> >> /Contents 4 0 R >>")
        .stream(4, "", &content)
        .obj(5, COURIER)
        .stream(6, &image("/JBIG2Decode"), b"\x00\x01\x02\x03")
        .stream(7, &image("/JPXDecode"), b"\x00\x00\x00\x0cjP  ")
        .stream(8, &image("[/AHx /DCT]"), b"ffd8ffd9>");
    (
        "image_filters_beside_text",
        r.finish(),
        HostileExpect::ok(
            "image XObjects filtered by /JBIG2Decode, /JPXDecode and [/AHx /DCT], and an inline /DCT image, between two tags: images never stop text extraction",
            1,
            &["SIG_1", "SIG_2"],
            &[],
        ),
    )
}

/// A page of three content streams, one damaged (not hexadecimal), one in a
/// filter no viewer knows: the third's tag is found, and the findings say
/// which filter failed in signprep's words.
fn damaged_content_streams() -> Entry {
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        .obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents [4 0 R 6 0 R 7 0 R] >>")
        .stream(4, "/Filter /AHx", b"4254 zz not hexadecimal>")
        .obj(5, COURIER)
        .stream(6, "/Filter /NoSuchDecode", b"BT ET")
        .stream(7, "", &tag("SIG_1", 700));
    (
        "damaged_content_streams",
        r.finish(),
        HostileExpect::ok(
            "a page's content streams: /AHx data that is not hexadecimal, a filter no viewer knows (/NoSuchDecode), and an intact one with a tag",
            1,
            &["SIG_1"],
            &["content_unreadable"],
        ),
    )
}

/// An intact one-page file to encrypt.
fn plain() -> Vec<u8> {
    let mut r = Raw::default();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        .obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
        .stream(4, "", &tag("SIG_1", 700))
        .obj(5, COURIER);
    r.finish()
}

/// pdf.js `pr6531_2.pdf`: AES-256 (R6) with a user password and an empty
/// owner password. The empty password opens it as the owner, which is no
/// reason to read it: a viewer asks for the user password.
fn encrypted_user_password_empty_owner() -> Result<Entry, Error> {
    let mut e = Encryption::standard(6, "secret");
    e.owner_password = Vec::new();
    Ok((
        "encrypted_user_password_empty_owner",
        encrypt::encrypt(&plain(), &e)?,
        HostileExpect::error(
            "pdf.js pr6531_2.pdf: R6 with a user password and an empty owner password",
            "pdf_encrypted",
        ),
    ))
}

/// `/Filter /Adobe.PubSec`: certificate encryption, which needs a private key.
fn encrypted_public_key_handler() -> Result<Entry, Error> {
    let mut e = Encryption::standard(4, "");
    e.handler = b"Adobe.PubSec".to_vec();
    Ok((
        "encrypted_public_key_handler",
        encrypt::encrypt(&plain(), &e)?,
        HostileExpect::error(
            "the public-key security handler (/Adobe.PubSec)",
            "pdf_encrypted",
        ),
    ))
}
