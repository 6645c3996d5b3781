//! Tests of `bootstrap`.

use super::*;
use crate::stats::delta::delta_ratio_ci;

#[test]
fn reproducible_for_a_seed_and_different_across_seeds() {
    // Resampled: the mean, the median of more values than the exact
    // search takes (drawn from tables), and of more than a table covers.
    for (n, centre) in [
        (20, Center::Mean),
        (EXACT_MAX_N + 1, Center::Median),
        (TABLE_MAX_N + 3, Center::Median),
    ] {
        let x: Vec<f64> = (0..n).map(|i| 10.0 + (i as f64 * 0.37).sin()).collect();
        let y: Vec<f64> = x.iter().map(|v| v * 1.1).collect();
        let a = ratio_ci(&x, &y, centre, 4000, 0.95, 7).unwrap();
        let b = ratio_ci(&x, &y, centre, 4000, 0.95, 7).unwrap();
        let c = ratio_ci(&x, &y, centre, 4000, 0.95, 8).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c, "{centre:?}");
        // y is exactly x scaled by 1.1, but resampled independently, so
        // the interval contains 1.1 and is not degenerate.
        assert!(a.0 < 1.1 && a.1 > 1.1, "{a:?}");
    }
}

#[test]
fn small_medians_give_the_exact_interval_whatever_the_seed() {
    let x: Vec<f64> = (0..20).map(|i| 10.0 + (i as f64 * 0.37).sin()).collect();
    let y: Vec<f64> = x.iter().map(|v| v * 1.1).collect();
    let a = ratio_ci(&x, &y, Center::Median, 4000, 0.95, 7).unwrap();
    let c = ratio_ci(&x, &y, Center::Median, 100, 0.95, 8).unwrap();
    assert_eq!(a, c);
    assert!(a.0 < 1.1 && a.1 > 1.1, "{a:?}");
    // A baseline whose medians can be 0 has undefined ratios: resampled.
    let z: Vec<f64> = (0..20).map(|i| (i as f64 - 2.0).max(0.0)).collect();
    assert!(exact_median_ratio_ci(&z, &y, 0.95).is_none());
    assert_ne!(
        ratio_ci(&z, &y, Center::Median, 4000, 0.95, 7),
        ratio_ci(&z, &y, Center::Median, 4000, 0.95, 8)
    );
}

#[test]
fn resampled_medians_come_from_the_counts() {
    // With n = 2 every resample is {a,a}, {a,b} or {b,b}: medians a, (a+b)/2, b.
    let sorted = [1.0, 3.0];
    let mut r = Resampler::new(&sorted, None);
    let mut rng = Pcg64::new(1, 1);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        seen.insert(r.draw(&mut rng, Center::Median).to_bits());
    }
    let want: std::collections::BTreeSet<u64> =
        [1.0f64, 2.0, 3.0].iter().map(|v| v.to_bits()).collect();
    assert_eq!(seen, want);
    // Odd n: always one of the values.
    let sorted = [1.0, 2.0, 7.0];
    let mut r = Resampler::new(&sorted, None);
    for _ in 0..200 {
        assert!(sorted.contains(&r.draw(&mut rng, Center::Median)));
    }
}

/// Every one of the n^n equally likely resamples, counted: the exact
/// median distribution the table must match.
fn enumerated_medians(sorted: &[f64]) -> std::collections::BTreeMap<u64, f64> {
    let n = sorted.len();
    let total = n.pow(n as u32);
    let mut out = std::collections::BTreeMap::new();
    let mut pick = vec![0usize; n];
    for code in 0..total {
        let mut c = code;
        for p in pick.iter_mut() {
            *p = c % n;
            c /= n;
        }
        let mut v: Vec<f64> = pick.iter().map(|&i| sorted[i]).collect();
        v.sort_unstable_by(f64::total_cmp);
        let med = (v[(n - 1) / 2] + v[n / 2]) / 2.0;
        *out.entry(med.to_bits()).or_insert(0.0) += 1.0 / total as f64;
    }
    out
}

