//! Samples in run order, to see warm-up and drift.
//!
//! One line per variant and parameter value: in the variant's colour, a
//! shade lighter or darker per parameter value, and named at its right end
//! so that a line that drifts can be told from its neighbours. A side of
//! more samples than the chart has pixels is drawn from its buckets of
//! runs: a band from each bucket's smallest to its largest sample (a
//! single spike stays visible) and a line through their means.

use super::{
    draw_mesh, err, frame, label_style, legend, present, svg, text_width, Side, ValueAxis,
};
use crate::analysis::{Bucket, Thinned};
use crate::error::Result;
use crate::report::format::Scale;
use crate::report::view::{self, Family, SectionView};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;

/// One line of the chart.
struct Series {
    variant: String,
    /// The parameter values that tell it apart within the family.
    label: String,
    /// Index of its parameter value among the family's groups.
    group: usize,
    /// Every sample in run order (empty for a thinned side).
    values: Vec<f64>,
    /// A thinned side's buckets.
    band: Option<Band>,
}

/// A thinned side's buckets, in the display unit.
struct Band {
    /// Run number at the middle of each bucket.
    at: Vec<f64>,
    min: Vec<f64>,
    max: Vec<f64>,
    mean: Vec<f64>,
    /// Number of samples.
    n: usize,
}

impl Band {
    fn of(t: &Thinned, s: &Scale) -> Band {
        let n = t.n as usize;
        let per = t.per as usize;
        let at = (0..t.buckets.len())
            .map(|k| {
                let first = k * per + 1;
                let last = ((k + 1) * per).min(n);
                (first + last) as f64 / 2.0
            })
            .collect();
        let pick = |f: fn(&Bucket) -> f64| t.buckets.iter().map(|b| s.value(f(b))).collect();
        Band {
            at,
            min: pick(|b| b.min),
            max: pick(|b| b.max),
            mean: pick(|b| b.mean),
            n,
        }
    }
}

impl Series {
    /// Number of runs.
    fn len(&self) -> usize {
        self.band.as_ref().map_or(self.values.len(), |b| b.n)
    }

    /// Every value the series draws (a band's means lie within it).
    fn drawn(&self) -> impl Iterator<Item = f64> + '_ {
        let band = self.band.iter().flat_map(|b| b.min.iter().chain(&b.max));
        self.values.iter().chain(band).copied()
    }
}

/// Draws the chart and returns the SVG text.
pub fn draw(
    fam: &Family<'_>,
    sec: &SectionView,
    colors: &HashMap<String, RGBColor>,
    order: &[String],
) -> Result<String> {
    let s = &fam.scale;
    let several = fam.groups.len() > 1;
    let series: Vec<Series> = fam
        .groups
        .iter()
        .enumerate()
        .flat_map(|(gi, g)| {
            view::in_order(&g.variants, order)
                .into_iter()
                .map(move |v| (gi, g, v))
        })
        .filter(|(_, _, v)| v.has_samples())
        .map(|(gi, g, v)| Series {
            variant: v.variant.clone(),
            label: if several {
                fam.varying(&g.params)
            } else {
                String::new()
            },
            group: gi,
            values: v.samples.iter().map(|x| s.value(*x)).collect(),
            band: v.thinned.as_ref().map(|t| Band::of(t, s)),
        })
        .collect();
    let all: Vec<f64> = series.iter().flat_map(Series::drawn).collect();
    let max_n = series.iter().map(Series::len).max().unwrap_or(1);
    let thinned = view::runs_thinned_note(fam);
    let ya = ValueAxis::for_values(&all);
    let yr = ya.range(&all, false);
    let xr = 0.5f64..(max_n as f64 + 0.5);
    let unit = s.axis_suffix();
    let label_room = series
        .iter()
        .map(|l| text_width(&l.label, 11))
        .max()
        .unwrap_or(0);
    let right = if label_room > 0 { label_room + 14 } else { 24 };
    let groups = fam.groups.len();
    svg(view::RUNS_HEIGHT, |root| {
        let mut chart = frame(root, (8, right), 64, xr.clone(), yr.clone())?;
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
                .y_label_formatter(&|y| ya.label_in(*y, &yr))
                .x_desc(match (several, &thinned) {
                    (true, None) => {
                        "run (one line per variant and parameter value, named at its end)".into()
                    }
                    (false, None) => "run".into(),
                    (_, Some(note)) => format!("run ({note})"),
                })
                .y_desc(format!("{}{unit}{}", sec.metric, ya.note())),
        )?;
        if ya.log {
            super::log_ticks(root, &mut chart, ya, Side::Y, &xr, &yr)?;
        }
        let mut ends: Vec<(i32, i32, String, RGBColor)> = Vec::new();
        for l in &series {
            let base = colors.get(&l.variant).copied().unwrap_or(BLACK);
            let c = shade(base, l.group, groups);
            if let Some(b) = &l.band {
                let end = draw_band(&mut chart, b, ya, c)?;
                if !l.label.is_empty() {
                    let (px, py) = chart.backend_coord(&end);
                    ends.push((px, py, l.label.clone(), c));
                }
                continue;
            }
            let pts: Vec<(f64, f64)> = l
                .values
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
            if let (Some(last), false) = (pts.last(), l.label.is_empty()) {
                let (px, py) = chart.backend_coord(last);
                ends.push((px, py, l.label.clone(), c));
            }
        }
        for (px, py, text, c) in spread(ends, 12) {
            let style = label_style(11)
                .color(&c)
                .pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(text, (px + 7, py), style))
                .map_err(err)?;
        }
        let names = present(order, series.iter().map(|l| l.variant.clone()));
        legend(root, 80, 16, &names, colors)
    })
}

