//! Reading one input named on the command line. The list of inputs a
//! command works on is gathered by [`crate::batch::Source`].

/// The bytes of a file named on the command line; `-` reads standard input.
pub fn read_input(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}
