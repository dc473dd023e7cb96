//! The command line as clap sees it, with the examples that end each
//! subcommand's `--help` (and its man page): one place, used by the parser,
//! `signprep completions` and `signprep man`.

use clap::CommandFactory;

/// One example: `(command line, what it does)`.
type Example = (&'static str, &'static str);

/// Per subcommand, its page of the guide (`docs/src/PAGE.md`) and two to four examples.
const EXAMPLES: &[(&str, &str, &[Example])] = &[
    (
        "scan",
        "scanning",
        &[
            (
                "signprep scan contracts/",
                "every PDF under contracts/, as a table on a terminal",
            ),
            (
                "signprep scan contracts/ --format json --data-fields > scan.json",
                "one JSON document, with the service's data fields",
            ),
            (
                "find . -name '*.pdf' -newer last-run | signprep scan --files-from -",
                "the files a pipe names",
            ),
            (
                "signprep scan /mnt/contracts --shard 2/4 --skip-done report.ndjson",
                "one machine's quarter, resuming a killed run",
            ),
        ],
    ),
    (
        "pack",
        "requests",
        &[
            (
                "signprep pack pack.toml -o pack.json",
                "the v1 document pack body",
            ),
            (
                "signprep pack pack.toml --v0 -o v0.json",
                "the v0 requests, one per PDF",
            ),
            (
                "signprep pack pack.toml --populate TPL_PRICING",
                "a populate-syntax copy of a template",
            ),
        ],
    ),
    (
        "migrate",
        "migrate/index",
        &[
            (
                "signprep migrate contract.pdf --signer signer1=client@example.com > contract.json",
                "one PDF's request on standard output",
            ),
            (
                "signprep migrate templates/ --dialect adobe --signers signers.toml -o migrated/",
                "a folder of Adobe Sign templates, one request file each",
            ),
            (
                "signprep check migrated/",
                "then check the requests like any other body",
            ),
        ],
    ),
    (
        "schema",
        "reference/schemas",
        &[
            ("signprep schema pack", "the JSON Schema of a pack body"),
            (
                "signprep schema --write docs/schema",
                "every schema, one file each",
            ),
        ],
    ),
    (
        "check",
        "preflight",
        &[
            (
                "signprep check pack.json",
                "one body, compiler-style on a terminal",
            ),
            (
                "signprep check . --deny warnings",
                "every PDF, body and manifest here; warnings fail too",
            ),
            (
                "signprep check requests/ --format sarif > signprep.sarif",
                "for GitHub code scanning",
            ),
            (
                "signprep check requests/ --format gitlab > gl-code-quality.json",
                "for a GitLab Code Quality report",
            ),
        ],
    ),
    (
        "explain",
        "reference/diagnostics",
        &[
            (
                "signprep explain custom_id_not_in_document",
                "what a finding means",
            ),
            (
                "signprep explain --list",
                "every code, its severity and section",
            ),
        ],
    ),
    (
        "preview",
        "preview",
        &[
            (
                "signprep preview contract.pdf -o previews --pages 1-2",
                "pages 1 and 2 as PNGs",
            ),
            (
                "signprep preview --manifest pack.toml -o previews",
                "every PDF child of the pack a manifest makes",
            ),
            (
                "signprep preview --pack pack.json -o previews --overlay-json",
                "a written pack's children, with the boxes as JSON too",
            ),
        ],
    ),
    (
        "report",
        "preview",
        &[
            (
                "signprep report contracts/ -o report.html",
                "one HTML file for a folder",
            ),
            (
                "signprep report a.pdf b.pdf --max-pages 0",
                "tables only, no page images",
            ),
        ],
    ),
    (
        "serve",
        "server",
        &[
            (
                "signprep serve --addr 127.0.0.1:8080 --jobs 2",
                "the API on localhost (the URL is printed on stderr)",
            ),
            (
                "curl -sS -H 'Content-Type: application/pdf' --data-binary @contract.pdf localhost:8080/v1/scan",
                "a PDF's scan record",
            ),
            (
                "signprep serve --addr 0.0.0.0:8080 --token-file /etc/signprep/token",
                "on the network, behind a proxy, with a bearer token",
            ),
        ],
    ),
    (
        "completions",
        "getting-started",
        &[
            (
                "signprep completions bash > ~/.local/share/bash-completion/completions/signprep",
                "bash",
            ),
            (
                "signprep completions zsh > ~/.zfunc/_signprep",
                "zsh (with ~/.zfunc in $fpath)",
            ),
            (
                "signprep completions fish > ~/.config/fish/completions/signprep.fish",
                "fish",
            ),
            ("signprep completions powershell >> $PROFILE", "PowerShell"),
        ],
    ),
    (
        "man",
        "getting-started",
        &[
            ("signprep man | man -l -", "read the manual page now"),
            (
                "signprep man --out-dir /usr/local/share/man/man1",
                "install a page for signprep and each subcommand",
            ),
        ],
    ),
];

