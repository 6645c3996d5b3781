//! The built-in formats: a folder per tool with a file per output mode,
//! a file for tools with one, and the document and generic readers.

pub mod archive;
pub(in crate::ingest) mod bmf;
pub(in crate::ingest) mod bpf_bench;
pub(in crate::ingest) mod criterion;
pub(in crate::ingest) mod dbench;
pub(in crate::ingest) mod dd;
pub(in crate::ingest) mod document;
pub(in crate::ingest) mod ebizzy;
pub(in crate::ingest) mod fio;
pub(in crate::ingest) mod gbench;
pub mod generic;
pub(in crate::ingest) mod go;
pub(in crate::ingest) mod hyperfine;
pub(in crate::ingest) mod iperf2;
pub(in crate::ingest) mod iperf3;
pub(in crate::ingest) mod kernbench;
pub(in crate::ingest) mod lkp;
pub(in crate::ingest) mod lmbench;
pub(in crate::ingest) mod ministat;
pub(in crate::ingest) mod mmtests;
pub(in crate::ingest) mod netperf;
pub(in crate::ingest) mod perf;
pub(in crate::ingest) mod pgbench;
pub(in crate::ingest) mod phoronix;
pub(in crate::ingest) mod pktgen;
pub(in crate::ingest) mod pyperf;
pub(in crate::ingest) mod redis;
pub(in crate::ingest) mod rt_tests;
pub(in crate::ingest) mod schbench;
pub(in crate::ingest) mod stress_ng;
pub(in crate::ingest) mod sysbench;
pub(in crate::ingest) mod tidy;
pub(in crate::ingest) mod time;
pub(in crate::ingest) mod unixbench;
pub(in crate::ingest) mod will_it_scale;
pub(in crate::ingest) mod wrk;
