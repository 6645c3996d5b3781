//! Per-variant summaries: from samples when there are any (cross-checking
//! what the input stated about them), from stated summaries otherwise.

use super::group::{RawGroup, RawVariant};
use super::thinned::{BoxFigures, Thinned, RUN_ORDER_POINTS};
use super::VariantSummary;
use crate::model::{Finding, FindingCode, Severity};
use crate::numfmt;
use crate::stats::diagnostics::{
    bimodality_coefficient, kendall_s, mann_kendall_of_s, sort_counting_kendall_s,
    tukey_outliers_sorted,
};
use crate::stats::summary::{
    mean, mean_ci_from_stats, median_ci_sorted, population_stddev, population_stddev_of, stddev,
    variance, Summary,
};

/// Confidence level of every interval.
pub(crate) const CONFIDENCE: f64 = 0.95;

/// What the tests need from one side, whatever the data held.
#[derive(Debug, Clone)]
pub(crate) struct Side {
    pub summary: VariantSummary,
    /// Mean, sd and n usable by a Welch test (sd and n may be unknown).
    pub mean: Option<f64>,
    pub sd: Option<f64>,
    pub n: Option<f64>,
    /// True when n came from `--assume-n`.
    pub n_assumed: bool,
    pub stated_change_pct: Option<f64>,
    /// The samples in ascending order (empty for summaries): the side's
    /// one vector of them, sorted in place once every figure that needs
    /// their run order was taken.
    pub sorted: Vec<f64>,
    /// Median and unscaled median absolute deviation of the samples (NaN
    /// for summaries), for the MAD outlier rule.
    pub median_mad: (f64, f64),
    /// What was read off the samples in run order before they were
    /// sorted (`None` for summaries).
    pub run_order: Option<RunOrder>,
}

/// The figures of a side's samples that depend on their run order (sums
/// in floating point run in that order too), taken before the samples
/// are sorted in place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RunOrder {
    /// Sample variance (n − 1), as [`variance`] sums it.
    pub variance: f64,
    /// Sarle's bimodality coefficient, when there are enough samples.
    pub bimodality: Option<f64>,
    /// The first and the last sample.
    pub first: f64,
    pub last: f64,
}

impl Side {
    /// Number of samples (0 for summaries).
    pub fn sample_count(&self) -> usize {
        self.sorted.len()
    }
}

/// Summarises one variant, whose samples (`raw`'s, taken out of it) the
/// side keeps: every figure that reads them in run order is taken first,
/// then they are sorted in place. With `keep_run_order` (a report's
/// charts draw them so) a copy in run order goes to the summary, or, for
/// a side of more than [`RUN_ORDER_POINTS`] samples, the buckets of runs
/// its chart draws ([`Thinned`]); so ten million samples a side are held
/// once, not twice. Pushes cross-check findings into `findings`.
pub(crate) fn describe(
    raw: &RawVariant,
    samples: Vec<f64>,
    g: &RawGroup,
    assume_n: Option<u64>,
    keep_run_order: bool,
    findings: &mut Vec<Finding>,
) -> Side {
    if !samples.is_empty() && samples.iter().all(|x| x.is_finite()) {
        return describe_samples(raw, samples, g, keep_run_order, findings);
    }
    // Summary-only: the centre is the stated mean (or median when only that
    // is stated); the spread is the stddev, else derived from a stated
    // standard error or CV. Of figures stated again (runs of one file,
    // or files), the last is used: runs that disagree are said so.
    findings.extend(parts_disagree(raw, g));
    let (n, n_assumed) = match (raw.n, assume_n) {
        (Some(n), _) => (Some(n), false),
        (None, Some(a)) => (Some(a as f64), true),
        (None, None) => (None, false),
    };
    let mean = raw.mean.or(raw.median);
    let sd = raw
        .stddev
        .or_else(|| match (raw.stderr, n) {
            (Some(se), Some(n)) => Some(se * n.sqrt()),
            _ => None,
        })
        .or_else(|| match (raw.cv_pct, mean) {
            (Some(cv), Some(m)) => Some(cv / 100.0 * m.abs()),
            _ => None,
        });
    let (ci_low, ci_high) = match (mean, sd, n) {
        (Some(m), Some(s), Some(n)) if n >= 2.0 => {
            match mean_ci_from_stats(m, s, n as u64, CONFIDENCE) {
                Some((l, h)) => (Some(l), Some(h)),
                None => (raw.ci_low, raw.ci_high),
            }
        }
        _ => (raw.ci_low, raw.ci_high),
    };
    let summary = VariantSummary {
        variant: raw.name.clone(),
        n: n.map(|n| n.round() as u64),
        mean,
        median: raw.median,
        stddev: sd,
        min: raw.min,
        max: raw.max,
        cv_pct: raw.cv_pct.or_else(|| match (sd, mean) {
            (Some(s), Some(m)) if m != 0.0 => Some(100.0 * s / m.abs()),
            _ => None,
        }),
        ci_low,
        ci_high,
        samples: Vec::new(),
        thinned: None,
        from_summary: true,
        outliers: 0,
        trend_p: None,
    };
    Side {
        summary,
        mean,
        sd,
        n,
        n_assumed,
        stated_change_pct: raw.change_pct,
        sorted: Vec::new(),
        median_mad: (f64::NAN, f64::NAN),
        run_order: None,
    }
}

