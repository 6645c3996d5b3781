//! Exact values read from real harness files under `tests/data/harness/`
//! (see its README for the command behind each), ingested through the
//! driver as the CLI does, so that the run numbering is checked too.

use patchperf::ingest::{ingest, IngestOptions, Registry};
use patchperf::model::Stat;
use std::path::Path;

const HARNESS: &str = "tests/data/harness";

/// One row: benchmark, params, metric, unit, stat, value, run.
type Row = (String, String, String, String, Stat, f64, Option<u32>);

fn rows(file: &str) -> Vec<Row> {
    let path = Path::new(HARNESS).join(file);
    let got = ingest(
        std::slice::from_ref(&path),
        &Registry::builtin(),
        &IngestOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    got.dataset
        .rows()
        .map(|o| {
            (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.metric.to_string(),
                o.unit.to_string(),
                o.stat,
                o.value,
                o.run,
            )
        })
        .collect()
}

/// The variant of each row, in order.
fn variants(file: &str) -> Vec<String> {
    let path = Path::new(HARNESS).join(file);
    let got = ingest(
        std::slice::from_ref(&path),
        &Registry::builtin(),
        &IngestOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    got.dataset.rows().map(|o| o.variant.to_string()).collect()
}

fn row(b: &str, p: &str, m: &str, u: &str, s: Stat, v: f64, run: Option<u32>) -> Row {
    (b.into(), p.into(), m.into(), u.into(), s, v, run)
}

/// The row of `benchmark`, `params`, `metric` and `stat`; exactly one.
fn find<'a>(rows: &'a [Row], b: &str, p: &str, m: &str, s: Stat) -> &'a Row {
    let hits: Vec<&Row> = rows
        .iter()
        .filter(|r| r.0 == b && r.1 == p && r.2 == m && r.4 == s)
        .collect();
    assert_eq!(hits.len(), 1, "{b} {p} {m} {s:?}: {rows:?}");
    hits[0]
}

#[test]
fn hyperfine_org_export_gives_each_command_s_mean_stddev_min_and_max() {
    use Stat::*;
    // `| =sleep 0.01=  |  14.3 ± 2.1 |  11.3 |  16.0 |  1.00 |`
    let two = rows("hyperfine/org-two.org");
    assert_eq!(two.len(), 8, "{two:?}");
    let t = |b: &str, s: Stat, v: f64| row(b, "", "time", "ms", s, v, None);
    assert_eq!(two[0], t("sleep 0.01", Mean, 14.3));
    assert_eq!(two[1], t("sleep 0.01", Stddev, 2.1));
    assert_eq!(two[3], t("sleep 0.01", Max, 16.0));
    assert_eq!(two[4], t("sleep 0.02", Mean, 23.2));
    assert_eq!(two[6], t("sleep 0.02", Min, 21.3));
    // `-P n 1 3`: one command per value, named as run.
    let scan = rows("hyperfine/org-scan.org");
    assert_eq!(scan.len(), 12, "{scan:?}");
    assert_eq!(
        *find(&scan, "sleep 0.001", "", "time", Min),
        t("sleep 0.001", Min, 2.2)
    );
    assert_eq!(
        *find(&scan, "sleep 0.002", "", "time", Max),
        t("sleep 0.002", Max, 7.9)
    );
    assert_eq!(
        *find(&scan, "sleep 0.003", "", "time", Mean),
        t("sleep 0.003", Mean, 6.2)
    );
    assert_eq!(
        *find(&scan, "sleep 0.003", "", "time", Stddev),
        t("sleep 0.003", Stddev, 2.1)
    );
    // The `Relative` column (`1.62 ± 0.25`) is computed, not measured.
    assert!(two.iter().chain(&scan).all(|r| r.5 != 1.62 && r.5 != 1.99));
}

