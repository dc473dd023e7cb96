//! Request plans: a body with the method, path and query flags to send it with.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One request to make: `method path?query` with `body`, then (v0 own-PDF flow)
/// the PDF at `upload` to the returned `temp_upload_url_10_min`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request<B> {
    /// HTTP method.
    pub method: String,
    /// Path relative to the base URL, with its version prefix.
    pub path: String,
    /// Query flags.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub query: BTreeMap<String, bool>,
    /// JSON body.
    pub body: B,
    /// The PDF to upload to `temp_upload_url_10_min` afterwards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upload: Option<String>,
}

/// The requests `signprep pack --v0` and `--populate` write, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Requests<B> {
    /// The requests.
    pub requests: Vec<Request<B>>,
}

impl<B> Requests<B> {
    /// Rewrites each `upload`, a path from the working folder (as the builder
    /// and [`crate::Migrator`] write it), for a plan written into the folder
    /// `plan_dir` ([`crate::upload_path`]: relative to that folder; absolute
    /// for `None`, standard output), so the plan is read the same from any
    /// working folder.
    pub fn place_uploads(&mut self, plan_dir: Option<&Path>) {
        for r in &mut self.requests {
            if let Some(u) = &mut r.upload {
                *u = crate::upload_path(Path::new(u.as_str()), plan_dir);
            }
        }
    }
}
