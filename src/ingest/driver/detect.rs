//! Detection for large inputs, from a probe of their first lines.

use crate::ingest::{Registry, Source};

/// Lines and bytes of a large file that detection looks at first.
pub(super) const PROBE_LINES: usize = 4000;

pub(super) const PROBE_BYTES: usize = 256 << 10;

/// Lines and bytes detection looks at when the first probe is not certain.
pub(super) const WIDE_PROBE_LINES: usize = 1 << 16;

pub(super) const WIDE_PROBE_BYTES: usize = 1 << 20;

/// Detection for large inputs: every format's `detect` scans what it is
/// given, and all of them scanning a file of millions of lines cost more
/// than parsing it (two thirds of the time for a 5 MB file of e-mail
/// tables, where no format is certain). When a format is certain (≥ 90)
/// from the first [`PROBE_LINES`] lines (at most [`PROBE_BYTES`]: one-line
/// JSON has a single huge line), that is the answer; otherwise the first
/// MiB ([`WIDE_PROBE_BYTES`]) decides. A file whose telling lines all come
/// after its first MiB is not recognised: `--format` names its reader.
pub(super) fn detect<'r>(
    registry: &'r Registry,
    src: &Source,
) -> Option<&'r dyn crate::ingest::Format> {
    registry.at(detect_at(registry, src)?)
}

/// [`detect`], giving the format's place in the registry.
pub(super) fn detect_at(registry: &Registry, src: &Source) -> Option<usize> {
    let at = |s: &Source| registry.detect_scored_at(s).map(|(i, _)| i);
    if let Some(probe) = src.head(PROBE_LINES, PROBE_BYTES) {
        if let Some((f, confidence)) = registry.detect_scored_at(&probe) {
            if confidence >= 90 {
                return Some(f);
            }
        }
        if let Some(wide) = src.head(WIDE_PROBE_LINES, WIDE_PROBE_BYTES) {
            return at(&wide);
        }
    }
    at(src)
}