#[test]
fn hyperfine_console_styles_basic_full_and_nocolor_give_the_same_values() {
    use Stat::*;
    let t = |b: &str, m: &str, s: Stat, v: f64| row(b, "", m, "ms", s, v, None);
    // `Time (mean ± σ):      14.3 ms ±   2.1 ms    [User: 1.0 ms, System: 0.2 ms]`
    // `Range (min … max):    11.3 ms …  16.0 ms    5 runs`
    let basic = rows("hyperfine/console-basic.txt");
    assert_eq!(basic.len(), 14, "{basic:?}");
    assert_eq!(basic[0], t("sleep 0.01", "time", Mean, 14.3));
    assert_eq!(basic[2], t("sleep 0.01", "user", Mean, 1.0));
    assert_eq!(basic[3], t("sleep 0.01", "system", Mean, 0.2));
    assert_eq!(basic[6], t("sleep 0.01", "time", N, 5.0));
    assert_eq!(basic[8], t("sleep 0.02", "time", Stddev, 1.3));
    assert_eq!(basic[12], t("sleep 0.02", "time", Max, 24.6));
    // `--style full`: the same lines inside ANSI colour escapes.
    let full = rows("hyperfine/console-full.txt");
    assert_eq!(full.len(), 21, "{full:?}");
    assert_eq!(
        *find(&full, "sleep 0.001", "", "time", Mean),
        t("sleep 0.001", "time", Mean, 3.1)
    );
    assert_eq!(
        *find(&full, "sleep 0.002", "", "time", Max),
        t("sleep 0.002", "time", Max, 7.9)
    );
    assert_eq!(
        *find(&full, "sleep 0.003", "", "user", Mean),
        t("sleep 0.003", "user", Mean, 0.8)
    );
    assert_eq!(
        *find(&full, "sleep 0.003", "", "system", Mean),
        t("sleep 0.003", "system", Mean, 0.2)
    );
    assert_eq!(
        *find(&full, "sleep 0.003", "", "time", N),
        t("sleep 0.003", "time", N, 4.0)
    );
    // `Time (mean ± σ):       2.5 ms ±   2.1 ms    [User: 0.7 ms, System: 0.3 ms]`
    let plain = rows("hyperfine/console-nocolor.txt");
    assert_eq!(plain.len(), 7, "{plain:?}");
    assert_eq!(plain[0], t("true", "time", Mean, 2.5));
    assert_eq!(plain[1], t("true", "time", Stddev, 2.1));
    assert_eq!(plain[4], t("true", "time", Min, 1.1));
    assert_eq!(plain[5], t("true", "time", Max, 5.0));
    assert_eq!(plain[6], t("true", "time", N, 3.0));
    // The summary's `1.62 ± 0.25 times faster` is not a row.
    assert!(basic
        .iter()
        .chain(&full)
        .all(|r| r.5 != 1.62 && r.5 != 1.66));
}

#[test]
fn cyclictest_nsecs_without_its_command_line_is_read_in_ns() {
    // `T: 0 ( 1548) P: 0 I:500 C:   1894 Min:  67846 Act:  121570 Avg:  110958 Max: 4669660`
    let ns = |m: &str, v: f64| row("cyclictest", "thread=0", m, "ns", Stat::Sample, v, Some(0));
    let got = rows("cyclictest/nsecs-D1-q.txt");
    assert_eq!(
        got,
        [
            ns("latency min", 67846.0),
            ns("latency avg", 110958.0),
            ns("latency max", 4669660.0)
        ]
    );
}

#[test]
fn cyclictest_histofall_s_all_threads_column_is_its_own_series() {
    let got = rows("cyclictest/histofall-t2.txt");
    assert_eq!(got.len(), 16, "{got:?}");
    let us = |p: &str, m: &str, v: f64| row("cyclictest", p, m, "us", Stat::Sample, v, Some(0));
    // `# Min Latencies: 00072 00073`, `# Avg Latencies: 00092 00087`
    assert_eq!(got[0], us("thread=0", "latency min", 72.0));
    assert_eq!(got[7], us("thread=1", "latency avg", 87.0));
    // `# Max Latencies: 00340 00315 00340`: the third is all threads.
    assert_eq!(got[8], us("thread=1", "latency max", 315.0));
    assert_eq!(got[12], us("thread=all", "latency max", 340.0));
    // Nearest rank over the buckets plus the overflows (1, 1, 2): the
    // 50th of thread 0's 100 wake-ups is in `000088`, the 100th of all
    // 200 in `000085`, the 198th in `000121`.
    assert_eq!(got[3], us("thread=0", "latency p50", 88.0));
    assert_eq!(got[10], us("thread=1", "latency p90", 96.0));
    assert_eq!(got[13], us("thread=all", "latency p50", 85.0));
    assert_eq!(got[14], us("thread=all", "latency p90", 104.0));
    assert_eq!(got[15], us("thread=all", "latency p99", 121.0));
    // p99.9 lies in the overflow count; min and avg are not given for all.
    assert!(got.iter().all(|r| r.2 != "latency p99.9"));
    assert_eq!(got.iter().filter(|r| r.1 == "thread=all").count(), 4);
}

