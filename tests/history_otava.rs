//! Parity with Apache Otava: the change points of `stats::changepoint::otava`
//! must be exactly Otava's on its own TigerBeetle test and on the generated
//! series of `scripts/otava_fixtures.py` (expectations computed by the
//! `apache-otava` package; see tests/data/history/README.md).

use patchperf::stats::changepoint::otava;
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!("{}/tests/data/history/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn values(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn indexes(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

fn ours(xs: &[f64], case: &Value) -> Vec<usize> {
    otava(
        xs,
        case["window_len"].as_u64().unwrap() as usize,
        case["max_pvalue"].as_f64().unwrap(),
        case["min_magnitude"].as_f64().unwrap(),
    )
    .iter()
    .map(|c| c.index)
    .collect()
}

#[test]
fn tigerbeetle_every_parameter_set_of_otavas_test() {
    let doc = load("tigerbeetle.json");
    let xs = values(&doc["values"]);
    assert_eq!(xs.len(), 365);
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 10);
    for case in cases {
        let want = indexes(&case["expected"]);
        assert_eq!(
            indexes(&case["otava"]),
            want,
            "fixture disagrees with Otava's test"
        );
        assert_eq!(ours(&xs, case), want, "{}", case["test"]);
    }
    // The headline case, spelled out.
    assert_eq!(
        otava(&xs, 30, 0.01, 0.05)
            .iter()
            .map(|c| c.index)
            .collect::<Vec<_>>(),
        [15, 71]
    );
}

#[test]
fn generated_series_match_the_apache_otava_package() {
    let doc = load("otava_generated.json");
    let series = doc["series"].as_array().unwrap();
    assert!(series.len() >= 50, "{} series", series.len());
    let mut checked = 0;
    let mut points = 0;
    let mut failures = Vec::new();
    for s in series {
        let xs = values(&s["values"]);
        for case in s["cases"].as_array().unwrap() {
            let want = indexes(&case["otava"]);
            let got = ours(&xs, case);
            points += want.len();
            checked += 1;
            if got != want {
                failures.push(format!(
                    "{} w={} p={} m={}: otava {want:?}, ours {got:?}",
                    s["name"], case["window_len"], case["max_pvalue"], case["min_magnitude"]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 427);
    assert_eq!(points, 3199);
}
