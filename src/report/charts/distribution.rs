//! Per-benchmark distributions: box and strip of the samples per variant,
//! or mean with its interval when only summaries were given.

use super::{
    clip, draw_mesh, err, frame, legend, present, quantile, row_label, row_range, svg, text_width,
    Side, ValueAxis,
};
use crate::error::Result;
use crate::report::view::{self, bar, Bars, Family, SectionView};
use plotters::prelude::*;
use std::collections::HashMap;

struct Row {
    label: String,
    variant: String,
    samples: Vec<f64>,
    /// (centre, low, high) for summary rows.
    summary: Option<(f64, f64, f64)>,
}

/// Draws the chart and returns the SVG text.
pub fn draw(
    fam: &Family<'_>,
    sec: &SectionView,
    colors: &HashMap<String, RGBColor>,
    order: &[String],
) -> Result<String> {
    let s = &fam.scale;
    let mut rows = Vec::new();
    for g in &fam.groups {
        for v in view::in_order(&g.variants, order) {
            let varying = fam.varying(&g.params);
            let label = if !varying.is_empty() {
                format!("{varying} · {}", v.variant)
            } else {
                v.variant.clone()
            };
            let samples: Vec<f64> = v.samples.iter().map(|x| s.value(*x)).collect();
            let summary = if samples.is_empty() {
                v.mean.map(|m| {
                    let (lo, hi, _) = bar(v, m);
                    (s.value(m), s.value(lo), s.value(hi))
                })
            } else {
                None
            };
            rows.push(Row {
                label: clip(&label, 56),
                variant: v.variant.clone(),
                samples,
                summary,
            });
        }
    }
    let all: Vec<f64> = rows
        .iter()
        .flat_map(|r| {
            r.samples
                .iter()
                .copied()
                .chain(r.summary.into_iter().flat_map(|(c, l, h)| [c, l, h]))
        })
        .collect();
    let axis = ValueAxis::for_values(&all);
    let xr = axis.range(&all, false);
    let n = rows.len().max(1);
    let label_w = rows
        .iter()
        .map(|r| text_width(&r.label, 12))
        .max()
        .unwrap_or(40)
        + 16;
    let height = view::distribution_height(n);
    let bars = Bars::of(view::summary_only(fam));
    let unit = s.axis_suffix();
    let yr = row_range(n);
    svg(height, |root| {
        let mut chart = frame(root, (6, 20), label_w, xr.clone(), yr.clone())?;
        let x_desc = format!(
            "{}{unit}{}{}",
            sec.metric,
            axis.note(),
            match bars {
                // Intervals are what a reader assumes; only say otherwise.
                Some(Bars::Sd) => " — bars: mean ± stddev",
                Some(Bars::Mixed) => " — bars: mean with 95% CI, or ± stddev where none was stated",
                _ => "",
            }
        );
        draw_mesh(
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_labels(if axis.log { 0 } else { 8 })
                .x_label_formatter(&|x| axis.label(*x))
                .x_desc(x_desc),
        )?;
        if axis.log {
            super::log_ticks(root, &mut chart, axis, Side::X, &xr, &yr)?;
        }
        for (i, r) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let c = colors.get(&r.variant).copied().unwrap_or(BLACK);
            if r.samples.len() >= 3 {
                let mut sorted = r.samples.clone();
                sorted.sort_by(|a, b| a.total_cmp(b));
                let q1 = quantile(&sorted, 0.25);
                let q2 = quantile(&sorted, 0.5);
                let q3 = quantile(&sorted, 0.75);
                let iqr = q3 - q1;
                let lo_w = sorted
                    .iter()
                    .copied()
                    .find(|v| *v >= q1 - 1.5 * iqr)
                    .unwrap_or(q1);
                let hi_w = sorted
                    .iter()
                    .rev()
                    .copied()
                    .find(|v| *v <= q3 + 1.5 * iqr)
                    .unwrap_or(q3);
                let t = |v: f64| axis.t(v);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(t(q1), y - 0.3), (t(q3), y + 0.3)],
                        c.mix(0.18).filled(),
                    )))
                    .map_err(err)?;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(t(q1), y - 0.3), (t(q3), y + 0.3)],
                        c.stroke_width(1),
                    )))
                    .map_err(err)?;
                let lines = [
                    vec![(t(q2), y - 0.3), (t(q2), y + 0.3)],
                    vec![(t(lo_w), y), (t(q1), y)],
                    vec![(t(q3), y), (t(hi_w), y)],
                    vec![(t(lo_w), y - 0.15), (t(lo_w), y + 0.15)],
                    vec![(t(hi_w), y - 0.15), (t(hi_w), y + 0.15)],
                ];
                for (k, l) in lines.into_iter().enumerate() {
                    let w = if k == 0 { 3 } else { 1 };
                    chart
                        .draw_series(std::iter::once(PathElement::new(l, c.stroke_width(w))))
                        .map_err(err)?;
                }
                // Deterministic jitter: the golden-ratio sequence spreads
                // points evenly without a random generator.
                let pts = r.samples.iter().enumerate().map(|(k, v)| {
                    let j = ((k as f64 * 0.618_033_988_75).fract() - 0.5) * 0.4;
                    Circle::new((t(*v), y + j), 3, c.mix(0.75).filled())
                });
                chart.draw_series(pts).map_err(err)?;
            } else if !r.samples.is_empty() {
                // One or two runs: the points themselves, no box.
                let pts = r
                    .samples
                    .iter()
                    .map(|v| Circle::new((axis.t(*v), y), 5, c.filled()));
                chart.draw_series(pts).map_err(err)?;
            } else if let Some((m, lo, hi)) = r.summary {
                let t = |v: f64| axis.t(v);
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(t(lo), y), (t(hi), y)],
                        c.stroke_width(2),
                    )))
                    .map_err(err)?;
                for e in [lo, hi] {
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![(t(e), y - 0.18), (t(e), y + 0.18)],
                            c.stroke_width(2),
                        )))
                        .map_err(err)?;
                }
                chart
                    .draw_series(std::iter::once(Circle::new((t(m), y), 5, c.filled())))
                    .map_err(err)?;
            }
            let (px, py) = chart.backend_coord(&(xr.start, y));
            row_label(root, &r.label, (px - 8, py), BLACK)?;
        }
        let names = present(order, rows.iter().map(|r| r.variant.clone()));
        legend(root, label_w as i32 + 10, 16, &names, colors)
    })
}
