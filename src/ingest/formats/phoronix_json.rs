//! Phoronix Test Suite results exported as JSON
//! (`phoronix-test-suite result-file-to-json NAME`): the saved result of
//! [`super::phoronix`] as an object, `systems` keyed by identifier and
//! `results` keyed by the test's comparison hash.
//!
//! Each result is one test: `title` the benchmark, `description` the
//! parameters, `scale` the unit and `proportion` the direction, as in the
//! XML. Under its own `results`, each system (the variant) has the
//! `raw_values` of its runs, one sample each, and `value`, the mean the
//! suite computed, read when there are no runs.

use crate::error::Result;
use crate::ingest::formats::phoronix::description_params;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Direction, Observation, Stat};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;

/// The Phoronix Test Suite JSON export importer.
pub struct PhoronixJson;

/// A JSON object with its keys in file order (serde_json's own map sorts
/// them, and the tests of a result file have an order worth keeping).
struct Ordered<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, T>()? {
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
struct Export {
    #[serde(default)]
    results: Option<Ordered<TestResult>>,
}

#[derive(Deserialize)]
struct TestResult {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    scale: Option<String>,
    #[serde(default)]
    proportion: Option<String>,
    #[serde(default)]
    results: Option<Ordered<Entry>>,
}

#[derive(Deserialize)]
struct Entry {
    /// A number, or a string for results that are no number (a pass or
    /// fail outcome).
    #[serde(default)]
    value: Option<serde_json::Value>,
    #[serde(default)]
    raw_values: Vec<f64>,
}

impl Format for PhoronixJson {
    fn name(&self) -> &'static str {
        "phoronix-json"
    }

    fn description(&self) -> &'static str {
        "Phoronix Test Suite result-file-to-json export: one row per run of each system and test"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !src.looks_like_json() {
            return 0;
        }
        // Keys only this export writes together: a system's
        // `client_version` and a result's `proportion` and `raw_values`.
        let head = &src.raw[..src.raw.len().min(200_000)];
        let keys = [
            "\"systems\"",
            "\"results\"",
            "\"proportion\"",
            "\"raw_values\"",
        ];
        if keys.iter().all(|k| head.contains(k)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let export: Export = parse_json(src, "Phoronix Test Suite JSON export")?;
        let mut out = Vec::new();
        let mut from = 0;
        for (hash, result) in export.results.map(|r| r.0).unwrap_or_default() {
            // The line of the result's key, for the accounting.
            let at = src.raw[from..]
                .find(&format!("\"{hash}\""))
                .map_or(from, |i| from + i);
            from = at;
            let line = src.raw[..at].matches('\n').count() as u32 + 1;
            let title = result.title.as_deref().unwrap_or("phoronix");
            let params = description_params(result.description.as_deref().unwrap_or(""));
            let unit = result.scale.as_deref().unwrap_or("");
            let direction = match result.proportion.as_deref() {
                Some("HIB") => Some(Direction::Higher),
                Some("LIB") => Some(Direction::Lower),
                _ => None,
            };
            for (system, entry) in result.results.map(|r| r.0).unwrap_or_default() {
                let mk = |stat: Stat, value: f64| {
                    let mut o = Observation::new(title, "result", unit, stat, value)
                        .with_params(&params)
                        .with_variant(system.as_str())
                        .at_line(line);
                    o.direction = direction;
                    o
                };
                if !entry.raw_values.is_empty() {
                    for (run, v) in entry.raw_values.iter().enumerate() {
                        out.push(mk(Stat::Sample, *v).with_run(run as u32));
                    }
                } else if let Some(v) = entry.value.as_ref().and_then(serde_json::Value::as_f64) {
                    out.push(mk(Stat::Mean, v));
                }
            }
        }
        // The systems' descriptions and the markup are the structure the
        // values sit in.
        let consumed = src.lines.iter().map(|l| l.number).collect();
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "a Phoronix JSON export without a result value",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_samples_in_file_order_and_a_bare_value_is_the_mean() {
        let text = r#"{"systems": {"b": {"client_version": "10.8.6"}},
 "results": {
  "ff": {"title": "T", "description": "Test: CPU", "scale": "Events/sec", "proportion": "HIB",
         "results": {"b": {"value": 2.5, "raw_values": [2.0, 3.0]}, "a": {"value": 7.25}}},
  "00": {"title": "U", "scale": "s", "proportion": "LIB", "results": {"a": {"value": "PASS"}}}
 }}"#;
        let src = Source::from_text("r.json", text);
        assert_eq!(PhoronixJson.detect(&src), 95);
        let rows = PhoronixJson.parse(&src).unwrap();
        let got: Vec<(&str, &str, &str, &str, f64)> = rows
            .iter()
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.variant.as_str(),
                    o.params.as_str(),
                    o.stat.name(),
                    o.value,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("T", "b", "test=CPU", "sample", 2.0),
                ("T", "b", "test=CPU", "sample", 3.0),
                ("T", "a", "test=CPU", "mean", 7.25),
            ]
        );
        assert_eq!(rows[0].direction, Some(Direction::Higher));
        assert_eq!(rows[0].line, 3);
    }
}
