//! The statistics checked against SciPy on committed vectors
//! (`scripts/scipy_vectors.py` → `tests/data/scipy/*.json`), plus property
//! tests of the two-sample tests.

use patchperf::stats::bootstrap::{ratio_ci, Center};
use patchperf::stats::correction::{benjamini_hochberg, holm};
use patchperf::stats::mann_whitney::{mann_whitney_u_with, MwuChoice, MwuMethod};
use patchperf::stats::welch::{welch, welch_from_stats};
use patchperf::stats::P_FLOOR;
use proptest::prelude::*;
use serde_json::Value;

fn fixture(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/tests/data/scipy/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap();
    v["cases"].as_array().unwrap().clone()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Relative agreement; SciPy's 0 (underflow) must be our floor.
fn close(ours: f64, scipy: f64, rel: f64) -> bool {
    if scipy == 0.0 {
        return ours == P_FLOOR;
    }
    ((ours - scipy) / scipy).abs() <= rel
}

#[test]
fn mann_whitney_matches_scipy() {
    let cases = fixture("mannwhitneyu");
    assert!(cases.len() >= 150);
    let (mut exact, mut asym) = (0, 0);
    for (i, c) in cases.iter().enumerate() {
        let (x, y) = (floats(&c["x"]), floats(&c["y"]));
        let method = c["method"].as_str().unwrap();
        let choice = if method == "exact" {
            MwuChoice::Exact
        } else {
            MwuChoice::Asymptotic
        };
        let r = mann_whitney_u_with(&x, &y, choice).unwrap();
        let (u, p) = (c["u"].as_f64().unwrap(), c["p"].as_f64().unwrap());
        assert_eq!(r.u, u, "case {i}: U");
        let tol = if method == "exact" { 1e-9 } else { 1e-6 };
        assert!(
            close(r.p, p, tol),
            "case {i} ({method}, n={}+{}): p {} vs SciPy {p}",
            x.len(),
            y.len(),
            r.p
        );
        if method == "exact" {
            exact += 1;
            assert_eq!(r.method, MwuMethod::Exact);
            // The automatic choice is exact here too (one side ≤ 8).
            let auto = mann_whitney_u_with(&x, &y, MwuChoice::Auto).unwrap();
            assert_eq!(auto.p, r.p, "case {i}: auto");
        } else {
            asym += 1;
        }
    }
    assert!(
        exact >= 60 && asym >= 70,
        "{exact} exact, {asym} asymptotic"
    );
}

#[test]
fn welch_from_samples_matches_scipy() {
    for (i, c) in fixture("welch").iter().enumerate() {
        let (x, y) = (floats(&c["x"]), floats(&c["y"]));
        let r = welch(&x, &y).unwrap();
        let (t, df, p) = (
            c["t"].as_f64().unwrap(),
            c["df"].as_f64().unwrap(),
            c["p"].as_f64().unwrap(),
        );
        assert!(((r.t - t) / t).abs() < 1e-9, "case {i}: t {} vs {t}", r.t);
        assert!(
            ((r.df - df) / df).abs() < 1e-9,
            "case {i}: df {} vs {df}",
            r.df
        );
        assert!(close(r.p, p, 1e-9), "case {i}: p {} vs {p}", r.p);
    }
}

#[test]
fn welch_from_summaries_matches_scipy() {
    let cases = fixture("welch_stats");
    let mut labelled = 0;
    for (i, c) in cases.iter().enumerate() {
        let g = |k: &str| c[k].as_f64().unwrap();
        let label = c["label"].as_str().unwrap();
        let r = welch_from_stats(g("m1"), g("s1"), g("n1"), g("m2"), g("s2"), g("n2"));
        if label == "no spread" {
            // SciPy answers t = -inf, p = 0 for two constant sides; there is
            // no variance information, so patchperf refuses the test.
            assert!(r.is_none());
            continue;
        }
        let r = r.unwrap();
        let (t, p) = (g("t"), g("p"));
        assert!(
            ((r.t - t) / t).abs() < 1e-9,
            "case {i} {label}: t {} vs {t}",
            r.t
        );
        assert!(close(r.p, p, 1e-9), "case {i} {label}: p {} vs {p}", r.p);
        if !label.is_empty() {
            labelled += 1;
        }
    }
    assert_eq!(labelled, 17);
    let fifo = cases
        .iter()
        .find(|c| c["label"] == "seed000 SCHED_FIFO")
        .unwrap();
    assert_eq!(
        fifo["p"].as_f64(),
        Some(0.0),
        "SciPy underflows to 0 here; we report the bound"
    );
}

#[test]
fn benjamini_hochberg_matches_scipy() {
    for (i, c) in fixture("bh").iter().enumerate() {
        let q = benjamini_hochberg(&floats(&c["p"]));
        for (a, b) in q.iter().zip(floats(&c["q"])) {
            assert!(
                (a - b).abs() <= 1e-12 * b.max(1e-300),
                "case {i}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn holm_matches_statsmodels() {
    let cases = fixture("holm");
    assert!(cases.len() >= 8);
    for (i, c) in cases.iter().enumerate() {
        let adj = holm(&floats(&c["p"]));
        for (a, b) in adj.iter().zip(floats(&c["adjusted"])) {
            assert!(
                (a - b).abs() <= 1e-12 * b.max(1e-300),
                "case {i}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn bootstrap_agrees_with_scipy_within_resampling_noise() {
    for (i, c) in fixture("bootstrap").iter().enumerate() {
        let (x, y) = (floats(&c["x"]), floats(&c["y"]));
        let (lo, hi) = ratio_ci(&x, &y, Center::Median, 20_000, 0.95, 1).unwrap();
        let (slo, shi) = (c["low"].as_f64().unwrap(), c["high"].as_f64().unwrap());
        // Different random streams: endpoints agree to a small fraction of
        // the interval's width.
        let w = shi - slo;
        assert!(
            (lo - slo).abs() < 0.1 * w && (hi - shi).abs() < 0.1 * w,
            "case {i}: [{lo}, {hi}] vs [{slo}, {shi}]"
        );
    }
}

fn side() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1e3f64..1e3, 2..40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mwu_p_is_a_probability_and_symmetric(x in side(), y in side()) {
        let a = mann_whitney_u_with(&x, &y, MwuChoice::Auto).unwrap();
        let b = mann_whitney_u_with(&y, &x, MwuChoice::Auto).unwrap();
        prop_assert!(a.p > 0.0 && a.p <= 1.0);
        prop_assert!((a.p - b.p).abs() <= 1e-12 * a.p.max(1e-300));
        prop_assert!((a.u + b.u - (x.len() * y.len()) as f64).abs() < 1e-9);
    }

    #[test]
    fn mwu_is_invariant_to_shift_and_positive_scale(x in side(), y in side(), k in 0.01f64..100.0, c in -1e3f64..1e3) {
        // Integer-valued inputs keep order and ties exact under the transform.
        let x: Vec<f64> = x.iter().map(|v| v.round()).collect();
        let y: Vec<f64> = y.iter().map(|v| v.round()).collect();
        let a = mann_whitney_u_with(&x, &y, MwuChoice::Auto).unwrap();
        let tx: Vec<f64> = x.iter().map(|v| v * k.round().max(1.0) + c.round()).collect();
        let ty: Vec<f64> = y.iter().map(|v| v * k.round().max(1.0) + c.round()).collect();
        let b = mann_whitney_u_with(&tx, &ty, MwuChoice::Auto).unwrap();
        prop_assert_eq!(a.u, b.u);
        prop_assert!((a.p - b.p).abs() <= 1e-12);
    }

    #[test]
    fn welch_p_is_a_probability_symmetric_and_affine_invariant(x in side(), y in side(), k in 0.01f64..100.0, c in -1e3f64..1e3) {
        if let Some(a) = welch(&x, &y) {
            let b = welch(&y, &x).unwrap();
            prop_assert!(a.p > 0.0 && a.p <= 1.0);
            prop_assert!((a.p - b.p).abs() <= 1e-9 * a.p.max(1e-300));
            prop_assert!((a.t + b.t).abs() <= 1e-9 * a.t.abs().max(1.0));
            let tx: Vec<f64> = x.iter().map(|v| v * k + c).collect();
            let ty: Vec<f64> = y.iter().map(|v| v * k + c).collect();
            let s = welch(&tx, &ty).unwrap();
            prop_assert!((s.p - a.p).abs() <= 1e-6 * a.p.max(1e-12), "{} vs {}", s.p, a.p);
        }
    }
}

/// Student's t quantiles agree with SciPy at every df, the millions that
/// power searches reach included (where an iterative inversion drifts).
#[test]
fn t_quantiles_match_scipy_at_any_degrees_of_freedom() {
    use patchperf::stats::summary::t_quantile;
    let cases = fixture("t_quantile");
    assert!(cases.len() >= 100);
    for c in cases {
        let (df, p, want) = (
            c["df"].as_f64().unwrap(),
            c["p"].as_f64().unwrap(),
            c["q"].as_f64().unwrap(),
        );
        // t_quantile takes a two-sided confidence c and returns t_{(1+c)/2}.
        let ours = t_quantile(2.0 * p - 1.0, df);
        assert!(
            close(ours, want, 1e-11),
            "df {df} p {p}: {ours} vs SciPy {want}"
        );
    }
}
