//! Reports: one [`view::ReportView`] built from an analysis, rendered to
//! HTML, PDF, Markdown, e-mail text and JSON, with SVG charts.
//!
//! Everything is rendered in memory first and only then written: a report
//! folder is built beside its destination and swapped in whole
//! ([`folder`]), a single file goes through a fresh temporary name and a
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
mod markdown;
mod pdf;
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
pub use view::{ReportContext, ReportView, VariantInfo};

/// A report rendered in memory: file names relative to the report folder
/// and their bytes.
#[derive(Debug, Clone, Default)]
pub struct RenderedReport {
    pub view: Option<ReportView>,
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
    let fams = view::families(analysis);
    let view = view::build_with(analysis, ctx, &fams);
    // HTML and PDF embed the charts and a report folder keeps them as
    // files; a lone Markdown, text or JSON file has no use for them.
    let wants_charts = chart_files
        || formats
            .iter()
            .any(|f| matches!(f, OutputFormat::Html | OutputFormat::Pdf));
    let charts = if wants_charts {
        charts::render_all(analysis, &view, &fams)?
    } else {
        Vec::new()
    };
    let env = templates::environment(templates_dir)?;
    let mut svg: BTreeMap<String, String> = BTreeMap::new();
    let mut files = BTreeMap::new();
    for c in charts {
        files.insert(c.file.clone(), c.svg.as_bytes().to_vec());
        svg.insert(c.file, c.svg);
    }
    // The formats share nothing but the view: rendered in parallel (the
    // PDF, laid out by typst, takes longest).
    let rendered: Vec<(OutputFormat, Vec<u8>)> = formats
        .par_iter()
        .map(|&f| {
            let bytes = match f {
                OutputFormat::Html => html::render(&env, &view, &svg)?.into_bytes(),
                OutputFormat::Md => markdown::render(&env, &view, chart_files)?.into_bytes(),
                OutputFormat::Txt => text::render(&env, &view)?.into_bytes(),
                OutputFormat::Json => json::render(&view)?.into_bytes(),
                OutputFormat::Pdf => pdf::render(&env, &view, &svg)?,
                OutputFormat::Brief => brief::render(analysis, &ctx.title).into_bytes(),
            };
            Ok((f, bytes))
        })
        .collect::<Result<_>>()?;
    for (f, bytes) in rendered {
        files.insert(f.file_name().to_string(), bytes);
    }
    Ok(RenderedReport {
        view: Some(view),
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
/// The folder is written as one unit ([`folder::Staging`]): built beside
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