/// [`describe`] of finite samples, at least one.
fn describe_samples(
    raw: &RawVariant,
    samples: Vec<f64>,
    g: &RawGroup,
    keep_run_order: bool,
    findings: &mut Vec<Finding>,
) -> Side {
    let n = samples.len();
    let run_order = RunOrder {
        variance: variance(&samples),
        bimodality: bimodality_coefficient(&samples),
        first: samples[0],
        last: samples[n - 1],
    };
    let (mean, stddev) = (mean(&samples), stddev(&samples));
    // Kept in run order (few enough for a chart to draw each), the
    // samples are sorted in a copy and S is counted from the two (no
    // merge buffer beside both); else the one vector is sorted in place
    // and S counted while it is merged, a long side's run order kept only
    // as the buckets its chart draws.
    let (kept, mut thinned, sorted, kendall_s) = if keep_run_order && n <= RUN_ORDER_POINTS {
        let mut sorted = samples.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let s = kendall_s(&samples, &sorted);
        (samples, None, sorted, s)
    } else {
        let thinned = keep_run_order.then(|| Thinned::of(&samples, RUN_ORDER_POINTS));
        let mut sorted = samples;
        let s = sort_counting_kendall_s(&mut sorted);
        (Vec::new(), thinned, sorted, s)
    };
    if let Some(t) = &mut thinned {
        t.box_figures = Some(BoxFigures::of_sorted(&sorted));
    }
    let s = Summary::of_moments(mean, stddev, &sorted);
    let (ci_low, ci_high) = match median_ci_sorted(&sorted, CONFIDENCE) {
        Some((l, h)) => (Some(l), Some(h)),
        None => (None, None),
    };
    if raw.parts.is_empty() {
        if raw.has_stated() {
            let pop = population_stddev_of(run_order.variance, n);
            findings.extend(cross_check(raw, &sorted, pop, g, &s));
        }
    } else {
        for part in raw.parts.iter().filter(|p| p.has_stated()) {
            if let Some(ps) = Summary::of(&part.samples) {
                let pop = population_stddev(&part.samples);
                findings.extend(cross_check(part, &part.samples, pop, g, &ps));
            }
        }
    }
    let summary = VariantSummary {
        variant: raw.name.clone(),
        n: Some(n as u64),
        mean: Some(s.mean),
        median: Some(s.median),
        stddev: (n >= 2).then_some(s.stddev),
        min: Some(s.min),
        max: Some(s.max),
        cv_pct: if n >= 2 { s.cv_pct } else { None },
        ci_low,
        ci_high,
        outliers: tukey_outliers_sorted(&sorted),
        trend_p: mann_kendall_of_s(kendall_s, &sorted).map(|t| t.p),
        samples: kept,
        thinned,
        from_summary: false,
    };
    Side {
        mean: Some(s.mean),
        sd: (n >= 2).then_some(s.stddev),
        n: Some(n as f64),
        n_assumed: false,
        stated_change_pct: raw.change_pct,
        summary,
        sorted,
        median_mad: (s.median, s.mad),
        run_order: Some(run_order),
    }
}

/// Number of decimals a stated value was written with (33.94 → 2), read back
/// from the f64; at most 9.
fn decimals(v: f64) -> i32 {
    // The powers as constants: `10f64.powi(d)` is a library call per
    // value and decimal, and these are the same (exact) numbers.
    const POW10: [f64; 10] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
    for (d, pow) in (0..).zip(POW10) {
        let scaled = v * pow;
        if (scaled - scaled.round()).abs() <= 1e-6 * scaled.abs().max(1.0) {
            return d;
        }
    }
    9
}

