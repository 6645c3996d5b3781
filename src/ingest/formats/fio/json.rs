//! fio `--output-format=json` / `json+`: per job (`job=<jobname>`) and per
//! direction (`rw=read|write|trim|mixed`, only directions that did I/O):
//! `iops`, `bw` (KiB/s, fio's 1024-byte unit), `clat mean` and `lat mean`
//! (ns; fio 2.x's µs keys `clat`/`lat` are read in µs), and the completion
//! latency percentiles `clat p50/p90/p99/p99.9` — each a `sample` of the run.
//!
//! A file can hold several JSON documents. `--status-interval` writes
//! cumulative snapshots of one run (same `job_start`): only the last is
//! read. Documents of different runs (e.g. appended with `>>`) are each read.
//! Text fio prints before the JSON (warnings) is skipped. JSON values have no
//! line: `line` is 0.
//!
//! A client/server run (`fio --client=HOST …`) writes `client_stats` in
//! place of `jobs`: the same job objects, each with the `hostname` of the
//! client that ran it (`host=` among the params), and fio's sum over all
//! clients as the job `All clients` (whose `hostname` is only the last
//! client's, so it names none).
//!
//! `disk_util`, the kernel's counts per disk over the run, is read as the
//! text report's `Disk stats` block is (see [`super::text`]): `disk=` the
//! device, `read_ios` as metric `disk ios` with `rw=read`, `merges` named
//! `merge` as the text prints it, `aggr_…` (an md device's members)
//! as `disk aggr…`.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;
use serde_json::Value;

/// The fio JSON importer.
pub struct FioJson;

const PERCENTILES: [(&str, &str); 4] = [
    ("50.000000", "clat p50"),
    ("90.000000", "clat p90"),
    ("99.000000", "clat p99"),
    ("99.900000", "clat p99.9"),
];

/// All JSON documents of the file, in order, and the line where fio's
/// text report starts when one follows them (`--output-format=json,normal`).
fn documents(src: &Source) -> Result<(Vec<Value>, Option<u32>)> {
    let raw = &src.raw;
    let Some(start) = raw.find('{') else {
        return Err(src.error(None, "no JSON object in the file"));
    };
    let mut docs = Vec::new();
    let body = &raw[start..];
    let mut stream = serde_json::Deserializer::from_str(body).into_iter::<Value>();
    loop {
        // Text after a document, not another document: the same results
        // as fio's text report, which the JSON holds in full.
        let at = stream.byte_offset();
        let rest = body[at..].trim_start();
        if !docs.is_empty() && !rest.is_empty() && !rest.starts_with('{') {
            let text_at = start + body.len() - rest.len();
            let line = raw[..text_at].matches('\n').count() as u32 + 1;
            return Ok((docs, Some(line)));
        }
        match stream.next() {
            None => break,
            Some(Ok(v)) => docs.push(v),
            Some(Err(e)) => {
                let line = raw[..start].matches('\n').count() + e.line();
                return Err(src.error(
                    Some(line as u32),
                    format!("invalid fio JSON (column {}): {e}", e.column()),
                ));
            }
        }
    }
    Ok((docs, None))
}

/// The job objects of a document: `jobs`, or a client/server run's
/// `client_stats`.
fn jobs_of(doc: &Value) -> Option<&Vec<Value>> {
    doc.get("jobs")
        .or_else(|| doc.get("client_stats"))?
        .as_array()
}

/// `job_start` of every job: equal in two documents means one run's snapshots.
fn job_starts(doc: &Value) -> Option<Vec<i64>> {
    jobs_of(doc)?
        .iter()
        .map(|j| j.get("job_start").and_then(Value::as_i64))
        .collect()
}

impl Format for FioJson {
    fn name(&self) -> &'static str {
        "fio-json"
    }

    fn description(&self) -> &'static str {
        "fio --output-format=json|json+: top-level `\"fio version\"` and `\"jobs\"` (several documents allowed)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw.as_str();
        let jobs = raw.contains("\"jobs\"") || raw.contains("\"client_stats\"");
        if raw.contains("\"fio version\"") && jobs {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (docs, text_from) = documents(src)?;
        let mut runs: Vec<&Value> = Vec::new();
        for d in &docs {
            if jobs_of(d).is_none() {
                return Err(src.error(
                    None,
                    "fio JSON document without a `jobs` or `client_stats` array",
                ));
            }
            // A snapshot of the run already held replaces it.
            match (runs.last(), job_starts(d)) {
                (Some(prev), Some(starts)) if job_starts(prev).as_ref() == Some(&starts) => {
                    runs.pop();
                }
                _ => {}
            }
            runs.push(d);
        }
        let mut out = Vec::new();
        for doc in runs {
            read_doc(src, doc, &mut out)?;
        }
        if out.is_empty() {
            return Err(src.error(None, "fio JSON holds no job that did I/O"));
        }
        let mut parsed = Parsed::from(out);
        if let Some(first) = text_from {
            let why = "fio's text report of the same run (the JSON above is read)";
            parsed.skipped.extend(
                src.lines
                    .iter()
                    .filter(|l| l.number >= first && !l.text.trim().is_empty())
                    .map(|l| (l.number, why.to_string())),
            );
        }
        Ok(parsed)
    }
}

