//! pyperf's text outputs, all summaries:
//! - a run's console result `Mean +- std dev: 5.53 us +- 0.60 us`;
//! - `compare_to` lines `Mean +- std dev: [a] 5.26 us +- 0.47 us -> [b] 10.3 us +- 0.6 us: 1.96x slower`
//!   (the bracketed names are the variants);
//! - `compare_to --table` grids (`| timeit | 5.53 us | 10.2 us: 1.85x slower |`);
//! - `pyperf stats` blocks (`Minimum:`, `Median +- MAD:`, percentiles,
//!   `Total number of values:`);
//! - `compare_to -G` lines (`- name: 863 ns +- 210 ns -> 4.28 us +- 0.76 us:
//!   4.96x slower`), its group headings and its notice of hidden benchmarks;
//! - `pyperf hist` buckets, accounted but not read (binned values), with
//!   the `[ name ]` line naming each file's part;
//! - `pyperf slowest` lines (`#1: timeit (1.87 sec)`, the whole duration),
//!   under each file's underlined title when several are listed;
//! - `pyperformance compare` (1.x): each file's underlined title (the
//!   variants, in order) with its run metadata, then per `### name ###`
//!   heading `Mean +- std dev: 3.30 us +- 1.79 us -> 13.03 us +- 3.56 us:
//!   3.95x slower` and pyperf's significance line; `-O table` grids with
//!   their `Change` and `Significance` columns;
//! - the stability warning's figures (`* the standard deviation (48.0 us)
//!   is 300% of the mean (16.0 us)`) where no result line states them
//!   (`pyperf check`, `hist`); `show --metadata` lines are accounted.
//!
//! `N.NNx slower` is new/old of the time, `N.NNx faster` old/new; both are
//! stored as the change of the second variant in percent. Without a
//! `### name ###` heading or a name prefix the benchmark is called `pyperf`.

use crate::error::Result;
use crate::ingest::shared::logscan::num;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use crate::model::{point_name, Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The pyperf text importer.
pub struct PyperfText;

const V: &str = r"([\d.]+(?:e[-+]?\d+)?) ([^\s:]+)";
/// The change in percent older pyperf (and perf, its former name) wrote
/// after a ratio, `3.24x faster (-69%)`: the ratio says it exactly.
const PCT: &str = r"(?: \([-+]?[\d.]+%\))?";

static COMPARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(?:(\S+): )?Mean \+- std dev: \[([^\]]+)\] {V} \+- {V} -> \[([^\]]+)\] {V} \+- {V}(?:: ([\d.]+)x (slower|faster))?"
    ))
    .expect("static regex")
});
/// A `pyperformance compare` line: the variants unnamed, the files'
/// titles above name them (the baseline first).
static PLAIN_COMPARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^Mean \+- std dev: {V} \+- {V} -> {V} \+- {V}: ([\d.]+)x (slower|faster){PCT}$"
    ))
    .expect("static regex")
});
/// A ratio cell of pyperformance's `Change` column: `3.95x slower`.
static RATIO_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^([\d.]+)x (slower|faster){PCT}$")).expect("static regex")
});
static SINGLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^(?:(\S+): )?Mean \+- std dev: {V} \+- {V}\s*$")).expect("static regex")
});
static HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^#+ (.+?) #+$").expect("static regex"));
static STAT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(Minimum|Maximum|Median \+- MAD|Mean \+- std dev):\s+{V}(?: \+- {V})?"
    ))
    .expect("static regex")
});
static PERCENTILE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^\s*(\d+)th percentile: {V}")).expect("static regex"));
static TOTAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Total number of values: (\d+)").expect("static regex"));
/// A `compare_to -G` line: `- name: 863 ns +- 210 ns -> 4.28 us +- 0.76
/// us: 4.96x slower`, the variants unnamed (the reference file, then the
/// changed one).
static GROUPED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^- (\S+): {V} \+- {V} -> {V} \+- {V}: ([\d.]+)x (slower|faster){PCT}$"
    ))
    .expect("static regex")
});
/// A bucket of `pyperf hist`: `650 ns: 1 ####`.
static BUCKET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^\s*{V}:\s+(\d+) [#|]")).expect("static regex"));
static RATIO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^{V}(?:: ([\d.]+)x (slower|faster){PCT})?$")).expect("static regex")
});

