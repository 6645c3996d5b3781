//! Analysis on datasets built in code from real figures (the hackbench
//! corpus and seed tables), independent of any importer.

use super::*;
use crate::model::{Observation, Stat};

fn samples(bench: &str, variant: &str, unit: &str, xs: &[f64]) -> Vec<Observation> {
    xs.iter()
        .enumerate()
        .map(|(i, &x)| {
            Observation::sample(bench, "time", unit, x)
                .with_variant(variant)
                .with_run(i as u32)
        })
        .collect()
}

fn stated(
    bench: &str,
    params: &[(&str, &str)],
    variant: &str,
    mean: f64,
    sd: f64,
    n: Option<f64>,
) -> Vec<Observation> {
    let mut v = vec![
        Observation::new(bench, "time", "ms", Stat::Mean, mean)
            .with_params(params)
            .with_variant(variant),
        Observation::new(bench, "time", "ms", Stat::Stddev, sd)
            .with_params(params)
            .with_variant(variant),
    ];
    if let Some(n) = n {
        v.push(
            Observation::new(bench, "time", "", Stat::N, n)
                .with_params(params)
                .with_variant(variant),
        );
    }
    v
}

/// rt-tests hackbench `-g 4 -l 200`, corpus files 1–10 per side (seconds).
const HACK_BASE: [f64; 10] = [
    0.460, 0.523, 0.474, 0.687, 0.744, 0.688, 0.587, 0.642, 0.809, 0.851,
];
const HACK_PATCHED: [f64; 10] = [
    0.593, 0.666, 0.607, 0.618, 0.768, 0.803, 0.517, 0.582, 0.653, 0.616,
];

#[test]
fn hackbench_corpus_is_not_a_significant_change() {
    let mut rows = samples("hackbench", "baseline", "s", &HACK_BASE);
    rows.extend(samples("hackbench", "patched", "s", &HACK_PATCHED));
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    assert_eq!(a.comparisons.len(), 1);
    let c = &a.comparisons[0];
    assert_eq!(c.test, TestKind::MannWhitney);
    assert_eq!(c.center, Center::Median);
    // scipy.stats.mannwhitneyu: U = 53, p = 0.8501067391385259 (asymptotic, n > 8 both)
    assert!((c.p_value.unwrap() / 0.8501067391385259 - 1.0).abs() < 1e-9);
    assert!((c.baseline_center - 0.6645).abs() < 1e-12);
    assert!((c.variant_center - 0.617).abs() < 1e-12);
    assert!((c.change_pct - (0.617 / 0.6645 - 1.0) * 100.0).abs() < 1e-9);
    // 20–40% noise on this machine: the CI is far wider than ±2%.
    assert_eq!(c.verdict, Verdict::Inconclusive);
    let (lo, hi) = (c.ci_low_pct.unwrap(), c.ci_high_pct.unwrap());
    assert!(lo < -10.0 && hi > 10.0, "{lo} {hi}");
    assert!(c.n_needed.unwrap() > 100, "{:?}", c.n_needed);
    assert!(c.min_detectable_pct.unwrap() > 15.0);
    assert_eq!(a.groups[0].variants[0].n, Some(10));
    // Reproducible bootstrap.
    let mut rows = samples("hackbench", "baseline", "s", &HACK_BASE);
    rows.extend(samples("hackbench", "patched", "s", &HACK_PATCHED));
    let b = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    assert_eq!(a.comparisons, b.comparisons);
}

#[test]
fn a_clear_regression_in_samples_is_regressed() {
    // Seed 002 hackbench 50: 5 runs per side, fully separated.
    let mut rows = samples(
        "hackbench 50",
        "no lock prefix",
        "s",
        &[2.978, 2.982, 3.010, 2.984, 2.982],
    );
    rows.extend(samples(
        "hackbench 50",
        "with lock prefix",
        "s",
        &[3.733, 3.750, 3.761, 3.737, 3.741],
    ));
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    let c = &a.comparisons[0];
    assert!((c.p_value.unwrap() - 2.0 / 252.0).abs() < 1e-15);
    assert_eq!(c.verdict, Verdict::Regressed);
    assert_eq!(c.effect_size, Some(1.0));
    assert!((c.change_pct - (3.741 / 2.982 - 1.0) * 100.0).abs() < 1e-9);
    assert!(
        c.notes
            .iter()
            .any(|n| n.kind == NoteKind::TooFewForInterval && n.text.contains("needs ≥ 6 samples")),
        "{:?}",
        c.notes
    );
}