/// The line that ends a subcommand's help: where its guide page is (`docs/src/PAGE.md`,
/// built as `docs/book/PAGE.html`; tests/book.rs checks every page named exists).
fn guide_line(page: &str) -> String {
    format!("Guide: docs/book/{page}.html (source: docs/src/{page}.md)")
}

/// The `signprep` command with every subcommand's examples and guide page.
pub fn command() -> clap::Command {
    let mut cmd = crate::args::Cli::command();
    let header = cmd.get_styles().get_header().to_owned();
    for (name, page, examples) in EXAMPLES {
        // `preview` and `report` are missing without the `render` feature, `serve` without `serve`.
        if cmd.find_subcommand(name).is_none() {
            continue;
        }
        let mut text = format!("{}Examples:{}", header.render(), header.render_reset());
        for (line, what) in *examples {
            text.push_str(&format!("\n  # {what}\n  {line}"));
        }
        text.push_str(&format!("\n\n{}", guide_line(page)));
        cmd = cmd.mut_subcommand(*name, |c| c.after_help(text));
    }
    cmd.mut_subcommand("migrate", |c| {
        let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
        c.long_about(format!("{about}\n\n{}", migrate_long_help()))
    })
}

/// What `signprep migrate --help` says beyond the options: the output, and
/// the table of vendor kinds to the service's types.
fn migrate_long_help() -> String {
    format!(
        "Each PDF becomes one request plan (`{{\"requests\": [...]}}`, as `pack --v0` writes): \
POST /v0/documents with a v0 body whose data_fields carry x, y, width, height (page-stacked \
pixels, the box the vendor would give the field, as `scan --dialect` reports it), type, \
required, description (the vendor's label), custom_id (its id or name), options_as_csv and \
signatory_uuid (derived from the PDF and the signer, so runs are identical), and `upload`: the \
PDF, to be uploaded to the `temp_upload_url_10_min` the create call returns (own-PDF flow), \
written from the plan's folder (--out), or absolute on standard output. \
Signers come from --signer/--signers; a vendor signer with no email is still a signatory \
(migrate_signer_unmapped). A signer map entry whose address check would reject \
(email_invalid) or that names a signer the PDF does not have (migrate_signer_unknown) is an \
error, as is a PDF with no field to place (migrate_no_fields): nothing is written for it.\n\n\
Vendor field kind -> service type (the specification shows `signature` and `text` only; \
anything else is reported as migrate_type_unmapped and left out, not guessed):\n{}",
        signprep_pack::migrate::type_table_text()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subcommand_has_two_to_four_examples() {
        let cmd = command();
        let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        for name in &names {
            let n = EXAMPLES
                .iter()
                .find(|(n, _, _)| n == name)
                .map_or(0, |(_, _, e)| e.len());
            assert!((2..=4).contains(&n), "`{name}` has {n} examples");
        }
        for (name, _, _) in EXAMPLES {
            #[cfg(not(feature = "render"))]
            if matches!(*name, "preview" | "report") {
                continue;
            }
            #[cfg(not(feature = "serve"))]
            if *name == "serve" {
                continue;
            }
            assert!(names.contains(name), "examples for no subcommand `{name}`");
        }
        cmd.debug_assert();
    }
}