/// The rows of a fio file but those of its disk statistics (`disk …`),
/// which the Disk stats block and `disk_util` add.
fn job_rows(path: &str) -> Vec<Row> {
    let all = rows(path);
    all.into_iter()
        .filter(|r| !r.2.starts_with("disk "))
        .collect()
}

#[test]
fn fio_json_and_json_plus_give_each_direction_s_rates_and_latencies() {
    let s = |p: &str, m: &str, u: &str, v: f64| row("fio", p, m, u, Stat::Sample, v, Some(0));
    // `--numjobs=2 --group_reporting`: one job entry, `"jobname" : "rw"`.
    let two = job_rows("fio/json-randrw-2jobs.json");
    assert_eq!(two.len(), 16, "{two:?}");
    assert_eq!(two[0], s("job=rw,rw=read", "iops", "iops", 9410.589411));
    assert_eq!(two[1], s("job=rw,rw=read", "bw", "KiB/s", 37642.0));
    assert_eq!(
        two[2],
        s("job=rw,rw=read", "clat mean", "ns", 160554.688641)
    );
    assert_eq!(two[6], s("job=rw,rw=read", "clat p99.9", "ns", 7241728.0));
    assert_eq!(two[11], s("job=rw,rw=write", "clat p50", "ns", 3088.0));
    assert_eq!(two[15], s("job=rw,rw=write", "lat mean", "ns", 7326.188889));
    // json+ adds the latency bins; the same fields are read.
    let plus = job_rows("fio/jsonplus-write.json");
    assert_eq!(plus.len(), 8, "{plus:?}");
    assert_eq!(plus[0], s("job=w,rw=write", "iops", "iops", 151316.683317));
    assert_eq!(plus[1], s("job=w,rw=write", "bw", "KiB/s", 9684267.0));
    assert_eq!(plus[3], s("job=w,rw=write", "clat p50", "ns", 3216.0));
    assert_eq!(plus[6], s("job=w,rw=write", "clat p99.9", "ns", 82432.0));
    // `--output-format=normal,json`: the JSON, not the text after it too.
    let both = job_rows("fio/json-then-normal.txt");
    assert_eq!(both.len(), 16, "{both:?}");
    assert_eq!(
        both[0],
        s("job=randrw,rw=read", "iops", "iops", 10907.046477)
    );
    assert_eq!(
        both[2],
        s("job=randrw,rw=read", "clat mean", "ns", 75955.222222)
    );
    assert_eq!(both[9], s("job=randrw,rw=write", "bw", "KiB/s", 43534.0));
}

#[test]
fn fio_terse_and_normal_with_terse_give_each_job_s_values() {
    let s = |p: &str, m: &str, u: &str, v: f64| row("fio", p, m, u, Stat::Sample, v, Some(0));
    // `3;fio-3.33;r;0;0;1384452;1381688;345422;1002;…;2.723930;…`
    let terse = job_rows("fio/terse-read.txt");
    assert_eq!(terse.len(), 8, "{terse:?}");
    assert_eq!(terse[0], s("job=r,rw=read", "iops", "iops", 345422.0));
    assert_eq!(terse[1], s("job=r,rw=read", "bw", "KiB/s", 1381688.0));
    assert_eq!(terse[2], s("job=r,rw=read", "clat mean", "us", 2.72393));
    assert_eq!(terse[3], s("job=r,rw=read", "lat mean", "us", 2.744682));
    // Terse percentiles are whole µs: `50.000000%=0`, `99.900000%=724`.
    assert_eq!(terse[4], s("job=r,rw=read", "clat p50", "us", 0.0));
    assert_eq!(terse[7], s("job=r,rw=read", "clat p99.9", "us", 724.0));
    // `normal,terse`: the text report is read, once per job.
    let two = job_rows("fio/normal-terse-two-jobs.txt");
    assert_eq!(two.len(), 16, "{two:?}");
    // `read: IOPS=9748, BW=38.1MiB/s`, `clat (usec): … avg=101.32`
    assert_eq!(two[0], s("job=a,rw=read", "iops", "iops", 9748.0));
    assert_eq!(two[1], s("job=a,rw=read", "bw", "KiB/s", 38.1 * 1024.0));
    assert_eq!(two[2], s("job=a,rw=read", "clat mean", "us", 101.32));
    assert_eq!(two[6], s("job=a,rw=read", "clat p99", "us", 383.0));
    // `write: IOPS=256k, BW=1000MiB/s`; `clat percentiles (nsec)`, `50.00th=[  1848]`
    assert_eq!(two[8], s("job=b,rw=write", "iops", "iops", 256000.0));
    assert_eq!(two[12], s("job=b,rw=write", "clat p50", "us", 1.848));
    assert_eq!(two[15], s("job=b,rw=write", "clat p99.9", "us", 146.432));
}

