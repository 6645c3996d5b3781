//! Every real harness output under `tests/data/harness/` (made by running
//! the tools in their output modes, see its README): each file is read by
//! the format made for it, with values, and JSON numbers are read exactly as
//! written; plus the generic reader and the `compare` finding it raises.

use patchperf::ingest::{ingest, IngestOptions, Registry, Source};
use std::path::{Path, PathBuf};

const HARNESS: &str = "tests/data/harness";

/// File (relative to `tests/data/harness`) → the format that must read it;
/// empty for a mode no importer reads yet (listed so that the gap shows).
const FORMATS: &[(&str, &str)] = &[
    ("benchstat/footnotes-three-units.txt", "benchstat"),
    ("benchstat/missing-cells.txt", "benchstat"),
    ("benchstat/missing-cells-three-columns.txt", "benchstat"),
    ("benchstat/single-column.txt", "benchstat"),
    ("benchstat/csv-single-column.csv", "benchstat-csv"),
    ("cyclictest/hist-t2.txt", "cyclictest-hist"),
    ("cyclictest/histofall-t2.txt", "cyclictest-hist"),
    ("cyclictest/json-t2-stdout.txt", "cyclictest"),
    ("cyclictest/nsecs-D1-q.txt", "cyclictest"),
    ("cyclictest/json-t2.json", "cyclictest-json"),
    ("cyclictest/json-hist-t1.json", "cyclictest-json"),
    ("cyclictest/hist-json-t1-stdout.txt", "cyclictest-hist"),
    ("cyclictest/live-t2.txt", "cyclictest"),
    ("cyclictest/q-t2.txt", "cyclictest"),
    ("cyclictest/script-q-t2-N.txt", "cyclictest"),
    ("cyclictest/verbose-t1.txt", "cyclictest-verbose"),
    ("cyclictest/q-v-t2.txt", "cyclictest-verbose"),
    ("dbench/dbench-sync-flags.txt", "dbench"),
    ("dbench/dbench3-loop.txt", "dbench"),
    ("dbench/dbench3-mail-before-after.txt", "dbench"),
    ("dbench/dbench-1client.txt", "dbench"),
    ("dbench/dbench-2clients.txt", "dbench"),
    ("dbench/tbench-2clients.txt", "dbench"),
    ("dbench/tbench3-mail.txt", "dbench"),
    ("ebizzy/lkp-t32-S10.txt", "ebizzy"),
    ("ebizzy/ten-runs-v.txt", "ebizzy"),
    ("fsmark/lkp-1-32-threads-8k.txt", "fsmark"),
    ("fxmark/lkp-01-f2fs-mwul.txt", "fxmark"),
    ("fxmark/lkp-02-nan-run.txt", "fxmark"),
    ("fsmark/lkp-2-13-threads-4m.txt", "fsmark"),
    ("vm-scalability/lkp-1-truncate-8-runs.txt", "vm-scalability"),
    ("vm-scalability/lkp-2-swapin-32-processes.txt", "vm-scalability"),
    ("vm-scalability/lkp-3-truncate-seq-faulted.txt", "vm-scalability"),
    ("fio/json-randrw-2jobs.json", "fio-json"),
    ("fio/jsonplus-write.json", "fio-json"),
    ("fio/normal-randread.txt", "fio"),
    ("fio/howto-terse-v2-fio1.txt", "fio-terse"),
    ("fio/normal-percentile-list.txt", "fio"),
    ("fio/normal-lat-percentiles-bssplit.txt", "fio"),
    ("fio/group-lines-two-runs.txt", "fio-group"),
    ("fio-t-io_uring/passthru-fixedbufs-millions.txt", "fio-t-io_uring"),
    ("fio-t-io_uring/two-devices-wrapped-command.txt", "fio-t-io_uring"),
    ("fio-t-io_uring/old-inflight-two-kernels.txt", "fio-t-io_uring"),
    ("fio-t-io_uring/latency-percentiles-queue-depths.txt", "fio-t-io_uring"),
    ("fio-t-io_uring/ublk-quoted-printable.txt", "fio-t-io_uring"),
    ("fio-t-io_uring/two-submitters-inflight-per-file.txt", "fio-t-io_uring"),
    ("fio/normal-terse-two-jobs.txt", "fio"),
    ("fio/v2-randread-libaio-5runs.txt", "fio"),
    ("fio/normal-status-interval.txt", "fio"),
    ("fio/terse-read.txt", "fio-terse"),
    ("fio/rr_bw.1.log", "fio-log"),
    ("pyperf/slowest-two.txt", "pyperf-text"),
    ("pyperf/check.txt", "pyperf-text"),
    ("pyperf/show-metadata.txt", "pyperf-text"),
    ("unknown/ip-s-link-lo.json", "generic"),
    ("unknown/lkp-autonuma-benchmark-01.txt", "generic"),
    ("unknown/lkp-mpstat-3-cut-short.json", "generic"),
    ("unknown/pkb-pcp-dstat-output.csv", "generic"),
    ("unknown/vegeta-readme-report-text.txt", "generic"),
    ("hdrhistogram/vegeta-readme-hdrplot.txt", "hdr-percentiles"),
    // Test files whose figures are expectations: recognised, no values,
    // see `outputs_without_values_are_recognised_and_accounted`.
    ("cram/sysbench-test_cpu.t", ""),
    ("cram/sysbench-api_reports.t", ""),
    ("unknown/pkb-ntttcp-tcp-receiver.xml", "generic"),
    ("unknown/pkb-specsfs2014-summary.xml", "generic"),
    ("unknown/hdrhistogram-tagged-non-monotonic.hlog", "generic"),
    ("unknown/virtualclient-dxmicrobenchmarks-result.txt", "generic"),
    ("rt-tests/oslat-c01.txt", "oslat"),
    ("rt-tests/oslat-q.txt", "oslat"),
    ("rt-tests/oslat-json-run.txt", "oslat"),
    ("rt-tests/oslat-json.json", "cyclictest-json"),
    ("rt-tests/cyclicdeadline-live.txt", "cyclictest"),
    ("rt-tests/cyclicdeadline-json.json", "cyclictest-json"),
    ("rt-tests/cyclicdeadline-q-t2.txt", "cyclictest"),
    ("fio/rr_iops.1.log", "fio-log"),
    ("fio/rr_clat_hist.1.log", "fio-hist-log"),
    ("fio/co_clat_hist.1.log", "fio-hist-log"),
    ("fio/pkb_fio_avg_1506559526.49_clat_hist.1.log", "fio-hist-log"),
    ("fio/raw_lat.1.log", "fio-log"),
    ("fio/prio_clat.1.log", "fio-log"),
    ("fio/wb_clat.1.log", "fio-log"),
    ("fio/wb_bw.1.log", "fio-log"),
    ("fio/it_clat.1.log", "fio-log"),
    ("fio/normal-randrw-disk-sectors-3.42.txt", "fio"),
    ("gbench/doc-csv-no-time-unit.csv", "gbench-csv"),
    ("gbench/aggregates-only.json", "gbench-json"),
    ("gbench/display-aggregates-only.txt", "gbench-console"),
    ("gbench/reps-counters-console.txt", "gbench-console"),
    ("gbench/reps-counters.csv", "gbench-csv"),
    ("gbench/reps-counters.json", "gbench-json"),
    ("gbench/csv-display-aggregates.csv", "gbench-csv"),
    ("gbench/console-tabular.txt", "gbench-console"),
    ("gbench/doc-compare-utest.txt", "gbench-console"),
    ("gbench/doc-compare-benchmarks.txt", "gbench-console"),
    ("gbench/doc-compare-filters.txt", "gbench-console"),
    ("gbench/doc-console-old-header.txt", "gbench-console"),
    ("gbench/compare-test3_run0.json", "gbench-json"),
    ("gbench/compare-test4_run0.json", "gbench-json"),
    // Names and indices only: recognised, no values (see the module's tests).
    ("gbench/compare-test4_run.json", ""),
    ("hyperfine/adoc-scan.adoc", "hyperfine-asciidoc"),
    ("hyperfine/adoc-two.adoc", "hyperfine-asciidoc"),
    ("hyperfine/console-three-ms-warning.txt", "hyperfine-console"),
    ("hyperfine/console-basic.txt", "hyperfine-console"),
    ("hyperfine/console-full.txt", "hyperfine-console"),
    ("hyperfine/console-nocolor.txt", "hyperfine-console"),
    ("hyperfine/json-two.json", "hyperfine-json"),
    ("hyperfine/org-scan.org", "hyperfine-markdown"),
    ("hyperfine/org-two.org", "hyperfine-markdown"),
    ("iperf3/tcp-P2-reverse.txt", "iperf3"),
    ("hdparm/tT-loop.txt", "hdparm"),
    ("hdparm/t-direct-loop3.txt", "hdparm"),
    ("hdparm/T-direct-loop.txt", "hdparm"),
    ("hdparm/tT-loop-and-refused-vda.txt", "hdparm"),
    ("postmark/n1000-s5k-50k-t40000.txt", "postmark"),
    ("postmark/n1000-s5k-50k-t40000-terse.txt", "postmark"),
    ("mbw/n3-b4096-16.txt", "mbw"),
    ("mbw/q-n2-32.txt", "mbw"),
    ("iperf3/server-log-13-tests.txt", "iperf3"),
    ("iperf3/tcp-text.txt", "iperf3"),
    ("iperf3/tcp-bidir-t2.txt", "iperf3"),
    ("iperf3/tcp-bidir.json", "iperf3-json"),
    ("iperf3/tcp-get-server-output.txt", "iperf3"),
    ("iperf3/tcp-V-verbose.txt", "iperf3"),
    ("iperf3/tcp-O1-fM.txt", "iperf3"),
    ("iperf3/udp-b100M-J.json", "iperf3-json"),
    ("iperf3/tcp.json", "iperf3-json"),
    ("iperf3/udp-text.txt", "iperf3"),
    ("iperf3/udp.json", "iperf3-json"),
    (
        "perf-bench/lkp-syscall-all-headerless.txt",
        "perf-bench-more",
    ),
    ("perf-bench/simple-syscall-all.txt", "perf-bench-more"),
    ("perf-bench/uprobe-all-thousands.txt", "perf-bench-more"),
    ("perf-bench/uprobe-baseline-quoted-header.txt", "perf-bench-more"),
    ("perf-bench/breakpoint-thread.txt", "perf-bench-more"),
    ("perf-bench/epoll-ctl.txt", "perf-bench-more"),
    ("perf-bench/epoll-wait.txt", "perf-bench"),
    ("perf-bench/futex-lock-pi.txt", "perf-bench"),
    ("perf-bench/futex-wake-parallel.txt", "perf-bench"),
    (
        "perf-bench/internals-inject-build-id.txt",
        "perf-bench-more",
    ),
    ("perf-bench/internals-kallsyms-parse.txt", "perf-bench-more"),
    ("perf-bench/internals-synthesize.txt", "perf-bench-more"),
    ("perf-bench/simple-internals-synthesize.txt", "perf-bench-more"),
    ("perf-bench/mem-find_bit.txt", "perf-bench-more"),
    ("perf-bench/numa-mem.txt", "perf-bench-more"),
    ("perf-bench/simple-futex-hash.txt", "perf-bench"),
    ("perf-bench/simple-mem-memcpy.txt", "perf-bench-more"),
    ("perf-bench/simple-mem-memset.txt", "perf-bench-more"),
    ("perf-bench/simple-sched-messaging.txt", "generic"),
    ("perf-bench/simple-sched-pipe.txt", "generic"),
    ("perf-bench/simple-syscall-basic.txt", "generic"),
    ("perf-bench/syscall-all.txt", "perf-bench-more"),
    ("perf-bench/syscall-basic.txt", "perf-bench-more"),
    ("perf-stat/interval-per-core.txt", "perf-stat"),
    ("perf-stat/metric-only-interval-hv24x7.txt", "perf-stat-metric-only"),
    ("perf-stat/metric-only-topdown-per-core.txt", "perf-stat-metric-only"),
    ("perf-stat/interval-per-cpu-A.csv", "perf-stat-csv-modes"),
    ("perf-stat/lkp-1-interval-x-space.txt", "perf-stat-csv-modes"),
    ("perf-stat/interval-text.txt", "perf-stat"),
    ("perf-stat/interval.csv", "perf-stat-csv-modes"),
    ("perf-stat/interval.json", "perf-stat-json"),
    ("perf-stat/interval-summary.txt", "perf-stat"),
    ("perf-stat/per-thread-p.txt", "perf-stat"),
    ("perf-stat/per-thread-p.csv", "perf-stat-csv-modes"),
    ("perf-stat/per-thread-p.json", "perf-stat-json"),
    ("perf-stat/interval-summary.csv", "perf-stat-csv-modes"),
    ("perf-stat/interval-summary.json", "perf-stat-json"),
    ("perf-stat/interval-per-cpu-A-summary.txt", "perf-stat"),
    ("perf-stat/per-core.csv", "perf-stat-csv-modes"),
    ("perf-stat/per-core.txt", "perf-stat"),
    ("perf-stat/per-cpu-A.csv", "perf-stat-csv-modes"),
    ("perf-stat/per-cpu-A.json", "perf-stat-json"),
    ("perf-stat/interval-per-core.json", "perf-stat-json"),
    ("perf-stat/metric-only-a.json", "perf-stat-json-metric-only"),
    ("perf-stat/metric-only-per-socket.json", "perf-stat-json-metric-only"),
    ("perf-stat/per-cpu-A.txt", "perf-stat"),
    ("perf-stat/per-node.txt", "perf-stat"),
    ("perf-stat/per-socket.csv", "perf-stat-csv-modes"),
    ("perf-stat/per-socket.txt", "perf-stat"),
    ("perf-stat/repeat-r3.txt", "perf-bench"),
    ("pgbench/failures-detailed-max-tries3.txt", "pgbench"),
    ("pgbench/N-max-tries2-verbose-errors.txt", "pgbench"),
    ("pgbench/agg.23979", "pgbench-log"),
    ("pgbench/agg.23979.1", "pgbench-log"),
    ("pgbench/aggregate-run-stdout.txt", "pgbench"),
    ("pgbench/S-C-reconnect.txt", "pgbench"),
    ("pgbench/progress-only-stderr.txt", "pgbench"),
    ("pgbench/log-run-stdout.txt", "pgbench"),
    ("pgbench/per-statement-r.txt", "pgbench"),
    ("pgbench/two-scripts-weights-r.txt", "pgbench"),
    ("pgbench/builtin-weights.txt", "pgbench"),
    ("pgbench/v9-pkb-stdout.txt", "pgbench"),
    ("pgbench/progress-c2.txt", "pgbench"),
    ("pgbench/select-only-prepared.txt", "pgbench"),
    ("pgbench/txlog.23975", "pgbench-log"),
    ("pyperf/compare_to-G-suite.txt", "pyperf-text"),
    ("pyperf/compare_to-G.txt", "pyperf-text"),
    ("pyperf/compare_to-hidden.txt", ""),
    ("pyperf/compare_to-suite.txt", "pyperf-text"),
    ("pyperf/compare_to-table.txt", "pyperf-text"),
    ("pyperf/compare_to-table-suite3.txt", "pyperf-text"),
    ("pyperf/compare_to-table-md-suite3.txt", "pyperf-text"),
    ("pyperf/compare_to-v-suite3.txt", "pyperf-text"),
    ("pyperformance/compare-suite3.txt", "pyperf-text"),
    ("pyperformance/compare-table-suite3.txt", "pyperf-text"),
    ("pyperf/dump-raw.txt", "pyperf-dump"),
    ("pyperf/dump-suite.txt", "pyperf-dump"),
    ("pyperf/dump-v.txt", "pyperf-dump"),
    ("pyperf/hist-two.txt", ""),
    ("pyperf/compare_to.txt", "pyperf-text"),
    ("pyperf/dump.txt", "pyperf-dump"),
    ("pyperf/hist.txt", ""),
    ("pyperf/show.txt", "pyperf-text"),
    ("pyperf/stats.txt", "pyperf-text"),
    ("pyperf/timeit-base.json", "pyperf-json"),
    ("pyperf/timeit-new.json", "pyperf-json"),
    ("qperf/tcp_bw-tcp_lat.txt", "qperf"),
    ("qperf/uu-m64K-tcp_bw.txt", "qperf"),
    ("qperf/v-oo-msgsize-tcp_bw.txt", "qperf"),
    ("qperf/v-udp_bw-udp_lat.txt", "qperf"),
    ("qperf/vv-tcp_bw.txt", "qperf"),
    ("redis/lkp-01-mixed-old-new.txt", "redis-text"),
    ("rt-tests/hackbench-g2.txt", "hackbench"),
    ("rt-tests/hackbench-lkp-8-iterations.txt", "hackbench"),
    ("rt-tests/hackbench-lkp-2-instances.txt", "hackbench"),
    ("rt-tests/pi_stress.txt", "pi-stress"),
    ("rt-tests/rt-migrate-test-q-l3.txt", "rt-migrate-test"),
    ("rt-tests/pi_stress-duration5.json", "pi-stress"),
    ("rt-tests/pi_stress-groups2-duration5.txt", "pi-stress"),
    ("rt-tests/pi_stress-inversions1000.txt", "pi-stress"),
    ("rt-tests/pi_stress-quiet.txt", "pi-stress"),
    ("rt-tests/pi_stress-sigint.txt", ""),
    ("rt-tests/pi_stress-verbose.txt", "pi-stress"),
    ("rt-tests/pmqtest-q.txt", "rt-ipc"),
    ("rt-tests/ptsematest-S-json-run.txt", "rt-ipc"),
    ("rt-tests/ptsematest-S.json", "rt-ipc-json"),
    ("rt-tests/sigwaittest-json-run.txt", "rt-ipc"),
    ("rt-tests/sigwaittest.json", "rt-ipc-json"),
    ("rt-tests/pmqtest-t2-json-run.txt", "rt-ipc"),
    ("rt-tests/pmqtest-t2.json", "rt-ipc-json"),
    ("rt-tests/svsematest-S-json-run.txt", "rt-ipc"),
    ("rt-tests/svsematest-S.json", "rt-ipc-json"),
    ("rt-tests/pmqtest-t2-q.txt", "rt-ipc"),
    ("rt-tests/ptsematest-q.txt", "rt-ipc"),
    ("rt-tests/ptsematest-t2-q.txt", "rt-ipc"),
    ("rt-tests/signaltest-q.txt", "rt-ipc"),
    ("rt-tests/signaltest-t3-q.txt", "rt-ipc"),
    ("rt-tests/sigwaittest-q.txt", "rt-ipc"),
    ("rt-tests/sigwaittest-t2-q.txt", "rt-ipc"),
    ("rt-tests/svsematest-q.txt", "rt-ipc"),
    ("rt-tests/svsematest-t2-q.txt", "rt-ipc"),
    ("schbench/one-run-interval1.txt", "schbench"),
    ("schbench/two-instances-m1-m2.txt", "schbench"),
    ("schbench/lkp-multi-instance.txt", "schbench"),
    ("memtier/lkp-4-instances.txt", "memtier"),
    ("memtier/x10-best-worst-average.txt", "memtier"),
    ("memtier/pkb-redis-ratio-1-9.json", "memtier-json"),
    ("nanobench/mustache-render.json", "nanobench-json"),
    ("nanobench/pyperf-compare_to-table-docs.txt", "pyperf-text"),
    ("vitest/bencher-two.json", "vitest-bench"),
    ("vitest/bencher-four.json", "vitest-bench"),
    ("console-time/bencher-four.txt", "console-time"),
    ("k6/text-scenarios-thresholds.txt", "k6-text"),
    ("k6/text-trend-stats-ms.txt", "k6-text"),
    ("k6/out-csv-first-19-lines.csv", "k6-csv"),
    ("k6/text-progress-shared-iters.txt", "k6-text"),
    ("k6/text-v1-five-runs-crlf.md", "k6-text"),
    ("k6/handlesummary-k6-test.json", "k6-summary"),
    ("k6/summary-export-k6-test.json", "k6-summary"),
    ("k6/handlesummary-metrics-jq.json", "k6-summary"),
    ("k6/out-json-k6-test.jsonl", "k6-json"),
    ("k6/out-json-points-jq-filtered.jsonl", "k6-json"),
    ("netpipe/NPtcp-h-localhost-u65536.txt", "netpipe"),
    ("netpipe/np.out", "netpipe-out"),
    ("netpipe/lkp-NPtcp-n1000.txt", "netpipe"),
    ("netpipe/lkp-NPmpi-repeats1000-color.txt", "netpipe"),
    ("imb/pkb-pingpong-show-tail.txt", "imb"),
    ("imb/pkb-barrier-multi.txt", "imb"),
    ("imb/pkb-rma-one-put-all.txt", "imb"),
    ("osu/pkb-allgather-intel-mpi.txt", "osu"),
    ("osu/pkb-latency-mt.txt", "osu"),
    ("osu/pkb-mbw-mr.txt", "osu"),
    ("osu/pkb-get-acc-latency.txt", "osu"),
    ("osu/pkb-ibarrier.txt", "osu"),
    // Usage texts of every test, with osu_hello's and osu_init's runs among them.
    ("osu/pkb-help-hello-init.txt", "osu"),
    ("coremark/validation-seeds-auto-iterations.txt", "coremark"),
    ("coremark/lkp-fork4.txt", "coremark"),
    // CRCs that do not match: refused, see `coremark_reports_give_score_and_time`.
    ("coremark/fork2-errors-detected.txt", ""),
    ("netperf/lkp-sctp-stream-many-64-instances.txt", "netperf"),
    ("tinymembench/lkp-x86-v0.4.9.txt", "tinymembench"),
    ("tinymembench/x86-64-v0.4.9-here.txt", "tinymembench"),
    ("ycsb/lkp-01-read-insert.txt", "ycsb"),
    ("ycsb/run-status-gc-read-update.txt", "ycsb"),
    // The client died before any result: refused, see the ycsb module's tests.
    ("ycsb/pkb-redis-read-timeout-no-result.txt", ""),
    ("hammerdb/pkb-tpcc-mysql.txt", "hammerdb"),
    ("hammerdb/pkb-tpch-mysql.txt", "hammerdb"),
    ("hammerdb/pkb-tpcc-timeprofile-4.3.txt", "hammerdb"),
    ("hammerdb/pkb-tpm-per-second-4.3.txt", "hammerdb"),
    ("uperf/lkp-01-netperf-profile.txt", "uperf"),
    ("uperf/lkp-02-netperf-profile-warnings.txt", "uperf"),
    ("aim9/lkp-02-tcp-test.txt", "aim9"),
    ("rcutorture/lkp-refscale-rcu-44-readers.txt", "refscale"),
    ("rcutorture/lkp-rcuscale-rcu.txt", "rcuscale"),
    ("rcutorture/lkp-rcuscale-tasks.txt", "rcuscale"),
    // Pass or fail outcomes, no measurement: refused with the outcome, see
    // `kernel_test_modules_give_their_console_results`.
    ("rcutorture/lkp-rcutorture-hotplug.txt", ""),
    ("rcutorture/lkp-locktorture-spin-lock.txt", ""),
    ("stress-ng/loop-3runs-brief.txt", "stress-ng"),
    ("stress-ng/metrics-vm-flip-perf.txt", "stress-ng"),
    ("stress-ng/brief-cpu-matrix-hash.txt", "stress-ng"),
    ("stress-ng/metrics-brief-cpu-vm.txt", "stress-ng"),
    ("stress-ng/metrics-brief-pipe-times.txt", "stress-ng"),
    ("stress-ng/brief-cpu-times.txt", "stress-ng"),
    ("kunit/crc-benchmark-diff-two-logs.txt", "kunit"),
    ("glmark2/panfrost-es2-drm-wrapped.txt", "glmark2"),
    ("git-perf/p5313-this-tree-times-and-sizes.txt", "git-perf"),
    ("git-perf/p5311-head-vs-parent-times-and-sizes.txt", "git-perf"),
    ("git-perf/p4000-three-trees-significance-hints.txt", "git-perf"),
    ("stress-ng/brief-cpu-vm-times.txt", "stress-ng"),
    ("stress-ng/metrics-cpu.txt", "stress-ng"),
    ("stress-ng/readme-rapl-matrix-3d.txt", "stress-ng"),
    ("stress-ng/readme-c-states-intmath.txt", "stress-ng"),
    ("stress-ng/log-brief-cpu-switch-times.txt", "stress-ng"),
    ("stress-ng/log-brief-metrics-cpu-vm.txt", "stress-ng"),
    ("stress-ng/metrics-yaml-run.txt", "stress-ng"),
    ("stress-ng/yaml-cpu-switch.yaml", "stress-ng-yaml"),
    ("stress-ng/metrics-yaml-hdd-cache-run.txt", "stress-ng"),
    ("stress-ng/yaml-hdd-cache.yaml", "stress-ng-yaml"),
    (
        "stress-ng/loop-2runs-metrics-matrix-memrate.txt",
        "stress-ng",
    ),
    ("stress-ng/seq-scheduler-brief.txt", "stress-ng"),
    ("stress-ng/lkp-02-memrate-old-info.txt", "stress-ng"),
    ("stress-ng/lkp-07-udp-flood.txt", "stress-ng"),
    ("7zip/7z-b-md18.txt", "7zip-bench"),
    ("7zip/7za-b-mmt1-md18.txt", "7zip-bench"),
    ("7zip/7z-b-1pass.txt", "7zip-bench"),
    ("7zip/7z-b-3passes.txt", "7zip-bench"),
    ("7zip/7z-b-bt.txt", "7zip-bench"),
    ("7zip/7z-b-mmall-interrupted.txt", "7zip-bench"),
    ("lmbench/lat_ctx-s0-8procs.txt", "lmbench"),
    ("lmbench/lat_mem_rd-four-strides.txt", "lmbench"),
    ("lmbench/lat_mem_rd-stride128.txt", "lmbench"),
    ("lmbench/results-aarch64.txt", "lmbench"),
    ("lmbench/results-x86_64-3alpha4.txt", "lmbench"),
    (
        "lmbench/summary-getsummary-two-systems-3runs.txt",
        "lmbench-summary",
    ),
    ("lmbench/summary-make-see-virtualclient.txt", "lmbench-summary"),
    (
        "lmbench/summary-getsummary-stderr-two-hosts.txt",
        "lmbench-summary",
    ),
    ("netperf/omni-rr-O-human.txt", "netperf"),
    ("netperf/omni-rr-k-keyval.txt", "netperf"),
    ("netperf/pkb-udp-rr-o-csv-wrapped-histogram.txt", "netperf"),
    ("netperf/omni-rr-o-csv.txt", "netperf"),
    ("netperf/tcp_crr-o-latency-selectors.txt", "netperf"),
    ("netperf/tcp_crr-trailing-spaces.txt", "netperf"),
    ("netperf/tcp_rr-default.txt", "netperf"),
    ("netperf/tcp_rr-v2-burst6-r32K-fm.txt", "netperf"),
    ("netperf/tcp_rr-v2-histogram.txt", "netperf"),
    (
        "netperf/tcp_stream-confidence-i3-I99_5-warning.txt",
        "netperf",
    ),
    ("netperf/tcp_stream-demo-D1.35-fM-interim.txt", "netperf"),
    ("netperf/tcp_stream-localhost-default.txt", "netperf"),
    ("netperf/udp_rr-T1-cpu-c-C.txt", "netperf"),
    ("netperf/udp_stream-m32768.txt", "netperf"),
    ("netperf/udp_stream-msg-too-long-error.txt", ""),
    ("iperf2/client-tcp-P2-e.txt", "iperf2"),
    ("iperf2/client-tcp-P2-i1-yC.txt", "iperf2-csv"),
    ("iperf2/client-tcp-P2-sumonly.txt", "iperf2"),
    ("iperf2/client-tcp-d-dual.txt", "iperf2"),
    ("iperf2/client-tcp-default.txt", "iperf2"),
    ("iperf2/client-tcp-full-duplex.txt", "iperf2"),
    ("iperf2/client-tcp-i1.txt", "iperf2"),
    ("iperf2/client-tcp-reverse-R.txt", "iperf2"),
    ("iperf2/client-tcp-yC.txt", "iperf2-csv"),
    ("iperf2/client-udp-P2.txt", "iperf2"),
    ("iperf2/client-udp-e-i1.txt", "iperf2"),
    ("iperf2/client-udp-yC.txt", "iperf2-csv"),
    ("iperf2/server-tcp-e.txt", "iperf2"),
    ("ab/default-n2000-c4.txt", "ab"),
    ("ab/loop3.txt", "ab"),
    ("ab/failed-length-varbody.txt", "ab"),
    ("ab/notfound-404.txt", "ab"),
    ("ab/S-d-nostats.txt", "ab"),
    ("ab/w-html.txt", "ab"),
    ("ab/refused-noserver.txt", ""),
    ("ab/k-keepalive-python-http11.txt", "ab"),
    (
        "openssl-speed/lkp-03-multi-rsa4096-4.0.txt",
        "openssl-speed",
    ),
    ("openssl-speed/aes-128-cbc.txt", "openssl-speed"),
    ("openssl-speed/rsa2048-ecdsap256.txt", "openssl-speed"),
    ("openssl-speed/ecdhp256-ed25519.txt", "openssl-speed"),
    ("openssl-speed/mr-evp-aes-128-gcm.txt", "openssl-speed"),
    ("openssl-speed/mr-rsa2048-ecdsap256.txt", "openssl-speed"),
    ("openssl-speed/multi2-evp-aes-128-gcm.txt", "openssl-speed"),
    ("openssl-speed/multi2-mr-sha256.txt", "openssl-speed"),
    ("openssl-speed/sha256.txt", "openssl-speed"),
    ("bonnie++/three-runs.csv", "bonnie++"),
    ("bonnie++/pkb-1.96.txt", "bonnie++"),
    ("bonnie++/default-s64-r32-n1.txt", "bonnie++"),
    ("bonnie++/q-x2-s64-r32-n1.csv.txt", "bonnie++"),
    ("sockperf/pp-udp-t2.txt", "sockperf"),
    ("sockperf/pp-tcp-t2.txt", "sockperf"),
    ("sockperf/ul-udp-t2.txt", "sockperf"),
    ("sockperf/tp-udp-t2.txt", "sockperf"),
    ("sockperf/server-udp.txt", "sockperf"),
    ("sockperf/pp-udp-fulllog.csv", "sockperf"),
    ("sockperf/pp-udp-noserver.txt", ""),
    ("nuttcp/tcp-T2.txt", "nuttcp"),
    ("nuttcp/tcp-T2-i1.txt", "nuttcp"),
    ("nuttcp/tcp-T2-fparse.txt", "nuttcp"),
    ("nuttcp/udp-T2-R100m.txt", "nuttcp"),
    ("nuttcp/udp-T2-R100m-i1.txt", "nuttcp"),
    ("nuttcp/tcp-T2-v.txt", "nuttcp"),
    ("nuttcp/refused-noserver.txt", ""),
    ("cryptsetup/v2-full-i7-8665u.txt", "cryptsetup"),
    ("cryptsetup/three-machines.txt", "cryptsetup"),
    ("cryptsetup/commented-out.txt", "cryptsetup"),
    ("cryptsetup/some-ciphers-na.txt", "cryptsetup"),
    ("cryptsetup/annotated-rows-imx6ul.txt", "cryptsetup"),
    ("cryptsetup/pbkdf-only-no-skcipher.txt", "cryptsetup"),
    ("cryptsetup/argon2id-iter500.txt", "cryptsetup"),
    ("cryptsetup/cipher-unavailable.txt", ""),
    ("ioping/c5-tmp.txt", "ioping"),
    ("ioping/R-w2-tmp.txt", "ioping"),
    ("ioping/B-c5-tmp.txt", "ioping"),
    ("ioping/p2-B-period.txt", "ioping"),
    ("ioping/c5-W-write-tmp.txt", "ioping"),
    ("ioping/q-c5-tmp.txt", "ioping"),
    ("ioping/c3-prompts-loop3.txt", "ioping"),
    ("wrk/default-t2-c10.txt", "wrk"),
    ("wrk/latency-t2-c10.txt", "wrk"),
    ("wrk/loop-c1-c4-c16.txt", "wrk"),
    ("wrk/non2xx-404.txt", "wrk"),
    ("wrk/wrk2-hdrhistogram-errors.txt", "wrk"),
    ("dd/gnu-loop3.txt", "dd"),
    ("dd/gnu-urandom-progress.txt", "dd"),
    ("dd/gnu-small-bytes.txt", "dd"),
    ("dd/busybox-bs1M.txt", ""),
    ("lmbench/lmdd-write-bs64k-loop3.txt", "dd"),
    ("netperf/tcp_rr-v0-loop5.txt", "netperf"),
    ("netperf/tcp_stream-v0-msgsize-loop.txt", "netperf"),
    ("netperf/udp_rr-v0.txt", "netperf"),
    ("netperf/tcp_crr-v0.txt", "netperf"),
    ("netperf/tcp_rr-v2-loopback.txt", "netperf"),
    ("netperf/tcp_stream-v2-loopback.txt", "netperf"),
    ("sysbench/fileio-seqwr.txt", "sysbench"),
    ("sysbench/fileio-seqrd.txt", "sysbench"),
    ("sysbench/fileio-rndrd-direct-t2-interval.txt", "sysbench"),
    ("sysbench/v05-oltp-pkb-trimmed.txt", "sysbench"),
    ("sysbench/cpu-fileio-threads.txt", "sysbench"),
    ("sysbench/cpu-interval-histogram.txt", "sysbench"),
    ("sysbench/cpu-loop-threads.txt", "sysbench"),
    ("sysbench/memory.txt", "sysbench"),
    ("sysbench/mutex.txt", "sysbench"),
    ("unixbench/console-samples.txt", "unixbench"),
    ("unixbench/two-runs.txt", "unixbench"),
    ("unixbench/lkp-01-file-write-alone.txt", "unixbench"),
    ("unixbench/lkp-03-gears-banner-cut.txt", "unixbench"),
    ("phoronix/composite-two-systems.xml", "phoronix"),
    ("phoronix/export-two-systems.json", "phoronix-json"),
    ("phoronix/export-two-systems.csv", "phoronix-csv"),
    ("phoronix/export-two-systems-raw.csv", "phoronix-csv"),
    ("phoronix/export-two-systems.txt", "phoronix-text"),
    ("fio/json-then-normal.txt", "fio-json"),
    ("sysbench/cpu-percentile0.txt", "sysbench"),
    (
        "criterion/two_sample/welch/5/new/estimates.json",
        "criterion-file",
    ),
    (
        "criterion/two_sample/welch/5/new/sample.json",
        "criterion-file",
    ),
    (
        "criterion/two_sample/welch/5/change/estimates.json",
        "criterion-file",
    ),
    (
        "criterion/Fibonacci/Iterative/base/estimates.json",
        "criterion-file",
    ),
    (
        "criterion/Fibonacci/Iterative/base/sample.json",
        "criterion-file",
    ),
    (
        "criterion/Fibonacci/Iterative/base/raw.csv",
        "criterion-file",
    ),
    (
        "criterion/Fibonacci/Iterative/change/estimates.json",
        "criterion-file",
    ),
    ("criterion-lone/criterion.json", "criterion-file"),
    ("criterion-lone/book-benchmark-complete.json", "cargo-criterion-json"),
    // One run folder of Criterion.rs's own book, read file by file here
    // and as a folder in `a_criterion_run_folder_is_one_input`.
    (
        "criterion/Fibonacci/Recursive/new/estimates.json",
        "criterion-file",
    ),
    ("criterion/Fibonacci/Recursive/new/sample.json", "criterion-file"),
    // Names the run, holds no values.
    ("criterion/Fibonacci/Recursive/new/benchmark.json", ""),
    // Tukey fences, no values: see `criterion_tukey_fences_are_accounted_not_read`.
    ("criterion/sum_100k/new/tukey.json", ""),
    ("phoronix/lkp-pts-1.log", "phoronix-console"),
    ("phoronix/lkp-pts-2.log", "phoronix-console"),
    ("phoronix/lkp-pts-3.log", "phoronix-console"),
    ("phoronix/lkp-pts-4.log", ""),
    ("phoronix/lkp-pts-5.log", "phoronix-console"),
    ("phoronix/lkp-pts-6.log", "phoronix-console"),
    ("phoronix/lkp-pts-7.log", ""),
    ("phoronix/lkp-pts-8.log", "phoronix-console"),
    ("phoronix/lkp-pts-9.log", "phoronix-console"),
    ("phoronix/lkp-pts-10.log", "phoronix-console"),
    ("stream/lkp-01-ten-iterations.txt", "stream"),
    ("netperf/lkp-udp-stream-16-instances.txt", "netperf"),
    ("pytest-benchmark/pytest-benchmark-5.json", "pytest-benchmark"),
    // `stats.data` cut short by hand with a note among the numbers.
    ("pytest-benchmark/gab-data-cut-with-note.json", "pytest-benchmark"),
    ("catch2/gab-v2.11-est-run-time.txt", "catch2"),
    ("catch2/bencher-sections-long-name.txt", "catch2"),
    ("benchmark-js/gab-fib.txt", "benchmark-js"),
    ("benchmark-js/bencher-chromium-suite.txt", "benchmark-js"),
    ("jmh/gab-params.json", "jmh-json"),
    ("jmh/bencher-six-params.json", "jmh-json"),
    ("benchmarkdotnet/bencher-memory-full.json", "benchmarkdotnet-json"),
    ("benchmarkdotnet/bencher-brief.json", "benchmarkdotnet-json"),
    ("benchmarkdotnet/verify-method-baseline-params.txt", "benchmarkdotnet-table"),
    ("benchmarkdotnet/verify-job-baseline-jobs.txt", "benchmarkdotnet-table"),
    ("benchmarkdotnet/verify-openmetrics-memory.txt", "openmetrics"),
    ("benchmarkdotnet/verify-asciidoc-export.txt", "benchmarkdotnet-table"),
    ("benchmarkdotnet/verify-plain-export.txt", "benchmarkdotnet-plain"),
    ("gungraun/bencher-summary-and-regressions.txt", "gungraun"),
    ("gungraun/bencher-callgrind-and-dhat.txt", "gungraun"),
    ("gungraun/bencher-ansi-escapes.txt", "gungraun"),
    (
        "pytest-benchmark/0001_b87b9aae14ff14a7887a6bbaa9731b9a8760555d_20150814_190343_uncommitted-changes.json",
        "pytest-benchmark",
    ),
    ("ab/n200-c2-e-g.txt", "ab"),
    ("ab/n200-c2.csv", "ab-percentiles"),
    ("ab/n200-c2.tsv", "ab-gnuplot"),
    // Usage texts: refused, see `failed_starts_say_why_instead_of_giving_rows`.
    ("rt-tests/hackbench-json-unsupported.txt", ""),
    ("iperf3/usage-param-error.txt", ""),
    // iperf3's error JSON: refused with its error, see `failed_starts_say_why_instead_of_giving_rows`.
    ("iperf3/refused-ipv6.json", ""),
    // stress-ng's failure and no metrics: refused with it, see `failed_starts_say_why_instead_of_giving_rows`.
    ("stress-ng/lkp-04-fail-sigaction.txt", ""),
    ("sockperf/pp-udp-pps1000-fullrtt.txt", "sockperf"),
    ("pgbench/rate-latency-limit.txt", "pgbench"),
    ("sysbench/oltp-ro-pgsql-interval-hist.txt", "sysbench"),
    ("sysbench/oltp-rw-rate-interval.txt", "sysbench"),
    ("netperf/tcp_stream-P0.txt", "generic"),
    ("netperf/tcp_rr-P0-o-csv.txt", "generic"),
    ("lmbench/bw_mem-8m-rd.txt", "generic"),
    ("iperf3/timestamps.txt", "iperf3"),
    ("iperf3/timestamps-epoch.txt", "iperf3"),
    ("iperf3/title-T-omit-O1.txt", "iperf3"),
    ("stress-ng/metrics-brief-timestamp.txt", "stress-ng"),
    ("phpbench/lkp-01.txt", "phpbench"),
    ("simoop/lkp-1.txt", "simoop"),
    ("pybench/lkp-01.txt", "pybench"),
    ("rt-app/lkp-01-mp3-short.txt", "rt-app"),
    ("rt-app/lkp-02-web-cut.txt", "rt-app"),
    ("kbuild/lkp-01.txt", "kbuild"),
    ("kbuild/lkp-02.txt", "kbuild"),
    ("kbuild/lkp-03.txt", "kbuild"),
    ("jitter/lkp-01.txt", "jitter"),
    ("lmbench/lkp-01-bw_mem-after-build.txt", "lmbench"),
    ("lmbench/lkp-02-mmap-series.txt", "lmbench"),
    ("dbench/lkp-tbench-01-two-runs.txt", "dbench"),
    ("dbench/lkp-tbench-02.txt", "dbench"),
    ("sysstat/sadf-p-3000-lines.txt", "sysstat-sadf"),
    ("sysstat/sadf-d-first-60-lines.txt", "sysstat-sadf"),
    ("sysstat/sadf-x-A.xml", "sysstat-sadf-xml"),
    ("sysstat/mpstat-P-ALL-prompts.txt", "sysstat"),
    ("sysstat/sar-u.txt", "sysstat"),
    ("sysstat/sar-dev.txt", "sysstat"),
    ("sysstat/pidstat-A.txt", "sysstat"),
    ("sysstat/mpstat-I.txt", "sysstat"),
    ("sysstat/iostat-x.txt", "sysstat"),
    ("sysstat/iostat-human.txt", "sysstat"),
    ("sysstat/tapestat.txt", "sysstat"),
    ("jmeter/sample_log2-first-40.jtl", "jmeter-xml"),
    ("jmeter/HTMLReportTestFile.csv", "jmeter-csv"),
    ("jmeter/HTMLReportFalseTestFile.csv", "jmeter-csv"),
    ("jmeter/HTMLReportTestFile-no-header.csv", "jmeter-csv"),
    ("jmeter/summariser-changes-history.txt", "jmeter-summariser"),
    ("jmeter/summariser-component-reference.txt", "jmeter-summariser"),
    ("sysstat/sadf-r-A.txt", "sysstat-sadf-raw"),
    ("sysstat/sadf-r-u-w-q-busy.txt", "sysstat-sadf-raw"),
    ("sysstat/sadf-j-u.json", "generic"),
    ("npb/ep-S-threads-1-2.txt", "npb"),
    ("npb/cg-is-S-two-programs.txt", "npb"),
    ("siege/two-runs-c2-c4.txt", "siege"),
    ("siege/siege-log-two-marks.csv", "siege-log"),
    ("siege/json-c4.json", "generic"),
    ("dnsperf/two-rates-Q200-Q400.txt", "dnsperf"),
    ("dnsperf/S1-intervals.txt", "dnsperf"),
    ("pbench/uperf-summary-result-0.csv", "generic"),
    ("pbench/uperf-summary-result-1.csv", "generic"),
    ("pbench/uperf-result-gold.csv", "document"),
    ("phpbench/aggregate-console.txt", "document"),
    ("phpbench/default-console.txt", "document"),
    ("cyclictest/cyclictest-hist-date-loop2.txt", "cyclictest-hist"),
    ("rt-tests/hackbench-loop3.txt", "hackbench"),
    ("perf-bench/perf-bench-pipe-banner-loop3.txt", "perf-bench"),
    ("sysbench/sysbench-cpu-echo-threads.txt", "sysbench"),
    ("fio/client-server-2hosts.txt", "fio-json"),
    ("fio/pbench_clat_hist.1.log", ""),
    ("nonius/three-benchmarks.txt", "nonius"),
    ("picobench/three-suites.txt", "picobench"),
    ("nanobench/three-benchmarks.md", "nanobench"),
    ("perf-stat/kvm-tracepoints-5-blocks.txt", "perf-stat"),
    ("uperf/pbench-tcp-rr-raw-totals.txt", "uperf"),
    ("libtest/bencher-zero.txt", ""),
    ("pgbench/rate-limit-progress.txt", "pgbench"),
    ("asv/bencher-two-envs.txt", "asv-console"),
    ("asv/results-v1-cheetah-nan.json", "asv-results"),
    ("asv/results-v2-b83371ea.json", "asv-results"),
    ("asv/results-v2-d05bench-4c377d72.json", "asv-results"),
    ("asv/benchmarks.json", ""),
    ("asv/machine.json", ""),
    ("dart/bencher-two.txt", "dart-benchmark"),
    ("ruby-benchmark/bencher-bmbm-two.txt", "ruby-benchmark"),
    ("ruby-benchmark/bencher-bm-totals.txt", "ruby-benchmark"),
    ("iai/bencher-change.txt", "iai"),
    ("iai/bencher-two.txt", "iai"),
];

