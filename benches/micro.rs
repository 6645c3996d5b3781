//! Micro-benchmarks of the hot inner pieces: `cargo bench --bench micro`.
//! The whole-process figures and ratios are in `benches/suite.rs`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use patchperf::ingest::Source;
use patchperf::stats::{bootstrap, correction, mann_whitney, welch};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::hint::black_box;

fn noisy(rng: &mut Pcg64, n: usize, centre: f64) -> Vec<f64> {
    (0..n)
        .map(|_| centre * (1.0 + rng.random_range(-0.05..0.05)))
        .collect()
}

fn tests(c: &mut Criterion) {
    let mut rng = Pcg64::seed_from_u64(1);
    let mut g = c.benchmark_group("two_sample");
    for n in [5usize, 30, 500] {
        let x = noisy(&mut rng, n, 100.0);
        let y = noisy(&mut rng, n, 103.0);
        g.bench_with_input(BenchmarkId::new("mann_whitney", n), &n, |b, _| {
            b.iter(|| mann_whitney::mann_whitney_u(black_box(&x), black_box(&y)))
        });
        g.bench_with_input(BenchmarkId::new("welch", n), &n, |b, _| {
            b.iter(|| welch::welch(black_box(&x), black_box(&y)))
        });
    }
    // 30 and 100 values per side: the exact interval; 101: 10,000 resamples.
    for n in [30usize, 100, 101] {
        let x = noisy(&mut rng, n, 100.0);
        let y = noisy(&mut rng, n, 103.0);
        g.bench_with_input(BenchmarkId::new("bootstrap_median_ratio", n), &n, |b, _| {
            b.iter(|| bootstrap::ratio_ci(&x, &y, bootstrap::Center::Median, 10_000, 0.95, 7))
        });
    }
    g.finish();

    let p: Vec<f64> = (0..10_000).map(|_| rng.random_range(0.0..1.0)).collect();
    c.bench_function("benjamini_hochberg_10k", |b| {
        b.iter(|| correction::benjamini_hochberg(black_box(&p)))
    });
}

fn source_preparation(c: &mut Criterion) {
    let mut text = String::new();
    while text.len() < 4 << 20 {
        text.push_str("> > | 512 | 4.2410 | 0.9762 | 12.3660 | 5.1020 | +191.58% |\n");
        text.push_str("Time: 2.978\n");
    }
    let mut g = c.benchmark_group("source");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("prepare_quoted_mail_4MB", |b| {
        b.iter(|| Source::from_text("bench", black_box(&text)))
    });
    g.finish();
}

criterion_group!(benches, tests, source_preparation);
criterion_main!(benches);
