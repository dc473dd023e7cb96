//! Manifests: built as `signprep pack` builds them, with every finding located
//! in the manifest rather than in the pack it would make.

use super::Ctx;
use super::pack::{self, settings_rules_at};
use super::people::{self, Keys, Person, Policy};
use crate::codes::{Finding, FindingCode, PackCode};
use crate::ids::IdGenerator;
use crate::manifest::{Files, Manifest, ManifestField};
use crate::model::pack::{DocumentPack, LenientPack};
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `form_part_unused`: each PDF given with the manifest (a `pdf` part of
/// `signprep serve`'s form) that no document's `path` names. It is in no
/// pack; most often its name differs from the manifest's path by a letter.
fn unused_given(
    ctx: &mut Ctx<'_>,
    base: &Path,
    given: &crate::manifest::Given,
    children: &[(usize, Option<PathBuf>)],
) {
    for name in given.keys() {
        let path = base.join(name);
        if children
            .iter()
            .any(|(_, p)| p.as_deref() == Some(path.as_path()))
        {
            continue;
        }
        ctx.push(
            Finding::new(
                PackCode::FormPartUnused,
                format!(
                    "the PDF `{name}` given with the manifest is named by no document's `path`: it is not used"
                ),
            )
            .hint("name each PDF part as a `path` of the manifest names it, or leave it out"),
        );
    }
}

/// Checks a manifest; returns it as JSON (for looking pointers up) and, when
/// no finding is an error, the v1 pack it builds (signer UUIDs from `ids`).
///
/// This is the one verdict on a manifest: `signprep check` reports these
/// findings and `signprep pack` writes the pack only when none is an error.
pub(super) fn check(
    ctx: &mut Ctx<'_>,
    bytes: &[u8],
    path: &Path,
    ids: Box<dyn IdGenerator>,
    files: Files<'_>,
) -> (Option<Value>, Option<DocumentPack>) {
    let (text, encoding) = match crate::text::decode(bytes) {
        Ok(t) => t,
        Err(why) => {
            ctx.push(Finding::new(PackCode::ManifestInvalid, why));
            return (None, None);
        }
    };
    let text = text.as_ref();
    super::json::encoding(ctx, encoding, "the manifest");
    let json = is_json(text, path);
    let (source, parsed) = if json {
        let source = serde_json::from_str::<Value>(text).ok();
        if source.is_some() {
            super::json::duplicate_keys(ctx, text);
        }
        (
            source,
            Manifest::from_json(text).map_err(|e| crate::parse_error::json(&e)),
        )
    } else {
        (
            toml::from_str::<Value>(text).ok(),
            Manifest::from_toml(text).map_err(|e| crate::parse_error::toml(&e, text)),
        )
    };
    let manifest = match parsed {
        Ok(m) => m,
        Err(e) => {
            ctx.push(
                Finding::new(
                    PackCode::ManifestInvalid,
                    format!("not a valid manifest: {e}"),
                )
                .hint("see `signprep schema manifest` for the keys a manifest takes"),
            );
            return (source, None);
        }
    };
    let children = manifest.children_of(files);
    if let Files::Given(base, given) = files {
        unused_given(ctx, base, given, &children);
    }
    let builder = manifest
        .builder_in(files, ctx.label)
        .ids_boxed(ids)
        .load_options(ctx.checker.load.clone())
        .scanner(ctx.checker.scanner.clone())
        .converter(ctx.checker.converter.clone())
        .keep_scans();
    let built = builder.build_indexed();
    let pack = built.pack;
    let locate = Locate {
        manifest: &manifest,
        children: &children,
        built: &pack,
        given: &built.given,
        label: ctx.label,
    };
    for f in built.findings {
        ctx.push(locate.finding(f));
    }
    direct_rules(ctx, &manifest);
    field_rules(ctx, &pack, &locate, &built.scans);
    let written = !ctx.out.iter().any(Finding::is_error);
    (source, written.then_some(pack))
}

/// JSON when the file ends in `.json` or the text starts with `{`; TOML otherwise.
fn is_json(text: &str, path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        || text.trim_start().starts_with('{')
}

/// Rules the builder does not apply: people and settings, on the manifest itself.
fn direct_rules(ctx: &mut Ctx<'_>, m: &Manifest) {
    let mut people = Vec::new();
    for (i, s) in m.signers.iter().enumerate() {
        let name = s.name.as_deref().or(Some(s.handle.as_str()));
        let mut p = Person::new(format!("/signers/{i}"), true, i, name, s.email.as_deref());
        p.mobile = s.mobile_number.as_deref();
        p.channel = s.channel.as_ref();
        p.role = s.role.as_deref();
        p.keys = Keys::MANIFEST;
        people.push(p);
    }
    for (i, c) in m.cc.iter().enumerate() {
        let mut p = Person::new(
            format!("/cc/{i}"),
            false,
            i,
            c.name.as_deref(),
            c.email.as_deref(),
        );
        p.mobile = c.mobile_number.as_deref();
        p.keys = Keys::MANIFEST;
        people.push(p);
    }
    let policy = Policy {
        email_required: true,
        two_factor: m
            .signing
            .as_ref()
            .and_then(|s| s.use_two_factor_authentication)
            == Some(true),
        has_template: m.documents.iter().any(|d| d.template.is_some()),
        check_uuids: false,
    };
    people::check(&people, policy, &mut ctx.out);
    settings_rules_at(
        ctx,
        m.mail.as_ref().and_then(|x| x.reply_email.as_deref()),
        "/mail/reply_email",
        m.signing
            .as_ref()
            .and_then(|x| x.post_signing_url.as_deref()),
        "/signing/post_signing_url",
    );
}

/// The rules that need the fields placed: run on the pack the manifest builds,
/// located back in the manifest.
fn field_rules(
    ctx: &mut Ctx<'_>,
    pack: &DocumentPack,
    locate: &Locate<'_>,
    scanned: &[(Vec<u8>, signprep_core::Scan)],
) {
    const KEEP: &[PackCode] = &[
        PackCode::SignerWithoutSignatureField,
        PackCode::DataForSignatureField,
        PackCode::TagWithoutDataField,
    ];
    let Ok(value) = serde_json::to_value(pack) else {
        return;
    };
    let Ok(lenient) = LenientPack::deserialize(&value) else {
        return;
    };
    let mut sub = Ctx {
        checker: ctx.checker,
        base_dir: ctx.base_dir,
        label: ctx.label,
        out: Vec::new(),
        suggest_budget: ctx.suggest_budget,
        started: ctx.started,
        scanned,
    };
    pack::check(&mut sub, &lenient);
    ctx.suggest_budget = sub.suggest_budget;
    for mut f in sub.out {
        if matches!(f.code, FindingCode::Pack(c) if KEEP.contains(&c)) {
            // The built pack lacks the children that could not be read: its
            // `/documents/N` counts differently from the children given.
            f.pointer = f.pointer.map(|p| locate.given_place(&p));
            ctx.push(locate.finding(f));
        }
    }
}

/// Maps pointers into the built pack to pointers into the manifest.
struct Locate<'a> {
    manifest: &'a Manifest,
    children: &'a [(usize, Option<PathBuf>)],
    /// The pack as far as it was built: children that could not be read are
    /// left out of it.
    built: &'a DocumentPack,
    /// For each child of `built`, its place among the children given (which
    /// the findings' `/documents/N` count).
    given: &'a [usize],
    label: &'a str,
}

