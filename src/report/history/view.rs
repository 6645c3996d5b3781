//! The view model of a history's HTML and PDF: every number formatted
//! through [`crate::report::format`] (the same digits as the text and
//! Markdown), every chart named by the file it is drawn into, so that a
//! template only lays out what is here.

use super::words::{extent, title};
use crate::analysis::history::{History, Series};
use crate::analysis::Verdict;
use crate::report::format::{pct, pct_ci, pvalue, sig};
use crate::report::view::{slug, FindingView, CHART_WIDTH};
use serde::Serialize;

/// Height in pixels of a series' chart.
pub const HISTORY_HEIGHT: u32 = 330;

/// Most series drawn as charts: a lab's history can hold thousands of
/// series, and a page of thousands of charts helps nobody. Series with
/// change points are drawn first; the rest in order until the limit.
pub const MAX_CHARTS: usize = 60;

/// Runs in a chart beyond which they are not drawn one dot each (a chart
/// of 500 points × 5 runs would weigh a quarter of a megabyte, and a page
/// holds up to [`MAX_CHARTS`]).
pub const MAX_RUN_DOTS: usize = 1200;

/// Points beyond which the medians are drawn as a line and their
/// intervals as a band, instead of a dot and a bar each.
pub const MAX_POINT_MARKS: usize = 150;

/// How a series' chart draws its values, decided once for the chart, its
/// legend and its caption.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    /// Some point has more than one run: medians, not single values.
    pub several: bool,
    /// Every run is drawn as a dot ([`MAX_RUN_DOTS`]).
    pub dots: bool,
    /// Each median is a dot with its bar, not a line in a band
    /// ([`MAX_POINT_MARKS`]).
    pub points: bool,
}

/// The [`Marks`] of `s`.
pub fn marks(s: &Series) -> Marks {
    let runs: usize = s.points.iter().map(|p| p.runs.len()).sum();
    let several = s.points.iter().any(|p| p.runs.len() > 1);
    Marks {
        several,
        dots: several && runs <= MAX_RUN_DOTS,
        points: s.points.len() <= MAX_POINT_MARKS,
    }
}

/// What the history templates render.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryView {
    /// `patchperf` and its version.
    pub generator: String,
    /// The report's title.
    pub title: String,
    /// The points in order.
    pub order: Vec<String>,
    /// How change points were looked for, in one sentence.
    pub method: String,
    /// The one-line summary the text report ends with.
    pub summary: String,
    /// Series by the verdict of their latest change point.
    pub counts: Vec<Count>,
    /// Every series, in the history's order.
    pub series: Vec<SeriesView>,
    /// Series shown without a chart because of [`MAX_CHARTS`].
    pub undrawn: usize,
}

/// How many series' latest change point has this verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Count {
    /// The verdict.
    pub verdict: String,
    /// How many series.
    pub count: usize,
}

/// One series.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesView {
    /// Its id in the page, for links.
    pub anchor: String,
    /// Its heading.
    pub title: String,
    /// `12 points (6.8-rc1 … 6.9-rc2), 5 runs each`.
    pub extent: String,
    /// Why no change point was looked for.
    pub note: Option<String>,
    /// `No change point (centres 0.33 to 0.63).` when none was found.
    pub quiet: Option<String>,
    /// Verdict of the latest change point.
    pub latest: Option<String>,
    /// Its chart, when it gets one.
    pub chart: Option<ChartRef>,
    /// Its change points, formatted.
    pub changes: Vec<ChangeView>,
}

/// A chart file and what it shows, for `alt` text and the PDF's sizing.
#[derive(Debug, Clone, Serialize)]
pub struct ChartRef {
    /// The chart's file, relative to the report folder.
    pub file: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// What the chart shows, as text.
    pub alt: String,
}

/// One change point, formatted.
#[derive(Debug, Clone, Serialize)]
pub struct ChangeView {
    /// Index in the series' points of the first point after the change.
    pub index: usize,
    /// `before → after`: the points around the change.
    pub step: String,
    /// The change in percent, or `n/a`.
    pub change: String,
    /// The change's interval in percent.
    pub ci: String,
    /// The p-value, formatted.
    pub p: String,
    /// The corrected p-value, formatted.
    pub q: String,
    /// The verdict's word.
    pub verdict: String,
    /// What differs between the configs or environments of the two
    /// points around the change.
    pub findings: Vec<FindingView>,
}

/// Indexes of the series that get a chart, in series order.
pub fn charted(h: &History) -> Vec<bool> {
    let mut drawn = vec![false; h.series.len()];
    let mut left = MAX_CHARTS;
    let with_changes = |s: &Series| !s.change_points.is_empty();
    for pass in [true, false] {
        for (i, s) in h.series.iter().enumerate() {
            if left > 0 && !drawn[i] && with_changes(s) == pass && !s.points.is_empty() {
                drawn[i] = true;
                left -= 1;
            }
        }
    }
    drawn
}

/// The file the chart of the `i`th series, titled `title`, is drawn into.
pub fn chart_file(i: usize, title: &str) -> String {
    format!("charts/history-{:03}-{}.svg", i + 1, slug(title))
}

