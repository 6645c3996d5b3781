//! bonnie++: its CSV result line (`1.98,2.00a,host,1,seed,512M,,8192,5,1164,
//! 99,1040561,69,…,11003us,…`), which `-q` prints alone, the default run
//! prints after its human table, and `bon_csv2txt` reads. The human table
//! restates the line with rounded, scaled cells (`1.0g`) and is read past.
//!
//! Benchmark `bonnie++`; parameters the file size and the concurrency;
//! metrics, each a `sample` of the run: the block tests in KiB/s (`seq
//! output char|block`, `rewrite`, `seq input char|block`), `random seeks`
//! (/s), the file tests in files/s (`seq create|stat|delete`, `random
//! create|stat|delete`), each test's `cpu` (%) and `latency` (µs). A
//! `+++++` cell (a test too fast to time) has no value. A log of several
//! runs gives a run each.
//!
//! The first field is the line's format version. 1.98 (bonnie++ 1.98 and
//! 2.0x) put the seek count and seeker processes after the chunk size;
//! 1.96 and 1.97 (bonnie++ 1.96, 1.97) have not those two fields, so every
//! later field stands two places earlier (48 fields, not 50).

use super::{micros, TESTS};
use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(CSV, r"^1\.9\d,[\d.]+\w*,");

/// How many places a result line's fields stand before 1.98's, and how
/// many fields it has at least; `None` for no result line.
fn layout(t: &str, fields: &[&str]) -> Option<(usize, usize)> {
    if !CSV.is_match(t) {
        return None;
    }
    let (shift, needed) = match fields[0] {
        "1.96" | "1.97" => (2, 48),
        _ => (0, 50),
    };
    (fields.len() >= needed).then_some((shift, needed))
}
lazy_re!(
    HUMAN,
    r"^(?:Version \S+\s+-|\s*-Per Chr-|Name:Size|Latency\s|\s+files\s|Using uid|.*\.\.\.done)"
);

/// The bonnie++ importer.
pub struct Bonnie;

