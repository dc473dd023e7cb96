//! `signprep schema`.

use clap::{Args, ValueEnum};
use signprep_pack::SchemaName;
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
    pub fn name(self) -> SchemaName {
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