/// Builds the view of `h`.
pub fn build(h: &History) -> HistoryView {
    let drawn = charted(h);
    let series: Vec<SeriesView> = h
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| series_view(i, s, drawn[i]))
        .collect();
    let counts = [Verdict::Regressed, Verdict::Improved, Verdict::Changed]
        .into_iter()
        .map(|v| Count {
            verdict: v.as_str().to_string(),
            count: h
                .series
                .iter()
                .filter(|s| s.change_points.last().is_some_and(|c| c.verdict == v))
                .count(),
        })
        .filter(|c| c.count > 0)
        .collect();
    let span = match (h.order.first(), h.order.last()) {
        (Some(a), Some(b)) if h.order.len() > 1 => format!(", {a} … {b}"),
        _ => String::new(),
    };
    let st = &h.settings;
    HistoryView {
        generator: format!("patchperf {}", env!("CARGO_PKG_VERSION")),
        title: format!(
            "History of {} series over {} points{span}",
            h.series.len(),
            h.order.len()
        ),
        order: h.order.clone(),
        method: format!(
            "Change points by E-divisive means over windows of {} points, p < {}, relative change > {}; with several runs per point each step is tested on the runs of the segments beside it, its interval by {} bootstrap resamples. A regression of at least {}% trips --fail-on-regression.",
            st.window_len,
            st.max_pvalue,
            st.min_magnitude,
            st.resamples,
            st.threshold_pct
        ),
        summary: super::words::summary(h),
        counts,
        undrawn: drawn.iter().filter(|d| !**d).count(),
        series,
    }
}

fn series_view(i: usize, s: &Series, drawn: bool) -> SeriesView {
    let changes: Vec<ChangeView> = s
        .change_points
        .iter()
        .map(|c| ChangeView {
            index: c.index,
            step: format!("{} → {}", c.before, c.after),
            change: c.change_pct.map(pct).unwrap_or_else(|| "n/a".into()),
            ci: pct_ci(c.ci_low_pct, c.ci_high_pct),
            p: pvalue(Some(c.p_value)),
            q: pvalue(Some(c.q_value)),
            verdict: c.verdict.as_str().to_string(),
            findings: c.config_changes.iter().map(FindingView::of).collect(),
        })
        .collect();
    let quiet = (s.note.is_none() && changes.is_empty()).then(|| {
        let (lo, hi) = s
            .points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(p.center), b.max(p.center))
            });
        format!("No change point (centres {} to {}).", sig(lo), sig(hi))
    });
    let name = title(s);
    let chart = drawn.then(|| ChartRef {
        file: chart_file(i, &name),
        width: CHART_WIDTH,
        height: HISTORY_HEIGHT,
        alt: alt_text(s),
    });
    SeriesView {
        anchor: format!("s{}-{}", i + 1, slug(&name)),
        title: name,
        extent: extent(s),
        note: s.note.clone(),
        quiet,
        latest: s
            .change_points
            .last()
            .map(|c| c.verdict.as_str().to_string()),
        chart,
        changes,
    }
}

/// What the chart shows, in words (for screen readers and the caption).
fn alt_text(s: &Series) -> String {
    let Marks {
        several,
        dots,
        points,
    } = marks(s);
    let value = if several { "median" } else { "value" };
    let mut marks = if points {
        format!("each point's {value} in black")
    } else {
        format!("the points' {value}s as a black line")
    };
    if several {
        marks.push_str(if points {
            " with its 95% interval where the point has at least 6 runs"
        } else {
            " in the band of their 95% intervals (points of at least 6 runs)"
        });
        if dots {
            marks = format!("every run as a grey dot, {marks}");
        }
    }
    let steps = match s.change_points.len() {
        0 => "no change point".to_string(),
        1 => "the change point as a dashed line".to_string(),
        n => format!("the {n} change points as dashed lines"),
    };
    format!(
        "One column per point in order: {marks}; the level of each segment in orange and {steps}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::history::{HistoryChange, HistorySettings, Method, Point};
    use crate::model::Direction;

    fn series(name: &str, changed: bool) -> Series {
        let points: Vec<Point> = (0..4)
            .map(|i| Point {
                variant: format!("v{i}"),
                n: 1,
                center: 1.0 + i as f64,
                runs: vec![1.0 + i as f64],
            })
            .collect();
        let change_points = if changed {
            vec![HistoryChange {
                index: 2,
                before: "v1".into(),
                after: "v2".into(),
                change_pct: Some(50.0),
                ci_low_pct: None,
                ci_high_pct: None,
                p_value: 0.001,
                q_value: 0.002,
                verdict: Verdict::Regressed,
                config_changes: Vec::new(),
            }]
        } else {
            Vec::new()
        };
        Series {
            benchmark: name.into(),
            params: String::new(),
            metric: "time".into(),
            unit: "s".into(),
            direction: Direction::Lower,
            method: Method::Otava,
            points,
            change_points,
            note: None,
        }
    }

    #[test]
    fn series_with_change_points_get_the_charts_first() {
        let mut all: Vec<Series> = (0..MAX_CHARTS + 10)
            .map(|i| series(&format!("quiet{i}"), false))
            .collect();
        all.push(series("moved", true));
        let h = History {
            order: (0..4).map(|i| format!("v{i}")).collect(),
            settings: HistorySettings::default(),
            series: all,
        };
        let v = build(&h);
        assert_eq!(v.undrawn, 11);
        let moved = v.series.last().unwrap();
        assert!(moved.chart.is_some(), "the series that moved is drawn");
        assert_eq!(moved.changes[0].step, "v1 → v2");
        assert_eq!(moved.changes[0].q, "0.002");
        assert_eq!(moved.latest.as_deref(), Some("regressed"));
        assert!(v.series[MAX_CHARTS].chart.is_none());
        assert_eq!(v.counts.len(), 1);
        assert!(v.series[0]
            .quiet
            .as_deref()
            .unwrap()
            .starts_with("No change point"));
    }
}
