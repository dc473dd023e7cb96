//! The Rust side of the `signprep` npm package: a Node-API addon (napi-rs)
//! under a thin JavaScript layer (`index.js`, `index.mjs`), over the same
//! pack, template and core crates as the CLI and the Python package.
//!
//! Every function takes plain arguments (paths, bytes, option objects) and
//! gives the JSON text of the library's own serde serialisation, so a record
//! is byte for byte one `signprep scan --format ndjson` line; the JavaScript
//! layer parses it (`JSON.parse`), turns error records into `SignprepError`s,
//! reads option files and wires `AbortSignal`s to a `CancelToken`.
//!
//! # Threads
//! Nothing runs on the JavaScript thread but argument checks: a single call
//! is an `AsyncTask` whose libuv thread waits while the work runs on one
//! process-wide pool of signprep's own threads (`engine`); `scanMany` runs
//! the batch engine (`signprep_core::batch::Stream`, the CLI's) on a driver
//! thread of its own and hands records over through promises settled from it
//! (`batch`).
//!
//! # Features
//! * `scanPath`, `scanBuffer`, `Batch` (`scanMany`), `checkInput`,
//!   `packManifest`, `migrateInput` (with the stripped PDF), `explain`,
//!   `codes`, `findingSchema`.
//! * Templates (`.docx`, `.odt`) wherever a PDF is taken, converted by
//!   LibreOffice as the CLI converts them (`template`).
//! * Hints that name an option name it as JavaScript writes it
//!   (`signprep_pack::Surface::Node`).
//!
//! # Example
//! What `examples/readme.ts` runs (CI compiles it with `tsc --strict` and runs it):
//! ```js
//! import { scan } from "signprep";
//! const record = await scan("testdata/fixtures/base14_courier.pdf");
//! for (const tag of record.tags) console.log(tag.tag_id, tag.page, tag.x, tag.y);
//! ```

// `cargo clippy --all-targets` checks this crate as a test target too (`test = false`
// notwithstanding), and under `cfg(test)` napi-derive registers nothing with Node: every
// exported item would read as dead code there, and only there.
#![cfg_attr(test, allow(dead_code))]

mod batch;
mod check;
mod engine;
mod migrate;
mod scan;
mod tape;
mod template;

use napi_derive::napi;

/// jemalloc on Linux, as the CLI: the workers allocate in many small pieces (a key per
/// dictionary entry of every object parsed), where glibc's malloc costs 3-4% more CPU
/// (issue 36). Only Rust's allocations go through it; Node's own stay with glibc.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The package's version (the workspace's).
#[napi]
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The most worker threads a run may have (`scanMany`'s `jobs`): the core's bound.
#[napi]
pub fn max_jobs() -> u32 {
    u32::try_from(signprep_core::batch::MAX_JOBS).unwrap_or(u32::MAX)
}

/// The JSON Schema of a finding (`check`, `pack` and `migrate` give them),
/// as JSON text: what `scripts/gen-types.mjs` makes the `Finding` type from.
#[napi]
pub fn finding_schema() -> napi::Result<String> {
    let settings = schemars::generate::SchemaSettings::draft2020_12().for_serialize();
    let schema = schemars::SchemaGenerator::new(settings)
        .into_root_schema_for::<signprep_pack::Finding>()
        .to_value();
    engine::to_json(&schema)
}

/// Drops the LibreOffice converters kept for templates (their scratch folders
/// and profiles go with them): called by the JavaScript layer at exit.
#[napi]
pub fn release_converters() {
    template::release_converters();
}