/// A line of `pyperf slowest`: `#1: timeit (1.87 sec)`, the benchmark's
/// whole duration (runs, warm-ups and calibration).
static SLOWEST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^#\d+: (\S+) \(([\d.]+) (sec|min|hour|ms)\)$").expect("static regex")
});
/// A line of pyperf's stability warning that states a figure of the
/// result: `* the standard deviation (48.0 us) is 300% of the mean (16.0 us)`.
static CHECK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^\* the (standard deviation|minimum|maximum) \({V}\) is [\d.]+% (?:of|smaller than|greater than) the mean \({V}\)$"
    ))
    .expect("static regex")
});

/// Lines of `pyperf stats` and of pyperf's warnings that are read past on
/// purpose, with the reason `ingest` shows.
static SKIPS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (
            r"^(?:Total duration|Start date|End date):",
            "when and how long the run took, not a result",
        ),
        (
            r"^Raw value (?:minimum|maximum):",
            "raw value of a whole loop batch (values are per loop)",
        ),
        (
            r"^(?:Number of calibration run|Number of run with values|Total number of run|Number of warmup per run|Number of value per run|Loop iterations per value):",
            "run layout (runs, warm-ups, loops); n is read from `Total number of values`",
        ),
        (
            r"^Number of outlier \(out of ",
            "count of values outside pyperf's outlier range",
        ),
        (
            r"^\* (?:the standard deviation|the minimum|the maximum|the shortest raw value|Not enough samples)",
            "pyperf's stability warning about values that are read",
        ),
        (
            r"^Benchmark hidden because not significant \(\d+\):",
            "benchmarks compare_to hid as not significant: it prints no values for them (compare the JSON files instead)",
        ),
        (
            r"^(?:Not significant!?|Significant \(t=[-+\d.e]+\)|ERROR when testing if values are significant)$",
            "pyperf's significance verdict on the line above (patchperf tests on its own)",
        ),
        (
            r"^(?:Python version|Number of logical CPUs|CPU model|Hostname): |^Report on ",
            "run metadata (machine, Python), not a result",
        ),
        (
            r"^ERROR: Performance versions are different ",
            "pyperformance's notice that the two runs used different suite versions",
        ),
        (
            r"^Geometric mean: ",
            GEOMEAN,
        ),
        (
            r"^(?:Slower|Faster|Not significant|Benchmarks with tag '[^']*') \(\d+\):$",
            "heading of a compare_to -G group",
        ),
    ]
    .into_iter()
    .map(|(re, why)| (Regex::new(re).expect("static regex"), why))
    .collect()
});

/// The mean and std dev of one side of a comparison line, from the groups
/// `base..base + 4` of `c`: mean, its unit, std dev, its unit.
fn sides(
    out: &mut Vec<Observation>,
    src: &Source,
    n: u32,
    bench: &str,
    variant: &str,
    c: &regex::Captures<'_>,
    base: usize,
) -> Result<()> {
    for (stat, at) in [(Stat::Mean, base), (Stat::Stddev, base + 2)] {
        out.push(
            Observation::new(
                bench,
                "time",
                &c[at + 1],
                stat,
                num(src, n, &c[at], "value")?,
            )
            .with_variant(variant)
            .at_line(n),
        );
    }
    Ok(())
}

/// Why a geometric-mean line is not read.
const GEOMEAN: &str = "geometric mean of the ratios, a summary of the lines read";

/// The benchmark of lines that name none, under no heading.
const DEFAULT_BENCH: &str = "pyperf";

/// Change of the second variant in percent from pyperf's ratio wording.
fn change_pct(ratio: f64, word: &str) -> f64 {
    let pct = if word == "slower" {
        (ratio - 1.0) * 100.0
    } else {
        (1.0 / ratio - 1.0) * 100.0
    };
    // The ratio has three digits: `2.28x` is +128%, not
    // +127.99999999999999% of the float arithmetic.
    (pct * 1e9).round() / 1e9
}

fn table_cells(line: &str) -> Option<Vec<String>> {
    let t = line.trim();
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(|c| c.trim().to_string()).collect())
}

