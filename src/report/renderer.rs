//! The one interface of every output of a comparison: the terminal,
//! `compare --json`, and the report formats (HTML, PDF, Markdown, e-mail
//! text, JSON, brief). Each is a [`Renderer`] that turns a [`Report`] into
//! bytes; a new format is one file implementing it plus one arm in
//! `registry::for_format` (and one in `OutputFormat` for its name).
//!
//! A [`Report`] builds what renderers share (the view model, the template
//! environment, the SVG charts) once, on first use: the terminal and
//! `--json` never pay for the view, the HTML and PDF share one set of
//! charts.

use super::charts;
use super::templates;
use super::view::{self, Family, ReportContext, ReportView};
use crate::analysis::Analysis;
use crate::error::Result;
use minijinja::Environment;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// An output: what it makes of one report.
pub trait Renderer: Sync {
    /// The bytes of this output for `report`.
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>>;

    /// Writes this output for `report` to `out`; I/O errors name `name`.
    /// Outputs that grow with the comparisons (the terminal, `compare
    /// --json`) write as they go, so that a run of millions of them never
    /// holds the whole output; the others write what [`Renderer::render`]
    /// returns.
    fn render_to(
        &self,
        report: &Report<'_>,
        out: &mut dyn std::io::Write,
        name: &Path,
    ) -> Result<()> {
        let bytes = self.render(report)?;
        out.write_all(&bytes)
            .and_then(|()| out.flush())
            .map_err(|e| crate::error::Error::io(name, e))
    }
}

/// One analysis to render, with what renderers share built once on demand.
/// It can be shared between threads, so that formats render in parallel.
pub struct Report<'a> {
    /// The analysis every number comes from.
    pub analysis: &'a Analysis,
    /// What the report is about: title, variants, inputs.
    pub ctx: &'a ReportContext,
    /// Whether the Markdown may link chart files (a report folder) or not
    /// (a lone file from `compare --md`).
    pub chart_files: bool,
    templates_dir: Option<&'a Path>,
    families: OnceLock<Vec<Family<'a>>>,
    view: OnceLock<ReportView>,
    env: OnceLock<Environment<'static>>,
    /// SVG text by chart file name.
    svg: OnceLock<BTreeMap<String, String>>,
}

impl<'a> Report<'a> {
    /// A report of `analysis` about `ctx`, with the built-in templates and
    /// chart files linked.
    pub fn new(analysis: &'a Analysis, ctx: &'a ReportContext) -> Self {
        Report {
            analysis,
            ctx,
            chart_files: true,
            templates_dir: None,
            families: OnceLock::new(),
            view: OnceLock::new(),
            env: OnceLock::new(),
            svg: OnceLock::new(),
        }
    }

    /// Takes templates from `dir` where it has them (`--templates`).
    pub fn with_templates(mut self, dir: Option<&'a Path>) -> Self {
        self.templates_dir = dir;
        self
    }

    /// Says whether chart files sit beside the report ([`Report::chart_files`]).
    pub fn with_chart_files(mut self, chart_files: bool) -> Self {
        self.chart_files = chart_files;
        self
    }

    fn families(&self) -> &[Family<'a>] {
        self.families.get_or_init(|| view::families(self.analysis))
    }

    /// The view model, built on first use.
    pub fn view(&self) -> &ReportView {
        self.view
            .get_or_init(|| view::build_with(self.analysis, self.ctx, self.families()))
    }

    /// The view model, if it was built, for a caller that keeps it.
    pub fn into_view(self) -> Option<ReportView> {
        self.view.into_inner()
    }

    /// The template environment, loaded on first use.
    pub fn env(&self) -> Result<&Environment<'static>> {
        once(&self.env, || templates::environment(self.templates_dir))
    }

    /// The charts' SVG text by file name, drawn on first use: what HTML
    /// and PDF embed and a report folder keeps as files.
    pub fn svg(&self) -> Result<&BTreeMap<String, String>> {
        once(&self.svg, || {
            let drawn = charts::render_all(self.analysis, self.view(), self.families())?;
            Ok(drawn.into_iter().map(|c| (c.file, c.svg)).collect())
        })
    }
}

/// `cell`'s value, made by `make` if it has none. Two threads may both make
/// it; one value is kept. Callers that render in parallel make the costly
/// values first.
fn once<T>(cell: &OnceLock<T>, make: impl FnOnce() -> Result<T>) -> Result<&T> {
    if let Some(v) = cell.get() {
        return Ok(v);
    }
    let v = make()?;
    Ok(cell.get_or_init(|| v))
}
