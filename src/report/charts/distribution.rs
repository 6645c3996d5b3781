//! Per-benchmark distributions: box and strip of the samples per variant,
//! or mean with its interval when only summaries were given.
//!
//! When the parameter values of a family lie far apart (hackbench at 1 and
//! at 16 groups), each gets a panel with its own axis: on one shared axis
//! the boxes of the small values would be squeezed to dots.

use super::{
    clip, draw_mesh, err, legend, present, quantile, row_label, row_range, svg, text_width, Side,
    ValueAxis,
};
use crate::analysis::Thinned;
use crate::error::Result;
use crate::report::format::Scale;
use crate::report::view::{self, bar, Bars, Family, SectionView};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;

struct Row {
    label: String,
    variant: String,
    samples: Vec<f64>,
    /// (centre, low, high) for summary rows.
    summary: Option<(f64, f64, f64)>,
    /// A thinned side's box (low whisker, q1, median, q3, high whisker)
    /// and the points it draws.
    thinned: Option<([f64; 5], Vec<f64>)>,
}

impl Row {
    /// Every value the row draws.
    fn values(&self) -> impl Iterator<Item = f64> + '_ {
        let thinned = self.thinned.iter().flat_map(|(b, pts)| b.iter().chain(pts));
        self.samples
            .iter()
            .chain(thinned)
            .copied()
            .chain(self.summary.into_iter().flat_map(|(c, l, h)| [c, l, h]))
    }
}

/// A thinned side's box and the points it draws, in the display unit.
fn thinned_row(t: &Thinned, s: &Scale) -> Option<([f64; 5], Vec<f64>)> {
    let b = t.box_figures?;
    let figures = [b.low_whisker, b.q1, b.median, b.q3, b.high_whisker].map(|x| s.value(x));
    let points = t
        .extremes_outside()
        .into_iter()
        .map(|x| s.value(x))
        .collect();
    Some((figures, points))
}

/// One panel: a title (the parameter values, empty for a single panel) and
/// its rows.
struct Panel {
    title: String,
    rows: Vec<Row>,
}

/// Draws the chart and returns the SVG text.
pub fn draw(
    fam: &Family<'_>,
    sec: &SectionView,
    colors: &HashMap<String, RGBColor>,
    order: &[String],
) -> Result<String> {
    let facets = view::distribution_facets(fam);
    let panels = panels(fam, order, facets);
    let all: Vec<f64> = panels
        .iter()
        .flat_map(|p| p.rows.iter().flat_map(Row::values))
        .collect();
    let label_w = panels
        .iter()
        .flat_map(|p| &p.rows)
        .map(|r| text_width(&r.label, 12))
        .max()
        .unwrap_or(40)
        + 16;
    let bars = Bars::of(view::summary_only(fam));
    let axis_of = |vals: &[f64]| ValueAxis::for_values(vals);
    let x_desc = |axis: ValueAxis| {
        format!(
            "{}{}{}{}",
            sec.metric,
            fam.scale.axis_suffix(),
            axis.note(),
            match bars {
                // Intervals are what a reader assumes; only say otherwise.
                Some(Bars::Sd) => " — bars: mean ± stddev",
                Some(Bars::Mixed) => " — bars: mean with 95% CI, or ± stddev where none was stated",
                _ => "",
            }
        )
    };
    let names = present(
        order,
        panels
            .iter()
            .flat_map(|p| p.rows.iter().map(|r| r.variant.clone())),
    );
    if !facets {
        let rows = &panels[0].rows;
        let axis = axis_of(&all);
        let height = view::distribution_height(rows.len());
        return svg(height, |root| {
            let layout = Layout {
                top: 36,
                ticks: 44,
                label_w,
                desc: Some(x_desc(axis)),
            };
            draw_panel(root, rows, axis, &layout, colors)?;
            legend(root, label_w as i32 + 10, 16, &names, colors)
        });
    }
    let sizes: Vec<usize> = panels.iter().map(|p| p.rows.len()).collect();
    let height = view::facets_height(&sizes);
    // Each panel its own axis: a panel within one decade reads better on
    // a linear one even when the family spans many.
    let axes: Vec<ValueAxis> = panels
        .iter()
        .map(|p| axis_of(&p.rows.iter().flat_map(Row::values).collect::<Vec<_>>()))
        .collect();
    svg(height, |root| {
        legend(root, label_w as i32 + 10, 16, &names, colors)?;
        let mut y = 36i32;
        for (p, axis) in panels.iter().zip(&axes) {
            let axis = *axis;
            let h = view::FACET_TITLE + 26 * p.rows.len().max(1) as u32 + view::FACET_TICKS;
            let area = root.clone().shrink((0, y), (view::CHART_WIDTH, h));
            let layout = Layout {
                top: view::FACET_TITLE,
                ticks: view::FACET_TICKS,
                label_w,
                desc: None,
            };
            draw_panel(&area, &p.rows, axis, &layout, colors)?;
            let style = super::label_style(12)
                .color(&RGBColor(60, 60, 60))
                .pos(Pos::new(HPos::Left, VPos::Center));
            let title = if axis.log {
                format!("{} (log scale)", clip(&p.title, 80))
            } else {
                clip(&p.title, 90)
            };
            area.draw(&Text::new(
                title,
                (label_w as i32 + 8, (view::FACET_TITLE / 2) as i32),
                style,
            ))
            .map_err(err)?;
            y += h as i32;
        }
        let style = super::label_style(13).pos(Pos::new(HPos::Center, VPos::Center));
        let text = format!(
            "{} — each panel its own scale",
            x_desc(ValueAxis { log: false })
        );
        root.draw(&Text::new(
            text,
            (
                (label_w as i32 + view::CHART_WIDTH as i32) / 2,
                height as i32 - 15,
            ),
            style,
        ))
        .map_err(err)
    })
}

