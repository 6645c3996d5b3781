//! Text and Markdown of a history, from its view model ([`super::view`]):
//! per series each change point with the last point before and the first
//! after, the change with its interval, p and verdict; the same strings as
//! the HTML and PDF.

use super::view::{ChangeView, HistoryView};
use owo_colors::OwoColorize;

/// The table cells of a change point, as [`HEAD`] names them.
fn cells(c: &ChangeView) -> [String; 6] {
    [
        format!("#{}", c.index),
        c.step.clone(),
        c.change.clone(),
        c.ci.clone(),
        c.p.clone(),
        c.verdict.clone(),
    ]
}

/// Column heads of the change-point table.
const HEAD: [&str; 6] = [
    "point",
    "step (last before → first after)",
    "change",
    "95% CI of change",
    "p",
    "verdict",
];

/// Config differences shown under a change point in the text; the JSON
/// lists them all.
const SHOWN: usize = 5;

/// The terminal (and e-mail) text of a history.
pub fn text(v: &HistoryView, color: bool) -> String {
    let mut out = String::new();
    for s in &v.series {
        let head = format!("{}: {}", s.title, s.extent);
        out.push_str(&if color { head.bold().to_string() } else { head });
        out.push('\n');
        if let Some(note) = s.note.as_ref().or(s.quiet.as_ref()) {
            out.push_str(&format!("  {note}\n\n"));
            continue;
        }
        let rows: Vec<[String; 6]> = s.changes.iter().map(cells).collect();
        let widths: Vec<usize> = (0..6)
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([HEAD[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let mut l = String::from(" ");
            for (i, c) in cells.iter().enumerate() {
                let w = widths[i];
                l.push(' ');
                l.push_str(&if (2..5).contains(&i) {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                });
                l.push(' ');
            }
            l.trim_end().to_string()
        };
        let head_line = line(&HEAD.map(String::from));
        out.push_str(&if color {
            head_line.dimmed().to_string()
        } else {
            head_line
        });
        out.push('\n');
        for (r, c) in rows.iter().zip(&s.changes) {
            let l = line(r);
            let l = match (color, c.verdict.as_str()) {
                (true, "regressed") => l.red().to_string(),
                (true, "improved") => l.green().to_string(),
                (true, _) => l.yellow().to_string(),
                _ => l,
            };
            out.push_str(&l);
            out.push('\n');
            for f in c.findings.iter().take(SHOWN) {
                out.push_str(&format!("      {}: {} [{}]\n", f.severity, f.title, f.code));
            }
            if c.findings.len() > SHOWN {
                out.push_str(&format!(
                    "      … and {} more differences between the configs or environments of {} (--json lists them)\n",
                    c.findings.len() - SHOWN,
                    c.step
                ));
            }
        }
        out.push('\n');
    }
    out.push_str(&v.summary);
    out.push('\n');
    out
}

fn md_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        if matches!(ch, '|' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '\\') {
            o.push('\\');
        }
        o.push(ch);
    }
    o
}

/// The Markdown of a history (pull-request comments, wikis).
pub fn markdown(v: &HistoryView) -> String {
    let mut out = String::from("# History\n\n");
    out.push_str(&format!(
        "Points in order: {}. {}\n\n",
        v.order
            .iter()
            .map(|o| format!("`{}`", o.replace('`', "'")))
            .collect::<Vec<_>>()
            .join(", "),
        md_escape(&v.method)
    ));
    for s in &v.series {
        out.push_str(&format!(
            "## {}\n\n{}\n\n",
            md_escape(&s.title),
            md_escape(&s.extent)
        ));
        if let Some(note) = s.note.as_ref().or(s.quiet.as_ref()) {
            out.push_str(&format!("{}\n\n", md_escape(note)));
            continue;
        }
        out.push_str(&format!(
            "| {} |\n|{}\n",
            HEAD.join(" | "),
            "---|".repeat(6)
        ));
        for c in &s.changes {
            let r = cells(c).map(|x| md_escape(&x));
            out.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        out.push('\n');
        for c in &s.changes {
            for f in &c.findings {
                out.push_str(&format!(
                    "- {}: {}: {}\n",
                    md_escape(&c.step),
                    f.severity,
                    md_escape(&f.title)
                ));
            }
        }
        if s.changes.iter().any(|c| !c.findings.is_empty()) {
            out.push('\n');
        }
    }
    out.push_str(&md_escape(&v.summary));
    out.push('\n');
    out
}