/// `compare_to -G` lines, its notice of hidden benchmarks, or the buckets
/// of `pyperf hist` (two at least, so that one `650 ns: 1 #` line in a
/// mail is not taken for a histogram).
fn grouped_or_hist(src: &Source) -> bool {
    let grouped = src.lines.iter().any(|l| {
        l.text
            .starts_with("Benchmark hidden because not significant (")
            || (l.text.starts_with("- ") && has_ratio_word(&l.text) && GROUPED.is_match(&l.text))
    });
    grouped
        || src
            .lines
            .iter()
            .filter(|l| l.text.trim_end().ends_with(['#', '|']) && BUCKET.is_match(&l.text))
            .take(2)
            .count()
            == 2
}

/// `pyperf slowest` lines, or `pyperf check`'s stability warning.
fn slowest_or_check(src: &Source) -> bool {
    src.lines.iter().any(|l| {
        SLOWEST.is_match(&l.text)
            || l.text == "WARNING: the benchmark result may be unstable"
            || CHECK.is_match(&l.text)
    })
}

/// `line.contains("x slower") || line.contains("x faster")` in one pass.
fn has_ratio_word(line: &str) -> bool {
    let b = line.as_bytes();
    memchr::memchr_iter(b'x', b).any(|i| {
        let rest = &b[i + 1..];
        rest.starts_with(b" slower") || rest.starts_with(b" faster")
    })
}

/// `table_cells(line)` has at least three cells, the first `Benchmark`
/// (a compare_to --table header), without copying the cells.
fn is_table_header(line: &str) -> bool {
    let t = line.trim();
    let Some(inner) = t.strip_prefix('|').and_then(|t| t.strip_suffix('|')) else {
        return false;
    };
    let mut cells = inner.split('|');
    cells.next().is_some_and(|c| c.trim() == "Benchmark") && cells.nth(1).is_some()
}

