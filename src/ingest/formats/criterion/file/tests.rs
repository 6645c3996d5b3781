use super::*;
use crate::ingest::Format;

const TREE: &str = "tests/data/harness/criterion";

/// (benchmark, params, variant, stat, unit, value) of each row.
fn rows(path: &str) -> Vec<(String, String, String, Stat, String, f64)> {
    let src = Source::read(std::path::Path::new(path)).unwrap();
    assert!(CriterionFile.detect(&src) >= 90, "{path} not detected");
    CriterionFile
        .parse(&src)
        .unwrap()
        .into_iter()
        .map(|o| {
            let names = (o.benchmark.to_string(), o.params.to_string());
            (
                names.0,
                names.1,
                o.variant.to_string(),
                o.stat,
                o.unit.to_string(),
                o.value,
            )
        })
        .collect()
}

fn row(
    b: &str,
    p: &str,
    v: &str,
    stat: Stat,
    unit: &str,
    x: f64,
) -> (String, String, String, Stat, String, f64) {
    (b.into(), p.into(), v.into(), stat, unit.into(), x)
}

#[test]
fn estimates_of_a_run_named_by_the_folders_below_criterion() {
    let got = rows(&format!("{TREE}/two_sample/welch/5/new/estimates.json"));
    let p = "function=welch,parameter=5";
    assert_eq!(
        got,
        [
            row("two_sample", p, "new", Stat::Mean, "ns", 1029.665350851381),
            row("two_sample", p, "new", Stat::CiLow, "ns", 995.2584135155548),
            row("two_sample", p, "new", Stat::CiHigh, "ns", 1074.55736149298),
            row(
                "two_sample",
                p,
                "new",
                Stat::Median,
                "ns",
                986.1080288639305
            ),
            row(
                "two_sample",
                p,
                "new",
                Stat::Stddev,
                "ns",
                93.61438400798065
            ),
        ]
    );
}

#[test]
fn change_estimates_are_the_new_run_s_stated_change() {
    let got = rows(&format!("{TREE}/two_sample/welch/5/change/estimates.json"));
    let p = "function=welch,parameter=5";
    assert_eq!(
        got,
        [row(
            "two_sample",
            p,
            "new",
            Stat::ChangePct,
            "ns",
            5.467117866918447
        )]
    );
    // The older capitalised keys; a folder of two id levels.
    let got = rows(&format!("{TREE}/Fibonacci/Iterative/change/estimates.json"));
    assert_eq!(
        got,
        [row(
            "Fibonacci",
            "function=Iterative",
            "new",
            Stat::ChangePct,
            "ns",
            0.2615814736259159
        )]
    );
}

#[test]
fn samples_are_time_per_iteration_in_both_forms() {
    let got = rows(&format!("{TREE}/two_sample/welch/5/new/sample.json"));
    assert_eq!(got.len(), 20);
    // 4747945 ns over 4808 iterations.
    let first = row(
        "two_sample",
        "function=welch,parameter=5",
        "new",
        Stat::Sample,
        "ns",
        4747945.0 / 4808.0,
    );
    assert_eq!(got[0], first);
    // `[[iters…],[times…]]`: 1128000 ns over 209454 iterations.
    let old = rows(&format!("{TREE}/Fibonacci/Iterative/base/sample.json"));
    assert_eq!(old.len(), 100);
    let first = row(
        "Fibonacci",
        "function=Iterative",
        "base",
        Stat::Sample,
        "ns",
        1128000.0 / 209454.0,
    );
    assert_eq!(old[0], first);
}

#[test]
fn raw_csv_is_named_by_its_columns_and_agrees_with_sample_json() {
    let path = format!("{TREE}/Fibonacci/Iterative/base/raw.csv");
    let csv = rows(&path);
    let json = rows(&format!("{TREE}/Fibonacci/Iterative/base/sample.json"));
    assert_eq!(csv, json);
    let src = Source::read(std::path::Path::new(&path)).unwrap();
    let parsed = CriterionFile.parse_accounted(&src).unwrap();
    assert_eq!(parsed.consumed, [1]);
    assert_eq!(parsed.observations[0].line, 2);
}