impl Locate<'_> {
    /// A pointer into the built pack with its child counted among the
    /// children given, as the builder's findings count them.
    fn given_place(&self, p: &str) -> String {
        let mut tokens = p.split('/').skip(1);
        if tokens.next() != Some("documents") {
            return p.to_string();
        }
        let Some(i) = tokens.next().and_then(|t| t.parse::<usize>().ok()) else {
            return p.to_string();
        };
        let Some(given) = self.given.get(i) else {
            return p.to_string();
        };
        let rest: String = tokens.map(|t| format!("/{t}")).collect();
        format!("/documents/{given}{rest}")
    }

    fn finding(&self, mut f: Finding) -> Finding {
        if f.file.as_deref() == Some(self.label) {
            // Located in the manifest already.
            f.file = None;
            return f;
        }
        let Some(p) = f.pointer.take() else {
            return f;
        };
        let (pointer, file) = self.pointer(&p);
        f.pointer = Some(pointer);
        if f.file.is_none() {
            f.file = file.map(|p| p.display().to_string());
        }
        f
    }

    fn pointer(&self, p: &str) -> (String, Option<&PathBuf>) {
        let tokens: Vec<&str> = p.split('/').skip(1).collect();
        let rest = |from: usize| -> String {
            tokens
                .get(from..)
                .unwrap_or_default()
                .iter()
                .map(|t| {
                    format!(
                        "/{}",
                        if *t == "primary_communication_channel" {
                            "channel"
                        } else {
                            t
                        }
                    )
                })
                .collect()
        };
        let simple = |to: &str| (format!("{to}{}", rest(1)), None);
        match tokens.as_slice() {
            ["document_pack_name", ..] => simple("/name"),
            ["signatories", ..] => simple("/signers"),
            ["cc_recipients", ..] => simple("/cc"),
            ["mail_settings", ..] => simple("/mail"),
            ["signing_settings", ..] => simple("/signing"),
            ["documents", i, tail @ ..] => {
                let Some(child) = i.parse::<usize>().ok() else {
                    return (p.to_string(), None);
                };
                let Some((k, file)) = self.children.get(child) else {
                    return (p.to_string(), None);
                };
                let (k, file) = (*k, file.as_ref());
                let entry = format!("/documents/{k}");
                let to = match tail {
                    [
                        "document_creation_settings",
                        "use_workspace_default_document_settings",
                        ..,
                    ] => "/use_workspace_defaults".to_string(),
                    ["data_fields", j, rest @ ..] => self
                        .field(child, k, j.parse().ok())
                        .map(|(at, pattern)| format!("{at}{}", field_key(rest, pattern)))
                        .unwrap_or(entry),
                    ["data_fields"] => format!("{entry}/fields"),
                    _ => entry,
                };
                (to, file)
            }
            _ => (p.to_string(), None),
        }
    }

    /// The manifest field behind data field `j` of child `child` (made by
    /// `[[documents]]` entry `k`), and whether it is a pattern (`match`).
    fn field(&self, child: usize, k: usize, j: Option<usize>) -> Option<(String, bool)> {
        let j = j?;
        let own = &self.manifest.documents.get(k)?.fields;
        let place = self.given.iter().position(|g| *g == child)?;
        let id = self
            .built
            .documents
            .as_ref()?
            .get(place)?
            .data_fields
            .as_ref()?
            .get(j)?
            .custom_id
            .as_deref()?;
        if let Some(m) = own.iter().position(|f| names(f, id)) {
            let pattern = own.get(m).is_some_and(|f| f.pattern.is_some());
            return Some((format!("/documents/{k}/fields/{m}"), pattern));
        }
        let m = self.manifest.fields.iter().position(|f| names(f, id))?;
        let pattern = self
            .manifest
            .fields
            .get(m)
            .is_some_and(|f| f.pattern.is_some());
        Some((format!("/fields/{m}"), pattern))
    }
}

/// The key of a manifest field that a data field's key comes from:
/// `signatory_uuid` from `signer`, `custom_id` from `custom_id` or `match`.
fn field_key(rest: &[&str], pattern: bool) -> String {
    match rest {
        ["signatory_uuid", ..] => "/signer".into(),
        ["custom_id", ..] if pattern => "/match".into(),
        ["custom_id", ..] => "/custom_id".into(),
        ["data", ..] => "/data".into(),
        _ => String::new(),
    }
}

/// True when a manifest field gives `id`: its custom_id, or its pattern matches.
fn names(f: &ManifestField, id: &str) -> bool {
    f.custom_id.as_deref() == Some(id)
        || f.pattern
            .as_deref()
            .and_then(|p| crate::datafields::NamePattern::new(p).ok())
            .is_some_and(|p| p.matches(id))
}
