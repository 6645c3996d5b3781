//! Charts as SVG, drawn with plotters (no system fonts needed: the SVG
//! carries text, the viewer or typst lays it out).
//!
//! Every chart: labelled axes with units, a legend of the variants in the
//! Okabe-Ito colours (the same colour for a variant in every chart), and a
//! log axis when the values span more than two decades (a sweep: one).

mod distribution;
mod forest;
pub mod history;
mod runs;
mod sweep;

use super::view::{Family, ReportView};
use crate::analysis::{Analysis, Comparison};
use crate::error::{Error, Result};
use plotters::chart::MeshStyle;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::Range;

/// Font family written into the SVG; the PDF renderer maps it to an
/// embedded font.
pub const FONT: &str = "sans-serif";
/// Chart width in pixels (also the viewBox width).
pub const WIDTH: u32 = super::view::CHART_WIDTH;

/// One drawn chart: its file name relative to the report folder and the SVG.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The file name, relative to the report folder.
    pub file: String,
    /// The SVG text.
    pub svg: String,
}

/// Draws every chart the view model refers to.
pub fn render_all(a: &Analysis, view: &ReportView, fams: &[Family<'_>]) -> Result<Vec<Rendered>> {
    let colors: HashMap<String, RGBColor> = view
        .meta
        .variants
        .iter()
        .map(|v| (v.name.clone(), hex(&v.color)))
        .collect();
    let order: Vec<String> = view.meta.variants.iter().map(|v| v.name.clone()).collect();
    let mut out = Vec::new();
    if let Some(f) = &view.forest {
        out.push(Rendered {
            file: f.file.clone(),
            svg: forest::draw(view, a.settings.threshold_pct, &colors, &order)?,
        });
    }
    // Charts are independent of each other: drawn in parallel, kept in
    // section order (collect keeps the order of the jobs).
    let jobs: Vec<_> = fams
        .iter()
        .zip(&view.sections)
        .flat_map(|(fam, sec)| sec.charts.iter().map(move |c| (fam, sec, c)))
        .collect();
    let drawn: Vec<Option<Rendered>> = jobs
        .par_iter()
        .map(|(fam, sec, c)| {
            let svg = match c.kind.as_str() {
                "distribution" => distribution::draw(fam, sec, &colors, &order)?,
                "sweep" => {
                    let changes: Vec<&Comparison> = a
                        .comparisons
                        .iter()
                        .filter(|c| {
                            c.benchmark == fam.benchmark
                                && c.metric == fam.metric
                                && fam.groups.iter().any(|g| g.params == c.params)
                        })
                        .collect();
                    let ctx = sweep::Context {
                        colors: &colors,
                        order: &order,
                        changes: &changes,
                        threshold: a.settings.threshold_pct,
                        baseline: &view.meta.baseline,
                    };
                    sweep::draw(fam, sec, &ctx)?
                }
                "runs" => runs::draw(fam, sec, &colors, &order)?,
                _ => return Ok(None),
            };
            Ok(Some(Rendered {
                file: c.file.clone(),
                svg,
            }))
        })
        .collect::<Result<_>>()?;
    out.extend(drawn.into_iter().flatten());
    Ok(out)
}

/// Parses `#RRGGBB`.
pub fn hex(s: &str) -> RGBColor {
    let p = |i: usize| u8::from_str_radix(s.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0);
    RGBColor(p(1), p(3), p(5))
}

pub(crate) fn err<E: std::fmt::Debug>(e: E) -> Error {
    Error::Other(format!("drawing a chart: {e:?}"))
}

/// True when positive values span more than two decades.
pub fn wants_log(values: &[f64]) -> bool {
    spans_more_than(values, 100.0)
}

/// True when the values are all positive and the largest is more than
/// `ratio` times the smallest.
pub fn spans_more_than(values: &[f64], ratio: f64) -> bool {
    let pos: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if pos.is_empty() || pos.iter().any(|v| *v <= 0.0) {
        return false;
    }
    let lo = pos.iter().cloned().fold(f64::MAX, f64::min);
    let hi = pos.iter().cloned().fold(f64::MIN, f64::max);
    hi / lo > ratio
}

/// A value axis, linear or log10 (values are transformed before plotting
/// so one code path draws both).
#[derive(Debug, Clone, Copy)]
pub struct ValueAxis {
    /// Whether the axis is log10.
    pub log: bool,
}

impl ValueAxis {
    /// The axis for these values.
    pub fn for_values(values: &[f64]) -> ValueAxis {
        ValueAxis {
            log: wants_log(values),
        }
    }
    /// The axis of a sweep: log as soon as the values span a decade (1000
    /// and 10000 included), since sweeps (threads, sizes) mostly grow
    /// geometrically and a linear axis squeezes the small end.
    pub fn for_sweep(values: &[f64]) -> ValueAxis {
        ValueAxis {
            log: spans_more_than(values, 10.0 * (1.0 - 1e-9)),
        }
    }
    /// Data value to plot coordinate.
    pub fn t(&self, v: f64) -> f64 {
        if self.log {
            v.max(f64::MIN_POSITIVE).log10()
        } else {
            v
        }
    }
    /// Plot coordinate back to a tick label.
    pub fn label(&self, x: f64) -> String {
        if self.log {
            crate::numfmt::log_tick(10f64.powf(x))
        } else {
            tick(x)
        }
    }
    /// Plot coordinate to a tick label on an axis over `range`, with
    /// the digits that tell its ticks apart.
    pub fn label_in(&self, x: f64, range: &Range<f64>) -> String {
        if self.log {
            self.label(x)
        } else {
            crate::numfmt::tick_in(x, (range.end - range.start).abs())
        }
    }
    /// A padded plot range covering `values` (transformed).
    pub fn range(&self, values: &[f64], include_zero: bool) -> Range<f64> {
        let t: Vec<f64> = values
            .iter()
            .filter(|v| v.is_finite() && (!self.log || **v > 0.0))
            .map(|v| self.t(*v))
            .collect();
        let (mut lo, mut hi) = match (
            t.iter().cloned().reduce(f64::min),
            t.iter().cloned().reduce(f64::max),
        ) {
            (Some(lo), Some(hi)) => (lo, hi),
            _ => (0.0, 1.0),
        };
        if include_zero && !self.log {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        if hi - lo < 1e-12 {
            let pad = if lo.abs() > 0.0 { lo.abs() * 0.1 } else { 1.0 };
            return (lo - pad)..(hi + pad);
        }
        let pad = (hi - lo) * 0.06;
        let lo2 = if include_zero && lo >= 0.0 && !self.log {
            lo
        } else {
            lo - pad
        };
        lo2..(hi + pad)
    }
    /// Tick positions (plot coordinates) and labels for a log axis over the
    /// plot range `r`: 1-2-5 steps, or decades only when those are many,
    /// or every few decades when even those are (values hundreds of orders
    /// of magnitude apart would otherwise get a label per decade, drawn
    /// over each other).
    pub fn log_ticks(&self, r: &Range<f64>) -> Vec<(f64, String)> {
        let (lo, hi) = (r.start.min(r.end), r.start.max(r.end));
        let (first, last) = (lo.floor() as i64 - 1, hi.ceil() as i64 + 1);
        // Every 1, 2, 5, 10, 20, 50 … decades: the fewest that keep the
        // labels within the limit.
        let need = (hi - lo) / MAX_LOG_TICKS as f64;
        let decade_step = (0..)
            .flat_map(|e| [1i64, 2, 5].map(|m| m * 10i64.pow(e)))
            .find(|&s| s as f64 >= need || s >= 1_000)
            .unwrap_or(1);
        let mut out = Vec::new();
        for (mults, step) in [(&[1.0, 2.0, 5.0][..], 1), (&[1.0][..], decade_step)] {
            out.clear();
            let mut k = first.div_euclid(step) * step;
            while k <= last {
                for m in mults {
                    let v = m * 10f64.powi(k as i32);
                    let t = v.log10();
                    if t >= lo && t <= hi {
                        out.push((t, tick(v)));
                    }
                }
                k += step;
            }
            if out.len() <= MAX_LOG_TICKS {
                break;
            }
        }
        out
    }
    /// Suffix for the axis title.
    pub fn note(&self) -> &'static str {
        if self.log {
            ", log scale"
        } else {
            ""
        }
    }
}

/// Most labelled ticks on a log axis.
const MAX_LOG_TICKS: usize = 10;

pub use crate::numfmt::tick;

type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Which axis of a plot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The horizontal axis.
    X,
    /// The vertical axis.
    Y,
}