/// One harness file ingested with the default options.
fn ingest_one(path: &Path, registry: &Registry) -> patchperf::ingest::Ingested {
    ingest(
        std::slice::from_ref(&path.to_path_buf()),
        registry,
        &IngestOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = glob::glob(&format!("{HARNESS}/**/*"))
        .unwrap()
        .map(Result::unwrap)
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    out.sort();
    out
}

#[test]
fn every_harness_file_is_read_by_its_format() {
    let registry = Registry::builtin();
    let listed: Vec<PathBuf> = FORMATS
        .iter()
        .map(|(f, _)| Path::new(HARNESS).join(f))
        .collect();
    // A file added without a line here, or a line for a file that is gone.
    assert_eq!(files(), {
        let mut l = listed.clone();
        l.sort();
        l
    });
    for (file, want) in FORMATS.iter().filter(|(_, w)| !w.is_empty()) {
        let path = Path::new(HARNESS).join(file);
        let got = ingest_one(&path, &registry);
        let report = &got.files[0];
        assert_eq!(
            report.format.as_deref(),
            Some(*want),
            "{file}: {:?}",
            report.note
        );
        assert!(report.rows > 0, "{file}: no values");
    }
}

/// Outputs that hold no values to read (pyperf's histogram buckets, a
/// compare_to that hid its only benchmark) are still recognised, and
/// every line of them is accounted for with its reason; what they do state
/// of the result (the mean, std dev, min and max in a stability warning
/// under a histogram) is read.
#[test]
fn outputs_without_values_are_recognised_and_accounted() {
    let registry = Registry::builtin();
    for (file, format, first_reason, rows) in [
        (
            "pyperf/hist.txt",
            "pyperf-text",
            "a bucket of pyperf hist",
            4,
        ),
        (
            "pyperf/hist-two.txt",
            "pyperf-text",
            "a bucket of pyperf hist",
            4,
        ),
        (
            "pyperf/compare_to-hidden.txt",
            "pyperf-text",
            "benchmarks compare_to hid",
            0,
        ),
        (
            "libtest/bencher-zero.txt",
            "bencher",
            "libtest's test count",
            0,
        ),
        (
            "asv/benchmarks.json",
            "asv-results",
            "asv's benchmarks.json: the benchmarks' definitions",
            0,
        ),
        ("asv/machine.json", "asv-results", "asv's machine.json", 0),
        (
            "cram/sysbench-test_cpu.t",
            "cram",
            "a command of a cram test",
            0,
        ),
        (
            "cram/sysbench-api_reports.t",
            "cram",
            "a command of a cram test",
            0,
        ),
    ] {
        let path = Path::new(HARNESS).join(file);
        let got = ingest_one(&path, &registry);
        let report = &got.files[0];
        assert_eq!(report.format.as_deref(), Some(format), "{file}");
        assert_eq!(report.rows, rows, "{file}");
        assert!(
            report.unread_numeric.is_empty(),
            "{file}: {:?}",
            report.unread_numeric
        );
        assert!(
            report
                .skipped
                .first()
                .is_some_and(|(_, why)| why.starts_with(first_reason)),
            "{file}: {:?}",
            report.skipped
        );
    }
}

#[test]
fn every_file_of_the_readme_has_its_command() {
    let readme = std::fs::read_to_string(format!("{HARNESS}/README.md")).unwrap();
    for path in files() {
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(
            readme.contains(&format!("`{name}`")),
            "{name} missing from the README"
        );
    }
}

/// Every decimal token of `text`, parsed exactly (the standard library's
/// conversion is correctly rounded).
fn exact_numbers(text: &str) -> std::collections::HashSet<u64> {
    let re = regex::Regex::new(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?").unwrap();
    re.find_iter(text)
        .filter_map(|m| m.as_str().parse::<f64>().ok())
        .map(f64::to_bits)
        .collect()
}

#[test]
fn json_values_are_read_to_the_last_bit() {
    let registry = Registry::builtin();
    for file in [
        "tests/data/harness/hyperfine/json-two.json",
        "tests/data/corpus/pyperf-baseline-1.json",
        "tests/data/corpus/pyperf-patched-2.json",
        "tests/data/harness/iperf3/tcp.json",
        "tests/data/harness/iperf3/udp.json",
        "tests/data/harness/pytest-benchmark/pytest-benchmark-5.json",
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let written = exact_numbers(&text);
        let got = ingest(&[PathBuf::from(file)], &registry, &IngestOptions::default()).unwrap();
        let mut seventeen = 0;
        for o in got.dataset.rows() {
            // Counts are counted, not written; pyperf's summaries computed.
            let computed = o.stat == patchperf::model::Stat::N
                || (o.stat != patchperf::model::Stat::Sample && file.contains("pyperf"));
            if computed {
                continue;
            }
            assert!(
                written.contains(&o.value.to_bits()),
                "{file}: {} {} {} = {:e} is not a number written in the file",
                o.benchmark,
                o.metric,
                o.stat,
                o.value
            );
            seventeen += usize::from(format!("{:e}", o.value).len() >= 20);
        }
        assert!(seventeen > 0, "{file}: no value needing 17 digits");
    }
}

/// JSON that no importer knows is read by its structure, not left unread.
#[test]
fn unknown_json_is_read_generically_by_its_keys() {
    let registry = Registry::builtin();
    let path = Path::new(HARNESS).join("unknown/ip-s-link-lo.json");
    let got = ingest_one(&path, &registry);
    assert_eq!(got.files[0].format.as_deref(), Some("generic"));
    assert!(got.files[0].note.as_deref().unwrap().contains("JSON"));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rows = got.dataset.to_observations();
    let rx = rows
        .iter()
        .find(|o| o.metric == "stats64.rx.bytes")
        .expect("rx bytes");
    assert_eq!(Some(rx.value), doc[0]["stats64"]["rx"]["bytes"].as_f64());
    // Every number of the document is a row.
    fn numbers(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::Number(_) => 1,
            serde_json::Value::Array(a) => a.iter().map(numbers).sum(),
            serde_json::Value::Object(m) => m.values().map(numbers).sum(),
            _ => 0,
        }
    }
    assert_eq!(rows.len(), numbers(&doc));
}

#[test]
fn an_unknown_key_value_log_is_read_generically_and_compare_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    // `label number unit` lines, which the e-mail table reader leaves alone.
    let log = "my tool\n\nrate 1200.5 ops/s\nlatency 8.25 ms\n";
    let a = write("base.log", log);
    let b = write("new.log", &log.replace("1200.5", "1100.25"));
    let registry = Registry::builtin();
    let got = ingest(
        std::slice::from_ref(&a),
        &registry,
        &IngestOptions::default(),
    )
    .unwrap();
    assert_eq!(got.files[0].format.as_deref(), Some("generic"));
    assert!(got.files[0]
        .note
        .as_deref()
        .unwrap()
        .contains("generically"));
    let rows = got.dataset.to_observations();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[0].benchmark.as_str(), rows[0].metric.as_str()),
        ("my tool", "rate")
    );
    assert_eq!((rows[0].unit.as_str(), rows[0].value), ("ops/s", 1200.5));
    assert_eq!((rows[1].metric.as_str(), rows[1].value), ("latency", 8.25));

    let out = assert_cmd::Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest"])
        .arg(&a)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("generic"), "{said}");

    // Both sides named alike: the comparison runs and carries the finding.
    let base = dir.path().join("baseline");
    let new = dir.path().join("patched");
    std::fs::create_dir_all(&base).unwrap();
    std::fs::create_dir_all(&new).unwrap();
    std::fs::copy(&a, base.join("tool.log")).unwrap();
    std::fs::copy(&b, new.join("tool.log")).unwrap();
    let out = assert_cmd::Command::cargo_bin("patchperf")
        .unwrap()
        .args(["compare", "--json", "-"])
        .arg(&base)
        .arg(&new)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        said.contains("\"generic-read\""),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn binary_empty_and_number_free_files_still_say_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::builtin();
    for (name, bytes) in [
        ("empty.txt", &b""[..]),
        ("words.txt", &b"nothing to see here\njust words\n"[..]),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let got = ingest(&[p], &registry, &IngestOptions::default());
        if let Ok(got) = got {
            assert!(got.dataset.is_empty(), "{name}");
            assert_ne!(got.files[0].format.as_deref(), Some("generic"), "{name}");
        }
    }
    let src = Source::from_text("x.txt", "");
    assert!(Registry::builtin().detect(&src).is_none());
}