#[test]
fn fio_normal_reads_a_chosen_percentile_list_and_lat_percentiles() {
    let s = |p: &str, m: &str, v: f64| row("fio", p, m, "us", Stat::Sample, v, Some(0));
    // `--percentile_list=50:90:99.5`: `| 50.0th=[   91], 90.0th=[  118], 99.5th=[ 3982]`
    let list = job_rows("fio/normal-percentile-list.txt");
    assert_eq!(list.len(), 7, "{list:?}");
    assert_eq!(list[4], s("job=pl,rw=read", "clat p50", 91.0));
    assert_eq!(list[5], s("job=pl,rw=read", "clat p90", 118.0));
    assert_eq!(list[6], s("job=pl,rw=read", "clat p99.5", 3982.0));
    // `--lat_percentiles=1`: a `lat percentiles (usec):` block of fio's
    // default list, of which the four headline ones are read.
    let lat = job_rows("fio/normal-lat-percentiles-bssplit.txt");
    assert_eq!(lat.len(), 8, "{lat:?}");
    assert_eq!(lat[4], s("job=bs,rw=read", "lat p50", 85.0));
    assert_eq!(lat[5], s("job=bs,rw=read", "lat p90", 151.0));
    assert_eq!(lat[6], s("job=bs,rw=read", "lat p99", 1926.0));
    assert_eq!(lat[7], s("job=bs,rw=read", "lat p99.9", 6063.0));
}

#[test]
fn pyperf_dump_values_are_numbered_samples_per_benchmark() {
    let t = |b: &str, u: &str, v: f64, run: u32| row(b, "", "time", u, Stat::Sample, v, Some(run));
    // Ten runs of one warm-up and two values; warm-ups are not rows.
    let dump = rows("pyperf/dump.txt");
    assert_eq!(dump.len(), 20, "{dump:?}");
    // Run 1 `- value 1: 1.97 us (-88%)`; Run 7 `- value 2: 204 us`; Run 9
    // `- value 2: 86.4 us`.
    assert_eq!(dump[0], t("pyperf", "us", 1.97, 0));
    assert_eq!(dump[13], t("pyperf", "us", 204.0, 13));
    assert_eq!(dump[17], t("pyperf", "us", 86.4, 17));
    assert!(dump.iter().enumerate().all(|(i, r)| r.6 == Some(i as u32)));
    // `--raw`: a batch of 1000 loops, `- raw value 1: 841 us` → 0.841 us.
    let raw = rows("pyperf/dump-raw.txt");
    assert_eq!(raw.len(), 9, "{raw:?}");
    assert_eq!(raw[0], t("pyperf", "us", 0.841, 0));
    assert_eq!(raw[3], t("pyperf", "us", 0.664, 3));
    assert_eq!(raw[8], t("pyperf", "ms", 0.00117, 8));
    // `-v`, same file: `- value 1: 841 ns`, `- value 3: 1.17 us (+35%)`.
    let v = rows("pyperf/dump-v.txt");
    assert_eq!(v.len(), 9, "{v:?}");
    assert_eq!(v[0], t("pyperf", "ns", 841.0, 0));
    assert_eq!(v[5], t("pyperf", "ns", 689.0, 5));
    assert_eq!(v[8], t("pyperf", "us", 1.17, 8));
    // A suite: each benchmark under its heading numbers its own samples;
    // sum_range_1000's loop calibration (Run 1) is not a row.
    let suite = rows("pyperf/dump-suite.txt");
    assert_eq!(suite.len(), 9 + 20, "{suite:?}");
    assert_eq!(suite[0], t("sum_range_100", "ns", 706.0, 0));
    assert_eq!(suite[3], t("sum_range_100", "us", 1.03, 3));
    assert_eq!(suite[9], t("sum_range_1000", "us", 20.3, 0));
    assert_eq!(suite[28], t("sum_range_1000", "us", 15.4, 19));
}

