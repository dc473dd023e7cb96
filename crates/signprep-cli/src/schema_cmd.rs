//! `signprep schema NAME` and `signprep schema --write DIR`.

use crate::exit::ExitStatus;
use clap::{Args, ValueEnum};
use signprep_pack::SchemaName;
use std::io::{self, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Which {
    /// The v1 pack body `signprep pack` writes.
    Pack,
    /// The manifest `signprep pack` reads.
    Manifest,
    /// One record of `signprep scan`.
    Scan,
    /// What `signprep pack --v0` writes.
    V0,
    /// What `signprep pack --populate` writes.
    Populate,
}

impl Which {
    fn name(self) -> SchemaName {
        match self {
            Which::Pack => SchemaName::Pack,
            Which::Manifest => SchemaName::Manifest,
            Which::Scan => SchemaName::Scan,
            Which::V0 => SchemaName::V0,
            Which::Populate => SchemaName::Populate,
        }
    }
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The schema to print.
    #[arg(value_enum, required_unless_present = "write")]
    pub which: Option<Which>,
    /// Write every schema as DIR/NAME.schema.json instead (as in docs/schema/).
    #[arg(long, value_name = "DIR", conflicts_with = "which")]
    pub write: Option<PathBuf>,
}

/// Exit status: 0, or 2 on an I/O failure.
pub fn run(args: &SchemaArgs) -> ExitStatus {
    let result = match (&args.write, args.which) {
        (Some(dir), _) => std::fs::create_dir_all(dir).and_then(|()| {
            SchemaName::ALL
                .iter()
                .try_for_each(|s| std::fs::write(dir.join(s.file_name()), s.text()))
        }),
        (None, Some(w)) => io::stdout().lock().write_all(w.name().text().as_bytes()),
        (None, None) => Ok(()),
    };
    match result {
        Ok(()) => ExitStatus::Success,
        Err(e) => crate::fail(&format!("cannot write the schema: {e}"), ExitStatus::Error),
    }
}
