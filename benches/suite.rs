//! Whole-process benchmark suite: `cargo bench --bench suite`.
//!
//! Generates its own inputs deterministically into a temporary folder, runs
//! the release binary on them next to the floors and peers that do the same
//! job, and prints one line per figure: `name value unit ratio`. Absolute
//! times on a shared 2-core machine are noise; the ratios, measured side by
//! side in the same run, are what to watch.
//!
//! Size: `PATCHPERF_BENCH_MB` (default 500) megabytes per ingest input kind.
//! `PATCHPERF_BENCH_MB=20` gives a quick run.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::fmt::Write as _;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHUNK: usize = 5 << 20;

fn main() {
    // `cargo bench` passes `--bench`; ignore harness arguments.
    let mb: usize = std::env::var("PATCHPERF_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_patchperf"));
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    println!("# patchperf benchmark suite: {mb} MB per ingest input, binary {}", bin.display());
    println!("# name value unit ratio");

    let kinds: [(&str, fn(&mut Pcg64, &Path, usize) -> u64); 5] = [
        ("go", gen_go),
        ("hackbench", gen_hackbench),
        ("document", gen_document),
        ("hyperfine_json", gen_hyperfine),
        ("criterion_tree", gen_criterion),
    ];
    for (name, generate) in kinds {
        let dir = root.join(name);
        fs::create_dir_all(&dir).unwrap();
        let mut rng = Pcg64::seed_from_u64(42);
        let bytes = generate(&mut rng, &dir, mb << 20);
        ingest_figures(&bin, name, &dir, bytes);
        let _ = fs::remove_dir_all(&dir);
    }

    analysis_figures(&bin, root);
    report_figures(&bin, root);
    small_input_figures(&bin, root);
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
    match ratio {
        Some(r) => println!("{name} {value:.3} {unit} {r:.2}"),
        None => println!("{name} {value:.3} {unit} -"),
    }
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
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

fn ingest_figures(bin: &Path, name: &str, dir: &Path, bytes: u64) {
    let files = files_under(dir);
    let mb = bytes as f64 / 1e6;
    let mut wc = Command::new("sh");
    wc.arg("-c")
        .arg(format!("find '{}' -type f -print0 | xargs -0 cat | wc -l", dir.display()));
    let (floor, _, _) = measure(&mut wc);
    let out = dir.with_extension("parquet");
    let mut ing = Command::new(bin);
    ing.arg("ingest").arg(dir).arg("--out").arg(&out);
    let (wall, rss, ok, stderr) = measure_with_stderr(&mut ing);
    let table = fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let rows = total_rows(&stderr);
    let _ = fs::remove_file(&out);
    let tput = mb / wall.as_secs_f64();
    let floor_tput = mb / floor.as_secs_f64();
    println!("# ingest {name}: {} files, {mb:.0} MB, ok={ok}", files.len());
    line(&format!("ingest.{name}.throughput"), tput, "MB/s", Some(floor_tput / tput));
    line(&format!("ingest.{name}.floor_wc_l"), floor_tput, "MB/s", None);
    if let Some(r) = rows {
        line(&format!("ingest.{name}.rows_per_s"), r as f64 / wall.as_secs_f64(), "rows/s", None);
    }
    if let Some(kib) = rss {
        let rss_mb = kib as f64 / 1024.0;
        line(&format!("ingest.{name}.peak_rss"), rss_mb, "MiB", Some(rss_mb * 1048576.0 / bytes as f64));
    }
    if table > 0 {
        line(&format!("ingest.{name}.parquet_size"), table as f64 / 1e6, "MB", None);
    }
}

/// The row count from `ingest`'s closing summary line on stderr
/// (`N rows from M inputs`).
fn total_rows(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .rev()
        .find_map(|l| l.split_once(" rows from ").and_then(|(n, _)| n.rsplit(' ').next()?.parse().ok()))
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
    let mut times = Vec::new();
    for threads in [1, 2] {
        let mut c = Command::new(bin);
        c.arg("compare").arg(&path).arg("--json").arg(root.join("analysis.json"));
        c.env("RAYON_NUM_THREADS", threads.to_string());
        let (wall, _, ok) = measure(&mut c);
        println!("# analysis {groups} groups x {per_side} samples/side, {threads} thread(s), ok={ok}");
        times.push(wall.as_secs_f64());
    }
    line("analysis.10k_groups.1_thread", times[0], "s", None);
    line("analysis.10k_groups.2_threads", times[1], "s", Some(times[0] / times[1]));
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
        "title = \"500 comparisons\"\nbaseline = \"baseline\"\n\n[[inputs]]\npaths = [\"data.csv\"]\n",
    )
    .unwrap();
    let mut c = Command::new(bin);
    c.arg("report").arg(dir.join("study.toml")).arg("--out").arg(dir.join("out"));
    let (wall, _, ok) = measure(&mut c);
    println!("# report: 500 comparisons, all formats, ok={ok}");
    line("report.500_comparisons.all_formats", wall.as_secs_f64(), "s", Some(wall.as_secs_f64() / 10.0));
}