#[test]
fn median_table_is_the_exact_resampled_median_distribution() {
    // Values chosen so that every pair mean is distinct.
    let base = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    for n in 1..=7 {
        let sorted = &base[..n];
        let t = MedianTable::new(sorted).unwrap();
        let mut got = std::collections::BTreeMap::new();
        let mut prev = 0.0;
        for (v, c) in t.values.iter().zip(t.cdf) {
            *got.entry(v.to_bits()).or_insert(0.0) += c - prev;
            prev = *c;
        }
        let want = enumerated_medians(sorted);
        assert!((prev - 1.0).abs() < 1e-12, "n={n}: total {prev}");
        assert_eq!(got.len(), want.len(), "n={n}: support");
        for (k, p) in &want {
            let g = got.get(k).copied().unwrap_or(0.0);
            assert!(
                (g - p).abs() < 1e-12,
                "n={n} median {}: {g} vs {p}",
                f64::from_bits(*k)
            );
        }
    }
    // Larger n: the table sums to one and falls back beyond the limit.
    let big: Vec<f64> = (0..TABLE_MAX_N).map(|i| i as f64).collect();
    let t = MedianTable::new(&big).unwrap();
    assert!((t.cdf.last().unwrap() - 1.0).abs() < 1e-9);
    let bigger: Vec<f64> = (0..=TABLE_MAX_N).map(|i| i as f64).collect();
    assert!(MedianTable::new(&bigger).is_none());
}

#[test]
fn guide_table_finds_the_same_entry_as_a_binary_search() {
    let sorted: Vec<f64> = (0..30).map(|i| (i * i) as f64).collect();
    let t = MedianTable::new(&sorted).unwrap();
    let total = *t.cdf.last().unwrap();
    for k in 0..100_000 {
        let x = k as f64 / 100_000.0;
        let i = t
            .cdf
            .partition_point(|&c| c <= x * total)
            .min(t.cdf.len() - 1);
        assert_eq!(t.at(x), t.values[i], "x={x}");
    }
}

#[test]
fn integer_buckets_find_the_entry_of_the_exact_search() {
    let mut rng = Pcg64::new(17, 5);
    for n in [2usize, 3, 7, 30, 99, 100, 101, 128] {
        let sorted: Vec<f64> = (0..n).map(|i| (i * i) as f64 + 0.5 * i as f64).collect();
        let t = MedianTable::new(&sorted).unwrap();
        let total = *t.cdf.last().unwrap();
        let exact = |k: u64| {
            let u = k as f64 / (1u64 << 53) as f64 * total;
            t.values[t.cdf.partition_point(|&c| c <= u).min(t.cdf.len() - 1)]
        };
        let len = t.guide_len as u128;
        let mut ks: Vec<u64> = (0..20_000).map(|_| rng.next_u64() >> 11).collect();
        // The first and last draw of every bucket, where a rounding
        // product and the integer one can disagree on the bucket.
        for b in 0..len {
            let first = ((b << 53).div_ceil(len)) as u64;
            ks.push(first);
            ks.extend(first.checked_sub(1));
        }
        ks.extend([0, (1u64 << 53) - 1]);
        for k in ks {
            let x = k as f64 / (1u64 << 53) as f64;
            let want = exact(k);
            assert_eq!(
                t.draws().at_draw(k).to_bits(),
                want.to_bits(),
                "n={n} k={k}"
            );
            assert_eq!(t.at(x).to_bits(), want.to_bits(), "n={n} k={k}");
        }
    }
}

/// `n` sorted values of `base + amp · wave(i · step)`.
fn smooth(n: usize, base: f64, step: f64, amp: f64, wave: fn(f64) -> f64) -> Vec<f64> {
    let mut v: Vec<f64> = (0..n).map(|i| base + wave(i as f64 * step) * amp).collect();
    v.sort_unstable_by(f64::total_cmp);
    v
}

/// The 95% interval of 40,000 resampled median ratios drawn by counts
/// (no table), undefined ratios left out, and the tolerance two
/// resampled intervals agree within.
fn counted_interval(sx: &[f64], sy: &[f64]) -> ((f64, f64), f64) {
    let mut rng = Pcg64::new(5, 7);
    let (mut rx, mut ry) = (Resampler::new(sx, None), Resampler::new(sy, None));
    let mut ratios: Vec<f64> = (0..40_000)
        .map(|_| {
            let a = rx.draw(&mut rng, Center::Median);
            ry.draw(&mut rng, Center::Median) / a
        })
        .filter(|r| r.is_finite())
        .collect();
    let lo = percentile_by_selection(&mut ratios, 2.5);
    let hi = percentile_by_selection(&mut ratios, 97.5);
    ((lo, hi), 0.03 * (hi - lo))
}

