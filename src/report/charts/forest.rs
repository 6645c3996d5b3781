//! The forest plot: change in percent with its confidence interval for every
//! comparison, against the ±threshold band.

use super::{
    clip_middle, distinct_labels, draw_mesh, err, frame, label_style, legend, present, row_label,
    row_range, svg, text_width, ValueAxis,
};
use crate::error::Result;
use crate::report::view::{self, ReportView};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;

/// Draws the chart and returns the SVG text.
pub fn draw(
    view: &ReportView,
    threshold: f64,
    colors: &HashMap<String, RGBColor>,
    order: &[String],
) -> Result<String> {
    let rows = &view.comparisons;
    let n = rows.len().max(1);
    let multi_variant = rows.iter().any(|r| r.variant != rows[0].variant);
    let full: Vec<String> = rows
        .iter()
        .map(|r| {
            if multi_variant {
                format!("{} · {}", r.label, r.variant)
            } else {
                r.label.clone()
            }
        })
        .collect();
    let (shared, labels) = distinct_labels(&full, 48);
    let mut vals: Vec<f64> = vec![0.0, threshold, -threshold];
    for r in rows {
        vals.extend(r.change.value);
        vals.extend(r.ci_low);
        vals.extend(r.ci_high);
    }
    let axis = ValueAxis { log: false };
    let xr = axis.range(&vals, true);
    let label_w = labels.iter().map(|l| text_width(l, 12)).max().unwrap_or(40) + 16;
    let height = view::forest_height(rows.len());
    let yr = row_range(n);
    svg(height, |root| {
        let mut chart = frame(root, (6, 100), label_w, xr.clone(), yr.clone())?;
        draw_mesh(
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_labels(10)
                .x_label_formatter(&|x| format!("{}%", super::tick(*x)))
                .x_desc(format!(
                    "change vs {} (%), 95% CI; shaded: ±{}% threshold",
                    view.meta.baseline,
                    super::tick(threshold)
                )),
        )?;
        let (ylo, yhi) = (yr.start, yr.end);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(-threshold, ylo), (threshold, yhi)],
                RGBColor(200, 200, 200).mix(0.35).filled(),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, ylo), (0.0, yhi)],
                BLACK.stroke_width(1),
            )))
            .map_err(err)?;
        for (i, r) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let c = colors.get(&r.variant).copied().unwrap_or(BLACK);
            if let (Some(lo), Some(hi)) = (r.ci_low, r.ci_high) {
                chart
                    .draw_series(std::iter::once(ErrorBar::new_horizontal(
                        y,
                        lo,
                        r.change.value.unwrap_or((lo + hi) / 2.0),
                        hi,
                        c.stroke_width(2),
                        8,
                    )))
                    .map_err(err)?;
            }
            if let Some(v) = r.change.value {
                let style = if r.suspect {
                    c.stroke_width(2)
                } else {
                    c.filled()
                };
                chart
                    .draw_series(std::iter::once(Circle::new((v, y), 5, style)))
                    .map_err(err)?;
            }
            let (px, py) = chart.backend_coord(&(xr.start, y));
            row_label(root, &labels[i], (px - 8, py), BLACK)?;
            let (ex, _) = chart.backend_coord(&(xr.end, y));
            let vc = match r.verdict.as_str() {
                "regressed" => RGBColor(0xD5, 0x5E, 0x00),
                "improved" => RGBColor(0x00, 0x72, 0xB2),
                _ => RGBColor(90, 90, 90),
            };
            let style = label_style(12)
                .color(&vc)
                .pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(r.verdict_text.clone(), (ex + 8, py), style))
                .map_err(err)?;
        }
        if let Some(shared) = &shared {
            // The words every row starts with, once, above the labels.
            let style = label_style(12)
                .color(&RGBColor(90, 90, 90))
                .pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(
                format!("{} …", clip_middle(shared, 100)),
                (6, 28),
                style,
            ))
            .map_err(err)?;
        }
        let names = present(order, rows.iter().map(|r| r.variant.clone()));
        legend(root, label_w as i32 + 10, 12, &names, colors)
    })
}
