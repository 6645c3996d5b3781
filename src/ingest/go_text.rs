//! The Go benchmark format (`go test -bench` output; golang.org/x/perf
//! benchfmt): `key: value` configuration lines, `Unit <unit> better=…`
//! metadata, and result lines
//! `BenchmarkName/key=value-N  <iterations>  <value> <unit> …`.
//!
//! Each result line is one sample of every `value unit` pair on it (the
//! iteration count is not a sample count). `/key=value` name parts become
//! params and the trailing `-N` (GOMAXPROCS) becomes `procs=N`, so names
//! agree across machines. A `note:` configuration value labels the variant.
//! `better=higher|lower` on a `Unit` line states the direction of that
//! unit's metric: see [`stated_directions`].

use super::{Confidence, Format, Parsed, Source};
use crate::error::Result;
use crate::model::{canonical_params, Direction, Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The `go test -bench` text importer.
pub struct GoText;

static RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^Benchmark(\S*)\s+(\d+)((?:\s+[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s+\S+)+)\s*$",
    )
    .expect("static regex")
});
static CONFIG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([a-z][^\s:A-Z]*):\s+(.*)$").expect("static regex"));
// `ok  \tpkg\t38.144s`: go test's per-package line with its total time.
static PKG_OK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ok\s+\S+\s+[\d.]+s\b").expect("static regex"));
static UNIT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Unit\s+(\S+)((?:\s+\S+=\S+)+)\s*$").expect("static regex"));

/// The metric a Go unit measures and the unit as stored. Time per op of
/// any scale is one metric (`time/op`), so `ns/op` from `go test` and
/// `sec/op` from benchstat line up; allocation bytes and counts get names
/// that say lower is better; `MB/s` is throughput. Custom units are their
/// own metric.
pub(crate) fn metric_for_unit(unit: &str) -> (String, String) {
    let metric = match unit {
        "ns/op" | "sec/op" | "s/op" | "us/op" | "µs/op" | "ms/op" => "time/op",
        "B/op" => "alloc-bytes/op",
        "allocs/op" => "allocs/op",
        "MB/s" | "B/s" => "throughput",
        other => other,
    };
    let unit = if unit == "sec/op" { "s/op" } else { unit };
    (metric.to_string(), unit.to_string())
}

/// Splits a Go benchmark name (without the `Benchmark` prefix) into the
/// name and params: `Sort/n=100-2` → (`Sort`, `n=100,procs=2`).
pub(crate) fn split_name(name: &str) -> (String, String) {
    let mut params: Vec<(String, String)> = Vec::new();
    let mut base = name;
    if let Some((head, procs)) = name.rsplit_once('-') {
        if !procs.is_empty() && procs.bytes().all(|b| b.is_ascii_digit()) && !head.is_empty() {
            params.push(("procs".into(), procs.into()));
            base = head;
        }
    }
    let mut parts = Vec::new();
    for p in base.split('/') {
        match p.split_once('=') {
            Some((k, v)) if !k.is_empty() => params.push((k.into(), v.into())),
            _ => parts.push(p),
        }
    }
    (parts.join("/"), canonical_params(&params))
}

/// Directions stated by `Unit <unit> better=higher|lower` lines, as
/// (metric, direction) pairs in file order. The tidy table has no column
/// for it, so callers that care (analysis) ask for it here.
pub fn stated_directions(src: &Source) -> Vec<(String, Direction)> {
    let mut out = Vec::new();
    for l in &src.lines {
        let Some(c) = UNIT.captures(&l.text) else {
            continue;
        };
        for kv in c[2].split_whitespace() {
            if let Some(("better", v)) = kv.split_once('=') {
                if let Ok(d) = v.parse::<Direction>() {
                    out.push((metric_for_unit(&c[1]).0, d));
                }
            }
        }
    }
    out
}

/// Reads Go benchmark text given as (original line number, text) pairs;
/// shared with the `go test -json` importer, whose output arrives in events.
pub(crate) fn parse_lines<'a>(
    src: &Source,
    lines: impl Iterator<Item = (u32, &'a str)>,
) -> Result<Vec<Observation>> {
    let lines: Vec<(u32, &str)> = lines.collect();
    // `go test ./...` prints one block per package, and two packages may
    // have benchmarks of the same name: then the package qualifies them.
    let mut pkgs: Vec<&str> = Vec::new();
    for (_, t) in &lines {
        if let Some(c) = CONFIG.captures(t.trim_end()) {
            if &c[1] == "pkg" && !pkgs.contains(&c.get(2).map_or("", |m| m.as_str().trim())) {
                pkgs.push(c.get(2).map_or("", |m| m.as_str().trim()));
            }
        }
    }
    let qualify = pkgs.len() > 1;
    let mut out = Vec::new();
    let mut variant = String::new();
    let mut pkg = String::new();
    for (n, text) in lines {
        let t = text.trim_end();
        if let Some(c) = RESULT.captures(t) {
            let (mut bench, params) = split_name(&c[1]);
            if qualify && !pkg.is_empty() {
                bench = format!("{pkg}.{bench}");
            }
            let fields: Vec<&str> = c[3].split_whitespace().collect();
            for pair in fields.chunks(2) {
                let [value, unit] = pair else { continue };
                let v: f64 = value
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite())
                    .ok_or_else(|| src.error(Some(n), format!("`{value}` is not a number")))?;
                let (metric, unit) = metric_for_unit(unit);
                out.push(
                    Observation::new(bench.as_str(), metric, &unit, Stat::Sample, v)
                        .with_params_str(params.clone())
                        .with_variant(variant.as_str())
                        .at_line(n),
                );
            }
        } else if let Some(c) = CONFIG.captures(t) {
            match &c[1] {
                "note" => variant = c[2].trim().to_string(),
                "pkg" => pkg = c[2].trim().to_string(),
                _ => {}
            }
        }
    }
    Ok(out)
}

