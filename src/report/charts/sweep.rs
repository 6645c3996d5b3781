//! Parameter sweeps: the centre of each variant against a numeric parameter
//! (time vs threads), with error bars, and below it the change of each
//! variant against the baseline with its interval: a change of a few
//! percent is invisible on the absolute panel, plain on the second.

use super::{draw_mesh, err, frame, legend, present, svg, Side, ValueAxis};
use crate::analysis::Comparison;
use crate::error::Result;
use crate::report::view::{self, bar, param_value, Bars, Family, SectionView};
use plotters::prelude::*;
use std::collections::HashMap;
use std::ops::Range;

/// What the sweep needs besides its family.
pub struct Context<'a> {
    pub colors: &'a HashMap<String, RGBColor>,
    pub order: &'a [String],
    /// The family's comparisons (any parameter value, any variant).
    pub changes: &'a [&'a Comparison],
    pub threshold: f64,
    pub baseline: &'a str,
}

/// (x, centre, low, high) of one variant at one parameter value.
type Point = (f64, f64, f64, f64);

/// Draws the chart and returns the SVG text.
pub fn draw(fam: &Family<'_>, sec: &SectionView, ctx: &Context<'_>) -> Result<String> {
    let key = fam.sweep.clone().unwrap_or_default();
    let s = &fam.scale;
    let mut series: HashMap<String, Vec<Point>> = HashMap::new();
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
    let changes = change_series(fam, &key, ctx.changes);
    for pts in series.values_mut() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let xs: Vec<f64> = series.values().flatten().map(|p| p.0).collect();
    let xa = ValueAxis::for_sweep(&xs);
    let ya = ValueAxis::for_sweep(&series.values().flatten().map(|p| p.1).collect::<Vec<_>>());
    let ys: Vec<f64> = series
        .values()
        .flatten()
        .flat_map(|p| [p.1, p.2, p.3])
        .filter(|v| !ya.log || *v > 0.0)
        .collect();
    let xr = xa.range(&xs, false);
    let yr = ya.range(&ys, !ya.log);
    let unit = s.axis_suffix();
    let names = present(ctx.order, series.keys().cloned());
    let two_panels = view::sweep_has_change(fam);
    let bars = match Bars::of(drawn.iter().copied()) {
        Some(b) => format!(", bars {}", b.phrase()),
        None => String::new(),
    };
    svg(view::sweep_height(fam), |root| {
        let (top, bottom) = if two_panels {
            let (t, b) = root.split_vertically(view::SWEEP_HEIGHT);
            (t, Some(b))
        } else {
            (root.clone(), None)
        };
        let panel = Panel {
            xa,
            whole_x: xs.iter().all(|x| x.fract() == 0.0),
            ya,
            xr: xr.clone(),
            yr: yr.clone(),
        };
        let y_desc = format!("{}{unit}{}{bars}", sec.metric, ya.note());
        let x_desc = format!("{key}{}", xa.note());
        panel.draw(&top, &x_desc, &y_desc, &names, &series, ctx.colors)?;
        legend(root, 80, 16, &names, ctx.colors)?;
        if let Some(bottom) = bottom {
            draw_changes(&bottom, &panel, &x_desc, &names, &changes, ctx)?;
        }
        Ok(())
    })
}

/// Each variant's change in percent at each parameter value, with its
/// interval where there is one (low = high = change otherwise).
fn change_series(
    fam: &Family<'_>,
    key: &str,
    changes: &[&Comparison],
) -> HashMap<String, Vec<Point>> {
    let mut out: HashMap<String, Vec<Point>> = HashMap::new();
    for c in changes {
        let Some(x) = param_value(&c.params, key) else {
            continue;
        };
        if !c.change_pct.is_finite() || c.benchmark != fam.benchmark {
            continue;
        }
        let (lo, hi) = match (c.ci_low_pct, c.ci_high_pct) {
            (Some(l), Some(h)) if l.is_finite() && h.is_finite() => (l, h),
            _ => (c.change_pct, c.change_pct),
        };
        out.entry(c.variant.clone())
            .or_default()
            .push((x, c.change_pct, lo, hi));
    }
    for pts in out.values_mut() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    out
}

/// One panel's axes.
struct Panel {
    xa: ValueAxis,
    /// Every x is a whole number (threads, sizes): no ticks in between.
    whole_x: bool,
    ya: ValueAxis,
    xr: Range<f64>,
    yr: Range<f64>,
}

