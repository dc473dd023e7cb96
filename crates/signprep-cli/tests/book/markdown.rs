//! The fenced blocks of a page and the commands of a ```console block.
//!
//! A console block: a line starting with `$ ` is a command (a trailing `\`
//! continues it on the next line; a here-document, `<<'EOF'` ... `EOF`, is part of
//! it); the lines after it up to the next `$ ` line are its expected output.

/// A fenced code block: its info string, the line of its opening fence
/// (1-based) and its lines with their numbers (the fence's indent removed).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub info: String,
    pub line: usize,
    pub lines: Vec<(usize, String)>,
}

/// Every fenced block of `text`, in order; an error when a fence is not closed.
pub fn blocks(text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut open: Option<(Block, usize, usize)> = None; // the block, its indent, its fence length
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let indent = raw.len() - raw.trim_start_matches(' ').len();
        let trimmed = raw.trim_start_matches(' ');
        let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
        match &mut open {
            None if ticks >= 3 => {
                let info = trimmed[ticks..].trim().to_string();
                open = Some((
                    Block {
                        info,
                        line: n,
                        lines: Vec::new(),
                    },
                    indent,
                    ticks,
                ));
            }
            None => {}
            Some((_, _, fence)) if ticks >= *fence && trimmed[ticks..].trim().is_empty() => {
                if let Some((block, _, _)) = open.take() {
                    out.push(block);
                }
            }
            Some((block, indent_of_fence, _)) => {
                let strip = indent.min(*indent_of_fence);
                block.lines.push((n, raw[strip..].to_string()));
            }
        }
    }
    match open {
        Some((block, _, _)) => Err(format!("line {}: a ``` fence never closed", block.line)),
        None => Ok(out),
    }
}

/// One command of a console block: the line of its `$ `, its text (continuation
/// lines and here-documents included) and the output it should print.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub line: usize,
    pub text: String,
    pub expected: Vec<String>,
}