impl Format for Bonnie {
    fn name(&self) -> &'static str {
        "bonnie++"
    }

    fn description(&self) -> &'static str {
        "bonnie++: its CSV result line (alone with -q, after the human table by default, or a file of them), rates, CPU and latencies of each test"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let result = src.lines.iter().any(|l| {
            let t = l.text.trim();
            let fields: Vec<&str> = t.split(',').collect();
            layout(t, &fields).is_some()
        });
        if result {
            97
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            let fields: Vec<&str> = t.split(',').collect();
            let Some((shift, _)) = layout(t, &fields) else {
                if HUMAN.is_match(&l.text) || t.starts_with("Version") {
                    consumed.push(n);
                }
                continue;
            };
            let mut p = Params::default();
            p.set("size", fields[5]);
            p.set("concurrency", fields[3]);
            let params = p.render();
            let row = |metric: &str, unit: &str, v: f64| {
                Row::at(src, n)
                    .benchmark("bonnie++")
                    .params(&params)
                    .metric(metric)
                    .unit(unit)
                    .sample(v)
            };
            for (name, at, lat, unit) in TESTS {
                let (at, lat) = (at - shift, lat - shift);
                // `+++++`: too fast to time; an empty cell: not run.
                if let Ok(v) = fields[at].parse::<f64>() {
                    out.push(row(name, unit, v));
                    if let Ok(cpu) = fields[at + 1].parse::<f64>() {
                        out.push(row(&format!("{name} cpu"), "%", cpu));
                    }
                }
                if !fields[lat].is_empty() {
                    let us =
                        micros(fields[lat]).map_or_else(|| num(src, n, fields[lat], name), Ok)?;
                    out.push(row(&format!("{name} latency"), "us", us));
                }
            }
            consumed.push(n);
        }
        // A table row of the human report (`pp-host 512M 1164k 99 …`) is
        // the CSV line's restatement when one follows.
        if !out.is_empty() {
            for l in &src.lines {
                let t = l.text.trim();
                if !t.is_empty() && !CSV.is_match(t) && !consumed.contains(&l.number) {
                    let first = t.split_whitespace().next().unwrap_or("");
                    let cells = t
                        .split_whitespace()
                        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit() || c == '+'))
                        .count();
                    if cells >= 4 || first.chars().all(|c| c.is_ascii_digit()) {
                        consumed.push(l.number);
                    }
                }
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no bonnie++ CSV result line (`1.98,2.00a,host,…`)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_line_gives_each_test_its_rate_cpu_and_latency() {
        let line = "1.98,2.00a,pp-host,1,1796347665,512M,,8192,5,1164,99,1040561,69,1013258,56,1861,99,+++++,+++,+++++,+++,4,,,,,1306,73,+++++,+++,6697,36,377,20,+++++,+++,6991,37,11003us,1396us,659us,5564us,73us,1097us,51018us,347us,17638us,1346ms,50us,3302us\n";
        let src = Source::from_text("b.csv", line);
        assert_eq!(Bonnie.detect(&src), 97);
        let obs = Bonnie.parse(&src).unwrap();
        let get = |m: &str| {
            obs.iter()
                .find(|o| o.metric == m)
                .map(|o| (o.value, o.unit.to_string()))
        };
        assert_eq!(get("seq output block"), Some((1040561.0, "KiB/s".into())));
        assert_eq!(get("seq output block cpu"), Some((69.0, "%".into())));
        assert_eq!(get("random create latency"), Some((1346000.0, "us".into())));
        assert_eq!(get("seq input block"), None);
        assert_eq!(get("seq input block latency"), Some((73.0, "us".into())));
        assert_eq!(obs[0].params.as_str(), "concurrency=1,size=512M");
    }

    #[test]
    fn a_format_1_96_line_has_no_seek_fields() {
        let p = crate::ingest::parse_file(&Bonnie, "tests/data/harness/bonnie++/pkb-1.96.txt");
        let get = |m: &str| {
            p.observations
                .iter()
                .find(|o| o.metric == m)
                .map(|o| (o.value, o.unit.to_string()))
        };
        let v = |x: f64, u: &str| Some((x, u.to_string()));
        assert_eq!(get("seq output char"), None);
        assert_eq!(get("seq output block"), v(72853.0, "KiB/s"));
        assert_eq!(get("seq output block cpu"), v(15.0, "%"));
        assert_eq!(get("rewrite"), v(47358.0, "KiB/s"));
        assert_eq!(get("rewrite cpu"), v(5.0, "%"));
        assert_eq!(get("seq input block"), v(156821.0, "KiB/s"));
        assert_eq!(get("seq input block cpu"), v(7.0, "%"));
        assert_eq!(get("random seeks"), v(537.7, "/s"));
        assert_eq!(get("random seeks cpu"), v(10.0, "%"));
        assert_eq!(get("seq create"), v(49223.0, "files/s"));
        assert_eq!(get("seq create cpu"), v(58.0, "%"));
        assert_eq!(get("seq stat"), None);
        assert_eq!(get("seq delete"), v(54405.0, "files/s"));
        assert_eq!(get("random create"), v(2898.0, "files/s"));
        assert_eq!(get("random create cpu"), v(97.0, "%"));
        assert_eq!(get("random stat"), None);
        assert_eq!(get("random delete"), v(59089.0, "files/s"));
        assert_eq!(get("random delete cpu"), v(60.0, "%"));
        assert_eq!(get("seq output char latency"), None);
        assert_eq!(get("seq output block latency"), v(512000.0, "us"));
        assert_eq!(get("rewrite latency"), v(670000.0, "us"));
        assert_eq!(get("seq input block latency"), v(44660.0, "us"));
        assert_eq!(get("random seeks latency"), v(200000.0, "us"));
        assert_eq!(get("seq create latency"), v(3747.0, "us"));
        assert_eq!(get("seq stat latency"), v(1759.0, "us"));
        assert_eq!(get("seq delete latency"), v(1643.0, "us"));
        assert_eq!(get("random create latency"), v(33518.0, "us"));
        assert_eq!(get("random stat latency"), v(192.0, "us"));
        assert_eq!(get("random delete latency"), v(839.0, "us"));
        assert_eq!(p.observations.len(), 8 * 2 + 10);
        assert_eq!(p.observations[0].params, "concurrency=1,size=7423M");
    }
}
