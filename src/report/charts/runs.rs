//! Samples in run order, to see warm-up and drift.

use super::{draw_mesh, err, frame, legend, present, svg, Side, ValueAxis};
use crate::error::Result;
use crate::report::view::{self, Family, SectionView};
use plotters::prelude::*;
use std::collections::HashMap;

/// Draws the chart and returns the SVG text.
pub fn draw(
    fam: &Family<'_>,
    sec: &SectionView,
    colors: &HashMap<String, RGBColor>,
    order: &[String],
) -> Result<String> {
    let s = &fam.scale;
    let series: Vec<(String, Vec<f64>)> = fam
        .groups
        .iter()
        .flat_map(|g| view::in_order(&g.variants, order))
        .filter(|v| !v.samples.is_empty())
        .map(|v| {
            (
                v.variant.clone(),
                v.samples.iter().map(|x| s.value(*x)).collect(),
            )
        })
        .collect();
    let all: Vec<f64> = series.iter().flat_map(|(_, v)| v.iter().copied()).collect();
    let max_n = series.iter().map(|(_, v)| v.len()).max().unwrap_or(1);
    let ya = ValueAxis::for_values(&all);
    let yr = ya.range(&all, false);
    let xr = 0.5f64..(max_n as f64 + 0.5);
    let unit = s.axis_suffix();
    let several = fam.groups.len() > 1;
    svg(view::RUNS_HEIGHT, |root| {
        let mut chart = frame(root, (8, 24), 64, xr.clone(), yr.clone())?;
        draw_mesh(
            chart
                .configure_mesh()
                .x_labels(max_n.min(12))
                .y_labels(if ya.log { 0 } else { 6 })
                .x_label_formatter(&|x| {
                    if (x.fract()).abs() < 1e-9 {
                        format!("{}", *x as i64)
                    } else {
                        String::new()
                    }
                })
                .y_label_formatter(&|y| ya.label(*y))
                .x_desc(if several {
                    "run (one line per variant and parameter value)"
                } else {
                    "run"
                })
                .y_desc(format!("{}{unit}{}", sec.metric, ya.note())),
        )?;
        if ya.log {
            super::log_ticks(root, &mut chart, ya, Side::Y, &xr, &yr)?;
        }
        for (name, vals) in &series {
            let c = colors.get(name).copied().unwrap_or(BLACK);
            let pts: Vec<(f64, f64)> = vals
                .iter()
                .enumerate()
                .map(|(i, v)| ((i + 1) as f64, ya.t(*v)))
                .collect();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    pts.clone(),
                    c.mix(0.8).stroke_width(1),
                )))
                .map_err(err)?;
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 3, c.filled())))
                .map_err(err)?;
        }
        let names = present(order, series.iter().map(|(n, _)| n.clone()));
        legend(root, 80, 16, &names, colors)
    })
}
