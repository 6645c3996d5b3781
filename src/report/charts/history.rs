//! One series of a history: a column per point in order, every run as a
//! dot, the point's median with its 95% interval, the level of each segment
//! between change points as a step line, and each change point as a dashed
//! line labelled with its change.

use super::{clip, draw_mesh, err, frame, label_style, legend, svg, text_width, Side, ValueAxis};
use crate::analysis::history::Series;
use crate::analysis::Verdict;
use crate::error::Result;
use crate::report::format::{pct, Scale};
use crate::report::history::view::{marks, HISTORY_HEIGHT};
use crate::stats::summary::{mean, median, median_ci_sorted};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;

const RUN: RGBColor = RGBColor(160, 160, 160);
const MEDIAN: RGBColor = RGBColor(40, 40, 46);
const LEVEL: RGBColor = RGBColor(230, 159, 0);
const REGRESSED: RGBColor = RGBColor(213, 94, 0);
const IMPROVED: RGBColor = RGBColor(0, 114, 178);
const CHANGED: RGBColor = RGBColor(204, 121, 167);

/// Left and right margins of the plot and the width of its y labels, in
/// pixels: what the x labels have to share.
const MARGINS: (u32, u32, u32) = (8, 24, 64);

fn verdict_color(v: Verdict) -> RGBColor {
    match v {
        Verdict::Regressed => REGRESSED,
        Verdict::Improved => IMPROVED,
        _ => CHANGED,
    }
}

/// The segments' levels: the mean of the centres of the points between
/// one change point and the next, as `(first, last, level)`.
pub fn levels(s: &Series) -> Vec<(usize, usize, f64)> {
    let mut bounds: Vec<usize> = vec![0];
    bounds.extend(s.change_points.iter().map(|c| c.index));
    bounds.push(s.points.len());
    bounds
        .windows(2)
        .filter(|w| w[1] > w[0])
        .map(|w| {
            let centres: Vec<f64> = s.points[w[0]..w[1]].iter().map(|p| p.center).collect();
            (w[0], w[1] - 1, mean(&centres))
        })
        .collect()
}

/// Every `step`-th point gets a label under the axis: as many as fit side
/// by side.
fn label_step(names: &[String]) -> usize {
    let (l, r, y) = MARGINS;
    let room = super::WIDTH.saturating_sub(l + r + y).max(1) as usize;
    let widest = names
        .iter()
        .map(|n| text_width(&clip(n, 14), 11) as usize + 10)
        .max()
        .unwrap_or(1);
    (names.len() * widest).div_ceil(room).max(1)
}

