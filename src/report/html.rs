//! HTML: one self-contained file (inline CSS, inline SVG charts, a few lines
//! of inline JS to sort the comparison table) from `report.html.j2`, with
//! HTML autoescaping on for every value.

use super::templates;
use super::view::ReportView;
use crate::error::Result;
use minijinja::value::{Serde, Value};
use minijinja::Environment;
use std::collections::BTreeMap;

/// Renders the HTML report; `svg` maps chart file names to their SVG.
pub fn render(
    env: &Environment<'_>,
    view: &ReportView,
    svg: &BTreeMap<String, String>,
) -> Result<String> {
    // The SVG comes from our own chart code (plotters escapes its text), so
    // it is marked safe; every other value is escaped by the template engine.
    let svg: BTreeMap<String, Value> = svg
        .iter()
        .map(|(k, v)| (k.clone(), Value::from_safe_string(inline_svg(v))))
        .collect();
    let colors: BTreeMap<String, String> = view
        .meta
        .variants
        .iter()
        .map(|v| (v.name.clone(), v.color.clone()))
        .collect();
    let ctx = minijinja::context! {
        report => Value::from(Serde(view)),
        svg => Value::from(svg),
        colors => Value::from(colors),
    };
    templates::render(env, "report.html.j2", ctx)
}

/// Makes a standalone SVG scale with the page: a viewBox from its size.
pub fn inline_svg(svg: &str) -> String {
    let Some(start) = svg.find("<svg") else {
        return svg.to_string();
    };
    let end = svg[start..].find('>').map(|e| start + e).unwrap_or(start);
    let head = &svg[start..end];
    let attr = |name: &str| -> Option<String> {
        let key = format!("{name}=\"");
        let i = head.find(&key)? + key.len();
        let j = head[i..].find('"')? + i;
        Some(head[i..j].to_string())
    };
    if head.contains("viewBox") {
        return svg[start..].to_string();
    }
    match (attr("width"), attr("height")) {
        (Some(w), Some(h)) => {
            let new_head = format!(
                "<svg viewBox=\"0 0 {w} {h}\" preserveAspectRatio=\"xMinYMin meet\" role=\"img\"{}",
                &head[4..]
                    .replace(&format!("width=\"{w}\""), "")
                    .replace(&format!("height=\"{h}\""), "")
            );
            format!("{new_head}{}", &svg[end..])
        }
        _ => svg[start..].to_string(),
    }
}

/// The HTML [`Renderer`](super::renderer::Renderer).
pub struct Html;

impl super::renderer::Renderer for Html {
    fn render(&self, r: &super::renderer::Report<'_>) -> Result<Vec<u8>> {
        Ok(render(r.env()?, r.view(), r.svg()?)?.into_bytes())
    }
}
