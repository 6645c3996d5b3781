//! kernbench summaries: `Average Optimal load -j 8 Run (std deviation):`
//! followed by `Elapsed Time 28.094 (0.182565)`-style lines, one section per
//! load level (`load=half|optimal|maximal`, `jobs=N`).
//!
//! Each value is the mean over the runs of that load level and the
//! parenthesised number their standard deviation: `mean` and `stddev`. n is
//! not on the line; it is the number of `… load -j N run number K` lines of
//! that level when the log has them. With a single run the parentheses are
//! missing and the value is a `sample`. Metrics: `elapsed time`, `user time`,
//! `system time` (s), `cpu` (%), `context switches`, `sleeps`.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    AVERAGE,
    r"^Average (Half|Optimal|Maximal) load -j (\d+) Run(?: \(std deviation\))?:"
);
lazy_re!(RUN, r"^(Half|Optimal|Maximal) load -j (\d+) run number \d+");
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
        for l in &src.lines {
            let t = l.text.trim();
            let n = l.number;
            if let Some(c) = AVERAGE.captures(t) {
                let level = c[1].to_ascii_lowercase();
                let runs = src
                    .lines
                    .iter()
                    .filter_map(|x| RUN.captures(x.text.trim()))
                    .filter(|r| r[1] == c[1] && r[2] == c[2])
                    .count();
                let mut p = Params::default();
                p.set("load", &level);
                p.set("jobs", &c[2]);
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
