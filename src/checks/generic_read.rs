//! A finding when values come from the generic `label: value` reader: no
//! importer vouches for what those numbers mean.

use crate::model::{FileReport, FindingCode};

/// A finding when some values come from the generic `label: value` reader:
/// no importer vouches for what those numbers mean.
pub fn generic_read_finding(files: &[FileReport]) -> Option<crate::model::Finding> {
    let files: Vec<&str> = files
        .iter()
        .filter(|f| {
            f.rows > 0 && f.format.as_deref() == Some(crate::ingest::formats::generic::NAME)
        })
        .map(|f| f.path.as_str())
        .collect();
    if files.is_empty() {
        return None;
    }
    let shown: Vec<&str> = files.iter().take(5).copied().collect();
    let more = files.len().saturating_sub(shown.len());
    let evidence = if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    };
    Some(crate::model::Finding::new(
        crate::model::Severity::Warning,
        FindingCode::GenericRead,
        format!(
            "{} input file(s) were read generically, as `label: value` lines",
            files.len()
        ),
        evidence,
        "No importer knows these files: check that each label is one measured quantity \
         (not a setting) before trusting a verdict on it, or read them with --format NAME \
         or --extractor FILE",
    ))
}