/// The place value of the last digit a value was printed with, read back
/// from the f64: `0.07` → 0.01, `6657` → 1, `82169.8` → 0.1. An integer's
/// trailing zeros are ambiguous; they are read as rounding to significant
/// digits when the integer has seven or more digits (`2.1093e+06` →
/// 2109300 → 100: `%g`-style output, Google Benchmark's CSV among it, never
/// prints more than six significant digits, and an exact integer that large
/// loses at most a relative 10⁻⁶ per zero by this reading) or ends in three
/// or more zeros (which an exactly printed integer does once in a thousand).
/// Smaller integers (`100`, `1500`) are read as exact.
pub(crate) fn resolution(v: f64) -> f64 {
    let d = decimals(v);
    if d > 0 || !v.is_finite() || v.abs() >= 1e15 {
        return 10f64.powi(-d);
    }
    let mut int = v.abs().round() as u64;
    let mut zeros = 0;
    while int != 0 && int.is_multiple_of(10) {
        int /= 10;
        zeros += 1;
    }
    if zeros >= 3 || (zeros > 0 && v.abs() >= 1e6) {
        10f64.powi(zeros)
    } else {
        1.0
    }
}

/// True when `stated` is `actual` written with the stated digits, rounded
/// or truncated: within one unit of the last stated digit.
pub(crate) fn agrees(stated: f64, actual: f64) -> bool {
    agrees_within(stated, actual, 0.0)
}

/// Like [`agrees`], with `slack` more: the error `actual` carries when it
/// was recomputed from values printed with limited digits themselves.
fn agrees_within(stated: f64, actual: f64, slack: f64) -> bool {
    let unit = resolution(stated);
    (stated - actual).abs() <= (unit + slack) * (1.0 + 1e-9) + 1e-12 * actual.abs()
}

/// The coarsest printed resolution among the samples: a summary recomputed
/// from them can be off by that much (the mean, median, min and max by at
/// most one unit, the standard deviation by √(n/(n−1)) units).
fn samples_resolution(samples: &[f64]) -> f64 {
    samples.iter().map(|&x| resolution(x)).fold(0.0, f64::max)
}

/// A stated summary and the samples' value as the evidence writes them:
/// four significant digits when they agree, else digits enough to see
/// where they part.
fn shown(stated: f64, actual: f64, agree: bool) -> (String, String) {
    if agree {
        (numfmt::sig(stated), numfmt::sig(actual))
    } else {
        numfmt::telling(stated, actual)
    }
}

/// Compares the stated summaries of a variant with its samples (in any
/// order; `population_sd` is theirs with n in the denominator): a warning
/// per disagreement, or one info finding saying they match.
fn cross_check(
    raw: &RawVariant,
    samples: &[f64],
    population_sd: f64,
    g: &RawGroup,
    s: &Summary,
) -> Vec<Finding> {
    let what = describe_group(g, &raw.name);
    let mut bad = Vec::new();
    let mut good = Vec::new();
    // Samples printed with few digits (Google Benchmark's CSV) make the
    // recomputed summaries approximate too.
    let res = samples_resolution(samples);
    let sd_res = if s.n >= 2 {
        res * (s.n as f64 / (s.n as f64 - 1.0)).sqrt()
    } else {
        res
    };
    let unit = g.unit_suffix();
    for (what, stated, actual) in [("mean", raw.mean, s.mean), ("median", raw.median, s.median)] {
        if let Some(m) = stated {
            let agree = agrees_within(m, actual, res);
            let (m, actual) = shown(m, actual, agree);
            let line = format!("{what} stated {m}{unit}, samples give {actual}{unit}");
            if agree {
                good.push(line)
            } else {
                bad.push(line)
            }
        }
    }
    if let Some(sd) = raw.stddev {
        let pop = population_sd;
        let agree =
            s.n >= 2 && (agrees_within(sd, s.stddev, sd_res) || agrees_within(sd, pop, sd_res));
        // Digits enough to tell the stated value from the nearer reading.
        let nearer = if (sd - s.stddev).abs() <= (sd - pop).abs() {
            s.stddev
        } else {
            pop
        };
        let digits = if agree {
            numfmt::SIG_DIGITS
        } else {
            numfmt::parting_digits(sd, nearer)
        };
        let line = format!(
            "stddev stated {}{unit}, samples give {}{unit} (n−1) or {}{unit} (n)",
            numfmt::sig_digits(sd, digits),
            numfmt::sig_digits(s.stddev, digits),
            numfmt::sig_digits(pop, digits)
        );
        if agree {
            good.push(line)
        } else {
            bad.push(line)
        }
    }
    if let Some(n) = raw.n {
        let line = format!("n stated {n}, {} samples present", s.n);
        if (n - s.n as f64).abs() < 0.5 {
            good.push(line)
        } else {
            bad.push(line)
        }
    }
    for (label, stated, actual) in [("min", raw.min, s.min), ("max", raw.max, s.max)] {
        if let Some(v) = stated {
            let agree = agrees_within(v, actual, res);
            let (v, actual) = shown(v, actual, agree);
            let line = format!("{label} stated {v}{unit}, samples give {actual}{unit}");
            if agree {
                good.push(line)
            } else {
                bad.push(line)
            }
        }
    }
    let place = if raw.source.is_empty() {
        String::new()
    } else if raw.line > 0 {
        format!(" ({}:{})", raw.source, raw.line)
    } else {
        format!(" ({})", raw.source)
    };
    let mut out = Vec::new();
    if !bad.is_empty() {
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::StatedSummaryMismatch,
            format!(
                "Stated summary of {what} does not match its {} samples",
                s.n
            ),
            format!("{}{place}", bad.join("; ")),
            "The comparison uses the samples. Check which runs the stated figures were computed \
             from (dropped runs, a different build, a copy error).",
        ));
    }
    if !good.is_empty() && bad.is_empty() {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::StatedSummaryVerified,
            format!("Stated summary of {what} matches its {} samples", s.n),
            format!("{}{place}", good.join("; ")),
            "Nothing to do: the stated figures are the samples' (to the digits given).",
        ));
    }
    out
}

