//! The HTML of `signprep report`: one self-contained page (inline CSS, a few
//! lines of inline JS, images as `data:` URLs), locked down by a
//! Content-Security-Policy that refuses anything from outside, so a report
//! that tried to load a resource would fail loudly in the browser console
//! (`.ci/chromium-check` fails on that).

use signprep_core::{Diagnostic, Scan, Severity};
use signprep_render::Overlay;
use std::fmt::Write as _;

/// One line of the files table (and the key of its section).
#[derive(Debug)]
pub struct Row {
    /// Position in the batch; the section's anchor is `f{id}`.
    pub id: usize,
    /// The path as given (named in the messages on stderr).
    pub path: String,
    /// The path below the inputs' common folder, as the page shows it.
    pub name: String,
    /// `ok` or the error record's code.
    pub status: String,
    pub pages: usize,
    pub tags: usize,
    pub fields: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Distinct finding codes, sorted.
    pub codes: Vec<String>,
    /// Lower-case text the filter searches: path, ids, field names, codes.
    pub search: String,
}

impl Row {
    fn has_findings(&self) -> bool {
        self.status != "ok" || self.errors + self.warnings > 0
    }
}

/// A page image, or why it could not be drawn.
#[derive(Debug)]
pub enum PageImage {
    Png {
        base64: String,
        width: u32,
        height: u32,
        /// A page with no tag or field, drawn small.
        thumb: bool,
    },
    Failed(String),
}