/// Seed 003 table 1 (debug .config on the patched side), n not stated.
fn seed003_table1() -> Vec<Observation> {
    let t1 = [
        ("512", 4.2410, 0.9762, 12.3660, 5.1020),
        ("256", 2.7750, 0.3997, 7.0220, 2.9436),
        ("128", 1.4910, 0.4188, 3.7430, 0.8223),
        ("64", 0.8970, 0.3455, 2.5570, 0.3710),
        ("32", 0.3620, 0.2242, 1.1300, 0.4716),
    ];
    let mut rows = Vec::new();
    for (th, bm, bs, pm, ps) in t1 {
        rows.extend(stated(
            "futex-wake",
            &[("threads", th)],
            "baseline",
            bm,
            bs,
            None,
        ));
        rows.extend(stated(
            "futex-wake",
            &[("threads", th)],
            "patched",
            pm,
            ps,
            None,
        ));
    }
    rows
}

#[test]
fn summaries_without_n_are_untestable_with_the_n_that_would_do() {
    let a = analyze(&Dataset::new(seed003_table1()), &Settings::default()).unwrap();
    assert_eq!(a.comparisons.len(), 5);
    for c in &a.comparisons {
        assert_eq!(c.verdict, Verdict::Untestable);
        assert_eq!(c.test, TestKind::None);
        assert_eq!(c.p_value, None);
        assert!(c.n_needed.is_some());
    }
    // 512 threads: significant from n = 4 per side (see stats::power).
    assert_eq!(a.comparisons[0].n_needed, Some(4));
    assert!((a.comparisons[0].change_pct - 191.58).abs() < 0.01);
    assert!(a.findings.iter().any(|f| f.code == "n-unknown"));
}

#[test]
fn assumed_n_gives_welch_from_summaries() {
    let s = Settings {
        assume_n: Some(10),
        ..Settings::default()
    };
    let a = analyze(&Dataset::new(seed003_table1()), &s).unwrap();
    // scipy.stats.ttest_ind_from_stats(..., 10, ..., 10, equal_var=False)
    let want = [
        ("threads=512", 0.0006451226683334455),
        ("threads=256", 0.001318096407430594),
        ("threads=128", 2.7701644613634e-06),
        ("threads=64", 5.48420636432145e-09),
        ("threads=32", 0.0004657542437081709),
    ];
    for (c, (params, p)) in a.comparisons.iter().zip(want) {
        assert_eq!(c.params, params);
        assert_eq!(c.test, TestKind::WelchSummary);
        assert!(
            (c.p_value.unwrap() / p - 1.0).abs() < 1e-9,
            "{params}: {:?} vs {p}",
            c.p_value
        );
        assert_eq!(c.verdict, Verdict::Regressed, "{params}");
        assert!(c.ci_low_pct.unwrap() > 0.0);
    }
    assert!(a.findings.iter().any(|f| f.code == "assumed-n"));
    assert!(
        a.findings.iter().any(|f| f.code == "variance-differs"),
        "{:#?}",
        a.findings
    );
}