fn small_input_figures(bin: &Path, root: &Path) {
    let dir = root.join("small");
    fs::create_dir_all(&dir).unwrap();
    let mut rng = Pcg64::seed_from_u64(11);
    let a = dir.join("base.json");
    let b = dir.join("new.json");
    for (p, f) in [(&a, 1.0), (&b, 1.1)] {
        let mut f_out = fs::File::create(p).unwrap();
        f_out.write_all(hyperfine_doc(&mut rng, 3, 30, f).as_bytes()).unwrap();
    }
    let runs = 20;
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let mut c = Command::new(bin);
        c.arg("compare").arg(&a).arg(&b);
        let (wall, _, _) = measure(&mut c);
        best = best.min(wall.as_secs_f64());
    }
    line("small.compare_hyperfine_json.best_of_20", best * 1e3, "ms", Some(best / 0.020));
    // Peers, where installed: same job on the same data.
    let py = "import json,sys\nfrom scipy import stats\nA=json.load(open(sys.argv[1]))['results']\nB=json.load(open(sys.argv[2]))['results']\nfor a,b in zip(A,B): print(a['command'], stats.ttest_ind(a['times'], b['times'], equal_var=False).pvalue)\n";
    let script = dir.join("welch.py");
    fs::write(&script, py).unwrap();
    let has_scipy = Command::new("python3")
        .args(["-c", "import scipy"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if has_scipy {
        let mut peer = f64::INFINITY;
        for _ in 0..runs {
            let mut c = Command::new("python3");
            c.arg(&script).arg(&a).arg(&b);
            peer = peer.min(measure(&mut c).0.as_secs_f64());
        }
        line("small.peer_scipy_welch.best_of_20", peer * 1e3, "ms", Some(best / peer));
    } else {
        println!("# peer scipy welch: python3 with scipy not installed, skipped");
    }
}

fn normal(rng: &mut Pcg64) -> f64 {
    // Box-Muller: enough for synthetic noise.
    let u1: f64 = rng.random_range(1e-12..1.0);
    let u2: f64 = rng.random_range(0.0..1.0);
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Writes files of about [`CHUNK`] bytes until `target` bytes are written,
/// each filled by `fill`; returns the bytes written.
fn chunked(dir: &Path, ext: &str, target: usize, mut fill: impl FnMut(&mut String, usize)) -> u64 {
    let mut total = 0u64;
    let mut i = 0;
    while (total as usize) < target {
        let mut s = String::with_capacity(CHUNK + 4096);
        fill(&mut s, CHUNK.min(target - total as usize));
        let p = dir.join(format!("f{i:05}.{ext}"));
        fs::write(&p, &s).unwrap();
        total += s.len() as u64;
        i += 1;
    }
    total
}

fn gen_go(rng: &mut Pcg64, dir: &Path, target: usize) -> u64 {
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
    })
}

fn gen_hackbench(rng: &mut Pcg64, dir: &Path, target: usize) -> u64 {
    chunked(dir, "txt", target, |s, size| {
        while s.len() < size {
            let t = 0.46 * (1.0 + 0.1 * normal(rng));
            let _ = write!(
                s,
                "Running in process mode with 4 groups using 40 file descriptors each (== 160 tasks)\nEach sender will pass 200 messages of 100 bytes\nTime: {t:.3}\n"
            );
        }
    })
}

fn gen_document(rng: &mut Pcg64, dir: &Path, target: usize) -> u64 {
    chunked(dir, "txt", target, |s, size| {
        let mut t = 0;
        while s.len() < size {
            let _ = writeln!(s, "Results of run {t} on the test machine:\n");
            s.push_str("+---------+--------------------+--------+-------------------+--------+\n");
            s.push_str("| threads | baseline time (ms) | stddev | patched time (ms) | stddev |\n");
            s.push_str("+---------+--------------------+--------+-------------------+--------+\n");
            for th in [512, 256, 128, 64, 32] {
                let b = th as f64 / 100.0 * (1.0 + 0.1 * normal(rng));
                let p = b * (1.0 + 0.1 * normal(rng));
                let _ = writeln!(s, "| {th} | {b:.4} | {:.4} | {p:.4} | {:.4} |", b * 0.1, p * 0.1);
            }
            s.push_str("+---------+--------------------+--------+-------------------+--------+\n\n");
            t += 1;
        }
    })
}

