//! Reports of a history (`patchperf history`): one view model ([`view`])
//! from which the terminal and e-mail text, the Markdown, and the HTML and
//! PDF with a chart per series are rendered; the HTML and PDF through the
//! template environment, SVG inlining and typst compiler of the comparison
//! reports. The JSON is the history itself (its schema is documented).

mod text;
pub mod view;
mod words;

pub use words::summary;

use super::charts::history as chart;
use super::{html, pdf, templates};
use crate::analysis::history::History;
use crate::error::Result;
use minijinja::value::{Serde, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use view::HistoryView;

/// The terminal and e-mail text of a history (`color`: ANSI styles).
pub fn render_text(h: &History, color: bool) -> String {
    text::text(&view::build(h), color)
}

/// The Markdown of a history.
pub fn render_markdown(h: &History) -> String {
    text::markdown(&view::build(h))
}

/// The SVG of every chart the view refers to, by file name. Charts are
/// independent, so they are drawn in parallel.
pub fn render_charts(h: &History, v: &HistoryView) -> Result<BTreeMap<String, String>> {
    let jobs: Vec<_> = h
        .series
        .iter()
        .zip(&v.series)
        .filter_map(|(s, sv)| sv.chart.as_ref().map(|c| (s, c.file.clone())))
        .collect();
    jobs.into_par_iter()
        .map(|(s, file)| Ok((file, chart::draw(s)?)))
        .collect()
}

/// The HTML of a history: one self-contained file, charts inline.
/// `templates` may override `history.html.j2` (and the shared style).
pub fn render_html(h: &History, templates: Option<&Path>) -> Result<String> {
    let env = templates::environment(templates)?;
    let v = view::build(h);
    let svg: BTreeMap<String, Value> = render_charts(h, &v)?
        .into_iter()
        .map(|(k, s)| (k, Value::from_safe_string(html::inline_svg(&s))))
        .collect();
    let ctx = minijinja::context! {
        history => Value::from(Serde(&v)),
        svg => Value::from(svg),
    };
    templates::render(&env, "history.html.j2", ctx)
}

/// The typst source of a history's PDF (for debugging and tests).
pub fn typst_source(h: &History, templates: Option<&Path>) -> Result<String> {
    let env = templates::environment(templates)?;
    let ctx = minijinja::context! { history => Value::from(Serde(view::build(h))) };
    templates::render(&env, "history.typ.j2", ctx)
}

/// The PDF of a history, compiled in-process as the comparison PDF is.
pub fn render_pdf(h: &History, templates: Option<&Path>) -> Result<Vec<u8>> {
    let text = typst_source(h, templates)?;
    let svg = render_charts(h, &view::build(h))?;
    pdf::compile(&text, &svg)
}
