//! memtier_benchmark (Redis and memcached load generator): after its
//! settings (`4  Threads`, `25  Connections per thread`, `10000  Requests
//! per client`) each result table opens with its title — `ALL STATS` for a
//! single run, `RUN #N RESULTS` per run with `--print-all-runs`, `BEST RUN
//! RESULTS`, `WORST RUN RESULTS` and `AGGREGATED AVERAGE RESULTS (N runs)`
//! with `-x N` — over a header (`Type  Ops/sec  Hits/sec  Misses/sec  Avg.
//! Latency  p50 Latency … KB/sec`, older versions a single `Latency`) and
//! one row per command type (`Sets`, `Gets`, `Waits`, `Totals`), `---` where
//! a column does not apply. A `Request Latency Distribution` (a CDF in ms)
//! follows each table.
//!
//! Benchmark `memtier`, parameters the command type (`op=gets`), threads,
//! connections per thread and requests per client; metrics `ops` (ops/s),
//! `hits` and `misses` (/s), `latency avg|pNN` (ms) and `throughput`
//! (KB/s). `ALL STATS` and `RUN #N` rows are samples, the aggregated
//! average its mean with n; the best and worst runs are accounted, not
//! read (one run's figures, chosen by its rate).

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_near_start, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(HEADER, r"^Type\s+Ops/sec\s+Hits/sec\s+Misses/sec\b");
lazy_re!(
    TITLE,
    r"^(ALL STATS|RUN #(\d+) RESULTS|BEST RUN RESULTS|WORST RUN RESULTS|AGGREGATED AVERAGE RESULTS \((\d+) runs\))\s*$"
);
lazy_re!(
    SETTING,
    r"^(\d+)\s+(Threads|Connections per thread|Requests per client|Seconds)\s*$"
);
lazy_re!(RULE, r"^[=-]{10,}\s*$");
lazy_re!(COLUMN_GAP, r"\s{2,}");
lazy_re!(PROGRESS, r"^\[RUN #\d+");
lazy_re!(CDF_POINT, r"^[A-Z][A-Za-z_]*\s+[0-9.]+\s+[0-9.]+\s*$");

/// The memtier_benchmark importer.
pub struct Memtier;

impl Format for Memtier {
    fn name(&self) -> &'static str {
        "memtier"
    }

    fn description(&self) -> &'static str {
        "memtier_benchmark: its `ALL STATS`, `RUN #N RESULTS` and `AGGREGATED AVERAGE RESULTS` tables (ops/s, hits, misses, latency avg/percentiles in ms, KB/s per command type)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_near_start(src, &HEADER) {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut r = Reader::default();
        for l in &src.lines {
            r.line(src, l.number, l.text.trim())?;
        }
        Parsed::found(
            src,
            r.out,
            r.consumed,
            r.skipped,
            "no memtier_benchmark result table (`Type  Ops/sec  Hits/sec  Misses/sec …` under `ALL STATS` or `AGGREGATED AVERAGE RESULTS`)",
        )
    }
}

/// How the rows of the table being read count.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// One run's figures: `ALL STATS`, or `RUN #N RESULTS` (its index).
    Run(Option<u32>),
    /// The mean of N runs.
    Average(f64),
    /// The best or worst run, accounted but not read.
    Extreme,
}

