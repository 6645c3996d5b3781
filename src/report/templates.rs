//! The minijinja environment shared by the renderers: templates compiled in
//! with `include_str!`, overridable file by file from a `--templates DIR`
//! through a loader (templates added with `add_template` would bypass it),
//! and the escaping filters of each output language.

use crate::error::{Error, Result};
use minijinja::syntax::SyntaxConfig;
use minijinja::{AutoEscape, Environment, Value};
use std::path::{Path, PathBuf};

/// The built-in templates, by name.
pub const BUILTIN: [(&str, &str); 7] = [
    (
        "report.html.j2",
        include_str!("../../templates/report.html.j2"),
    ),
    ("report.md.j2", include_str!("../../templates/report.md.j2")),
    (
        "report.txt.j2",
        include_str!("../../templates/report.txt.j2"),
    ),
    (
        "report.typ.j2",
        include_str!("../../templates/report.typ.j2"),
    ),
    ("style.css.j2", include_str!("../../templates/style.css.j2")),
    (
        "history.html.j2",
        include_str!("../../templates/history.html.j2"),
    ),
    (
        "history.typ.j2",
        include_str!("../../templates/history.typ.j2"),
    ),
];

/// Builds the environment. A template in `dir` with a built-in name wins
/// over the built-in one; names are looked up only in `dir` itself (no
/// sub-folders, no `..`), so a template cannot read other files.
pub fn environment(dir: Option<&Path>) -> Result<Environment<'static>> {
    let mut env = Environment::new();
    let syntax = SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .build()
        .map_err(|e| Error::Other(format!("template syntax: {e}")))?;
    env.set_syntax(syntax);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".html.j2") || name.ends_with(".html") {
            AutoEscape::Html
        } else {
            AutoEscape::None
        }
    });
    if let Some(d) = dir {
        if !d.is_dir() {
            return Err(Error::Usage(format!(
                "{}: templates folder not found",
                d.display()
            )));
        }
    }
    let dir: Option<PathBuf> = dir.map(Path::to_path_buf);
    env.set_loader(
        move |name: &str| -> std::result::Result<Option<String>, minijinja::Error> {
            let safe = !name.contains(['/', '\\']) && !name.starts_with('.');
            if let (Some(d), true) = (&dir, safe) {
                let p = d.join(name);
                if p.is_file() {
                    return std::fs::read_to_string(&p).map(Some).map_err(|e| {
                        minijinja::Error::new(
                            minijinja::ErrorKind::TemplateNotFound,
                            format!("{}: {e}", p.display()),
                        )
                    });
                }
            }
            Ok(BUILTIN
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| s.to_string()))
        },
    );
    env.add_filter("md", md_escape);
    env.add_filter("mdcode", md_code);
    env.add_filter("typstr", typst_string);
    env.add_filter("wrap", wrap_filter);
    env.add_filter("pad", pad);
    env.add_filter("paras", paras);
    env.add_filter("rpad", rpad);
    Ok(env)
}

/// Renders `name` with `ctx`, naming the template in errors.
pub fn render(env: &Environment<'_>, name: &str, ctx: Value) -> Result<String> {
    let t = env
        .get_template(name)
        .map_err(|e| Error::Other(format!("template {name}: {e:#}")))?;
    t.render(ctx)
        .map_err(|e| Error::Other(format!("template {name}: {e:#}")))
}

