//! `signprep schema NAME` and `signprep schema --write DIR`.

use crate::args::SchemaArgs;
use crate::exit::ExitStatus;
use signprep_pack::SchemaName;
use std::io::{self, Write};

/// Exit status: 0, or 2 on an I/O failure.
pub fn run(args: &SchemaArgs) -> ExitStatus {
    let result = match (&args.write, args.which) {
        (Some(dir), _) => std::fs::create_dir_all(dir)
            .map_err(|e| crate::atomic::cannot_create(dir, &e))
            .and_then(|()| {
                SchemaName::ALL.iter().try_for_each(|s| {
                    let path = dir.join(s.file_name());
                    crate::atomic::write(&path, s.text().as_bytes())
                        .map_err(|e| crate::atomic::cannot_write(&path, &e))
                })
            }),
        (None, Some(w)) => io::stdout()
            .lock()
            .write_all(w.name().text().as_bytes())
            .map_err(|e| format!("cannot write the schema: {e}")),
        (None, None) => Ok(()),
    };
    match result {
        Ok(()) => ExitStatus::Success,
        Err(e) => crate::exit::fail(&e, ExitStatus::Error),
    }
}
