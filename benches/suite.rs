//! Whole-process benchmark suite: `cargo bench --bench suite`.
//!
//! Generates its own inputs deterministically into a temporary folder, runs
//! the release binary on them next to the floors and peers that do the same
//! job, and prints one line per figure: `name value unit ratio`. Absolute
//! times on a shared 2-core machine are noise; the ratios, measured side by
//! side in the same run, are what to watch.
//!
//! Size: `PATCHPERF_BENCH_MB` (default 500) megabytes per ingest input kind.
//! `PATCHPERF_BENCH_MB=20` gives a quick run; `PATCHPERF_BENCH_ONLY=ingest,small`
//! (any of ingest, analysis, report, small) runs only those parts.
//! `PATCHPERF_BENCH_KEEP=DIR` generates the ingest inputs into `DIR` (reusing
//! them when a previous run left them there) and keeps them, for profiling.
//!
//! At the end, every figure is set against the run committed in
//! `benches/RESULTS.md` (`PATCHPERF_BENCH_BASELINE=FILE` names another), and
//! those that moved by more than 20% (`PATCHPERF_BENCH_NOISE_PCT`) are listed
//! as better or worse.

#[path = "suite/baseline.rs"]
mod baseline;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Every figure printed so far, for the comparison with the committed run.
static FIGURES: Mutex<Vec<baseline::Figure>> = Mutex::new(Vec::new());

const CHUNK: usize = 5 << 20;

/// Writes one kind of ingest input of about the given size into a folder;
/// returns the bytes written and the rows the importer must produce from them.
type Generator = fn(&mut Pcg64, &Path, usize) -> (u64, u64);

fn main() {
    // `cargo bench` passes `--bench`; ignore harness arguments.
    let mb: usize = std::env::var("PATCHPERF_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_patchperf"));
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    println!(
        "# patchperf benchmark suite: {mb} MB per ingest input, binary {}",
        bin.display()
    );
    println!("# name value unit ratio");
    // Figures taken while other work runs are not comparable: the load at
    // the start and the end says whether the machine was quiet.
    print_load("start");

    let kinds: [(&str, Generator); 7] = [
        ("go", gen_go),
        ("hackbench", gen_hackbench),
        ("document", gen_document),
        ("hyperfine_json", gen_hyperfine),
        ("criterion_tree", gen_criterion),
        ("tidy_csv_one_file", gen_tidy_one_file),
        ("go_one_file", gen_go_one_file),
    ];
    // `PATCHPERF_BENCH_ONLY=ingest,analysis,report,small` runs a subset.
    let only = std::env::var("PATCHPERF_BENCH_ONLY").unwrap_or_default();
    let part = |p: &str| only.is_empty() || only.split(',').any(|o| o.trim() == p);
    for (name, generate) in kinds {
        if !part("ingest") {
            break;
        }
        let keep = std::env::var_os("PATCHPERF_BENCH_KEEP").map(PathBuf::from);
        let dir = keep
            .as_deref()
            .unwrap_or(root)
            .join(format!("{name}-{mb}mb"));
        let marker = dir.join(".generated");
        let (bytes, expected_rows) = match fs::read_to_string(&marker) {
            Ok(s) if keep.is_some() => {
                let mut it = s.split_whitespace().map(|v| v.parse::<u64>().unwrap());
                (it.next().unwrap(), it.next().unwrap())
            }
            _ => {
                let _ = fs::remove_dir_all(&dir);
                fs::create_dir_all(&dir).unwrap();
                let mut rng = Pcg64::seed_from_u64(42);
                let (bytes, rows) = generate(&mut rng, &dir, mb << 20);
                fs::write(&marker, format!("{bytes} {rows}")).unwrap();
                (bytes, rows)
            }
        };
        ingest_figures(&bin, name, &dir, bytes, expected_rows);
        if keep.is_none() {
            let _ = fs::remove_dir_all(&dir);
        }
    }

    if part("analysis") {
        analysis_figures(&bin, root);
    }
    if part("report") {
        report_figures(&bin, root);
    }
    if part("small") {
        small_input_figures(&bin, root);
    }
    print_load("end");
    compare_with_committed();
}

/// Prints the 1-, 5- and 15-minute load averages (Linux), as a comment.
fn print_load(when: &str) {
    if let Ok(s) = fs::read_to_string("/proc/loadavg") {
        let load: Vec<&str> = s.split_whitespace().take(3).collect();
        println!("# load average at the {when}: {}", load.join(" "));
    }
}

