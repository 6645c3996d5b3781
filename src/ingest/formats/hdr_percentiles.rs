//! HdrHistogram's percentile distribution, as its libraries print it
//! (`outputPercentileDistribution` in Java, C, Go and Rust; memtier's
//! `--hdr-file-prefix` files, vegeta's `report -type=hdrplot`): a header
//! `Value  Percentile  TotalCount  1/(1-Percentile)` on the first line
//! (the value's unit in brackets when the tool scaled it, `Value(ms)`),
//! one line per point of the distribution, and in the libraries' output
//! a footer `#[Mean = 6.602, StdDeviation = 1.919]`, `#[Max = 12.496,
//! Total count = 39500]`, `#[Buckets = 27, SubBuckets = 2048]`. The CSV
//! form has the same columns, quoted and comma-separated.
//!
//! One benchmark, named by the file. Metric `value` in the header's unit:
//! each point is the percentile its line states (`0.990625` is p99.0625),
//! the footer gives the mean, standard deviation, maximum and count. The
//! table keeps a percentile to a thousandth of a percent: the points
//! finer than that (the distribution's deep tail, `0.999957`) are left
//! out with the reason, as are the cumulative counts and the bucket
//! configuration.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

/// The HdrHistogram percentile distribution importer.
pub struct HdrPercentiles;

lazy_re!(
    HEADER,
    r#"^"?Value(?:\((\w+)\))?"?[\s,]+"?Percentile"?[\s,]+"?TotalCount"?[\s,]+"?1/\(1-Percentile\)"?\s*$"#
);
lazy_re!(
    FOOTER,
    r"^#\[(\w+(?: \w+)?)\s*=\s*([-+\d.eE]+),\s*(\w+(?: \w+)?)\s*=\s*([-+\d.eE]+)\]$"
);

/// The first non-blank line, if it is the header: its unit.
fn header(src: &Source) -> Option<(u32, String)> {
    let l = src.lines.iter().find(|l| !l.text.trim().is_empty())?;
    let c = HEADER.captures(l.text.trim())?;
    Some((l.number, c.get(1).map_or("", |u| u.as_str()).to_string()))
}

/// The stat a point of the distribution is, when the table can hold its
/// percentile exactly.
fn point(fraction: f64) -> Option<Stat> {
    let thousandths = fraction * 100_000.0;
    ((thousandths - thousandths.round()).abs() < 1e-6 && (0.0..=1.0).contains(&fraction))
        .then(|| Stat::Percentile(thousandths.round() as u32))
}

impl Format for HdrPercentiles {
    fn name(&self) -> &'static str {
        "hdr-percentiles"
    }

    fn description(&self) -> &'static str {
        "HdrHistogram percentile distribution (text or CSV): `Value  Percentile  TotalCount  1/(1-Percentile)` header first, `#[Mean = …]` footer"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if header(src).is_some() {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let Some((first, unit)) = header(src) else {
            return Err(src.error(None, "no HdrHistogram percentile header found"));
        };
        // Named by the file, as the distribution names nothing itself.
        let name = src.file_name();
        let bench = name
            .split('.')
            .next()
            .filter(|s| !s.is_empty())
            .unwrap_or(name);
        let mut out = Vec::new();
        let mut consumed = vec![first];
        let mut skipped = Vec::new();
        for l in src.lines.iter().filter(|l| l.number > first) {
            let n = l.number;
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(c) = FOOTER.captures(t) {
                for (key, value) in [(&c[1], &c[2]), (&c[3], &c[4])] {
                    let stat = match key {
                        "Mean" => Stat::Mean,
                        "StdDeviation" => Stat::Stddev,
                        "Max" => Stat::Max,
                        "Total count" => Stat::N,
                        // The histogram's configuration (`Buckets`).
                        _ => {
                            if consumed.last() != Some(&n) {
                                consumed.push(n);
                            }
                            continue;
                        }
                    };
                    let v = num(src, n, value, key)?;
                    out.push(
                        Row::at(src, n)
                            .benchmark(bench)
                            .metric("value")
                            .unit(&unit)
                            .stat(stat, v),
                    );
                }
                continue;
            }
            let cells: Vec<&str> = t
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|c| !c.is_empty())
                .collect();
            if cells.len() != 4 {
                continue;
            }
            let value = num(src, n, cells[0], "Value")?;
            let fraction = num(src, n, cells[1], "Percentile")?;
            match point(fraction) {
                Some(stat) => out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .metric("value")
                        .unit(&unit)
                        .stat(stat, value),
                ),
                None => skipped.push((
                    n,
                    format!(
                        "percentile {} is finer than the table's thousandth of a percent",
                        cells[1]
                    ),
                )),
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no point of an HdrHistogram percentile distribution found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> Vec<(u32, String, Stat, f64)> {
        crate::ingest::parse_file(&HdrPercentiles, path)
            .observations
            .iter()
            .map(|o| (o.line, o.unit.to_string(), o.stat, o.value))
            .collect()
    }

    #[test]
    fn points_of_the_distribution_are_percentiles_in_the_header_s_unit() {
        let got = read("tests/data/harness/hdrhistogram/vegeta-readme-hdrplot.txt");
        let ms = |line, stat, v: f64| (line, "ms".to_string(), stat, v);
        assert_eq!(got[0], ms(2, Stat::Percentile(0), 0.076715));
        assert_eq!(got[5], ms(7, Stat::percentile(50.0), 0.513059));
        assert_eq!(
            got.last().unwrap(),
            &ms(95, Stat::percentile(100.0), 2.658916)
        );
        // 0.987500 is p98.75; 0.989062 is finer than the table keeps.
        assert!(got.contains(&ms(34, Stat::percentile(98.75), 0.629121)));
        assert!(!got.iter().any(|r| r.0 == 35));
    }

    #[test]
    fn the_footer_gives_mean_spread_max_and_count() {
        let text = "       Value     Percentile TotalCount 1/(1-Percentile)\n\n\
                    \x20      0.921     0.000000            1         1.00\n\
                    \x20     12.495     1.000000        39500          inf\n\
                    #[Mean    =        6.602, StdDeviation   =        1.919]\n\
                    #[Max     =       12.496, Total count    =        39500]\n\
                    #[Buckets =           27, SubBuckets     =         2048]\n";
        let src = Source::from_text("run.hgrm", text);
        assert_eq!(HdrPercentiles.detect(&src), 95);
        let p = HdrPercentiles.parse_accounted(&src).unwrap();
        let got: Vec<(Stat, f64)> = p.observations.iter().map(|o| (o.stat, o.value)).collect();
        assert_eq!(
            got,
            vec![
                (Stat::Percentile(0), 0.921),
                (Stat::percentile(100.0), 12.495),
                (Stat::Mean, 6.602),
                (Stat::Stddev, 1.919),
                (Stat::Max, 12.496),
                (Stat::N, 39500.0),
            ]
        );
        assert!(p.observations.iter().all(|o| o.unit.is_empty()));
        assert_eq!(p.consumed, vec![1, 7]);
    }

    #[test]
    fn the_csv_form_and_a_header_elsewhere() {
        let text = "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n0.5,0.500000000000,5,2.00\n";
        let src = Source::from_text("h.csv", text);
        let p = HdrPercentiles.parse_accounted(&src).unwrap();
        assert_eq!(p.observations[0].stat, Stat::percentile(50.0));
        let wrk = "Running 30s test @ http://x\n       Value   Percentile   TotalCount 1/(1-Percentile)\n";
        assert_eq!(HdrPercentiles.detect(&Source::from_text("w.txt", wrk)), 0);
    }
}