/// When a summary-only variant's parts (its files, or runs of one file
/// that each state a summary) state centres further apart than the larger
/// stated standard deviation of the two, a warning naming each part's
/// figures: the comparison uses the last part's alone, and runs of one
/// build should not differ so. Parts that state no spread cannot be
/// judged so and are not.
fn parts_disagree(raw: &RawVariant, g: &RawGroup) -> Option<Finding> {
    let stated: Vec<(&RawVariant, f64, f64)> = raw
        .parts
        .iter()
        .filter_map(|p| Some((p, p.mean.or(p.median)?, p.stddev?)))
        .collect();
    let apart = stated.iter().enumerate().any(|(i, a)| {
        stated[i + 1..]
            .iter()
            .any(|b| (a.1 - b.1).abs() > a.2.max(b.2) * (1.0 + 1e-9))
    });
    if stated.len() < 2 || !apart {
        return None;
    }
    let unit = g.unit_suffix();
    let each: Vec<String> = stated
        .iter()
        .map(|(p, c, sd)| {
            let place = if p.line > 0 {
                format!("{}:{}", p.source, p.line)
            } else {
                p.source.clone()
            };
            format!(
                "{}{unit} ± {}{unit} ({place})",
                numfmt::sig(*c),
                numfmt::sig(*sd)
            )
        })
        .collect();
    Some(Finding::new(
        Severity::Warning,
        FindingCode::StatedSummaryMismatch,
        format!(
            "Stated summaries of {} disagree between its {} runs",
            describe_group(g, &raw.name),
            stated.len()
        ),
        format!("stated {}", each.join("; ")),
        "The comparison uses the last stated figures. Runs whose centres lie further apart \
         than their stated spread did not measure the same thing: check what changed between \
         them (a build, the machine's load) before trusting either.",
    ))
}