/// Draws grid lines and labels of a log axis by hand (plotters would put
/// its ticks at arbitrary points of the log10 range).
pub fn log_ticks<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &mut Plot<'_, DB>,
    axis: ValueAxis,
    side: Side,
    xr: &Range<f64>,
    yr: &Range<f64>,
) -> Result<()> {
    let along = if side == Side::X { xr } else { yr };
    // The chart gives pixels on the whole canvas; a panel draws from its own corner.
    let (bx, by) = root.get_base_pixel();
    for (t, label) in axis.log_ticks(along) {
        let (line, (hpos, vpos), (dx, dy)) = match side {
            Side::X => (
                vec![(t, yr.start), (t, yr.end)],
                (HPos::Center, VPos::Top),
                (0, 6),
            ),
            Side::Y => (
                vec![(xr.start, t), (xr.end, t)],
                (HPos::Right, VPos::Center),
                (-6, 0),
            ),
        };
        let (px, py) = chart.backend_coord(&line[0]);
        chart
            .draw_series(std::iter::once(PathElement::new(
                line,
                GRID.stroke_width(1),
            )))
            .map_err(err)?;
        let style = label_style(12).pos(Pos::new(hpos, vpos));
        root.draw(&Text::new(label, (px + dx - bx, py + dy - by), style))
            .map_err(err)?;
    }
    Ok(())
}

