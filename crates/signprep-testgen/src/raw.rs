//! PDFs written byte by byte: what a hostile or quirky file needs, since it
//! must be able to lie (wrong `/Length`, cycles, absurd counts, missing xref)
//! where lopdf's writer would not.

/// A PDF written object by object, with a computed cross-reference table.
#[derive(Debug, Default)]
pub struct Raw {
    pub(crate) objects: Vec<(u32, Vec<u8>)>,
}

impl Raw {
    /// Object `n` with `body` between `n 0 obj` and `endobj`.
    pub fn obj(&mut self, n: u32, body: impl AsRef<[u8]>) -> &mut Self {
        self.objects.push((n, body.as_ref().to_vec()));
        self
    }

    /// A stream object whose `/Length` is right.
    pub fn stream(&mut self, n: u32, dict: &str, data: &[u8]) -> &mut Self {
        self.stream_with_length(n, dict, data, data.len())
    }

    /// A stream object claiming `/Length length`, whatever the data's size.
    pub fn stream_with_length(
        &mut self,
        n: u32,
        dict: &str,
        data: &[u8],
        length: usize,
    ) -> &mut Self {
        let mut body = format!("<< {dict} /Length {length} >>\nstream\n").into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        self.obj(n, body)
    }

    /// Header, objects, xref table (free entries for unused numbers) and a
    /// trailer naming object 1 as the catalog.
    pub fn finish(&self) -> Vec<u8> {
        let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
        let mut offsets = std::collections::BTreeMap::new();
        for (n, body) in &self.objects {
            offsets.insert(*n, out.len());
            out.extend_from_slice(format!("{n} 0 obj\n").as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let size = offsets.keys().max().map_or(1, |m| m + 1);
        let xref = out.len();
        out.extend_from_slice(format!("xref\n0 {size}\n").as_bytes());
        for n in 0..size {
            match offsets.get(&n) {
                Some(off) => out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes()),
                None => out.extend_from_slice(b"0000000000 65535 f \n"),
            }
        }
        out.extend_from_slice(
            format!("trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n")
                .as_bytes(),
        );
        out
    }
}
