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
            t.unit.to_string()
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
        // A value named by nothing but its unit (a word: `%` names no
        // quantity) is told from the line's others by it (`4.5 C/MHz  132
        // mW`): one series of `value` would mix quantities.
        let metric = match (key.is_empty(), t.unit.as_str()) {
            (false, _) => key.clone(),
            (true, u) if t.kind != TokKind::Num || !u.chars().any(char::is_alphabetic) => {
                "value".to_string()
            }
            (true, u) => match super::super::table::metric_from_unit(u) {
                m if m == "value" => u.to_string(),
                m => m,
            },
        };
        push(
            out, n.path, &benchmark, "", n.section, &metric, &t.unit, stat, t.value, line,
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

/// Gives back the first key of keyed lines that read it as the end of
/// their label (`qstr . time_1 0.020531 time_2 0.005786`: label `qstr .
/// time_1`, the first value unkeyed). In a run of two or more keyed lines
/// whose first values have no key and whose labels end in the same word
/// while what comes before it differs, that word keys the first value as
/// the words between the values key the others.
pub(super) fn first_keys(kinds: &mut [LineKind]) {
    let mut i = 0;
    while i < kinds.len() {
        let mut j = i;
        while j < kinds.len() && matches!(kinds[j], LineKind::Keyed(..)) {
            j += 1;
        }
        if j - i >= 2 {
            split_run(&mut kinds[i..j]);
        }
        i = j + 1;
    }
}

/// [`first_keys`] on one run of keyed lines.
fn split_run(run: &mut [LineKind]) {
    let parts: Vec<Option<(String, String)>> = run
        .iter()
        .map(|k| match k {
            LineKind::Keyed(label, ps) if ps.len() >= 2 && ps[0].0.is_empty() => label
                .rsplit_once(' ')
                .filter(|(head, _)| !head.trim().is_empty())
                .map(|(head, last)| (head.trim().to_string(), last.to_string())),
            _ => None,
        })
        .collect();
    let Some(parts) = parts.into_iter().collect::<Option<Vec<_>>>() else {
        return;
    };
    let key = &parts[0].1;
    let same_key = parts.iter().all(|(_, k)| k == key);
    let names_differ = parts.iter().any(|(h, _)| *h != parts[0].0);
    if !same_key || !names_differ || !key.chars().any(char::is_alphabetic) {
        return;
    }
    for (k, (head, last)) in run.iter_mut().zip(parts) {
        if let LineKind::Keyed(label, ps) = k {
            *label = head;
            ps[0].0 = last;
        }
    }
}
