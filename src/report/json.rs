//! `report.json`: the view model itself, numbers with both their exact
//! value and the text every other format shows, followed by `results`, the
//! `compare --json` document of the same analysis ([`JsonReport`]), so that
//! one parser reads the verdicts of either.

use super::compare_json::JsonReport;
use super::renderer::{Renderer, Report};
use super::view::ReportView;
use crate::error::{Error, Result};
use serde::Serialize;

/// The document: the view's fields, then `results`.
#[derive(Serialize)]
struct Document<'a> {
    #[serde(flatten)]
    view: &'a ReportView,
    results: JsonReport<'a>,
}

/// Serialises the view model and the results, pretty-printed.
pub fn render(view: &ReportView, results: JsonReport<'_>) -> Result<String> {
    let doc = Document { view, results };
    let mut s =
        serde_json::to_string_pretty(&doc).map_err(|e| Error::Other(format!("JSON: {e}")))?;
    s.push('\n');
    Ok(s)
}

/// The `report.json` [`Renderer`].
pub struct Json;

impl Renderer for Json {
    fn render(&self, r: &Report<'_>) -> Result<Vec<u8>> {
        Ok(render(r.view(), JsonReport::of(r.analysis))?.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyze, Settings};
    use crate::model::{Dataset, Observation};
    use crate::report::compare_json::CompareJson;
    use crate::report::ReportContext;

    /// schbench wake-up p99 (µs) of two kernels, five runs each.
    fn analysis() -> crate::analysis::Analysis {
        let mut rows = Vec::new();
        for (variant, xs) in [
            ("base", [71.0, 74.0, 69.0, 73.0, 70.0]),
            ("patched", [64.0, 66.0, 63.0, 67.0, 65.0]),
        ] {
            for (run, v) in xs.into_iter().enumerate() {
                let mut o = Observation::sample("schbench", "wakeup_p99", "us", v);
                o.variant = variant.into();
                o.run = Some(run as u32);
                rows.push(o);
            }
        }
        analyze(&Dataset::new(rows), &Settings::default()).unwrap()
    }

    #[test]
    fn results_are_the_compare_json_document_and_the_view_is_unchanged() {
        let a = analysis();
        let ctx = ReportContext::for_compare(&[], &[], &["base".into(), "patched".into()]);
        let report = Report::new(&a, &ctx);
        let doc: serde_json::Value =
            serde_json::from_slice(&Json.render(&report).unwrap()).unwrap();
        let compare: serde_json::Value =
            serde_json::from_slice(&CompareJson.render(&report).unwrap()).unwrap();
        assert_eq!(doc["results"], compare);
        assert_eq!(compare["comparisons"][0]["verdict"], "improved");
        // Everything else is the view model as it serialises alone.
        let mut rest = doc.as_object().unwrap().clone();
        rest.remove("results");
        let view = serde_json::to_value(report.view()).unwrap();
        assert_eq!(serde_json::Value::Object(rest), view);
    }
}
