//! Tests of grouping: buckets, units, run order, parts, samples moved
//! out of the rows.
use super::*;
use crate::model::Observation;

#[test]
fn a_stat_is_kept_exactly_when_it_can_be_read_back() {
    let stats = [
        Stat::Sample,
        Stat::Mean,
        Stat::Median,
        Stat::Stddev,
        Stat::Stderr,
        Stat::Min,
        Stat::Max,
        Stat::N,
        Stat::Percentile(50_000),
        Stat::Percentile(99_000),
        Stat::CiLow,
        Stat::CiHigh,
        Stat::ChangePct,
        Stat::Cv,
        Stat::Total,
    ];
    for stat in stats {
        let mut v = RawVariant::default();
        v.state(stat, 7.0);
        let expected = !matches!(stat, Stat::Sample | Stat::Total | Stat::Percentile(99_000));
        assert_eq!(RawVariant::keeps(stat), expected, "{stat:?}");
        assert_eq!(v.stated(stat), expected.then_some(7.0), "{stat:?}");
    }
    let mut v = RawVariant::default();
    v.state(Stat::Percentile(50_000), 3.0);
    assert_eq!(v.median, Some(3.0));
}

#[test]
fn converts_to_the_baseline_unit_and_refuses_mixes() {
    let data = Dataset::new(vec![
        Observation::sample("b", "latency", "ms", 1.5)
            .with_variant("base")
            .with_run(0),
        Observation::sample("b", "latency", "us", 1400.0)
            .with_variant("new")
            .with_run(0),
        Observation::new("b", "latency", "", Stat::N, 10.0).with_variant("new"),
    ]);
    let g = group(&data, "base", &Default::default()).unwrap();
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].unit, "ms");
    assert_eq!(g[0].variants[1].samples, vec![1.4]);
    assert_eq!(g[0].variants[1].n, Some(10.0));
    assert_eq!(g[0].direction, Direction::Lower);

    // A value without a unit takes the group's.
    let data = Dataset::new(vec![
        Observation::sample("b", "t", "", 2.0).with_variant("base"),
        Observation::sample("b", "t", "s", 1.0).with_variant("new"),
    ]);
    let g = group(&data, "base", &Default::default()).unwrap();
    assert_eq!(g[0].unit, "s");
    assert_eq!(g[0].unit_assumed.as_ref().map(|u| u.0), Some(1));

    let mut bad = Observation::sample("b", "latency", "MB", 3.0).with_variant("new");
    bad.source = "x.txt".into();
    bad.line = 7;
    let data = Dataset::new(vec![
        Observation::sample("b", "latency", "ms", 1.5).with_variant("base"),
        bad,
    ]);
    let e = group(&data, "base", &Default::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("x.txt:7:"), "{e}");
    assert!(e.contains("`MB`"), "{e}");
}

#[test]
fn samples_follow_run_order() {
    let data = Dataset::new(vec![
        Observation::sample("b", "t", "s", 3.0)
            .with_variant("a")
            .with_run(2),
        Observation::sample("b", "t", "s", 1.0)
            .with_variant("a")
            .with_run(0),
        Observation::sample("b", "t", "s", 2.0)
            .with_variant("a")
            .with_run(1),
    ]);
    let g = group(&data, "a", &Default::default()).unwrap();
    assert_eq!(g[0].variants[0].samples, vec![1.0, 2.0, 3.0]);
}

/// Samples of two files whose runs interleave: in run order, each
/// file's own in run order too (its stated mean is checked against
/// them), those of one run index in row order.
#[test]
fn samples_of_several_parts_follow_run_order_each() {
    let sample = |file: &str, run: u32, x: f64| {
        let mut o = Observation::sample("b", "t", "s", x)
            .with_variant("a")
            .with_run(run);
        o.source = file.into();
        o
    };
    let mut mean = Observation::new("b", "t", "s", Stat::Mean, 15.0).with_variant("a");
    mean.source = "f1".into();
    let data = Dataset::new(vec![
        sample("f1", 2, 20.0),
        sample("f1", 0, 0.0),
        mean,
        sample("f2", 1, 10.0),
        sample("f2", 3, 30.0),
        sample("f2", 1, 11.0),
    ]);
    let g = group(&data, "a", &Default::default()).unwrap();
    let v = &g[0].variants[0];
    assert_eq!(v.samples, [0.0, 10.0, 11.0, 20.0, 30.0]);
    let parts: Vec<(&str, &[f64])> = v
        .parts
        .iter()
        .map(|p| (p.source.as_str(), p.samples.as_slice()))
        .collect();
    assert_eq!(
        parts,
        [("f1", &[0.0, 20.0][..]), ("f2", &[10.0, 11.0, 30.0][..])]
    );
    // Runs in order: taken as they come.
    let data = Dataset::new(vec![
        sample("f1", 0, 5.0),
        sample("f1", 0, 4.0),
        sample("f1", 1, 3.0),
    ]);
    let g = group(&data, "a", &Default::default()).unwrap();
    assert_eq!(g[0].variants[0].samples, [5.0, 4.0, 3.0]);
}