impl Format for GoText {
    fn name(&self) -> &'static str {
        "go-bench"
    }

    fn description(&self) -> &'static str {
        "Go benchmark format (go test -bench): `BenchmarkX-N  iters  v unit …` lines, `key: value` config, `Unit … better=`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let results = src
            .lines
            .iter()
            .filter(|l| l.text.starts_with("Benchmark") && RESULT.is_match(&l.text))
            .count();
        if results == 0 {
            return 0;
        }
        let context = src.lines.iter().any(|l| {
            CONFIG.is_match(&l.text)
                || UNIT.is_match(&l.text)
                || l.text == "PASS"
                || l.text.starts_with("ok  ")
        });
        if context {
            90
        } else {
            70
        }
    }

    fn parse(&self, src: &Source) -> Result<Vec<Observation>> {
        self.parse_accounted(src).map(|p| p.observations)
    }

    /// `pkg:`/`note:` and `Unit` lines are `consumed` (they name and direct
    /// the results); other configuration lines and go test's per-package
    /// `ok` line are `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        for l in &src.lines {
            let t = l.text.trim_end();
            if RESULT.is_match(t) {
                continue;
            }
            if UNIT.is_match(t) {
                consumed.push(l.number);
            } else if PKG_OK.is_match(t) {
                let why = "go test's total time for the package, not a benchmark";
                skipped.push((l.number, why.to_string()));
            } else if let Some(c) = CONFIG.captures(t) {
                if matches!(&c[1], "pkg" | "note") {
                    consumed.push(l.number);
                } else {
                    let why = format!("configuration `{}`, not a result", &c[1]);
                    skipped.push((l.number, why));
                }
            }
        }
        let mut obs = parse_lines(src, src.lines.iter().map(|l| (l.number, l.text.as_str())))?;
        let stated = stated_directions(src);
        for o in obs.iter_mut() {
            o.direction = stated.iter().find(|(m, _)| *m == o.metric).map(|(_, d)| *d);
        }
        Ok(Parsed {
            observations: obs,
            consumed,
            skipped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_procs_and_params() {
        assert_eq!(
            split_name("Sort/n=100-2"),
            ("Sort".into(), "n=100,procs=2".into())
        );
        assert_eq!(
            split_name("JoinNums-2"),
            ("JoinNums".into(), "procs=2".into())
        );
        assert_eq!(split_name("Size"), ("Size".into(), "".into()));
        assert_eq!(
            split_name("Encode/small/format=json-48"),
            ("Encode/small".into(), "format=json,procs=48".into())
        );
    }

    #[test]
    fn benchmarks_of_several_packages_are_qualified() {
        let text = "pkg: a/x\nBenchmarkF-2 10 5 ns/op\npkg: a/y\nBenchmarkF-2 10 7 ns/op\n";
        let obs = GoText.parse(&Source::from_text("p.txt", text)).unwrap();
        assert_eq!(obs[0].benchmark, "a/x.F");
        assert_eq!(obs[1].benchmark, "a/y.F");
        let one = GoText
            .parse(&Source::from_text(
                "p.txt",
                "pkg: a/x\nBenchmarkF-2 10 5 ns/op\n",
            ))
            .unwrap();
        assert_eq!(one[0].benchmark, "F");
    }

    #[test]
    fn unit_lines_state_directions() {
        let src = Source::from_text(
            "u.txt",
            "Unit text-bytes assume=exact better=lower\nUnit MB/s better=higher\n",
        );
        assert_eq!(
            stated_directions(&src),
            vec![
                ("text-bytes".into(), Direction::Lower),
                ("throughput".into(), Direction::Higher)
            ]
        );
    }

    #[test]
    fn configuration_and_package_lines_are_accounted_for() {
        let path = "tests/data/corpus/go-baseline-1.txt";
        let text = std::fs::read_to_string(path).unwrap();
        let p = GoText
            .parse_accounted(&Source::from_text(path, &text))
            .unwrap();
        assert_eq!(p.consumed, vec![3]);
        let skipped: Vec<(u32, &str)> = p.skipped.iter().map(|(l, w)| (*l, w.as_str())).collect();
        assert_eq!(skipped[2], (4, "configuration `cpu`, not a result"));
        assert_eq!(skipped[3].0, 30);
        assert!(skipped[3].1.contains("total time for the package"));
    }
}
