//! Reports: one [`view::ReportView`] built from an analysis, rendered to
//! HTML, PDF, Markdown, e-mail text and JSON, with SVG charts.
//!
//! Everything is rendered in memory first and only then written: a report
//! folder is built beside its destination and swapped in whole
//! (the private `folder` module), a single file goes through a fresh temporary name and a
//! rename, so that a failed or killed run leaves no half-written report.

mod ascii;
pub mod brief;
pub mod charts;
pub mod compare_json;
mod folder;
pub mod format;
pub mod history;
mod html;
pub mod json;
pub mod json_pieces;
mod markdown;
mod pdf;
pub mod registry;
pub mod renderer;
pub mod templates;
pub mod terminal;
mod text;
pub mod view;

use crate::analysis::Analysis;
use crate::error::{Error, Result};
use crate::model::Dataset;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::output::{parse_formats, OutputFormat};
pub use renderer::{Renderer, Report};
pub use view::{ReportContext, ReportView, VariantInfo};

/// A report rendered in memory: file names relative to the report folder
/// and their bytes.
#[derive(Debug, Clone, Default)]
pub struct RenderedReport {
    /// The view model it was rendered from, when it was made.
    pub view: Option<ReportView>,
    /// Each file's bytes by its name, relative to the report folder.
    pub files: BTreeMap<String, Vec<u8>>,
}

/// Renders the formats asked for, plus the chart files, without writing.
pub fn render(
    analysis: &Analysis,
    ctx: &ReportContext,
    formats: &[OutputFormat],
    templates_dir: Option<&Path>,
) -> Result<RenderedReport> {
    render_with(analysis, ctx, formats, templates_dir, true)
}

/// [`render`]; `chart_files` says whether the Markdown may link the chart
/// files (a report folder) or not (a single file from `compare --md`).
fn render_with(
    analysis: &Analysis,
    ctx: &ReportContext,
    formats: &[OutputFormat],
    templates_dir: Option<&Path>,
    chart_files: bool,
) -> Result<RenderedReport> {
    let report = Report::new(analysis, ctx)
        .with_templates(templates_dir)
        .with_chart_files(chart_files);
    // What the formats share is made before they run in parallel: the view,
    // the templates, and the charts when a report folder keeps them as
    // files or a format embeds them (a lone Markdown, text or JSON file has
    // no use for them).
    report.view();
    report.env()?;
    let mut files = BTreeMap::new();
    if chart_files || formats.iter().any(|&f| registry::embeds_charts(f)) {
        for (file, svg) in report.svg()? {
            files.insert(file.clone(), svg.as_bytes().to_vec());
        }
    }
    // The formats share nothing but the report: rendered in parallel (the
    // PDF, laid out by typst, takes longest).
    let rendered: Vec<(OutputFormat, Vec<u8>)> = formats
        .par_iter()
        .map(|&f| Ok((f, registry::for_format(f).render(&report)?)))
        .collect::<Result<_>>()?;
    for (f, bytes) in rendered {
        files.insert(f.file_name().to_string(), bytes);
    }
    Ok(RenderedReport {
        view: report.into_view(),
        files,
    })
}

/// Renders and writes a report folder: `report.*` for `formats`,
/// `charts/*.svg`, and `data.parquet` when a dataset is given. Returns the
/// paths written.
pub fn write_outputs(
    analysis: &Analysis,
    ctx: &ReportContext,
    dataset: Option<&Dataset>,
    formats: &[OutputFormat],
    out_dir: &Path,
    templates_dir: Option<&Path>,
) -> Result<Vec<PathBuf>> {
    let rendered = render(analysis, ctx, formats, templates_dir)?;
    write_rendered(&rendered, dataset, out_dir)
}

/// Writes a rendered report into a report folder as [`write_outputs`] does
/// (for a caller that keeps the rendered view). Returns the paths written.
///
/// The folder is written as one unit (`folder::Staging`): built beside
/// `out_dir` and swapped in, so that the old report stays whole until the
/// new one replaces it.
pub fn write_rendered(
    rendered: &RenderedReport,
    dataset: Option<&Dataset>,
    out_dir: &Path,
) -> Result<Vec<PathBuf>> {
    let (staging, _lock) = folder::Staging::new(out_dir)?;
    let dir = staging.dir.clone();
    std::fs::create_dir_all(dir.join("charts")).map_err(|e| Error::io(&dir, e))?;
    let mut written = Vec::new();
    if let Some(ds) = dataset {
        ds.write_path(&dir.join("data.parquet"))?;
        written.push(out_dir.join("data.parquet"));
    }
    for (name, bytes) in &rendered.files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
        written.push(out_dir.join(name));
    }
    staging.swap_in()?;
    Ok(written)
}

/// Renders one format into one file (`compare --html F`). HTML and PDF are
/// self-contained; Markdown and text refer to no chart files.
pub fn write_file(
    analysis: &Analysis,
    ctx: &ReportContext,
    format: OutputFormat,
    path: &Path,
    templates_dir: Option<&Path>,
) -> Result<()> {
    let rendered = render_with(analysis, ctx, &[format], templates_dir, false)?;
    let bytes = rendered
        .files
        .get(format.file_name())
        .ok_or_else(|| Error::Other("renderer produced nothing".into()))?;
    write_atomic(path, bytes)
}

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// created under a fresh name that no other file (or planted symlink) has,
/// and renamed into place: a reader sees the old file or the new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = crate::model::folder_of(path);
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let (mut file, tmp) = crate::model::temp_file_beside(path, "tmp")?;
    let written = std::io::Write::write_all(&mut file, bytes)
        .map_err(|e| Error::io(&tmp, e))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