/// Draws the chart of one series and returns the SVG text.
pub fn draw(s: &Series) -> Result<String> {
    let centres: Vec<f64> = s.points.iter().map(|p| p.center).collect();
    let scale = Scale::for_values(&s.unit, median(&centres));
    let v = |x: f64| scale.value(x);
    let mut all: Vec<f64> = s
        .points
        .iter()
        .flat_map(|p| p.runs.iter().copied().chain([p.center]))
        .map(v)
        .collect();
    all.retain(|x| x.is_finite());
    let ya = ValueAxis::for_values(&all);
    let yr = ya.range(&all, false);
    let n = s.points.len();
    let xr = -0.6f64..(n.max(1) as f64 - 0.4);
    let names: Vec<String> = s.points.iter().map(|p| p.variant.clone()).collect();
    let step = label_step(&names);
    let axis = format!("{}{}{}", s.metric, scale.axis_suffix(), ya.note());
    svg(HISTORY_HEIGHT, |root| {
        let (l, r, y) = MARGINS;
        let mut chart = frame(root, (l, r), y, xr.clone(), yr.clone())?;
        draw_mesh(
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_labels(if ya.log { 0 } else { 6 })
                .y_label_formatter(&|y| ya.label(*y))
                .x_desc(if step > 1 {
                    format!("point (one in {step} labelled)")
                } else {
                    "point".to_string()
                })
                .y_desc(axis.clone()),
        )?;
        if ya.log {
            super::log_ticks(root, &mut chart, ya, Side::Y, &xr, &yr)?;
        }
        // Point names under the axis, centred on their column.
        for (i, name) in names.iter().enumerate().step_by(step) {
            let (px, py) = chart.backend_coord(&(i as f64, yr.start));
            let style = label_style(11).pos(Pos::new(HPos::Center, VPos::Top));
            root.draw(&Text::new(clip(name, 14), (px, py + 5), style))
                .map_err(err)?;
        }
        // Change points first, so that the data is drawn over them.
        for (k, c) in s.change_points.iter().enumerate() {
            let x = c.index as f64 - 0.5;
            let col = verdict_color(c.verdict);
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(x, yr.start), (x, yr.end)],
                    5,
                    4,
                    col.stroke_width(2),
                )))
                .map_err(err)?;
            let (px, py) = chart.backend_coord(&(x, yr.end));
            let text = c.change_pct.map(pct).unwrap_or_else(|| "changed".into());
            let style = label_style(11)
                .color(&col)
                .pos(Pos::new(HPos::Left, VPos::Top));
            // Neighbouring labels alternate between two rows.
            let dy = 3 + 13 * (k % 2) as i32;
            root.draw(&Text::new(text, (px + 4, py + dy), style))
                .map_err(err)?;
        }
        // Segment levels as one step line.
        let mut path: Vec<(f64, f64)> = Vec::new();
        for (a, b, level) in levels(s) {
            let t = ya.t(v(level));
            path.push((a as f64 - 0.5, t));
            path.push((b as f64 + 0.5, t));
        }
        if let Some(first) = path.first_mut() {
            first.0 = first.0.max(xr.start);
        }
        if let Some(last) = path.last_mut() {
            last.0 = last.0.min(xr.end);
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                path,
                LEVEL.stroke_width(2),
            )))
            .map_err(err)?;
        let m = marks(s);
        // Runs, spread a little across their column so equal values stay
        // visible.
        for (i, p) in s.points.iter().enumerate().filter(|_| m.dots) {
            let k = p.runs.len();
            if k < 2 {
                continue;
            }
            let width = 0.36f64.min(0.06 * k as f64);
            let dots = p.runs.iter().enumerate().map(|(j, x)| {
                let off = width * (j as f64 / (k - 1) as f64 - 0.5);
                Circle::new((i as f64 + off, ya.t(v(*x))), 2, RUN.mix(0.75).filled())
            });
            chart.draw_series(dots).map_err(err)?;
        }
        // Medians and their intervals: a dot and a bar each, or for many
        // points one line in one band.
        let intervals: Vec<Option<(f64, f64)>> = s
            .points
            .iter()
            .map(|p| {
                let mut sorted = p.runs.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                median_ci_sorted(&sorted, 0.95).map(|(lo, hi)| (ya.t(v(lo)), ya.t(v(hi))))
            })
            .collect();
        let centre = |i: usize| ya.t(v(s.points[i].center));
        if m.points {
            for (i, ci) in intervals.iter().enumerate() {
                let x = i as f64;
                if let Some((lo, hi)) = ci {
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![(x, *lo), (x, *hi)],
                            MEDIAN.stroke_width(2),
                        )))
                        .map_err(err)?;
                }
                chart
                    .draw_series(std::iter::once(Circle::new(
                        (x, centre(i)),
                        4,
                        MEDIAN.filled(),
                    )))
                    .map_err(err)?;
            }
        } else {
            if intervals.iter().any(Option::is_some) {
                let upper = (0..n).map(|i| (i as f64, intervals[i].map_or(centre(i), |c| c.1)));
                let lower = (0..n)
                    .rev()
                    .map(|i| (i as f64, intervals[i].map_or(centre(i), |c| c.0)));
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        upper.chain(lower).collect::<Vec<_>>(),
                        MEDIAN.mix(0.18).filled(),
                    )))
                    .map_err(err)?;
            }
            chart
                .draw_series(std::iter::once(PathElement::new(
                    (0..n).map(|i| (i as f64, centre(i))).collect::<Vec<_>>(),
                    MEDIAN.stroke_width(1),
                )))
                .map_err(err)?;
        }
        let mut keys: Vec<(String, RGBColor)> = Vec::new();
        if m.several {
            if m.dots {
                keys.push(("runs".into(), RUN));
            }
            keys.push(("median (95% CI)".into(), MEDIAN));
        } else {
            keys.push(("value".into(), MEDIAN));
        }
        keys.push(("segment level".into(), LEVEL));
        for (verdict, col) in [
            (Verdict::Regressed, REGRESSED),
            (Verdict::Improved, IMPROVED),
            (Verdict::Changed, CHANGED),
        ] {
            if s.change_points.iter().any(|c| c.verdict == verdict) {
                keys.push((format!("change point: {}", verdict.as_str()), col));
            }
        }
        let names: Vec<String> = keys.iter().map(|(k, _)| k.clone()).collect();
        let colors: HashMap<String, RGBColor> = keys.into_iter().collect();
        legend(root, 80, 16, &names, &colors)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::history::{HistoryChange, Method, Point};
    use crate::model::Direction;

    fn series(centres: &[f64], cuts: &[(usize, Verdict)]) -> Series {
        Series {
            benchmark: "b".into(),
            params: String::new(),
            metric: "time".into(),
            unit: "s".into(),
            direction: Direction::Lower,
            method: Method::Runs,
            points: centres
                .iter()
                .enumerate()
                .map(|(i, c)| Point {
                    variant: format!("p{i}"),
                    n: 6,
                    center: *c,
                    runs: (0..6).map(|k| c + 0.01 * k as f64).collect(),
                })
                .collect(),
            change_points: cuts
                .iter()
                .map(|(i, v)| HistoryChange {
                    index: *i,
                    before: format!("p{}", i - 1),
                    after: format!("p{i}"),
                    change_pct: Some(12.5),
                    ci_low_pct: Some(10.0),
                    ci_high_pct: Some(15.0),
                    p_value: 1e-4,
                    q_value: 1e-4,
                    verdict: *v,
                    config_changes: Vec::new(),
                })
                .collect(),
            note: None,
        }
    }

    #[test]
    fn segments_run_between_change_points() {
        let s = series(
            &[1.0, 1.0, 2.0, 2.0, 2.0, 1.0],
            &[(2, Verdict::Regressed), (5, Verdict::Improved)],
        );
        assert_eq!(levels(&s), vec![(0, 1, 1.0), (2, 4, 2.0), (5, 5, 1.0)]);
        assert_eq!(levels(&series(&[1.0, 3.0], &[])), vec![(0, 1, 2.0)]);
    }

    #[test]
    fn the_chart_marks_each_change_point_and_names_its_verdict() {
        let s = series(
            &[1.0, 1.0, 2.0, 2.0, 2.0, 1.0],
            &[(2, Verdict::Regressed), (5, Verdict::Improved)],
        );
        let svg = draw(&s).unwrap();
        assert!(svg.contains("change point: regressed"), "{svg}");
        assert!(svg.contains("change point: improved"));
        assert!(svg.contains("+12.5%"));
        // Two dashed lines: plotters writes a dashed path as many segments
        // in the verdict's colour.
        assert!(svg.contains("#D55E00") && svg.contains("#0072B2"));
        for p in ["p0", "p5"] {
            assert!(
                svg.contains(&format!(">\n{p}\n</text>")),
                "label {p} missing"
            );
        }
        let quiet = draw(&series(&[1.0, 1.1, 1.0], &[])).unwrap();
        assert!(!quiet.contains("change point:"));
    }

    #[test]
    fn a_long_series_is_drawn_as_a_line_in_a_band_and_stays_small() {
        let centres: Vec<f64> = (0..600).map(|i| if i < 300 { 1.0 } else { 1.2 }).collect();
        let s = series(&centres, &[(300, Verdict::Regressed)]);
        let svg = draw(&s).unwrap();
        // 3,600 runs would be as many circles; the line and band are two
        // elements (the legend and the few marks aside).
        assert!(
            svg.matches("<circle").count() < 10,
            "no dot per run or point"
        );
        assert!(svg.contains("<polygon"), "the band of the intervals");
        assert!(svg.len() < 60_000, "{} bytes", svg.len());
        assert!(
            !svg.contains(">\nruns\n</text>"),
            "no legend entry for runs not drawn"
        );
    }

    #[test]
    fn long_histories_label_every_kth_point() {
        let names: Vec<String> = (0..500).map(|i| format!("6.{i}-rc1")).collect();
        assert!(label_step(&names) > 1);
        assert_eq!(label_step(&names[..8]), 1);
    }
}