/// The family's rows, in one panel or one per parameter value.
fn panels(fam: &Family<'_>, order: &[String], facets: bool) -> Vec<Panel> {
    let s = &fam.scale;
    let mut out: Vec<Panel> = Vec::new();
    for g in &fam.groups {
        let varying = fam.varying(&g.params);
        let rows: Vec<Row> = view::in_order(&g.variants, order)
            .into_iter()
            .map(|v| {
                let label = if !facets && !varying.is_empty() {
                    format!("{varying} · {}", v.variant)
                } else {
                    v.variant.clone()
                };
                let samples: Vec<f64> = v.samples.iter().map(|x| s.value(*x)).collect();
                let thinned = v.thinned.as_ref().and_then(|t| thinned_row(t, s));
                let summary = if samples.is_empty() && thinned.is_none() {
                    v.mean.map(|m| {
                        let (lo, hi, _) = bar(v, m);
                        (s.value(m), s.value(lo), s.value(hi))
                    })
                } else {
                    None
                };
                Row {
                    label: clip(&label, 56),
                    variant: v.variant.clone(),
                    samples,
                    summary,
                    thinned,
                }
            })
            .collect();
        match out.first_mut() {
            Some(p) if !facets => p.rows.extend(rows),
            _ => out.push(Panel {
                title: varying,
                rows,
            }),
        }
    }
    if out.is_empty() {
        out.push(Panel {
            title: String::new(),
            rows: Vec::new(),
        });
    }
    out
}

/// Where a panel's plot sits in its area.
struct Layout {
    /// Pixels above the plot.
    top: u32,
    /// Pixels below it for tick labels (and the axis title, if any).
    ticks: u32,
    /// Pixels left of it for row labels.
    label_w: u32,
    /// The axis title, drawn under the ticks.
    desc: Option<String>,
}