#[derive(Default)]
struct Reader {
    settings: Params,
    /// The title of the table being read, once seen.
    kind: Option<Kind>,
    /// The columns of its header, `Type` first.
    columns: Vec<String>,
    /// Inside a latency distribution.
    cdf: bool,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        if let Some(c) = TITLE.captures(t) {
            self.kind = Some(if let Some(runs) = c.get(3) {
                Kind::Average(num(src, n, runs.as_str(), "memtier run count")?)
            } else if let Some(run) = c.get(2) {
                let run = num(src, n, run.as_str(), "memtier run number")? as u32;
                Kind::Run(Some(run.saturating_sub(1)))
            } else if &c[1] == "ALL STATS" {
                Kind::Run(None)
            } else {
                Kind::Extreme
            });
            (self.columns, self.cdf) = (Vec::new(), false);
            self.consumed.push(n);
        } else if HEADER.is_match(t) {
            self.columns = COLUMN_GAP.split(t).map(str::to_string).collect();
            self.cdf = false;
            self.consumed.push(n);
        } else if let Some(c) = SETTING.captures(t) {
            let key = match &c[2] {
                "Threads" => "threads",
                "Connections per thread" => "connections",
                "Requests per client" => "requests",
                _ => "seconds",
            };
            self.settings.set(key, &c[1]);
            self.consumed.push(n);
        } else if t == "Request Latency Distribution" {
            (self.cdf, self.columns) = (true, Vec::new());
            self.consumed.push(n);
        } else if self.cdf && (CDF_POINT.is_match(t) || t.starts_with("Type ")) {
            self.skipped.push((
                n,
                "a point of the request latency distribution (the table above gives its percentiles)"
                    .to_string(),
            ));
        } else if RULE.is_match(t) || t == "---" {
            self.consumed.push(n);
        } else if PROGRESS.is_match(t) {
            self.skipped.push((
                n,
                "a run's progress report; its result tables follow".to_string(),
            ));
        } else if lkp_wrapper::is_logged_command(t) {
            self.skipped.push((
                n,
                "LKP wrapper: the command it runs, behind a timestamp (the settings lines give the parameters)"
                    .to_string(),
            ));
        } else if !self.columns.is_empty() && !t.is_empty() {
            self.row(src, n, t)?;
        } else if t.is_empty() {
            self.cdf = false;
        }
        Ok(())
    }

    /// One row of a result table: a command type and its cells.
    fn row(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        let cells: Vec<&str> = t.split_whitespace().collect();
        if cells.len() != self.columns.len() {
            return Err(src.error(
                Some(n),
                format!(
                    "memtier table row: {} cells under a header of {} columns",
                    cells.len(),
                    self.columns.len()
                ),
            ));
        }
        let Some(kind) = self.kind else {
            return Err(src.error(Some(n), "memtier table row before any table title"));
        };
        if kind == Kind::Extreme {
            self.skipped.push((
                n,
                "the best or worst run's figures (one run, chosen by its rate); the aggregated average is read"
                    .to_string(),
            ));
            return Ok(());
        }
        let op = cells[0].to_ascii_lowercase();
        if cells[1..].iter().all(|c| *c == "---" || *c == "0.00") {
            self.skipped.push((
                n,
                format!(
                    "no `{}` command was sent (every cell zero or `---`)",
                    cells[0]
                ),
            ));
            return Ok(());
        }
        let mut params = self.settings.clone();
        params.set("op", &op);
        let params = params.render();
        for (column, cell) in self.columns[1..].iter().zip(&cells[1..]) {
            if *cell == "---" {
                continue;
            }
            let Some((metric, unit)) = metric(column) else {
                continue;
            };
            let v = num(src, n, cell, column)?;
            let row = Row::at(src, n)
                .benchmark("memtier")
                .params(&params)
                .metric(&metric)
                .unit(unit);
            match kind {
                Kind::Average(runs) => {
                    self.out.push(row.clone().stat(Stat::Mean, v));
                    self.out.push(row.stat(Stat::N, runs));
                }
                _ => {
                    let mut o = row.sample(v);
                    if let Kind::Run(Some(run)) = kind {
                        o.run = Some(run);
                    }
                    self.out.push(o);
                }
            }
        }
        Ok(())
    }
}

/// The metric and unit a header column names; `None` for a column not
/// known (a later version's), which is then not read.
fn metric(column: &str) -> Option<(String, &'static str)> {
    let c = column.trim();
    Some(match c {
        "Ops/sec" => ("ops".into(), "ops/s"),
        "Hits/sec" => ("hits".into(), "/s"),
        "Misses/sec" => ("misses".into(), "/s"),
        "Moved/sec" => ("moved".into(), "/s"),
        "Asks/sec" => ("asks".into(), "/s"),
        "Latency" | "Avg. Latency" => ("latency avg".into(), "ms"),
        "KB/sec" => ("throughput".into(), "KB/s"),
        _ => {
            let p = c.strip_prefix('p')?.strip_suffix(" Latency")?;
            p.parse::<f64>().ok()?;
            (format!("latency p{p}"), "ms")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_name_metrics_in_their_units() {
        assert_eq!(
            metric("p99.9 Latency"),
            Some(("latency p99.9".into(), "ms"))
        );
        assert_eq!(metric("Avg. Latency"), Some(("latency avg".into(), "ms")));
        assert_eq!(metric("Errors/sec"), None);
    }

    #[test]
    fn a_short_row_names_its_line() {
        let text = "ALL STATS\nType         Ops/sec     Hits/sec   Misses/sec      Latency       KB/sec\nSets        2.0   ---\n";
        let e = Memtier
            .parse_accounted(&Source::from_text("m.txt", text))
            .unwrap_err()
            .to_string();
        assert!(e.contains("m.txt:3") && e.contains("3 cells"), "{e}");
    }
}
