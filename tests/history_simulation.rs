//! Seeded simulation of the replicate-aware change points at the defaults
//! of `patchperf history` (window 50, p 0.001, magnitude 0): series of 100
//! points × 5 runs with a coefficient of variation of 2%.
//!
//! - step-free series: at most 5% may report any change point;
//! - series with one 5% step (at a uniformly drawn point in 5..95): at
//!   least 90% must report a change point within ±1 point of it.
//!
//! 1,000 series of each kind, as the issue states the rates.

use patchperf::stats::changepoint::replicates::{steps, Params};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

const POINTS: usize = 100;
const RUNS: usize = 5;
const CV: f64 = 0.02;
const SERIES: usize = 1000;

fn normal(rng: &mut Pcg64) -> f64 {
    // Box-Muller.
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn series(rng: &mut Pcg64, step_at: Option<usize>) -> Vec<Vec<f64>> {
    (0..POINTS)
        .map(|i| {
            let level = match step_at {
                Some(s) if i >= s => 105.0,
                _ => 100.0,
            };
            (0..RUNS)
                .map(|_| level * (1.0 + CV * normal(rng)))
                .collect()
        })
        .collect()
}

fn defaults() -> Params {
    Params {
        window_len: 50,
        max_pvalue: 0.001,
        min_magnitude: 0.0,
    }
}

#[test]
fn step_free_series_rarely_report_a_change_point() {
    let mut rng = Pcg64::seed_from_u64(23);
    let with_any = (0..SERIES)
        .filter(|_| !steps(&series(&mut rng, None), &defaults()).is_empty())
        .count();
    eprintln!("step-free series with a change point: {with_any} of {SERIES}");
    assert!(with_any * 100 <= 5 * SERIES, "{with_any} of {SERIES}");
}

#[test]
fn single_five_percent_steps_are_found_within_one_point() {
    let mut rng = Pcg64::seed_from_u64(2323);
    let mut found = 0;
    let mut extra = 0;
    for _ in 0..SERIES {
        let at = rng.random_range(5..95);
        let s = steps(&series(&mut rng, Some(at)), &defaults());
        if s.iter().any(|c| c.index.abs_diff(at) <= 1) {
            found += 1;
        }
        extra += s.iter().filter(|c| c.index.abs_diff(at) > 1).count();
    }
    eprintln!("5% steps found within ±1 point: {found} of {SERIES}; other change points: {extra}");
    assert!(found * 100 >= 90 * SERIES, "{found} of {SERIES}");
}
