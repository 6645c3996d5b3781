//! Findings: what the checks and the analysis have to say about whether the
//! comparison itself is sound. Shared by `checks`, `analysis` and `report`.

mod code;

pub use code::{FindingCode, Topic};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How serious a finding is. Ordered so that sorting puts errors first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The comparison is broken (e.g. a debug option on one side only).
    Error,
    /// The numbers may mislead (noisy, drifting, debug on both sides).
    Warning,
    /// Worth knowing, changes nothing by itself.
    Info,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// One finding, in the shape every output uses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// How serious it is.
    pub severity: Severity,
    /// Stable machine-readable code, e.g. `kconfig-debug-differs`.
    pub code: FindingCode,
    /// One line for humans.
    pub title: String,
    /// The facts behind it (options and values, numbers).
    pub evidence: String,
    /// What to do about it.
    pub advice: String,
}

impl Finding {
    /// A finding with all fields given.
    pub fn new(
        severity: Severity,
        code: FindingCode,
        title: impl Into<String>,
        evidence: impl Into<String>,
        advice: impl Into<String>,
    ) -> Self {
        Finding {
            severity,
            code,
            title: title.into(),
            evidence: evidence.into(),
            advice: advice.into(),
        }
    }
}

/// Sorts findings errors first, keeping input order within a severity.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by_key(|f| f.severity);
}
