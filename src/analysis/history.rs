//! History: every (benchmark, params, metric) of a dataset as a series over
//! ordered points (kernels, commits, nights), its change points and a
//! verdict for each.
//!
//! - One value per point: Otava's change points exactly
//!   ([`changepoint::otava`]); the change is that of the segment means,
//!   p Otava's t-test.
//! - Several runs per point: [`changepoint::replicates`]; the change is
//!   that of the medians of the segments' runs, p the scan-corrected
//!   Mann-Whitney p of the runs.
//!
//! Every change point of every series gets a Benjamini–Hochberg q-value over
//! all of them; a replicate step whose q is not below `max_pvalue` is
//! dropped (Otava's change points are kept as Otava gives them). The change
//! % has a 95% interval: the bootstrap of the ratio of the two segments'
//! centres that `compare` uses.

use super::group::{group, RawVariant};
use super::Verdict;
use crate::error::Result;
use crate::model::{Dataset, Direction};
use crate::stats::bootstrap::{ratio_ci, Center};
use crate::stats::changepoint::{self, replicates};
use crate::stats::correction::benjamini_hochberg;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// The parameters of a history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistorySettings {
    /// Points per sliding window (Otava's `window_len`).
    pub window_len: usize,
    /// Largest p (and, for runs, q) of a change point.
    pub max_pvalue: f64,
    /// Smallest relative change of a change point (Otava's `min_magnitude`).
    pub min_magnitude: f64,
    /// The regression gate, in percent.
    pub threshold_pct: f64,
    /// Bootstrap of the change's interval.
    pub resamples: usize,
    /// Seed of that bootstrap.
    pub seed: u64,
    /// Per-metric direction overrides.
    #[serde(skip)]
    pub directions: BTreeMap<String, Direction>,
}

impl Default for HistorySettings {
    fn default() -> Self {
        HistorySettings {
            window_len: 50,
            max_pvalue: 0.001,
            min_magnitude: 0.0,
            threshold_pct: 2.0,
            resamples: 2000,
            seed: 0x5eed,
            directions: BTreeMap::new(),
        }
    }
}

/// How a series' change points were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// One value per point: Otava's algorithm.
    Otava,
    /// Several runs per point: steps tested on the runs.
    Runs,
    /// Several runs per point, but the points vary more than their runs
    /// explain: steps tested on the points' means.
    Means,
}

/// One point of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// The point's name (its variant).
    pub variant: String,
    /// Values at this point (runs, or 1 for a stated summary).
    pub n: usize,
    /// Median of the runs (the value itself for one).
    pub center: f64,
    /// The runs' values.
    #[serde(skip)]
    pub runs: Vec<f64>,
}

/// One change point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryChange {
    /// Index in the series' points of the first point of the new segment.
    pub index: usize,
    /// The last point before the change and the first after it.
    pub before: String,
    /// The first point after the change (`before`: the last before it).
    pub after: String,
    /// Change of the centre across it, in percent.
    pub change_pct: Option<f64>,
    /// Lower bound of the change's interval, in percent.
    pub ci_low_pct: Option<f64>,
    /// Upper bound of the change's interval, in percent.
    pub ci_high_pct: Option<f64>,
    /// p of the change point's test.
    pub p_value: f64,
    /// p after the correction over all change points.
    pub q_value: f64,
    /// What the change means for the metric.
    pub verdict: Verdict,
    /// What differs between the kernel configs and environments of the
    /// points `before` and `after` (filled by the caller, who knows where
    /// the points came from: `history` reads a `.config` or snapshot in each
    /// point's folder, as `compare` does in each variant's).
    pub config_changes: Vec<crate::model::Finding>,
}

/// One series and its change points.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// What was measured.
    pub benchmark: String,
    /// Its parameters, `key=value` pairs joined by commas.
    pub params: String,
    /// Which quantity the values are.
    pub metric: String,
    /// The unit of the values.
    pub unit: String,
    /// Which way is better.
    pub direction: Direction,
    /// How its change points were found.
    pub method: Method,
    /// Its points, in order.
    pub points: Vec<Point>,
    /// Its change points, in order.
    pub change_points: Vec<HistoryChange>,
    /// Why there are no change points to look for (too few points).
    pub note: Option<String>,
}

/// A history: the points in order and every series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct History {
    /// The points' names in order.
    pub order: Vec<String>,
    /// The settings it ran with.
    pub settings: HistorySettings,
    /// Every series with its change points.
    pub series: Vec<Series>,
}

impl History {
    /// Series with at least 3 points.
    pub fn analysed(&self) -> usize {
        self.series.iter().filter(|s| s.note.is_none()).count()
    }

