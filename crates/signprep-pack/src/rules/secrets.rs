//! Credentials that must stay on the server.

use super::Ctx;
use crate::codes::{Finding, FindingCode, PackCode, pointer};
use serde_json::Value;
use std::collections::BTreeSet;

/// Keys that hold a credential.
const SECRETS: &[&str] = &["client_secret", "api_key"];

/// `secret_in_body` for every credential key anywhere in `v` (under `at`).
pub(super) fn check(ctx: &mut Ctx<'_>, v: &Value, at: &str, what: &str) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                let here = pointer(at, k);
                if SECRETS.contains(&k.as_str()) {
                    ctx.push(
                        Finding::new(
                            PackCode::SecretInBody,
                            format!("`{k}` in {what}: credentials must stay on the server"),
                        )
                        .at(here.clone())
                        .hint("remove it; only the access-token and user endpoints take credentials, and the secret should be rotated if this body was shared"),
                    );
                }
                check(ctx, child, &here, what);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                check(ctx, child, &pointer(at, i), what);
            }
        }
        _ => {}
    }
}

/// Drops the `unknown_key` findings at the same pointer as a `secret_in_body`:
/// the specific finding says more than the generic one.
pub(super) fn drop_shadowed(out: &mut Vec<Finding>) {
    let secrets: BTreeSet<String> = out
        .iter()
        .filter(|f| f.code == FindingCode::Pack(PackCode::SecretInBody))
        .filter_map(|f| f.pointer.clone())
        .collect();
    if secrets.is_empty() {
        return;
    }
    out.retain(|f| {
        f.code != FindingCode::Pack(PackCode::UnknownKey)
            || f.pointer.as_ref().is_none_or(|p| !secrets.contains(p))
    });
}
