//! Reports end to end: the renderers on a fixed analysis (golden files,
//! escaping, HTML validity, PDF pages and text) and the `report` command
//! on study files.

use patchperf::analysis::{
    Analysis, Center, Comparison, Group, IntervalMethod, Settings, TestKind, VariantSummary,
    Verdict,
};
use patchperf::model::{Direction, Finding, FindingCode, Severity};
use patchperf::report::{self, OutputFormat, ReportContext, VariantInfo};
use predicates::prelude::*;
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
        thinned: None,
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
    let median = if s.len() % 2 == 1 {
        s[s.len() / 2]
    } else {
        (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0
    };
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
        thinned: None,
        from_summary: false,
        outliers: 0,
        trend_p: Some(0.5),
    }
}

#[allow(clippy::too_many_arguments)]
fn cmp(
    g: &Group,
    variant: &str,
    change: f64,
    ci: (f64, f64),
    p: f64,
    q: f64,
    verdict: Verdict,
    test: TestKind,
) -> Comparison {
    let b = &g.variants[0];
    let v = g.variants.iter().find(|v| v.variant == variant).unwrap();
    let centre = |s: &VariantSummary| {
        if s.from_summary {
            s.mean.unwrap()
        } else {
            s.median.unwrap()
        }
    };
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
        center: if b.from_summary {
            Center::Mean
        } else {
            Center::Median
        },
        change_pct: change,
        ci_low_pct: Some(ci.0),
        ci_high_pct: Some(ci.1),
        // As the analysis computes them: the delta method for stated
        // summaries, the exact bootstrap for medians of a few samples.
        interval: Some(if b.from_summary {
            IntervalMethod::Delta
        } else {
            IntervalMethod::Exact
        }),
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
            variants: vec![
                summ("baseline", *bm, *bs, Some(5)),
                summ("patched", *pm, *ps, Some(5)),
            ],
        };
        comparisons.push(cmp(
            &g,
            "patched",
            *ch,
            (ch - 60.0, ch + 60.0),
            1e-3 * (i + 1) as f64,
            2e-3 * (i + 1) as f64,
            Verdict::Regressed,
            TestKind::WelchSummary,
        ));
        groups.push(g);
    }
    let hb = Group {
        benchmark: "hackbench -g 4 -l 200".into(),
        params: String::new(),
        metric: "time".into(),
        unit: "s".into(),
        direction: Direction::Lower,
        variants: vec![
            samp(
                "baseline",
                &[
                    0.101, 0.098, 0.103, 0.099, 0.1, 0.102, 0.097, 0.104, 0.1, 0.099,
                ],
            ),
            samp(
                "patched",
                &[
                    0.151, 0.149, 0.16, 0.155, 0.148, 0.152, 0.157, 0.15, 0.153, 0.149,
                ],
            ),
        ],
    };
    comparisons.push(cmp(
        &hb,
        "patched",
        51.24,
        (47.1, 55.9),
        1.08e-5,
        5.4e-5,
        Verdict::Regressed,
        TestKind::MannWhitney,
    ));
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
    comparisons.push(cmp(
        &evil,
        "patched",
        0.1,
        (-0.9, 1.1),
        0.84,
        0.84,
        Verdict::Unchanged,
        TestKind::MannWhitney,
    ));
    groups.push(evil);
    let analysis = Analysis {
        settings: Settings { baseline: Some("baseline".into()), ..Settings::default() },
        groups,
        comparisons,
        findings: vec![
            Finding::new(
                Severity::Warning,
                FindingCode::DebugKernelPattern,
                "Every benchmark moved the same large way with inflated variance",
                "5 of 5 comparisons changed by +151% to +212%; stddev grew 2.2 to 7.4 times",
                "Suspect a build or configuration difference rather than the patch",
            ),
            Finding::new(
                Severity::Error,
                FindingCode::KconfigDebugDiffers,
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
            VariantInfo {
                name: "baseline".into(),
                description: "production .config".into(),
                ..Default::default()
            },
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
    for f in [
        "report.html",
        "report.pdf",
        "report.md",
        "report.txt",
        "report.json",
        "charts/forest.svg",
    ] {
        assert!(dir.path().join(f).is_file(), "{f} missing");
    }
    // Seed 003's table has a numeric thread sweep: a sweep chart is drawn.
    let futex = view
        .sections
        .iter()
        .find(|s| s.benchmark == "futex-wake")
        .unwrap();
    assert_eq!(futex.sweep_param.as_deref(), Some("threads"));
    assert!(futex.charts.iter().any(|c| c.kind == "sweep"));
    let sweep = read(
        dir.path(),
        &futex
            .charts
            .iter()
            .find(|c| c.kind == "sweep")
            .unwrap()
            .file,
    );
    assert!(sweep.contains("threads"), "x axis is labelled");
    assert!(
        sweep.contains("time (ms"),
        "y axis is labelled with the unit"
    );
    // hackbench has samples: run-order chart; values are shown in ms.
    let hb = view
        .sections
        .iter()
        .find(|s| s.benchmark.starts_with("hackbench"))
        .unwrap();
    assert!(hb.charts.iter().any(|c| c.kind == "runs"));
    assert_eq!(hb.unit, "ms");
    assert_eq!(
        view.summary.headline,
        "6 regressions, 1 unchanged; 1 configuration error, 1 warning."
    );
    assert_eq!(view.findings[0].severity, "error", "errors come first");
    assert!(
        view.comparisons[0].verdict_text.ends_with('?'),
        "suspect variant marked"
    );
}

/// `n` benchmarks with raw samples, for page counts and scale.
fn many(n: usize) -> (Analysis, ReportContext) {
    let mut groups = Vec::new();
    let mut comparisons = Vec::new();
    for i in 0..n {
        let base: Vec<f64> = (0..8).map(|k| 100.0 + i as f64 + (k % 3) as f64).collect();
        let pat: Vec<f64> = base
            .iter()
            .map(|v| v * (1.0 + (i % 7) as f64 / 100.0))
            .collect();
        let g = Group {
            benchmark: format!("bench-{i:03}"),
            params: String::new(),
            metric: "time".into(),
            unit: "us".into(),
            direction: Direction::Lower,
            variants: vec![samp("baseline", &base), samp("patched", &pat)],
        };
        let ch = (i % 7) as f64;
        let verdict = if ch >= 2.0 {
            Verdict::Regressed
        } else {
            Verdict::Unchanged
        };
        comparisons.push(cmp(
            &g,
            "patched",
            ch,
            (ch - 0.5, ch + 0.5),
            1e-4,
            2e-4,
            verdict,
            TestKind::MannWhitney,
        ));
        groups.push(g);
    }
    let a = Analysis {
        settings: Settings::default(),
        groups,
        comparisons,
        findings: vec![],
    };
    (
        a,
        ReportContext {
            name: "many".into(),
            title: "Many benchmarks".into(),
            ..Default::default()
        },
    )
}

fn html_of(dir: &Path) -> scraper::Html {
    let text = read(dir, "report.html");
    scraper::Html::parse_document(&text)
}

#[test]
fn html_parses_loads_nothing_and_escapes_markup() {
    let (dir, _) = render_fixture(&[OutputFormat::Html]);
    let text = read(dir.path(), "report.html");
    let doc = html_of(dir.path());
    assert!(doc.errors.is_empty(), "HTML parse errors: {:?}", doc.errors);
    // The benchmark named `<script>alert(1)</script>` is text, not a script.
    assert!(!text.contains("<script>alert(1)</script>"));
    assert!(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let scripts = scraper::Selector::parse("script").unwrap();
    let all: Vec<_> = doc.select(&scripts).collect();
    assert_eq!(all.len(), 1, "only the table-sorting script");
    assert!(!all[0].inner_html().contains("alert("));
    // Nothing is loaded from anywhere: no external URLs in resource
    // attributes, no stylesheet links, no CSS imports or url().
    let any = scraper::Selector::parse("*").unwrap();
    for el in doc.select(&any) {
        for (name, value) in el.value().attrs() {
            if matches!(
                name,
                "src" | "href" | "srcset" | "data" | "poster" | "action" | "xlink:href"
            ) {
                let v = value.trim_start().to_ascii_lowercase();
                assert!(
                    !(v.starts_with("http:") || v.starts_with("https:") || v.starts_with("//")),
                    "{name}={value} on <{}>",
                    el.value().name()
                );
            }
        }
        assert_ne!(el.value().name(), "link", "no <link> elements");
        assert_ne!(el.value().name(), "iframe");
    }
    assert!(
        !text.contains("@import") && !text.contains("url("),
        "CSS loads nothing"
    );
    // Every chart is inline, one anchor per benchmark section.
    let svgs = scraper::Selector::parse("figure svg").unwrap();
    assert_eq!(
        doc.select(&svgs).count(),
        7,
        "forest + 3 distributions + 1 sweep + 2 run orders"
    );
    for id in [
        "b1-futex-wake",
        "b2-hackbench-g-4-l-200",
        "b3-script-alert-1-script",
    ] {
        let sel = scraper::Selector::parse(&format!("h3#{id}")).unwrap();
        assert_eq!(doc.select(&sel).count(), 1, "anchor {id}");
    }
}

#[test]
fn numbers_in_json_are_the_ones_shown_in_html_and_text() {
    let (dir, _) = render_fixture(&[OutputFormat::Html, OutputFormat::Txt, OutputFormat::Json]);
    let json: serde_json::Value = serde_json::from_str(&read(dir.path(), "report.json")).unwrap();
    let txt = read(dir.path(), "report.txt");
    let doc = html_of(dir.path());
    let rows = scraper::Selector::parse("#cmp tbody tr").unwrap();
    let td = scraper::Selector::parse("td").unwrap();
    let html_rows: Vec<Vec<String>> = doc
        .select(&rows)
        .map(|r| {
            r.select(&td)
                .map(|c| c.text().collect::<String>().trim().to_string())
                .collect()
        })
        .collect();
    let cmps = json["comparisons"].as_array().unwrap();
    assert_eq!(cmps.len(), html_rows.len());
    for (c, row) in cmps.iter().zip(&html_rows) {
        let t = |k: &str| c[k]["text"].as_str().unwrap().to_string();
        // Columns: # benchmark variant base new unit change CI p q effect n verdict.
        assert_eq!(row[3], t("baseline_value"));
        assert_eq!(row[4], t("variant_value"));
        assert_eq!(row[6], t("change"));
        assert_eq!(row[7], c["ci"].as_str().unwrap());
        assert_eq!(row[8], t("p"));
        assert_eq!(row[9], t("q"));
        assert_eq!(row[10], t("effect"));
        assert_eq!(row[12], c["verdict_text"].as_str().unwrap());
        // The text report shows the same strings.
        for k in ["baseline_value", "variant_value", "change", "q"] {
            assert!(
                txt.contains(&t(k)),
                "{k} {} missing from the text report",
                t(k)
            );
        }
        assert!(txt.contains(c["ci"].as_str().unwrap()));
        // And the shown text is the exact value, rounded: change and p/q.
        let shown: f64 = t("change").trim_end_matches('%').parse().unwrap();
        let exact = c["change"]["value"].as_f64().unwrap();
        assert!(
            (shown - exact).abs() <= 0.05 + exact.abs() * 5e-4,
            "{shown} vs {exact}"
        );
        let q_exact = c["q"]["value"].as_f64().unwrap();
        let q_shown: f64 = t("q").parse().unwrap();
        assert!(
            (q_shown - q_exact).abs() <= q_exact * 0.01,
            "{q_shown} vs {q_exact}"
        );
    }
    // Section rows: every mean shown in JSON appears in both.
    for s in json["sections"].as_array().unwrap() {
        for r in s["rows"].as_array().unwrap() {
            let mean = r["mean"]["text"].as_str().unwrap();
            assert!(txt.contains(mean), "mean {mean}");
            assert!(
                doc.root_element().text().any(|t| t.trim() == mean),
                "mean {mean} in HTML"
            );
        }
    }
    assert_eq!(json["schema"], 1);
    assert_eq!(json["comparisons"][0]["change"]["value"], 191.58);
}

#[test]
fn pdf_has_pages_and_every_benchmark_name() {
    let (dir, view) = render_fixture(&[OutputFormat::Pdf]);
    let pdf = std::fs::read(dir.path().join("report.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    // 40 comparisons need at least 4 pages.
    let (a, ctx) = many(40);
    let big = tempfile::tempdir().unwrap();
    report::write_outputs(&a, &ctx, None, &[OutputFormat::Pdf], big.path(), None).unwrap();
    let Some(pages) = pdf_pages(&big.path().join("report.pdf")) else {
        eprintln!("pdfinfo not installed: page count not checked");
        return;
    };
    assert!(pages >= 4, "{pages} pages for 40 comparisons");
    let text = pdf_text(&dir.path().join("report.pdf")).expect("pdftotext");
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in &view.sections {
        assert!(
            flat.contains(&s.benchmark),
            "{} not in the PDF text",
            s.benchmark
        );
    }
    assert!(flat.contains("6 regressions, 1 unchanged"));
    let big_text = pdf_text(&big.path().join("report.pdf")).unwrap();
    for i in 0..40 {
        assert!(big_text.contains(&format!("bench-{i:03}")), "bench-{i:03}");
    }
}

fn pdf_pages(p: &Path) -> Option<usize> {
    let out = std::process::Command::new("pdfinfo").arg(p).output().ok()?;
    let s = String::from_utf8_lossy(&out.stdout).to_string();
    s.lines()
        .find(|l| l.starts_with("Pages:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
}

fn pdf_text(p: &Path) -> Option<String> {
    let out = std::process::Command::new("pdftotext")
        .arg(p)
        .arg("-")
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).to_string())
}

#[test]
fn markdown_and_text_match_golden_files() {
    let (dir, _) = render_fixture(&[OutputFormat::Md, OutputFormat::Txt]);
    let md = read(dir.path(), "report.md");
    let txt = read(dir.path(), "report.txt");
    insta::assert_snapshot!("fixture_md", md);
    insta::assert_snapshot!("fixture_txt", txt);
}

#[test]
fn text_fits_72_columns_and_survives_quoting() {
    let (dir, _) = render_fixture(&[OutputFormat::Txt]);
    let txt = read(dir.path(), "report.txt");
    for (i, l) in txt.lines().enumerate() {
        assert!(
            l.chars().count() <= 72,
            "line {} is {} wide: {l:?}",
            i + 1,
            l.chars().count()
        );
        assert!(
            !l.ends_with(' ') && !l.contains('\t'),
            "line {}: {l:?}",
            i + 1
        );
        assert!(l.is_ascii(), "line {} is not ASCII: {l:?}", i + 1);
        assert!(!l.starts_with("From "), "mbox would mangle line {}", i + 1);
    }
    let quoted: String = txt.lines().map(|l| format!("> {l}\n")).collect();
    assert!(quoted.lines().all(|l| l.chars().count() <= 74));
}

#[test]
fn markdown_escapes_markup_and_folds_long_parts() {
    let (dir, _) = render_fixture(&[OutputFormat::Md]);
    let md = read(dir.path(), "report.md");
    assert!(!md.contains("<script>"));
    assert!(md.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_eq!(
        md.matches("<details>").count(),
        md.matches("</details>").count()
    );
    assert!(md.matches("<details>").count() >= 3);
    // Every table row has as many cells as its header.
    let mut cols = 0;
    for l in md.lines() {
        if l.starts_with('|') {
            let n = l.replace("\\|", "").matches('|').count();
            if l.starts_with("|--") || l.starts_with("|:-") {
                assert_eq!(n, cols, "{l}");
            } else if cols == 0 {
                cols = n;
            } else {
                assert_eq!(n, cols, "{l}");
            }
        } else {
            cols = 0;
        }
    }
}

#[test]
fn templates_can_be_overridden_from_a_folder() {
    let (a, ctx) = fixture();
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("report.txt.j2"),
        "custom {{ report.summary.headline }}\n",
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    report::write_outputs(
        &a,
        &ctx,
        None,
        &[OutputFormat::Txt, OutputFormat::Md],
        out.path(),
        Some(t.path()),
    )
    .unwrap();
    assert_eq!(
        read(out.path(), "report.txt"),
        "custom 6 regressions, 1 unchanged; 1 configuration error, 1 warning.\n"
    );
    assert!(
        read(out.path(), "report.md").starts_with("## futex wake-up"),
        "others stay built in"
    );
    // A broken template fails the run and leaves no half report behind.
    std::fs::write(t.path().join("report.md.j2"), "{% for x in %}").unwrap();
    let out2 = tempfile::tempdir().unwrap();
    let e = report::write_outputs(
        &a,
        &ctx,
        None,
        &OutputFormat::ALL,
        out2.path(),
        Some(t.path()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("report.md.j2"), "{e}");
    assert_eq!(
        std::fs::read_dir(out2.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn typst_markup_in_names_is_text() {
    let (mut a, ctx) = fixture();
    a.groups[5].benchmark = "#set page(width: 1cm) $x$ *bold* \\ \"q\" // c".into();
    a.comparisons[5].benchmark = a.groups[5].benchmark.clone();
    let out = tempfile::tempdir().unwrap();
    report::write_outputs(&a, &ctx, None, &[OutputFormat::Pdf], out.path(), None).unwrap();
    if let Some(text) = pdf_text(&out.path().join("report.pdf")) {
        let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("#set page(width: 1cm) $x$ *bold*"), "{flat}");
    }
}

fn patchperf() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("patchperf").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn futex_example_shows_the_numbers_then_the_config_error_first_among_findings_and_both_sweeps() {
    let out = tempfile::tempdir().unwrap();
    patchperf()
        .args(["report", "examples/futex-wake-lockless.toml", "--out"])
        .arg(out.path())
        .assert()
        .success();
    let txt = read(out.path(), "report.txt");
    let json: serde_json::Value = serde_json::from_str(&read(out.path(), "report.json")).unwrap();
    // The configuration error is the first finding and in the headline.
    assert_eq!(json["findings"][0]["severity"], "error");
    assert_eq!(json["findings"][0]["code"], "kconfig-debug-differs");
    assert!(json["summary"]["headline"]
        .as_str()
        .unwrap()
        .contains("configuration error"));
    // Numbers first: the comparisons come before the findings, and the
    // summary line above them already says there is an error.
    let findings_at = txt.find("Findings\n--------").unwrap();
    let comparisons_at = txt.find("Comparisons against").unwrap();
    assert!(comparisons_at < findings_at);
    assert!(txt[..comparisons_at].contains("configuration error"));
    assert!(txt[findings_at..].starts_with("Findings\n--------\n[ERROR]"));
    for l in txt.lines() {
        assert!(l.chars().count() <= 72 && l.is_ascii(), "{l:?}");
    }
    // Table-1 regressions are marked suspect; the rerun's are not.
    let cmps = json["comparisons"].as_array().unwrap();
    let first: Vec<_> = cmps
        .iter()
        .filter(|c| c["benchmark"] == "futex-wake (first run)")
        .collect();
    assert_eq!(first.len(), 5);
    assert!(first
        .iter()
        .all(|c| c["suspect"] == true && c["variant"] == "patched-debug"));
    assert!(first
        .iter()
        .any(|c| c["verdict"] == "regressed" && c["verdict_text"] == "regressed?"));
    assert!(cmps
        .iter()
        .filter(|c| c["benchmark"] == "futex-wake (rerun)")
        .all(|c| c["suspect"] == false));
    // Stated summaries with an assumed n: delta-method intervals, and the
    // methods name no bootstrap.
    assert!(cmps.iter().all(|c| c["interval"] == "delta"), "{cmps:?}");
    assert_eq!(json["methods"]["bootstrap"], "not used");
    // A sweep chart of time against threads for both tables.
    let sweeps: Vec<_> = json["sections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["sweep_param"] == "threads")
        .collect();
    assert_eq!(sweeps.len(), 2);
    for s in sweeps {
        let f = s["charts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["kind"] == "sweep")
            .unwrap();
        let svg = read(out.path(), f["file"].as_str().unwrap());
        // Threads 32 to 512 span more than a decade: a log axis.
        assert!(
            svg.lines().any(|l| l.trim() == "threads, log scale"),
            "x axis of {}",
            f["file"]
        );
        assert!(svg.contains("wake-up time (ms"), "y axis of {}", f["file"]);
        // The change against the baseline gets its own panel.
        assert!(
            svg.contains("change vs baseline (%)"),
            "change panel of {}",
            f["file"]
        );
    }
    assert!(out.path().join("data.parquet").is_file());
    assert!(out.path().join("report.pdf").is_file());
    // The study's rows, written beside the report, read back with `ingest`
    // as a tidy table (it was once refused as binary data).
    let back = patchperf()
        .arg("ingest")
        .arg(out.path().join("data.parquet"))
        .args(["--out", "-"])
        .output()
        .unwrap();
    assert_eq!(
        back.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&back.stderr)
    );
    let csv = String::from_utf8_lossy(&back.stdout);
    assert!(csv.starts_with("source,line,benchmark,"), "{csv}");
    // Every row of the study's one input comes back, named by that input.
    let input = patchperf()
        .args([
            "ingest",
            "data/lkml/futex-wake-lockless-2013.txt",
            "--out",
            "-",
        ])
        .output()
        .unwrap();
    let want = String::from_utf8_lossy(&input.stdout).lines().count();
    assert_eq!(csv.lines().count(), want, "{csv}");
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.starts_with("data/lkml/futex-wake-lockless-2013.txt,")),
        "{csv}"
    );
}

#[test]
fn report_writes_only_the_formats_asked_for() {
    let out = tempfile::tempdir().unwrap();
    patchperf()
        .args([
            "report",
            "examples/hackbench-cpu-hog.toml",
            "--formats",
            "md,json",
            "--out",
        ])
        .arg(out.path())
        .assert()
        .success();
    assert!(out.path().join("report.md").is_file());
    assert!(out.path().join("report.json").is_file());
    assert!(!out.path().join("report.html").exists());
    assert!(!out.path().join("report.pdf").exists());
    assert!(out.path().join("charts/forest.svg").is_file());
    let names: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with('.')),
        "no temporary files left: {names:?}"
    );
    patchperf()
        .args([
            "report",
            "examples/hackbench-cpu-hog.toml",
            "--formats",
            "docx",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("docx"));
}

#[test]
fn study_with_an_unknown_key_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("s.toml");
    std::fs::write(
        &p,
        "title = \"t\"\n[[variants]]\nname = \"a\"\ninptus = [\"x\"]\n",
    )
    .unwrap();
    patchperf()
        .arg("report")
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("s.toml:4").and(predicates::str::contains("inptus")));
}

#[test]
fn compare_writes_the_same_report_files() {
    let out = tempfile::tempdir().unwrap();
    let p = |n: &str| out.path().join(n);
    patchperf()
        .args([
            "compare",
            "data/hackbench/baseline",
            "data/hackbench/patched",
            "--html",
        ])
        .arg(p("c.html"))
        .arg("--pdf")
        .arg(p("c.pdf"))
        .arg("--md")
        .arg(p("c.md"))
        .arg("--txt")
        .arg(p("c.txt"))
        .assert()
        .success();
    let html = std::fs::read_to_string(p("c.html")).unwrap();
    assert!(scraper::Html::parse_document(&html).errors.is_empty());
    assert!(html.contains("<svg"), "charts inline");
    assert!(std::fs::read(p("c.pdf")).unwrap().starts_with(b"%PDF"));
    let md = std::fs::read_to_string(p("c.md")).unwrap();
    assert!(
        !md.contains("](charts/"),
        "a lone Markdown file links no chart files"
    );
    let txt = std::fs::read_to_string(p("c.txt")).unwrap();
    assert!(txt.starts_with("patched vs baseline\n"));
    assert!(txt.contains("hackbench"));
    // The same analysis as the terminal table: the change shown is the one
    // `compare --json` reports.
    let json = patchperf()
        .args([
            "compare",
            "data/hackbench/baseline",
            "data/hackbench/patched",
            "--json",
            "-",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let change = v["comparisons"][0]["change_pct"].as_f64().unwrap();
    let shown = patchperf::report::format::pct(change);
    assert!(txt.contains(&shown), "{shown} not in the text report");
}

#[test]
fn every_example_study_renders_clean_outputs() {
    let mut studies: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
    studies.sort();
    assert!(studies.len() >= 8, "{studies:?}");
    for s in &studies {
        let out = tempfile::tempdir().unwrap();
        patchperf()
            .arg("report")
            .arg(s)
            .args(["--formats", "html,md,txt,json", "--out"])
            .arg(out.path())
            .assert()
            .success();
        let name = s.display().to_string();
        let html = read(out.path(), "report.html");
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{name}: {:?}", doc.errors);
        for l in read(out.path(), "report.txt").lines() {
            assert!(
                l.chars().count() <= 72 && l.is_ascii() && !l.ends_with(' '),
                "{name}: {l:?}"
            );
        }
        let json: serde_json::Value =
            serde_json::from_str(&read(out.path(), "report.json")).unwrap();
        assert!(
            !json["comparisons"].as_array().unwrap().is_empty(),
            "{name}: no comparisons"
        );
        let shown: String = doc.root_element().text().collect();
        for c in json["comparisons"].as_array().unwrap() {
            let change = c["change"]["text"].as_str().unwrap();
            assert!(shown.contains(change), "{name}: {change}");
        }
        // Every chart the view model names exists and is referenced by the
        // Markdown of the folder.
        let md = read(out.path(), "report.md");
        for sec in json["sections"].as_array().unwrap() {
            for ch in sec["charts"].as_array().unwrap() {
                let f = ch["file"].as_str().unwrap();
                assert!(out.path().join(f).is_file(), "{name}: {f}");
                assert!(
                    md.contains(&format!("]({f})")),
                    "{name}: {f} not in Markdown"
                );
            }
        }
    }
}

#[test]
fn study_extractors_read_a_harness_no_importer_knows() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::env::current_dir().unwrap();
    let study = dir.path().join("s.toml");
    std::fs::write(
        &study,
        format!(
            "title = \"futex wake-up through an extractor\"\n\
             extractors = [\"{ex}\"]\n\n\
             [[documents]]\npath = \"{doc}\"\nformat = \"futex-wakeup\"\n",
            ex = root.join("examples/extractors").display(),
            doc = root.join("data/lkml/futex-plist-wakeup-2007.txt").display(),
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    patchperf()
        .args(["report"])
        .arg(&study)
        .arg("--out")
        .arg(&out)
        .args(["--formats", "json"])
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let text = json.to_string();
    assert!(text.contains("futex-wakeup"), "{text}");
    assert!(text.contains("plist"), "{text}");
    // A study naming an extractor that does not exist is refused, exit 2.
    std::fs::write(
        &study,
        "extractors = [\"nope.toml\"]\n[[documents]]\npath = \"x.txt\"\n",
    )
    .unwrap();
    patchperf().arg("report").arg(&study).assert().code(2);
}

/// `report` prints each study's verdict line under the study's name, so
/// that several studies' lines can be told apart.
#[test]
fn report_prefixes_its_verdict_line_with_the_study_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = patchperf()
        .args([
            "report",
            "examples/futex-plist-wakeup.toml",
            "--formats",
            "json",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("futex-plist-wakeup: "), "{stdout}");
}

/// The brief of every example is at most 25 lines of at most 72 columns,
/// gives every comparison a line (or counts those left out), and every
/// kind of error; `compare --brief` prints the same block.
#[test]
fn the_brief_of_every_example_fits_a_reply() {
    let out = tempfile::tempdir().unwrap();
    let mut studies: Vec<String> = std::fs::read_dir("examples")
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path().display().to_string())
        .filter(|p| p.ends_with(".toml"))
        .collect();
    studies.sort();
    assert!(studies.len() >= 8);
    let mut args = vec![
        "report".to_string(),
        "--formats".into(),
        "brief,json".into(),
    ];
    args.extend(studies.iter().cloned());
    args.extend(["--out".into(), out.path().display().to_string()]);
    patchperf().args(&args).assert().success();
    for study in &studies {
        let name = Path::new(study).file_stem().unwrap().to_str().unwrap();
        let dir = out.path().join(name);
        let brief = read(&dir, "brief.txt");
        let lines: Vec<&str> = brief.lines().collect();
        assert!(lines.len() <= 25, "{name}: {} lines\n{brief}", lines.len());
        for l in &lines {
            assert!(l.chars().count() <= 72, "{name}: {l:?}");
        }
        let json: serde_json::Value = serde_json::from_str(&read(&dir, "report.json")).unwrap();
        let comparisons = json["comparisons"].as_array().unwrap().len();
        let verdict_lines = lines
            .iter()
            .filter(|l| !l.contains(" comparison"))
            .filter(|l| {
                [
                    "regressed",
                    "improved",
                    "unchanged",
                    "inconclusive",
                    "untestable",
                    "changed",
                ]
                .iter()
                .any(|v| l.ends_with(v))
            })
            .count();
        let more: usize = lines
            .last()
            .and_then(|l| l.strip_prefix("… "))
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert_eq!(verdict_lines + more, comparisons, "{name}\n{brief}");
        let errors = json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "error")
            .count();
        if errors > 0 {
            assert!(
                lines.iter().any(|l| l.starts_with("error: ")),
                "{name}\n{brief}"
            );
        }
    }
    // The regression of the debug kernel is in the futex brief, with its error.
    let futex = read(&out.path().join("futex-wake-lockless"), "brief.txt");
    assert!(futex.contains("[kconfig-debug-differs]"), "{futex}");
    assert!(futex.contains("regressed"), "{futex}");
}

#[test]
fn compare_brief_is_the_block_alone() {
    let out = patchperf()
        .args([
            "compare",
            "--brief",
            "tests/data/harness/gbench/reps-counters.json",
            "tests/data/harness/gbench/aggregates-only.json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() <= 25 && lines.iter().all(|l| l.chars().count() <= 72),
        "{text}"
    );
    assert!(
        lines[0].starts_with("aggregates-only vs reps-counters"),
        "{text}"
    );
    assert!(
        text.contains("aggregates-only against reps-counters:"),
        "{text}"
    );
    assert!(!text.contains("centre"), "no table: {text}");
}

/// A side of more samples than a chart draws one by one is drawn from
/// the buckets of its runs: the run-order chart draws a band and a line of
/// a bounded number of points, no mark per sample, a single spike among
/// fifty thousand runs stays in it, and its caption and axis say how the
/// side was thinned; the distribution chart draws the box of every sample.
#[test]
fn a_long_side_is_drawn_from_its_buckets() {
    use patchperf::analysis::{analyze, RUN_ORDER_POINTS};
    use patchperf::model::{Dataset, Observation};
    let n = 50_000u32;
    let mut rows = Vec::new();
    for (variant, shift) in [("base", 0.0), ("patched", 0.5)] {
        for i in 0..n {
            let mut v = 10.0 + shift + f64::from((i * 7919) % 101) * 0.01;
            if variant == "patched" && i == 31_337 {
                v = 40.0;
            }
            let mut o = Observation::sample("hackbench", "time", "ms", v).with_variant(variant);
            o.run = Some(i);
            rows.push(o);
        }
    }
    // A short side beside them is drawn point by point, as before.
    for i in 0..5u32 {
        let mut o =
            Observation::sample("short", "time", "ms", 1.0 + f64::from(i)).with_variant("base");
        o.run = Some(i);
        rows.push(o);
    }
    let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
    let long = &a.groups[0].variants[1];
    assert!(long.samples.is_empty());
    let t = long.thinned.as_ref().unwrap();
    assert_eq!((t.n, t.per), (50_000, 13));
    assert!(t.buckets.len() <= RUN_ORDER_POINTS);
    let ctx = ReportContext::for_compare(&[], &[], &["base".into(), "patched".into()]);
    let r = report::render(&a, &ctx, &[], None).unwrap();
    let view = r.view.unwrap();
    let sec = &view.sections[0];
    let runs = sec.charts.iter().find(|c| c.kind == "runs").unwrap();
    let note = "n = 50,000, drawn as min–max and mean per 13 runs";
    assert!(runs.title.ends_with(note), "{}", runs.title);
    let svg = String::from_utf8(r.files[&runs.file].clone()).unwrap();
    assert!(svg.contains(note), "the axis says so too");
    assert!(!svg.contains("<circle"), "no mark per sample");
    // Two sides of at most 4,096 buckets: a band's outline (twice: filled
    // and stroked) and a line of means each.
    let points = svg.matches(',').count();
    assert!(points < 2 * 5 * RUN_ORDER_POINTS + 500, "{points} points");
    assert!(points > 2 * 3 * 3_000, "{points} points");
    assert_eq!(t.buckets.iter().filter(|b| b.max == 40.0).count(), 1);
    let dist = sec
        .charts
        .iter()
        .find(|c| c.kind == "distribution")
        .unwrap();
    assert!(
        dist.title.contains("n = 50,000: box of every sample"),
        "{}",
        dist.title
    );
    let dist_svg = String::from_utf8(r.files[&dist.file].clone()).unwrap();
    assert!(dist_svg.matches("<circle").count() <= 2 * 2 * t.buckets.len());
    // The short side's chart is drawn as before: a point per run.
    let short = view
        .sections
        .iter()
        .find(|s| s.benchmark == "short")
        .unwrap();
    let short_runs = short.charts.iter().find(|c| c.kind == "runs").unwrap();
    assert!(!short_runs.title.contains("drawn as"));
    let short_svg = String::from_utf8(r.files[&short_runs.file].clone()).unwrap();
    assert_eq!(short_svg.matches("<circle").count(), 5);
}