/// The SVG of one chart `height` pixels high: `paint` draws on a white
/// canvas of the report's chart width.
pub fn svg(
    height: u32,
    paint: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Result<()>,
) -> Result<String> {
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        paint(&root)?;
        root.present().map_err(err)?;
    }
    Ok(buf)
}

/// The plot area of every chart: room for the legend above it, 44 pixels
/// of x labels below and `y_labels` pixels of y labels beside it.
pub fn frame<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, plotters::coord::Shift>,
    (left, right): (u32, u32),
    y_labels: u32,
    xr: Range<f64>,
    yr: Range<f64>,
) -> Result<Plot<'a, DB>> {
    ChartBuilder::on(root)
        .margin_top(36)
        .margin_right(right)
        .margin_left(left)
        .margin_bottom(6)
        .x_label_area_size(44)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(xr, yr)
        .map_err(err)
}

/// Draws a mesh configured by the chart with the house style: label fonts,
/// no minor grid lines, light major ones.
pub fn draw_mesh<DB: DrawingBackend>(
    mesh: &mut MeshStyle<'_, '_, RangedCoordf64, RangedCoordf64, DB>,
) -> Result<()> {
    mesh.label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .draw()
        .map_err(err)
}

/// Rows of a chart with one row per label (distribution, forest): row `i`
/// of `n` is drawn at `y = n - 1 - i`, the first at the top.
pub fn row_range(n: usize) -> Range<f64> {
    -0.6f64..(n as f64 - 0.4)
}

/// Colour of grid lines.
pub const GRID: RGBColor = RGBColor(222, 222, 222);

/// Text style of tick and row labels.
pub fn label_style(size: u32) -> TextStyle<'static> {
    (FONT, size).into_font().color(&BLACK)
}

/// Approximate width in pixels of `s` at `size` (labels area sizing; the SVG
/// is laid out by its viewer, so this only needs to be generous).
pub fn text_width(s: &str, size: u32) -> u32 {
    (s.chars().count() as f64 * size as f64 * 0.56).ceil() as u32
}

/// Shortens a label to `max` characters with an ellipsis.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Shortens a label to `max` characters by cutting its middle, so that
/// both the name it starts with and the parameters it ends with (what
/// tells rows apart) stay readable.
pub fn clip_middle(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let keep = max.saturating_sub(1);
    let head = keep / 3;
    let tail = keep - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

/// Row labels made short enough to read side by side: the words every
/// label starts with (a long command line, say) are taken out and returned
/// once, to be shown above the rows, and what is left is cut in the middle
/// if still longer than `max`. Nothing is taken out when the labels are
/// short already or share only a word or two.
pub fn distinct_labels(labels: &[String], max: usize) -> (Option<String>, Vec<String>) {
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut prefix: Option<String> = None;
    let mut rest: Vec<String> = labels.to_vec();
    if labels.len() >= 2 && longest > max.min(40) {
        let words: Vec<Vec<&str>> = labels.iter().map(|l| l.split(' ').collect()).collect();
        let mut k = 0;
        while words.iter().all(|w| k + 1 < w.len() && w[k] == words[0][k]) {
            k += 1;
        }
        let shared = words[0][..k].join(" ");
        if shared.chars().count() >= 12 {
            rest = words.iter().map(|w| w[k..].join(" ")).collect();
            prefix = Some(shared);
        }
    }
    let rest = rest.iter().map(|l| clip_middle(l, max)).collect();
    (prefix, rest)
}

/// Draws a one-line legend of `names` at pixel `(x, y)` on `area`.
pub fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    x: i32,
    y: i32,
    names: &[String],
    colors: &HashMap<String, RGBColor>,
) -> Result<()> {
    let mut cx = x;
    for n in names {
        let c = colors.get(n).copied().unwrap_or(BLACK);
        area.draw(&Rectangle::new([(cx, y - 5), (cx + 12, y + 5)], c.filled()))
            .map_err(err)?;
        let style = label_style(12).pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(n.clone(), (cx + 17, y), style))
            .map_err(err)?;
        cx += 17 + text_width(n, 12) as i32 + 18;
    }
    Ok(())
}