/// What a file's section shows.
#[derive(Debug)]
pub enum Detail<'a> {
    /// The file could not be scanned.
    Failed { message: &'a str },
    /// The scan, the overlays of its pages and the images drawn.
    Scanned {
        scan: &'a Scan,
        overlays: &'a [Overlay],
        images: &'a [(usize, PageImage)],
        /// How many pages were looked at for drawing (`--max-pages`).
        considered: usize,
    },
}

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Fits a 1,280 px window: the files table is as wide as the page with fixed
/// column shares, and long names and codes wrap anywhere rather than widen it.
const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.5em}h2{font-size:1.15em;margin:1.6em 0 .4em;word-break:break-all}\
table{border-collapse:collapse;margin:.5em 0;max-width:100%}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;overflow-wrap:anywhere}\
#files{table-layout:fixed;width:100%}#files col.file{width:34%}#files col.status{width:9%}#files col.n{width:6.5%}\
th{background:#f0f0f0}td.n{text-align:right}li,code{overflow-wrap:anywhere}\
figure.thumb figcaption{max-width:10em}.error{color:#b3191b}.warning{color:#9a6400}.info{color:#555}\
.controls{margin:1em 0;position:sticky;top:0;background:#fff;padding:.4em 0}\
#filter{width:24em;padding:3px}#shown{margin-left:1em;color:#555}.pages{display:flex;flex-wrap:wrap;gap:12px}\
figure{margin:0}img{max-width:100%;height:auto;border:1px solid #bbb}figcaption{color:#555;font-size:12px}\
section{border-top:2px solid #ddd}code{font-size:13px}.hidden{display:none}";

/// Filters the table and the sections: text search (prefilled from a
/// `#q=TEXT` link) and "only files with findings".
const SCRIPT: &str = r##"(function () {
  var q = document.getElementById("filter"), only = document.getElementById("only-findings"),
      count = document.getElementById("shown"), rows = document.querySelectorAll("tr[data-key]");
  function apply() {
    var text = q.value.trim().toLowerCase(), shown = 0;
    rows.forEach(function (row) {
      var show = row.dataset.search.indexOf(text) >= 0 && (!only.checked || row.dataset.findings === "1");
      row.classList.toggle("hidden", !show);
      document.getElementById(row.dataset.key).classList.toggle("hidden", !show);
      if (show) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " files shown";
  }
  if (location.hash.indexOf("#q=") === 0) { q.value = decodeURIComponent(location.hash.slice(3)); }
  q.addEventListener("input", apply);
  only.addEventListener("change", apply);
  apply();
})();"##;

/// Everything before the sections: head, summary, controls and the files table.
pub fn head(rows: &[Row], dpi: f64, root: Option<&str>) -> String {
    let mut h = String::new();
    let total = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>signprep report</title>\n<style>{STYLE}</style></head>\n<body>\n\
         <h1>signprep report</h1>\n<p>{} files ({} could not be scanned), {} pages, {} tags, {} form fields; \
         <span class=\"error\">{} errors</span>, <span class=\"warning\">{} warnings</span>, {} notes. \
         Page images at {} dpi where there are tags or fields, thumbnails of pages with findings of their own and of a file's first page, no other pages; boxes in the \
         coordinates <code>signprep scan --dpi {}</code> reports. signprep {}.</p>\n",
        rows.len(),
        rows.iter().filter(|r| r.status != "ok").count(),
        total(|r| r.pages),
        total(|r| r.tags),
        total(|r| r.fields),
        total(|r| r.errors),
        total(|r| r.warnings),
        total(|r| r.infos),
        dpi,
        dpi,
        env!("CARGO_PKG_VERSION"),
    );
    if let Some(root) = root {
        let _ = writeln!(h, "<p>Files in <code>{}</code>.</p>", esc(root));
    }
    h.push_str(
        "<div class=\"controls\"><input id=\"filter\" type=\"search\" \
         placeholder=\"Filter: file, tag id, field name or code\" aria-label=\"Filter\"> \
         <label><input type=\"checkbox\" id=\"only-findings\"> only files with errors or warnings</label> \
         <span id=\"shown\"></span></div>\n<table id=\"files\"><colgroup><col class=\"file\">\
         <col class=\"status\"><col class=\"n\"><col class=\"n\"><col class=\"n\"><col class=\"n\">\
         <col class=\"n\"><col></colgroup><thead><tr><th>file</th><th>status</th>\
         <th>pages</th><th>tags</th><th>fields</th><th>errors</th><th>warnings</th><th>findings</th>\
         </tr></thead><tbody>\n",
    );
    for r in rows {
        let _ = writeln!(
            h,
            "<tr data-key=\"f{id}\" data-findings=\"{fl}\" data-search=\"{search}\"><td><a href=\"#f{id}\">{path}</a></td>\
             <td{scls}>{status}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n{ecls}\">{}</td><td class=\"n{wcls}\">{}</td><td>{codes}</td></tr>",
            r.pages,
            r.tags,
            r.fields,
            r.errors,
            r.warnings,
            id = r.id,
            fl = u8::from(r.has_findings()),
            search = esc(&r.search),
            path = esc(&r.name),
            scls = if r.status == "ok" {
                ""
            } else {
                " class=\"error\""
            },
            status = esc(&r.status),
            ecls = if r.errors > 0 { " error" } else { "" },
            wcls = if r.warnings > 0 { " warning" } else { "" },
            codes = esc(&r.codes.join(", ")),
        );
    }
    h.push_str("</tbody></table>\n");
    h
}

/// One file's section: findings, the tags and fields, the page images.
pub fn section(row: &Row, detail: &Detail<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "<section id=\"f{}\"><h2>{}</h2>", row.id, esc(&row.name));
    match detail {
        Detail::Failed { message } => {
            let _ = writeln!(
                s,
                "<p class=\"error\">Not scanned: <code>{}</code> {}</p>",
                esc(&row.status),
                esc(message)
            );
        }
        Detail::Scanned {
            scan,
            overlays,
            images,
            considered,
        } => {
            findings(&mut s, &scan.diagnostics);
            items(&mut s, scan, overlays);
            let mut left_out = Vec::new();
            let empty = considered.saturating_sub(images.len());
            if empty > 0 {
                let other = if images.is_empty() { "" } else { "other " };
                left_out.push(format!(
                    "{empty} {other}{} with no tag, field or finding",
                    if empty == 1 { "page" } else { "pages" }
                ));
            }
            if *considered < scan.pages.len() {
                left_out.push(format!(
                    "{} after the first {considered} (<code>--max-pages</code>)",
                    plural_pages(scan.pages.len() - considered)
                ));
            }
            if !left_out.is_empty() {
                let _ = writeln!(
                    s,
                    "<p>Not drawn: {}; <code>signprep preview</code> draws any page.</p>",
                    left_out.join("; ")
                );
            }
            s.push_str("<div class=\"pages\">\n");
            for (page, img) in *images {
                match img {
                    PageImage::Png {
                        base64,
                        width,
                        height,
                        thumb: false,
                    } => {
                        let _ = writeln!(
                            s,
                            "<figure><img src=\"data:image/png;base64,{base64}\" width=\"{width}\" height=\"{height}\" \
                             loading=\"lazy\" decoding=\"async\" \
                             alt=\"page {p} of {path} with its tags and fields boxed\"><figcaption>page {p}</figcaption></figure>",
                            p = page + 1,
                            path = esc(&row.name),
                        );
                    }
                    PageImage::Png {
                        base64,
                        width,
                        height,
                        thumb: true,
                    } => {
                        let _ = writeln!(
                            s,
                            "<figure class=\"thumb\"><img src=\"data:image/png;base64,{base64}\" width=\"{width}\" height=\"{height}\" \
                             loading=\"lazy\" decoding=\"async\" \
                             alt=\"page {p} of {path}, small: no tag or field on it\"><figcaption>page {p} (no tags or fields)</figcaption></figure>",
                            p = page + 1,
                            path = esc(&row.name),
                        );
                    }
                    PageImage::Failed(e) => {
                        let _ = writeln!(
                            s,
                            "<p class=\"error\">page {}: not drawn: {}</p>",
                            page + 1,
                            esc(e)
                        );
                    }
                }
            }
            s.push_str("</div>\n");
        }
    }
    s.push_str("</section>\n");
    s
}

fn plural_pages(n: usize) -> String {
    if n == 1 {
        "1 page".into()
    } else {
        format!("{n} pages")
    }
}

fn findings(s: &mut String, diags: &[Diagnostic]) {
    if diags.is_empty() {
        s.push_str("<p>No findings.</p>\n");
        return;
    }
    s.push_str("<ul class=\"findings\">\n");
    for d in diags {
        // A template's finding leads with its place there, where its author fixes it.
        let place = d
            .source
            .as_ref()
            .map(ToString::to_string)
            .filter(|p| !d.message.starts_with(p.as_str()))
            .map_or_else(String::new, |p| {
                format!("<span class=\"source\">{}</span>: ", esc(&p))
            });
        let _ = write!(
            s,
            "<li class=\"{sev}\"><b>{sev}</b> <code>{}</code> {place}{}",
            d.code,
            esc(&d.message),
            sev = d.severity,
        );
        if let Some(h) = &d.hint {
            let _ = write!(s, " <i>({})</i>", esc(h));
        }
        s.push_str("</li>\n");
    }
    s.push_str("</ul>\n");
}

fn items(s: &mut String, scan: &Scan, overlays: &[Overlay]) {
    if scan.tags.is_empty() && scan.fields.is_empty() {
        s.push_str("<p>No tags or form fields.</p>\n");
        return;
    }
    s.push_str(
        "<table class=\"items\"><thead><tr><th>page</th><th>tag or field</th><th>type</th><th>signer</th>\
         <th>x</th><th>y</th><th>width</th><th>height</th><th>findings</th></tr></thead><tbody>\n",
    );
    for o in overlays {
        let y_offset = scan.pages.get(o.page).map_or(0.0, |p| p.y_offset);
        for b in &o.boxes {
            let cls = match b.severity {
                Some(Severity::Error) => " class=\"error\"",
                Some(Severity::Warning) => " class=\"warning\"",
                _ => "",
            };
            let codes: Vec<&str> = b.codes.iter().map(|c| c.as_str()).collect();
            let _ = writeln!(
                s,
                "<tr{cls}><td class=\"n\">{}</td><td><code>{}</code>{}</td><td>{}</td><td>{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                o.page + 1,
                esc(&b.label),
                if b.hidden { " (hidden)" } else { "" },
                esc(&b.kind_label),
                esc(b.signer.as_deref().unwrap_or("")),
                b.x,
                // The service's page-stacked y, as `scan` reports it.
                (100.0 * (b.y + y_offset)).round() / 100.0,
                b.width,
                b.height,
                esc(&codes.join(", ")),
            );
        }
    }
    for f in scan.fields.iter().filter(|f| f.page.is_none()) {
        let _ = writeln!(
            s,
            "<tr><td>-</td><td><code>{}</code></td><td>{}</td><td></td><td colspan=\"5\">on no page</td></tr>",
            esc(&f.name),
            f.kind.map_or("", |k| k.as_str()),
        );
    }
    s.push_str("</tbody></table>\n");
}

/// The end of the page: the filter script.
pub fn tail() -> String {
    format!("<script>\n{SCRIPT}\n</script>\n</body></html>\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