#[test]
fn pyperf_hist_gives_the_stability_warning_s_figures_per_file() {
    use Stat::*;
    let t = |u: &str, s: Stat, v: f64| row("pyperf", "", "time", u, s, v, None);
    // `* the standard deviation (48.0 us) is 300% of the mean (16.0 us)`,
    // `* the minimum (1.52 us)…`, `* the maximum (204 us)…`
    let one = rows("pyperf/hist.txt");
    assert_eq!(
        one,
        [
            t("us", Stddev, 48.0),
            t("us", Mean, 16.0),
            t("us", Min, 1.52),
            t("us", Max, 204.0)
        ]
    );
    assert!(variants("pyperf/hist.txt").iter().all(String::is_empty));
    // `hist a.json b.json`: `[ a ]`, `[ b ]` name the variants.
    let two = rows("pyperf/hist-two.txt");
    assert_eq!(
        two,
        [
            t("ns", Stddev, 210.0),
            t("ns", Mean, 863.0),
            t("ns", Stddev, 122.0),
            t("ns", Mean, 815.0)
        ]
    );
    assert_eq!(variants("pyperf/hist-two.txt"), ["a", "a", "b", "b"]);
}
#[test]
fn sigwaittest_and_ptsematest_text_give_min_avg_max_per_pair() {
    let us = |b: &str, p: &str, m: &str, v: f64| row(b, p, m, "us", Stat::Sample, v, Some(0));
    // `#1 -> #0, Min    1, Cur    2, Avg    5, Max   41`; Cur is not a row.
    let sig = rows("rt-tests/sigwaittest-q.txt");
    assert_eq!(
        sig,
        [
            us("sigwaittest", "pair=0", "latency min", 1.0),
            us("sigwaittest", "pair=0", "latency avg", 5.0),
            us("sigwaittest", "pair=0", "latency max", 41.0)
        ]
    );
    // `-t 2`: `#3 -> #2, Min    1, Cur    2, Avg    7, Max   44`
    let sig2 = rows("rt-tests/sigwaittest-t2-q.txt");
    assert_eq!(sig2.len(), 6, "{sig2:?}");
    assert_eq!(sig2[1], us("sigwaittest", "pair=0", "latency avg", 13.0));
    assert_eq!(sig2[2], us("sigwaittest", "pair=0", "latency max", 79.0));
    assert_eq!(sig2[3], us("sigwaittest", "pair=2", "latency min", 1.0));
    assert_eq!(sig2[5], us("sigwaittest", "pair=2", "latency max", 44.0));
    // `#1 -> #0, Min    1, Cur   35, Avg    8, Max   49`
    let sem = rows("rt-tests/ptsematest-q.txt");
    assert_eq!(
        sem,
        [
            us("ptsematest", "pair=0", "latency min", 1.0),
            us("ptsematest", "pair=0", "latency avg", 8.0),
            us("ptsematest", "pair=0", "latency max", 49.0)
        ]
    );
    // `#1 -> #0, Min    0, Cur   62, Avg    3, Max   62`,
    // `#3 -> #2, Min    1, Cur    1, Avg   16, Max   73`
    let sem2 = rows("rt-tests/ptsematest-t2-q.txt");
    assert_eq!(sem2.len(), 6, "{sem2:?}");
    assert_eq!(sem2[0], us("ptsematest", "pair=0", "latency min", 0.0));
    assert_eq!(sem2[1], us("ptsematest", "pair=0", "latency avg", 3.0));
    assert_eq!(sem2[4], us("ptsematest", "pair=2", "latency avg", 16.0));
    assert_eq!(sem2[5], us("ptsematest", "pair=2", "latency max", 73.0));
}
#[test]
fn perf_stat_interval_text_gives_one_numbered_sample_per_interval() {
    let s = |p: &str, m: &str, u: &str, v: f64, run: u32| {
        row("perf stat", p, m, u, Stat::Sample, v, Some(run))
    };
    // `0.500580474  0.82 msec task-clock`, `1 context-switches`; the
    // `<not counted>` interval at 1.001297326 is no sample; then `0.06`, `0`.
    let text = rows("perf-stat/interval-text.txt");
    assert_eq!(
        text,
        [
            s("", "task-clock", "ms", 0.82, 0),
            s("", "context-switches", "", 1.0, 0),
            s("", "task-clock", "ms", 0.06, 1),
            s("", "context-switches", "", 0.0, 1)
        ]
    );
    // `-I 400 -a --per-core`: `1.001490006 S0-D0-C1  1  500.94 msec task-clock`
    let cores = rows("perf-stat/interval-per-core.txt");
    assert_eq!(cores.len(), 6, "{cores:?}");
    assert_eq!(cores[0], s("core=S0-D0-C0", "task-clock", "ms", 504.5, 0));
    assert_eq!(cores[1], s("core=S0-D0-C1", "task-clock", "ms", 500.76, 0));
    assert_eq!(cores[3], s("core=S0-D0-C1", "task-clock", "ms", 500.94, 1));
    assert_eq!(cores[4], s("core=S0-D0-C0", "task-clock", "ms", 100.21, 2));
    assert_eq!(cores[5], s("core=S0-D0-C1", "task-clock", "ms", 100.22, 2));
}

