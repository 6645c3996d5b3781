//! hyperfine `--export-csv`: one summary row per command (seconds), no
//! samples; `parameter_<name>` columns become params.

use crate::error::Result;
use crate::ingest::formats::hyperfine::json::{command_templates, METRIC};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::structured::{raw_lines, split_csv};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Observation, Stat};

/// The hyperfine CSV export importer.
pub struct HyperfineCsv;

const HEADER: &str = "command,mean,stddev,median,user,system,min,max";

impl Format for HyperfineCsv {
    fn name(&self) -> &'static str {
        "hyperfine-csv"
    }

    fn description(&self) -> &'static str {
        "hyperfine --export-csv: header `command,mean,stddev,median,user,system,min,max[,parameter_*]`; summaries in s"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match raw_lines(src).next() {
            Some((_, l)) if l.trim_start_matches('\u{feff}').starts_with(HEADER) => 95,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut lines = raw_lines(src);
        let Some((hline, header)) = lines.next() else {
            return Err(src.error(None, "empty hyperfine CSV"));
        };
        let header = split_csv(header.trim_start_matches('\u{feff}'), ',');
        if header.len() < 8 || header[..8].join(",") != HEADER {
            return Err(src.error(
                Some(hline),
                format!("not a hyperfine CSV header (expected `{HEADER}`)"),
            ));
        }
        struct Row {
            line: u32,
            command: String,
            values: Vec<(usize, f64)>,
            params: Vec<(String, String)>,
        }
        let mut rows = Vec::new();
        for (n, l) in lines {
            let cells = split_csv(l, ',');
            if cells.len() != header.len() {
                return Err(src.error(
                    Some(n),
                    format!(
                        "expected {} fields like the header, found {}",
                        header.len(),
                        cells.len()
                    ),
                ));
            }
            let mut values = Vec::new();
            for (i, cell) in cells.iter().enumerate().take(8).skip(1) {
                if cell.trim().is_empty() {
                    continue; // stddev is empty for a single run
                }
                let v = parse_number(cell).ok_or_else(|| {
                    src.error(
                        Some(n),
                        format!("column `{}`: `{cell}` is not a number", header[i]),
                    )
                })?;
                values.push((i, v));
            }
            let params = header[8..]
                .iter()
                .zip(&cells[8..])
                .map(|(h, c)| {
                    (
                        h.strip_prefix("parameter_").unwrap_or(h).to_string(),
                        c.clone(),
                    )
                })
                .collect();
            rows.push(Row {
                line: n,
                command: cells[0].clone(),
                values,
                params,
            });
        }
        let commands: Vec<&str> = rows.iter().map(|r| r.command.as_str()).collect();
        let params: Vec<Vec<(String, String)>> = rows.iter().map(|r| r.params.clone()).collect();
        let names = command_templates(&commands, &params);
        let mut out = Vec::new();
        for (r, name) in rows.iter().zip(names) {
            let ps = canonical_params(&r.params);
            for &(i, v) in &r.values {
                let (metric, stat) = match header[i].as_str() {
                    "mean" => (METRIC, Stat::Mean),
                    "stddev" => (METRIC, Stat::Stddev),
                    "median" => (METRIC, Stat::Median),
                    "min" => (METRIC, Stat::Min),
                    "max" => (METRIC, Stat::Max),
                    "user" => ("user", Stat::Mean),
                    _ => ("system", Stat::Mean),
                };
                out.push(
                    Observation::new(name.as_str(), metric, "s", stat, v)
                        .at_line(r.line)
                        .with_params_str(ps.clone()),
                );
            }
        }
        Ok(out.into())
    }
}
