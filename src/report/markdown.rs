//! Markdown for pull-request comments (GitHub-flavoured: tables, and
//! `<details>` for the long parts) from `report.md.j2`.

use super::templates;
use super::view::ReportView;
use crate::error::Result;
use minijinja::value::{Serde, Value};
use minijinja::Environment;

/// Renders the Markdown report; with `chart_files` it shows the SVG charts
/// of the report folder as images.
pub fn render(env: &Environment<'_>, view: &ReportView, chart_files: bool) -> Result<String> {
    let ctx =
        minijinja::context! { report => Value::from(Serde(view)), chart_files => chart_files };
    let s = templates::render(env, "report.md.j2", ctx)?;
    Ok(tidy(&s))
}

/// Collapses runs of blank lines and trailing spaces left by the template
/// (the text report finishes its output with it too).
pub fn tidy(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut blank = 0;
    for line in s.lines() {
        let l = line.trim_end();
        if l.is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(l);
        out.push('\n');
    }
    let t = out.trim_start_matches('\n').trim_end();
    format!("{t}\n")
}

/// The Markdown [`Renderer`](super::renderer::Renderer).
pub struct Markdown;

impl super::renderer::Renderer for Markdown {
    fn render(&self, r: &super::renderer::Report<'_>) -> Result<Vec<u8>> {
        Ok(render(r.env()?, r.view(), r.chart_files)?.into_bytes())
    }
}
