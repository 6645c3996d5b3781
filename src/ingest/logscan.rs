//! Shared helpers for the line-oriented harness-log importers (perf, rt-tests,
//! pgbench, sysbench, time …): building observations at an original line,
//! parsing numbers with an error that names the line, and counting signature
//! lines for detection.
//!
//! A convention all these importers follow: `stat` describes the spread over
//! *replicates* (runs, invocations, threads printed as samples). A statistic a
//! harness computes *inside* one run over its own events (cyclictest's max
//! latency, sysbench's 95th percentile, pgbench's latency average) is a
//! measurement of that run, so it becomes a metric of its own (`latency max`,
//! `latency p95`, `latency avg`) with `stat = sample`. Comparing several runs
//! per side then works like any other sample comparison.

use super::numbers::parse_number;
use super::Source;
use crate::error::Result;
use crate::model::{canonical_params, Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// Compiles a pattern that is a constant of the program.
pub(crate) fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("importer regex is a valid constant")
}

/// Declares a lazily compiled constant regex.
macro_rules! lazy_re {
    ($name:ident, $pat:expr) => {
        static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| $crate::ingest::logscan::re($pat));
    };
}
pub(crate) use lazy_re;

/// True when some prepared line matches `re`.
pub(crate) fn any(src: &Source, re: &Regex) -> bool {
    src.lines.iter().any(|l| re.is_match(&l.text))
}

/// True when some prepared line contains `literal` and matches `re`.
///
/// `literal` must be a substring of every match of `re`, so the answer is
/// the same as [`any`]'s; the point is that `re` is compiled (a lazy static
/// forced) only when some line has the literal. Detection runs every
/// format on every input, and compiling ~200 Unicode-aware regexes was most
/// of a small `compare`'s time.
pub(crate) fn any_with(src: &Source, literal: &str, re: &LazyLock<Regex>) -> bool {
    src.lines
        .iter()
        .any(|l| l.text.contains(literal) && re.is_match(&l.text))
}

/// True when some prepared line contains `literal`.
pub(crate) fn has(src: &Source, literal: &str) -> bool {
    src.lines.iter().any(|l| l.text.contains(literal))
}

/// Parses a captured number, or fails naming the file and line.
pub(crate) fn num(src: &Source, line: u32, text: &str, what: &str) -> Result<f64> {
    parse_number(text)
        .ok_or_else(|| src.error(Some(line), format!("{what}: `{text}` is not a number")))
}

/// Builds one observation at `line` of `src` (variant left empty: the caller
/// of `ingest` assigns it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn obs(
    src: &Source,
    line: u32,
    benchmark: &str,
    params: &str,
    metric: &str,
    unit: &str,
    stat: Stat,
    value: f64,
) -> Observation {
    let mut o = Observation::new(benchmark, metric, unit, stat, value).at_line(line);
    o.source = src.path.clone();
    o.params = params.into();
    o
}

/// Ordered `k=v` parameters being collected from a header; rendered
/// canonically (sorted by key). Values lose characters that would break the
/// `k=v,k=v` form.
#[derive(Debug, Clone, Default)]
pub(crate) struct Params(Vec<(String, String)>);

impl Params {
    /// Sets `key` to `value`, replacing an earlier value.
    pub(crate) fn set(&mut self, key: &str, value: impl AsRef<str>) {
        let v: String = value
            .as_ref()
            .trim()
            .chars()
            .map(|c| if c == ',' || c == '=' { ';' } else { c })
            .collect();
        if let Some(e) = self.0.iter_mut().find(|(k, _)| k == key) {
            e.1 = v;
        } else {
            self.0.push((key.to_string(), v));
        }
    }

    /// The value of `key`, if set.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The canonical `k=v,…` string.
    pub(crate) fn render(&self) -> String {
        canonical_params(&self.0)
    }
}

/// Emits the stated summary of a perf-style `mean (+- x%)` line: the mean,
/// the standard error (perf's `+-` is the relative SEM), and, when the number
/// of replicates is known, n and the standard deviation SEM·√n that a
/// summary-statistics test needs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mean_with_sem(
    out: &mut Vec<Observation>,
    src: &Source,
    line: u32,
    benchmark: &str,
    params: &str,
    metric: &str,
    unit: &str,
    mean: f64,
    sem: Option<f64>,
    n: Option<usize>,
) {
    out.push(obs(
        src,
        line,
        benchmark,
        params,
        metric,
        unit,
        Stat::Mean,
        mean,
    ));
    if let Some(se) = sem {
        out.push(obs(
            src,
            line,
            benchmark,
            params,
            metric,
            unit,
            Stat::Stderr,
            se,
        ));
        if let Some(n) = n.filter(|&n| n > 0) {
            let sd = se * (n as f64).sqrt();
            out.push(obs(
                src,
                line,
                benchmark,
                params,
                metric,
                unit,
                Stat::Stddev,
                sd,
            ));
        }
    }
    if let Some(n) = n.filter(|&n| n > 0) {
        // Same unit as the values so that a group never looks like a unit mix.
        out.push(obs(
            src,
            line,
            benchmark,
            params,
            metric,
            unit,
            Stat::N,
            n as f64,
        ));
    }
}

/// perf prints its `+-` rounded to 0.01 %, so an SD derived from it differs
/// slightly from the SD of the runs printed beside it. Where those runs
/// exist (`samples > 0`) they are the data and a derived SD would only be a
/// false mismatch: the stddev rows pushed since `start` are removed, the
/// stated mean, SEM and n are kept.
pub(crate) fn drop_derived_sd(out: &mut Vec<Observation>, start: usize, samples: usize) {
    if samples > 0 {
        let mut i = start;
        while i < out.len() {
            if out[i].stat == Stat::Stddev {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// The last line number of the source, for "truncated" errors.
pub(crate) fn last_line(src: &Source) -> Option<u32> {
    src.lines.last().map(|l| l.number)
}