/// A program that prints its help instead of running leaves option
/// defaults and a version number in the file: no reader of unknown text
/// takes them for results, and the note says what the file is.
#[test]
fn failed_starts_say_why_instead_of_giving_rows() {
    let registry = Registry::builtin();
    for (file, line) in [
        ("rt-tests/hackbench-json-unsupported.txt", 3),
        ("iperf3/usage-param-error.txt", 3),
    ] {
        let got = ingest_one(&Path::new(HARNESS).join(file), &registry);
        assert!(got.dataset.is_empty(), "{file}");
        let report = &got.files[0];
        assert_eq!(report.format, None, "{file}");
        let note = report.note.as_deref().unwrap_or("");
        assert!(
            note.starts_with(&format!("a program's usage text (line {line}:")),
            "{file}: {note}"
        );
    }
    // A test that never started is iperf3's, and its error is the answer.
    let path = Path::new(HARNESS).join("iperf3/refused-ipv6.json");
    let err = ingest(&[path], &registry, &IngestOptions::default())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("refused-ipv6.json:1: iperf3 JSON without results: unable to connect"),
        "{err}"
    );
    // A stress-ng run that failed before its metrics says so, at its line.
    let path = Path::new(HARNESS).join("stress-ng/lkp-04-fail-sigaction.txt");
    let err = ingest(&[path], &registry, &IngestOptions::default())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("lkp-04-fail-sigaction.txt:2: stress-ng failed and reported no metrics: `stress-ng: fail:  [5778]"),
        "{err}"
    );
}

