//! Parameter sweeps: the centre of each variant against a numeric parameter
//! (time vs threads), with error bars.

use super::{draw_mesh, err, frame, legend, present, svg, Side, ValueAxis};
use crate::error::Result;
use crate::report::view::{self, bar, param_value, Bars, Family, SectionView};
use plotters::prelude::*;
use std::collections::HashMap;

/// Draws the chart and returns the SVG text.
pub fn draw(
    fam: &Family<'_>,
    sec: &SectionView,
    colors: &HashMap<String, RGBColor>,
    order: &[String],
) -> Result<String> {
    let key = fam.sweep.clone().unwrap_or_default();
    let s = &fam.scale;
    // variant -> [(x, centre, low, high)]
    let mut series: HashMap<String, Vec<(f64, f64, f64, f64)>> = HashMap::new();
    let mut drawn = Vec::new();
    for g in &fam.groups {
        let Some(x) = param_value(&g.params, &key) else {
            continue;
        };
        for v in &g.variants {
            let Some(c) = view::centre(v) else { continue };
            let (lo, hi, _) = bar(v, c);
            drawn.push(v);
            series.entry(v.variant.clone()).or_default().push((
                x,
                s.value(c),
                s.value(lo),
                s.value(hi),
            ));
        }
    }
    for pts in series.values_mut() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let xs: Vec<f64> = series.values().flatten().map(|p| p.0).collect();
    let ys: Vec<f64> = series
        .values()
        .flatten()
        .flat_map(|p| [p.1, p.2.max(f64::MIN_POSITIVE), p.3])
        .collect();
    let xa = ValueAxis::for_values(&xs);
    let ya = ValueAxis::for_values(&series.values().flatten().map(|p| p.1).collect::<Vec<_>>());
    let ys_for_range: Vec<f64> = if ya.log {
        ys.iter().copied().filter(|v| *v > 0.0).collect()
    } else {
        ys
    };
    let xr = xa.range(&xs, false);
    let yr = ya.range(&ys_for_range, !ya.log);
    let unit = s.axis_suffix();
    svg(view::SWEEP_HEIGHT, |root| {
        let mut chart = frame(root, (8, 24), 64, xr.clone(), yr.clone())?;
        draw_mesh(
            chart
                .configure_mesh()
                .x_labels(if xa.log { 0 } else { 10 })
                .y_labels(if ya.log { 0 } else { 8 })
                .x_label_formatter(&|x| xa.label(*x))
                .y_label_formatter(&|y| ya.label(*y))
                .x_desc(format!("{key}{}", xa.note()))
                .y_desc(format!(
                    "{}{unit}{}{}",
                    sec.metric,
                    ya.note(),
                    match Bars::of(drawn.iter().copied()) {
                        Some(b) => format!(", bars {}", b.phrase()),
                        None => String::new(),
                    }
                )),
        )?;
        if xa.log {
            super::log_ticks(root, &mut chart, xa, Side::X, &xr, &yr)?;
        }
        if ya.log {
            super::log_ticks(root, &mut chart, ya, Side::Y, &xr, &yr)?;
        }
        let names = present(order, series.keys().cloned());
        let k = names.len().max(1) as f64;
        // Offset the variants a little along x so error bars do not overlap.
        let span = xr.end - xr.start;
        for (vi, name) in names.iter().enumerate() {
            let c = colors.get(name).copied().unwrap_or(BLACK);
            let pts = &series[name];
            let dx = (vi as f64 - (k - 1.0) / 2.0) * span * 0.008;
            let line: Vec<(f64, f64)> = pts.iter().map(|p| (xa.t(p.0) + dx, ya.t(p.1))).collect();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    line.clone(),
                    c.stroke_width(2),
                )))
                .map_err(err)?;
            for p in pts {
                let x = xa.t(p.0) + dx;
                if p.2 < p.3 && (!ya.log || p.2 > 0.0) {
                    chart
                        .draw_series(std::iter::once(ErrorBar::new_vertical(
                            x,
                            ya.t(p.2),
                            ya.t(p.1),
                            ya.t(p.3),
                            c.stroke_width(1),
                            8,
                        )))
                        .map_err(err)?;
                }
            }
            chart
                .draw_series(
                    line.iter()
                        .map(|(x, y)| Circle::new((*x, *y), 4, c.filled())),
                )
                .map_err(err)?;
        }
        legend(root, 80, 16, &names, colors)
    })
}