#[test]
fn raw_csv_of_criterion_0_3_has_its_unit_and_throughput() {
    // The layout Criterion's book shows for `raw.csv` since 0.3, with a
    // throughput line added in the form its writer gives it.
    let text = "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count\n\
                Fibonacci,Iterative,,,,915000,ns,110740\n\
                parse,json,64,64,bytes,2000,ns,10\n";
    let src = Source::from_text("raw.csv", text);
    assert_eq!(CriterionFile.detect(&src), 95);
    let got: Vec<(String, String, String, f64, u32)> = CriterionFile
        .parse(&src)
        .unwrap()
        .into_iter()
        .map(|o| {
            (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.unit.to_string(),
                o.value,
                o.line,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "Fibonacci".into(),
                "function=Iterative".into(),
                "ns".into(),
                915000.0 / 110740.0,
                2
            ),
            (
                "parse".into(),
                "function=json,parameter=64".into(),
                "ns".into(),
                200.0,
                3
            ),
            // 64 bytes in 200 ns.
            (
                "parse".into(),
                "function=json,parameter=64".into(),
                "B/s".into(),
                64.0 / 200e-9,
                3
            ),
        ]
    );
}

#[test]
fn a_run_s_benchmark_json_names_it_wherever_it_lies() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("anywhere").join("new");
    std::fs::create_dir_all(&run).unwrap();
    let from = format!("{TREE}/two_sample/welch/5/new/estimates.json");
    std::fs::copy(from, run.join("estimates.json")).unwrap();
    // As Criterion 0.8 wrote it for this run.
    let meta = r#"{"group_id":"two_sample","function_id":"welch","value_str":"5","throughput":{"Elements":5},"full_id":"two_sample/welch/5","directory_name":"two_sample/welch/5","title":"two_sample/welch/5"}"#;
    std::fs::write(run.join("benchmark.json"), meta).unwrap();
    let got = rows(run.join("estimates.json").to_str().unwrap());
    assert_eq!(got[0].0, "two_sample");
    assert_eq!(got[0].1, "function=welch,parameter=5");
    assert_eq!(got[0].2, "new");
    // The samples get the throughput benchmark.json states.
    let sample = format!("{TREE}/two_sample/welch/5/new/sample.json");
    std::fs::copy(sample, run.join("sample.json")).unwrap();
    let got = rows(run.join("sample.json").to_str().unwrap());
    assert_eq!(got.len(), 40);
    assert_eq!(
        (got[1].4.as_str(), got[1].5),
        ("elem/s", 5.0 / (got[0].5 * 1e-9))
    );
}

#[test]
fn a_file_outside_a_tree_is_named_by_itself() {
    let got = rows("tests/data/harness/criterion-lone/criterion.json");
    assert_eq!(
        got[0],
        row("criterion", "", "", Stat::Mean, "ns", 1250000.0)
    );
    assert_eq!(got.len(), 4, "{got:?}");
}

#[test]
fn bad_files_say_what_is_wrong() {
    let err = |name: &str, text: &str| {
        CriterionFile
            .parse(&Source::from_text(name, text))
            .unwrap_err()
            .to_string()
    };
    let e = err(
        "x/raw.csv",
        "group,function,value,sample_time_nanos,iteration_count\nF,I,,12,0\n",
    );
    assert!(
        e.contains("x/raw.csv:2") && e.contains("iteration count 0"),
        "{e}"
    );
    let e = err(
        "x/raw.csv",
        "group,function,value,sample_time_nanos,iteration_count\nF,I,,12\n",
    );
    assert!(
        e.contains("x/raw.csv:2") && e.contains("expected 5 cells"),
        "{e}"
    );
    let e = err(
        "x/raw.csv",
        "group,function,value,sample_time_nanos,iteration_count\nF,I,,abc,3\n",
    );
    assert!(e.contains("`abc` is not a number"), "{e}");
    let e = err(
        "sample.json",
        r#"{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[5.0]}"#,
    );
    assert!(e.contains("2 iteration counts but 1 times"), "{e}");
    let e = err("estimates.json", r#"{"mean":{"point_estimate":1}"#);
    assert!(e.contains("estimates.json"), "{e}");
}
