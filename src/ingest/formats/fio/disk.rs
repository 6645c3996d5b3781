//! The rows of fio's disk statistics, which the text report (`Disk stats
//! (read/write):` lines) and the JSON (`disk_util`) give alike: benchmark
//! `fio`, the device as `disk=`, the direction as `rw=` where a field is
//! kept per direction, metric `disk FIELD`.

use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::Source;
use crate::model::Observation;

/// The unit of a disk field: the kernel counts ticks and queue time in
/// ms, utilisation in %, the rest are counts.
fn unit(key: &str) -> &'static str {
    if key.ends_with("util") {
        "%"
    } else if key.ends_with("ticks") || key.ends_with("in_queue") {
        "ms"
    } else {
        ""
    }
}

/// The row of field `key` of `device` (for direction `dir` when the field
/// is kept per direction), read at line `n`.
pub(super) fn row(
    src: &Source,
    n: u32,
    device: &str,
    dir: Option<&str>,
    key: &str,
    v: f64,
) -> Observation {
    let mut p = Params::default();
    p.set("disk", device);
    if let Some(d) = dir {
        p.set("rw", d);
    }
    Row::at(src, n)
        .benchmark("fio")
        .params(&p.render())
        .metric(&format!("disk {key}"))
        .unit(unit(key))
        .sample(v)
}