impl Format for PyperfText {
    fn name(&self) -> &'static str {
        "pyperf-text"
    }

    fn description(&self) -> &'static str {
        "pyperf text: `Mean +- std dev:` results and compare_to lines, compare_to --table grids, `pyperf stats` blocks, slowest, check, hist, show --metadata"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Both regexes need this literal; they are compiled only then. Some
        // line is one or the other: some line is the one, or some the other.
        let hit = crate::ingest::shared::logscan::lines_containing(src, "Mean +- std dev: ")
            .any(|t| COMPARE.is_match(t) || SINGLE.is_match(t) || PLAIN_COMPARE.is_match(t))
            || src
                .lines
                .iter()
                .any(|l| l.text.starts_with("Median +- MAD:"));
        if hit {
            return 85;
        }
        if slowest_or_check(src) {
            return 85;
        }
        if grouped_or_hist(src) {
            return 85;
        }
        // A compare_to table: its ratio wording (a cheap byte search) and a
        // `| Benchmark | … |` header; cells are looked at only when the
        // wording is there.
        let table = src.lines.iter().any(|l| has_ratio_word(&l.text))
            && src.lines.iter().any(|l| is_table_header(&l.text));
        if table {
            85
        } else {
            0
        }
    }

    /// Headings and table headers are `consumed`; run metadata, run layout,
    /// outlier counts, warnings and the 0th/100th percentiles (the minimum
    /// and maximum again) are `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut out = Vec::new();
        let mut bench = DEFAULT_BENCH.to_string();
        let mut table_variants: Option<Vec<String>> = None;
        // Without a result line the check's warning is all the file says of
        // the result (`pyperf check`): its figures are read.
        let check_only = !src
            .lines
            .iter()
            .any(|l| l.text.contains("Mean +- std dev: "));
        // `pyperf slowest` of several files: each under its file's title.
        let mut title = String::new();
        // Every title in order: pyperformance's two files.
        let mut titles: Vec<String> = Vec::new();
        let mut in_metadata = false;
        // Whether the warning being read has given its mean already.
        let mut warned_mean = false;
        for (i, l) in src.lines.iter().enumerate() {
            let t = l.text.trim_end();
            let n = l.number;
            let mk = |b: &str, variant: &str, stat: Stat, v: f64, unit: &str| {
                Observation::new(b, "time", unit, stat, v)
                    .with_variant(variant)
                    .at_line(n)
            };
            if let Some(c) = HEADING.captures(t) {
                bench = c[1].to_string();
                consumed.push(n);
                continue;
            }
            // `show --metadata`: `- key: value` lines under `Metadata:`.
            if t == "Metadata:" {
                in_metadata = true;
                consumed.push(n);
                continue;
            }
            if in_metadata && t.starts_with("- ") {
                skipped.push((
                    n,
                    "run metadata (machine, Python, settings), not a result".into(),
                ));
                continue;
            }
            in_metadata = false;
            let underlined = src
                .lines
                .get(i + 1)
                .is_some_and(|u| !u.text.is_empty() && u.text.bytes().all(|b| b == b'='));
            if underlined && !t.is_empty() && !t.contains(' ') {
                title = t.to_string();
                titles.push(point_name(t));
                consumed.push(n);
                continue;
            }
            if !t.is_empty() && t.bytes().all(|b| b == b'=') {
                consumed.push(n);
                continue;
            }
            // `[ b ]`: the file the lines below are of (`hist a.json b.json`).
            if let Some(name) = t.strip_prefix("[ ").and_then(|r| r.strip_suffix(" ]")) {
                title = name.to_string();
                consumed.push(n);
                continue;
            }
            if t == "WARNING: the benchmark result may be unstable" {
                warned_mean = false;
                consumed.push(n);
                continue;
            }
            if let Some(c) = SLOWEST.captures(t) {
                let secs = rescale(
                    num(src, n, &c[2], "duration")?,
                    match &c[3] {
                        "min" => 60.0,
                        "hour" => 3600.0,
                        "ms" => 1e-3,
                        _ => 1.0,
                    },
                );
                out.push(
                    Observation::new(&c[1], "duration", "s", Stat::Total, secs)
                        .with_variant(title.as_str())
                        .at_line(n),
                );
                continue;
            }
            if check_only {
                if let Some(c) = CHECK.captures(t) {
                    let stat = match &c[1] {
                        "standard deviation" => Stat::Stddev,
                        "minimum" => Stat::Min,
                        _ => Stat::Max,
                    };
                    out.push(mk(
                        &bench,
                        &title,
                        stat,
                        num(src, n, &c[2], "value")?,
                        &c[3],
                    ));
                    // The mean is on every line of a warning: read once.
                    if !warned_mean {
                        warned_mean = true;
                        out.push(mk(
                            &bench,
                            &title,
                            Stat::Mean,
                            num(src, n, &c[4], "value")?,
                            &c[5],
                        ));
                    }
                    continue;
                }
            }
            if let Some((_, why)) = SKIPS.iter().find(|(re, _)| re.is_match(t)) {
                skipped.push((n, why.to_string()));
                continue;
            }
            if let Some(c) = COMPARE.captures(t) {
                // `compare_to -v` writes each benchmark's name underlined
                // above its line: the variants are in brackets, so the
                // title can only be the benchmark.
                let unnamed = if bench == DEFAULT_BENCH && !title.is_empty() {
                    title.clone()
                } else {
                    bench.clone()
                };
                let b = c.get(1).map_or(unnamed, |m| m.as_str().to_string());
                for (vi, base) in [(2, 3), (7, 8)] {
                    sides(&mut out, src, n, &b, &c[vi], &c, base)?;
                }
                if let (Some(r), Some(w)) = (c.get(12), c.get(13)) {
                    let pct = change_pct(num(src, n, r.as_str(), "value")?, w.as_str());
                    out.push(mk(&b, &c[7], Stat::ChangePct, pct, &c[9]));
                }
                continue;
            }
            if let Some(c) = PLAIN_COMPARE.captures(t) {
                let base = titles.first().map_or("reference", String::as_str);
                let changed = titles.get(1).map_or("changed", String::as_str);
                for (variant, at) in [(base, 1), (changed, 5)] {
                    sides(&mut out, src, n, &bench, variant, &c, at)?;
                }
                let pct = change_pct(num(src, n, &c[9], "value")?, &c[10]);
                out.push(mk(&bench, changed, Stat::ChangePct, pct, &c[6]));
                continue;
            }
            if let Some(c) = GROUPED.captures(t) {
                let b = &c[1];
                for (variant, base) in [("reference", 2), ("changed", 6)] {
                    sides(&mut out, src, n, b, variant, &c, base)?;
                }
                let pct = change_pct(num(src, n, &c[10], "value")?, &c[11]);
                out.push(mk(b, "changed", Stat::ChangePct, pct, &c[7]));
                continue;
            }
            if BUCKET.is_match(t) {
                skipped.push((
                    n,
                    "a bucket of pyperf hist (values binned; read the JSON file for the values)"
                        .to_string(),
                ));
                continue;
            }
            if let Some(c) = SINGLE.captures(t) {
                let b = c.get(1).map_or(bench.clone(), |m| m.as_str().to_string());
                out.push(mk(&b, "", Stat::Mean, num(src, n, &c[2], "value")?, &c[3]));
                out.push(mk(
                    &b,
                    "",
                    Stat::Stddev,
                    num(src, n, &c[4], "value")?,
                    &c[5],
                ));
                continue;
            }
            if let Some(c) = STAT_LINE.captures(t) {
                let unit = &c[3];
                let (first, second) = match &c[1] {
                    "Minimum" => (Stat::Min, None),
                    "Maximum" => (Stat::Max, None),
                    // The MAD has no tidy stat; the median is kept.
                    "Median +- MAD" => (Stat::Median, None),
                    _ => (Stat::Mean, Some(Stat::Stddev)),
                };
                out.push(mk(&bench, "", first, num(src, n, &c[2], "value")?, unit));
                if let (Some(s), Some(v), Some(u)) = (second, c.get(4), c.get(5)) {
                    out.push(mk(
                        &bench,
                        "",
                        s,
                        num(src, n, v.as_str(), "value")?,
                        u.as_str(),
                    ));
                }
                continue;
            }
            if let Some(c) = PERCENTILE.captures(t) {
                let p = num(src, n, &c[1], "value")?;
                // 0th and 100th are the minimum and maximum, already read.
                if p > 0.0 && p < 100.0 {
                    out.push(mk(
                        &bench,
                        "",
                        Stat::percentile(p),
                        num(src, n, &c[2], "value")?,
                        &c[3],
                    ));
                } else {
                    skipped.push((n, "the minimum or maximum again (read)".to_string()));
                }
                continue;
            }
            if let Some(c) = TOTAL.captures(t) {
                // The count comes before the values; its unit is set below.
                out.push(mk(&bench, "", Stat::N, num(src, n, &c[1], "value")?, ""));
                continue;
            }
            let Some(cells) = table_cells(t) else {
                continue;
            };
            if cells.first().map(String::as_str) == Some("Benchmark") {
                // pyperformance's grid names files and adds `Change` and
                // `Significance` columns after them.
                table_variants = Some(
                    cells[1..]
                        .iter()
                        .map(|c| match c.as_str() {
                            "Change" | "Significance" => c.clone(),
                            // A file's name: `A2.json` is the variant `A2`.
                            f => point_name(f),
                        })
                        .collect(),
                );
                consumed.push(n);
                continue;
            }
            let Some(variants) = &table_variants else {
                continue;
            };
            let name = cells[0].as_str();
            if name.starts_with("Geometric mean") {
                skipped.push((n, GEOMEAN.into()));
                continue;
            }
            if name.is_empty() {
                continue;
            }
            // The unit and variant of the last value cell, which a
            // `Change` cell is the change of.
            let mut last: Option<(String, String)> = None;
            for (cell, variant) in cells[1..].iter().zip(variants) {
                if variant == "Change" {
                    if let (Some(c), Some((v, unit))) = (RATIO_ONLY.captures(cell), &last) {
                        let pct = change_pct(num(src, n, &c[1], "value")?, &c[2]);
                        out.push(mk(name, v, Stat::ChangePct, pct, unit));
                    }
                    continue;
                }
                let Some(c) = RATIO.captures(cell) else {
                    // `not significant` says no value; a figure in a form
                    // no pyperf writes is not dropped unsaid.
                    if cell.bytes().any(|b| b.is_ascii_digit()) {
                        let why = format!("a cell of compare_to's table in no form read: `{cell}`");
                        skipped.push((n, why));
                    }
                    continue;
                };
                last = Some((variant.clone(), c[2].to_string()));
                out.push(mk(
                    name,
                    variant,
                    Stat::Mean,
                    num(src, n, &c[1], "value")?,
                    &c[2],
                ));
                if let (Some(r), Some(w)) = (c.get(3), c.get(4)) {
                    let pct = change_pct(num(src, n, r.as_str(), "value")?, w.as_str());
                    out.push(mk(name, variant, Stat::ChangePct, pct, &c[2]));
                }
            }
        }
        // A count carries the unit of the values it counts, like every row
        // of its group.
        for i in 0..out.len() {
            if out[i].stat == Stat::N && out[i].unit.is_empty() {
                let b = out[i].benchmark.clone();
                if let Some(u) = out
                    .iter()
                    .find(|o| o.benchmark == b && !o.unit.is_empty())
                    .map(|o| o.unit.clone())
                {
                    out[i].unit = u;
                }
            }
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_become_percent_changes() {
        assert!((change_pct(1.85, "slower") - 85.0).abs() < 1e-9);
        assert!((change_pct(2.0, "faster") + 50.0).abs() < 1e-9);
    }

    #[test]
    fn an_older_pyperf_s_percent_after_the_ratio_keeps_the_column() {
        // nanobench's docs: `11.2 us: 3.24x faster (-69%)`.
        let path = "tests/data/harness/nanobench/pyperf-compare_to-table-docs.txt";
        let p = crate::ingest::parse_file(&PyperfText, path);
        let got: Vec<(&str, Stat, f64)> = p
            .observations
            .iter()
            .map(|o| (o.variant.as_str(), o.stat, o.value))
            .collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], ("pyperf_shuffle_std", Stat::Mean, 36.4));
        assert_eq!(got[1], ("pyperf_shuffle_nanobench", Stat::Mean, 11.2));
        assert_eq!(
            (got[2].0, got[2].1),
            ("pyperf_shuffle_nanobench", Stat::ChangePct)
        );
        assert!((got[2].2 - change_pct(3.24, "faster")).abs() < 1e-12);
        assert!(p.observations.iter().all(|o| o.unit == "us" && o.line == 4));
        assert!(p.skipped.is_empty());
    }

    #[test]
    fn stats_block_metadata_is_skipped_with_reasons() {
        let path = "tests/data/corpus/pyperf_stats-patched-1.txt";
        let p = crate::ingest::parse_file(&PyperfText, path);
        assert!(p.skipped_reason(1).contains("how long the run took"));
        assert!(p.skipped_reason(4).contains("loop batch"));
        assert!(p.skipped_reason(13).contains("run layout"));
        assert!(p.skipped_reason(21).contains("minimum or maximum"));
        assert!(p.skipped_reason(29).contains("outlier"));
        // `Total number of values` (14) gives n and is not skipped.
        assert_eq!(p.skipped_reason(14), "");
        assert!(p
            .observations
            .iter()
            .any(|o| o.line == 14 && o.stat == Stat::N && o.value == 20.0));
        assert_eq!(p.skipped.len(), 15);
    }

    /// Detection as it was before the ratio wording was looked for first:
    /// every line's cells copied.
    fn detect_by_cells(src: &Source) -> Confidence {
        let hit = src.lines.iter().any(|l| {
            let t = l.text.as_str();
            (t.contains("Mean +- std dev: ")
                && (COMPARE.is_match(t) || SINGLE.is_match(t) || PLAIN_COMPARE.is_match(t)))
                || t.starts_with("Median +- MAD:")
        });
        let table = src
            .lines
            .iter()
            .any(|l| table_cells(&l.text).is_some_and(|c| c.len() >= 3 && c[0] == "Benchmark"))
            && src
                .lines
                .iter()
                .any(|l| l.text.contains("x slower") || l.text.contains("x faster"));
        if hit || table || grouped_or_hist(src) || slowest_or_check(src) {
            85
        } else {
            0
        }
    }

    #[test]
    fn compare_to_table_alone_is_recognised() {
        // This file has no `Mean +- std dev:` line: only the table path.
        let path = "tests/data/corpus/pyperf_compare-patched-1.txt";
        let src = Source::read(std::path::Path::new(path)).unwrap();
        assert!(!src.lines.iter().any(|l| l.text.contains("Mean +- std dev")));
        assert_eq!(PyperfText.detect(&src), 85);
    }

    #[test]
    fn detection_gives_the_score_copying_cells_gives() {
        crate::ingest::assert_detection_agrees(&PyperfText, detect_by_cells);
        for text in [
            "| Benchmark | a |\n1.2x slower\n",
            "|Benchmark|a|b|\nxx faster\n",
            "  | Benchmark | a | b: 1.1xslower |\n| Benchmark | a | b |\n",
            "| Benchmark ||\n2x faster",
            "| Benchmarks | a | b |\n2x faster",
        ] {
            let src = Source::from_text("x", text);
            assert_eq!(PyperfText.detect(&src), detect_by_cells(&src), "{text:?}");
        }
    }
}