/// Runs a command, returning wall time, peak RSS in KiB (via GNU time when
/// present) and success.
fn measure(cmd: &mut Command) -> (Duration, Option<u64>, bool) {
    let (wall, rss, ok, _) = measure_with_stderr(cmd);
    (wall, rss, ok)
}

/// [`measure`], also returning what the command wrote on stderr.
fn measure_with_stderr(cmd: &mut Command) -> (Duration, Option<u64>, bool, String) {
    let gnu_time = Path::new("/usr/bin/time").exists();
    let rss_file = tempfile::NamedTempFile::new().unwrap();
    let mut real = if gnu_time {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-f").arg("%M").arg("-o").arg(rss_file.path());
        c.arg(cmd.get_program());
        c.args(cmd.get_args());
        for (k, v) in cmd.get_envs() {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
        c
    } else {
        std::mem::replace(cmd, Command::new("true"))
    };
    let err_file = tempfile::NamedTempFile::new().unwrap();
    real.stdout(Stdio::null())
        .stderr(Stdio::from(err_file.reopen().unwrap()));
    let t = Instant::now();
    let status = real.status().expect("run benchmark command");
    let wall = t.elapsed();
    let stderr = fs::read_to_string(err_file.path()).unwrap_or_default();
    let rss = fs::read_to_string(rss_file.path())
        .ok()
        .and_then(|s| s.lines().last().and_then(|l| l.trim().parse().ok()));
    (wall, rss, status.success(), stderr)
}

fn line(name: &str, value: f64, unit: &str, ratio: Option<f64>) {
    let text = match ratio {
        Some(r) => format!("{name} {value:.3} {unit} {r:.2}"),
        None => format!("{name} {value:.3} {unit} -"),
    };
    println!("{text}");
    // As printed (rounded), as the committed run's figures were read.
    if let Some(f) = baseline::Figure::parse(&text) {
        FIGURES.lock().unwrap().push(f);
    }
}

/// Sets this run's figures against the committed run's.
fn compare_with_committed() {
    let path = std::env::var_os("PATCHPERF_BENCH_BASELINE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/RESULTS.md"));
    let noise_pct: f64 = std::env::var("PATCHPERF_BENCH_NOISE_PCT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20.0);
    let Some((heading, before)) = fs::read_to_string(&path)
        .ok()
        .and_then(|text| baseline::committed(&text))
    else {
        println!("# no committed run to compare with in {}", path.display());
        return;
    };
    println!(
        "# against the committed run in {}: {heading}",
        path.display()
    );
    for l in baseline::changes(&FIGURES.lock().unwrap(), &before, noise_pct) {
        println!("{l}");
    }
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn ingest_figures(bin: &Path, name: &str, dir: &Path, bytes: u64, expected_rows: u64) {
    let files = files_under(dir);
    let mb = bytes as f64 / 1e6;
    // `wc -l` reads the files itself: through a pipe (`xargs cat | wc -l`,
    // the suite's floor until the fifth session) the pipe was the bottleneck,
    // and it moved between 0.35 and 1.8 GB/s from one run to the next while
    // `wc -l` on the files read 6 GB/s from the page cache.
    let mut wc = Command::new("sh");
    wc.arg("-c").arg(format!(
        "find '{}' -type f ! -name '.*' -print0 | xargs -0 wc -l",
        dir.display()
    ));
    // Warm the page cache first so that the floor and patchperf read the same
    // cached bytes (the first reader would otherwise pay for the disk); then
    // the best of three, as patchperf gets.
    let _ = measure(&mut wc);
    let floor = (0..3).map(|_| measure(&mut wc).0).min().unwrap();
    let out = dir.with_extension("parquet");
    let mut ing = Command::new(bin);
    ing.arg("ingest").arg(dir).arg("--out").arg(&out);
    // Best of three runs (the peak RSS is the largest): a single run on a
    // shared machine is at the mercy of whatever else ran then, and with two
    // a figure still moved by a quarter from one suite run to the next.
    let (mut wall, mut rss, mut ok, stderr) = measure_with_stderr(&mut ing);
    for _ in 0..2 {
        let (again, again_rss, again_ok) = measure(&mut ing);
        wall = wall.min(again);
        rss = rss.max(again_rss);
        ok &= again_ok;
    }
    // The same ingest without writing a table: reading, parsing and
    // accounting alone, to tell the importers' cost from the Parquet writer's.
    let mut read_only = Command::new(bin);
    read_only.arg("ingest").arg(dir);
    let read_wall = (0..3).map(|_| measure(&mut read_only).0).min().unwrap();
    let table = fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let table_mem = in_memory_size(&out);
    let rows = total_rows(&stderr);
    let _ = fs::remove_file(&out);
    let tput = mb / wall.as_secs_f64();
    let floor_tput = mb / floor.as_secs_f64();
    let check = match rows {
        Some(r) if r == expected_rows => "rows as expected".to_string(),
        Some(r) => format!("ROW COUNT MISMATCH: {r} read, {expected_rows} expected"),
        None => "no row count in the output".to_string(),
    };
    println!(
        "# ingest {name}: {} files, {mb:.0} MB, ok={ok}, {} rows, {check}",
        files.len(),
        rows.unwrap_or(0)
    );
    if !ok {
        println!(
            "# ingest {name} failed: {}",
            stderr.lines().last().unwrap_or("")
        );
    }
    line(
        &format!("ingest.{name}.throughput"),
        tput,
        "MB/s",
        Some(floor_tput / tput),
    );
    line(
        &format!("ingest.{name}.throughput_no_output"),
        mb / read_wall.as_secs_f64(),
        "MB/s",
        Some(floor_tput * read_wall.as_secs_f64() / mb),
    );
    line(
        &format!("ingest.{name}.floor_wc_l"),
        floor_tput,
        "MB/s",
        None,
    );
    if let Some(r) = rows {
        line(
            &format!("ingest.{name}.rows_per_s"),
            r as f64 / wall.as_secs_f64(),
            "rows/s",
            None,
        );
    }
    if let Some(kib) = rss {
        let rss_mb = kib as f64 / 1024.0;
        // Ratio: peak RSS over the input size (streamed text must stay < 1).
        line(
            &format!("ingest.{name}.peak_rss"),
            rss_mb,
            "MiB",
            Some(rss_mb * 1048576.0 / bytes as f64),
        );
        if let Some(r) = rows.filter(|&r| r > 0) {
            line(
                &format!("ingest.{name}.rss_per_row"),
                kib as f64 * 1024.0 / r as f64,
                "B",
                None,
            );
        }
    }
    if let (Some(t), Some(kib)) = (table_mem, rss) {
        // Ratio: peak RSS over the tidy table held in memory (target <= 2).
        line(
            &format!("ingest.{name}.table_in_memory"),
            t as f64 / 1048576.0,
            "MiB",
            Some(kib as f64 * 1024.0 / t as f64),
        );
    }
    if table > 0 {
        line(
            &format!("ingest.{name}.parquet_size"),
            table as f64 / 1e6,
            "MB",
            None,
        );
    }
}

/// The size of the tidy table `ingest` wrote, as a polars frame in memory
/// (what a consumer holding the whole table pays): the yardstick for the
/// memory `ingest` itself may use.
fn in_memory_size(parquet: &Path) -> Option<usize> {
    use polars::prelude::*;
    let file = fs::File::open(parquet).ok()?;
    let df = ParquetReader::new(file).finish().ok()?;
    Some(df.estimated_size())
}

/// The row count from `ingest`'s closing summary line on stderr
/// (`N rows from M inputs`).
fn total_rows(stderr: &str) -> Option<u64> {
    stderr.lines().rev().find_map(|l| {
        l.split_once(" rows from ")
            .and_then(|(n, _)| n.rsplit(' ').next()?.parse().ok())
    })
}

fn analysis_figures(bin: &Path, root: &Path) {
    let groups = 10_000;
    let per_side = 30;
    let path = root.join("analysis.csv");
    let mut rng = Pcg64::seed_from_u64(7);
    let mut s = String::with_capacity(groups * per_side * 2 * 60);
    s.push_str("source,line,benchmark,params,variant,metric,unit,stat,value,run\n");
    for g in 0..groups {
        let shift = if g % 10 == 0 { 1.05 } else { 1.0 };
        for (variant, f) in [("baseline", 1.0), ("patched", shift)] {
            for r in 0..per_side {
                let v = 100.0 * f * (1.0 + 0.05 * normal(&mut rng));
                let _ = writeln!(s, "gen,0,bench{g},,{variant},time,ms,sample,{v:.4},{r}");
            }
        }
    }
    fs::write(&path, s).unwrap();
    // Best of three for each thread count, alternating: one slow run on a
    // shared machine would otherwise decide the scaling ratio.
    let mut times = [f64::INFINITY; 2];
    let mut ok = [true; 2];
    for _ in 0..3 {
        for (i, threads) in [1, 2].into_iter().enumerate() {
            let mut c = Command::new(bin);
            c.arg("compare")
                .arg(&path)
                .arg("--json")
                .arg(root.join("analysis.json"));
            c.env("RAYON_NUM_THREADS", threads.to_string());
            let (wall, _, run_ok) = measure(&mut c);
            times[i] = times[i].min(wall.as_secs_f64());
            ok[i] &= run_ok;
        }
    }
    for (i, threads) in [1, 2].into_iter().enumerate() {
        println!(
            "# analysis {groups} groups x {per_side} samples/side, {threads} thread(s), best of 3, ok={}",
            ok[i]
        );
    }
    line(
        "analysis.10k_groups.1_thread.best_of_3",
        times[0],
        "s",
        None,
    );
    line(
        "analysis.10k_groups.2_threads.best_of_3",
        times[1],
        "s",
        Some(times[0] / times[1]),
    );
}

fn report_figures(bin: &Path, root: &Path) {
    let dir = root.join("report500");
    fs::create_dir_all(&dir).unwrap();
    let mut rng = Pcg64::seed_from_u64(9);
    let mut s = String::from("source,line,benchmark,params,variant,metric,unit,stat,value,run\n");
    for g in 0..500 {
        for variant in ["baseline", "patched"] {
            for r in 0..10 {
                let v = 50.0 * (1.0 + 0.1 * normal(&mut rng));
                let _ = writeln!(s, "gen,0,bench{g},,{variant},time,ms,sample,{v:.4},{r}");
            }
        }
    }
    fs::write(dir.join("data.csv"), s).unwrap();
    fs::write(
        dir.join("study.toml"),
        // A tidy table holds both variants: a `[[documents]]` input (see examples/README.md).
        "name = \"bench500\"\ntitle = \"500 comparisons\"\nbaseline = \"baseline\"\n\n[[documents]]\npath = \"data.csv\"\nformat = \"tidy-csv\"\n",
    )
    .unwrap();
    let mut c = Command::new(bin);
    c.arg("report")
        .arg(dir.join("study.toml"))
        .arg("--out")
        .arg(dir.join("out"));
    let (wall, _, ok, stderr) = measure_with_stderr(&mut c);
    let written = [
        "report.html",
        "report.pdf",
        "report.md",
        "report.txt",
        "report.json",
    ]
    .iter()
    .filter(|f| dir.join("out").join(f).is_file())
    .count();
    println!("# report: 500 comparisons, ok={ok}, {written} of 5 formats written");
    if !ok {
        println!("# report failed: {}", stderr.lines().last().unwrap_or(""));
    }
    line(
        "report.500_comparisons.all_formats",
        wall.as_secs_f64(),
        "s",
        Some(wall.as_secs_f64() / 10.0),
    );
}

/// The best wall time of `runs` runs of the command `make` builds.
/// One run of a short command, process start to exit, its output
/// discarded: without [`measure`]'s GNU time around it, whose own start-up
/// (a millisecond) would be most of a small compare's time.
fn time_once(mut cmd: Command) -> (f64, bool) {
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let t = Instant::now();
    let ok = cmd.status().is_ok_and(|s| s.success());
    (t.elapsed().as_secs_f64(), ok)
}

/// The best of `runs` [`time_once`] runs of patchperf's command and of a
/// peer's, in turn (ours, peer, ours, …), so that both meet the same
/// moments of a shared machine; `None` for the peer when it is not given.
fn best_of_alternating(
    runs: usize,
    ours: impl Fn() -> Command,
    peer: Option<impl Fn() -> Command>,
) -> ((f64, bool), Option<(f64, bool)>) {
    let best = |(b, all_ok): (f64, bool), (t, ok): (f64, bool)| (b.min(t), all_ok && ok);
    let mut us = (f64::INFINITY, true);
    let mut them = peer.as_ref().map(|_| (f64::INFINITY, true));
    for _ in 0..runs {
        us = best(us, time_once(ours()));
        if let (Some(p), Some(t)) = (&peer, &mut them) {
            *t = best(*t, time_once(p()));
        }
    }
    (us, them)
}

fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `compare` of two small files, process start to exit, next to the peers
/// that do the same job on the same data. Ratio: patchperf / peer (< 1:
/// patchperf is faster); for patchperf alone, the share of the 20 ms budget.
fn small_input_figures(bin: &Path, root: &Path) {
    // `PATCHPERF_BENCH_KEEP` keeps these inputs too, for profiling.
    let keep = std::env::var_os("PATCHPERF_BENCH_KEEP").map(PathBuf::from);
    let dir = keep.as_deref().unwrap_or(root).join("small");
    fs::create_dir_all(&dir).unwrap();
    let mut rng = Pcg64::seed_from_u64(11);
    let runs = 20;

    // hyperfine JSON: 3 commands × 30 runs per side.
    let a = dir.join("base.json");
    let b = dir.join("new.json");
    for (p, f) in [(&a, 1.0), (&b, 1.1)] {
        fs::write(p, hyperfine_doc(&mut rng, 3, 30, f)).unwrap();
    }
    // hyperfine's scripts/welch_ttest.py does this with SciPy.
    let py = "import json,sys\nfrom scipy import stats\nA=json.load(open(sys.argv[1]))['results']\nB=json.load(open(sys.argv[2]))['results']\nfor a,b in zip(A,B): print(a['command'], stats.ttest_ind(a['times'], b['times'], equal_var=False).pvalue)\n";
    let script = dir.join("welch.py");
    fs::write(&script, py).unwrap();
    let ((ours, ok), peer) = best_of_alternating(
        runs,
        || {
            let mut c = Command::new(bin);
            c.arg("compare").arg(&a).arg(&b);
            c
        },
        python_has("scipy").then_some(|| {
            let mut c = Command::new("python3");
            c.arg(&script).arg(&a).arg(&b);
            c
        }),
    );
    small_figures(
        "compare_hyperfine_json",
        "compare of two hyperfine JSON files (3 commands x 30 runs)",
        (ours, ok),
        Peer {
            key: "peer_scipy_welch",
            what: "SciPy Welch t-test script on the same files",
            missing:
                "peer scipy welch: python3 with scipy not installed (pip install scipy), skipped",
        },
        peer,
    );

    // pyperf JSON: 3 benchmarks × 20 runs × 3 values per side.
    let pa = dir.join("pyperf_base.json");
    let pb = dir.join("pyperf_new.json");
    for (p, f) in [(&pa, 1.0), (&pb, 1.1)] {
        fs::write(p, pyperf_doc(&mut rng, 3, 20, 3, f)).unwrap();
    }
    let ((ours, ok), peer) = best_of_alternating(
        runs,
        || {
            let mut c = Command::new(bin);
            c.arg("compare").arg(&pa).arg(&pb);
            c
        },
        python_has("pyperf").then_some(|| {
            let mut c = Command::new("python3");
            c.args(["-m", "pyperf", "compare_to"]).arg(&pa).arg(&pb);
            c
        }),
    );
    small_figures(
        "compare_pyperf_json",
        "compare of two pyperf JSON files (3 benchmarks x 60 values)",
        (ours, ok),
        Peer {
            key: "peer_pyperf_compare_to",
            what: "python3 -m pyperf compare_to on the same files",
            missing: "peer pyperf: not installed (pip install pyperf), skipped",
        },
        peer,
    );

    // A Criterion tree: 20 benchmarks × 100 samples, saved baselines base and new.
    let target = dir.join("target");
    criterion_tree(&mut rng, &target.join("criterion"), 20, 100, usize::MAX);
    let critcmp = Command::new("critcmp")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    // patchperf's `verb` on the tree, and critcmp on it when installed.
    let on_tree = |verb: &'static str| {
        let ours = || {
            let mut c = Command::new(bin);
            c.arg(verb).arg(target.join("criterion"));
            c
        };
        let theirs = critcmp.then_some(|| {
            let mut c = Command::new("critcmp");
            c.arg("--target-dir").arg(&target).args(["base", "new"]);
            c
        });
        best_of_alternating(runs, ours, theirs)
    };
    let ((ours, ok), peer) = on_tree("compare");
    small_figures(
        "compare_criterion_tree",
        "compare of a Criterion tree (20 benchmarks, base vs new)",
        (ours, ok),
        Peer {
            key: "peer_critcmp",
            what: "critcmp base new on the same tree",
            missing: "peer critcmp: not installed (cargo install critcmp), skipped",
        },
        peer,
    );
    // The same tree only read (start, reading, accounting; no analysis), in
    // turn with critcmp again: what patchperf spends before any test, next
    // to the peer's whole run.
    let ((read, read_ok), peer) = on_tree("ingest");
    println!(
        "# small: the same tree read without analysis (ingest, no table written), ok={read_ok}"
    );
    line(
        "small.read_criterion_tree.best_of_20",
        read * 1e3,
        "ms",
        peer.map(|(theirs, _)| read / theirs),
    );
}

/// A peer of a small compare, as the suite names it.
struct Peer<'a> {
    /// Its figure's name after `small.`.
    key: &'a str,
    /// What it runs.
    what: &'a str,
    /// The comment printed when it is not installed.
    missing: &'a str,
}