    /// Series whose latest change point is a regression of at least the
    /// threshold.
    pub fn gate_tripped(&self) -> Vec<&Series> {
        self.series
            .iter()
            .filter(|s| {
                s.change_points.last().is_some_and(|c| {
                    c.verdict == Verdict::Regressed
                        && c.change_pct
                            .is_some_and(|p| p.abs() >= self.settings.threshold_pct)
                })
            })
            .collect()
    }
}

/// The values of one point: its runs, or else its stated mean or median.
fn point_values(v: &RawVariant) -> Vec<f64> {
    let runs: Vec<f64> = v
        .samples
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .collect();
    if !runs.is_empty() {
        return runs;
    }
    v.mean
        .or(v.median)
        .filter(|x| x.is_finite())
        .into_iter()
        .collect()
}

/// A change point before its interval and verdict: index and p.
struct Raw {
    index: usize,
    p: f64,
}

/// Analyses `data` as a history over the variants in `order` (variants not
/// listed are left out).
pub fn history(data: &Dataset, order: &[String], settings: &HistorySettings) -> Result<History> {
    let first = order.first().cloned().unwrap_or_default();
    let groups = group(data, &first, &settings.directions)?;
    let rank: std::collections::HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let found: Vec<(Series, Vec<Raw>)> = groups
        .par_iter()
        .map(|g| {
            let mut vs: Vec<&RawVariant> = g
                .variants
                .iter()
                .filter(|v| rank.contains_key(v.name.as_str()))
                .collect();
            vs.sort_by_key(|v| rank[v.name.as_str()]);
            let points: Vec<Point> = vs
                .into_iter()
                .filter_map(|v| {
                    let runs = point_values(v);
                    (!runs.is_empty()).then(|| Point {
                        variant: v.name.clone(),
                        n: runs.len(),
                        center: crate::stats::summary::median(&runs),
                        runs,
                    })
                })
                .collect();
            let method = if points.iter().all(|p| p.n == 1) {
                Method::Otava
            } else {
                let runs: Vec<Vec<f64>> = points.iter().map(|p| p.runs.clone()).collect();
                if replicates::overdispersed(&runs) {
                    Method::Means
                } else {
                    Method::Runs
                }
            };
            let (raw, note) = if points.len() < 3 {
                let note = format!(
                    "{} point{}: at least 3 are needed to look for change points",
                    points.len(),
                    if points.len() == 1 { "" } else { "s" }
                );
                (Vec::new(), Some(note))
            } else {
                (find(&points, method, settings), None)
            };
            let series = Series {
                benchmark: g.benchmark.clone(),
                params: g.params.clone(),
                metric: g.metric.clone(),
                unit: g.unit.clone(),
                direction: g.direction,
                method,
                points,
                change_points: Vec::new(),
                note,
            };
            (series, raw)
        })
        .collect();
    // One family: every change point of every series.
    let ps: Vec<f64> = found
        .iter()
        .flat_map(|(_, r)| r.iter().map(|c| c.p))
        .collect();
    let qs = benjamini_hochberg(&ps);
    let mut q_iter = qs.into_iter();
    let kept: Vec<(Series, Vec<(Raw, f64)>)> = found
        .into_iter()
        .map(|(s, raw)| {
            let with_q: Vec<(Raw, f64)> = raw
                .into_iter()
                .map(|r| (r, q_iter.next().unwrap_or(1.0)))
                .filter(|(_, q)| s.method == Method::Otava || *q < settings.max_pvalue)
                .collect();
            (s, with_q)
        })
        .collect();
    let series = kept
        .into_par_iter()
        .map(|(mut s, raw)| {
            s.change_points = describe(&s, &raw, settings);
            s
        })
        .collect();
    Ok(History {
        order: order.to_vec(),
        settings: settings.clone(),
        series,
    })
}

