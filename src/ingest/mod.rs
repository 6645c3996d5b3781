//! Ingestion: turning any harness's output into [`Observation`]s.
//!
//! Each supported format is one file in this folder implementing [`Format`],
//! registered once in [`Registry::builtin`]. Detection asks every format how
//! sure it is that a [`Source`] is its kind and picks the most confident one;
//! `--format NAME` skips detection.

mod bencher;
mod benchstat_csv;
mod benchstat_text;
mod bmf;
mod cargo_criterion;
mod carry;
mod context;
mod critcmp;
mod criterion_console;
mod criterion_dir;
mod cyclictest;
mod cyclictest_hist;
mod cyclictest_json;
mod cyclictest_verbose;
mod dbench;
mod document;
mod driver;
mod extractor;
mod fio_json;
mod fio_terse;
mod fio_text;
mod gbench_console;
mod gbench_csv;
mod gbench_json;
pub mod generic;
mod gnu_time;
mod go_json;
mod go_text;
mod hackbench;
mod hyperfine_asciidoc;
mod hyperfine_console;
mod hyperfine_csv;
mod hyperfine_json;
mod hyperfine_markdown;
mod iperf3_json;
mod iperf3_text;
mod kernbench;
mod lkp;
mod logscan;
mod ministat;
mod mmtests;
pub mod numbers;
mod perf_bench;
mod perf_bench_more;
mod perf_stat;
mod perf_stat_csv;
mod perf_stat_csv_modes;
mod perf_stat_json;
mod pgbench;
mod pgbench_log;
mod pieces;
mod pyperf_json;
mod pyperf_text;
mod redis_csv;
mod redis_quiet;
mod redis_text;
mod rt_ipc;
mod schbench;
mod shell_time;
mod source;
mod stress_ng;
mod stress_ng_yaml;
mod structured;
mod sysbench;
mod text;
mod tidy_csv;
mod tidy_json;
mod will_it_scale;

pub use context::context_kind;
pub use driver::{ingest, ingest_each, FileReport, IngestOptions, Ingested};
pub use extractor::{add_user_formats, Extractor};
pub use gbench_json::context as gbench_context;
pub use go_text::stated_directions as go_stated_directions;
pub use pyperf_json::metadata as pyperf_metadata;
pub use source::{Line, Source};
pub use tidy_csv::{FieldMap, TidyCsv};
pub use tidy_json::TidyJson;

use crate::error::Result;
use crate::model::Observation;
use std::path::{Path, PathBuf};

/// How sure a format is that an input is its kind, 0 (no) to 100 (certain).
pub type Confidence = u8;

/// Below this confidence a format is not chosen by detection.
pub const MIN_CONFIDENCE: Confidence = 20;

/// One input format.
pub trait Format: Send + Sync {
    /// Short stable name used by `--format` (`hyperfine-json`, `document`).
    fn name(&self) -> &'static str;

    /// One line: what the format is and how it is recognised.
    fn description(&self) -> &'static str;

    /// How sure this format is that `src` is its kind.
    fn detect(&self, src: &Source) -> Confidence;

    /// [`Format::detect`] for detection, which only needs to know whether
    /// this format beats `best`, the highest score of the formats before
    /// it: the [`Format::detect`] score whenever that exceeds `best`, and
    /// otherwise any score not above `best`. A format whose full scan is
    /// costly can then settle a lost case from a cheaper one.
    fn detect_to_beat(&self, src: &Source, best: Confidence) -> Confidence {
        let _ = best;
        self.detect(src)
    }

    /// Reads every value of `src`, and says which lines it used without
    /// producing a value from them (headers, parameter lines) and which
    /// numeric-looking lines it left out on purpose, and why: the driver's
    /// account of unread lines then lists only lines nobody looked at. A
    /// format with nothing to add returns its values (`Ok(values.into())`).
    /// Errors name the file and, where there is one, the line.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed>;

    /// The values of [`Format::parse_accounted`] alone.
    fn parse(&self, src: &Source) -> Result<Vec<Observation>> {
        self.parse_accounted(src).map(|p| p.observations)
    }

    /// Whether a file too large to hold whole may be read in pieces, given
    /// its first lines (`head`, at least a few thousand), and what each
    /// piece needs to be read as the whole file is (see [`Pieces`]).
    /// `None`, the default, when the format needs the whole file at once
    /// (a record spanning lines, a value whose meaning depends on lines
    /// anywhere else that cannot be named).
    fn pieces(&self, head: &Source) -> Option<Pieces> {
        let _ = head;
        None
    }

