//! Statistical signatures of a broken comparison, read from the analysis
//! alone (no config needed): the debug-kernel pattern, unequal or single
//! samples, very noisy measurements and drift on one side only.

use crate::analysis::{Analysis, Comparison, Group, VariantSummary};
use crate::model::{Finding, FindingCode, Severity};
use crate::numfmt::{fixed, p_equals, signed_pct};
use std::collections::{BTreeMap, HashMap};

use crate::analysis::signals::{
    drifts, noisy, HIGH_CV_PCT, PATTERN_CV_RATIO, PATTERN_MIN_CHANGE_PCT, PATTERN_MIN_COMPARISONS,
    PATTERN_MIN_SHARE, PATTERN_SD_RATIO,
};

/// All signature findings for an analysis, errors first.
pub fn signature_findings(a: &Analysis) -> Vec<Finding> {
    let mut out = Vec::new();
    let groups = Groups::new(a);
    out.extend(debug_pattern(a, &groups));
    out.extend(unequal_n(a));
    out.extend(single_sample(a));
    out.extend(high_cv(a, &groups));
    out.extend(one_sided_trend(a, &groups));
    out.sort_by_key(|f| f.severity);
    out
}

/// The analysis' groups by (benchmark, params, metric), built once: every
/// check looks up both sides of every comparison, and a lab's analysis has
/// thousands of groups.
struct Groups<'a>(HashMap<(&'a str, &'a str, &'a str), &'a Group>);

impl<'a> Groups<'a> {
    fn new(a: &'a Analysis) -> Self {
        Groups(
            a.groups
                .iter()
                .map(|g| {
                    (
                        (g.benchmark.as_str(), g.params.as_str(), g.metric.as_str()),
                        g,
                    )
                })
                .collect(),
        )
    }

    /// The summary of `variant` in the group of comparison `c`.
    fn summary(&self, c: &Comparison, variant: &str) -> Option<&'a VariantSummary> {
        self.0
            .get(&(c.benchmark.as_str(), c.params.as_str(), c.metric.as_str()))?
            .variants
            .iter()
            .find(|v| v.variant == variant)
    }
}

fn label(c: &Comparison) -> String {
    let mut s = c.benchmark.clone();
    if !c.params.is_empty() {
        s.push_str(&format!(" [{}]", c.params));
    }
    if a_metric_worth_showing(&c.metric, &c.benchmark) {
        s.push_str(&format!(" {}", c.metric));
    }
    s
}