/// Draws `label` right-aligned at canvas pixel `(x, y)` (as a chart's
/// `backend_coord` gives it, whatever the corner of `area`).
pub fn row_label<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    label: &str,
    pos: (i32, i32),
    color: RGBColor,
) -> Result<()> {
    let style = label_style(12)
        .color(&color)
        .pos(Pos::new(HPos::Right, VPos::Center));
    let (bx, by) = area.get_base_pixel();
    area.draw(&Text::new(
        label.to_string(),
        (pos.0 - bx, pos.1 - by),
        style,
    ))
    .map_err(err)
}

/// Quartiles by linear interpolation (type 7, as numpy's default).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Variants present in a section, in report order.
pub fn present(order: &[String], names: impl IntoIterator<Item = String>) -> Vec<String> {
    let names: Vec<String> = names.into_iter().collect();
    order
        .iter()
        .filter(|v| names.contains(v))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_stay_short_at_any_magnitude() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(12.5), "12.5");
        assert_eq!(tick(250_000.0), "250000");
        assert_eq!(tick(0.00125), "0.00125");
        assert_eq!(tick(1.24e197), "1.24e197");
        assert_eq!(tick(1.05e197), "1.05e197");
        assert_eq!(tick(-3e9), "-3e9");
        assert_eq!(tick(5e-7), "5e-7");
        let log = ValueAxis { log: true };
        assert_eq!(log.label(2.0), "100");
        assert_eq!(log.label(200.0), "1e200");
        for (_, l) in log.log_ticks(&(-201.0..201.0)) {
            assert!(l.len() <= 8, "{l}");
        }
    }

    #[test]
    fn long_labels_keep_what_tells_them_apart() {
        let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let cmd = "xz -1 -T{threads} -c /srv/bench/b4.txt";
        let rows = l(&[
            &format!("{cmd} time threads=1"),
            &format!("{cmd} user threads=1"),
            &format!("{cmd} time threads=16"),
        ]);
        let (prefix, rest) = distinct_labels(&rows, 60);
        assert_eq!(prefix.as_deref(), Some(cmd));
        assert_eq!(
            rest,
            ["time threads=1", "user threads=1", "time threads=16"]
        );
        // Short labels, or a shared word only, stay whole.
        let short = l(&["hackbench groups=1", "hackbench groups=2"]);
        assert_eq!(distinct_labels(&short, 60), (None, short.clone()));
        // A label still too long loses its middle, not its end.
        let long = l(&[&format!("{} k=1", "a".repeat(80)), "b k=2"]);
        let (p, rest) = distinct_labels(&long, 20);
        assert_eq!(p, None);
        assert_eq!(rest[0].chars().count(), 20);
        assert!(
            rest[0].ends_with(" k=1") && rest[0].starts_with("aaaaaa"),
            "{}",
            rest[0]
        );
        assert_eq!(clip_middle("abc", 3), "abc");
    }

    #[test]
    fn log_ticks_thin_out_over_wide_ranges() {
        let log = ValueAxis { log: true };
        // One to two decades: 1-2-5 steps.
        let near: Vec<String> = log
            .log_ticks(&(0.0..1.5))
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(near, ["1", "2", "5", "10", "20"]);
        // Six decades: every decade.
        assert_eq!(log.log_ticks(&(0.0..6.0)).len(), 7);
        // 400 decades: at most ten labels, in order, evenly spaced.
        let wide = log.log_ticks(&(-201.0..201.0));
        assert!((3..=MAX_LOG_TICKS).contains(&wide.len()), "{wide:?}");
        let steps: Vec<f64> = wide.windows(2).map(|w| w[1].0 - w[0].0).collect();
        assert!(
            steps
                .iter()
                .all(|s| (s - steps[0]).abs() < 1e-9 && *s > 0.0),
            "{steps:?}"
        );
    }
}