/// The word a here-document ends at, when `command` opens one (`<<EOF`,
/// `<<'EOF'`, `<<"EOF"`, `<<-EOF`); a here-string (`<<<`) opens none.
fn heredoc_end(command: &str) -> Option<String> {
    let at = command.find("<<")?;
    let rest = &command[at + 2..];
    if rest.starts_with('<') {
        return None;
    }
    let rest = rest.strip_prefix('-').unwrap_or(rest).trim_start();
    let rest = rest.trim_start_matches(['\'', '"']);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// The commands of a console block; an error (with its line) for text before
/// the first command or a continuation or here-document left open.
pub fn commands(block: &Block) -> Result<Vec<Command>, String> {
    let mut out: Vec<Command> = Vec::new();
    let mut lines = block.lines.iter().peekable();
    while let Some((n, line)) = lines.next() {
        let Some(first) = line.strip_prefix("$ ") else {
            match out.last_mut() {
                Some(c) => c.expected.push(line.clone()),
                None if line.trim().is_empty() => {}
                None => return Err(format!("line {n}: output before any `$ ` command: {line}")),
            }
            continue;
        };
        let mut text = first.to_string();
        while text.ends_with('\\') {
            let Some((_, next)) = lines.next() else {
                return Err(format!(
                    "line {n}: the command ends in `\\` at the block's end"
                ));
            };
            text.push('\n');
            text.push_str(next);
        }
        if let Some(end) = heredoc_end(&text) {
            loop {
                let Some((_, next)) = lines.next() else {
                    return Err(format!("line {n}: the here-document never reaches `{end}`"));
                };
                text.push('\n');
                text.push_str(next);
                if next.trim() == end {
                    break;
                }
            }
        }
        out.push(Command {
            line: *n,
            text,
            expected: Vec::new(),
        });
    }
    for c in &mut out {
        while c.expected.last().is_some_and(|l| l.trim().is_empty()) {
            c.expected.pop();
        }
    }
    Ok(out)
}

/// What the runner does with a block, by its info string.
#[derive(Debug, PartialEq)]
pub enum Kind {
    /// ```console: run; ```console,soffice: run only where LibreOffice is.
    Console { soffice: bool },
    /// ```sh: shown, not run; checked against the file that runs it.
    Sh,
    /// A fence that shows commands the runner would not run: why.
    Refused(String),
    /// A file's content (yaml, toml, json, python, ...): not run.
    File,
}

/// The kind of `block`.
pub fn kind(block: &Block) -> Kind {
    let words: Vec<&str> = block
        .info
        .split([',', ' '])
        .filter(|w| !w.is_empty())
        .collect();
    let first_line = block
        .lines
        .iter()
        .map(|(_, l)| l.trim())
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    match words.as_slice() {
        ["console"] => Kind::Console { soffice: false },
        ["console", "soffice"] => Kind::Console { soffice: true },
        ["console", ..] => Kind::Refused(format!(
            "```{}: a console block is ```console or ```console,soffice",
            block.info
        )),
        ["sh"] => Kind::Sh,
        [shell, ..]
            if ["bash", "shell", "zsh", "shell-session", "sh-session", "sh"].contains(shell) =>
        {
            Kind::Refused(format!(
                "```{}: commands go in ```console (run by the test) or ```sh (with `# run by FILE`)",
                block.info
            ))
        }
        _ if first_line.starts_with("$ ") => Kind::Refused(format!(
            "```{}: a block starting with `$ ` shows commands: make it ```console (run by the test)",
            block.info
        )),
        _ => Kind::File,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_are_found_with_their_lines_and_indent() {
        let text = "# T\n\n```console\n$ a\nout\n```\n\n- item\n\n  ```sh\n  # run by .ci/x\n    b\n  ```\n````md\n```\n````\n";
        let b = blocks(text).unwrap();
        assert_eq!(b.len(), 3, "{b:#?}");
        assert_eq!(b[0].info, "console");
        assert_eq!(b[0].line, 3);
        assert_eq!(b[0].lines, [(4, "$ a".to_string()), (5, "out".to_string())]);
        assert_eq!(b[1].info, "sh");
        assert_eq!(
            b[1].lines,
            [(11, "# run by .ci/x".to_string()), (12, "  b".to_string())]
        );
        assert_eq!(b[2].lines, [(15, "```".to_string())]);
        assert!(blocks("```console\n$ a\n").unwrap_err().contains("line 1"));
    }

    #[test]
    fn commands_take_their_continuations_here_documents_and_output() {
        let text = "```console\n$ a \\\n  --b\nline 1\n\n...\n\n$ cat > x <<'EOF'\n$ not a command\nEOF\n$ c <<< x\n$ d\n```\n";
        let b = &blocks(text).unwrap()[0];
        let c = commands(b).unwrap();
        assert_eq!(c.len(), 4, "{c:#?}");
        assert_eq!((c[0].line, c[0].text.as_str()), (2, "a \\\n  --b"));
        assert_eq!(c[0].expected, ["line 1", "", "..."]);
        assert_eq!(c[1].text, "cat > x <<'EOF'\n$ not a command\nEOF");
        assert!(c[1].expected.is_empty());
        assert_eq!((c[2].line, c[2].text.as_str()), (11, "c <<< x"));
        assert_eq!(c[3].line, 12);
    }

    #[test]
    fn malformed_console_blocks_are_errors_with_their_line() {
        for (text, want) in [
            ("```console\noutput\n$ a\n```\n", "line 2: output before"),
            ("```console\n$ a \\\n```\n", "line 2: the command ends in"),
            ("```console\n$ cat <<EOF\nx\n```\n", "never reaches `EOF`"),
        ] {
            let err = commands(&blocks(text).unwrap()[0]).unwrap_err();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }

    #[test]
    fn kinds_by_info_string_and_first_line() {
        let k = |info: &str, body: &str| {
            kind(&Block {
                info: info.to_string(),
                line: 1,
                lines: body
                    .lines()
                    .enumerate()
                    .map(|(i, l)| (i + 2, l.to_string()))
                    .collect(),
            })
        };
        assert_eq!(k("console", "$ a"), Kind::Console { soffice: false });
        assert_eq!(k("console,soffice", "$ a"), Kind::Console { soffice: true });
        assert_eq!(k("sh", "# run by .ci/node\nnpm ci"), Kind::Sh);
        assert_eq!(k("yaml", "a: 1"), Kind::File);
        assert_eq!(k("", "just text"), Kind::File);
        for (info, body) in [
            ("bash", "ls"),
            ("shell", "ls"),
            ("text", "$ ls"),
            ("", "\n$ ls"),
            ("console,ignore", "$ ls"),
        ] {
            assert!(
                matches!(k(info, body), Kind::Refused(_)),
                "{info:?} {body:?}"
            );
        }
    }
}