#[test]
fn exact_and_counted_resamples_give_the_same_interval_within_noise() {
    // Even and odd sizes, the largest exact one among them; the exact
    // search leaves out negligible medians, resampling does not.
    for n in [30, EXACT_MAX_N - 1, EXACT_MAX_N] {
        let sx = smooth(n, 100.0, 1.7, 5.0, f64::sin);
        let sy = smooth(n, 104.0, 2.3, 5.0, f64::cos);
        let ((lo, hi), tol) = counted_interval(&sx, &sy);
        let (tlo, thi) = exact_median_ratio_ci(&sx, &sy, 0.95).unwrap();
        assert_eq!(
            ratio_ci(&sx, &sy, Center::Median, 10, 0.95, 3),
            Some((tlo, thi))
        );
        assert!(
            (tlo - lo).abs() < tol && (thi - hi).abs() < tol,
            "n={n}: {tlo} {thi} vs {lo} {hi}"
        );
    }
}

#[test]
fn exact_interval_is_the_quantile_of_every_pair_of_medians() {
    // Every possible pair of resampled medians (the full tables, nothing
    // left out), sorted by ratio and walked: the definition.
    for (nx, ny) in [(7, 9), (20, 16), (31, 24)] {
        let sx = smooth(nx, 50.0, 0.9, 4.0, f64::sin);
        let sy = smooth(ny, 53.0, 1.4, 4.0, f64::cos);
        let (lx, ly) = (Layout::of(nx).unwrap(), Layout::of(ny).unwrap());
        let mut all = Vec::new();
        for (&px, &qx) in lx.pairs.iter().zip(&lx.probs) {
            for (&py, &qy) in ly.pairs.iter().zip(&ly.probs) {
                let ratio = Layout::median_of(&sy, py) / Layout::median_of(&sx, px);
                all.push((ratio, qx * qy));
            }
        }
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        let total: f64 = all.iter().map(|a| a.1).sum();
        let quantile = |level: f64| {
            let mut acc = 0.0;
            all.iter()
                .find(|a| {
                    acc += a.1;
                    acc >= level * total
                })
                .unwrap()
                .0
        };
        let ci = exact_median_ratio_ci(&sx, &sy, 0.95).unwrap();
        assert_eq!(ci, (quantile(0.025), quantile(0.975)), "n={nx}+{ny}");
    }
}

#[test]
fn tables_and_counts_resample_alike() {
    // The resampling path with tables (a baseline that can have a
    // median of 0 rules the exact search out) against counted draws.
    let x: Vec<f64> = (0..30).map(|i| (i as f64 - 3.0).max(0.0)).collect();
    let y: Vec<f64> = (0..30).map(|i| 4.0 + i as f64).collect();
    let ((lo, hi), tol) = counted_interval(&x, &y);
    assert!(exact_median_ratio_ci(&x, &y, 0.95).is_none());
    let (tlo, thi) = ratio_ci(&x, &y, Center::Median, 40_000, 0.95, 3).unwrap();
    assert!(
        (tlo - lo).abs() < tol && (thi - hi).abs() < tol,
        "{tlo} {thi} vs {lo} {hi}"
    );
}

#[test]
fn selection_matches_the_sorted_percentile() {
    let mut v: Vec<f64> = (0..1001)
        .map(|i| ((i * 7919) % 1001) as f64 * 0.5)
        .collect();
    let mut sorted = v.clone();
    sorted.sort_unstable_by(f64::total_cmp);
    for p in [0.0, 2.5, 50.0, 97.5, 100.0] {
        let want = crate::stats::summary::percentile_sorted(&sorted, p);
        assert_eq!(percentile_by_selection(&mut v, p), want, "p={p}");
    }
}

