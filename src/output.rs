//! The output formats a run can ask for (`compare --html …`, a study's
//! `[output] formats`). A leaf module: the study file is checked against it
//! and the report stage renders it, and neither needs the other for that.

use crate::error::{Error, Result};
use std::str::FromStr;

/// An output format of `report` and `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OutputFormat {
    /// An HTML page.
    Html,
    /// A PDF document.
    Pdf,
    /// Markdown.
    Md,
    /// Plain text.
    Txt,
    /// JSON.
    Json,
    /// A block of at most 25 lines of 72 columns to paste into a reply.
    Brief,
}

impl OutputFormat {
    /// Every format, in the order they are written.
    pub const ALL: [OutputFormat; 6] = [
        OutputFormat::Html,
        OutputFormat::Pdf,
        OutputFormat::Md,
        OutputFormat::Txt,
        OutputFormat::Json,
        OutputFormat::Brief,
    ];

    /// File name inside a report folder.
    pub fn file_name(self) -> &'static str {
        match self {
            OutputFormat::Html => "report.html",
            OutputFormat::Pdf => "report.pdf",
            OutputFormat::Md => "report.md",
            OutputFormat::Txt => "report.txt",
            OutputFormat::Json => "report.json",
            OutputFormat::Brief => "brief.txt",
        }
    }
}

impl FromStr for OutputFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "html" | "htm" => Ok(OutputFormat::Html),
            "pdf" => Ok(OutputFormat::Pdf),
            "md" | "markdown" => Ok(OutputFormat::Md),
            "txt" | "text" => Ok(OutputFormat::Txt),
            "json" => Ok(OutputFormat::Json),
            "brief" => Ok(OutputFormat::Brief),
            o => Err(Error::Usage(format!(
                "unknown report format `{o}` (use html, pdf, md, txt, json, brief)"
            ))),
        }
    }
}

/// Parses `html,pdf,md`; an empty list means all formats.
pub fn parse_formats(s: &str) -> Result<Vec<OutputFormat>> {
    let mut v: Vec<OutputFormat> = s
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .map(OutputFormat::from_str)
        .collect::<Result<_>>()?;
    v.sort();
    v.dedup();
    if v.is_empty() {
        v = OutputFormat::ALL.to_vec();
    }
    Ok(v)
}