#[test]
fn perf_stat_text_per_cpu_core_socket_and_node_are_params() {
    let s =
        |p: &str, m: &str, u: &str, v: f64| row("system wide", p, m, u, Stat::Sample, v, Some(0));
    let elapsed = |v: f64| s("", "time elapsed", "s", v);
    // `-A`: `CPU1  303.93 msec task-clock`, `CPU0  193  context-switches`
    let cpu = rows("perf-stat/per-cpu-A.txt");
    assert_eq!(
        cpu,
        [
            s("cpu=CPU0", "task-clock", "ms", 303.92),
            s("cpu=CPU1", "task-clock", "ms", 303.93),
            s("cpu=CPU0", "context-switches", "", 193.0),
            s("cpu=CPU1", "context-switches", "", 251.0),
            elapsed(0.303937811)
        ]
    );
    // `--per-core`: `S0-D0-C1  1  210  context-switches` (the 1 is the CPU count)
    let core = rows("perf-stat/per-core.txt");
    assert_eq!(
        core,
        [
            s("core=S0-D0-C0", "task-clock", "ms", 301.58),
            s("core=S0-D0-C0", "context-switches", "", 170.0),
            s("core=S0-D0-C1", "task-clock", "ms", 301.61),
            s("core=S0-D0-C1", "context-switches", "", 210.0),
            elapsed(0.301610847)
        ]
    );
    // `--per-socket`: `S0  2  603.55 msec task-clock`
    let socket = rows("perf-stat/per-socket.txt");
    assert_eq!(
        socket,
        [
            s("socket=S0", "task-clock", "ms", 603.55),
            s("socket=S0", "context-switches", "", 290.0),
            elapsed(0.301787196)
        ]
    );
    // `--per-node`: `N0  2  191  context-switches`
    let node = rows("perf-stat/per-node.txt");
    assert_eq!(
        node,
        [
            s("node=N0", "task-clock", "ms", 605.55),
            s("node=N0", "context-switches", "", 191.0),
            elapsed(0.303603954)
        ]
    );
}
/// Checks a perf bench run of two threads: each thread's `[ N ops/sec ]`
/// a numbered sample, then `Averaged N operations/sec (+- P%)` as the
/// mean, its standard error (P% of the mean) and the thread count.
fn perf_bench_two_threads(file: &str, bench: &str, params: &str, t: [f64; 2], mean: f64, pct: f64) {
    let got = rows(file);
    let r =
        |s: Stat, v: f64, run: Option<u32>| row(bench, params, "throughput", "ops/s", s, v, run);
    assert_eq!(got.len(), 5, "{file}: {got:?}");
    assert_eq!(got[0], r(Stat::Sample, t[0], Some(0)), "{file}");
    assert_eq!(got[1], r(Stat::Sample, t[1], Some(1)), "{file}");
    assert_eq!(got[2], r(Stat::Mean, mean, None), "{file}");
    let (v, rest) = (got[3].5, r(Stat::Stderr, got[3].5, None));
    assert_eq!(got[3], rest, "{file}");
    assert!((v - mean * pct / 100.0).abs() <= 1e-9 * v, "{file}: {v}");
    assert_eq!(got[4], r(Stat::N, 2.0, None), "{file}");
}