/// The runs of a real Phoronix result are its samples, per system, with
/// the values its own `result-file-raw-to-csv` export lists.
#[test]
fn phoronix_runs_are_the_samples_of_each_system() {
    let registry = Registry::builtin();
    let path = Path::new(HARNESS).join("phoronix/composite-two-systems.xml");
    let got = ingest_one(&path, &registry);
    let rows: Vec<(String, String, f64)> = got
        .dataset
        .rows()
        .map(|o| (o.params.to_string(), o.variant.to_string(), o.value))
        .collect();
    let want = [
        ("test=RAM / Memory", "runA", 4144.05),
        ("test=RAM / Memory", "runA", 4167.47),
        ("test=RAM / Memory", "runB", 10508.66),
        ("test=RAM / Memory", "runB", 9974.8),
        ("test=CPU", "runA", 4746.95),
        ("test=CPU", "runA", 8328.46),
        ("test=CPU", "runB", 7938.36),
        ("test=CPU", "runB", 6531.05),
    ];
    let want: Vec<(String, String, f64)> = want
        .iter()
        .map(|(p, v, x)| (p.to_string(), v.to_string(), *x))
        .collect();
    assert_eq!(rows, want);
    assert!(got.files[0].unread_numeric.is_empty());
}

/// fio's logs: every line a sample of its job's series, named by the file.
#[test]
fn fio_logs_give_one_sample_per_entry() {
    let registry = Registry::builtin();
    let got = ingest_one(&Path::new(HARNESS).join("fio/rr_bw.1.log"), &registry);
    let text = std::fs::read_to_string(Path::new(HARNESS).join("fio/rr_bw.1.log")).unwrap();
    let rows = got.dataset.to_observations();
    assert_eq!(rows.len(), text.lines().count());
    let first: f64 = text
        .lines()
        .next()
        .unwrap()
        .split(',')
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(rows[0].value, first);
    assert_eq!(
        (
            rows[0].benchmark.as_str(),
            rows[0].params.as_str(),
            rows[0].metric.as_str(),
            rows[0].unit.as_str()
        ),
        ("rr", "dir=read", "bandwidth", "KiB/s")
    );
    let got = ingest_one(&Path::new(HARNESS).join("fio/raw_lat.1.log"), &registry);
    let rows = got.dataset.to_observations();
    assert_eq!(rows.len(), 40);
    assert!(rows.iter().all(|o| o.metric == "latency" && o.unit == "ns"));
    // A randrw job logs both directions, each its own series.
    assert!(rows.iter().any(|o| o.params == "bs=4096,dir=read"));
    assert!(rows.iter().any(|o| o.params == "bs=4096,dir=write"));
    assert!(got.files[0].unread_numeric.is_empty());
}

/// oslat and cyclicdeadline, in text and JSON: named by their program.
#[test]
fn fio_histogram_logs_give_each_interval_s_percentiles_in_the_version_s_unit() {
    let rr = rows_with_runs("fio/rr_clat_hist.1.log");
    let at = |line: u32, metric: &str, unit: &str, v: f64, run: u32| {
        (line, metric.to_string(), unit.to_string(), v, Some(run))
    };
    // fio 3: 1856 buckets a line, in ns; the read and write lines of an
    // interval are two series.
    assert_eq!(
        rr[..6],
        [
            at(1, "clat p50", "ns", 76288.0, 0),
            at(1, "clat p90", "ns", 92672.0, 0),
            at(1, "clat p99", "ns", 236544.0, 0),
            at(1, "clat p99.9", "ns", 4685824.0, 0),
            at(1, "completions", "", 3691.0, 0),
            at(2, "clat p50", "ns", 2576.0, 0),
        ]
    );
    assert_eq!(rr[10], at(3, "clat p50", "ns", 77312.0, 1));
    assert_eq!(rr.len(), 6 * 5);
    // Coarseness 4: 116 buckets, each 16 of fio's.
    let co = rows_with_runs("fio/co_clat_hist.1.log");
    assert_eq!(co[0], at(1, "clat p50", "ns", 53248.0, 0));
    assert_eq!(co[4], at(1, "completions", "", 6494.0, 0));
    // fio 2: 1216 buckets, in µs.
    let pkb = rows_with_runs("fio/pkb_fio_avg_1506559526.49_clat_hist.1.log");
    assert_eq!(pkb[0], at(1, "clat p50", "us", 75.0, 0));
    assert_eq!(pkb[4], at(1, "completions", "", 8325.0, 0));
    let path = Path::new(HARNESS).join("fio/pkb_fio_avg_1506559526.49_clat_hist.1.log");
    let ing = ingest_one(&path, &Registry::builtin());
    assert!(ing
        .dataset
        .rows()
        .all(|o| o.benchmark == "pkb_fio_avg_1506559526.49" && o.params == "bs=16384,dir=read"));
}

#[test]
fn verbose_cyclictest_s_closing_summary_lines_are_not_a_second_run() {
    let registry = Registry::builtin();
    let got = ingest_one(
        Path::new("tests/data/harness/cyclictest/q-v-t2.txt"),
        &registry,
    );
    let rows = got.dataset.to_observations();
    // min, avg and max of each of two threads, from their wake-ups.
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert!(rows.iter().all(|o| o.run == Some(0)));
    let max0 = rows
        .iter()
        .find(|o| o.params == "thread=0" && o.metric == "latency max")
        .unwrap();
    assert_eq!(max0.value, 80.0);
    let report = &got.files[0];
    let left: Vec<u32> = report.skipped.iter().map(|(n, _)| *n).collect();
    assert_eq!(left, [173, 174], "{report:?}");
    assert!(report.unread_numeric.iter().all(|&n| n <= 3), "{report:?}");
}

#[test]
fn oslat_and_cyclicdeadline_are_named_by_their_program() {
    let registry = Registry::builtin();
    let rows = |name: &str| -> Vec<patchperf::model::Observation> {
        let got = ingest_one(&Path::new(HARNESS).join("rt-tests").join(name), &registry);
        assert!(
            got.files[0].unread_numeric.is_empty(),
            "{name}: {:?}",
            got.files[0].unread_numeric
        );
        got.dataset.to_observations()
    };
    let two = rows("oslat-c01.txt");
    let max = |rows: &[patchperf::model::Observation], p: &str| {
        rows.iter()
            .find(|o| o.metric == "latency max" && o.params == p)
            .map(|o| o.value)
    };
    // `     Maximum:	 3994 7679 (us)`
    assert_eq!(max(&two, "cpu=0"), Some(3994.0));
    assert_eq!(max(&two, "cpu=1"), Some(7679.0));
    assert!(two.iter().all(|o| o.benchmark == "oslat" && o.unit == "us"));
    let json = rows("oslat-json.json");
    assert_eq!(max(&json, "thread=0"), Some(9068.0));
    assert!(json.iter().all(|o| o.benchmark == "oslat"));
    // The live screen's last frame: `C:    300 … Max:    4230`.
    let live = rows("cyclicdeadline-live.txt");
    assert_eq!(max(&live, "thread=0"), Some(4230.0));
    assert!(live.iter().all(|o| o.benchmark == "cyclicdeadline"));
    let q = rows("cyclicdeadline-q-t2.txt");
    assert_eq!(max(&q, "thread=1"), Some(8504.0));
    assert_eq!(
        rows("cyclicdeadline-json.json")[0].benchmark,
        "cyclicdeadline"
    );
}

/// pyperf's slowest, check and show --metadata outputs: durations per
/// file, the check's figures, and the metadata accounted, not read.
#[test]
fn pyperf_slowest_check_and_metadata() {
    use patchperf::model::Stat;
    let registry = Registry::builtin();
    let rows = |name: &str| {
        let got = ingest_one(&Path::new(HARNESS).join("pyperf").join(name), &registry);
        assert!(
            got.files[0].unread_numeric.is_empty(),
            "{name}: {:?}",
            got.files[0]
        );
        (got.dataset.to_observations(), got.files[0].skipped.len())
    };
    let (slowest, _) = rows("slowest-two.txt");
    let d: Vec<(&str, f64)> = slowest
        .iter()
        .map(|o| (o.variant.as_str(), o.value))
        .collect();
    assert_eq!(d, [("timeit-base", 1.87), ("timeit-new", 2.14)]);
    assert!(slowest
        .iter()
        .all(|o| o.benchmark == "timeit" && o.unit == "s"));
    let (check, _) = rows("check.txt");
    let get = |s: Stat| {
        check
            .iter()
            .find(|o| o.stat == s)
            .map(|o| (o.value, o.unit.to_string()))
    };
    assert_eq!(get(Stat::Stddev), Some((48.0, "us".into())));
    assert_eq!(get(Stat::Mean), Some((16.0, "us".into())));
    assert_eq!(get(Stat::Max), Some((204.0, "us".into())));
    let (meta, skipped) = rows("show-metadata.txt");
    assert_eq!(meta.len(), 2, "{meta:#?}");
    assert!(skipped >= 20);
}

/// iperf3's `--timestamps` and `-T title` put a prefix before every line;
/// the summary under it is read as without one, and nothing else.
#[test]
fn iperf3_line_prefixes_are_read_past() {
    let registry = Registry::builtin();
    for (file, sender) in [
        ("iperf3/timestamps.txt", 14.1e9),
        ("iperf3/timestamps-epoch.txt", 15.1e9),
        ("iperf3/title-T-omit-O1.txt", 13.7e9),
    ] {
        let path = Path::new(HARNESS).join(file);
        let got = ingest_one(&path, &registry);
        // Interval lines are the run's time series; the summary follows.
        let metrics: Vec<(&str, f64)> = got
            .dataset
            .rows()
            .map(|o| (o.head.metric.as_str(), o.value))
            .filter(|(m, _)| !m.starts_with("interval ") && *m != "cwnd")
            .collect();
        assert_eq!(metrics.len(), 5, "{file}: {metrics:?}");
        assert_eq!(metrics[0], ("sender bitrate", sender), "{file}");
        assert!(
            got.files[0].unread_numeric.is_empty(),
            "{file}: {:?}",
            got.files[0].unread_numeric
        );
    }
}

