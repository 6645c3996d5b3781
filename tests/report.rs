//! Reports end to end: the renderers on a fixed analysis (golden files,
//! escaping, HTML validity, PDF pages and text) and the `report` command
//! on study files.

use patchperf::analysis::{Analysis, Center, Comparison, Group, Settings, TestKind, Verdict, VariantSummary};
use patchperf::model::{Direction, Finding, Severity};
use patchperf::report::{self, OutputFormat, ReportContext, VariantInfo};
use std::path::Path;

/// A summary-only variant (mean, stddev, n) as read from an e-mail table.
fn summ(variant: &str, mean: f64, sd: f64, n: Option<u64>) -> VariantSummary {
    VariantSummary {
        variant: variant.into(),
        n,
        mean: Some(mean),
        median: None,
        stddev: Some(sd),
        min: None,
        max: None,
        cv_pct: Some(sd / mean * 100.0),
        ci_low: None,
        ci_high: None,
        samples: vec![],
        from_summary: true,
        outliers: 0,
        trend_p: None,
    }
}

/// A variant with raw samples; the statistics are the ones a reader can
/// check by hand.
fn samp(variant: &str, samples: &[f64]) -> VariantSummary {
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let sd = (samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let mut s = samples.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let median = if s.len() % 2 == 1 { s[s.len() / 2] } else { (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0 };
    VariantSummary {
        variant: variant.into(),
        n: Some(samples.len() as u64),
        mean: Some(mean),
        median: Some(median),
        stddev: Some(sd),
        min: Some(s[0]),
        max: Some(s[s.len() - 1]),
        cv_pct: Some(sd / mean * 100.0),
        ci_low: Some(s[1]),
        ci_high: Some(s[s.len() - 2]),
        samples: samples.to_vec(),
        from_summary: false,
        outliers: 0,
        trend_p: Some(0.5),
    }
}

#[allow(clippy::too_many_arguments)]
fn cmp(g: &Group, variant: &str, change: f64, ci: (f64, f64), p: f64, q: f64, verdict: Verdict, test: TestKind) -> Comparison {
    let b = &g.variants[0];
    let v = g.variants.iter().find(|v| v.variant == variant).unwrap();
    let centre = |s: &VariantSummary| if s.from_summary { s.mean.unwrap() } else { s.median.unwrap() };
    Comparison {
        benchmark: g.benchmark.clone(),
        params: g.params.clone(),
        metric: g.metric.clone(),
        unit: g.unit.clone(),
        direction: g.direction,
        baseline: b.variant.clone(),
        variant: variant.into(),
        n_baseline: b.n,
        n_variant: v.n,
        baseline_center: centre(b),
        variant_center: centre(v),
        center: if b.from_summary { Center::Mean } else { Center::Median },
        change_pct: change,
        ci_low_pct: Some(ci.0),
        ci_high_pct: Some(ci.1),
        test,
        p_value: Some(p),
        q_value: Some(q),
        effect_size: Some(1.25),
        min_detectable_pct: Some(12.5),
        n_needed: Some(9),
        verdict,
        stated_change_pct: None,
        notes: vec![],
    }
}

/// The fixture: seed 003's first table (summaries, a thread sweep), a
/// hackbench pair with samples, and a benchmark whose name is markup.
pub fn fixture() -> (Analysis, ReportContext) {
    let table = [
        (512, 4.2410, 0.9762, 12.3660, 5.1020, 191.58),
        (256, 2.7750, 0.3997, 7.0220, 2.9436, 153.04),
        (128, 1.4910, 0.4188, 3.7430, 0.8223, 151.03),
        (64, 0.8970, 0.3455, 2.5570, 0.3710, 185.06),
        (32, 0.3620, 0.2242, 1.1300, 0.4716, 212.15),
    ];
    let mut groups = Vec::new();
    let mut comparisons = Vec::new();
    for (i, (t, bm, bs, pm, ps, ch)) in table.iter().enumerate() {
        let g = Group {
            benchmark: "futex-wake".into(),
            params: format!("threads={t}"),
            metric: "time".into(),
            unit: "ms".into(),
            direction: Direction::Lower,
            variants: vec![summ("baseline", *bm, *bs, Some(5)), summ("patched", *pm, *ps, Some(5))],
        };
        comparisons.push(cmp(&g, "patched", *ch, (ch - 60.0, ch + 60.0), 1e-3 * (i + 1) as f64, 2e-3 * (i + 1) as f64, Verdict::Regressed, TestKind::WelchSummary));
        groups.push(g);
    }
    let hb = Group {
        benchmark: "hackbench -g 4 -l 200".into(),
        params: String::new(),
        metric: "time".into(),
        unit: "s".into(),
        direction: Direction::Lower,
        variants: vec![
            samp("baseline", &[0.101, 0.098, 0.103, 0.099, 0.1, 0.102, 0.097, 0.104, 0.1, 0.099]),
            samp("patched", &[0.151, 0.149, 0.16, 0.155, 0.148, 0.152, 0.157, 0.15, 0.153, 0.149]),
        ],
    };
    comparisons.push(cmp(&hb, "patched", 51.24, (47.1, 55.9), 1.08e-5, 5.4e-5, Verdict::Regressed, TestKind::MannWhitney));
    groups.push(hb);
    let evil = Group {
        benchmark: "<script>alert(1)</script>".into(),
        params: String::new(),
        metric: "throughput".into(),
        unit: "ops/s".into(),
        direction: Direction::Higher,
        variants: vec![
            samp("baseline", &[1000.0, 1010.0, 990.0, 1005.0, 995.0]),
            samp("patched", &[1001.0, 1012.0, 991.0, 1004.0, 996.0]),
        ],
    };
    comparisons.push(cmp(&evil, "patched", 0.1, (-0.9, 1.1), 0.84, 0.84, Verdict::Unchanged, TestKind::MannWhitney));
    groups.push(evil);
    let analysis = Analysis {
        settings: Settings { baseline: Some("baseline".into()), ..Settings::default() },
        groups,
        comparisons,
        findings: vec![
            Finding::new(
                Severity::Warning,
                "uniform-shift",
                "Every benchmark moved the same large way with inflated variance",
                "5 of 5 comparisons changed by +151% to +212%; stddev grew 2.2 to 7.4 times",
                "Suspect a build or configuration difference rather than the patch",
            ),
            Finding::new(
                Severity::Error,
                "kconfig-debug-differs",
                "patched was built with debug options the baseline does not have",
                "CONFIG_PROVE_LOCKING: baseline n, patched y; CONFIG_DEBUG_LOCK_ALLOC: baseline n, patched y",
                "Rebuild the patched kernel with the baseline's .config and measure again",
            ),
        ],
    };
    let ctx = ReportContext {
        name: "fixture".into(),
        title: "futex wake-up: barrier vs atomic ops".into(),
        description: "A fixed analysis for the renderer tests.".into(),
        variants: vec![
            VariantInfo { name: "baseline".into(), description: "production .config".into(), ..Default::default() },
            VariantInfo {
                name: "patched".into(),
                description: "with the patch".into(),
                suspect: Some("built with lockdep and other debug options".into()),
                ..Default::default()
            },
        ],
        files: vec![],
        metric_names: Default::default(),
    };
    (analysis, ctx)
}

fn render_fixture(formats: &[OutputFormat]) -> (tempfile::TempDir, report::ReportView) {
    let (a, ctx) = fixture();
    let dir = tempfile::tempdir().unwrap();
    report::write_outputs(&a, &ctx, None, formats, dir.path(), None).unwrap();
    // Set PATCHPERF_FIXTURE_OUT to keep a copy for looking at (screenshots).
    if let Ok(keep) = std::env::var("PATCHPERF_FIXTURE_OUT") {
        report::write_outputs(&a, &ctx, None, &OutputFormat::ALL, Path::new(&keep), None).unwrap();
    }
    let r = report::render(&a, &ctx, &[], None).unwrap();
    (dir, r.view.unwrap())
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn fixture_renders_every_format_and_chart() {
    let (dir, view) = render_fixture(&OutputFormat::ALL);
    for f in ["report.html", "report.pdf", "report.md", "report.txt", "report.json", "charts/forest.svg"] {
        assert!(dir.path().join(f).is_file(), "{f} missing");
    }
    // Seed 003's table has a numeric thread sweep: a sweep chart is drawn.
    let futex = view.sections.iter().find(|s| s.benchmark == "futex-wake").unwrap();
    assert_eq!(futex.sweep_param.as_deref(), Some("threads"));
    assert!(futex.charts.iter().any(|c| c.kind == "sweep"));
    let sweep = read(dir.path(), &futex.charts.iter().find(|c| c.kind == "sweep").unwrap().file);
    assert!(sweep.contains("threads"), "x axis is labelled");
    assert!(sweep.contains("time (ms"), "y axis is labelled with the unit");
    // hackbench has samples: run-order chart; values are shown in ms.
    let hb = view.sections.iter().find(|s| s.benchmark.starts_with("hackbench")).unwrap();
    assert!(hb.charts.iter().any(|c| c.kind == "runs"));
    assert_eq!(hb.unit, "ms");
    assert_eq!(view.summary.headline, "6 regressions, 1 unchanged; 1 configuration error, 1 warning.");
    assert_eq!(view.findings[0].severity, "error", "errors come first");
    assert!(view.comparisons[0].verdict_text.ends_with('?'), "suspect variant marked");
}
