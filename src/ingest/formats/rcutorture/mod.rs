//! The kernel's RCU and locking test modules (`tools/testing/selftests/
//! rcutorture`): refscale, rcuscale, locktorture and rcutorture write their
//! results as kernel messages, so they are read from a console log or
//! `dmesg`, each line behind its `[ seconds]` stamp and its module's tag
//! (`rcu-ref-scale:`, `srcu-scale:`, `spin_lock-torture:`), with the
//! summaries the suite's `kvm-recheck-*.sh` scripts print from them.

pub(in crate::ingest) mod console;
pub(in crate::ingest) mod rcuscale;
pub(in crate::ingest) mod refscale;
pub(in crate::ingest) mod torture;
