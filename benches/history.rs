//! `cargo bench --bench history`: the change points of 10,000 series × 500
//! points × 5 runs (CV 2%, every tenth series with one 5% step) through
//! `analysis::history::history` at the defaults, on a pool of 2 threads.
//! Prints the time and its ratio to the 30 s budget of the history issue,
//! then the time of its text and HTML reports against the analysis'.
//!
//! `HISTORY_BENCH_SERIES=N` changes the number of series (e.g. for a quick
//! run of a debug build: `cargo bench --profile dev --bench history`).

use patchperf::analysis::history::{history, HistorySettings};
use patchperf::model::{Dataset, Observation};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::Instant;

const POINTS: usize = 500;
const RUNS: usize = 5;
const BUDGET_S: f64 = 30.0;

fn normal(rng: &mut Pcg64) -> f64 {
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn main() {
    let series: usize = std::env::var("HISTORY_BENCH_SERIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build_global()
        .unwrap();
    let mut rng = Pcg64::seed_from_u64(7);
    let order: Vec<String> = (0..POINTS).map(|i| format!("p{i:03}")).collect();
    let mut rows = Vec::with_capacity(series * POINTS * RUNS);
    for s in 0..series {
        let bench = format!("b{s}");
        let step = (s % 10 == 0).then(|| rng.random_range(10..POINTS - 10));
        for (i, point) in order.iter().enumerate() {
            let level = if step.is_some_and(|at| i >= at) {
                105.0
            } else {
                100.0
            };
            for r in 0..RUNS {
                rows.push(
                    Observation::sample(
                        bench.as_str(),
                        "time",
                        "s",
                        level * (1.0 + 0.02 * normal(&mut rng)),
                    )
                    .with_variant(point.as_str())
                    .with_run(r as u32),
                );
            }
        }
    }
    let data = Dataset::new(rows);
    let t = Instant::now();
    let h = history(&data, &order, &HistorySettings::default()).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let cps: usize = h.series.iter().map(|s| s.change_points.len()).sum();
    println!(
        "history: {series} series x {POINTS} points x {RUNS} runs, 2 threads: {secs:.2} s \
         ({:.3} of the {BUDGET_S} s budget), {cps} change points",
        secs / BUDGET_S
    );
    // The reports of the same history: the text every run prints, and the
    // HTML with its charts (at most view::MAX_CHARTS of them).
    let t = Instant::now();
    let mut reports = patchperf::report::history::Reports::new(&h, None).unwrap();
    let text = reports.text(false);
    let text_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let html = reports.html().unwrap();
    let html_s = t.elapsed().as_secs_f64();
    println!(
        "history reports: text {text_s:.2} s ({} KB, {:.3} of the analysis), \
         HTML {html_s:.2} s ({} KB, {:.3} of the analysis)",
        text.len() / 1024,
        text_s / secs,
        html.len() / 1024,
        html_s / secs
    );
}
