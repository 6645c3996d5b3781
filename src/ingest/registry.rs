//! The registry of formats detection chooses among.

use crate::ingest::formats::*;
use crate::ingest::{Confidence, Format, Source, MIN_CONFIDENCE};
use std::path::Path;

/// The set of formats available to detection.
pub struct Registry {
    formats: Vec<Box<dyn Format>>,
}

impl Registry {
    /// Every built-in format.
    pub fn builtin() -> Registry {
        let formats: Vec<Box<dyn Format>> = vec![
            Box::new(bonnie::csv::Bonnie),
            Box::new(bonnie::table::BonnieTable),
            Box::new(perf::bench::PerfBench),
            Box::new(perf::bench_more::PerfBenchMore),
            Box::new(perf::stat::PerfStat),
            Box::new(perf::stat_csv::PerfStatCsv),
            Box::new(perf::stat_csv_modes::PerfStatCsvModes),
            Box::new(perf::stat_json::PerfStatJson),
            Box::new(perf::stat_json_metric_only::PerfStatJsonMetricOnly),
            Box::new(perf::stat_metric_only::PerfStatMetricOnly),
            Box::new(rt_tests::hackbench::Hackbench),
            Box::new(rt_tests::cyclictest::Cyclictest),
            Box::new(rt_tests::cyclictest_hist::CyclictestHist),
            Box::new(rt_tests::cyclictest_json::CyclictestJson),
            Box::new(rt_tests::cyclictest_verbose::CyclictestVerbose),
            Box::new(rt_tests::oslat::Oslat),
            Box::new(rt_tests::rt_ipc::RtIpc),
            Box::new(rt_tests::rt_ipc_json::RtIpcJson),
            Box::new(rt_tests::pi_stress::PiStress),
            Box::new(rt_tests::rt_migrate::RtMigrate),
            Box::new(pgbench::summary::Pgbench),
            Box::new(pgbench::log::PgbenchLog),
            Box::new(phoronix::Phoronix),
            Box::new(phoronix_console::PhoronixConsole),
            Box::new(phoronix_json::PhoronixJson),
            Box::new(phoronix_csv::PhoronixCsv),
            Box::new(phoronix_text::PhoronixText),
            Box::new(pktgen::Pktgen),
            Box::new(sysbench::Sysbench),
            Box::new(stress_ng::metrics::StressNg),
            Box::new(stress_ng::yaml::StressNgYaml),
            Box::new(iperf2::text::Iperf2Text),
            Box::new(iperf2::csv::Iperf2Csv),
            Box::new(iperf3::text::Iperf3Text),
            Box::new(iperf3::json::Iperf3Json),
            Box::new(dbench::Dbench),
            Box::new(netperf::output::Netperf),
            Box::new(redis::csv::RedisCsv),
            Box::new(redis::quiet::RedisQuiet),
            Box::new(redis::text::RedisText),
            Box::new(time::gnu::GnuTime),
            Box::new(time::shell::ShellTime),
            Box::new(schbench::Schbench),
            Box::new(will_it_scale::WillItScale),
            Box::new(kernbench::Kernbench),
            Box::new(fio::json::FioJson),
            Box::new(fio::terse::FioTerse),
            Box::new(fio::log::FioLog),
            Box::new(fio::hist_log::FioHistLog),
            Box::new(fio::text::FioText),
            Box::new(fio::status::FioStatus),
            Box::new(fio::group::FioGroup),
            Box::new(fio::io_uring::FioIoUring),
            Box::new(kunit::Kunit),
            Box::new(glmark2::Glmark2),
            Box::new(git_perf::GitPerf),
            Box::new(lkp::Lkp),
            Box::new(lmbench::Lmbench),
            Box::new(lmbench_summary::LmbenchSummary),
            Box::new(npb::Npb),
            Box::new(unixbench::Unixbench),
            Box::new(ebizzy::Ebizzy),
            Box::new(simoop::Simoop),
            Box::new(pybench::Pybench),
            Box::new(phpbench::Phpbench),
            Box::new(rt_app::RtApp),
            Box::new(kbuild::Kbuild),
            Box::new(jitter::Jitter),
            Box::new(stream::Stream),
            Box::new(fsmark::Fsmark),
            Box::new(fxmark::Fxmark),
            Box::new(vm_scalability::VmScalability),
            Box::new(rcutorture::refscale::Refscale),
            Box::new(rcutorture::rcuscale::Rcuscale),
            Box::new(rcutorture::torture::Torture),
            Box::new(memtier::Memtier),
            Box::new(memtier_json::MemtierJson),
            Box::new(k6::text::K6Text),
            Box::new(k6::summary::K6Summary),
            Box::new(k6::points::K6Points),
            Box::new(k6::csv::K6Csv),
            Box::new(netpipe::console::Netpipe),
            Box::new(netpipe::np_out::NetpipeOut),
            Box::new(osu::Osu),
            Box::new(imb::Imb),
            Box::new(coremark::Coremark),
            Box::new(tinymembench::Tinymembench),
            Box::new(ycsb::Ycsb),
            Box::new(hammerdb::Hammerdb),
            Box::new(uperf::Uperf),
            Box::new(aim9::Aim9),
            Box::new(dd::Dd),
            Box::new(hdparm::Hdparm),
            Box::new(mbw::Mbw),
            Box::new(sysstat::Sysstat),
            Box::new(sadf::Sadf),
            Box::new(sadf_raw::SadfRaw),
            Box::new(sadf_xml::SadfXml),
            Box::new(jmeter::xml::JmeterXml),
            Box::new(jmeter::csv::JmeterCsv),
            Box::new(jmeter::summariser::JmeterSummariser),
            Box::new(postmark::Postmark),
            Box::new(wrk::Wrk),
            Box::new(siege::text::SiegeText),
            Box::new(siege::log::SiegeLog),
            Box::new(ab::Ab),
            Box::new(ab::percentiles::AbPercentiles),
            Box::new(ab::gnuplot::AbGnuplot),
            Box::new(dnsperf::Dnsperf),
            Box::new(tcrypt::Tcrypt),
            Box::new(openssl_speed::OpensslSpeed),
            Box::new(sockperf::Sockperf),
            Box::new(qperf::Qperf),
            Box::new(nuttcp::Nuttcp),
            Box::new(ioping::Ioping),
            Box::new(sevenzip::SevenZip),
            Box::new(cryptsetup::Cryptsetup),
            Box::new(bpf_bench::BpfBench),
            Box::new(mmtests::Mmtests),
            Box::new(ministat::Ministat),
            Box::new(hyperfine::json::HyperfineJson),
            Box::new(hyperfine::csv::HyperfineCsv),
            Box::new(hyperfine::markdown::HyperfineMarkdown),
            Box::new(hyperfine::asciidoc::HyperfineAsciidoc),
            Box::new(hyperfine::console::HyperfineConsole),
            Box::new(archive::Archive),
            Box::new(criterion::dir::CriterionDir),
            Box::new(criterion::file::CriterionFile),
            Box::new(criterion::console::CriterionConsole),
            Box::new(criterion::bencher::Bencher),
            Box::new(criterion::cargo::CargoCriterion),
            Box::new(criterion::critcmp::Critcmp),
            Box::new(gbench::json::GbenchJson),
            Box::new(gbench::csv::GbenchCsv),
            Box::new(gbench::console::GbenchConsole),
            Box::new(catch2::Catch2),
            Box::new(nonius::Nonius),
            Box::new(picobench::Picobench),
            Box::new(nanobench::Nanobench),
            Box::new(nanobench_json::NanobenchJson),
            Box::new(asv_console::AsvConsole),
            Box::new(asv_results::AsvResults),
            Box::new(dart_benchmark::DartBenchmark),
            Box::new(ruby_benchmark::RubyBenchmark),
            Box::new(iai::Iai),
            Box::new(benchmark_js::BenchmarkJs),
            Box::new(vitest_bench::VitestBench),
            Box::new(console_time::ConsoleTime),
            Box::new(jmh_json::JmhJson),
            Box::new(benchmarkdotnet::BenchmarkDotNet),
            Box::new(benchmarkdotnet_table::BenchmarkDotNetTable),
            Box::new(benchmarkdotnet_plain::BenchmarkDotNetPlain),
            Box::new(openmetrics::OpenMetrics),
            Box::new(gungraun::Gungraun),
            Box::new(go::text::GoText),
            Box::new(go::json::GoJson),
            Box::new(go::benchstat_text::BenchstatText),
            Box::new(go::benchstat_csv::BenchstatCsv),
            Box::new(bmf::Bmf),
            Box::new(pyperf::json::PyperfJson),
            Box::new(pyperf::text::PyperfText),
            Box::new(pyperf::dump::PyperfDump),
            Box::new(pytest_benchmark::PytestBenchmark),
            Box::new(tidy::csv::TidyCsv::new()),
            Box::new(tidy::json::TidyJson::new()),
            Box::new(cram::Cram),
            Box::new(hdr_percentiles::HdrPercentiles),
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
