//! critcmp `--export` files: one saved Criterion baseline as JSON,
//! `{"name": …, "benchmarks": {id: {"criterion_benchmark_v1": …,
//! "criterion_estimates_v1": …}}}`. Summaries only (critcmp keeps no
//! samples); the baseline name is the variant, so two exports compare
//! directly.

use crate::error::Result;
use crate::ingest::formats::criterion::dir::Estimates;
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Observation};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The critcmp export importer.
pub struct Critcmp;

#[derive(Deserialize)]
struct Export {
    name: String,
    benchmarks: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
struct Entry {
    criterion_benchmark_v1: Id,
    criterion_estimates_v1: Estimates,
}

#[derive(Deserialize)]
struct Id {
    group_id: String,
    #[serde(default)]
    function_id: Option<String>,
    #[serde(default)]
    value_str: Option<String>,
}

impl Format for Critcmp {
    fn name(&self) -> &'static str {
        "critcmp"
    }

    fn description(&self) -> &'static str {
        "critcmp --export JSON: \"benchmarks\" entries with \"criterion_estimates_v1\"; the baseline name is the variant"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src.looks_like_json() && src.raw.contains("\"criterion_estimates_v1\"") {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let export: Export = parse_json(src, "critcmp export")?;
        let mut out = Vec::new();
        for (id, e) in &export.benchmarks {
            let b = &e.criterion_benchmark_v1;
            let mut p: Vec<(&str, &str)> = Vec::new();
            if let Some(f) = &b.function_id {
                p.push(("function", f));
            }
            if let Some(v) = &b.value_str {
                p.push(("parameter", v));
            }
            let params = canonical_params(&p);
            for (stat, v) in e.criterion_estimates_v1.stated() {
                let v = finite(src, None, v, &format!("{id} {stat}"))?;
                out.push(
                    Observation::new(b.group_id.as_str(), "time", "ns", stat, v)
                        .with_params_str(params.clone())
                        .with_variant(export.name.as_str()),
                );
            }
        }
        Ok(out.into())
    }
}