#[test]
fn each_interval_says_how_it_was_computed() {
    // Medians of at most 100 values per side: exact, whatever the seed.
    let mut rows = samples("hackbench", "baseline", "s", &HACK_BASE);
    rows.extend(samples("hackbench", "patched", "s", &HACK_PATCHED));
    let data = Dataset::new(rows);
    let exact = analyze(&data, &Settings::default()).unwrap();
    let reseeded = Settings {
        seed: 7,
        ..Settings::default()
    };
    let other = analyze(&data, &reseeded).unwrap();
    let c = &exact.comparisons[0];
    assert_eq!(c.interval, Some(IntervalMethod::Exact));
    assert_eq!(
        (c.ci_low_pct, c.ci_high_pct),
        (
            other.comparisons[0].ci_low_pct,
            other.comparisons[0].ci_high_pct
        )
    );
    // Means (--test welch) are resampled, and the seed shows.
    let welch = Settings {
        test: TestChoice::Welch,
        ..Settings::default()
    };
    let w = analyze(&data, &welch).unwrap();
    let w7 = analyze(&data, &Settings { seed: 7, ..welch }).unwrap();
    assert_eq!(w.comparisons[0].interval, Some(IntervalMethod::Resampled));
    assert_ne!(w.comparisons[0].ci_low_pct, w7.comparisons[0].ci_low_pct);
    // Medians of 101 values: resampled.
    let big: Vec<f64> = (0..101).map(|i| 1.0 + (i % 17) as f64 / 100.0).collect();
    let mut rows = samples("b", "baseline", "s", &big);
    rows.extend(samples("b", "patched", "s", &big));
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    assert_eq!(a.comparisons[0].interval, Some(IntervalMethod::Resampled));
    // Stated summaries with n: the delta method; without n: no interval.
    let with_n = Settings {
        assume_n: Some(10),
        ..Settings::default()
    };
    let a = analyze(&Dataset::new(seed003_table1()), &with_n).unwrap();
    assert!(a
        .comparisons
        .iter()
        .all(|c| c.interval == Some(IntervalMethod::Delta)));
    let a = analyze(&Dataset::new(seed003_table1()), &Settings::default()).unwrap();
    assert!(a
        .comparisons
        .iter()
        .all(|c| c.interval.is_none() && c.ci_low_pct.is_none()));
    // An interval with an infinite end (two runs a side, a spread a
    // thousand times the mean: e^(t·√(rel. variance)) overflows) is not
    // named: `--json` shows that end as null.
    let mut rows = stated("wide", &[], "baseline", 1.0, 1000.0, Some(2.0));
    rows.extend(stated("wide", &[], "patched", 1.0, 1000.0, Some(2.0)));
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    let c = &a.comparisons[0];
    assert_eq!(c.test, TestKind::WelchSummary);
    assert!(c.ci_high_pct.is_some_and(|h| !h.is_finite()), "{c:?}");
    assert_eq!(c.interval, None);
}

#[test]
fn sides_hundreds_of_orders_apart_are_tested_and_described_legibly() {
    let mut rows = stated("far", &[], "baseline", 1e-200, 1e-201, Some(10.0));
    rows.extend(stated("far", &[], "patched", 1e200, 1e199, Some(10.0)));
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    let c = &a.comparisons[0];
    // Welch's test in units of the larger side; squared spreads of 1e199
    // overflowed and left p undefined. scipy.stats.ttest_ind_from_stats(
    // 0, 0, 10, 1, 0.1, 10, equal_var=False).pvalue = 1.5522133898168318e-10
    assert_eq!(c.test, TestKind::WelchSummary);
    let p = c.p_value.unwrap();
    assert!((p / 1.5522133898168318e-10 - 1.0).abs() < 1e-6, "{p}");
    assert_eq!(c.verdict, Verdict::Regressed);
    // The spreads are written in scientific notation, not as hundreds of
    // digits, and their infinite ratio as such.
    let f = a
        .findings
        .iter()
        .find(|f| f.code == "variance-differs")
        .unwrap();
    assert!(f.title.contains("is ∞× as spread"), "{}", f.title);
    assert!(
        f.evidence.contains("stddev 1.000e199 vs 1.000e-201"),
        "{}",
        f.evidence
    );
}