/// `compare_to -v` names each benchmark only by the underlined title above
/// its line; `--table` ends with a geometric-mean row, a summary that is
/// accounted for, not read.
#[test]
fn compare_to_verbose_names_benchmarks_by_their_titles() {
    let registry = Registry::builtin();
    let got = ingest_one(
        &Path::new(HARNESS).join("pyperf/compare_to-v-suite3.txt"),
        &registry,
    );
    let mut names: Vec<&str> = got
        .dataset
        .rows()
        .map(|o| o.head.benchmark.as_str())
        .collect();
    names.dedup();
    assert_eq!(names, ["timeit", "sum", "sort2"]);
    for table in [
        "compare_to-table-suite3.txt",
        "compare_to-table-md-suite3.txt",
    ] {
        let got = ingest_one(&Path::new(HARNESS).join("pyperf").join(table), &registry);
        let report = &got.files[0];
        assert!(
            report.unread_numeric.is_empty(),
            "{table}: {:?}",
            report.unread_numeric
        );
        assert!(
            report
                .skipped
                .iter()
                .any(|(_, why)| why.starts_with("geometric mean")),
            "{table}: {:?}",
            report.skipped
        );
        assert_eq!(report.rows, 3, "{table}: sort2's two means and its change");
    }
}

/// `pyperformance compare`: the variants are the two files' titles, the
/// benchmarks the `### name ###` headings; `-O table` gives the change in a
/// column of its own. Run metadata and significance lines are accounted.
#[test]
fn pyperformance_compare_reads_both_files_of_each_benchmark() {
    let registry = Registry::builtin();
    for (file, stddev) in [
        ("compare-suite3.txt", true),
        ("compare-table-suite3.txt", false),
    ] {
        let got = ingest_one(
            &Path::new(HARNESS).join("pyperformance").join(file),
            &registry,
        );
        let report = &got.files[0];
        assert!(
            report.unread_numeric.is_empty(),
            "{file}: {:?}",
            report.unread_numeric
        );
        let find = |b: &str, v: &str, stat: &str| {
            got.dataset
                .rows()
                .find(|o| o.benchmark == b && o.variant == v && o.stat.name() == stat)
                .map(|o| (o.value, o.unit.to_string()))
        };
        assert_eq!(
            find("sort2", "A2", "mean"),
            Some((3.3, "us".into())),
            "{file}"
        );
        assert_eq!(
            find("sort2", "B2", "change_pct"),
            Some((295.0, "us".into())),
            "{file}"
        );
        assert_eq!(
            find("timeit", "B2", "change_pct").map(|c| c.0),
            Some(128.0),
            "{file}"
        );
        assert_eq!(find("sum", "A2", "stddev").is_some(), stddev, "{file}");
        assert_eq!(report.rows, if stddev { 15 } else { 9 }, "{file}");
    }
}

/// The value of each row of `path` as (metric, unit, value), in file order.
fn metric_values(path: &str) -> Vec<(String, String, f64)> {
    let ing = ingest_one(&Path::new(HARNESS).join(path), &Registry::builtin());
    ing.dataset
        .rows()
        .map(|o| (o.metric.to_string(), o.unit.to_string(), o.value))
        .collect()
}

#[test]
fn netperf_v0_gives_each_test_s_one_figure_named_as_its_table_names_it() {
    // `-v 0` prints the banner and a bare number: a rate for RR tests, the
    // throughput for streams; a shell loop of five is five runs.
    let rr = metric_values("netperf/tcp_rr-v0-loop5.txt");
    let rates: Vec<f64> = rr.iter().map(|r| r.2).collect();
    assert_eq!(rates, [20461.23, 15585.08, 17727.21, 15135.30, 16334.83]);
    assert!(rr
        .iter()
        .all(|r| r.0 == "transaction rate" && r.1 == "trans/s"));
    let stream = metric_values("netperf/tcp_stream-v0-msgsize-loop.txt");
    assert_eq!(stream[2], ("throughput".into(), "Mbit/s".into(), 18691.30));
    assert_eq!(
        metric_values("netperf/udp_rr-v0.txt"),
        [("transaction rate".into(), "trans/s".into(), 13829.25)]
    );
    // The full table of the same test names its figure the same way, so
    // a `-v 0` run compares with a default one.
    let full = metric_values("netperf/tcp_rr-default.txt");
    assert!(full
        .iter()
        .any(|r| r.0 == "transaction rate" && r.1 == "trans/s"));
}