impl Panel {
    /// Draws lines with points and error bars per variant.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
        x_desc: &str,
        y_desc: &str,
        names: &[String],
        series: &HashMap<String, Vec<Point>>,
        colors: &HashMap<String, RGBColor>,
    ) -> Result<()> {
        let (xa, ya, xr, yr) = (self.xa, self.ya, &self.xr, &self.yr);
        let mut chart = frame(area, (8, 24), 64, xr.clone(), yr.clone())?;
        draw_mesh(
            chart
                .configure_mesh()
                .x_labels(if xa.log { 0 } else { 10 })
                .y_labels(if ya.log { 0 } else { 8 })
                .x_label_formatter(&|x| {
                    if self.whole_x && x.fract().abs() > 1e-9 {
                        String::new()
                    } else {
                        xa.label_in(*x, xr)
                    }
                })
                .y_label_formatter(&|y| ya.label_in(*y, yr))
                .x_desc(x_desc)
                .y_desc(y_desc),
        )?;
        if xa.log {
            super::log_ticks(area, &mut chart, xa, Side::X, xr, yr)?;
        }
        if ya.log {
            super::log_ticks(area, &mut chart, ya, Side::Y, xr, yr)?;
        }
        let k = names.len().max(1) as f64;
        // Offset the variants a little along x so error bars do not overlap.
        let span = xr.end - xr.start;
        for (vi, name) in names.iter().enumerate() {
            let Some(pts) = series.get(name) else {
                continue;
            };
            let c = colors.get(name).copied().unwrap_or(BLACK);
            let dx = (vi as f64 - (k - 1.0) / 2.0) * span * 0.008;
            let line: Vec<(f64, f64)> = pts.iter().map(|p| (xa.t(p.0) + dx, ya.t(p.1))).collect();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    line.clone(),
                    c.stroke_width(2),
                )))
                .map_err(err)?;
            for p in pts {
                if p.2 < p.3 && (!ya.log || p.2 > 0.0) {
                    chart
                        .draw_series(std::iter::once(ErrorBar::new_vertical(
                            xa.t(p.0) + dx,
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
        Ok(())
    }
}

/// The change panel: percent against the baseline on a linear axis through
/// zero, the ±threshold band shaded, each variant's interval as a band.
fn draw_changes<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    top: &Panel,
    x_desc: &str,
    names: &[String],
    changes: &HashMap<String, Vec<Point>>,
    ctx: &Context<'_>,
) -> Result<()> {
    let mut vals = vec![0.0, ctx.threshold, -ctx.threshold];
    vals.extend(changes.values().flatten().flat_map(|p| [p.1, p.2, p.3]));
    let ya = ValueAxis { log: false };
    let yr = ya.range(&vals, true);
    let panel = Panel {
        xa: top.xa,
        whole_x: top.whole_x,
        ya,
        xr: top.xr.clone(),
        yr: yr.clone(),
    };
    let xr = &panel.xr;
    if changes.is_empty() {
        let style = super::label_style(12).color(&RGBColor(90, 90, 90));
        return area
            .draw(&Text::new(
                format!("no change against {} could be computed", ctx.baseline),
                (80, 40),
                style,
            ))
            .map_err(err);
    }
    {
        // The threshold band and the zero line go under the series.
        let mut chart = frame(area, (8, 24), 64, xr.clone(), yr.clone())?;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(xr.start, -ctx.threshold), (xr.end, ctx.threshold)],
                RGBColor(200, 200, 200).mix(0.35).filled(),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(xr.start, 0.0), (xr.end, 0.0)],
                BLACK.stroke_width(1),
            )))
            .map_err(err)?;
        for name in names {
            let Some(pts) = changes.get(name) else {
                continue;
            };
            if pts.len() < 2 || pts.iter().all(|p| p.2 == p.3) {
                continue;
            }
            let c = ctx.colors.get(name).copied().unwrap_or(BLACK);
            let mut band: Vec<(f64, f64)> = pts.iter().map(|p| (top.xa.t(p.0), p.3)).collect();
            band.extend(pts.iter().rev().map(|p| (top.xa.t(p.0), p.2)));
            chart
                .draw_series(std::iter::once(Polygon::new(band, c.mix(0.15).filled())))
                .map_err(err)?;
        }
    }
    let y_desc = format!("change vs {} (%)", ctx.baseline);
    let x_desc = format!(
        "{x_desc} — bars and bands: 95% CI; shaded: ±{}% threshold",
        super::tick(ctx.threshold)
    );
    panel.draw(area, &x_desc, &y_desc, names, changes, ctx.colors)
}