/// `benchmark (params) metric, variant` for finding titles.
pub(crate) fn describe_group(g: &RawGroup, variant: &str) -> String {
    let mut s = g.benchmark.clone();
    if !g.params.is_empty() {
        s.push_str(&format!(" [{}]", g.params));
    }
    if !g.metric.is_empty() && g.metric != g.benchmark {
        s.push_str(&format!(" {}", g.metric));
    }
    if !variant.is_empty() {
        s.push_str(&format!(", `{variant}`"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_powers_are_those_of_powi() {
        for d in 0..10i32 {
            let table = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][d as usize];
            assert_eq!(f64::to_bits(table), 10f64.powi(d).to_bits());
        }
        // As computed with powi, on values printed with 0 to 12 decimals.
        let with_powi = |v: f64| {
            (0..=9)
                .find(|&d| {
                    let scaled = v * 10f64.powi(d);
                    (scaled - scaled.round()).abs() <= 1e-6 * scaled.abs().max(1.0)
                })
                .unwrap_or(9)
        };
        let mut state = 3u64;
        for i in 0..5000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v: f64 = format!("{:.*}", i % 13, (state >> 20) as f64 / 7919.0)
                .parse()
                .unwrap();
            assert_eq!(decimals(v), with_powi(v), "{v}");
        }
        assert_eq!(decimals(33.94), 2);
        assert_eq!(decimals(6657.0), 0);
    }
    use crate::model::Direction;

    fn group_with(v: RawVariant) -> RawGroup {
        RawGroup {
            benchmark: "make -j1 kernel/".into(),
            params: String::new(),
            metric: "real".into(),
            unit: "s".into(),
            direction: Direction::Lower,
            variants: vec![v],
            unit_assumed: None,
        }
    }

    #[test]
    fn stated_figures_are_checked_against_samples() {
        // Seed 002: four `real` samples, stated 33.94 +/- 0.07 (population sd
        // 0.0742, sample sd 0.0857; mean 33.9465 truncated to 33.94).
        let raw = RawVariant {
            name: "no lock prefix".into(),
            samples: vec![34.067, 33.867, 33.939, 33.913],
            mean: Some(33.94),
            stddev: Some(0.07),
            ..Default::default()
        };
        let g = group_with(raw.clone());
        let mut f = Vec::new();
        let side = describe(&raw, raw.samples.clone(), &g, None, true, &mut f);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].code, "stated-summary-verified");
        assert_eq!(side.summary.n, Some(4));
        assert!(!side.summary.from_summary);

        // The other side states 0.27 but its samples spread 0.54–0.63.
        let raw = RawVariant {
            name: "with lock prefix".into(),
            samples: vec![35.326, 34.325, 35.568, 34.435],
            mean: Some(34.91),
            stddev: Some(0.27),
            ..Default::default()
        };
        let g = group_with(raw.clone());
        let mut f = Vec::new();
        describe(&raw, raw.samples.clone(), &g, None, true, &mut f);
        assert_eq!(f[0].code, "stated-summary-mismatch");
        assert!(
            f[0].evidence.contains("stddev stated 0.27"),
            "{}",
            f[0].evidence
        );
        assert!(!f[0].evidence.contains("mean stated"), "{}", f[0].evidence);
    }

    /// Without run order kept, the side's one vector of samples is the
    /// one it was given, sorted in place, and every figure that reads run
    /// order is that of the samples in run order, as a copy gives it.
    #[test]
    fn run_order_figures_are_taken_before_the_samples_are_sorted_in_place() {
        use crate::stats::diagnostics::mann_kendall;
        // A drifting series with ties, a few far values and two levels.
        let xs: Vec<f64> = (0..300)
            .map(|i| {
                let level = if i % 3 == 0 { 4.0 } else { 0.0 };
                let far = if i % 97 == 5 { 30.0 } else { 0.0 };
                10.0 + level + f64::from(i % 7) * 0.25 + f64::from(i) * 0.01 + far
            })
            .collect();
        let raw = RawVariant {
            name: "patched".into(),
            samples: xs.clone(),
            mean: Some(15.0),
            stddev: Some(2.5),
            ..Default::default()
        };
        let g = group_with(raw.clone());
        let given = xs.clone();
        let at = given.as_ptr();
        let mut f = Vec::new();
        let side = describe(&raw, given, &g, None, false, &mut f);
        assert_eq!(side.sorted.as_ptr(), at, "sorted in place, not copied");
        assert!(side.summary.samples.is_empty());
        let mut sorted = xs.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        assert_eq!(side.sorted, sorted);
        let r = side.run_order.unwrap();
        assert_eq!(r.variance.to_bits(), variance(&xs).to_bits());
        assert_eq!(r.bimodality, bimodality_coefficient(&xs));
        assert!(r.bimodality.is_some());
        assert_eq!((r.first, r.last), (xs[0], xs[299]));
        let trend = mann_kendall(&xs).unwrap().p;
        assert!(trend < 0.01, "{trend}");
        assert_eq!(side.summary.trend_p, Some(trend));
        assert_eq!(side.mean.map(f64::to_bits), Some(mean(&xs).to_bits()));
        assert_eq!(side.sd.map(f64::to_bits), Some(stddev(&xs).to_bits()));
        // Kept: the same side, with the samples in run order besides.
        let mut kept_f = Vec::new();
        let kept = describe(&raw, xs.clone(), &g, None, true, &mut kept_f);
        assert_eq!(kept.summary.samples, xs);
        assert_eq!(
            VariantSummary {
                samples: Vec::new(),
                ..kept.summary.clone()
            },
            side.summary
        );
        assert_eq!(kept.run_order, side.run_order);
        assert_eq!(kept.median_mad, side.median_mad);
        assert_eq!(kept_f.len(), f.len());
        assert_eq!(kept_f[0].evidence, f[0].evidence);
        // The stated figures are checked as against the samples in run
        // order.
        let copy = Summary::of(&xs).unwrap();
        let reference = cross_check(&raw, &xs, population_stddev(&xs), &g, &copy);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].evidence, reference[0].evidence);
    }

    /// A side longer than a chart draws point by point keeps, with run
    /// order asked for, the buckets of its runs and its box instead of a
    /// copy: its one vector is sorted in place as without, and every
    /// other figure is the same.
    #[test]
    fn a_long_side_keeps_buckets_not_a_run_order_copy() {
        let n = RUN_ORDER_POINTS * 3 + 5;
        let xs: Vec<f64> = (0..n)
            .map(|i| 10.0 + f64::from((i as u32 * 7919) % 101) * 0.01 + i as f64 * 1e-5)
            .collect();
        let raw = RawVariant {
            name: "patched".into(),
            samples: xs.clone(),
            ..Default::default()
        };
        let g = group_with(raw.clone());
        let given = xs.clone();
        let at = given.as_ptr();
        let kept = describe(&raw, given, &g, None, true, &mut Vec::new());
        assert_eq!(kept.sorted.as_ptr(), at, "sorted in place, not copied");
        assert!(kept.summary.samples.is_empty());
        assert!(kept.summary.has_samples());
        let t = kept.summary.thinned.clone().unwrap();
        assert_eq!(t.buckets, Thinned::of(&xs, RUN_ORDER_POINTS).buckets);
        assert_eq!((t.n, t.per), (n as u64, 4));
        assert_eq!(t.box_figures, Some(BoxFigures::of_sorted(&kept.sorted)));
        let side = describe(&raw, xs.clone(), &g, None, false, &mut Vec::new());
        assert_eq!(
            VariantSummary {
                thinned: None,
                ..kept.summary.clone()
            },
            side.summary
        );
        // At the limit, the side is kept whole.
        let short = &xs[..RUN_ORDER_POINTS];
        let whole = describe(&raw, short.to_vec(), &g, None, true, &mut Vec::new());
        assert_eq!(whole.summary.samples, short);
        assert!(whole.summary.thinned.is_none());
    }

    #[test]
    fn summaries_use_assumed_n_and_derive_spread() {
        let raw = RawVariant {
            name: "b".into(),
            mean: Some(10.0),
            stderr: Some(1.0),
            ..Default::default()
        };
        let g = group_with(raw.clone());
        let side = describe(
            &raw,
            raw.samples.clone(),
            &g,
            Some(4),
            true,
            &mut Vec::new(),
        );
        assert_eq!(side.n, Some(4.0));
        assert!(side.n_assumed);
        assert_eq!(side.sd, Some(2.0));
        let side = describe(&raw, raw.samples.clone(), &g, None, true, &mut Vec::new());
        assert_eq!(side.sd, None);
        assert_eq!(side.n, None);
    }

    #[test]
    fn decimals_are_read_back() {
        assert_eq!(decimals(33.94), 2);
        assert_eq!(decimals(0.07), 2);
        assert_eq!(decimals(6657.0), 0);
        assert!(agrees(33.94, 33.9465));
        assert!(!agrees(0.27, 0.5417));
    }

    #[test]
    fn resolution_follows_the_printed_digits() {
        assert_eq!(resolution(2.74374), 1e-5);
        assert_eq!(resolution(82169.8), 0.1);
        assert_eq!(resolution(6657.0), 1.0);
        // Small integers are exact; `%g` output of a million and more is not.
        assert_eq!(resolution(100.0), 1.0);
        assert_eq!(resolution(1500.0), 1.0);
        assert_eq!(resolution(2_109_300.0), 100.0);
        assert_eq!(resolution(4.21903e9), 1e4);
        assert_eq!(resolution(2_025_221.0), 1.0);
        // 4.20019e+09 stated, 4200186666.67 recomputed: within the last digit.
        assert!(agrees(4.20019e9, 4_200_186_666.67));
        assert!(!agrees(4.20019e9, 4_200_250_000.0));
        // A stated mean of 100 is not 103.
        assert!(!agrees(100.0, 103.0));
    }
}
