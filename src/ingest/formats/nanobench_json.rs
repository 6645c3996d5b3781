//! nanobench's JSON template (`ankerl::nanobench::templates::json()`
//! rendered after a run): `results[]`, one per benchmark, each with its
//! `title`, `name`, `unit` (what one operation is, `op` by default), the
//! run's settings (`epochs`, `batch`, `clockResolution` …), the medians
//! and median absolute percentage errors it printed
//! (`median(elapsed)`, `medianAbsolutePercentError(elapsed)`, …,
//! `totalTime`), and `measurements[]`: per epoch its `iterations` and
//! each figure per unit (`elapsed` in seconds, `instructions`,
//! `cpucycles`, `branchinstructions`, `branchmisses`, `pagefaults`,
//! `contextswitches`).
//!
//! Benchmark the `name`; metrics as the console table's (`nanobench`):
//! `time/UNIT` in s, `ins/UNIT`, `cyc/UNIT`, `bra/UNIT`, `miss/UNIT`,
//! `pagefaults/UNIT`, `contextswitches/UNIT`, each epoch a sample and the
//! stated median a `median`; `err` (the elapsed time's median absolute
//! percentage error, in %) and `total time` (s) as samples of the run.
//! A counter nanobench could not read (no `perf` access: no key) gives no
//! row.

use crate::error::Result;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{rescale, Observation, Stat};
use serde_json::{Map, Value};

/// The nanobench JSON importer.
pub struct NanobenchJson;

/// A figure's key in `measurements[]` (and, as `median(KEY)`, in the
/// result), the metric's stem and its unit.
const FIGURES: [(&str, &str, &str); 7] = [
    ("elapsed", "time", "s"),
    ("instructions", "ins", ""),
    ("cpucycles", "cyc", ""),
    ("branchinstructions", "bra", ""),
    ("branchmisses", "miss", ""),
    ("pagefaults", "pagefaults", ""),
    ("contextswitches", "contextswitches", ""),
];

impl Format for NanobenchJson {
    fn name(&self) -> &'static str {
        "nanobench-json"
    }

    fn description(&self) -> &'static str {
        "nanobench's JSON template: results[] with medians (`median(elapsed)` …) and per-epoch measurements[] per unit"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let has = |k: &str| raw.contains(k);
        if src.looks_like_json()
            && has("\"results\"")
            && has("\"median(elapsed)\"")
            && has("\"measurements\"")
        {
            95
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc: Value = parse_json(src, "nanobench JSON")?;
        let mut out = Vec::new();
        let results = doc.get("results").and_then(Value::as_array);
        for r in results.into_iter().flatten().filter_map(Value::as_object) {
            result(src, r, &mut out);
        }
        if out.is_empty() {
            return Err(src.error(
                Some(1),
                "nanobench JSON without a result (`results[]` with `median(elapsed)`)",
            ));
        }
        Ok(Parsed::from(out))
    }
}

/// The rows of one benchmark's result.
fn result(src: &Source, r: &Map<String, Value>, out: &mut Vec<Observation>) {
    let name = r.get("name").and_then(Value::as_str).unwrap_or("");
    let unit = r.get("unit").and_then(Value::as_str).unwrap_or("op");
    let row = Row::at(src, 0).benchmark(name);
    let get = |k: &str| r.get(k).and_then(Value::as_f64).filter(|v| v.is_finite());
    let epochs: Vec<&Map<String, Value>> = r
        .get("measurements")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    for (key, stem, u) in FIGURES {
        let metric = format!("{stem}/{unit}");
        let series = row.clone().metric(&metric).unit(u);
        if let Some(m) = get(&format!("median({key})")) {
            out.push(series.clone().stat(Stat::Median, m));
        }
        for e in &epochs {
            if let Some(v) = e.get(key).and_then(Value::as_f64).filter(|v| v.is_finite()) {
                out.push(series.clone().sample(v));
            }
        }
    }
    if let Some(e) = get("medianAbsolutePercentError(elapsed)") {
        out.push(
            row.clone()
                .metric("err")
                .unit("%")
                .sample(rescale(e, 100.0)),
        );
    }
    if let Some(t) = get("totalTime") {
        out.push(row.metric("total time").unit("s").sample(t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn medians_and_each_epoch_per_op() {
        let p = parse_file(
            &NanobenchJson,
            "tests/data/harness/nanobench/mustache-render.json",
        );
        let of = |bench: &str, metric: &str, stat: Stat| -> Vec<f64> {
            p.observations
                .iter()
                .filter(|o| o.benchmark == bench && o.metric == metric && o.stat == stat)
                .map(|o| o.value)
                .collect()
        };
        let mt = "std::mt19937_64";
        assert_eq!(of(mt, "time/op", Stat::Median), [2.54441805225653e-08]);
        let epochs = of(mt, "time/op", Stat::Sample);
        assert_eq!(epochs.len(), 11);
        assert_eq!(epochs[1], 2.58467243510507e-08);
        assert_eq!(of(mt, "cyc/op", Stat::Sample)[0], 81.472);
        assert_eq!(
            of("std::knuth_b", "total time", Stat::Sample),
            [0.000217248]
        );
        assert_eq!(of(mt, "err", Stat::Sample), [2.36579384033733]);
    }
}