/// Prints a small compare's figure (ratio: its share of the 20 ms budget)
/// and its peer's (ratio: ours over the peer's), both best of 20 runs.
fn small_figures(
    key: &str,
    what: &str,
    (ours, ok): (f64, bool),
    peer: Peer,
    timed: Option<(f64, bool)>,
) {
    println!("# small: {what}, ok={ok}");
    line(
        &format!("small.{key}.best_of_20"),
        ours * 1e3,
        "ms",
        Some(ours / 0.020),
    );
    match timed {
        Some((theirs, ok)) => {
            println!("# peer: {}, in turn with ours, ok={ok}", peer.what);
            line(
                &format!("small.{}.best_of_20", peer.key),
                theirs * 1e3,
                "ms",
                Some(ours / theirs),
            );
        }
        None => println!("# {}", peer.missing),
    }
}

/// A pyperf JSON file: `benches` benchmarks of `runs` worker runs with
/// `values` values each (seconds).
fn pyperf_doc(rng: &mut Pcg64, benches: usize, runs: usize, values: usize, factor: f64) -> String {
    let mut s = String::from(
        "{\"version\":\"1.0\",\"metadata\":{\"loops\":16,\"unit\":\"second\"},\"benchmarks\":[",
    );
    for b in 0..benches {
        if b > 0 {
            s.push(',');
        }
        let _ = write!(s, "{{\"metadata\":{{\"name\":\"bench{b}\"}},\"runs\":[");
        for r in 0..runs {
            if r > 0 {
                s.push(',');
            }
            let vals: Vec<String> = (0..values)
                .map(|_| format!("{:e}", 1e-3 * factor * (1.0 + 0.05 * normal(rng))))
                .collect();
            let _ = write!(
                s,
                "{{\"metadata\":{{\"date\":\"2026-01-01 00:00:00\",\"duration\":0.1}},\"warmups\":[[1,{:e}]],\"values\":[{}]}}",
                1e-3 * factor,
                vals.join(",")
            );
        }
        s.push_str("]}");
    }
    s.push_str("]}\n");
    s
}

