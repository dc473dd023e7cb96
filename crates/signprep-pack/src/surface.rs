//! Which front end a hint is written for: a hint that names an option names it as the caller
//! writes it (`--signer` on the command line, the `signer` query parameter over HTTP, the
//! `signers=` argument in Python). A leaf: it imports nothing of the crate.

/// The front end whose words a hint uses when it names an option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Surface {
    /// The `signprep` command line: `--signer KEY=EMAIL`.
    #[default]
    Cli,
    /// `signprep serve`: query parameters, `signer=KEY=EMAIL`.
    Http,
    /// The Python package: keyword arguments, `signers={"KEY": "EMAIL"}`.
    Python,
    /// The Node.js package: option objects, `signers: { "KEY": "EMAIL" }`.
    Node,
}

/// An option a hint can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opt {
    /// `migrate --signer KEY=EMAIL`.
    Signer,
    /// `migrate --map-type KIND=TYPE`.
    MapType,
    /// `--dialect LIST`.
    Dialect,
    /// `check --kind KIND`.
    Kind,
    /// `check --template FILE` (the server takes none).
    Template,
}

impl Surface {
    /// The option with a value, in backticks, as this front end writes it. `key` and
    /// `value` are a pair's two sides (`KEY=EMAIL`); `value` alone for a plain option.
    pub(crate) fn option(self, opt: Opt, key: Option<&str>, value: &str) -> String {
        let pair = |sep: &str| match key {
            Some(k) => format!("{k}{sep}{value}"),
            None => value.to_string(),
        };
        match self {
            Surface::Cli => {
                let flag = match opt {
                    Opt::Signer => "--signer",
                    Opt::MapType => "--map-type",
                    Opt::Dialect => "--dialect",
                    Opt::Kind => "--kind",
                    Opt::Template => "--template",
                };
                let value = pair("=");
                // As a shell takes it: quoted when it holds a space or a redirection.
                if value.contains([' ', '<', '>', '"', '\'', '&', '|', ';']) {
                    format!("`{flag} \"{}\"`", value.replace('"', "\\\""))
                } else {
                    format!("`{flag} {value}`")
                }
            }
            Surface::Http => {
                let name = match opt {
                    Opt::Signer => "signer",
                    Opt::MapType => "map_type",
                    Opt::Dialect => "dialect",
                    Opt::Kind => "kind",
                    Opt::Template => return format!("`signprep check --template {}`", pair("=")),
                };
                format!("the query parameter `{name}={}`", pair("="))
            }
            Surface::Python => match (opt, key) {
                (Opt::Signer, Some(k)) => format!("`signers={{\"{k}\": \"{value}\"}}`"),
                (Opt::MapType, Some(k)) => format!("`map_type={{\"{k}\": \"{value}\"}}`"),
                (Opt::Signer, None) => format!("`signers={value}`"),
                (Opt::MapType, None) => format!("`map_type={value}`"),
                (Opt::Dialect, _) => format!("`dialects=\"{}\"`", pair("=")),
                (Opt::Kind, _) => format!("`kind=\"{}\"`", pair("=")),
                (Opt::Template, _) => format!("`templates=[\"{}\"]`", pair("=")),
            },
            Surface::Node => match (opt, key) {
                (Opt::Signer, Some(k)) => format!("`signers: {{ \"{k}\": \"{value}\" }}`"),
                (Opt::MapType, Some(k)) => format!("`mapType: {{ \"{k}\": \"{value}\" }}`"),
                (Opt::Signer, None) => format!("`signers: {value}`"),
                (Opt::MapType, None) => format!("`mapType: {value}`"),
                (Opt::Dialect, _) => format!("`dialects: \"{}\"`", pair("=")),
                (Opt::Kind, _) => format!("`kind: \"{}\"`", pair("=")),
                (Opt::Template, _) => format!("`templates: [\"{}\"]`", pair("=")),
            },
        }
    }

    /// How this front end names the option itself, without a value.
    pub(crate) fn name(self, opt: Opt) -> &'static str {
        match (self, opt) {
            (Surface::Cli, Opt::Signer) => "`--signer`",
            (Surface::Cli, Opt::MapType) => "`--map-type`",
            (Surface::Cli, Opt::Dialect) => "`--dialect`",
            (Surface::Cli, Opt::Kind) => "`--kind`",
            (Surface::Http, Opt::Signer) => "the query parameter `signer`",
            (Surface::Http, Opt::MapType) => "the query parameter `map_type`",
            (Surface::Http, Opt::Dialect) => "the query parameter `dialect`",
            (Surface::Http, Opt::Kind) => "the query parameter `kind`",
            (Surface::Python, Opt::Signer) => "`signers=`",
            (Surface::Python, Opt::MapType) => "`map_type=`",
            (Surface::Python, Opt::Dialect) => "`dialects=`",
            (Surface::Python, Opt::Kind) => "`kind=`",
            (Surface::Cli, Opt::Template) => "`--template`",
            (Surface::Http, Opt::Template) => {
                "`signprep check --template` (the server's check takes no template)"
            }
            (Surface::Python, Opt::Template) => "`templates=`",
            (Surface::Node, Opt::Signer) => "`signers:`",
            (Surface::Node, Opt::MapType) => "`mapType:`",
            (Surface::Node, Opt::Dialect) => "`dialects:`",
            (Surface::Node, Opt::Kind) => "`kind:`",
            (Surface::Node, Opt::Template) => "`templates:`",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_front_end_names_the_option_its_own_way() {
        let s = |f: Surface| f.option(Opt::Signer, Some("Signer 1"), "EMAIL");
        assert_eq!(s(Surface::Cli), "`--signer \"Signer 1=EMAIL\"`");
        assert_eq!(
            Surface::Cli.option(Opt::Signer, Some("s1"), "Ann <a@example.com>"),
            "`--signer \"s1=Ann <a@example.com>\"`"
        );
        assert_eq!(
            s(Surface::Http),
            "the query parameter `signer=Signer 1=EMAIL`"
        );
        assert_eq!(s(Surface::Python), "`signers={\"Signer 1\": \"EMAIL\"}`");
        assert_eq!(
            Surface::Http.option(Opt::Dialect, None, "all"),
            "the query parameter `dialect=all`"
        );
        assert_eq!(
            Surface::Python.option(Opt::Kind, None, "v0"),
            "`kind=\"v0\"`"
        );
        assert_eq!(Surface::Cli.name(Opt::MapType), "`--map-type`");
        assert_eq!(s(Surface::Node), "`signers: { \"Signer 1\": \"EMAIL\" }`");
        assert_eq!(
            Surface::Node.option(Opt::Kind, None, "v0"),
            "`kind: \"v0\"`"
        );
    }
}