    /// Reads `body`, whole lines of a large file; `body`'s lines carry
    /// their numbers in the file. `head` holds the lines every piece needs:
    /// the file's first [`Pieces::header_lines`], then every line of the
    /// file that [`Pieces::context`] picks, in file order (some may be
    /// `body`'s too). When the header is no line at all, every piece is
    /// read this way, the first one too; otherwise the first piece, header
    /// and all, is read with [`Format::parse_accounted`]. Accounts for
    /// `body`'s lines only.
    fn parse_piece(&self, head: &Source, body: &Source) -> Result<Parsed> {
        let _ = body;
        Err(head.error(
            None,
            format!("the {} reader cannot read a file in pieces", self.name()),
        ))
    }

    /// How sure this format is that a directory is its kind (Criterion's
    /// `target/criterion` tree is one input, not a folder of files).
    fn detect_dir(&self, _dir: &Path) -> Confidence {
        0
    }

    /// The parts, in reading order, of a directory this format detected
    /// with [`Format::detect_dir`] (Criterion: its saved runs). The driver
    /// reads a few parts at a time and hands their rows on before reading
    /// more, so that a large tree is never held whole: a part should be
    /// small, about one benchmark's files.
    fn dir_parts(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        Err(not_a_dir_format(self, dir))
    }

    /// Reads one part of `dir` listed by [`Format::dir_parts`].
    fn parse_dir_part(&self, dir: &Path, _part: &Path) -> Result<Vec<Observation>> {
        Err(not_a_dir_format(self, dir))
    }

    /// Reads a whole directory: its parts, in parallel, joined in order.
    /// The first failing part in that order is the error reported.
    fn parse_dir(&self, dir: &Path) -> Result<Vec<Observation>> {
        use rayon::prelude::*;
        let parts = self.dir_parts(dir)?;
        let read: Vec<Result<Vec<Observation>>> = parts
            .par_iter()
            .map(|part| self.parse_dir_part(dir, part))
            .collect();
        let rows = read.iter().map(|r| r.as_ref().map_or(0, Vec::len)).sum();
        let mut out = Vec::with_capacity(rows);
        for rows in read {
            out.extend(rows?);
        }
        Ok(out)
    }
}

fn not_a_dir_format<F: Format + ?Sized>(format: &F, dir: &Path) -> crate::Error {
    crate::Error::Usage(format!(
        "{}: format `{}` does not read directories",
        dir.display(),
        format.name()
    ))
}

/// How a format reads a large file in pieces ([`Format::pieces`]): the
/// pieces, read one by one and joined in order, give what the whole file
/// gives.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pieces {
    /// Lines at the file's start that every piece needs in front of it (a
    /// table's header row); the lines after them are read one by one.
    pub header_lines: u32,
    /// Lines a piece needs from anywhere in the file, when reading a line
    /// also takes state the file sets elsewhere (Go's `pkg:` and `note:`
    /// lines, and its `Unit` lines, which apply to the whole file): a test
    /// of a prepared line. They are collected over the whole file.
    pub context: Option<fn(&str) -> bool>,
    /// Lines a piece needs from just before it, when a line's meaning
    /// depends on the block it sits in (a row of a table under its header):
    /// see [`Carry`]. `None` for formats whose lines stand alone.
    pub carry: Option<Carry>,
    /// The size a piece grows to before it is cut, when smaller than the
    /// driver's (a reader that holds much per line of its input).
    pub piece_bytes: Option<usize>,
}

/// What each piece of a file carries from the text before it (see
/// [`Pieces::carry`]). Blocks are runs of non-blank lines; a piece that
/// starts inside a block gets its first lines (a header, its underline)
/// and the lines right before the cut, and every piece gets the lines just
/// above the block it starts in (a title). The reader gives no row of a
/// carried line: those belong to the piece before.
#[derive(Debug, Clone, Copy)]
pub struct Carry {
    /// First lines of the block a piece starts in.
    pub block_head: usize,
    /// Lines above that block, blank ones included.
    pub above: usize,
    /// Lines right before the cut.
    pub before_cut: usize,
}

/// The full result of reading one input (see [`Format::parse_accounted`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    pub observations: Vec<Observation>,
    /// Original line numbers read for context (headers, parameters).
    pub consumed: Vec<u32>,
    /// Lines deliberately not turned into values, with the reason
    /// (`<not supported>` counters, warm-up runs).
    pub skipped: Vec<(u32, String)>,
}