/// The rows of a document's `disk_util` array (see the module documentation).
fn read_disks(src: &Source, doc: &Value, out: &mut Vec<Observation>) {
    let disks = doc.get("disk_util").and_then(Value::as_array);
    for disk in disks.into_iter().flatten() {
        let (Some(device), Some(fields)) =
            (disk.get("name").and_then(Value::as_str), disk.as_object())
        else {
            continue;
        };
        for (key, value) in fields {
            let Some(v) = value.as_f64().filter(|v| v.is_finite()) else {
                continue;
            };
            let (aggr, rest) = match key.strip_prefix("aggr_") {
                Some(r) => ("aggr", r),
                None => ("", key.as_str()),
            };
            let (dir, base) = match rest.split_once('_') {
                Some((d @ ("read" | "write"), b)) => (Some(d), b),
                _ => (None, rest),
            };
            let base = if base == "merges" { "merge" } else { base };
            let key = format!("{aggr}{base}");
            out.push(super::disk::row(src, 0, device, dir, &key, v));
        }
    }
}

fn read_doc(src: &Source, doc: &Value, out: &mut Vec<Observation>) -> Result<()> {
    let Some(jobs) = jobs_of(doc) else {
        return Err(src.error(None, "`jobs` is not an array"));
    };
    // fio's own name for its sum over the clients of a client/server run.
    const ALL_CLIENTS: &str = "All clients";
    for (i, job) in jobs.iter().enumerate() {
        let name = job
            .get("jobname")
            .and_then(Value::as_str)
            .ok_or_else(|| src.error(None, format!("jobs[{i}] has no `jobname`")))?;
        for dir in ["read", "write", "trim", "mixed"] {
            let Some(d) = job.get(dir) else { continue };
            let f = |key: &str| d.get(key).and_then(Value::as_f64).filter(|v| v.is_finite());
            let ios = f("total_ios").or(f("io_bytes")).unwrap_or(0.0);
            if ios <= 0.0 {
                continue;
            }
            let mut p = Params::default();
            p.set("job", name);
            let host = job.get("hostname").and_then(Value::as_str);
            if let Some(host) = host.filter(|_| name != ALL_CLIENTS) {
                p.set("host", host);
            }
            p.set("rw", dir);
            let params = p.render();
            let mut push = |metric: &str, unit: &str, v: f64| {
                out.push(
                    Row::at(src, 0)
                        .benchmark("fio")
                        .params(&params)
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            };
            let iops = f("iops").ok_or_else(|| {
                src.error(
                    None,
                    format!("job `{name}` {dir}: `iops` missing or not a number"),
                )
            })?;
            push("iops", "iops", iops);
            let bw = f("bw").ok_or_else(|| {
                src.error(
                    None,
                    format!("job `{name}` {dir}: `bw` missing or not a number"),
                )
            })?;
            push("bw", "KiB/s", bw);
            for (base, ns_key, us_key) in [("clat", "clat_ns", "clat"), ("lat", "lat_ns", "lat")] {
                let (stats, unit) = match (d.get(ns_key), d.get(us_key)) {
                    (Some(s), _) => (s, "ns"),
                    (None, Some(s)) => (s, "us"),
                    _ => continue,
                };
                if let Some(m) = stats.get("mean").and_then(Value::as_f64) {
                    push(&format!("{base} mean"), unit, m);
                }
                if base == "clat" {
                    if let Some(pct) = stats.get("percentile").and_then(Value::as_object) {
                        for (key, metric) in PERCENTILES {
                            if let Some(v) = pct.get(key).and_then(Value::as_f64) {
                                push(metric, unit, v);
                            }
                        }
                    }
                }
            }
        }
    }
    read_disks(src, doc, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_server_run_gives_each_client_s_jobs_and_the_sum() {
        // pbench's sample: the clients' text first, then `client_stats`.
        let text = include_str!("../../../../tests/data/harness/fio/client-server-2hosts.txt");
        let src = Source::from_text("fio-result.txt", text);
        assert_eq!(FioJson.detect(&src), 95);
        let rows = FioJson.parse_accounted(&src).unwrap().observations;
        let iops = |params: &str| -> Vec<f64> {
            let m = rows
                .iter()
                .filter(|r| r.metric == "iops" && r.params == params);
            m.map(|r| r.value).collect()
        };
        let a = iops("host=perf36,job=job-/tmp/fio,rw=read");
        assert_eq!(a.len(), 5);
        assert_eq!(a[0], 7951.016328);
        let b = iops("host=perf84,job=job-/tmp/fio,rw=read");
        assert_eq!(b.len(), 5);
        assert_eq!(b[4], 10405.790349);
        assert_eq!(iops("job=All clients,rw=read"), vec![93198.150858]);
        assert!(rows.iter().all(|r| r.benchmark == "fio"));
    }

    #[test]
    fn disk_util_is_read_as_the_text_s_disk_stats() {
        let p =
            crate::ingest::parse_file(&FioJson, "tests/data/harness/fio/json-randrw-2jobs.json");
        let disk: Vec<(&str, &str, f64, &str)> = p
            .observations
            .iter()
            .filter(|o| o.metric.starts_with("disk "))
            .map(|o| {
                let (m, u) = (o.metric.as_str(), o.unit.as_str());
                (o.params.as_str(), m, o.value, u)
            })
            .collect();
        assert_eq!(disk.len(), 8);
        for row in [
            ("disk=vda,rw=read", "disk ios", 8444.0, ""),
            ("disk=vda,rw=write", "disk merge", 0.0, ""),
            ("disk=vda,rw=write", "disk ticks", 1819.0, "ms"),
            ("disk=vda", "disk in_queue", 2586.0, "ms"),
            ("disk=vda", "disk util", 69.067797, "%"),
        ] {
            assert!(disk.contains(&row), "{row:?}");
        }
    }
}
