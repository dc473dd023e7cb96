//! Where a v0 data field is placed: `x`, `y`, `width` and `height` in
//! page-stacked pixels (`y` from the top of page 0, the pages one under the
//! other, as a scan's `y_offset` stacks them). Each must be a finite number,
//! none negative, the size above 0; with the PDF at hand (a plan's
//! `upload`), the box must lie on the page its `y` falls on.

use super::Ctx;
use crate::codes::{Finding, PackCode, pointer};
use serde_json::Value;
use signprep_core::PageInfo;

/// Checks the placed data fields of the v0 body `body` (at `at`), against
/// `pages` (the uploaded PDF's, scanned) when given.
pub(super) fn check(ctx: &mut Ctx<'_>, body: &Value, at: &str, pages: Option<&[PageInfo]>) {
    let Some(fields) = body.get("data_fields").and_then(Value::as_array) else {
        return;
    };
    for (j, field) in fields.iter().enumerate() {
        let fat = pointer(&pointer(at, "data_fields"), j);
        let Some(obj) = field.as_object() else {
            continue;
        };
        let mut ok = true;
        let mut number = |key: &str| -> Option<f64> {
            let v = obj.get(key)?;
            let place = pointer(&fat, key);
            let bad = |why: String| {
                Finding::new(PackCode::DataFieldPositionInvalid, format!("`{key}` {why}"))
                    .at(place.clone())
                    .hint("give `x`, `y`, `width` and `height` as numbers of pixels, 0 or more (the size above 0), or leave them out")
            };
            let Some(n) = v.as_f64().filter(|n| n.is_finite()) else {
                ctx.push(bad(format!(
                    "is {}, not a number: the field cannot be placed",
                    shown(v)
                )));
                ok = false;
                return None;
            };
            let size = matches!(key, "width" | "height");
            if n < 0.0 || (size && n == 0.0) {
                let why = match (size, n == 0.0) {
                    (true, true) => "is 0: the field has no size".to_string(),
                    (true, false) => format!("is {n}, negative: the field has no size"),
                    _ => format!("is {n}, negative: the field would be off the page"),
                };
                ctx.push(bad(why));
                ok = false;
                return None;
            }
            Some(n)
        };
        let (x, y) = (number("x"), number("y"));
        let (width, height) = (number("width"), number("height"));
        if !ok {
            continue;
        }
        if let (Some(pages), Some(y)) = (pages, y) {
            on_page(ctx, &fat, pages, x, y, width, height);
        }
    }
}

/// `data_field_off_page` when the box (`y` and the rest) leaves the page `y`
/// falls on.
fn on_page(
    ctx: &mut Ctx<'_>,
    fat: &str,
    pages: &[PageInfo],
    x: Option<f64>,
    y: f64,
    width: Option<f64>,
    height: Option<f64>,
) {
    let off = |key: &str, message: String| {
        Finding::new(PackCode::DataFieldOffPage, message)
            .at(pointer(fat, key))
            .hint("`y` counts from the top of page 1, the pages stacked one under the other; x from the left edge, in the pixels of the scan (72 dpi)")
    };
    let Some(page) = pages
        .iter()
        .find(|p| y >= p.y_offset && y < p.y_offset + p.height)
    else {
        let end = pages.last().map_or(0.0, |p| p.y_offset + p.height);
        let pdf = match pages {
            [one] => format!("the PDF's one page is {} x {} px", one.width, one.height),
            _ => format!("the PDF's {} pages stacked are {end} px high", pages.len()),
        };
        ctx.push(off(
            "y",
            format!("`y` is {y}, past the foot of the last page: {pdf}"),
        ));
        return;
    };
    let n = page.index + 1;
    let size = format!("{} x {} px", page.width, page.height);
    let foot = page.y_offset + page.height;
    if let Some(x) = x {
        let right = x + width.unwrap_or(0.0);
        if x >= page.width || right > page.width {
            let key = if x >= page.width { "x" } else { "width" };
            ctx.push(off(
                key,
                format!(
                    "the field runs from x {x} to {right}, past the right edge of page {n} ({size})"
                ),
            ));
        }
    }
    if let Some(h) = height
        && y + h > foot
    {
        ctx.push(off(
            "height",
            format!(
                "the field runs from y {y} to {}, past the foot of page {n} ({size}, from y {} to {foot})",
                y + h,
                page.y_offset
            ),
        ));
    }
}

/// A JSON value as a user wrote it, short.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string {:?}", s.chars().take(40).collect::<String>()),
        other => other.to_string(),
    }
}