fn a_metric_worth_showing(metric: &str, benchmark: &str) -> bool {
    !metric.is_empty() && metric != benchmark
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

fn by_variant(a: &Analysis) -> BTreeMap<&str, Vec<&Comparison>> {
    let mut m: BTreeMap<&str, Vec<&Comparison>> = BTreeMap::new();
    for c in &a.comparisons {
        m.entry(c.variant.as_str()).or_default().push(c);
    }
    m
}

/// (a) Every comparison of a variant moves the same way by ≥ 30 % and one
/// side's spread is inflated: what a debug .config on one side looks like.
fn debug_pattern(a: &Analysis, groups: &Groups) -> Vec<Finding> {
    let mut out = Vec::new();
    for (variant, cs) in by_variant(a) {
        let usable: Vec<&&Comparison> = cs.iter().filter(|c| c.change_pct.is_finite()).collect();
        if usable.len() < PATTERN_MIN_COMPARISONS {
            continue;
        }
        let up = usable
            .iter()
            .filter(|c| c.change_pct >= PATTERN_MIN_CHANGE_PCT)
            .count();
        let down = usable
            .iter()
            .filter(|c| c.change_pct <= -PATTERN_MIN_CHANGE_PCT)
            .count();
        let moved = up.max(down);
        let needed = (PATTERN_MIN_SHARE * usable.len() as f64).ceil() as usize;
        if moved < needed {
            continue;
        }
        let mut sd_ratios = Vec::new();
        let mut cv_ratios = Vec::new();
        for c in &usable {
            let (Some(b), Some(v)) = (
                groups.summary(c, &c.baseline),
                groups.summary(c, &c.variant),
            ) else {
                continue;
            };
            if let (Some(sb), Some(sv)) = (b.stddev, v.stddev) {
                if sb > 0.0 && sv > 0.0 {
                    sd_ratios.push(sv / sb);
                }
            }
            if let (Some(cb), Some(cv)) = (b.cv_pct, v.cv_pct) {
                if cb > 0.0 && cv > 0.0 {
                    cv_ratios.push(cv / cb);
                }
            }
        }
        let (msd, mcv) = (median(sd_ratios), median(cv_ratios));
        let inflated_variant = msd.is_some_and(|r| r >= PATTERN_SD_RATIO)
            || mcv.is_some_and(|r| r >= PATTERN_CV_RATIO);
        let inflated_baseline = msd.is_some_and(|r| r <= 1.0 / PATTERN_SD_RATIO)
            || mcv.is_some_and(|r| r <= 1.0 / PATTERN_CV_RATIO);
        if !(inflated_variant || inflated_baseline) {
            continue;
        }
        let baseline = usable[0].baseline.as_str();
        let noisy = if inflated_variant { variant } else { baseline };
        let changes: Vec<String> = usable
            .iter()
            .map(|c| format!("{} {}", label(c), signed_pct(c.change_pct, 0)))
            .collect();
        let ratio = |r: Option<f64>| r.map_or("n/a".to_string(), |r| fixed(r, 2));
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::DebugKernelPattern,
            format!(
                "{variant} vs {baseline}: {moved} of {} comparisons move the same way by ≥ {PATTERN_MIN_CHANGE_PCT:.0}% with inflated variance on `{noisy}`: looks like a build/configuration difference rather than the patch",
                usable.len()
            ),
            format!(
                "Changes: {}. Median stddev ratio ({variant}/{baseline}) {}, median CV ratio {}.",
                changes.join(", "),
                ratio(msd),
                ratio(mcv)
            ),
            format!(
                "A patch rarely moves every benchmark by the same large factor; a kernel built with debug options does. Check the .config of `{noisy}` for debug options (lockdep/PROVE_LOCKING, LOCK_STAT, KASAN, DEBUG_OBJECTS …): `patchperf check BASE.config PATCHED.config`."
            ),
        ));
    }
    out
}

/// (b) Sample or iteration counts that differ between the two sides.
fn unequal_n(a: &Analysis) -> Vec<Finding> {
    let list: Vec<String> = a
        .comparisons
        .iter()
        .filter_map(|c| match (c.n_baseline, c.n_variant) {
            (Some(nb), Some(nv)) if nb != nv => Some(format!(
                "{}: {} n={nb}, {} n={nv}",
                label(c),
                c.baseline,
                c.variant
            )),
            _ => None,
        })
        .collect();
    if list.is_empty() {
        return Vec::new();
    }
    vec![Finding::new(
        Severity::Warning,
        FindingCode::UnequalN,
        format!("{} comparison{} with different sample counts on the two sides", list.len(), plural(list.len())),
        format!("{}.", list.join("; ")),
        "Run the same number of repetitions (and iterations per run) on both sides; a missing run may hide a crash or a timeout.",
    )]
}

/// (c) Comparisons with a single sample on a side: no variance, no test.
fn single_sample(a: &Analysis) -> Vec<Finding> {
    let list: Vec<String> = a
        .comparisons
        .iter()
        .filter(|c| c.n_baseline == Some(1) || c.n_variant == Some(1))
        .map(label)
        .collect();
    if list.is_empty() {
        return Vec::new();
    }
    vec![Finding::new(
        Severity::Warning,
        FindingCode::SingleSample,
        format!(
            "{} comparison{} rest on a single sample",
            list.len(),
            plural(list.len())
        ),
        format!("n = 1 on at least one side: {}.", list.join(", ")),
        "One run says nothing about run-to-run variation: repeat each side at least 5 times.",
    )]
}

