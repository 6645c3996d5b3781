//! Which renderer writes which report format: the one list a new format
//! joins (its renderer is a file of its own, [`super::renderer`] the trait).

use super::renderer::Renderer;
use super::{brief, html, json, markdown, pdf, text};
use crate::output::OutputFormat;

/// The renderer of a report format.
pub fn for_format(format: OutputFormat) -> &'static dyn Renderer {
    match format {
        OutputFormat::Html => &html::Html,
        OutputFormat::Pdf => &pdf::Pdf,
        OutputFormat::Md => &markdown::Markdown,
        OutputFormat::Txt => &text::Text,
        OutputFormat::Json => &json::Json,
        OutputFormat::Brief => &brief::Brief,
    }
}

/// Whether `format` embeds the charts (and so wants them drawn).
pub fn embeds_charts(format: OutputFormat) -> bool {
    matches!(format, OutputFormat::Html | OutputFormat::Pdf)
}