/// Escapes text for GitHub Markdown: HTML-significant characters become
/// entities (so `<script>` shows as text), Markdown punctuation gets a
/// backslash, and `|` cannot break a table.
pub fn md_escape(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("\\|"),
            // GitHub ignores `_` inside words (DEBUG_LOCK_ALLOC): escape
            // only where it could open or close emphasis. Backticks stay:
            // code spans in findings (`make olddefconfig`) are meant.
            '_' => {
                let inner = i > 0
                    && i + 1 < chars.len()
                    && chars[i - 1].is_alphanumeric()
                    && chars[i + 1].is_alphanumeric();
                if !inner {
                    out.push('\\');
                }
                out.push('_');
            }
            '\\' | '*' | '[' | ']' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '#' if i == 0 => out.push_str("\\#"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Text for an inline code span in Markdown tables (pipes escaped, no
/// backticks inside).
pub fn md_code(s: &str) -> String {
    format!(
        "`{}`",
        s.replace('`', "'")
            .replace('|', "\\|")
            .replace(['\n', '\r'], " ")
    )
}

/// A typst string literal (`"…"`): the only way user text enters typst, so
/// that no character of it is ever read as markup or code. In markup write
/// `#{{ x | typstr }}`.
pub fn typst_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Word-wraps `s` to `width` columns, indenting continuation lines by
/// `indent` spaces.
pub fn wrap_filter(s: &str, width: Option<usize>, indent: Option<usize>) -> String {
    // Only the text report wraps; it is ASCII, and the ASCII form can be
    // longer (`≥` → `>=`), so convert before measuring.
    wrap(
        &super::ascii::asciify(s),
        width.unwrap_or(72),
        indent.unwrap_or(0),
    )
}

/// Word-wraps a paragraph (see [`wrap_filter`]); words longer than the
/// width are broken.
pub fn wrap(s: &str, width: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut lines: Vec<String> = Vec::new();
    // Leading spaces of the text indent its first line.
    let lead = s.len() - s.trim_start_matches(' ').len();
    let mut cur = " ".repeat(lead);
    for word in s.split_whitespace() {
        let mut word: String = word.to_string();
        loop {
            let prefix = if lines.is_empty() && cur.is_empty() {
                0
            } else {
                indent
            };
            let cur_len = cur.chars().count();
            let at_start = cur.trim().is_empty();
            let room = if at_start && !cur.is_empty() {
                width.saturating_sub(cur_len)
            } else if cur.is_empty() {
                width.saturating_sub(if lines.is_empty() { 0 } else { prefix })
            } else {
                width.saturating_sub(cur_len + 1)
            };
            let wl = word.chars().count();
            if wl <= room {
                if at_start && !cur.is_empty() {
                    // leading indentation already in place
                } else if !cur.is_empty() {
                    cur.push(' ');
                } else if !lines.is_empty() {
                    cur.push_str(&pad);
                }
                cur.push_str(&word);
                break;
            }
            if !cur.trim().is_empty() {
                lines.push(std::mem::take(&mut cur));
                continue;
            }
            // An over-long word on an empty line: break it.
            let take = room.max(1);
            let head: String = word.chars().take(take).collect();
            word = word.chars().skip(take).collect();
            if !lines.is_empty() {
                cur.push_str(&pad);
            }
            cur.push_str(&head);
            lines.push(std::mem::take(&mut cur));
            if word.is_empty() {
                break;
            }
        }
    }
    if !cur.trim().is_empty() {
        lines.push(cur);
    }
    lines.join("\n")
}

/// Splits text into paragraphs at blank lines.
fn paras(s: &str) -> Vec<String> {
    s.split("\n\n")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn pad(s: &str, width: usize) -> String {
    format!("{s:<width$}")
}

fn rpad(s: &str, width: usize) -> String {
    format!("{s:>width$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_width_with_indent() {
        let s = "one two three four five six seven eight nine ten eleven twelve";
        let w = wrap(s, 20, 2);
        for l in w.lines() {
            assert!(l.chars().count() <= 20, "{l:?}");
        }
        assert!(w.lines().nth(1).unwrap().starts_with("  "));
        assert_eq!(wrap("a", 10, 0), "a");
        let long = wrap(&"x".repeat(30), 10, 0);
        assert_eq!(long.lines().count(), 3);
        assert_eq!(wrap("    Evidence: a b", 72, 4), "    Evidence: a b");
        assert_eq!(wrap("  * aa bb cc", 8, 4), "  * aa\n    bb\n    cc");
    }

    #[test]
    fn escapes() {
        assert_eq!(
            md_escape("<script>a|b</script>"),
            "&lt;script&gt;a\\|b&lt;/script&gt;"
        );
        assert_eq!(typst_string("a\"#b\\"), "\"a\\\"#b\\\\\"");
        assert_eq!(
            md_escape("DEBUG_LOCK_ALLOC _x_ *y*"),
            "DEBUG_LOCK_ALLOC \\_x\\_ \\*y\\*"
        );
    }
}