/// (e) Very noisy measurements (CV ≥ 10 %).
fn high_cv(a: &Analysis, groups: &Groups) -> Vec<Finding> {
    let mut list = Vec::new();
    for c in &a.comparisons {
        let cb = groups.summary(c, &c.baseline).and_then(|s| s.cv_pct);
        let cv = groups.summary(c, &c.variant).and_then(|s| s.cv_pct);
        let high = noisy;
        if high(cb) || high(cv) {
            let f = |x: Option<f64>| match x {
                Some(x) if x.is_finite() => format!("{}%", fixed(x, 0)),
                _ => "n/a".to_string(),
            };
            list.push(format!(
                "{}: CV {} {}, {} {}",
                label(c),
                c.baseline,
                f(cb),
                c.variant,
                f(cv)
            ));
        }
    }
    if list.is_empty() {
        return Vec::new();
    }
    vec![Finding::new(
        Severity::Warning,
        FindingCode::HighCv,
        format!(
            "{} comparison{} with a coefficient of variation ≥ {HIGH_CV_PCT:.0}%",
            list.len(),
            plural(list.len())
        ),
        format!("{}.", list.join("; ")),
        "Noise this large hides changes of a few percent: quiet the machine (fixed governor, no turbo, idle system, pinned CPUs) or run more repetitions.",
    )]
}

/// (e) A trend over run order on one side only (warm-up, thermal drift,
/// background work on one system).
fn one_sided_trend(a: &Analysis, groups: &Groups) -> Vec<Finding> {
    let mut list = Vec::new();
    for c in &a.comparisons {
        let tb = groups.summary(c, &c.baseline).and_then(|s| s.trend_p);
        let tv = groups.summary(c, &c.variant).and_then(|s| s.trend_p);
        let drift = drifts;
        match (drift(tb), drift(tv)) {
            (true, false) => list.push(format!(
                "{}: {} ({})",
                label(c),
                c.baseline,
                p_equals(tb.unwrap_or(f64::NAN))
            )),
            (false, true) => list.push(format!(
                "{}: {} ({})",
                label(c),
                c.variant,
                p_equals(tv.unwrap_or(f64::NAN))
            )),
            _ => {}
        }
    }
    if list.is_empty() {
        return Vec::new();
    }
    vec![Finding::new(
        Severity::Warning,
        FindingCode::OneSidedTrend,
        format!("{} comparison{} drift over run order on one side only", list.len(), plural(list.len())),
        format!("Trend on: {}.", list.join("; ")),
        "Something changed during those runs (warm-up, thermal throttling, background load): discard warm-up runs or interleave baseline and patched runs.",
    )]
}