/// Draws a thinned side: the band of its buckets' ranges, its means as a
/// line. Returns the last mean's point, where the line is named.
fn draw_band<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    b: &Band,
    ya: ValueAxis,
    c: RGBColor,
) -> Result<(f64, f64)> {
    let upper = b.at.iter().zip(&b.max).map(|(x, v)| (*x, ya.t(*v)));
    let lower = b.at.iter().zip(&b.min).rev().map(|(x, v)| (*x, ya.t(*v)));
    let outline: Vec<(f64, f64)> = upper.chain(lower).collect();
    chart
        .draw_series(std::iter::once(Polygon::new(
            outline.clone(),
            c.mix(0.3).filled(),
        )))
        .map_err(err)?;
    // The outline too: a bucket whose range is under a pixel still shows.
    let mut closed = outline;
    closed.extend(closed.first().copied());
    chart
        .draw_series(std::iter::once(PathElement::new(
            closed,
            c.mix(0.5).stroke_width(1),
        )))
        .map_err(err)?;
    let means: Vec<(f64, f64)> =
        b.at.iter()
            .zip(&b.mean)
            .map(|(x, v)| (*x, ya.t(*v)))
            .collect();
    let end = means.last().copied().unwrap_or((0.0, 0.0));
    chart
        .draw_series(std::iter::once(PathElement::new(means, c.stroke_width(1))))
        .map_err(err)?;
    Ok(end)
}

/// The colour of parameter value `i` of `n`: the variant's colour, darker
/// for the first values and lighter for the last, so the lines of one
/// variant stay its colour yet differ.
fn shade(c: RGBColor, i: usize, n: usize) -> RGBColor {
    if n <= 1 {
        return c;
    }
    // From 35% towards black to 35% towards white.
    let t = -0.35 + 0.7 * i as f64 / (n - 1) as f64;
    let mix = |x: u8| {
        let x = x as f64;
        let y = if t < 0.0 {
            x * (1.0 + t)
        } else {
            x + (255.0 - x) * t
        };
        y.round().clamp(0.0, 255.0) as u8
    };
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// Moves end labels apart vertically so that none is closer than `gap`
/// pixels to the next (labels of lines ending at the same value would be
/// drawn over each other).
fn spread<T>(mut ends: Vec<(i32, i32, String, T)>, gap: i32) -> Vec<(i32, i32, String, T)> {
    ends.sort_by_key(|e| e.1);
    for i in 1..ends.len() {
        let min = ends[i - 1].1 + gap;
        if ends[i].1 < min {
            ends[i].1 = min;
        }
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_run_from_darker_to_lighter() {
        let c = RGBColor(0, 114, 178);
        assert_eq!(shade(c, 0, 1), c);
        let first = shade(c, 0, 3);
        let last = shade(c, 2, 3);
        assert!(first.2 < c.2 && last.2 > c.2, "{first:?} {last:?}");
        assert_eq!(shade(c, 1, 3), c);
    }

    #[test]
    fn end_labels_do_not_overlap() {
        let ends = vec![
            (0, 50, "b".to_string(), ()),
            (0, 45, "a".into(), ()),
            (0, 90, "c".into(), ()),
        ];
        let ys: Vec<(i32, String)> = spread(ends, 12).into_iter().map(|e| (e.1, e.2)).collect();
        assert_eq!(ys, [(45, "a".into()), (57, "b".into()), (90, "c".into())]);
    }
}
