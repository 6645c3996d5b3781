//! The observations of list lines: `key=value` pairs and values keyed by
//! the words before them.

use super::*;

/// The observations of one `key=value` line.
pub(super) fn emit_pairs(
    line: u32,
    prefix: &str,
    ps: &[(String, Tok)],
    n: &Names,
    out: &mut Vec<Observation>,
) {
    let prefix_unit = unit_in(prefix);
    let benchmark = if n.title.is_empty() { n.stem } else { n.title };
    for (key, t) in ps {
        let unit = if t.unit.is_empty() {
            prefix_unit.clone().unwrap_or_default()
        } else {
            t.unit.clone()
        };
        let (variant, metric) = if variant_like(key) {
            let m = if prefix.is_empty() {
                "value".to_string()
            } else {
                prefix.to_string()
            };
            (key.as_str(), m)
        } else {
            let m = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix} {key}")
            };
            (n.section, m)
        };
        let stat = match t.kind {
            TokKind::Change => Stat::ChangePct,
            TokKind::Spread => Stat::Stddev,
            _ => key.parse::<Stat>().unwrap_or(Stat::Sample),
        };
        push(
            out, n.path, benchmark, "", variant, &metric, &unit, stat, t.value, line,
        );
    }
}

/// The observations of a line of values among words, read by the
/// low-confidence fallback: each value named by the line's label and the
/// words before it.
pub(super) fn emit_keyed(
    line: u32,
    label: &str,
    ps: &[(String, Tok)],
    n: &Names,
    out: &mut Vec<Observation>,
) {
    // The file's name stands in for a benchmark nothing names, never for
    // a title over a row that has its own label (as in the table reader).
    let benchmark = if label.is_empty() {
        let title = if n.title.is_empty() { n.stem } else { n.title };
        title.to_string()
    } else {
        super::super::titles::row_benchmark(n.title, label)
    };
    for (key, t) in ps {
        let stat = match t.kind {
            TokKind::Change => Stat::ChangePct,
            TokKind::Spread => Stat::Stddev,
            _ => Stat::Sample,
        };
        let metric = if key.is_empty() {
            "value"
        } else {
            key.as_str()
        };
        push(
            out, n.path, &benchmark, "", n.section, metric, &t.unit, stat, t.value, line,
        );
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn push(
    out: &mut Vec<Observation>,
    path: &str,
    benchmark: &str,
    params: &str,
    variant: &str,
    metric: &str,
    unit: &str,
    stat: Stat,
    value: f64,
    line: u32,
) {
    let mut o = Observation::new(benchmark, metric, unit, stat, value)
        .at_line(line)
        .with_variant(variant)
        .with_params_str(params);
    o.source = SmolStr::new(path);
    out.push(o);
}