#[test]
fn huge_n_reports_a_bound_and_single_values_are_untestable() {
    let rows: Vec<Observation> = [
        ("with simple list", 6656.85, 463.30),
        ("with plist", 9720.12, 426.45),
    ]
    .iter()
    .flat_map(|(v, m, s)| {
        let mut r = stated(
            "futex-broadcast",
            &[("policy", "SCHED_FIFO")],
            v,
            *m,
            *s,
            Some(5000.0),
        );
        for o in r.iter_mut() {
            o.unit = "us".into();
        }
        r
    })
    .collect();
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    let c = &a.comparisons[0];
    assert_eq!(c.p_value, Some(crate::stats::P_FLOOR));
    assert_eq!(crate::numfmt::format_p(c.p_value.unwrap()), "< 1e-300");
    assert_eq!(c.verdict, Verdict::Regressed);
    assert!((c.change_pct - 46.015).abs() < 0.01, "{}", c.change_pct);

    // Seed 004: one tps figure per variant.
    let rows: Vec<Observation> = [
        ("original", 43404.0),
        ("wakeup-buddy", 63024.0),
        ("1ms-limit", 46535.0),
    ]
    .iter()
    .map(|(v, x)| Observation::new("pgbench", "tps", "", Stat::Mean, *x).with_variant(*v))
    .collect();
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    assert_eq!(a.comparisons.len(), 2);
    assert!(a
        .comparisons
        .iter()
        .all(|c| c.verdict == Verdict::Untestable));
    assert!((a.comparisons[0].change_pct - 45.20).abs() < 0.01);
    assert!((a.comparisons[1].change_pct - 7.21).abs() < 0.01);
    assert!(a.findings.iter().any(|f| f.code == "no-variance"));
}

#[test]
fn unknown_baseline_and_bad_settings_are_usage_errors() {
    let d = Dataset::new(samples("b", "x", "s", &[1.0, 2.0]));
    let s = Settings {
        baseline: Some("nope".into()),
        ..Settings::default()
    };
    assert_eq!(analyze(&d, &s).unwrap_err().exit_code(), 2);
    let s = Settings {
        alpha: 1.5,
        ..Settings::default()
    };
    assert!(analyze(&d, &s).is_err());
}

#[test]
fn stated_changes_are_checked_against_the_values() {
    let run = |pct: f64| {
        let mut rows = stated("b", &[], "base", 100.0, 5.0, Some(10.0));
        rows.extend(stated("b", &[], "new", 110.0, 5.0, Some(10.0)));
        rows.push(Observation::new("b", "time", "%", Stat::ChangePct, pct).with_variant("new"));
        let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
        assert_eq!(a.comparisons[0].stated_change_pct, Some(pct));
        a.findings
            .iter()
            .map(|f| f.code.to_string())
            .filter(|c| c.starts_with("stated-change"))
            .collect::<Vec<_>>()
    };
    assert!(run(10.0).is_empty());
    assert_eq!(run(-10.0), vec!["stated-change-sign"]);
    assert_eq!(run(9.09), vec!["stated-change-inverse"]);
    assert_eq!(run(25.0), vec!["stated-change-mismatch"]);
}

/// Stated centres with their intervals, as Criterion's console prints them.
fn with_interval(bench: &str, variant: &str, lo: f64, est: f64, hi: f64) -> Vec<Observation> {
    [(Stat::Mean, est), (Stat::CiLow, lo), (Stat::CiHigh, hi)]
        .into_iter()
        .map(|(stat, v)| Observation::new(bench, "time", "us", stat, v).with_variant(variant))
        .collect()
}

fn stated_change_codes(rows: Vec<Observation>) -> Vec<String> {
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    a.findings
        .iter()
        .map(|f| f.code.to_string())
        .filter(|c| c.starts_with("stated-change"))
        .collect()
}

#[test]
fn a_stated_change_of_another_estimator_is_an_info_not_a_copy_error() {
    // sort/1000 of the Criterion console corpus: the `time:` estimates give
    // +322.9%, Criterion's `change:` (of the mean) says +289.16%.
    let rows = |pct: f64| {
        let mut r = with_interval("sort", "base", 8.6736, 9.1116, 9.5884);
        r.extend(with_interval("sort", "new", 36.580, 38.534, 40.301));
        r.push(Observation::new("sort", "time", "us", Stat::ChangePct, pct).with_variant("new"));
        r
    };
    assert_eq!(
        stated_change_codes(rows(289.16)),
        vec!["stated-change-estimator"]
    );
    // The intervals allow +281.5% … +364.6%: a change outside stays a mismatch.
    assert_eq!(
        stated_change_codes(rows(250.0)),
        vec!["stated-change-mismatch"]
    );
    // The change of the centres themselves needs no finding at all.
    assert!(stated_change_codes(rows(322.91)).is_empty());
}

