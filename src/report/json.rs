//! JSON: the view model itself, numbers with both their exact value and the
//! text every other format shows.

use super::view::ReportView;
use crate::error::{Error, Result};

/// Serialises the view model, pretty-printed.
pub fn render(view: &ReportView) -> Result<String> {
    let mut s =
        serde_json::to_string_pretty(view).map_err(|e| Error::Other(format!("JSON: {e}")))?;
    s.push('\n');
    Ok(s)
}