fn hyperfine_doc(rng: &mut Pcg64, commands: usize, samples: usize, factor: f64) -> String {
    let mut s = String::from("{\n  \"results\": [\n");
    for c in 0..commands {
        let times: Vec<String> = (0..samples)
            .map(|_| format!("{:.9}", 0.1 * factor * (1.0 + 0.05 * normal(rng))))
            .collect();
        let codes = vec!["0"; samples].join(",");
        let _ = write!(
            s,
            "    {{\"command\": \"cmd {c}\", \"mean\": 0.1, \"stddev\": 0.005, \"median\": 0.1, \"user\": 0.09, \"system\": 0.001, \"min\": 0.09, \"max\": 0.11, \"times\": [{}], \"exit_codes\": [{codes}]}}{}\n",
            times.join(","),
            if c + 1 < commands { "," } else { "" }
        );
    }
    s.push_str("  ]\n}\n");
    s
}

fn gen_hyperfine(rng: &mut Pcg64, dir: &Path, target: usize) -> u64 {
    // 1M samples per file (~12 MB), as many files as the size asks for.
    let mut total = 0u64;
    let mut i = 0;
    while (total as usize) < target {
        let doc = hyperfine_doc(rng, 10, 100_000, 1.0);
        fs::write(dir.join(format!("h{i:04}.json")), &doc).unwrap();
        total += doc.len() as u64;
        i += 1;
    }
    total
}

fn gen_criterion(rng: &mut Pcg64, dir: &Path, target: usize) -> u64 {
    let root = dir.join("criterion");
    let mut total = 0u64;
    let benches = 2000;
    for b in 0..benches {
        for baseline in ["base", "new"] {
            let d = root.join(format!("group{}/{}", b / 20, b % 20)).join(baseline);
            fs::create_dir_all(&d).unwrap();
            let bench = format!(
                "{{\"group_id\":\"group{}\",\"function_id\":null,\"value_str\":\"{}\",\"throughput\":null,\"full_id\":\"group{}/{}\",\"directory_name\":\"group{}/{}\",\"title\":\"group{}/{}\"}}",
                b / 20, b % 20, b / 20, b % 20, b / 20, b % 20, b / 20, b % 20
            );
            let n = 100;
            let iters: Vec<String> = (1..=n).map(|i| format!("{}.0", i * 4)).collect();
            let times: Vec<String> = (1..=n)
                .map(|i| format!("{:.1}", (i * 4) as f64 * 1000.0 * (1.0 + 0.05 * normal(rng))))
                .collect();
            let sample = format!(
                "{{\"sampling_mode\":\"Linear\",\"iters\":[{}],\"times\":[{}]}}",
                iters.join(","),
                times.join(",")
            );
            let est = "{\"mean\":{\"confidence_interval\":{\"confidence_level\":0.95,\"lower_bound\":990.0,\"upper_bound\":1010.0},\"point_estimate\":1000.0,\"standard_error\":5.0},\"median\":{\"confidence_interval\":{\"confidence_level\":0.95,\"lower_bound\":990.0,\"upper_bound\":1010.0},\"point_estimate\":1000.0,\"standard_error\":5.0},\"median_abs_dev\":{\"confidence_interval\":{\"confidence_level\":0.95,\"lower_bound\":10.0,\"upper_bound\":30.0},\"point_estimate\":20.0,\"standard_error\":5.0},\"slope\":{\"confidence_interval\":{\"confidence_level\":0.95,\"lower_bound\":990.0,\"upper_bound\":1010.0},\"point_estimate\":1000.0,\"standard_error\":5.0},\"std_dev\":{\"confidence_interval\":{\"confidence_level\":0.95,\"lower_bound\":40.0,\"upper_bound\":60.0},\"point_estimate\":50.0,\"standard_error\":5.0}}";
            for (f, text) in [("benchmark.json", bench.as_str()), ("sample.json", sample.as_str()), ("estimates.json", est)] {
                fs::write(d.join(f), text).unwrap();
                total += text.len() as u64;
            }
        }
        if total as usize >= target {
            break;
        }
    }
    total
}
