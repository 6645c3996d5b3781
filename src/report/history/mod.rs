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

/// The reports of one history, from one view model: the view is built
/// once, and the charts, which HTML and PDF share, are drawn once, on
/// first use.
pub struct Reports<'h> {
    history: &'h History,
    view: HistoryView,
    env: minijinja::Environment<'static>,
    charts: Option<BTreeMap<String, String>>,
}

impl<'h> Reports<'h> {
    /// Prepares the reports of `h`; `templates` may override
    /// `history.html.j2`, `history.typ.j2` and the shared style.
    pub fn new(h: &'h History, templates: Option<&Path>) -> Result<Reports<'h>> {
        Ok(Reports {
            history: h,
            view: view::build(h),
            env: templates::environment(templates)?,
            charts: None,
        })
    }

    /// The terminal and e-mail text (`color`: ANSI styles).
    pub fn text(&self, color: bool) -> String {
        text::text(&self.view, color)
    }

    /// The Markdown.
    pub fn markdown(&self) -> String {
        text::markdown(&self.view)
    }

    fn charts(&mut self) -> Result<&BTreeMap<String, String>> {
        let charts = match self.charts.take() {
            Some(c) => c,
            None => render_charts(self.history, &self.view)?,
        };
        Ok(self.charts.insert(charts))
    }

    /// One self-contained HTML file, charts inline.
    pub fn html(&mut self) -> Result<String> {
        let svg: BTreeMap<String, Value> = self
            .charts()?
            .iter()
            .map(|(k, s)| (k.clone(), Value::from_safe_string(html::inline_svg(s))))
            .collect();
        let ctx = minijinja::context! {
            history => Value::from(Serde(&self.view)),
            svg => Value::from(svg),
        };
        templates::render(&self.env, "history.html.j2", ctx)
    }

    /// The PDF, compiled in-process as the comparison PDF is.
    pub fn pdf(&mut self) -> Result<Vec<u8>> {
        let ctx = minijinja::context! { history => Value::from(Serde(&self.view)) };
        let text = templates::render(&self.env, "history.typ.j2", ctx)?;
        pdf::compile(&text, self.charts()?)
    }
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