fn normal(rng: &mut Pcg64) -> f64 {
    // Box-Muller: enough for synthetic noise.
    let u1: f64 = rng.random_range(1e-12..1.0);
    let u2: f64 = rng.random_range(0.0..1.0);
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Writes files of about [`CHUNK`] bytes until `target` bytes are written,
/// each filled by `fill` (which returns the rows it wrote); returns the bytes
/// and rows written.
fn chunked(
    dir: &Path,
    ext: &str,
    target: usize,
    mut fill: impl FnMut(&mut String, usize) -> u64,
) -> (u64, u64) {
    let mut total = 0u64;
    let mut rows = 0u64;
    let mut i = 0;
    while (total as usize) < target {
        let mut s = String::with_capacity(CHUNK + 4096);
        rows += fill(&mut s, CHUNK.min(target - total as usize));
        let p = dir.join(format!("f{i:05}.{ext}"));
        fs::write(&p, &s).unwrap();
        total += s.len() as u64;
        i += 1;
    }
    (total, rows)
}

/// `go test -bench` output: three metrics (ns/op, B/op, allocs/op) per line.
fn gen_go(rng: &mut Pcg64, dir: &Path, target: usize) -> (u64, u64) {
    chunked(dir, "txt", target, |s, size| {
        s.push_str("goos: linux\ngoarch: amd64\npkg: example.com/gen\ncpu: generated\n");
        let mut k = 0;
        while s.len() < size {
            let ns = 1000.0 * (1.0 + 0.1 * normal(rng));
            let _ = writeln!(
                s,
                "BenchmarkGen{}/n={}-2 \t  {}\t{:>10.0} ns/op\t      24 B/op\t       1 allocs/op",
                k % 50,
                10 << (k % 4),
                200000 + k % 1000,
                ns
            );
            k += 1;
        }
        s.push_str("PASS\nok  \texample.com/gen\t1.000s\n");
        3 * k as u64
    })
}

/// One large tidy table, as `ingest --out x.csv` writes it (a lab's
/// results gathered in one file): the other kinds are folders of 5 MB
/// files, and one file of this size is read in pieces.
fn gen_tidy_one_file(rng: &mut Pcg64, dir: &Path, target: usize) -> (u64, u64) {
    use std::io::Write as _;
    let mut f = std::io::BufWriter::new(fs::File::create(dir.join("table.csv")).unwrap());
    let header = "source,line,benchmark,params,variant,metric,unit,stat,value,run\n";
    f.write_all(header.as_bytes()).unwrap();
    let (mut total, mut rows) = (header.len(), 0u64);
    let mut s = String::with_capacity(256);
    while total < target {
        s.clear();
        let k = rows as usize;
        let variant = if k.is_multiple_of(2) {
            "baseline"
        } else {
            "patched"
        };
        let ms = 100.0 * (1.0 + 0.05 * normal(rng));
        let _ = writeln!(
            s,
            "run-{}.log,{},bench{},n={},{variant},time,ms,sample,{ms:.4},{}",
            k / 1000 % 100,
            k % 1000 + 1,
            k / 2 % 500,
            8 << (k % 3),
            k / 1000
        );
        f.write_all(s.as_bytes()).unwrap();
        total += s.len();
        rows += 1;
    }
    f.flush().unwrap();
    (total as u64, rows)
}

/// The Go text of [`gen_go`] as one file (`go test -bench ./... -count N`
/// saved whole): read in pieces, with the `pkg:` lines of all of it.
fn gen_go_one_file(rng: &mut Pcg64, dir: &Path, target: usize) -> (u64, u64) {
    let parts = dir.join("parts");
    fs::create_dir_all(&parts).unwrap();
    let (bytes, rows) = gen_go(rng, &parts, target);
    let mut one = fs::File::create(dir.join("go.txt")).unwrap();
    for part in files_under(&parts) {
        std::io::copy(&mut fs::File::open(part).unwrap(), &mut one).unwrap();
    }
    fs::remove_dir_all(&parts).unwrap();
    (bytes, rows)
}

/// Concatenated `hackbench` outputs: one time per three-line block.
fn gen_hackbench(rng: &mut Pcg64, dir: &Path, target: usize) -> (u64, u64) {
    chunked(dir, "txt", target, |s, size| {
        let mut blocks = 0;
        while s.len() < size {
            let t = 0.46 * (1.0 + 0.1 * normal(rng));
            let _ = write!(
                s,
                "Running in process mode with 4 groups using 40 file descriptors each (== 160 tasks)\nEach sender will pass 200 messages of 100 bytes\nTime: {t:.3}\n"
            );
            blocks += 1;
        }
        blocks
    })
}

/// Boxed tables as posted in patch e-mails: per row, a mean and a stddev of
/// two variants (4 values); the same caption repeats, so every table is
/// another run of the same eight benchmarks.
fn gen_document(rng: &mut Pcg64, dir: &Path, target: usize) -> (u64, u64) {
    chunked(dir, "txt", target, |s, size| {
        let mut rows = 0;
        let mut t = 0;
        while s.len() < size {
            let _ = writeln!(s, "Results on machine {} of the test rack:\n", t % 8);
            s.push_str("+---------+--------------------+--------+-------------------+--------+\n");
            s.push_str("| threads | baseline time (ms) | stddev | patched time (ms) | stddev |\n");
            s.push_str("+---------+--------------------+--------+-------------------+--------+\n");
            for th in [512, 256, 128, 64, 32] {
                let b = th as f64 / 100.0 * (1.0 + 0.1 * normal(rng));
                let p = b * (1.0 + 0.1 * normal(rng));
                let _ = writeln!(
                    s,
                    "| {th} | {b:.4} | {:.4} | {p:.4} | {:.4} |",
                    b * 0.1,
                    p * 0.1
                );
                rows += 4;
            }
            s.push_str(
                "+---------+--------------------+--------+-------------------+--------+\n\n",
            );
            t += 1;
        }
        rows
    })
}

fn hyperfine_doc(rng: &mut Pcg64, commands: usize, samples: usize, factor: f64) -> String {
    let mut s = String::from("{\n  \"results\": [\n");
    for c in 0..commands {
        let times: Vec<String> = (0..samples)
            .map(|_| format!("{:.9}", 0.1 * factor * (1.0 + 0.05 * normal(rng))))
            .collect();
        let codes = vec!["0"; samples].join(",");
        let _ = writeln!(
            s,
            "    {{\"command\": \"cmd {c}\", \"mean\": 0.1, \"stddev\": 0.005, \"median\": 0.1, \"user\": 0.09, \"system\": 0.001, \"min\": 0.09, \"max\": 0.11, \"times\": [{}], \"exit_codes\": [{codes}]}}{}",
            times.join(","),
            if c + 1 < commands { "," } else { "" }
        );
    }
    s.push_str("  ]\n}\n");
    s
}

/// hyperfine `--export-json` files of 10 commands × 100,000 runs (1M samples,
/// ~12 MB each): per command the samples plus 8 stated statistics.
fn gen_hyperfine(rng: &mut Pcg64, dir: &Path, target: usize) -> (u64, u64) {
    let (commands, samples) = (10, 100_000);
    let mut total = 0u64;
    let mut rows = 0u64;
    let mut i = 0;
    while (total as usize) < target {
        let doc = hyperfine_doc(rng, commands, samples, 1.0);
        fs::write(dir.join(format!("h{i:04}.json")), &doc).unwrap();
        total += doc.len() as u64;
        rows += (commands * (samples + 8)) as u64;
        i += 1;
    }
    (total, rows)
}

/// A `target/criterion` tree of up to 2,000 benchmarks with `base` and `new`
/// saved baselines (fewer when the size asks for less): per baseline 100
/// samples plus 5 estimates.
fn gen_criterion(rng: &mut Pcg64, dir: &Path, target: usize) -> (u64, u64) {
    criterion_tree(rng, &dir.join("criterion"), 2000, 100, target)
}

fn criterion_tree(
    rng: &mut Pcg64,
    root: &Path,
    benches: usize,
    n: usize,
    target: usize,
) -> (u64, u64) {
    let mut total = 0u64;
    let mut rows = 0u64;
    for b in 0..benches {
        for (baseline, factor) in [("base", 1.0), ("new", 1.05)] {
            let d = root
                .join(format!("group{}/{}", b / 20, b % 20))
                .join(baseline);
            fs::create_dir_all(&d).unwrap();
            let bench = format!(
                "{{\"group_id\":\"group{}\",\"function_id\":null,\"value_str\":\"{}\",\"throughput\":null,\"full_id\":\"group{}/{}\",\"directory_name\":\"group{}/{}\",\"title\":\"group{}/{}\"}}",
                b / 20, b % 20, b / 20, b % 20, b / 20, b % 20, b / 20, b % 20
            );
            let iters: Vec<String> = (1..=n).map(|i| format!("{}.0", i * 4)).collect();
            let times: Vec<String> = (1..=n)
                .map(|i| {
                    format!(
                        "{:.1}",
                        (i * 4) as f64 * 1000.0 * factor * (1.0 + 0.05 * normal(rng))
                    )
                })
                .collect();
            let sample = format!(
                "{{\"sampling_mode\":\"Linear\",\"iters\":[{}],\"times\":[{}]}}",
                iters.join(","),
                times.join(",")
            );
            let m = 1000.0 * factor;
            let est_one = |p: f64, lo: f64, hi: f64| {
                format!("{{\"confidence_interval\":{{\"confidence_level\":0.95,\"lower_bound\":{lo:.1},\"upper_bound\":{hi:.1}}},\"point_estimate\":{p:.1},\"standard_error\":5.0}}")
            };
            let est = format!(
                "{{\"mean\":{},\"median\":{},\"median_abs_dev\":{},\"slope\":{},\"std_dev\":{}}}",
                est_one(m, m - 10.0, m + 10.0),
                est_one(m, m - 10.0, m + 10.0),
                est_one(20.0, 10.0, 30.0),
                est_one(m, m - 10.0, m + 10.0),
                est_one(50.0, 40.0, 60.0)
            );
            for (f, text) in [
                ("benchmark.json", bench.as_str()),
                ("sample.json", sample.as_str()),
                ("estimates.json", est.as_str()),
            ] {
                fs::write(d.join(f), text).unwrap();
                total += text.len() as u64;
            }
            rows += n as u64 + 5;
        }
        if total as usize >= target {
            break;
        }
    }
    (total, rows)
}
