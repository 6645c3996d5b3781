//! Which variant is the baseline, the order variants are shown in, their colours and slugs.

use super::*;
use crate::analysis::Analysis;
use std::collections::HashMap;

/// The colour-blind-safe Okabe-Ito palette, baseline first.
pub const PALETTE: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#999999",
];

/// The baseline's name: the setting, or the baseline of the first comparison,
/// or the first variant of the first group.
pub fn baseline_name(a: &Analysis) -> String {
    a.settings
        .baseline
        .clone()
        .or_else(|| a.comparisons.first().map(|c| c.baseline.clone()))
        .or_else(|| {
            a.groups
                .first()
                .and_then(|g| g.variants.first())
                .map(|v| v.variant.clone())
        })
        .unwrap_or_else(|| "baseline".into())
}

/// Every variant name, baseline first, then in order of appearance.
pub fn variant_order(a: &Analysis, ctx: &ReportContext) -> Vec<String> {
    let mut out = vec![baseline_name(a)];
    let mut push = |v: &str| {
        if !out.iter().any(|o| o == v) {
            out.push(v.to_string());
        }
    };
    for v in &ctx.variants {
        push(&v.name);
    }
    for g in &a.groups {
        for v in &g.variants {
            push(&v.variant);
        }
    }
    for c in &a.comparisons {
        push(&c.variant);
    }
    out
}

/// Colour of every variant, stable across charts.
pub fn colors(order: &[String]) -> HashMap<String, String> {
    order
        .iter()
        .enumerate()
        .map(|(i, v)| (v.clone(), PALETTE[i % PALETTE.len()].to_string()))
        .collect()
}

/// A lower-case file- and anchor-safe slug.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let t = out.trim_end_matches('-');
    let t: String = t.chars().take(48).collect();
    if t.is_empty() {
        "x".into()
    } else {
        t
    }
}
