//! What a column header means: the words that name parameters, metrics and changes, and the role each header gets.

use super::super::lines::known_unit;
use super::*;
use crate::model::{Stat, Unit};

/// Header words naming a parameter column (`threads` → `threads=512`).
pub(super) const PARAM_WORDS: &[&str] = &[
    "threads",
    "thread",
    "nthreads",
    "nr_threads",
    "clients",
    "jobs",
    "procs",
    "processes",
    "tasks",
    "cpus",
    "groups",
    "connections",
    "conns",
    "iodepth",
    "bs",
    "size",
    "msgsize",
    "loops",
    "workers",
    "fds",
    "nr",
    "mtu",
    "qd",
    "queue depth",
    "depth",
    "cores",
    "vcpus",
    "nodes",
    "users",
    "instances",
    "message size",
    "packet size",
    "block size",
];

/// First words of a header that names a build rather than a quantity:
/// `this change`, `the change`, `with change` are the changed kernel, not
/// a column of stated changes.
const DETERMINERS: &[&str] = &["this", "the", "our", "my", "with", "after", "new"];

/// Header words naming a column of stated changes.
pub(super) const CHANGE_WORDS: &[&str] = &[
    "overhead",
    "speedup",
    "speed-up",
    "change",
    "diff",
    "delta",
    "improvement",
    "gain",
    "slowdown",
    "regression",
    "%",
    "% change",
    "%change",
    "%diff",
    "vs base",
    "vs. base",
];

/// Words that name what was measured.
pub(super) const METRIC_WORDS: &[&str] = &[
    "time",
    "latency",
    "tps",
    "throughput",
    "bandwidth",
    "runtime",
    "duration",
    "score",
    "cycles",
    "ops",
    "ops/s",
    "iops",
    "qps",
    "rps",
    "rate",
    "real",
    "user",
    "sys",
    "elapsed",
    "wall",
    "lat",
    "bw",
    "memory",
    "rss",
    "transactions",
];

/// Metric names that are units of their own.
pub(super) const RATE_METRICS: &[&str] = &["tps", "qps", "iops", "rps", "ops/s"];

/// Splits `baseline time (ms) [stddev]` into words, unit and bracketed stat.
pub(super) fn split_header(raw: &str) -> (String, Option<String>, Option<Stat>) {
    let mut words = String::new();
    let mut unit = None;
    let mut bracket = None;
    let mut rest = raw;
    while let Some(open) = rest.find(['(', '[']) {
        let close_ch = if rest[open..].starts_with('(') {
            ')'
        } else {
            ']'
        };
        let Some(close_rel) = rest[open..].find(close_ch) else {
            break;
        };
        let close = open + close_rel;
        let inner = rest[open + 1..close].trim();
        words.push_str(&rest[..open]);
        if known_unit(inner) {
            unit = Some(Unit::normalize_spelling(inner).to_string());
        } else if let Some(s) = Stat::parse_name(inner) {
            bracket = Some(s);
        } else {
            words.push_str(&rest[open..=close]);
        }
        rest = &rest[close + 1..];
    }
    words.push_str(rest);
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    (words, unit, bracket)
}

/// The role of one header cell.
pub(super) fn header_role(raw: &str) -> Role {
    let (words, unit, bracket) = split_header(raw);
    let lower = words.to_lowercase();
    if lower.is_empty() {
        return match unit {
            Some(u) => Role::Value(ValueCol {
                unit: Some(u),
                bracket,
                ..ValueCol::default()
            }),
            None => Role::Label {
                metric: None,
                unit: None,
            },
        };
    }
    if PARAM_WORDS.contains(&lower.as_str()) {
        return Role::Param(lower);
    }
    if CHANGE_WORDS.contains(&lower.as_str()) {
        return Role::Change;
    }
    let mut col = ValueCol {
        unit,
        bracket,
        ..ValueCol::default()
    };
    if let Some(s) = Stat::parse_name(&lower) {
        col.stat = Some(s);
        return Role::Value(col);
    }
    let mut ws: Vec<&str> = words.split(' ').collect();
    // `Latency +/- SD`: the words before the operator head the value, the
    // stat after it names the spread written beside it.
    if let Some(at) = ws.iter().position(|w| matches!(*w, "+/-" | "+-" | "±")) {
        if let Some(s) = ws.get(at + 1).and_then(|w| Stat::parse_name(w)) {
            if at > 0 && at + 2 == ws.len() {
                col.bracket = Some(s);
                ws.truncate(at);
            }
        }
    }
    let names_a_build = ws.len() > 1 && DETERMINERS.contains(&ws[0].to_lowercase().as_str());
    if ws.len() > 1 {
        if let Some(s) = ws.last().and_then(|w| Stat::parse_name(w)) {
            if s == Stat::ChangePct && names_a_build {
                col.variant = Some(ws.join(" "));
                return Role::Value(col);
            }
            col.stat = Some(s);
            ws.pop();
        } else if let Some(s) = ws.first().and_then(|w| Stat::parse_name(w)) {
            // `Max Latency`: a stat first, then what it is of.
            if METRIC_WORDS.contains(&ws[ws.len() - 1].to_lowercase().as_str()) {
                col.stat = Some(s);
                ws.remove(0);
            }
        }
    }
    let last = ws.last().map(|w| w.to_lowercase()).unwrap_or_default();
    if METRIC_WORDS.contains(&last.as_str()) {
        col.metric = Some(last);
        ws.pop();
    }
    if !ws.is_empty() {
        col.variant = Some(ws.join(" "));
    }
    Role::Value(col)
}

/// Whether a header cell names a parameter (`Block Size (bs)`,
/// `threads`): its words without their bracket, or the bracket's word
/// (a short name written after the long one), is a parameter word.
pub fn names_parameter(raw: &str) -> bool {
    let lower = raw.to_lowercase();
    let (words, bracket) = match lower.split_once('(') {
        Some((w, b)) => (w.trim(), b.trim_end_matches(')').trim()),
        None => (lower.trim(), ""),
    };
    PARAM_WORDS.contains(&words) || PARAM_WORDS.contains(&bracket)
}

/// The role of a header cell over the row labels: it may name the metric
/// and unit of the whole table (`Latency (us)`).
pub(super) fn label_role(raw: &str) -> Role {
    let (words, unit, _) = split_header(raw);
    let lower = words.to_lowercase();
    if PARAM_WORDS.contains(&lower.as_str()) {
        return Role::Param(lower);
    }
    // Only a measured quantity names the table's metric; `benchmark`,
    // `kernel`, `test` just name the label column.
    let metric = (!lower.is_empty() && (unit.is_some() || METRIC_WORDS.contains(&lower.as_str())))
        .then_some(lower);
    Role::Label { metric, unit }
}

/// Roles of all header cells; `first_is_label` when the first header cell
/// sits over the row labels.
pub fn roles(headers: &[String], first_is_label: bool) -> Vec<Role> {
    let mut out: Vec<Role> = Vec::with_capacity(headers.len());
    for (i, h) in headers.iter().enumerate() {
        let role = if i == 0 && first_is_label {
            label_role(h)
        } else {
            header_role(h)
        };
        // `stddev` right after a value column is that column's spread.
        let role = match role {
            Role::Value(ValueCol {
                stat: Some(s @ (Stat::Stddev | Stat::Stderr | Stat::Cv)),
                variant: None,
                metric: None,
                ..
            }) if matches!(out.last(), Some(Role::Value(v)) if v.stat.is_none() || v.stat == Some(Stat::Mean)) => {
                Role::Spread(s)
            }
            r => r,
        };
        out.push(role);
    }
    out
}