fn find(points: &[Point], method: Method, settings: &HistorySettings) -> Vec<Raw> {
    match method {
        Method::Otava => {
            let xs: Vec<f64> = points.iter().map(|p| p.runs[0]).collect();
            changepoint::otava(
                &xs,
                settings.window_len,
                settings.max_pvalue,
                settings.min_magnitude,
            )
            .into_iter()
            .map(|c| Raw {
                index: c.index,
                p: c.stats.p,
            })
            .collect()
        }
        Method::Runs | Method::Means => {
            let runs: Vec<Vec<f64>> = points.iter().map(|p| p.runs.clone()).collect();
            let params = replicates::Params {
                window_len: settings.window_len,
                max_pvalue: settings.max_pvalue,
                min_magnitude: settings.min_magnitude,
            };
            replicates::steps(&runs, &params)
                .into_iter()
                .map(|s| Raw {
                    index: s.index,
                    p: s.p,
                })
                .collect()
        }
    }
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// Change %, interval and verdict of each kept change point, between the
/// segments the kept change points delimit.
fn describe(s: &Series, raw: &[(Raw, f64)], settings: &HistorySettings) -> Vec<HistoryChange> {
    let n = s.points.len();
    let centre = match s.method {
        Method::Otava => Center::Mean,
        Method::Runs | Method::Means => Center::Median,
    };
    let centre_of = |xs: &[f64]| match centre {
        Center::Mean => changepoint_mean(xs),
        Center::Median => crate::stats::summary::median(xs),
    };
    (0..raw.len())
        .map(|k| {
            let (r, q) = &raw[k];
            let a = if k == 0 { 0 } else { raw[k - 1].0.index };
            let c = raw.get(k + 1).map_or(n, |x| x.0.index);
            let before: Vec<f64> = s.points[a..r.index]
                .iter()
                .flat_map(|p| p.runs.iter().copied())
                .collect();
            let after: Vec<f64> = s.points[r.index..c]
                .iter()
                .flat_map(|p| p.runs.iter().copied())
                .collect();
            let (cb, ca) = (centre_of(&before), centre_of(&after));
            let change_pct = (cb != 0.0)
                .then(|| (ca / cb - 1.0) * 100.0)
                .and_then(finite);
            let ci = ratio_ci(
                &before,
                &after,
                centre,
                settings.resamples,
                0.95,
                settings.seed,
            );
            let to_pct = |r: f64| finite((r - 1.0) * 100.0);
            let verdict = match (s.direction, change_pct) {
                (Direction::Higher, Some(p)) if p < 0.0 => Verdict::Regressed,
                (Direction::Higher, Some(p)) if p > 0.0 => Verdict::Improved,
                (Direction::Lower, Some(p)) if p > 0.0 => Verdict::Regressed,
                (Direction::Lower, Some(p)) if p < 0.0 => Verdict::Improved,
                _ => Verdict::Changed,
            };
            HistoryChange {
                index: r.index,
                before: s.points[r.index - 1].variant.clone(),
                after: s.points[r.index].variant.clone(),
                change_pct,
                ci_low_pct: ci.and_then(|c| to_pct(c.0)),
                ci_high_pct: ci.and_then(|c| to_pct(c.1)),
                p_value: r.p,
                q_value: *q,
                verdict,
                config_changes: Vec::new(),
            }
        })
        .collect()
}

/// The mean Otava's change % is computed from.
fn changepoint_mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Observation;

    fn rows(levels: &[f64], runs: usize) -> (Dataset, Vec<String>) {
        let mut out = Vec::new();
        let mut order = Vec::new();
        for (i, &l) in levels.iter().enumerate() {
            let v = format!("6.{i}");
            order.push(v.clone());
            for r in 0..runs {
                let x = l * (1.0 + 0.005 * ((i * 3 + r * 7) % 5) as f64);
                out.push(
                    Observation::sample("hackbench", "time", "s", x)
                        .with_variant(v.as_str())
                        .with_run(r as u32),
                );
            }
        }
        (Dataset::new(out), order)
    }

    #[test]
    fn a_slowdown_is_a_regression_named_by_its_last_good_and_first_bad_points() {
        let mut levels = vec![1.0; 12];
        levels.extend([1.3; 8]);
        let (d, order) = rows(&levels, 5);
        let h = history(&d, &order, &HistorySettings::default()).unwrap();
        assert_eq!(h.series.len(), 1);
        let s = &h.series[0];
        assert_eq!(s.method, Method::Runs);
        assert_eq!(s.points.len(), 20);
        assert_eq!(s.change_points.len(), 1, "{:?}", s.change_points);
        let c = &s.change_points[0];
        assert_eq!(
            (c.index, c.before.as_str(), c.after.as_str()),
            (12, "6.11", "6.12")
        );
        assert_eq!(c.verdict, Verdict::Regressed);
        let pct = c.change_pct.unwrap();
        assert!((pct - 30.0).abs() < 1.0, "{pct}");
        assert!(c.ci_low_pct.unwrap() < pct && pct < c.ci_high_pct.unwrap());
        assert_eq!(h.gate_tripped().len(), 1);
    }

    #[test]
    fn one_value_per_point_uses_otava_and_two_points_say_so() {
        let mut levels = vec![100.0; 10];
        levels.extend([150.0; 10]);
        let (d, order) = rows(&levels, 1);
        let h = history(&d, &order, &HistorySettings::default()).unwrap();
        assert_eq!(h.series[0].method, Method::Otava);
        assert_eq!(
            h.series[0]
                .change_points
                .iter()
                .map(|c| c.index)
                .collect::<Vec<_>>(),
            [10]
        );
        let (d, order) = rows(&[1.0, 2.0], 5);
        let h = history(&d, &order, &HistorySettings::default()).unwrap();
        assert_eq!(h.analysed(), 0);
        assert_eq!(
            h.series[0].note.as_deref(),
            Some("2 points: at least 3 are needed to look for change points")
        );
    }
}