#[test]
fn netperf_v2_tables_add_results_not_repeats_or_counts() {
    // TCP_RR -v 2 states the rate again in its second table: one run, not two.
    let rr = metric_values("netperf/tcp_rr-v2-loopback.txt");
    let rates: Vec<_> = rr.iter().filter(|r| r.0 == "transaction rate").collect();
    assert_eq!(rates.len(), 1, "{rr:?}");
    assert_eq!(rates[0].2, 12559.84);
    assert!(rr.contains(&("round-trip latency".into(), "us/trans".into(), 79.619)));
    assert!(rr.contains(&("throughput inbound".into(), "Mbit/s".into(), 0.1)));
    // TCP_STREAM -v 2: byte counts are no parameters (they differ every
    // run, and would keep runs of one test apart); the MSS is one.
    let path = Path::new(HARNESS).join("netperf/tcp_stream-v2-loopback.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let rows = ing.dataset.to_observations();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].value, 23937.69);
    assert!(!rows[0].params.contains("xfered"), "{}", rows[0].params);
    assert!(rows[0].params.contains("maximum_segment_size=65483"));
    assert_eq!(ing.files[0].skipped.len(), 1);
}

#[test]
fn dd_copies_are_runs_and_progress_reports_are_left_out() {
    let loop3 = metric_values("dd/gnu-loop3.txt");
    let times: Vec<f64> = loop3
        .iter()
        .filter(|r| r.0 == "time")
        .map(|r| r.2)
        .collect();
    assert_eq!(times, [0.0184282, 0.0196529, 0.0189936]);
    assert!(loop3.contains(&("throughput".into(), "GB/s".into(), 33.3)));
    let path = Path::new(HARNESS).join("dd/gnu-urandom-progress.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    assert_eq!(ing.dataset.len(), 2);
    assert_eq!(ing.dataset.to_observations()[0].value, 7.56467);
    assert_eq!(ing.files[0].skipped.len(), 1);
    let lmdd = metric_values("lmbench/lmdd-write-bs64k-loop3.txt");
    assert_eq!(lmdd[3], ("throughput".into(), "MB/s".into(), 3896.4677));
}

#[test]
fn wrk_runs_give_rates_latencies_and_errors_in_one_unit_each() {
    let lat = metric_values("wrk/latency-t2-c10.txt");
    assert!(lat.contains(&("requests/s".into(), "req/s".into(), 2521.63)));
    assert!(lat.contains(&("latency p99".into(), "ms".into(), 12.03)));
    assert!(lat.contains(&("thread requests/s avg".into(), "req/s".into(), 1270.0)));
    assert!(lat.contains(&("transfer/s".into(), "MiB/s".into(), 524.52 / 1024.0)));
    // The three runs of a loop over connections are three settings.
    let path = Path::new(HARNESS).join("wrk/loop-c1-c4-c16.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let rates: Vec<(String, f64)> = ing
        .dataset
        .rows()
        .filter(|o| o.metric == "requests/s")
        .map(|o| (o.params.to_string(), o.value))
        .collect();
    assert_eq!(rates.len(), 3);
    assert_eq!(rates[0].0, "connections=1,duration=2s,threads=1");
    assert_eq!(rates[0].1, 483.73);
    assert!(rates[2].0.contains("connections=16"));
    // A server answering 404 shows in the error counts.
    let errors = metric_values("wrk/non2xx-404.txt");
    assert!(errors.contains(&("non-2xx or 3xx responses".into(), "".into(), 1158.0)));
    assert!(errors.contains(&("socket errors read".into(), "".into(), 1158.0)));
    // wrk2: the HdrHistogram percentiles, the spectrum left out as a
    // histogram (the unit conversions are the unit test's).
    let path = Path::new(HARNESS).join("wrk/wrk2-hdrhistogram-errors.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let p = |name: &str| {
        ing.dataset
            .rows()
            .find(|o| o.metric == name)
            .map(|o| o.value)
    };
    assert_eq!(p("latency p50"), Some(53.31));
    assert_eq!(p("latency p100"), Some(244.22));
    assert_eq!(p("non-2xx or 3xx responses"), Some(14.0));
    assert!(ing.files[0].skipped.len() > 40);
    assert!(ing.files[0].unread_numeric.is_empty());
}

#[test]
fn iperf2_reports_give_the_whole_test_s_figures_in_one_unit() {
    // 21.6 Gbits/sec and 5.12 GBytes (powers of 1024 for bytes).
    let one = metric_values("iperf2/client-tcp-default.txt");
    assert_eq!(
        one,
        [
            ("bandwidth".into(), "Mbit/s".into(), 21600.0),
            ("transfer".into(), "MiB".into(), 5.12 * 1024.0),
        ]
    );
    // -i: each interval line is a sample of the time series, the 0-3 s
    // line is the test's.
    let path = Path::new(HARNESS).join("iperf2/client-tcp-i1.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let rows: Vec<(String, f64)> = ing
        .dataset
        .to_observations()
        .into_iter()
        .map(|o| (o.metric.to_string(), o.value))
        .collect();
    let bandwidths: Vec<&(String, f64)> =
        rows.iter().filter(|r| r.0.ends_with("bandwidth")).collect();
    assert_eq!(
        bandwidths,
        [
            &("interval bandwidth".into(), 12800.0),
            &("interval bandwidth".into(), 21900.0),
            &("interval bandwidth".into(), 24800.0),
            &("bandwidth".into(), 19800.0)
        ]
    );
    assert!(ing.files[0].skipped.is_empty());
    assert!(ing.files[0].unread_numeric.is_empty());
    // -P 2 -e: the [SUM] line, with the retries; streams left out.
    let p2 = metric_values("iperf2/client-tcp-P2-e.txt");
    assert!(p2.contains(&("bandwidth".into(), "Mbit/s".into(), 37100.0)));
    assert!(p2.contains(&("retries".into(), "".into(), 6.0)));
    // UDP: the server's report of each stream, no [SUM] over them.
    let udp = Path::new(HARNESS).join("iperf2/client-udp-P2.txt");
    let ing = ingest_one(&udp, &Registry::builtin());
    let loss: Vec<(String, f64)> = ing
        .dataset
        .rows()
        .filter(|o| o.metric == "loss")
        .map(|o| (o.params.to_string(), o.value))
        .collect();
    assert_eq!(loss, [("stream=1".into(), 0.35), ("stream=2".into(), 0.63)]);
    // -y C: bits/s and bytes, and without a total line the streams' sum.
    let csv = metric_values("iperf2/client-tcp-yC.txt");
    assert_eq!(csv[0], ("bandwidth".into(), "Mbit/s".into(), 22964.490084));
    let sum = metric_values("iperf2/client-tcp-P2-i1-yC.txt");
    assert_eq!(sum[0].2, (30933875378.0 + 19263588459.0) / 1e6);
}

#[test]
fn ab_reports_give_rates_times_failures_and_percentiles() {
    let run = metric_values("ab/default-n2000-c4.txt");
    for want in [
        ("requests/s", "req/s", 2244.07),
        ("time per request", "ms", 1.782),
        ("time per request across concurrency", "ms", 0.446),
        ("transfer rate", "KiB/s", 12598.77),
        ("processing sd", "ms", 1.3),
        ("served within p99", "ms", 5.0),
    ] {
        let want = (want.0.to_string(), want.1.to_string(), want.2);
        assert!(run.contains(&want), "{want:?} in {run:?}");
    }
    let failed = metric_values("ab/failed-length-varbody.txt");
    assert!(failed.contains(&("failed length".into(), "".into(), 497.0)));
    let html = metric_values("ab/w-html.txt");
    assert!(html.contains(&("requests/s".into(), "req/s".into(), 1811.43)));
    assert!(html.contains(&("transfer rate".into(), "KiB/s".into(), 10169.82)));
    // Three runs of a loop are three runs of one benchmark.
    let path = Path::new(HARNESS).join("ab/loop3.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let runs: Vec<Option<u32>> = ing
        .dataset
        .rows()
        .filter(|o| o.metric == "requests/s")
        .map(|o| o.run)
        .collect();
    assert_eq!(runs, [Some(0), Some(1), Some(2)]);
    assert!(ing.files[0].unread_numeric.is_empty());
}

#[test]
fn ab_percentile_csv_and_gnuplot_lines_name_what_the_text_report_names() {
    // One run wrote all three: the text, `-e` and `-g`.
    let text = metric_values("ab/n200-c2-e-g.txt");
    let csv = rows_with_runs("ab/n200-c2.csv");
    assert_eq!(csv.len(), 101);
    let at = |line: u32, metric: &str, value: f64| {
        (line, metric.to_string(), "ms".to_string(), value, Some(0))
    };
    assert_eq!(csv[0], at(2, "served within p0", 0.339));
    assert_eq!(csv[50], at(52, "served within p50", 3.269));
    assert_eq!(csv[100], at(102, "served within p100", 11.750));
    // The text rounds the same list to whole ms.
    assert!(text.contains(&("served within p100".into(), "ms".into(), 12.0)));
    let tsv = rows_with_runs("ab/n200-c2.tsv");
    assert_eq!(tsv.len(), 4 * 200);
    let req = |line: u32, run: u32, [c, d, t, w]: [f64; 4]| {
        ["connect", "processing", "total", "waiting"]
            .iter()
            .zip([c, d, t, w])
            .map(|(m, v)| (line, m.to_string(), "ms".to_string(), v, Some(run)))
            .collect::<Vec<_>>()
    };
    assert_eq!(tsv[..4], req(2, 0, [0.0, 0.0, 0.0, 0.0]));
    assert_eq!(tsv[796..], req(201, 199, [0.0, 12.0, 12.0, 12.0]));
    // Its totals average to what the text's table rounds to 3 ms.
    let totals: Vec<f64> = tsv.iter().filter(|r| r.1 == "total").map(|r| r.3).collect();
    let mean = totals.iter().sum::<f64>() / totals.len() as f64;
    assert_eq!(mean, 3.405);
    assert!(text.contains(&("total mean".into(), "ms".into(), 3.0)));
    let bad = Source::from_text(
        "g.tsv",
        "starttime\tseconds\tctime\tdtime\tttime\twait\nx\t1\t2\n",
    );
    let err = Registry::builtin()
        .formats()
        .find(|f| f.name() == "ab-gnuplot")
        .unwrap()
        .parse(&bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("g.tsv:2") && err.contains("found 3"), "{err}");
}

#[test]
fn openssl_speed_tables_and_machine_readable_lines_agree_on_names() {
    let text = metric_values("openssl-speed/aes-128-cbc.txt");
    assert_eq!(text.len(), 6);
    assert_eq!(text[0], ("throughput".into(), "kB/s".into(), 945896.84));
    let path = Path::new(HARNESS).join("openssl-speed/rsa2048-ecdsap256.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let names: std::collections::BTreeSet<String> = ing
        .dataset
        .rows()
        .map(|o| o.benchmark.to_string())
        .collect();
    let path = Path::new(HARNESS).join("openssl-speed/mr-rsa2048-ecdsap256.txt");
    let mr = ingest_one(&path, &Registry::builtin());
    let mr_names: std::collections::BTreeSet<String> =
        mr.dataset.rows().map(|o| o.benchmark.to_string()).collect();
    // Text and -mr runs of the same algorithms compare with each other.
    assert_eq!(names, mr_names);
    assert!(names.contains("openssl speed ecdsa 256 bits"));
    // -multi: the total after the children's shares, not the shares.
    let multi = metric_values("openssl-speed/multi2-mr-sha256.txt");
    assert_eq!(multi.len(), 6);
    assert_eq!(multi[0].2, 58907.5398);
}

#[test]
fn bonnie_result_lines_are_read_whether_alone_or_after_the_table() {
    // The default run prints the human table, then the CSV line; the
    // table restates it and is read past.
    let path = Path::new(HARNESS).join("bonnie++/default-s64-r32-n1.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    assert_eq!(ing.files[0].format.as_deref(), Some("bonnie++"));
    assert!(
        ing.files[0].unread_numeric.is_empty(),
        "{:?}",
        ing.files[0].unread_numeric
    );
    // A file of three result lines is three runs (two machines' sizes).
    let path = Path::new(HARNESS).join("bonnie++/three-runs.csv");
    let ing = ingest_one(&path, &Registry::builtin());
    let block: Vec<(String, f64)> = ing
        .dataset
        .rows()
        .filter(|o| o.metric == "seq output block")
        .map(|o| (o.params.to_string(), o.value))
        .collect();
    assert_eq!(
        block.last(),
        Some(&("concurrency=1,size=512M".to_string(), 1040561.0))
    );
}

#[test]
fn sockperf_reports_give_latency_figures_rates_and_counts() {
    let pp = metric_values("sockperf/pp-udp-t2.txt");
    for want in [
        ("latency avg", "us", 6.067),
        ("latency stdev", "us", 6.195),
        ("latency p99", "us", 8.818),
        ("latency p99.999", "us", 736.314),
        ("latency max", "us", 1578.801),
        ("dropped messages", "", 0.0),
    ] {
        let want = (want.0.to_string(), want.1.to_string(), want.2);
        assert!(pp.contains(&want), "{want:?}");
    }
    let tp = metric_values("sockperf/tp-udp-t2.txt");
    assert_eq!(tp[0], ("message rate".into(), "msg/s".into(), 129539.0));
    // 129539 messages of 14 bytes a second: 1.730 MiB (2^20 bytes), not MB.
    assert_eq!(tp[1], ("bandwidth".into(), "MiB/s".into(), 1.730));
    let log = metric_values("sockperf/pp-udp-fulllog.csv");
    assert_eq!(log[0], ("latency".into(), "us".into(), 23.716));
    // `--full-rtt` times round trips: never pooled with one-way latencies.
    let rtt = metric_values("sockperf/pp-udp-pps1000-fullrtt.txt");
    let us = |m: &str, v: f64| (m.to_string(), "us".to_string(), v);
    assert_eq!(rtt[..2], [us("rtt avg", 112.478), us("rtt stdev", 589.447)]);
    assert_eq!(rtt[5], us("rtt max", 4698.538));
    assert_eq!(rtt[12], us("rtt p50", 8.26));
    assert_eq!(rtt[14], us("rtt min", 3.693));
    assert!(!rtt.iter().any(|r| r.0.starts_with("latency")));
}

#[test]
fn nuttcp_summaries_in_every_form_and_fparse_is_no_command_line() {
    let plain = metric_values("nuttcp/tcp-T2.txt");
    assert_eq!(plain[0], ("rate".into(), "Mbit/s".into(), 23623.9169));
    assert!(plain.contains(&("rtt".into(), "ms".into(), 0.10)));
    // One line of key=number pairs is a result, not /proc/cmdline.
    let parse = metric_values("nuttcp/tcp-T2-fparse.txt");
    assert!(parse.contains(&("rate".into(), "Mbit/s".into(), 14997.6832)));
    let udp = metric_values("nuttcp/udp-T2-R100m.txt");
    assert!(udp.contains(&("loss".into(), "%".into(), 0.20)));
    let path = Path::new(HARNESS).join("nuttcp/udp-T2-R100m-i1.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    assert_eq!(ing.files[0].skipped.len(), 2);
}

#[test]
fn ioping_requests_statistics_and_raw_lines() {
    // Each request but the warm-up one, and the statistics, in us.
    let path = Path::new(HARNESS).join("ioping/c5-tmp.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let times: Vec<f64> = ing
        .dataset
        .rows()
        .filter(|o| o.metric == "request time")
        .map(|o| o.value)
        .collect();
    assert_eq!(times.len(), 4);
    assert_eq!(times[0], 847.8 * 1e3);
    assert_eq!(ing.files[0].skipped.len(), 2);
    let stats = metric_values("ioping/R-w2-tmp.txt");
    assert!(stats.contains(&("iops".into(), "ops/s".into(), 524.0)));
    assert!(stats.contains(&("latency avg".into(), "us".into(), 1910.0)));
    // -B: the sixth field is the average in ns.
    let raw = metric_values("ioping/B-c5-tmp.txt");
    assert!(raw.contains(&("latency avg".into(), "us".into(), 48109.51)));
    let write = Path::new(HARNESS).join("ioping/c5-W-write-tmp.txt");
    let ing = ingest_one(&write, &Registry::builtin());
    assert!(ing.dataset.rows().all(|o| o.benchmark == "ioping write"));
}

#[test]
fn cryptsetup_tables_kdf_lines_and_pastes_of_them() {
    let rows = |path: &str| {
        let ing = ingest_one(&Path::new(HARNESS).join(path), &Registry::builtin());
        let rows: Vec<(String, String, String, String, f64)> = ing
            .dataset
            .rows()
            .map(|o| {
                let names = (o.benchmark.to_string(), o.params.to_string());
                (
                    names.0,
                    names.1,
                    o.variant.to_string(),
                    o.metric.to_string(),
                    o.value,
                )
            })
            .collect();
        (rows, ing.files[0].skipped.len())
    };
    let (full, _) = rows("cryptsetup/v2-full-i7-8665u.txt");
    assert_eq!(full.len(), 5 + 2 * 2 + 12 * 2);
    let xts = ("cryptsetup aes-xts".to_string(), "key=512b".to_string());
    let enc = full
        .iter()
        .find(|r| (&r.0, &r.1) == (&xts.0, &xts.1))
        .unwrap();
    assert_eq!((enc.3.as_str(), enc.4), ("encryption", 3086.5));
    // Each machine's heading names its table's rows.
    let (machines, _) = rows("cryptsetup/three-machines.txt");
    assert_eq!(machines.len(), 72);
    let last = machines.last().unwrap();
    assert_eq!(
        (last.2.as_str(), last.3.as_str(), last.4),
        ("i7-6920HQ", "decryption", 357.8)
    );
    assert_eq!(machines.iter().filter(|r| r.2 == "N40L").count(), 24);
    // A paste commented out line by line reads as the plain output; the
    // shell's `time` line after it is the run's own timing.
    let (commented, _) = rows("cryptsetup/commented-out.txt");
    let ours = commented.iter().filter(|r| r.0.starts_with("cryptsetup "));
    assert_eq!(ours.count(), 5 + 12 * 2);
    assert!(commented.iter().any(|r| r.3 == "real" && r.4 == 28.571));
    // N/A cells are accounted, notes after a row are not cells.
    let (na, skipped) = rows("cryptsetup/some-ciphers-na.txt");
    assert_eq!((na.len(), skipped), (5 + 4 * 2, 8));
    let (noted, _) = rows("cryptsetup/annotated-rows-imx6ul.txt");
    let values: Vec<f64> = noted.iter().map(|r| r.4).collect();
    assert_eq!(values, [24.4, 23.6, 18.9, 18.8]);
}

#[test]
fn cyclictest_in_nanoseconds_when_its_command_line_says_so() {
    // `script` recorded the command with -N: the same lines are ns.
    let ns = metric_values("cyclictest/script-q-t2-N.txt");
    assert_eq!(ns[0], ("latency min".into(), "ns".into(), 63340.0));
    assert!(ns.iter().all(|r| r.1 == "ns"));
    // Without the command line they are the default microseconds.
    assert!(metric_values("cyclictest/q-t2.txt")
        .iter()
        .all(|r| r.1 == "us"));
}

#[test]
fn iperf3_bidirectional_byte_rates_and_udp_json_sides() {
    let bidir = metric_values("iperf3/tcp-bidir-t2.txt");
    let receivers: Vec<f64> = bidir
        .iter()
        .filter(|r| r.0 == "receiver bitrate")
        .map(|r| r.2)
        .collect();
    assert_eq!(receivers, [11.5e9, 10.8e9]);
    let bytes = metric_values("iperf3/tcp-O1-fM.txt");
    assert!(bytes.contains(&(
        "receiver bitrate".into(),
        "bit/s".into(),
        2057.0 * 8.0 * 1048576.0
    )));
    // -V: its context lines are read past, its CPU line read.
    let verbose = metric_values("iperf3/tcp-V-verbose.txt");
    let summary = |r: &&(String, String, f64)| !r.0.starts_with("interval ") && r.0 != "cwnd";
    assert_eq!(verbose.iter().filter(summary).count(), 7);
    assert!(verbose.contains(&("cpu remote".into(), "%".into(), 43.9)));
    let udp = metric_values("iperf3/udp-b100M-J.json");
    assert!(udp.contains(&("receiver bitrate".into(), "bit/s".into(), 99998636.1268402)));
    assert!(udp.contains(&("jitter".into(), "ms".into(), 0.00779422527678266)));
}

/// LKP's wrapper lines around hackbench (`Iterations: N`, `PATH=…`,
/// sysctls) give no rows: only the `Time:` samples are read.
#[test]
fn hackbench_in_lkp_logs_gives_only_its_times() {
    let times = metric_values("rt-tests/hackbench-lkp-8-iterations.txt");
    let want: Vec<(String, String, f64)> =
        [9.541, 10.018, 12.241, 9.950, 10.014, 10.497, 9.924, 9.998]
            .iter()
            .map(|v| ("time".into(), "s".into(), *v))
            .collect();
    assert_eq!(times, want);
    let two = metric_values("rt-tests/hackbench-lkp-2-instances.txt");
    assert_eq!(two.len(), 16);
    assert!(two.iter().all(|r| r.0 == "time" && r.1 == "s"));
}

#[test]
fn pgbench_rate_limited_runs_give_skipped_late_and_lag_figures() {
    let got = metric_values("pgbench/rate-latency-limit.txt");
    let f = |m: &str, u: &str, v: f64| (m.to_string(), u.to_string(), v);
    assert_eq!(
        got[1..5],
        [
            f("skipped transactions", "", 20.0),
            f("skipped transactions %", "%", 6.116),
            f("transactions above latency limit", "", 72.0),
            f("transactions above latency limit %", "%", 23.453),
        ]
    );
    assert_eq!(
        got[7..9],
        [
            f("schedule lag avg", "ms", 0.686),
            f("schedule lag max", "ms", 4.597)
        ]
    );
    let path = Path::new(HARNESS).join("pgbench/rate-latency-limit.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    // The limit is a setting of the whole run: every row has it.
    assert!(ing
        .dataset
        .rows()
        .all(|o| o.params.contains("latency_limit=5.0")));
    assert!(ing.files[0].unread_numeric.is_empty());
}

#[test]
fn pgbench_reconnecting_runs_and_progress_lines_alone() {
    let reconnect = metric_values("pgbench/S-C-reconnect.txt");
    assert!(reconnect.contains(&("tps".into(), "tps".into(), 296.793039)));
    assert!(reconnect.contains(&("connection time avg".into(), "ms".into(), 3.208)));
    let progress = metric_values("pgbench/progress-only-stderr.txt");
    assert_eq!(progress[0], ("progress tps".into(), "tps".into(), 7.0));
    assert!(progress.iter().all(|r| r.0.starts_with("progress ")));
}

#[test]
fn stress_ng_perf_counters_and_a_stressor_s_own_table() {
    let perf = metric_values("stress-ng/metrics-vm-flip-perf.txt");
    assert!(perf.contains(&("perf page faults total".into(), "".into(), 90210.0)));
    assert!(perf.contains(&("perf page faults total rate".into(), "/s".into(), 45003.0)));
    let path = Path::new(HARNESS).join("stress-ng/brief-cpu-matrix-hash.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let adler = ing
        .dataset
        .rows()
        .find(|o| o.params == "hash=adler32" && o.metric == "hashes/sec")
        .map(|o| (o.unit.to_string(), o.value));
    assert_eq!(adler, Some(("hashes/s".into(), 5419734.35)));
    // Nothing of either file is left out as a --times summary any more.
    assert!(
        ing.files[0].skipped.is_empty(),
        "{:?}",
        ing.files[0].skipped
    );
}

#[test]
fn fio_status_interval_gives_one_run_of_the_final_report() {
    let path = Path::new(HARNESS).join("fio/normal-status-interval.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let iops: Vec<(Option<u32>, f64)> = ing
        .dataset
        .rows()
        .filter(|o| o.metric == "iops")
        .map(|o| (o.run, o.value))
        .collect();
    assert_eq!(iops, [(Some(0), 8400.0)]);
    assert!(ing.files[0]
        .skipped
        .iter()
        .all(|(_, why)| why.contains("interim fio --status-interval report")));
}

#[test]
fn perf_stat_json_per_core_intervals_are_runs_of_each_core() {
    let path = Path::new(HARNESS).join("perf-stat/interval-per-core.json");
    let ing = ingest_one(&path, &Registry::builtin());
    let got: Vec<(String, Option<u32>, f64)> = ing
        .dataset
        .rows()
        .map(|o| (o.params.to_string(), o.run, o.value))
        .collect();
    let c0 = "core=S0-D0-C0".to_string();
    let c1 = "core=S0-D0-C1".to_string();
    assert_eq!(
        got,
        [
            (c0.clone(), Some(0), 403.743884),
            (c1.clone(), Some(0), 403.841259),
            (c0.clone(), Some(1), 400.831657),
            (c1.clone(), Some(1), 400.750326),
            (c0, Some(2), 99.433414),
            (c1, Some(2), 99.443085),
        ]
    );
}

/// Rows of `path` as (line, metric, unit, value, run), in file order.
fn rows_with_runs(path: &str) -> Vec<(u32, String, String, f64, Option<u32>)> {
    let ing = ingest_one(&Path::new(HARNESS).join(path), &Registry::builtin());
    ing.dataset
        .rows()
        .map(|o| {
            let f = (o.metric.to_string(), o.unit.to_string());
            (o.line, f.0, f.1, o.value, o.run)
        })
        .collect()
}

#[test]
fn sysbench_intervals_are_a_series_beside_the_run_s_totals() {
    let got = rows_with_runs("sysbench/oltp-rw-rate-interval.txt");
    let row = |line: u32, metric: &str, unit: &str, value: f64, run: u32| {
        (line, metric.to_string(), unit.to_string(), value, Some(run))
    };
    // `[ 2s ] thds: 2 tps: 303.10 qps: 6078.91 (r/w/o:
    // 4257.34/1208.38/613.19) lat (ms,95%): 25.74 err/s: 2.00 reconn/s:
    // 0.00` then `[ 2s ] queue length: 0, concurrency: 1`: the second
    // interval, run 1 of each series.
    assert_eq!(
        got[10..20],
        [
            row(16, "interval tps", "tps", 303.10, 1),
            row(16, "interval qps", "qps", 6078.91, 1),
            row(16, "interval read qps", "qps", 4257.34, 1),
            row(16, "interval write qps", "qps", 1208.38, 1),
            row(16, "interval other qps", "qps", 613.19, 1),
            row(16, "interval latency p95", "ms", 25.74, 1),
            row(16, "interval ignored errors/s", "/s", 2.0, 1),
            row(16, "interval reconnects/s", "/s", 0.0, 1),
            row(17, "interval queue length", "", 0.0, 1),
            row(17, "interval concurrency", "", 1.0, 1),
        ]
    );
    assert_eq!(got.iter().filter(|r| r.1 == "interval tps").count(), 3);
    // The summary: query counts, then rates with the error and reconnect
    // counts beside theirs.
    assert_eq!(
        got[30..39],
        [
            row(22, "read queries", "", 12544.0, 0),
            row(23, "write queries", "", 3559.0, 0),
            row(24, "other queries", "", 1805.0, 0),
            row(26, "tps", "tps", 295.23, 0),
            row(27, "qps", "qps", 5940.46, 0),
            row(28, "ignored errors", "", 6.0, 0),
            row(28, "ignored errors/s", "/s", 1.99, 0),
            row(29, "reconnects", "", 0.0, 0),
            row(29, "reconnects/s", "/s", 0.0, 0),
        ]
    );
    let ing = ingest_one(
        &Path::new(HARNESS).join("sysbench/oltp-rw-rate-interval.txt"),
        &Registry::builtin(),
    );
    assert!(ing
        .dataset
        .rows()
        .all(|o| o.params == "rate=300,threads=2" && o.benchmark == "sysbench oltp"));
    assert!(ing.files[0].unread_numeric.is_empty());
}

#[test]
fn sysbench_histogram_buckets_are_accounted_not_read() {
    let path = Path::new(HARNESS).join("sysbench/oltp-ro-pgsql-interval-hist.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let report = &ing.files[0];
    assert!(
        report.unread_numeric.is_empty(),
        "{:?}",
        report.unread_numeric
    );
    // Lines 17-139 are the buckets under the histogram's title and header.
    let buckets: Vec<u32> = report
        .skipped
        .iter()
        .filter(|(_, why)| why.starts_with("a --histogram bucket"))
        .map(|(l, _)| *l)
        .collect();
    assert_eq!(buckets, (17..=139).collect::<Vec<u32>>());
    let got = rows_with_runs("sysbench/oltp-ro-pgsql-interval-hist.txt");
    let find = |metric: &str| {
        got.iter()
            .filter(|r| r.1 == metric)
            .map(|r| (r.3, r.4))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        find("interval tps"),
        [(776.22, Some(0)), (1019.21, Some(1))]
    );
    assert_eq!(
        find("interval latency p95"),
        [(2.39, Some(0)), (1.96, Some(1))]
    );
    assert_eq!(find("interval write qps"), [(0.0, Some(0)), (0.0, Some(1))]);
    assert_eq!(find("read queries"), [(25158.0, Some(0))]);
    assert_eq!(find("tps"), [(895.43, Some(0))]);
}

#[test]
fn pytest_benchmark_rounds_are_samples_beside_the_stated_statistics() {
    let path = Path::new(HARNESS).join("pytest-benchmark/pytest-benchmark-5.json");
    let ing = ingest_one(&path, &Registry::builtin());
    let rows = ing.dataset.to_observations();
    let of = |params: &str, stat: patchperf::model::Stat| {
        rows.iter()
            .filter(|o| o.benchmark == "test_sorts.py::test_sum_range" && o.params == params)
            .filter(|o| o.stat == stat)
            .map(|o| (o.unit.to_string(), o.value, o.run))
            .collect::<Vec<_>>()
    };
    use patchperf::model::Stat;
    let s = |v: f64| ("s".to_string(), v, None);
    // `"params": {"n": 10}`, 6 rounds of 100 iterations.
    assert_eq!(of("n=10", Stat::Mean), [s(1.1549333976290655e-07)]);
    assert_eq!(
        of("n=10", Stat::percentile(75.0)),
        [s(1.1617001291597262e-07)]
    );
    assert_eq!(of("n=10", Stat::N), [s(6.0)]);
    let samples = of("n=100", Stat::Sample);
    assert_eq!(samples.len(), 10);
    assert_eq!(samples[9].2, Some(9));
    // Four tests; extra_info (`items`) and options are no measurement.
    let benches: std::collections::BTreeSet<(&str, &str)> = rows
        .iter()
        .map(|o| (o.benchmark.as_str(), o.params.as_str()))
        .collect();
    assert_eq!(benches.len(), 4);
    assert!(rows.iter().all(|o| o.metric == "time"));
    assert_eq!(rows.len(), 9 + 6 + 10 + 8 + 4 * 8);
    // pytest-benchmark 2.5's file: the parametrisation only in the name.
    let old = ingest_one(
        &Path::new(HARNESS).join(
            "pytest-benchmark/0001_b87b9aae14ff14a7887a6bbaa9731b9a8760555d_20150814_190343_uncommitted-changes.json",
        ),
        &Registry::builtin(),
    );
    let mean: Vec<(&str, &str, f64)> = old
        .dataset
        .rows()
        .filter(|o| o.stat == Stat::Mean)
        .map(|o| (o.head.benchmark.as_str(), o.head.params.as_str(), o.value))
        .collect();
    assert_eq!(
        mean,
        [(
            "tests/test_normal.py::test_xfast_parametrized",
            "param=0",
            2.622408132654948e-07
        )]
    );
}

#[test]
fn rt_ipc_json_names_each_pair_as_its_text_report_does() {
    let row = |params: &str, metric: &str, unit: &str, v: f64| {
        (params.to_string(), metric.to_string(), unit.to_string(), v)
    };
    let read = |path: &str| {
        let ing = ingest_one(&Path::new(HARNESS).join(path), &Registry::builtin());
        ing.dataset
            .rows()
            .map(|o| {
                (
                    o.params.to_string(),
                    o.metric.to_string(),
                    o.unit.to_string(),
                    o.value,
                )
            })
            .collect::<Vec<_>>()
    };
    // `#1 -> #0, Min 1, Cur 59, Avg 3, Max 92` is thread "0" of the JSON,
    // whose average is unrounded.
    let json = read("rt-tests/ptsematest-S.json");
    let text = read("rt-tests/ptsematest-S-json-run.txt");
    assert_eq!(
        json,
        [
            row("pair=0", "latency min", "us", 1.0),
            row("pair=0", "latency avg", "us", 2.91),
            row("pair=0", "latency max", "us", 92.0),
            row("pair=2", "latency min", "us", 1.0),
            row("pair=2", "latency avg", "us", 1.48),
            row("pair=2", "latency max", "us", 4.0),
        ]
    );
    let keys = |rows: &[(String, String, String, f64)]| {
        rows.iter()
            .map(|r| (r.0.clone(), r.1.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&json), keys(&text));
    let pmq = read("rt-tests/pmqtest-t2.json");
    assert_eq!(pmq[3], row("pair=0", "timeouts", "", 0.0));
    assert_eq!(pmq[5], row("pair=2", "latency avg", "us", 2.27));
    let sv = read("rt-tests/svsematest-S.json");
    assert_eq!(
        sv[1..3],
        [
            row("pair=0", "latency avg", "us", 17.31),
            row("pair=0", "latency max", "us", 1575.0)
        ]
    );
    let path = Path::new(HARNESS).join("rt-tests/sigwaittest.json");
    let ing = ingest_one(&path, &Registry::builtin());
    assert!(ing.dataset.rows().all(|o| o.benchmark == "sigwaittest"));
    assert_eq!(ing.dataset.len(), 3);
}

#[test]
fn phoronix_console_results_are_runs_under_their_options_and_scale() {
    use patchperf::model::Stat;
    let ing = pts("lkp-pts-8.log");
    let rows = ing.dataset.to_observations();
    // Eight models, each three runs, then average, minimum, maximum and
    // the relative deviation; the menu and system lines give nothing.
    assert_eq!(rows.len(), 8 * 7);
    let nasnet: Vec<(Stat, f64)> = rows
        .iter()
        .filter(|o| o.params == "model=nasnet")
        .map(|o| (o.stat, o.value))
        .collect();
    assert_eq!(
        nasnet,
        [
            (Stat::Sample, 19.731),
            (Stat::Sample, 19.498),
            (Stat::Sample, 19.799),
            (Stat::Mean, 19.676),
            (Stat::Min, 19.02),
            (Stat::Max, 24.72),
            (Stat::Cv, 0.8),
        ]
    );
    assert!(rows
        .iter()
        .all(|o| o.benchmark == "Mobile Neural Network 2.1" && o.metric == "result"));
    assert!(rows
        .iter()
        .filter(|o| o.stat != Stat::Cv)
        .all(|o| o.unit == "ms"));

    // Colour codes around values; a second result of the same test in
    // another scale is its own metric; `Samples: 9` is the count.
    let ing = pts("lkp-pts-2.log");
    let rows = ing.dataset.to_observations();
    let first: Vec<f64> = rows
        .iter()
        .filter(|o| {
            o.params == "resolution=800 x 600,test=Many Spheres"
                && o.metric == "result"
                && o.stat == Stat::Sample
        })
        .map(|o| o.value)
        .collect();
    assert_eq!(
        first,
        [0.07, 0.07, 0.06, 0.06, 0.07, 0.07, 0.07, 0.07, 0.07]
    );
    assert!(rows
        .iter()
        .any(|o| o.metric == "MiPolys / Sec" && o.unit == "MiPolys / Sec"));
    assert!(rows.iter().any(|o| o.stat == Stat::N && o.value == 9.0));

    // A setting whose value holds a dash stays one setting.
    let ing = pts("lkp-pts-10.log");
    let means: Vec<(String, f64)> = ing
        .dataset
        .to_observations()
        .into_iter()
        .filter(|o| o.stat == Stat::Mean)
        .map(|o| (o.params.to_string(), o.value))
        .collect();
    assert_eq!(
        means[0],
        (
            "test=Peak Injection Bandwidth - All Reads".to_string(),
            78168.7
        )
    );
    assert_eq!(means.len(), 5);
}

#[test]
fn phoronix_console_pass_fail_tests_hold_no_values_and_say_why() {
    for (file, outcome) in [
        ("lkp-pts-4.log", "Overall-Health"),
        ("lkp-pts-7.log", "PASS"),
    ] {
        let ing = pts(file);
        assert!(ing.dataset.is_empty(), "{file}");
        let report = &ing.files[0];
        assert_eq!(report.format.as_deref(), Some("phoronix-console"), "{file}");
        assert!(
            report.skipped.iter().any(|(_, why)| why.contains(outcome)),
            "{file}: {:?}",
            report.skipped
        );
        assert!(
            report.unread_numeric.is_empty(),
            "{file}: {:?}",
            report.unread_numeric
        );
    }
}

/// An LKP-kept Phoronix console log of tests/data/harness/phoronix.
fn pts(name: &str) -> patchperf::ingest::Ingested {
    let path = Path::new(HARNESS).join("phoronix").join(name);
    ingest_one(&path, &Registry::builtin())
}

#[test]
fn fs_mark_gives_each_loop_s_rate_and_its_stated_summary() {
    let ing = ingest_one(
        &Path::new(HARNESS).join("fsmark/lkp-1-32-threads-8k.txt"),
        &Registry::builtin(),
    );
    let rows: Vec<_> = ing
        .dataset
        .rows()
        .map(|o| {
            (
                o.metric.to_string(),
                o.unit.to_string(),
                o.stat.to_string(),
                o.value,
                o.run,
            )
        })
        .collect();
    let r = |m: &str, u: &str, s: &str, v: f64, run: Option<u32>| {
        (m.to_string(), u.to_string(), s.to_string(), v, run)
    };
    assert_eq!(
        rows,
        [
            r("files", "files/s", "sample", 8324.8, Some(0)),
            r("app overhead", "us", "sample", 390190.0, Some(0)),
            r("files", "files/s", "mean", 8324.0, None),
            r("files", "files/s", "median", 8324.0, None),
            r("files", "files/s", "p10", 8324.0, None),
            r("files", "files/s", "p1", 8324.0, None),
        ]
    );
    assert!(ing.dataset.rows().all(|o| o.benchmark == "fs_mark"
        && o.params == "file_size=8192,files=1600,sync=1,threads=32,write_size=16384"));
    // LKP's timestamped command line is its own, not a value.
    assert_eq!(ing.files[0].skipped.len(), 1);
    assert!(ing.files[0].unread_numeric.is_empty());

    // A banner whose echoed program name is mangled still gives its settings.
    let ing = ingest_one(
        &Path::new(HARNESS).join("fsmark/lkp-2-13-threads-4m.txt"),
        &Registry::builtin(),
    );
    let first = ing.dataset.rows().next().unwrap();
    assert_eq!(
        (first.metric.as_str(), first.value, first.params.as_str()),
        (
            "files",
            337.6,
            "file_size=4194304,files=240,sync=1,threads=13,write_size=16384"
        )
    );
    assert_eq!(ing.dataset.rows().count(), 6);
}

/// (benchmark, params, metric, unit, value, run) of a harness file's rows.
fn named_rows(path: &str) -> Vec<(String, String, String, String, f64, Option<u32>)> {
    let ing = ingest_one(&Path::new(HARNESS).join(path), &Registry::builtin());
    ing.dataset
        .rows()
        .map(|o| {
            (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.metric.to_string(),
                o.unit.to_string(),
                o.value,
                o.run,
            )
        })
        .collect()
}

#[test]
fn vm_scalability_gives_each_run_of_a_case_its_summed_throughput() {
    // Eight runs of one truncating process: each run's rate is its bytes
    // in KiB over the span of its two epoch timestamps, to the nanosecond.
    let rows = named_rows("vm-scalability/lkp-1-truncate-8-runs.txt");
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r.0 == "case-truncate"
        && r.1 == "processes=1"
        && r.2 == "throughput"
        && r.3 == "KB/s"));
    assert_eq!(rows[0].4, 65844720.0 / 0.005966290);
    assert_eq!(rows[7].5, Some(7));

    // One run of 32 usemem processes is one throughput, their sum (LKP's
    // own figure), and each process's time to free its memory.
    let rows = named_rows("vm-scalability/lkp-2-swapin-32-processes.txt");
    let throughput: Vec<_> = rows.iter().filter(|r| r.2 == "throughput").collect();
    assert_eq!(throughput.len(), 1);
    assert_eq!(
        (throughput[0].1.as_str(), throughput[0].4),
        ("processes=32", 467497.0)
    );
    let free: Vec<f64> = rows
        .iter()
        .filter(|r| r.2 == "free time" && r.3 == "us")
        .map(|r| r.4)
        .collect();
    assert_eq!(free.len(), 32);
    assert_eq!((free[0], free[31]), (11880398.0, 24010958.0));

    // The faulting and the truncating of each run are two metrics.
    let rows = named_rows("vm-scalability/lkp-3-truncate-seq-faulted.txt");
    let fault: Vec<_> = rows.iter().filter(|r| r.2 == "fault throughput").collect();
    assert_eq!(fault.len(), 4);
    assert_eq!(fault[0].4, 16393024.0 / 2.880465878);
    assert_eq!(rows.iter().filter(|r| r.2 == "throughput").count(), 4);
}

#[test]
fn stream_tables_are_runs_of_each_kernel() {
    let path = Path::new(HARNESS).join("stream/lkp-01-ten-iterations.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let rows = ing.dataset.to_observations();
    // Ten tables of four kernels, four figures each; the banners give
    // nothing.
    assert_eq!(rows.len(), 10 * 4 * 4);
    let copy: Vec<(f64, Option<u32>)> = rows
        .iter()
        .filter(|o| o.metric == "bandwidth" && o.params == "array_size=10000000,function=copy")
        .map(|o| (o.value, o.run))
        .collect();
    assert_eq!(copy.len(), 10);
    assert_eq!(copy[0], (25956.9, Some(0)));
    assert_eq!(copy[9], (31496.2, Some(9)));
    let triad_max = rows
        .iter()
        .find(|o| o.metric == "max time" && o.params.ends_with("function=triad"))
        .unwrap();
    assert_eq!((triad_max.value, triad_max.unit.as_str()), (0.008684, "s"));
    // LKP's `Iteration: N` lines count the loop's runs: no frame of
    // STREAM's, listed as not read.
    let unread = &ing.files[0].unread_numeric;
    assert_eq!(unread.len(), 10, "{unread:?}");
    assert!(unread.iter().all(|&l| {
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text.lines().nth(l as usize - 1).unwrap();
        line.starts_with("Iteration: ")
    }));
}

#[test]
fn netperf_instances_under_lkp_commands_are_runs_of_one_test() {
    let path = Path::new(HARNESS).join("netperf/lkp-udp-stream-16-instances.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let rows = ing.dataset.to_observations();
    // The logged `wait` above the first banner names no variant, and
    // `CPU Util` is `cpu util`, once.
    assert!(rows.iter().all(|o| o.variant.is_empty()), "{:?}", rows[0]);
    let throughput: Vec<(f64, Option<u32>)> = rows
        .iter()
        .filter(|o| o.metric == "throughput")
        .map(|o| (o.value, o.run))
        .collect();
    assert_eq!(throughput.len(), 16);
    assert_eq!(throughput[0], (63577.2, Some(0)));
    assert_eq!(throughput[15].1, Some(15));
    assert!(rows
        .iter()
        .any(|o| o.metric == "cpu util" && o.value == 24.11));
    assert!(!rows.iter().any(|o| o.metric.contains("util util")));
    // LKP's sixteen logged commands and its `wait` are left out with the
    // reason, not left unread.
    let report = &ing.files[0];
    assert!(
        report.unread_numeric.is_empty(),
        "{:?}",
        report.unread_numeric
    );
    assert_eq!(report.skipped.len(), 17);
}

#[test]
fn schbench_instances_in_an_lkp_log_are_two_runs_without_heading_variants() {
    // Two concurrent instances of one command under LKP's wrapper lines:
    // each instance is one run of the same measurements, the `min=…,
    // max=…` lines included (`max=20` is a value, not an encoded space),
    // and no line of the log (`warmup done, zeroing stats`, a timestamped
    // command) names a variant.
    let path = Path::new(HARNESS).join("schbench/lkp-multi-instance.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let rows = ing.dataset.to_observations();
    assert!(
        rows.iter()
            .all(|o| o.variant.is_empty() && o.benchmark == "schbench"),
        "{rows:?}"
    );
    let of = |metric: &str| -> Vec<(f64, Option<u32>)> {
        rows.iter()
            .filter(|o| o.metric == metric)
            .map(|o| (o.value, o.run))
            .collect()
    };
    assert_eq!(of("wakeup latency p99"), [(9.0, Some(0)), (90.0, Some(1))]);
    assert_eq!(
        of("wakeup latency max"),
        [(20.0, Some(0)), (200.0, Some(1))]
    );
    assert_eq!(
        of("request latency p99.9"),
        [(9500.0, Some(0)), (95000.0, Some(1))]
    );
    assert_eq!(
        of("request latency min"),
        [(5000.0, Some(0)), (50000.0, Some(1))]
    );
    assert_eq!(of("rps"), [(16000.0, Some(0)), (1600.0, Some(1))]);
    // Per instance: four percentiles, min and max of two blocks, the rate.
    assert_eq!(rows.len(), 26);
    let report = &ing.files[0];
    assert!(
        report.unread_numeric.is_empty(),
        "{:?}",
        report.unread_numeric
    );
    assert_eq!(report.skipped.len(), 10);
}

#[test]
fn kernel_test_modules_give_their_console_results() {
    // refscale: the `Runs` table after thirty experiments, one row split
    // off by a console stamp, each row one run's nanoseconds per reader.
    let rows = named_rows("rcutorture/lkp-refscale-rcu-44-readers.txt");
    assert_eq!(rows.len(), 30);
    assert!(rows.iter().all(|r| r.0 == "refscale"
        && r.1 == "loops=10000,nreaders=44,readdelay=0,type=rcu"
        && r.2 == "reader duration"
        && r.3 == "ns"));
    assert_eq!((rows[0].4, rows[0].5), (3.299, Some(0)));
    assert_eq!((rows[11].4, rows[11].5), (4.871, Some(11)));
    assert_eq!((rows[29].4, rows[29].5), (6.335, Some(29)));
    let ing = ingest_one(
        &Path::new(HARNESS).join("rcutorture/lkp-refscale-rcu-44-readers.txt"),
        &Registry::builtin(),
    );
    assert!(ing.files[0].unread_numeric.is_empty());

    // rcuscale: the writers' span, grace periods and batches of one run.
    let rows = named_rows("rcutorture/lkp-rcuscale-rcu.txt");
    let got: Vec<(&str, &str, &str, f64)> = rows
        .iter()
        .map(|r| (r.1.as_str(), r.2.as_str(), r.3.as_str(), r.4))
        .collect();
    let p = "nreaders=2,nwriters=2,type=rcu";
    assert_eq!(
        got,
        [
            (p, "duration", "ns", 418947875.0),
            (p, "grace periods", "", 201.0),
            (p, "batches", "", 207.0),
        ]
    );
    let rows = named_rows("rcutorture/lkp-rcuscale-tasks.txt");
    assert_eq!(rows[0].1, "nreaders=2,nwriters=2,type=tasks");
    assert_eq!(rows[0].4, 41996296042.0);

    // rcutorture and locktorture without statistics: their outcome is the
    // answer, not a value.
    for (file, outcome) in [
        ("rcutorture/lkp-rcutorture-hotplug.txt", "`RCU_HOTPLUG`"),
        ("rcutorture/lkp-locktorture-spin-lock.txt", "`SUCCESS`"),
    ] {
        let err = ingest(
            &[Path::new(HARNESS).join(file)],
            &Registry::builtin(),
            &IngestOptions::default(),
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(
            err.contains(outcome) && err.contains("does not measure"),
            "{err}"
        );
    }
}

#[test]
fn memtier_tables_give_runs_and_the_aggregated_average() {
    // Four concurrent instances under LKP: each `ALL STATS` table is a run.
    let rows = named_rows("memtier/lkp-4-instances.txt");
    let totals = "connections=3,op=totals,requests=65000000,threads=1";
    let ops: Vec<(f64, Option<u32>)> = rows
        .iter()
        .filter(|r| r.1 == totals && r.2 == "ops")
        .map(|r| (r.4, r.5))
        .collect();
    assert_eq!(
        ops,
        [
            (108297.80, Some(0)),
            (108629.17, Some(1)),
            (106741.35, Some(2)),
            (109655.58, Some(3))
        ]
    );
    assert!(rows
        .iter()
        .any(|r| r.1 == totals && r.2 == "latency p99.9" && r.3 == "ms" && r.4 == 4.319));
    assert!(rows.iter().any(|r| r.1.contains("op=sets")
        && r.2 == "throughput"
        && r.3 == "KB/s"
        && r.4 == 22716.77));
    // Sets, Gets and Totals of four tables; no `Waits` row, no CDF point.
    assert_eq!(rows.iter().filter(|r| r.2 == "ops").count(), 12);

    // `-x 10`: the aggregated average is a mean of ten runs; the best and
    // worst runs are accounted, not read.
    let path = Path::new(HARNESS).join("memtier/x10-best-worst-average.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    let obs = ing.dataset.to_observations();
    let gets_p99: Vec<(String, f64)> = obs
        .iter()
        .filter(|o| o.params.contains("op=gets") && o.metric == "latency p99")
        .map(|o| (o.stat.to_string(), o.value))
        .collect();
    assert_eq!(
        gets_p99,
        [("mean".to_string(), 47.359), ("n".to_string(), 10.0)]
    );
    assert!(obs.iter().all(|o| o.line >= 57));
}

#[test]
fn netpipe_gives_each_message_size_its_rate_and_time() {
    // NPtcp 3.7 run here: 82 sizes from 1 byte to 65539, in Mbps and usec.
    let rows = named_rows("netpipe/NPtcp-h-localhost-u65536.txt");
    assert_eq!(rows.len(), 2 * 82);
    assert_eq!(
        (
            rows[0].1.as_str(),
            rows[0].2.as_str(),
            rows[0].3.as_str(),
            rows[0].4
        ),
        ("size=1B", "throughput", "Mbps", 1.82)
    );
    let last = &rows[rows.len() - 1];
    assert_eq!(
        (last.1.as_str(), last.2.as_str(), last.3.as_str(), last.4),
        ("size=65539B", "latency", "us", 11.50)
    );
    // LKP's NPtcp log: its command line is accounted.
    let path = Path::new(HARNESS).join("netpipe/lkp-NPtcp-n1000.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    assert!(ing.files[0].unread_numeric.is_empty());
    let rows = named_rows("netpipe/lkp-NPtcp-n1000.txt");
    assert!(rows
        .iter()
        .any(|r| r.1 == "size=6291456B" && r.2 == "throughput" && r.4 == 44919.13));
    // NetPIPE 5 (NPmpi, colour codes): scaled sizes keep their point's
    // number, units as written, and the closing line has no size.
    let rows = named_rows("netpipe/lkp-NPmpi-repeats1000-color.txt");
    assert!(rows.iter().any(|r| r.1 == "point=123,size=8.389MB"
        && r.2 == "latency"
        && r.3 == "us"
        && r.4 == 982.072));
    assert!(rows
        .iter()
        .any(|r| r.1.is_empty() && r.2 == "max throughput" && r.3 == "Gbps" && r.4 == 311.403));
    assert!(rows.iter().all(|r| r.5 == Some(0)));
}

#[test]
fn coremark_reports_give_score_and_time() {
    let rows = named_rows("coremark/validation-seeds-auto-iterations.txt");
    let got: Vec<(&str, &str, &str, f64)> = rows
        .iter()
        .map(|r| (r.1.as_str(), r.2.as_str(), r.3.as_str(), r.4))
        .collect();
    let p = "iterations=300000,size=666";
    assert_eq!(
        got,
        [
            (p, "score", "iterations/s", 16643.550624),
            (p, "time", "s", 18.025)
        ]
    );
    let rows = named_rows("coremark/lkp-fork4.txt");
    assert_eq!(rows[0].1, "iterations=240000,parallel=4,size=666");
    assert_eq!(rows[0].4, 12173.471976);
    let path = Path::new(HARNESS).join("coremark/lkp-fork4.txt");
    assert!(ingest_one(&path, &Registry::builtin()).files[0]
        .unread_numeric
        .is_empty());
    // A run whose CRCs failed is refused at its verdict, and no other
    // reader takes its figures.
    let err = ingest(
        &[Path::new(HARNESS).join("coremark/fork2-errors-detected.txt")],
        &Registry::builtin(),
        &IngestOptions::default(),
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(
        err.contains("fork2-errors-detected.txt:22") && err.contains("Errors detected"),
        "{err}"
    );
}

#[test]
fn netperf_sctp_banners_name_the_test_and_cpu_columns_their_side() {
    // 64 SCTP_STREAM_MANY instances with -c -C: the banner's hyphenated
    // words are the test, and `Utilization`/`Service Demand` head both
    // their local and remote columns.
    let rows = named_rows("netperf/lkp-sctp-stream-many-64-instances.txt");
    assert!(rows.iter().all(|r| r.0 == "SCTP_STREAM_MANY"
        && r.1 == "recv_socket_size=212992,send_message_size=10240,send_socket_size=212992"));
    let mut metrics: Vec<&str> = rows.iter().map(|r| r.2.as_str()).collect();
    metrics.sort_unstable();
    metrics.dedup();
    assert_eq!(
        metrics,
        [
            "service demand recv remote",
            "service demand send local",
            "throughput",
            "utilization recv remote",
            "utilization send local"
        ]
    );
    let throughput: Vec<(f64, Option<u32>)> = rows
        .iter()
        .filter(|r| r.2 == "throughput")
        .map(|r| (r.4, r.5))
        .collect();
    assert_eq!(throughput.len(), 64);
    assert_eq!(throughput[0], (7572.02, Some(0)));
    assert_eq!(throughput[63].1, Some(63));
}

#[test]
fn criterion_tukey_fences_are_accounted_not_read() {
    // Four outlier fences are no timings: the file is Criterion's, its one
    // line left out with the reason, and no row is made of it.
    let path = Path::new(HARNESS).join("criterion/sum_100k/new/tukey.json");
    let ing = ingest_one(&path, &Registry::builtin());
    assert!(ing.dataset.is_empty());
    let report = &ing.files[0];
    assert_eq!(report.format.as_deref(), Some("criterion-file"));
    assert!(report.unread_numeric.is_empty());
    assert_eq!(report.skipped.len(), 1);
    assert!(report.skipped[0].1.starts_with("Criterion's Tukey fences"));
}

#[test]
fn tinymembench_gives_bandwidths_and_both_latency_tables() {
    let path = Path::new(HARNESS).join("tinymembench/lkp-x86-v0.4.9.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    assert!(ing.files[0].unread_numeric.is_empty());
    let rows = named_rows("tinymembench/lkp-x86-v0.4.9.txt");
    // 29 memory and 4 framebuffer bandwidths, 17 block sizes twice (no
    // huge pages, huge pages), each with single and dual random reads.
    assert_eq!(rows.len(), 29 + 4 + 17 * 2 * 2);
    assert_eq!(
        (
            rows[0].1.as_str(),
            rows[0].2.as_str(),
            rows[0].3.as_str(),
            rows[0].4
        ),
        ("test=C copy backwards", "bandwidth", "MB/s", 13496.9)
    );
    assert!(rows
        .iter()
        .any(|r| r.1 == "test=SSE2 copy (from framebuffer)" && r.4 == 36715.8));
    assert!(rows.iter().any(|r| r.1 == "block=67108864,hugepages=no"
        && r.2 == "single random read"
        && r.3 == "ns"
        && r.4 == 73.3));
    assert!(rows.iter().any(|r| r.1 == "block=67108864,hugepages=yes"
        && r.2 == "dual random read"
        && r.4 == 83.4));

    // Run here (a virtual machine: no framebuffer section).
    let path = Path::new(HARNESS).join("tinymembench/x86-64-v0.4.9-here.txt");
    assert!(ingest_one(&path, &Registry::builtin()).files[0]
        .unread_numeric
        .is_empty());
    let rows = named_rows("tinymembench/x86-64-v0.4.9-here.txt");
    assert_eq!(rows.len(), 29 + 17 * 2 * 2);
    assert_eq!(
        (rows[0].1.as_str(), rows[0].4),
        ("test=C copy backwards", 6512.7)
    );
    let last = rows.last().unwrap();
    assert_eq!(
        (last.1.as_str(), last.2.as_str(), last.4),
        ("block=67108864,hugepages=yes", "dual random read", 166.2)
    );
}

#[test]
fn ycsb_result_lines_give_each_operation_its_figures() {
    let rows = named_rows("ycsb/run-status-gc-read-update.txt");
    let find = |params: &str, metric: &str| {
        rows.iter()
            .find(|r| r.1 == params && r.2 == metric)
            .map(|r| (r.3.as_str(), r.4))
    };
    assert_eq!(find("", "throughput"), Some(("ops/s", 23463.878532193616)));
    assert_eq!(find("", "runtime"), Some(("ms", 426187.0)));
    assert_eq!(find("op=read", "latency p95"), Some(("us", 455.0)));
    assert_eq!(find("op=update", "latency p99"), Some(("us", 794.0)));
    assert_eq!(find("op=update", "return OK"), Some(("", 5001537.0)));
    assert_eq!(find("", "total gc time"), Some(("ms", 3532.0)));
    // The status lines during the run are accounted, not read.
    let path = Path::new(HARNESS).join("ycsb/run-status-gc-read-update.txt");
    let ing = ingest_one(&path, &Registry::builtin());
    assert!(ing.files[0].unread_numeric.is_empty());
    assert_eq!(ing.files[0].skipped.len(), 2);
    let rows = named_rows("ycsb/lkp-01-read-insert.txt");
    assert_eq!(rows.len(), 6);
    assert!(rows
        .iter()
        .any(|r| r.1 == "op=insert" && r.2 == "latency avg" && r.4 == 200.5));
}

#[test]
fn uperf_gives_each_transaction_and_the_total_its_rates() {
    for (file, total_mbit, total_ops, skipped) in [
        ("uperf/lkp-01-netperf-profile.txt", 67.42, 93638.0, 7),
        (
            "uperf/lkp-02-netperf-profile-warnings.txt",
            51.32,
            100228.0,
            13,
        ),
    ] {
        let rows = named_rows(file);
        let total = "profile=netperf,threads=1";
        let of = |metric: &str| {
            rows.iter()
                .find(|r| r.1 == total && r.2 == metric)
                .map(|r| (r.3.as_str(), r.4))
        };
        assert_eq!(of("throughput"), Some(("Mbit/s", total_mbit)), "{file}");
        assert_eq!(of("ops"), Some(("op/s", total_ops)), "{file}");
        assert_eq!(rows.len(), 6, "{file}");
        let ing = ingest_one(&Path::new(HARNESS).join(file), &Registry::builtin());
        assert!(ing.files[0].unread_numeric.is_empty(), "{file}");
        assert_eq!(ing.files[0].skipped.len(), skipped, "{file}");
    }
}

#[test]
fn aim9_rows_give_operation_and_iteration_rates() {
    let rows = named_rows("aim9/lkp-02-tcp-test.txt");
    let got: Vec<(&str, &str, &str, f64)> = rows
        .iter()
        .map(|r| (r.1.as_str(), r.2.as_str(), r.3.as_str(), r.4))
        .collect();
    assert_eq!(
        got,
        [
            ("test=tcp_test", "ops", "ops/s", 17694.60),
            ("test=tcp_test", "loops", "/s", 196.60667)
        ]
    );
    // The banner's dates and copyright years, the run time asked for and
    // the suite's clock are the table's frame.
    let path = Path::new(HARNESS).join("aim9/lkp-02-tcp-test.txt");
    assert!(ingest_one(&path, &Registry::builtin()).files[0]
        .unread_numeric
        .is_empty());
}

#[test]
fn netpipe_np_out_agrees_with_the_console_of_its_run() {
    // The file NPtcp wrote with `-o np.out` in the run whose console is
    // NPtcp-h-localhost-u65536.txt: the same sizes and rates, times in s.
    let file = named_rows("netpipe/np.out");
    let console = named_rows("netpipe/NPtcp-h-localhost-u65536.txt");
    assert_eq!(file.len(), console.len());
    for (f, c) in file.iter().zip(&console) {
        assert_eq!((&f.1, &f.2, f.5), (&c.1, &c.2, c.5));
        let scale = if f.2 == "latency" { 1e6 } else { 1.0 };
        assert!((f.4 * scale - c.4).abs() <= 0.006, "{f:?} {c:?}");
    }
    assert_eq!((file[1].3.as_str(), file[1].4), ("s", 0.00000419));
}
