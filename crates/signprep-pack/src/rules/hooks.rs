//! Webhook (v1) and subscription (v0) bodies.

use super::Ctx;
use super::values::{is_local_host, url_parts};
use crate::codes::{Finding, PackCode, pointer};
use crate::model::{Extra, report_extra};
use serde_json::Value;
use signprep_core::Severity;

/// Checks `{"client_id", "client_secret", "webhook": {entity_key, callback}}`
/// (or `"subscription"` for v0), or a webhook/subscription record.
pub(super) fn check(ctx: &mut Ctx<'_>, body: &Value, v1: bool) {
    let (inner_key, what) = if v1 {
        ("webhook", "webhook")
    } else {
        ("subscription", "subscription")
    };
    let Some(obj) = body.as_object() else {
        ctx.push(Finding::new(
            PackCode::BodyInvalid,
            format!("a {what} body is a JSON object"),
        ));
        return;
    };
    let (inner, at) = match obj.get(inner_key) {
        Some(v) => (v, pointer("", inner_key)),
        None => (body, String::new()),
    };
    let outer_keys: &[&str] = &["client_id", "client_secret", inner_key];
    if !at.is_empty() {
        let extra: Extra = obj
            .iter()
            .filter(|(k, _)| !outer_keys.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        report_extra(
            &extra,
            "",
            &format!("a {what} request"),
            outer_keys,
            &mut ctx.out,
        );
    }
    let Some(inner_obj) = inner.as_object() else {
        ctx.push(
            Finding::new(
                PackCode::BodyInvalid,
                format!("`{inner_key}` is not an object"),
            )
            .at(at),
        );
        return;
    };
    let mut known = vec![
        "entity_key",
        "callback",
        "key",
        "date_created",
        "date_updated",
    ];
    known.push(if v1 { "webhook_key" } else { "subscriber_key" });
    if at.is_empty() {
        known.extend(["client_id", "client_secret"]);
    }
    let extra: Extra = inner_obj
        .iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    report_extra(&extra, &at, &format!("a {what}"), &known, &mut ctx.out);

    let entity = inner_obj.get("entity_key").and_then(Value::as_str);
    if entity.is_none_or(|e| e.trim().is_empty()) {
        let target = if v1 { "document pack" } else { "document" };
        ctx.push(
            Finding::new(
                PackCode::EntityKeyMissing,
                format!("the {what} has no `entity_key`: the {target} to subscribe to"),
            )
            .at(if entity.is_some() {
                pointer(&at, "entity_key")
            } else {
                at.clone()
            })
            .hint(if v1 {
                "set it to the document pack's key (not a child document's key)"
            } else {
                "set it to the document's key"
            }),
        );
    }
    let callback_at = pointer(&at, "callback");
    let Some(callback) = inner_obj.get("callback").and_then(Value::as_str) else {
        ctx.push(
            Finding::new(
                PackCode::CallbackMissing,
                format!("the {what} has no `callback` URL"),
            )
            .at(at),
        );
        return;
    };
    let parts = url_parts(callback);
    if parts.as_ref().is_none_or(|(scheme, _)| scheme != "https") {
        let mut f = Finding::new(
            PackCode::CallbackNotHttps,
            format!("callback `{callback}` is not an https:// URL"),
        )
        .at(callback_at.clone())
        .hint("serve the endpoint over HTTPS (a tunnelling tool gives a public HTTPS address for local development)");
        if !v1 {
            f.severity = Severity::Warning;
            f.message.push_str("; v1 webhooks require HTTPS");
        }
        ctx.push(f);
    }
    if let Some((_, host)) = parts
        && is_local_host(&host)
    {
        ctx.push(
            Finding::new(
                PackCode::CallbackLocalhost,
                format!("callback `{callback}` points at this machine (`{host}`): the service cannot reach it"),
            )
            .at(callback_at)
            .hint("use the public HTTPS address of a tunnelling tool"),
        );
    }
}