#[test]
fn percentile_pair_is_the_exact_selection() {
    let mut rng = Pcg64::new(11, 3);
    for n in [2usize, 10, 999, 1024, 1025, 4000, 10_000, 40_000] {
        for kind in 0..5 {
            let v: Vec<f64> = (0..n)
                .map(|i| match kind {
                    // Continuous values.
                    0 => (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64,
                    // Few distinct values: ties at the ranks.
                    1 => (rng.next_u64() % 7) as f64,
                    // Signed zeros at the thresholds, and around them.
                    2 => [-0.0, 0.0, -1.0, 1.0][(rng.next_u64() % 4) as usize],
                    3 => [-0.0, 0.0, -2.0, -1.0, 1.0, 2.0, 3.0, 4.0][(rng.next_u64() % 8) as usize],
                    // Sorted input (the subsample is not random).
                    _ => i as f64,
                })
                .collect();
            for (lo, hi) in [(2.5, 97.5), (0.5, 99.5), (5.0, 95.0), (0.0, 100.0)] {
                let mut a = v.clone();
                let mut b = v.clone();
                let want = (
                    percentile_by_selection(&mut a, lo),
                    percentile_by_selection(&mut a, hi),
                );
                let got = percentile_pair(&mut b, lo, hi);
                assert_eq!(
                    (got.0.to_bits(), got.1.to_bits()),
                    (want.0.to_bits(), want.1.to_bits()),
                    "n={n} kind={kind} p={lo},{hi}"
                );
            }
        }
    }
}

#[test]
fn block_tests_agree_with_value_tests() {
    for n in [0usize, 1, 7, 8, 9, 16, 17, 100] {
        for at in 0..n.max(1) {
            let mut v: Vec<f64> = (0..n).map(|i| 1.0 + i as f64).collect();
            assert!(!any_in_blocks(&v, |r| !r.is_finite()));
            if n > 0 {
                v[at] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][at % 3];
                assert!(any_in_blocks(&v, |r| !r.is_finite()), "n={n} at={at}");
            }
        }
    }
}

#[test]
fn undefined_ratios_give_none() {
    assert!(ratio_ci(&[0.0, 0.0], &[1.0, 2.0], Center::Mean, 100, 0.95, 1).is_none());
    assert!(ratio_ci(&[1.0], &[1.0, 2.0], Center::Mean, 100, 0.95, 1).is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(150))]

    #[test]
    fn exact_intervals_are_ordered_and_within_the_extreme_ratios(
        x in proptest::collection::vec(1u32..400, 2..=EXACT_MAX_N),
        y in proptest::collection::vec(1u32..400, 2..=EXACT_MAX_N),
    ) {
        // Coarse values, so that ties between samples and between
        // ratios are common.
        let f = |v: &[u32]| {
            let mut v: Vec<f64> = v.iter().map(|&k| k as f64 / 4.0).collect();
            v.sort_unstable_by(f64::total_cmp);
            v
        };
        let (sx, sy) = (f(&x), f(&y));
        let (lo, hi) = exact_median_ratio_ci(&sx, &sy, 0.95).unwrap();
        let (x_lo, x_hi) = (sx[0], sx[sx.len() - 1]);
        let (y_lo, y_hi) = (sy[0], sy[sy.len() - 1]);
        proptest::prop_assert!(lo <= hi, "{lo} {hi}");
        proptest::prop_assert!(lo >= y_lo / x_hi && hi <= y_hi / x_lo, "{lo} {hi}");
        // The public entry point takes the exact path for these sizes.
        proptest::prop_assert_eq!(
            ratio_ci(&sx, &sy, Center::Median, 10_000, 0.95, 1),
            Some((lo, hi))
        );
    }
}

#[test]
fn delta_method_brackets_the_ratio() {
    // seed 000 SCHED_FIFO, n = 5000 per side
    let (lo, hi) = delta_ratio_ci(6656.85, 463.30, 5000.0, 9720.12, 426.45, 5000.0, 0.95).unwrap();
    let r = 9720.12 / 6656.85;
    assert!(lo < r && r < hi);
    assert!((hi - lo) < 0.01, "{lo} {hi}");
    assert!(delta_ratio_ci(1.0, 0.0, 5.0, 2.0, 0.0, 5.0, 0.95).is_none());
}
