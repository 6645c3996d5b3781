//! Unit tests of the document reader on small documents.

use super::*;

fn read(text: &str) -> Vec<Observation> {
    Document.parse(&Source::from_text("doc.txt", text)).unwrap()
}

fn find<'a>(
    obs: &'a [Observation],
    variant: &str,
    metric: &str,
    stat: Stat,
) -> Vec<&'a Observation> {
    obs.iter()
        .filter(|o| o.variant.contains(variant) && o.metric == metric && o.stat == stat)
        .collect()
}

#[test]
fn summary_rows_under_a_latency_header_with_iterations() {
    let doc = "Case A: all threads alike\n* with simple list:\nIterations=5000\nLatency (us)      min      max      avg      stddev\n                  3869     7400  6656.73      539.35\n";
    let obs = read(doc);
    let mean = find(&obs, "simple list", "latency", Stat::Mean);
    assert_eq!(mean.len(), 1);
    assert_eq!(
        (mean[0].value, mean[0].unit.as_str(), mean[0].line),
        (6656.73, "us", 5)
    );
    assert_eq!(mean[0].benchmark, "Case A: all threads alike");
    let n = find(&obs, "simple list", "latency", Stat::N);
    assert_eq!((n[0].value, n[0].line), (5000.0, 3));
    assert_eq!(
        find(&obs, "simple list", "latency", Stat::Min)[0].value,
        3869.0
    );
    assert_eq!(
        find(&obs, "simple list", "latency", Stat::Stddev)[0].value,
        539.35
    );
}