impl Parsed {
    /// The values a log reader found with their accounting, or, when it
    /// found none, an error at the input's last line saying `why` (what
    /// line was looked for, and how a run makes it).
    pub(crate) fn found(
        src: &Source,
        observations: Vec<Observation>,
        consumed: Vec<u32>,
        skipped: Vec<(u32, String)>,
        why: impl Into<String>,
    ) -> Result<Parsed> {
        if observations.is_empty() {
            return Err(src.error(logscan::last_line(src), why));
        }
        Ok(Parsed {
            observations,
            consumed,
            skipped,
        })
    }
}

#[cfg(test)]
impl Parsed {
    /// Why `line` was left out; empty when it was not.
    pub(crate) fn skipped_reason(&self, line: u32) -> &str {
        self.skipped
            .iter()
            .find(|(l, _)| *l == line)
            .map_or("", |(_, why)| why.as_str())
    }
}

/// Reads the file at `path` (relative to the crate) with `format`, for
/// importers' accounting tests.
#[cfg(test)]
pub(crate) fn parse_file(format: &dyn Format, path: &str) -> Parsed {
    format
        .parse_accounted(&Source::read(Path::new(path)).unwrap())
        .unwrap()
}

/// Checks that `format` scores every file under `tests/data` and `data`
/// as `reference` does: a detector made cheaper must give the answers of
/// the one it replaced. Returns how many files it recognised.
#[cfg(test)]
pub(crate) fn assert_detection_agrees(
    format: &dyn Format,
    reference: impl Fn(&Source) -> Confidence,
) -> usize {
    let mut seen = 0;
    let mut recognised = 0;
    let files = glob::glob("tests/data/**/*")
        .unwrap()
        .chain(glob::glob("data/**/*").unwrap());
    for path in files {
        let path = path.unwrap();
        let Ok(src) = Source::read(&path) else {
            continue;
        };
        let score = format.detect(&src);
        assert_eq!(score, reference(&src), "{}", path.display());
        seen += 1;
        recognised += usize::from(score > 0);
    }
    assert!(seen > 300, "only {seen} test files read");
    recognised
}

/// Whether a line of `src` holds `literal` and matches `re`: how detectors
/// searched before the joined-text search, kept for tests that compare the
/// two.
#[cfg(test)]
pub(crate) fn any_line_matches(src: &Source, literal: &str, re: &regex::Regex) -> bool {
    src.lines
        .iter()
        .any(|l| l.text.contains(literal) && re.is_match(&l.text))
}

impl From<Vec<Observation>> for Parsed {
    /// Values with no line read for context and none left out.
    fn from(observations: Vec<Observation>) -> Self {
        Parsed {
            observations,
            ..Parsed::default()
        }
    }
}

/// The set of formats available to detection.
pub struct Registry {
    formats: Vec<Box<dyn Format>>,
}

impl Registry {
    /// Every built-in format.
    pub fn builtin() -> Registry {
        let formats: Vec<Box<dyn Format>> = vec![
            Box::new(perf_bench::PerfBench),
            Box::new(perf_bench_more::PerfBenchMore),
            Box::new(perf_stat::PerfStat),
            Box::new(perf_stat_csv::PerfStatCsv),
            Box::new(perf_stat_csv_modes::PerfStatCsvModes),
            Box::new(perf_stat_json::PerfStatJson),
            Box::new(hackbench::Hackbench),
            Box::new(cyclictest::Cyclictest),
            Box::new(cyclictest_hist::CyclictestHist),
            Box::new(cyclictest_json::CyclictestJson),
            Box::new(cyclictest_verbose::CyclictestVerbose),
            Box::new(rt_ipc::RtIpc),
            Box::new(pgbench::Pgbench),
            Box::new(pgbench_log::PgbenchLog),
            Box::new(sysbench::Sysbench),
            Box::new(stress_ng::StressNg),
            Box::new(stress_ng_yaml::StressNgYaml),
            Box::new(iperf3_text::Iperf3Text),
            Box::new(iperf3_json::Iperf3Json),
            Box::new(dbench::Dbench),
            Box::new(redis_csv::RedisCsv),
            Box::new(redis_quiet::RedisQuiet),
            Box::new(redis_text::RedisText),
            Box::new(gnu_time::GnuTime),
            Box::new(shell_time::ShellTime),
            Box::new(schbench::Schbench),
            Box::new(will_it_scale::WillItScale),
            Box::new(kernbench::Kernbench),
            Box::new(fio_json::FioJson),
            Box::new(fio_terse::FioTerse),
            Box::new(fio_text::FioText),
            Box::new(lkp::Lkp),
            Box::new(mmtests::Mmtests),
            Box::new(ministat::Ministat),
            Box::new(hyperfine_json::HyperfineJson),
            Box::new(hyperfine_csv::HyperfineCsv),
            Box::new(hyperfine_markdown::HyperfineMarkdown),
            Box::new(hyperfine_asciidoc::HyperfineAsciidoc),
            Box::new(hyperfine_console::HyperfineConsole),
            Box::new(criterion_dir::CriterionDir),
            Box::new(criterion_console::CriterionConsole),
            Box::new(bencher::Bencher),
            Box::new(cargo_criterion::CargoCriterion),
            Box::new(critcmp::Critcmp),
            Box::new(gbench_json::GbenchJson),
            Box::new(gbench_csv::GbenchCsv),
            Box::new(gbench_console::GbenchConsole),
            Box::new(go_text::GoText),
            Box::new(go_json::GoJson),
            Box::new(benchstat_text::BenchstatText),
            Box::new(benchstat_csv::BenchstatCsv),
            Box::new(bmf::Bmf),
            Box::new(pyperf_json::PyperfJson),
            Box::new(pyperf_text::PyperfText),
            Box::new(tidy_csv::TidyCsv::new()),
            Box::new(tidy_json::TidyJson::new()),
            Box::new(document::Document),
            Box::new(generic::Generic),
        ];
        Registry { formats }
    }

