//! Grouping comparisons into families (one benchmark and metric over its parameters) and reading their parameters.

use super::format::Scale;
use super::*;
use crate::analysis::{Analysis, Group, VariantSummary};
use std::collections::HashMap;

/// A group family: one benchmark and metric with all its parameter values.
pub struct Family<'a> {
    /// The benchmark.
    pub benchmark: &'a str,
    /// The metric.
    pub metric: &'a str,
    /// Its groups, one per parameter set.
    pub groups: Vec<&'a Group>,
    /// Its id in the page, for links.
    pub anchor: String,
    /// The unit its values are shown in, and the factor to it.
    pub scale: Scale,
    /// The numeric parameter that varies across the groups, if exactly one does.
    pub sweep: Option<String>,
    /// Parameters every group of the family shares (`k=v,…`), shown once.
    pub fixed: String,
    /// The benchmark, with the metric when the benchmark has several.
    pub name: String,
}

impl Family<'_> {
    /// The parameters of `params` that vary within the family.
    pub fn varying(&self, params: &str) -> String {
        let fixed = parse_params(&self.fixed);
        parse_params(params)
            .into_iter()
            .filter(|kv| !fixed.contains(kv))
            .map(|(k, v)| if k.is_empty() { v } else { format!("{k}={v}") })
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Splits groups into families in order of first appearance.
pub fn families(a: &Analysis) -> Vec<Family<'_>> {
    let mut out: Vec<Family<'_>> = Vec::new();
    for g in &a.groups {
        match out.iter_mut().find(|f| {
            f.benchmark == g.benchmark && f.metric == g.metric && f.groups[0].unit == g.unit
        }) {
            Some(f) => f.groups.push(g),
            None => out.push(Family {
                benchmark: &g.benchmark,
                metric: &g.metric,
                groups: vec![g],
                anchor: String::new(),
                scale: Scale {
                    factor: 1.0,
                    unit: String::new(),
                },
                sweep: None,
                fixed: String::new(),
                name: String::new(),
            }),
        }
    }
    // Benchmarks measured in several metrics name the metric everywhere.
    let mut metrics_of: HashMap<&str, Vec<&str>> = HashMap::new();
    for f in &out {
        let m = metrics_of.entry(f.benchmark).or_default();
        if !m.contains(&f.metric) {
            m.push(f.metric);
        }
    }
    let multi_metric: HashMap<&str, usize> =
        metrics_of.iter().map(|(b, m)| (*b, m.len())).collect();
    for (i, f) in out.iter_mut().enumerate() {
        let name = if multi_metric.get(f.benchmark).copied().unwrap_or(0) > 1 {
            format!("{} {}", f.benchmark, f.metric)
        } else {
            f.benchmark.to_string()
        };
        f.anchor = format!("b{}-{}", i + 1, slug(&name));
        f.name = name;
        let typical = f
            .groups
            .iter()
            .flat_map(|g| g.variants.iter())
            .filter_map(centre)
            .map(f64::abs)
            .fold(
                f64::NAN,
                |acc: f64, v| if acc.is_nan() { v } else { acc.max(v) },
            );
        f.scale = Scale::for_values(&f.groups[0].unit, typical);
        f.sweep = sweep_param(&f.groups);
        let first = parse_params(&f.groups[0].params);
        f.fixed = first
            .into_iter()
            .filter(|kv| {
                f.groups
                    .iter()
                    .all(|g| parse_params(&g.params).contains(kv))
            })
            .map(|(k, v)| if k.is_empty() { v } else { format!("{k}={v}") })
            .collect::<Vec<_>>()
            .join(",");
    }
    out
}

/// The centre a variant is drawn and scaled at: the median of samples,
/// the mean of a stated summary (which seldom states a median).
pub fn centre(v: &VariantSummary) -> Option<f64> {
    if v.from_summary {
        v.mean
    } else {
        v.median.or(v.mean)
    }
}

/// The variants of a group in report order (baseline first).
pub fn in_order<'a>(vs: &'a [VariantSummary], order: &[String]) -> Vec<&'a VariantSummary> {
    let mut v: Vec<&VariantSummary> = vs.iter().collect();
    v.sort_by_key(|s| {
        order
            .iter()
            .position(|o| o == &s.variant)
            .unwrap_or(usize::MAX)
    });
    v
}

/// Parses `k=v,k2=v2` into pairs.
pub fn parse_params(p: &str) -> Vec<(String, String)> {
    p.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (String::new(), kv.trim().to_string()),
        })
        .collect()
}

/// The one numeric parameter that varies across `groups` while the others
/// stay fixed; `None` when there is none or several vary.
pub(super) fn sweep_param(groups: &[&Group]) -> Option<String> {
    if groups.len() < 2 {
        return None;
    }
    let parsed: Vec<Vec<(String, String)>> =
        groups.iter().map(|g| parse_params(&g.params)).collect();
    let keys: Vec<String> = parsed[0].iter().map(|(k, _)| k.clone()).collect();
    let mut varying = Vec::new();
    for k in &keys {
        let vals: Vec<Option<&String>> = parsed
            .iter()
            .map(|ps| ps.iter().find(|(kk, _)| kk == k).map(|(_, v)| v))
            .collect();
        if vals.iter().any(|v| v.is_none()) {
            return None;
        }
        let first = vals[0];
        if vals.iter().any(|v| *v != first) {
            varying.push((k.clone(), vals));
        }
    }
    if varying.len() != 1 {
        return None;
    }
    let (k, vals) = &varying[0];
    vals.iter()
        .all(|v| v.is_some_and(|s| s.parse::<f64>().is_ok_and(f64::is_finite)))
        .then(|| k.clone())
}

/// The value of parameter `key` in `params`, as a number.
pub fn param_value(params: &str, key: &str) -> Option<f64> {
    parse_params(params)
        .into_iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.parse().ok())
}
