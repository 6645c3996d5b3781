//! sysstat's `sadf` exports of a sar data file in its two line formats:
//! `-d`, tables of `;`-separated rows, each under its own commented header
//! (`# hostname;interval;timestamp;CPU;%usr;…`), and `-p`, a value per line
//! (`host<TAB>interval<TAB>timestamp<TAB>device<TAB>field<TAB>value`).
//!
//! Named as the text reports name them (see `sysstat`): after the host,
//! interval and time stamp, a column named in capitals (`CPU`, `DEV`,
//! `IFACE`) is a key, giving the row's parameters and the benchmark name
//! (`system` without one); every other column is a metric, `%` columns in
//! percent, a `sample` per interval. `-p`'s device is the key (`-`: none),
//! its field the metric. `LINUX-RESTART` records are left out with the
//! reason, as are cells that are no number.

use crate::error::Result;
use crate::ingest::shared::logscan::lazy_re;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(STAMP, r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}");

/// The sadf -d / -p importer.
pub struct Sadf;

const HEADER: &str = "# hostname;interval;timestamp;";

/// A header cell naming a key: capitals only (`CPU`, `DEV`).
fn capital_name(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        && name.chars().any(|c| c.is_ascii_uppercase())
}

/// One value line of `-p`: host, interval, time stamp, device, field, value.
fn p_line(text: &str) -> Option<[&str; 6]> {
    let f: Vec<&str> = text.split('\t').collect();
    (f.len() == 6 && STAMP.is_match(f[2])).then(|| [f[0], f[1], f[2], f[3], f[4], f[5]])
}

fn unit_of(name: &str) -> &'static str {
    if name.starts_with('%') {
        "%"
    } else {
        ""
    }
}

fn row(src: &Source, line: u32, bench: &str, params: &str, metric: &str, v: f64) -> Observation {
    Row::at(src, line)
        .benchmark(bench)
        .params(params)
        .metric(metric)
        .unit(unit_of(metric))
        .sample(v)
}

impl Format for Sadf {
    fn name(&self) -> &'static str {
        "sysstat-sadf"
    }

    fn description(&self) -> &'static str {
        "sysstat sadf -d (`# hostname;interval;timestamp;…` headers over `;` rows) and sadf -p \
         (`host\tinterval\ttimestamp\tdevice\tfield\tvalue` lines)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut content = src.lines.iter().filter(|l| !l.text.trim().is_empty());
        match content.next() {
            Some(l) if l.text.starts_with(HEADER) => 95,
            Some(l) if p_line(&l.text).is_some() => {
                let (mut n, mut p) = (1usize, 1usize);
                for l in content.take(200) {
                    n += 1;
                    p += usize::from(p_line(&l.text).is_some());
                }
                if p * 10 >= n * 9 {
                    95
                } else {
                    0
                }
            }
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut header: Option<Vec<String>> = None;
        for l in &src.lines {
            let n = l.number;
            let text = l.text.trim_end();
            if text.is_empty() {
                continue;
            }
            if text.contains("LINUX-RESTART") {
                skipped.push((n, "a restart of the system being recorded".to_string()));
                continue;
            }
            if let Some(h) = text.strip_prefix(HEADER) {
                header = Some(h.split(';').map(str::to_string).collect());
                consumed.push(n);
                continue;
            }
            if let Some([_, _, _, device, field, value]) = p_line(text) {
                let Some(v) = parse_number(value) else {
                    skipped.push((n, format!("`{value}` is no number")));
                    continue;
                };
                let (bench, params) = match device {
                    "-" => ("system".to_string(), String::new()),
                    d => ("device".to_string(), format!("device={d}")),
                };
                out.push(row(src, n, &bench, &params, field, v));
                continue;
            }
            let Some(names) = &header else {
                continue;
            };
            let cells: Vec<&str> = text.split(';').collect();
            if cells.len() != names.len() + 3 {
                skipped.push((
                    n,
                    format!(
                        "{} fields under a header of {}",
                        cells.len(),
                        names.len() + 3
                    ),
                ));
                continue;
            }
            let cells = &cells[3..];
            let keys: Vec<usize> = (0..names.len())
                .filter(|&c| capital_name(&names[c]))
                .collect();
            let params: Vec<String> = keys
                .iter()
                .map(|&c| format!("{}={}", names[c], cells[c]))
                .collect();
            let bench = if keys.is_empty() {
                "system".to_string()
            } else {
                keys.iter()
                    .map(|&c| names[c].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let params = params.join(",");
            let mut lost = Vec::new();
            for c in (0..names.len()).filter(|c| !keys.contains(c)) {
                match parse_number(cells[c]) {
                    Some(v) => out.push(row(src, n, &bench, &params, &names[c], v)),
                    None => lost.push(names[c].as_str()),
                }
            }
            if !lost.is_empty() {
                skipped.push((n, format!("cells that are no number: {}", lost.join(", "))));
            }
        }
        Parsed::found(src, out, consumed, skipped, "no sadf -d or -p record")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn sadf_d_tables_each_under_its_commented_header() {
        let p = parse_file(
            &Sadf,
            "tests/data/harness/sysstat/sadf-d-first-60-lines.txt",
        );
        let r = rows(&p);
        assert_eq!(r[0], "2 CPU|CPU=-1|%usr|%=2.15");
        assert_eq!(r[9], "2 CPU|CPU=-1|%idle|%=82.88");
        assert_eq!(r[10], "3 CPU|CPU=0|%usr|%=2.71");
        assert!(r.contains(&"39 system||proc/s|=3.56".to_string()));
        assert!(p.consumed.contains(&38));
    }

    #[test]
    fn sadf_p_lines_give_a_value_each() {
        let p = parse_file(&Sadf, "tests/data/harness/sysstat/sadf-p-3000-lines.txt");
        let r = rows(&p);
        assert_eq!(r.len(), 3000);
        assert_eq!(r[0], "1 device|device=all|%usr|%=2.15");
        assert_eq!(r[2], "3 device|device=all|%sys|%=1.84");
    }

    #[test]
    fn only_files_that_open_with_a_sadf_record() {
        let text = "Results:\n# hostname;interval;timestamp;CPU;%usr\n";
        assert_eq!(Sadf.detect(&Source::from_text("a.txt", text)), 0);
        let text = "SYSSTAT.TEST\t31\t2019-04-18 13:20:19 UTC\tall\t%usr\t2.15\n";
        assert_eq!(Sadf.detect(&Source::from_text("a.txt", text)), 95);
    }
}