#[test]
fn perf_bench_epoll_wait_lock_pi_and_simple_futex_hash_give_threads_and_average() {
    // `2 threads monitoring on 64 file-descriptors for 1 secs.`
    // `[thread  0] fdmap: … [ 589027 ops/sec ]`, `[thread  1] … [ 166596 ops/sec ]`
    // `Averaged 377811 operations/sec (+- 55.91%), total secs = 1`
    perf_bench_two_threads(
        "perf-bench/epoll-wait.txt",
        "perf bench epoll wait",
        "fds=64,runtime=1s,threads=2",
        [589027.0, 166596.0],
        377811.0,
        55.91,
    );
    // `[thread   0] futex: … [ 4474 ops/sec ]`, `[ 4475 ops/sec ]`,
    // `Averaged 4474 operations/sec (+- 0.01%)`
    perf_bench_two_threads(
        "perf-bench/futex-lock-pi.txt",
        "perf bench futex lock-pi",
        "runtime=1s,threads=2",
        [4474.0, 4475.0],
        4474.0,
        0.01,
    );
    // `-f simple`: no `# Running` line; `2 threads, each operating on 1024
    // [private] futexes for 1 secs.`, `Averaged 3657728 operations/sec (+- 21.44%)`
    perf_bench_two_threads(
        "perf-bench/simple-futex-hash.txt",
        "perf bench futex hash",
        "futexes=1024,runtime=1s,scope=private,threads=2",
        [2873344.0, 4442112.0],
        3657728.0,
        21.44,
    );
}

/// One saved run of a Criterion tree given as the input
/// (`target/criterion/<id>/new/`): read as that run, its `benchmark.json`
/// naming it, and not as three files of which one holds no values.
#[test]
fn a_criterion_run_folder_is_one_input() {
    let path = Path::new(HARNESS).join("criterion/Fibonacci/Recursive/new");
    let got = ingest(
        std::slice::from_ref(&path),
        &Registry::builtin(),
        &IngestOptions::default(),
    )
    .unwrap();
    assert_eq!(got.files.len(), 1, "{:?}", got.files);
    assert_eq!(got.files[0].format.as_deref(), Some("criterion-dir"));
    let rows: Vec<_> = got.dataset.rows().collect();
    assert!(rows.iter().all(|o| o.benchmark == "Fibonacci"
        && o.params == "function=Recursive"
        && o.variant == "new"
        && o.unit == "ns"));
    // estimates.json: `"Mean":{…"point_estimate":19284.21673781045`
    let mean: Vec<f64> = rows
        .iter()
        .filter(|o| o.stat == Stat::Mean)
        .map(|o| o.value)
        .collect();
    assert_eq!(mean, [19284.21673781045]);
    // sample.json `[[52.0,104.0,…],[1014000.0,…]]`: times over iterations.
    let samples: Vec<f64> = rows
        .iter()
        .filter(|o| o.stat == Stat::Sample)
        .map(|o| o.value)
        .collect();
    assert_eq!(samples.len(), 100);
    assert_eq!(samples[0], 19500.0);
}

/// The suite's own exports of one saved result (`composite-two-systems.xml`)
/// name its tests and systems as the XML does: the JSON and the raw CSV
/// give each run, the CSV and the text each system's mean.
#[test]
fn phoronix_exports_agree_with_the_saved_result() {
    use Stat::*;
    let ram = "test=RAM / Memory";
    let xml = rows("phoronix/composite-two-systems.xml");
    let json = rows("phoronix/export-two-systems.json");
    // `"raw_values": [4144.05, 4167.47]` of runA, `[10508.66, 9974.8]` of runB.
    assert_eq!(json, xml);
    assert_eq!(
        json[2],
        row(
            "Sysbench Local",
            ram,
            "result",
            "MiB/s",
            Sample,
            10508.66,
            Some(0)
        )
    );
    assert_eq!(variants("phoronix/export-two-systems.json")[2], "runB");
    // `"runB",10508.66,9974.8`; the raw layout states no unit.
    let raw = rows("phoronix/export-two-systems-raw.csv");
    let values = |r: &[Row]| {
        r.iter()
            .map(|r| (r.0.clone(), r.1.clone(), r.5, r.6))
            .collect::<Vec<_>>()
    };
    assert_eq!(values(&raw), values(&xml));
    // `"Sysbench Local - Test: CPU (Events/sec)",HIB,6537.71,7234.71`
    let csv = rows("phoronix/export-two-systems.csv");
    assert_eq!(csv.len(), 4);
    assert_eq!(
        csv[3],
        row(
            "Sysbench Local",
            "test=CPU",
            "result",
            "Events/s",
            Mean,
            7234.71,
            None
        )
    );
    // `runA . 4155.76  |====…`
    let text = rows("phoronix/export-two-systems.txt");
    assert_eq!(
        text[0],
        row(
            "Sysbench Local",
            ram,
            "result",
            "MiB/s",
            Mean,
            4155.76,
            None
        )
    );
    assert_eq!(
        variants("phoronix/export-two-systems.txt"),
        ["runA", "runB", "runA", "runB"]
    );
}