/// Draws `rows` in `area` on a value axis of their own range.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    rows: &[Row],
    axis: ValueAxis,
    layout: &Layout,
    colors: &HashMap<String, RGBColor>,
) -> Result<()> {
    let vals: Vec<f64> = rows.iter().flat_map(Row::values).collect();
    let xr = axis.range(&vals, false);
    let n = rows.len().max(1);
    let yr = row_range(n);
    let mut chart = ChartBuilder::on(area)
        .margin_top(layout.top)
        .margin_right(20)
        .margin_left(6)
        .margin_bottom(if layout.desc.is_some() { 6 } else { 0 })
        .x_label_area_size(layout.ticks)
        .y_label_area_size(layout.label_w)
        .build_cartesian_2d(xr.clone(), yr.clone())
        .map_err(err)?;
    let fmt = |x: &f64| axis.label_in(*x, &xr);
    let mut mesh = chart.configure_mesh();
    mesh.disable_y_mesh()
        .y_labels(0)
        .x_labels(if axis.log { 0 } else { 8 })
        .x_label_formatter(&fmt);
    if let Some(d) = &layout.desc {
        mesh.x_desc(d.clone());
    }
    draw_mesh(&mut mesh)?;
    if axis.log {
        super::log_ticks(area, &mut chart, axis, Side::X, &xr, &yr)?;
    }
    for (i, r) in rows.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let c = colors.get(&r.variant).copied().unwrap_or(BLACK);
        draw_row(&mut chart, r, y, axis, c)?;
        let (px, py) = chart.backend_coord(&(xr.start, y));
        row_label(area, &r.label, (px - 8, py), BLACK)?;
    }
    Ok(())
}

type Plot<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// A box with its points, the points alone, or a summary's interval.
fn draw_row<DB: DrawingBackend>(
    chart: &mut Plot<'_, DB>,
    r: &Row,
    y: f64,
    axis: ValueAxis,
    c: RGBColor,
) -> Result<()> {
    let t = |v: f64| axis.t(v);
    let line = |chart: &mut Plot<'_, DB>, pts: Vec<(f64, f64)>, w: u32| {
        chart
            .draw_series(std::iter::once(PathElement::new(pts, c.stroke_width(w))))
            .map(|_| ())
            .map_err(err)
    };
    // The box and its points: of every sample, or a thinned side's box
    // (of every sample too, taken in the analysis) with the points it
    // keeps.
    let boxed = if let Some((figures, points)) = &r.thinned {
        Some((*figures, points))
    } else if r.samples.len() >= 3 {
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
        Some(([lo_w, q1, q2, q3, hi_w], &r.samples))
    } else {
        None
    };
    if let Some(([lo_w, q1, q2, q3, hi_w], points)) = boxed {
        let bx = [(t(q1), y - 0.3), (t(q3), y + 0.3)];
        chart
            .draw_series(std::iter::once(Rectangle::new(bx, c.mix(0.18).filled())))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Rectangle::new(bx, c.stroke_width(1))))
            .map_err(err)?;
        line(chart, vec![(t(q2), y - 0.3), (t(q2), y + 0.3)], 3)?;
        line(chart, vec![(t(lo_w), y), (t(q1), y)], 1)?;
        line(chart, vec![(t(q3), y), (t(hi_w), y)], 1)?;
        line(chart, vec![(t(lo_w), y - 0.15), (t(lo_w), y + 0.15)], 1)?;
        line(chart, vec![(t(hi_w), y - 0.15), (t(hi_w), y + 0.15)], 1)?;
        // Deterministic jitter: the golden-ratio sequence spreads points
        // evenly without a random generator.
        let pts = points.iter().enumerate().map(|(k, v)| {
            let j = ((k as f64 * 0.618_033_988_75).fract() - 0.5) * 0.4;
            Circle::new((t(*v), y + j), 3, c.mix(0.75).filled())
        });
        chart.draw_series(pts).map_err(err)?;
    } else if !r.samples.is_empty() {
        // One or two runs: the points themselves, no box.
        let pts = r
            .samples
            .iter()
            .map(|v| Circle::new((t(*v), y), 5, c.filled()));
        chart.draw_series(pts).map_err(err)?;
    } else if let Some((m, lo, hi)) = r.summary {
        line(chart, vec![(t(lo), y), (t(hi), y)], 2)?;
        for e in [lo, hi] {
            line(chart, vec![(t(e), y - 0.18), (t(e), y + 0.18)], 2)?;
        }
        chart
            .draw_series(std::iter::once(Circle::new((t(m), y), 5, c.filled())))
            .map_err(err)?;
    }
    Ok(())
}
