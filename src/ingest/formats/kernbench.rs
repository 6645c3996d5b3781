//! kernbench summaries: `Average Optimal load -j 8 Run (std deviation):`
//! followed by `Elapsed Time 28.094 (0.182565)`-style lines, one section per
//! load level (`load=half|optimal|maximal`, `jobs=N`).
//!
//! Each value is the mean over the runs of that load level and the
//! parenthesised number their standard deviation: `mean` and `stddev`. n is
//! not on the line; it is the number of `… load -j N run number K` lines of
//! that level since its previous summary, when the log has them (a mail
//! may paste the logs of two builds). With a single run the parentheses are
//! missing and the value is a `sample`. Metrics: `elapsed time`, `user time`,
//! `system time` (s), `cpu` (%), `context switches`, `sleeps`.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    AVERAGE,
    r"^Average (Half|Optimal|Maximal) load -j ?(\d*) Run(?: \(std deviation\))?:"
);
lazy_re!(
    RUN,
    r"^(Half|Optimal|Maximal) load -j ?(\d*) run number \d+"
);
// What kernbench prints while it prepares and runs, before its summaries.
lazy_re!(
    CHATTER,
    r"^(?:\d+ cpus found|Cleaning source tree\.*|Caching kernel source in ram\.*|No old config found, using defconfig|Making (?:mrproper|defconfig)\.*|Kernel \S+|Performing \d+ runs of|make -j ?\d*|All data logged to \S+|Warmup run\.*|Kernbench .*)$"
);
lazy_re!(
    VALUE,
    r"^(Elapsed Time|User Time|System Time|Percent CPU|Context Switches|Sleeps)\s+([\d.]+)(?:\s+\(([\d.]+)\))?(?:\s+\(\s*([+-])\s*([\d.]+)\s*%(?:\s*vs\.?\s+[^)]*?)?\s*\))?\s*$"
);

/// The kernbench importer.
pub struct Kernbench;

impl Format for Kernbench {
    fn name(&self) -> &'static str {
        "kernbench"
    }

    fn description(&self) -> &'static str {
        "kernbench: `Average Optimal load -j N Run (std deviation):` + `Elapsed Time X (sd)` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, " load -j ", &AVERAGE) {
            95
        } else {
            0
        }
    }

    /// `Average … load -j N Run` headers are `consumed` (they give the
    /// params).
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut out = Vec::new();
        let mut section: Option<(Params, String)> = None;
        // Runs of each level since its last summary: a mail pasting two
        // builds' logs has a summary per build, each over its own runs.
        let mut runs_since: hashbrown::HashMap<(String, String), usize> = Default::default();
        for l in &src.lines {
            let t = l.text.trim();
            let n = l.number;
            if let Some(c) = RUN.captures(t) {
                *runs_since
                    .entry((c[1].to_string(), c[2].to_string()))
                    .or_default() += 1;
                consumed.push(n);
            } else if CHATTER.is_match(t) {
                consumed.push(n);
            } else if let Some(c) = AVERAGE.captures(t) {
                let level = c[1].to_ascii_lowercase();
                let runs = runs_since
                    .remove(&(c[1].to_string(), c[2].to_string()))
                    .unwrap_or(0);
                let mut p = Params::default();
                p.set("load", &level);
                // Maximal load is `make -j` without a count in older versions.
                if !c[2].is_empty() {
                    p.set("jobs", &c[2]);
                }
                section = Some((p, runs.to_string()));
                consumed.push(n);
            } else if let Some(c) = VALUE.captures(t) {
                let Some((params, runs)) = &section else {
                    return Err(src.error(
                        Some(n),
                        "kernbench value outside an `Average … load` section",
                    ));
                };
                let (metric, unit) = match &c[1] {
                    "Elapsed Time" => ("elapsed time", "s"),
                    "User Time" => ("user time", "s"),
                    "System Time" => ("system time", "s"),
                    "Percent CPU" => ("cpu", "%"),
                    "Context Switches" => ("context switches", ""),
                    _ => ("sleeps", ""),
                };
                let params = params.render();
                let v = num(src, n, &c[2], metric)?;
                // A change the poster appended (`( + 2 % vs base)`).
                if let (Some(sign), Some(pct)) = (c.get(4), c.get(5)) {
                    let pct = num(src, n, pct.as_str(), "change")?;
                    let pct = if sign.as_str() == "-" { -pct } else { pct };
                    out.push(
                        Row::at(src, n)
                            .benchmark("kernbench")
                            .params(&params)
                            .metric(metric)
                            .unit("%")
                            .stat(Stat::ChangePct, pct),
                    );
                }
                let row = Row::at(src, n)
                    .benchmark("kernbench")
                    .params(&params)
                    .metric(metric)
                    .unit(unit);
                match c.get(3) {
                    Some(sd) => {
                        let sd = num(src, n, sd.as_str(), "std deviation")?;
                        out.push(row.clone().stat(Stat::Mean, v));
                        out.push(row.clone().stat(Stat::Stddev, sd));
                        if let Ok(k) = runs.parse::<u32>() {
                            if k > 0 {
                                out.push(row.stat(Stat::N, f64::from(k)));
                            }
                        }
                    }
                    None => out.push(row.sample(v)),
                }
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "kernbench section without values (truncated?)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_summary_counts_its_own_runs_and_maximal_load_may_have_no_count() {
        let two_builds = "All data logged to kernbench.log\nWarmup run...\n\
            Half load -j 8 run number 1...\nHalf load -j 8 run number 2...\n\
            Average Half load -j 8 Run (std deviation):\nElapsed Time 120.68 (0.425558)\n\
            Maximal load -j run number 1...\nMaximal load -j run number 2...\n\
            Average Maximal load -j Run (std deviation):\nElapsed Time 86.47 (0.321636)\n\
            Half load -j 8 run number 1...\nHalf load -j 8 run number 2...\n\
            Average Half load -j 8 Run (std deviation):\nElapsed Time 120.468 (0.5)\n";
        let src = Source::from_text("k.txt", two_builds);
        let parsed = Kernbench.parse_accounted(&src).unwrap();
        let n: Vec<(String, f64)> = parsed
            .observations
            .iter()
            .filter(|o| o.stat == Stat::N)
            .map(|o| (o.params.to_string(), o.value))
            .collect();
        assert_eq!(
            n,
            [
                ("jobs=8,load=half".to_string(), 2.0),
                ("load=maximal".to_string(), 2.0),
                ("jobs=8,load=half".to_string(), 2.0),
            ]
        );
        // The progress lines are kernbench's own, read as context.
        assert!(parsed.consumed.contains(&1) && parsed.consumed.contains(&3));
    }
}
