//! rt-tests: hackbench, cyclictest in every output mode (cyclicdeadline
//! writes the same), oslat, pi_stress, rt-migrate-test and the IPC latency
//! tools.

pub(in crate::ingest) mod cyclictest;
pub(in crate::ingest) mod cyclictest_hist;
pub(in crate::ingest) mod cyclictest_json;
pub(in crate::ingest) mod cyclictest_verbose;
pub(in crate::ingest) mod hackbench;
mod json_doc;
pub(in crate::ingest) mod oslat;
pub(in crate::ingest) mod pi_stress;
pub(in crate::ingest) mod rt_ipc;
pub(in crate::ingest) mod rt_ipc_json;
pub(in crate::ingest) mod rt_migrate;