/// A log no importer knows that prints each name alone over its value
/// (`numa01` then `313.17`) is read generically, the name the metric and
/// each round a run.
#[test]
fn names_over_bare_values_are_read_generically_round_by_round() {
    let got = rows("unknown/lkp-autonuma-benchmark-01.txt");
    let b = "lkp-autonuma-benchmark-01";
    let s = |m: &str, v: f64, run: u32| row(b, "", m, "", Stat::Sample, v, Some(run));
    assert_eq!(got[0], s("numa01", 313.17, 0));
    assert_eq!(got[11], s("numa02_SMT_INVERSE_BIND", 7.19, 0));
    assert_eq!(got[12], s("numa01", 301.07, 1));
    let per_round = got.iter().filter(|r| r.2 == "numa01").count();
    assert_eq!(got.len(), per_round * 12, "{got:?}");
}

/// A JSON document cut short (mpstat stopped by its harness) gives the
/// values it completed, instead of nothing.
#[test]
fn a_json_document_cut_short_gives_what_it_completed() {
    let got = rows("unknown/lkp-mpstat-3-cut-short.json");
    let usr: Vec<(String, f64)> = got
        .iter()
        .filter(|r| r.2.ends_with(".usr"))
        .map(|r| (r.1.clone(), r.5))
        .collect();
    // `{"node": "all", "usr": 10.66, …`, then `"usr": 18.83` a second later.
    assert_eq!(
        usr,
        [
            ("hosts=0,node-load=0,statistics=0".to_string(), 10.66),
            ("hosts=0,node-load=0,statistics=1".to_string(), 18.83),
        ]
    );
}

/// `perf stat -x ' '` interval records (LKP's log) are read as `-x ,`
/// ones are: the separator is whatever splits the lines into records.
#[test]
fn perf_stat_interval_records_separated_by_spaces() {
    let got = rows("perf-stat/lkp-1-interval-x-space.txt");
    assert_eq!(got.len(), 29, "{got:?}");
    assert!(got
        .iter()
        .all(|r| r.0 == "perf stat" && r.4 == Stat::Sample));
    // `1.012763890 3969592418  cpu-cycles 2683629138 16.60 0.246 GHz`
    let first = &got[0];
    assert_eq!(
        (&first.2, first.5),
        (&"cpu-cycles".to_string(), 3969592418.0)
    );
    // `1.012763890 16167.76 msec cpu-clock …`
    let clock = got.iter().find(|r| r.2 == "cpu-clock").unwrap();
    assert_eq!((clock.3.as_str(), clock.5), ("ms", 16167.76));
    // `2.013754454 168434520  branch-misses …`, the second interval.
    let last = got.last().unwrap();
    assert_eq!((last.2.as_str(), last.5), ("branch-misses", 168434520.0));
}

/// fxmark's `## media:fs:workload:cores:io` title names the parameters of
/// the line of numbers under its `# ncpu secs works …` header; a `-nan`
/// is left out.
#[test]
fn fxmark_columns_are_metrics_of_their_configuration() {
    use Stat::Sample;
    let got = rows("fxmark/lkp-01-f2fs-mwul.txt");
    let two = "fs=f2fs,io=bufferedio,media=ssd,ncpu=2,workload=MWUL";
    let one = "fs=f2fs,io=bufferedio,media=ssd,ncpu=1,workload=MWUL";
    // `2 0.055294 10063.000000 181992.458426 0.112417 … 33.3333 …`
    assert_eq!(
        *find(&got, "fxmark", two, "secs", Sample),
        row("fxmark", two, "secs", "s", Sample, 0.055294, Some(0))
    );
    assert_eq!(
        find(&got, "fxmark", two, "works/sec", Sample).5,
        181992.458426
    );
    assert_eq!(find(&got, "fxmark", two, "user.util", Sample).5, 33.3333);
    // `1 0.061849 10048.000000 162460.185290 …`
    assert_eq!(
        find(&got, "fxmark", one, "works/sec", Sample).5,
        162460.18529
    );
    assert_eq!(got.len(), 44);
    // `2 0.000000 0.000000 -nan`: the rate is no number.
    let nan = rows("fxmark/lkp-02-nan-run.txt");
    assert!(!nan.iter().any(|r| r.1 == two && r.2 == "works/sec"));
    assert_eq!(
        find(&nan, "fxmark", one, "works/sec", Sample).5,
        68425.891246
    );
}
