//! Whether lower or higher values of a metric are better.

use super::{Dimension, Unit};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which way is good for a metric. `Unknown` shows the change without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Smaller is better (time, latency, cycles).
    Lower,
    /// Larger is better (throughput, tps, ops/s).
    Higher,
    /// Not known from the metric, its unit or the input.
    Unknown,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Lower => "lower",
            Direction::Higher => "higher",
            Direction::Unknown => "unknown",
        })
    }
}

impl std::str::FromStr for Direction {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "lower" | "less" | "lower_is_better" | "smaller" => Ok(Direction::Lower),
            "higher" | "more" | "higher_is_better" | "bigger" | "larger" => Ok(Direction::Higher),
            "unknown" | "" => Ok(Direction::Unknown),
            o => Err(format!("unknown direction `{o}` (use lower or higher)")),
        }
    }
}

/// Words that make any count bad whatever else the name says: "missed timer
/// events" and "failed requests" are lower-is-better although "events" and
/// "requests" alone would read as throughput.
const BAD_WORDS: &[&str] = &[
    "miss",
    "missed",
    "misses",
    "fail",
    "failed",
    "failures",
    "failure",
    "errors",
    "error",
    "drops",
    "dropped",
    "lost",
    "retrans",
    "retransmits",
    "stalls",
    "overruns",
    "aborts",
];
const HIGHER_WORDS: &[&str] = &[
    "tps",
    "throughput",
    "bandwidth",
    "ops",
    "score",
    "rps",
    "qps",
    "iops",
    "bw",
    "speed",
    "rate",
    "hits",
    "per_sec",
    "per sec",
    "/s",
    "transactions",
    "requests",
    "events",
    "operations",
    "speedup",
];
const LOWER_WORDS: &[&str] = &[
    "time",
    "latency",
    "lat",
    "duration",
    "elapsed",
    "real",
    "user",
    "sys",
    "wall",
    "cycles",
    "instructions",
    "overhead",
    "misses",
    "faults",
    "cpu",
    "runtime",
    "wait",
    "delay",
    "jitter",
    "alloc",
    "memory",
    "rss",
    "size",
    "cost",
];

impl Direction {
    /// `lower is better` / `higher is better`; `None` when unknown, so each
    /// output words the unknown case its own way (or leaves it out).
    pub fn phrase(self) -> Option<&'static str> {
        match self {
            Direction::Lower => Some("lower is better"),
            Direction::Higher => Some("higher is better"),
            Direction::Unknown => None,
        }
    }

    /// Infers the direction from the metric name and unit. The unit decides
    /// first because it is unambiguous (a rate is better higher, a duration
    /// lower); the name decides for counts and unknown units.
    pub fn infer(metric: &str, unit: &str) -> Direction {
        let u = Unit::parse(unit);
        match u.dimension {
            Dimension::Rate | Dimension::Bandwidth => return Direction::Higher,
            Dimension::Time | Dimension::Cycles => return Direction::Lower,
            _ => {}
        }
        let m = metric.to_ascii_lowercase();
        let words = |list: &[&str]| {
            list.iter().any(|w| {
                if w.len() <= 4 && !w.contains('/') {
                    m.split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|tok| tok == *w)
                } else {
                    m.contains(w)
                }
            })
        };
        let tokens_any = |list: &[&str]| {
            m.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|tok| list.contains(&tok))
        };
        if tokens_any(BAD_WORDS) {
            Direction::Lower
        } else if words(HIGHER_WORDS) {
            Direction::Higher
        } else if words(LOWER_WORDS) {
            Direction::Lower
        } else {
            Direction::Unknown
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infers_from_unit_then_name() {
        assert_eq!(Direction::infer("latency", "us"), Direction::Lower);
        assert_eq!(Direction::infer("whatever", "ops/s"), Direction::Higher);
        assert_eq!(Direction::infer("tps", ""), Direction::Higher);
        assert_eq!(Direction::infer("real", "s"), Direction::Lower);
        assert_eq!(Direction::infer("bandwidth", "MB/s"), Direction::Higher);
        assert_eq!(Direction::infer("context-switches", ""), Direction::Unknown);
        assert_eq!(Direction::infer("overhead", "%"), Direction::Lower);
        assert_eq!(Direction::infer("throughput", "%"), Direction::Higher);
        assert_eq!(
            Direction::infer("missed timer events", ""),
            Direction::Lower
        );
        assert_eq!(Direction::infer("failed requests", ""), Direction::Lower);
        assert_eq!(Direction::infer("events", ""), Direction::Higher);
    }
}
