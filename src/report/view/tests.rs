use super::methods::bootstrap_line;
use super::*;
use crate::analysis::{Comparison, Group, IntervalMethod, Settings, VariantSummary};
use crate::model::Direction;

fn group(b: &str, params: &str, unit: &str) -> Group {
    let v = |name: &str| VariantSummary {
        variant: name.into(),
        n: Some(5),
        mean: Some(2.0),
        median: None,
        stddev: Some(0.1),
        min: None,
        max: None,
        cv_pct: Some(5.0),
        ci_low: None,
        ci_high: None,
        samples: vec![],
        thinned: None,
        from_summary: true,
        outliers: 0,
        trend_p: None,
    };
    Group {
        benchmark: b.into(),
        params: params.into(),
        metric: "time".into(),
        unit: unit.into(),
        direction: Direction::Lower,
        variants: vec![v("base"), v("new")],
    }
}

#[test]
fn one_rule_says_what_bars_show() {
    let g = group("futex", "", "ms");
    let sd = g.variants[0].clone();
    let mut ci = sd.clone();
    (ci.ci_low, ci.ci_high) = (Some(1.9), Some(2.1));
    let mut none = sd.clone();
    none.stddev = None;
    assert_eq!(Bars::of([&ci, &ci]), Some(Bars::Ci));
    assert_eq!(Bars::of([&sd, &none]), Some(Bars::Sd));
    assert_eq!(Bars::of([&ci, &sd]), Some(Bars::Mixed));
    assert_eq!(Bars::of([&none]), None);
    assert_eq!(bar(&sd, 2.0), (1.9, 2.1, true));
    assert_eq!(bar(&ci, 2.0), (1.9, 2.1, false));
    // The section title follows the same rule as the chart's axis note.
    let a = Analysis {
        groups: vec![g],
        ..Default::default()
    };
    let f = families(&a);
    let charts = section_chart_views(&f[0], "futex");
    assert!(
        charts[0].title.contains("mean ± stddev per variant"),
        "{}",
        charts[0].title
    );
    // Nothing stated around the mean: the title promises no bars.
    let mut bare = a.clone();
    for v in &mut bare.groups[0].variants {
        v.stddev = None;
    }
    let f = families(&bare);
    let charts = section_chart_views(&f[0], "futex");
    assert!(
        charts[0].title.contains(": mean per variant"),
        "{}",
        charts[0].title
    );
}

#[test]
fn the_methods_name_the_seed_only_when_something_was_resampled() {
    let with = |methods: &[Option<IntervalMethod>]| {
        let a = Analysis {
            comparisons: methods
                .iter()
                .map(|&interval| Comparison {
                    interval,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        bootstrap_line(&a)
    };
    let (e, r, d) = (
        Some(IntervalMethod::Exact),
        Some(IntervalMethod::Resampled),
        Some(IntervalMethod::Delta),
    );
    let seed = Settings::default().seed.to_string();
    assert_eq!(with(&[d, None]), "not used");
    let exact = with(&[e, e, d]);
    assert!(
        exact.starts_with("exact") && exact.contains("no resampling"),
        "{exact}"
    );
    assert!(!exact.contains(&seed), "{exact}");
    let resampled = with(&[r, None]);
    assert_eq!(resampled, format!("10000 resamples, seed {seed}"));
    let mixed = with(&[e, e, r]);
    assert!(
        mixed.contains("(2 intervals)") && mixed.contains("(1 interval)"),
        "{mixed}"
    );
    assert!(mixed.contains(&seed), "{mixed}");
}

#[test]
fn families_sweep_and_shared_parameters() {
    let a = Analysis {
        groups: vec![
            group("futex", "mode=x,threads=32", "ms"),
            group("futex", "mode=x,threads=64", "ms"),
            group("futex", "mode=x,threads=128", "ms"),
            group("futex", "mode=x,threads=256", "us"),
            group("other", "k=a", "ms"),
            group("other", "k=b", "ms"),
        ],
        ..Default::default()
    };
    let f = families(&a);
    // A group in another unit is its own family, never mixed on one axis.
    assert_eq!(f.len(), 3);
    assert_eq!(f[0].groups.len(), 3);
    assert_eq!(f[0].sweep.as_deref(), Some("threads"));
    assert_eq!(f[0].fixed, "mode=x");
    assert_eq!(f[0].varying("mode=x,threads=64"), "threads=64");
    assert_eq!(f[2].sweep, None, "non-numeric parameters do not sweep");
    assert_eq!(f[0].anchor, "b1-futex");
    assert_eq!(param_value("mode=x,threads=64", "threads"), Some(64.0));
}

#[test]
fn slugs_and_reflow() {
    assert_eq!(slug("<script>alert(1)</script>"), "script-alert-1-script");
    assert_eq!(slug("???"), "x");
    assert_eq!(reflow("a\nb\n\n c  d \n"), "a b\n\nc d");
}

#[test]
fn notes_that_differ_only_in_their_numbers_share_one_footnote() {
    use crate::analysis::{Note, NoteKind};
    let outliers = |k: usize| {
        Note::new(
            NoteKind::Outliers,
            format!("outliers in `base`: {k} of 100 beyond Tukey's fences"),
        )
        .with_footnote("outliers in `base` (kept)")
    };
    let row = |params: &str, notes: Vec<Note>| Comparison {
        benchmark: "futex".into(),
        params: params.into(),
        metric: "time".into(),
        unit: "ms".into(),
        baseline: "base".into(),
        variant: "new".into(),
        baseline_center: 2.0,
        variant_center: 2.0,
        change_pct: 0.0,
        notes,
        ..Default::default()
    };
    let a = Analysis {
        groups: vec![group("futex", "k=a", "ms"), group("futex", "k=b", "ms")],
        comparisons: vec![
            row(
                "k=a",
                vec![outliers(13), Note::new(NoteKind::PBound, "p < 1e-300")],
            ),
            row("k=b", vec![outliers(2)]),
        ],
        ..Default::default()
    };
    let v = build(&a, &ReportContext::default());
    let texts: Vec<&str> = v.notes.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(texts, ["outliers in `base` (kept)", "p < 1e-300"]);
    assert_eq!(v.comparisons[0].note_mark, "[1,2]");
    assert_eq!(v.comparisons[1].note_mark, "[1]");
}

#[test]
fn far_apart_parameter_values_get_a_panel_each() {
    let at = |params: &str, mean: f64| {
        let mut g = group("hackbench", params, "s");
        for v in &mut g.variants {
            v.mean = Some(mean);
            v.stddev = Some(mean * 0.02);
        }
        g
    };
    let family = |groups: Vec<Group>| {
        let a = Analysis {
            groups,
            ..Default::default()
        };
        let f = families(&a);
        (
            distribution_facets(&f[0]),
            section_chart_views(&f[0], "hackbench")[0].height,
        )
    };
    // 1 group takes 0.2 s, 16 groups 3.2 s: on one axis the first box is a dot.
    let (facets, tall) = family(vec![at("groups=1", 0.2), at("groups=16", 3.2)]);
    assert!(facets);
    // Values close together share one axis, in a shorter chart.
    let (facets, short) = family(vec![at("groups=1", 3.0), at("groups=2", 3.2)]);
    assert!(!facets);
    assert!(tall > short, "{tall} {short}");
    // One parameter value, or more than a chart can hold, never facets.
    assert!(!family(vec![at("groups=1", 0.2)]).0);
    let many: Vec<Group> = (0..=MAX_FACETS)
        .map(|i| at(&format!("groups={i}"), 0.1 * 2f64.powi(i as i32)))
        .collect();
    assert!(!family(many).0);
}