/// One file of two runs, each printing its samples and then its mean
/// (a loop's log): a part per run, each with its own samples and
/// mean, neither mean lost to the other.
#[test]
fn a_file_that_states_its_summary_again_is_a_part_per_run() {
    let row = |stat: Stat, x: f64, line: u32, run: Option<u32>| {
        let mut o = Observation::new("b", "t", "s", stat, x).with_variant("a");
        o.source = "loop.txt".into();
        o.line = line;
        o.run = run;
        o
    };
    let data = Dataset::new(vec![
        row(Stat::Sample, 1.0, 2, Some(0)),
        row(Stat::Sample, 3.0, 3, Some(1)),
        row(Stat::Mean, 2.0, 4, None),
        row(Stat::Sample, 5.0, 7, Some(2)),
        row(Stat::Sample, 7.0, 8, Some(3)),
        row(Stat::Mean, 6.0, 9, None),
    ]);
    let g = group(&data, "a", &Default::default()).unwrap();
    let v = &g[0].variants[0];
    assert_eq!(v.samples, [1.0, 3.0, 5.0, 7.0]);
    let parts: Vec<(u32, &[f64], Option<f64>)> = v
        .parts
        .iter()
        .map(|p| (p.line, p.samples.as_slice(), p.mean))
        .collect();
    assert_eq!(
        parts,
        [
            (2, &[1.0, 3.0][..], Some(2.0)),
            (7, &[5.0, 7.0][..], Some(6.0))
        ]
    );
    // Stated once: one part, as before.
    let data = Dataset::new(data.to_observations()[..3].to_vec());
    let g = group(&data, "a", &Default::default()).unwrap();
    assert!(g[0].variants[0].parts.is_empty());
}

/// Given up, the rows' long series become their groups' samples in
/// the memory that held them as rows; one whose runs count down is
/// copied (to be put in run order), and every group reads as when
/// built from borrowed rows.
#[test]
fn long_series_move_into_their_groups_without_a_copy() {
    let n = TAKE_ROWS + 5;
    let side = |variant: &str, shift: f64| {
        let template = Observation::sample("b", "time", "s", 0.0).with_variant(variant);
        // Room for the stated mean after the samples.
        let mut values = Vec::with_capacity(n + 1);
        values.extend((0..n).map(|i| shift + (i % 13) as f64 * 0.01));
        let at = values.as_ptr();
        let mut d = Dataset::default();
        d.push_values_vec(&template, values, Some(0));
        d.push(Observation::new("b", "time", "s", Stat::Mean, shift + 0.06).with_variant(variant));
        (d, at)
    };
    let (mut data, base_at) = side("base", 1.0);
    let (patched, patched_at) = side("patched", 1.1);
    data.append(patched);
    // Runs counting down: put in run order, so copied.
    let down: Vec<Observation> = (0..n as u32)
        .map(|i| {
            Observation::sample("c", "time", "s", f64::from(i % 7))
                .with_variant("base")
                .with_run(n as u32 - i)
        })
        .collect();
    data.append(Dataset::new(down));
    let reference = group(&data, "base", &Default::default()).unwrap();
    let b = buckets(&data);
    let mut raw = build_groups(&data, &b, "base", &Default::default(), true).unwrap();
    assert_eq!(raw[0].variants[0].in_rows, Some(0));
    assert!(raw[0].variants[0].samples.is_empty());
    assert_eq!(raw[1].variants[0].in_rows, None);
    drop(b);
    settle(&mut raw, data);
    assert_eq!(raw[0].variants[0].samples.as_ptr(), base_at);
    assert_eq!(raw[0].variants[1].samples.as_ptr(), patched_at);
    assert_eq!(raw.len(), reference.len());
    for (g, r) in raw.iter().zip(&reference) {
        assert_eq!(g.benchmark, r.benchmark);
        for (v, w) in g.variants.iter().zip(&r.variants) {
            assert_eq!((&v.name, v.in_rows, v.mean), (&w.name, None, w.mean));
            assert_eq!(v.samples, w.samples, "{} {}", g.benchmark, v.name);
        }
    }
    assert_eq!(raw[1].variants[0].samples[..2], [6.0, 5.0]);
}

#[test]
fn direction_settings_beat_the_input_which_beats_the_guess() {
    let mut stated = Observation::sample("b", "hits", "", 1.0).with_variant("base");
    stated.direction = Some(Direction::Lower);
    let data = Dataset::new(vec![
        stated,
        Observation::sample("b", "hits", "", 2.0).with_variant("new"),
    ]);
    let g = group(&data, "base", &Default::default()).unwrap();
    assert_eq!(g[0].direction, Direction::Lower, "stated by the input");
    let mut over = std::collections::BTreeMap::new();
    over.insert("hits".to_string(), Direction::Higher);
    let g = group(&data, "base", &over).unwrap();
    assert_eq!(g[0].direction, Direction::Higher, "the user's word wins");
    let guess = Dataset::new(vec![
        Observation::sample("b", "hits", "", 1.0).with_variant("base")
    ]);
    let g = group(&guess, "base", &Default::default()).unwrap();
    assert_eq!(g[0].direction, Direction::Higher, "guessed from the name");
}
