//! `signprep check --format sarif`: one SARIF 2.1.0 log, as GitHub code
//! scanning (`github/codeql-action/upload-sarif`) and other SARIF viewers read it.
//!
//! - `tool.driver.rules`: the codes the results use, sorted, each with its
//!   `signprep explain` text and a `helpUri` to its anchor in docs/src/reference/diagnostics.md.
//! - `results`: one per finding, in input order; `level` from the severity
//!   (info is `note`); the location is the file (relative to the working
//!   folder, `uriBaseId` `%SRCROOT%`), with the line a JSON pointer lands on
//!   for bodies and manifests, and logical locations for the pointer, the page
//!   (1-based, `kind` `page`), the tag and the form field.
//! - Inputs that could not be checked are `toolExecutionNotifications`, and
//!   `executionSuccessful` is then false.
//!
//! Output is deterministic: no time stamps, no absolute paths of the working
//! folder, fields in a fixed order.

use super::ci::{Annotated, places, relative};
use super::record::Record;
use crate::batch::Summary;
use crate::explain_cmd::{DOCS_URL, describe};
use serde::Serialize;
use signprep_core::Severity;
use std::collections::BTreeMap;
use std::io::{self, Write};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Results gathered until the log is written whole at the end.
#[derive(Debug, Default)]
pub struct Sarif {
    results: Vec<SarifResult>,
    notifications: Vec<Notification>,
}

impl Sarif {
    pub fn record(&mut self, r: &Record) {
        if let Some(e) = &r.error {
            let path = relative(&r.path);
            self.notifications.push(Notification {
                level: "error",
                message: Text::new(format!("{}: {}", path, e.message)),
                descriptor: Descriptor {
                    id: e.code.as_str().to_string(),
                },
                locations: vec![Location::file(&path, None)],
            });
            return;
        }
        for a in places(r) {
            self.results.push(result(&a));
        }
    }

    pub fn finish(&mut self, out: &mut impl Write, _summary: &Summary) -> io::Result<()> {
        let mut codes: Vec<&str> = self.results.iter().map(|r| r.rule_id.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        let rules: Vec<Rule> = codes.iter().map(|c| rule(c)).collect();
        let index: BTreeMap<String, usize> = codes
            .iter()
            .enumerate()
            .map(|(i, c)| (c.to_string(), i))
            .collect();
        let mut results = std::mem::take(&mut self.results);
        for r in &mut results {
            r.rule_index = index.get(&r.rule_id).copied().unwrap_or(0);
        }
        let notifications = std::mem::take(&mut self.notifications);
        let log = Log {
            schema: SCHEMA,
            version: "2.1.0",
            runs: [Run {
                tool: Tool {
                    driver: Driver {
                        name: "signprep",
                        version: env!("CARGO_PKG_VERSION"),
                        semantic_version: env!("CARGO_PKG_VERSION"),
                        information_uri: env!("CARGO_PKG_REPOSITORY"),
                        rules,
                    },
                },
                invocations: [Invocation {
                    execution_successful: notifications.is_empty(),
                    tool_execution_notifications: notifications,
                }],
                results,
            }],
        };
        serde_json::to_writer_pretty(&mut *out, &log)?;
        out.write_all(b"\n")
    }
}

fn result(a: &Annotated<'_>) -> SarifResult {
    let f = &a.finding.finding;
    let p = &a.place;
    let mut text = f.message.clone();
    let at = p.describe(a.finding);
    if !at.is_empty() {
        text.push_str(&format!(" ({at})"));
    }
    if let Some(h) = &f.hint {
        text.push_str(&format!("\nhint: {h}"));
    }
    let mut location = Location::file(&p.path, p.line);
    if let Some(ptr) = p.pointer.as_deref().filter(|ptr| !ptr.is_empty()) {
        location.logical_locations.push(Logical {
            name: None,
            fully_qualified_name: Some(match &p.input {
                Some(input) => format!("{input}#{ptr}"),
                None => ptr.to_string(),
            }),
            kind: "value",
        });
    }
    if let Some(page) = p.page {
        location.logical_locations.push(Logical {
            name: Some(format!("page {}", page + 1)),
            fully_qualified_name: None,
            kind: "page",
        });
    }
    for (name, kind) in [(&f.tag, "tag"), (&f.field, "formField")] {
        if let Some(n) = name {
            location.logical_locations.push(Logical {
                name: Some(n.clone()),
                fully_qualified_name: None,
                kind,
            });
        }
    }
    SarifResult {
        rule_id: f.code.as_str().to_string(),
        rule_index: 0,
        level: level(f.severity),
        message: Text::new(text),
        locations: vec![location],
        partial_fingerprints: BTreeMap::from([("signprep/v1", a.fingerprint.clone())]),
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn rule(code: &str) -> Rule {
    let doc = describe(code);
    let text = doc.as_ref().map(|d| d.doc.clone()).unwrap_or_default();
    let paragraph = text
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let sentence = match paragraph.find(". ") {
        Some(i) => paragraph.get(..=i).unwrap_or(&paragraph).to_string(),
        None => paragraph.clone(),
    };
    Rule {
        id: code.to_string(),
        short_description: Text::new(sentence),
        full_description: Text::new(paragraph),
        help: Help {
            text: text.clone(),
            markdown: text,
        },
        help_uri: format!("{DOCS_URL}#{code}"),
        default_configuration: Configuration {
            level: match doc.as_ref().map(|d| d.severity) {
                Some("warning") => "warning",
                Some("info") => "note",
                _ => "error",
            },
        },
        properties: Properties {
            tags: doc.map(|d| vec![d.section]).unwrap_or_default(),
        },
    }
}

/// A relative path as a URI reference: `/` kept, everything outside RFC 3986's
/// unreserved and sub-delimiter characters percent-encoded (UTF-8).
fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[derive(Debug, Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run; 1],
}

#[derive(Debug, Serialize)]
struct Run {
    tool: Tool,
    invocations: [Invocation; 1],
    results: Vec<SarifResult>,
}

#[derive(Debug, Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    help_uri: String,
    default_configuration: Configuration,
    properties: Properties,
}

#[derive(Debug, Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Debug, Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Debug, Serialize)]
struct Properties {
    tags: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
struct Text {
    text: String,
}

impl Text {
    fn new(text: String) -> Self {
        Text { text }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Debug, Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
    descriptor: Descriptor,
    locations: Vec<Location>,
}

#[derive(Debug, Serialize)]
struct Descriptor {
    id: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: Physical,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<Logical>,
}

impl Location {
    /// `path` (as [`relative`] gives it) with an optional 1-based line.
    fn file(path: &str, line: Option<usize>) -> Self {
        let artifact = if path.starts_with('/') {
            ArtifactLocation {
                uri: format!("file://{}", uri(path)),
                uri_base_id: None,
            }
        } else {
            ArtifactLocation {
                uri: uri(path),
                uri_base_id: Some("%SRCROOT%"),
            }
        };
        Location {
            physical_location: Physical {
                artifact_location: artifact,
                region: line.map(|start_line| Region { start_line }),
            },
            logical_locations: Vec::new(),
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Physical {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Logical {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fully_qualified_name: Option<String>,
    kind: &'static str,
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri("a b/c#d%.pdf"), "a%20b/c%23d%25.pdf");
        assert_eq!(uri("contrat-é.pdf"), "contrat-%C3%A9.pdf");
    }
}