    /// Adds a format (user-defined extractors, mapped CSV) ahead of the
    /// built-in ones, so that it wins ties.
    pub fn push_front(&mut self, format: Box<dyn Format>) {
        self.formats.insert(0, format);
    }

    /// All formats in detection order.
    pub fn formats(&self) -> impl Iterator<Item = &dyn Format> {
        self.formats.iter().map(|f| f.as_ref())
    }

    /// Whether `name` is one of [`Registry::builtin`]'s formats (not a
    /// user's extractor or mapped table). The names are listed once per
    /// process: building the registry builds every importer.
    pub(crate) fn is_builtin(name: &str) -> bool {
        static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        NAMES
            .get_or_init(|| Registry::builtin().formats().map(|f| f.name()).collect())
            .contains(&name)
    }

    /// The format called `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Format> {
        self.at(self.index_of(name)?)
    }

    /// Where the format called `name` stands (the first of that name:
    /// `--map` puts a mapped tidy reader before the built-in one).
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.formats().position(|f| f.name() == name)
    }

    /// The format at `position`.
    pub(crate) fn at(&self, position: usize) -> Option<&dyn Format> {
        self.formats.get(position).map(|f| f.as_ref())
    }

    /// The most confident format for `src`, if any reaches [`MIN_CONFIDENCE`].
    /// Ties go to the earlier format in the registry.
    pub fn detect(&self, src: &Source) -> Option<&dyn Format> {
        self.detect_scored(src).map(|(f, _)| f)
    }

    /// [`Registry::detect`] with the winner's confidence.
    pub fn detect_scored(&self, src: &Source) -> Option<(&dyn Format, Confidence)> {
        let (at, confidence) = self.detect_scored_at(src)?;
        Some((self.at(at)?, confidence))
    }

    /// [`Registry::detect_scored`] with the winner's place in the registry
    /// instead of the format: a name can be two formats'.
    pub(crate) fn detect_scored_at(&self, src: &Source) -> Option<(usize, Confidence)> {
        self.most_confident(|f, best| f.detect_to_beat(src, best))
    }

    /// The most confident directory format for `dir`, if any.
    pub fn detect_dir(&self, dir: &Path) -> Option<&dyn Format> {
        self.at(self.most_confident(|f, _| f.detect_dir(dir))?.0)
    }

    /// The place of the format scoring highest (the first of equals) at
    /// [`MIN_CONFIDENCE`] or more, and its score; `score` is given the best
    /// score so far (below [`MIN_CONFIDENCE`] before there is one), which a
    /// format must beat to count.
    fn most_confident(
        &self,
        score: impl Fn(&dyn Format, Confidence) -> Confidence,
    ) -> Option<(usize, Confidence)> {
        let mut best: Option<(usize, Confidence)> = None;
        for (i, f) in self.formats().enumerate() {
            let c = score(f, best.map_or(MIN_CONFIDENCE - 1, |(_, b)| b));
            if c >= MIN_CONFIDENCE && best.is_none_or(|(_, b)| c > b) {
                best = Some((i, c));
            }
        }
        best
    }
}