#[test]
fn summaries_of_rounded_samples_match_to_the_printed_digits() {
    // BM_StringCopy/64 real_time of the Google Benchmark CSV corpus: samples
    // and summaries printed with six significant digits.
    let rows = |sd: f64| {
        let mut r = samples("copy", "base", "ns", &[20.0762, 15.5029, 15.1631]);
        for (stat, v) in [
            (Stat::Mean, 16.9141),
            (Stat::Median, 15.5029),
            (Stat::Stddev, sd),
        ] {
            r.push(Observation::new("copy", "time", "ns", stat, v).with_variant("base"));
        }
        r.extend(samples("copy", "new", "ns", &[20.1, 20.3, 20.2]));
        let a = analyze(&Dataset::new(r), &Settings::default()).unwrap();
        a.findings
            .iter()
            .map(|f| f.code.to_string())
            .filter(|c| c.starts_with("stated-summary"))
            .collect::<Vec<_>>()
    };
    // The samples give 2.743753: off by 1.3 units of the stated last digit,
    // within what samples rounded to 4 decimals can move a stddev.
    assert_eq!(rows(2.74374), vec!["stated-summary-verified"]);
    // A stddev off in its fourth significant digit is still caught.
    assert_eq!(rows(2.74474), vec!["stated-summary-mismatch"]);
}

/// Two long sides given up (their samples moved out of the rows) and
/// analysed without run order kept give the analysis of the same rows
/// borrowed with run order kept: the same comparisons and findings
/// (drift, two modes, unequal spread, stated figures checked), the
/// summaries without samples (kept, the long sides' are thinned).
#[test]
fn long_sides_given_up_and_sorted_in_place_are_analysed_alike() {
    let n = group::TAKE_ROWS + 11;
    let side = |variant: &str, shift: f64, spread: f64| {
        let template = Observation::sample("hackbench", "time", "s", 0.0).with_variant(variant);
        let values: Vec<f64> = (0..n)
            .map(|i| {
                let mode = if i % 4 == 0 { 3.0 * spread } else { 0.0 };
                shift + mode + spread * ((i * 7919) % 101) as f64 / 100.0 + i as f64 * 1e-6
            })
            .collect();
        let mut d = Dataset::default();
        d.push_values_vec(&template, values, Some(0));
        // Stated to the millisecond, and off by more than that.
        let stated = shift + 0.013;
        d.push(
            Observation::new("hackbench", "time", "s", Stat::Mean, stated).with_variant(variant),
        );
        d
    };
    let mut data = side("base", 2.0, 0.1);
    data.append(side("patched", 2.1, 0.3));
    data.extend(samples(
        "small",
        "base",
        "s",
        &[1.0, 1.1, 1.2, 1.1, 1.0, 1.3],
    ));
    data.extend(samples(
        "small",
        "patched",
        "s",
        &[1.2, 1.1, 1.4, 1.3, 1.2, 1.5],
    ));
    let kept = analyze(&data, &Settings::default()).unwrap();
    let settings = Settings {
        keep_run_order: false,
        ..Settings::default()
    };
    let variants = data.variants();
    let given = analyze_owned(data, &variants, &settings).unwrap();
    assert_eq!(given.comparisons, kept.comparisons);
    assert_eq!(given.findings, kept.findings);
    let codes: Vec<String> = kept.findings.iter().map(|f| f.code.to_string()).collect();
    for code in [
        "trend-over-runs",
        "bimodal",
        "variance-differs",
        "stated-summary-mismatch",
    ] {
        assert!(codes.iter().any(|c| c == code), "{code} in {codes:?}");
    }
    assert_eq!(given.groups.len(), kept.groups.len());
    for (g, k) in given.groups.iter().zip(&kept.groups) {
        for (v, w) in g.variants.iter().zip(&k.variants) {
            assert!(v.samples.is_empty() && v.thinned.is_none());
            // Kept: each sample of a short side, the buckets of a long one.
            let kept_n = match &w.thinned {
                Some(t) => t.n,
                None => w.samples.len() as u64,
            };
            assert_eq!(kept_n, w.n.unwrap());
            assert_eq!(w.thinned.is_some(), g.benchmark == "hackbench");
            let without = VariantSummary {
                samples: Vec::new(),
                thinned: None,
                ..w.clone()
            };
            assert_eq!(*v, without);
        }
    }
}