/// `s` unless `n` is one (`1 comparison`, `2 comparisons`).
pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Center, Group};
    use crate::model::Direction;

    fn vs(variant: &str, mean: f64, sd: f64, n: Option<u64>) -> VariantSummary {
        VariantSummary {
            variant: variant.into(),
            n,
            mean: Some(mean),
            median: None,
            stddev: Some(sd),
            min: None,
            max: None,
            cv_pct: Some(100.0 * sd / mean),
            ci_low: None,
            ci_high: None,
            samples: Vec::new(),
            thinned: None,
            from_summary: true,
            outliers: 0,
            trend_p: None,
        }
    }

    /// An analysis of stated summaries: rows of (params, [(mean, sd) per variant]).
    fn table(
        benchmark: &str,
        variants: &[&str],
        n: Option<u64>,
        rows: &[(&str, &[(f64, f64)])],
    ) -> Analysis {
        let mut a = Analysis::default();
        for (params, cells) in rows {
            let vars: Vec<VariantSummary> = variants
                .iter()
                .zip(cells.iter())
                .map(|(v, (m, s))| vs(v, *m, *s, n))
                .collect();
            for v in &vars[1..] {
                a.comparisons
                    .push(comparison(benchmark, params, &vars[0], v));
            }
            a.groups.push(Group {
                benchmark: benchmark.into(),
                params: params.to_string(),
                metric: "time".into(),
                unit: "ms".into(),
                direction: Direction::Lower,
                variants: vars,
            });
        }
        a
    }

    fn comparison(
        benchmark: &str,
        params: &str,
        b: &VariantSummary,
        v: &VariantSummary,
    ) -> Comparison {
        let (mb, mv) = (b.mean.unwrap(), v.mean.unwrap());
        Comparison {
            benchmark: benchmark.into(),
            params: params.into(),
            metric: "time".into(),
            unit: "ms".into(),
            direction: Direction::Lower,
            baseline: b.variant.clone(),
            variant: v.variant.clone(),
            n_baseline: b.n,
            n_variant: v.n,
            baseline_center: mb,
            variant_center: mv,
            center: Center::Mean,
            change_pct: 100.0 * (mv - mb) / mb,
            ..Comparison::default()
        }
    }

    fn codes(f: &[Finding]) -> Vec<String> {
        f.iter().map(|f| f.code.to_string()).collect()
    }

    /// Seed 003, first table: every thread count +150–210 % with a larger stddev.
    fn seed003_table1() -> Analysis {
        table(
            "futex-wake",
            &["baseline", "patched"],
            None,
            &[
                ("threads=512", &[(4.2410, 0.9762), (12.3660, 5.1020)]),
                ("threads=256", &[(2.7750, 0.3997), (7.0220, 2.9436)]),
                ("threads=128", &[(1.4910, 0.4188), (3.7430, 0.8223)]),
                ("threads=64", &[(0.8970, 0.3455), (2.5570, 0.3710)]),
                ("threads=32", &[(0.3620, 0.2242), (1.1300, 0.4716)]),
            ],
        )
    }

    #[test]
    fn seed003_first_table_raises_the_debug_pattern() {
        let f = signature_findings(&seed003_table1());
        let d = f
            .iter()
            .find(|f| f.code == "debug-kernel-pattern")
            .expect("pattern found");
        assert_eq!(d.severity, Severity::Warning);
        assert!(d.title.starts_with("patched vs baseline: 5 of 5 comparisons move the same way by ≥ 30% with inflated variance on `patched`"), "{}", d.title);
        assert!(
            d.evidence.contains("futex-wake [threads=512] time +192%"),
            "{}",
            d.evidence
        );
        // Stddev ratios 5.23, 7.36, 1.96, 1.07, 2.10: median 2.10.
        assert!(
            d.evidence
                .contains("Median stddev ratio (patched/baseline) 2.10"),
            "{}",
            d.evidence
        );
        assert!(d.advice.contains("check the .config") || d.advice.contains("Check the .config"));
    }

    #[test]
    fn a_debug_baseline_is_named_as_the_noisy_side() {
        // Seed 003's first table with the columns swapped: everything 60–70 % faster.
        let mut a = seed003_table1();
        for g in &mut a.groups {
            g.variants.swap(0, 1);
            g.variants[0].variant = "baseline".into();
            g.variants[1].variant = "patched".into();
        }
        a.comparisons = a
            .groups
            .iter()
            .map(|g| comparison(&g.benchmark, &g.params, &g.variants[0], &g.variants[1]))
            .collect();
        let f = signature_findings(&a);
        let d = f
            .iter()
            .find(|f| f.code == "debug-kernel-pattern")
            .expect("pattern found");
        assert!(
            d.title.contains("inflated variance on `baseline`"),
            "{}",
            d.title
        );
        assert!(d.advice.contains("Check the .config of `baseline`"));
    }

    #[test]
    fn seed003_second_table_does_not() {
        let a = table(
            "futex-wake",
            &["baseline", "barrier", "atomicops"],
            None,
            &[
                (
                    "threads=512",
                    &[(2.8360, 0.5168), (4.4100, 1.1150), (3.8150, 1.3293)],
                ),
                (
                    "threads=256",
                    &[(2.5080, 0.6375), (2.3070, 0.5112), (2.5980, 0.9079)],
                ),
                (
                    "threads=128",
                    &[(1.0200, 0.4264), (1.3980, 0.3391), (1.5180, 0.4902)],
                ),
                (
                    "threads=64",
                    &[(0.7890, 0.2667), (0.6970, 0.3374), (0.4020, 0.2447)],
                ),
                (
                    "threads=32",
                    &[(0.1150, 0.0184), (0.1870, 0.1428), (0.1490, 0.1156)],
                ),
            ],
        );
        let f = signature_findings(&a);
        assert!(
            !codes(&f).iter().any(|c| c == "debug-kernel-pattern"),
            "{f:#?}"
        );
        // Noise is reported though: every row has CV ≥ 10 %.
        assert_eq!(codes(&f), ["high-cv"]);
        assert!(f[0].title.starts_with("10 comparisons"));
    }

    #[test]
    fn seed000_and_seed002_do_not() {
        // Seed 000: 5000 iterations per side, SCHED_OTHER and SCHED_FIFO.
        let mut a = table(
            "pthread-broadcast",
            &["simple list", "plist"],
            Some(5000),
            &[
                (
                    "policy=SCHED_OTHER",
                    &[(6656.73, 539.35), (6787.97, 479.41)],
                ),
                ("policy=SCHED_FIFO", &[(6656.85, 463.30), (9720.12, 426.45)]),
            ],
        );
        assert!(
            signature_findings(&a).is_empty(),
            "{:#?}",
            signature_findings(&a)
        );
        // Seed 002: make -j1 (4 runs) and hackbench 50 (5 runs).
        a = table(
            "make -j1 kernel/",
            &["no lock prefix", "with lock prefix"],
            Some(4),
            &[("", &[(33.94, 0.07), (34.91, 0.27)])],
        );
        let b = table(
            "hackbench 50",
            &["no lock prefix", "with lock prefix"],
            Some(5),
            &[("", &[(2.99, 0.01), (3.74, 0.01)])],
        );
        a.groups.extend(b.groups);
        a.comparisons.extend(b.comparisons);
        assert!(
            signature_findings(&a).is_empty(),
            "{:#?}",
            signature_findings(&a)
        );
    }

    #[test]
    fn debug_pattern_needs_inflated_variance_and_enough_comparisons() {
        let mut a = seed003_table1();
        // Same shifts, spread barely changed: no inflation → no pattern.
        for g in &mut a.groups {
            let sb = g.variants[0].stddev.unwrap();
            g.variants[1].stddev = Some(sb * 1.2);
            g.variants[1].cv_pct = g.variants[0].cv_pct;
        }
        assert!(!codes(&signature_findings(&a))
            .iter()
            .any(|c| c == "debug-kernel-pattern"));
        let mut two = seed003_table1();
        two.comparisons.truncate(2);
        assert!(!codes(&signature_findings(&two))
            .iter()
            .any(|c| c == "debug-kernel-pattern"));
    }

    #[test]
    fn unequal_and_single_samples_and_trend() {
        let mut a = table(
            "hackbench",
            &["base", "new"],
            Some(5),
            &[
                ("g=1", &[(1.0, 0.01), (1.0, 0.01)]),
                ("g=2", &[(1.0, 0.01), (1.0, 0.01)]),
            ],
        );
        a.comparisons[0].n_variant = Some(4);
        a.comparisons[1].n_baseline = Some(1);
        a.groups[0].variants[1].trend_p = Some(0.005);
        a.groups[0].variants[0].trend_p = Some(0.6);
        let f = signature_findings(&a);
        assert_eq!(codes(&f), ["unequal-n", "single-sample", "one-sided-trend"]);
        assert_eq!(
            f[0].evidence,
            "hackbench [g=1] time: base n=5, new n=4; hackbench [g=2] time: base n=1, new n=5."
        );
        assert_eq!(
            f[1].evidence,
            "n = 1 on at least one side: hackbench [g=2] time."
        );
        assert_eq!(
            f[2].evidence,
            "Trend on: hackbench [g=1] time: new (p = 0.005)."
        );
        // The drift limit is the analysis' (p < 0.01), not 0.05: a side at
        // p = 0.02 is not called drifting here either.
        a.groups[0].variants[1].trend_p = Some(0.02);
        assert_eq!(
            codes(&signature_findings(&a)),
            ["unequal-n", "single-sample"]
        );
    }
}