#[test]
fn each_file_s_stated_summary_is_checked_against_that_file_s_runs() {
    // Two invocations per side, each stating the mean and n of its own
    // five runs (hyperfine's JSON): pooled, neither matches the ten runs.
    let file = |src: &str, variant: &str, xs: &[f64], mean: f64, first_run: u32| {
        let mut r: Vec<Observation> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                Observation::sample("xz", "time", "s", x)
                    .with_variant(variant)
                    .with_run(first_run + i as u32)
            })
            .collect();
        r.push(Observation::new("xz", "time", "s", Stat::Mean, mean).with_variant(variant));
        r.push(Observation::new("xz", "time", "", Stat::N, 5.0).with_variant(variant));
        for o in &mut r {
            o.source = src.into();
        }
        r
    };
    let mut rows = file("b1.json", "base", &[2.0, 2.1, 2.2, 2.1, 2.0], 2.08, 0);
    rows.extend(file("b2.json", "base", &[1.0, 1.1, 1.2, 1.1, 1.0], 1.08, 5));
    rows.extend(file("p1.json", "new", &[3.0, 3.1, 3.2, 3.1, 3.0], 3.08, 0));
    rows.extend(file("p2.json", "new", &[3.0, 3.1, 3.2, 3.1, 3.0], 9.99, 5));
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    let stated: Vec<(String, String)> = a
        .findings
        .iter()
        .filter(|f| f.code.to_string().starts_with("stated-summary"))
        .map(|f| (f.code.to_string(), f.evidence.clone()))
        .collect();
    assert_eq!(stated.len(), 4, "{stated:?}");
    let mismatches: Vec<_> = stated
        .iter()
        .filter(|(c, _)| c.ends_with("mismatch"))
        .collect();
    // Only the second patched file states a mean its runs do not give.
    assert_eq!(mismatches.len(), 1, "{stated:?}");
    assert!(mismatches[0].1.contains("p2.json"), "{stated:?}");
    assert!(mismatches[0]
        .1
        .contains("mean stated 9.99 s, samples give 3.08 s"));
    // The comparison itself still pools all ten runs of each side.
    assert_eq!(a.comparisons[0].n_baseline, Some(10));
}

proptest::proptest! {
    /// Whatever the signs of the two centres, the change has the sign of
    /// variant − baseline, its interval holds it, and a lower-is-better
    /// metric that rose is never called improved.
    #[test]
    fn the_change_has_the_sign_of_the_difference(
        base in -50.0f64..50.0,
        shift in -60.0f64..60.0,
        spread in 0.01f64..2.0,
    ) {
        let xs: Vec<f64> = (0..8).map(|i| base + spread * (i as f64 - 3.5) / 8.0).collect();
        let ys: Vec<f64> = xs.iter().map(|x| x + shift).collect();
        let mut rows = samples("b", "baseline", "s", &xs);
        rows.extend(samples("b", "patched", "s", &ys));
        let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
        let c = &a.comparisons[0];
        let diff = c.variant_center - c.baseline_center;
        if c.baseline_center != 0.0 && diff != 0.0 {
            proptest::prop_assert_eq!(c.change_pct.signum(), diff.signum(), "{:?}", c);
        }
        if let (Some(lo), Some(hi)) = (c.ci_low_pct, c.ci_high_pct) {
            proptest::prop_assert!(lo <= c.change_pct + 1e-9 && c.change_pct <= hi + 1e-9, "{:?}", c);
        }
        if diff > 0.0 {
            proptest::prop_assert_ne!(c.verdict, Verdict::Improved);
        }
    }
}
