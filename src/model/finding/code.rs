//! The stable machine-readable names of findings, as one type: code that
//! needs to know which finding it holds matches a variant, not a string.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What part of a comparison a finding questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topic {
    /// The measurements and their statistics (drift, spread, n).
    Statistics,
    /// The inputs as read (generic reader, assumed units, baseline choice).
    Input,
    /// The kernel `.config` of either side.
    Kconfig,
    /// The machine, the boot command line and the kernel's state.
    Environment,
}

/// Generates [`FindingCode`]'s fixed variants with their names.
macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $topic:ident;)*) => {
        /// A finding's code. The fixed ones have one variant each; two
        /// families are named by their rules: a group of kernel options
        /// (`kconfig-<group>`, from the rules file, which a user may
        /// extend) and a machine setting (`env-<key>`).
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum FindingCode {
            $($(#[$doc])* $variant,)*
            /// Kernel options of one rule group differ (`kconfig-<group>`).
            KconfigGroup(String),
            /// A machine setting differs (`env-<key>`, the key's dots and
            /// underscores as dashes).
            EnvSetting(String),
        }

        impl FindingCode {
            /// Every fixed code, for listing and for tests.
            pub const FIXED: &'static [FindingCode] = &[$(FindingCode::$variant,)*];

            /// The stable name of a fixed code; `None` for the two
            /// families, whose names are built ([`fmt::Display`]).
            pub fn fixed_name(&self) -> Option<&'static str> {
                match self {
                    $(FindingCode::$variant => Some($name),)*
                    FindingCode::KconfigGroup(_) | FindingCode::EnvSetting(_) => None,
                }
            }

            /// What the finding is about.
            pub fn topic(&self) -> Topic {
                match self {
                    $(FindingCode::$variant => Topic::$topic,)*
                    FindingCode::KconfigGroup(_) => Topic::Kconfig,
                    FindingCode::EnvSetting(_) => Topic::Environment,
                }
            }

            fn from_fixed_name(name: &str) -> Option<FindingCode> {
                match name {
                    $($name => Some(FindingCode::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

codes! {
    /// Samples of one side drift over their run order.
    TrendOverRuns = "trend-over-runs", Statistics;
    /// One side drifts over its run order and the other does not.
    OneSidedTrend = "one-sided-trend", Statistics;
    /// A side's runs may fall into two clusters.
    Bimodal = "bimodal", Statistics;
    /// The two sides' spreads differ beyond chance.
    VarianceDiffers = "variance-differs", Statistics;
    /// A coefficient of variation too high to read small changes.
    HighCv = "high-cv", Statistics;
    /// The two sides have different sample counts.
    UnequalN = "unequal-n", Statistics;
    /// A side of one value: no variance, no test.
    SingleSample = "single-sample", Statistics;
    /// Summaries without a spread: no test.
    NoVariance = "no-variance", Statistics;
    /// Summaries with a spread but no n: no test.
    NUnknown = "n-unknown", Statistics;
    /// `--assume-n` stood in for the missing n.
    AssumedN = "assumed-n", Statistics;
    /// Values beyond Tukey's fences.
    Outliers = "outliers", Statistics;
    /// Every comparison of a variant moved by a large factor with inflated
    /// spread: what a debug kernel on one side looks like.
    DebugKernelPattern = "debug-kernel-pattern", Statistics;
    /// A stated change has the opposite sign of the computed one.
    StatedChangeSign = "stated-change-sign", Statistics;
    /// A stated change is relative to the variant, not the baseline.
    StatedChangeInverse = "stated-change-inverse", Statistics;
    /// A stated change is of another estimator of the same runs.
    StatedChangeEstimator = "stated-change-estimator", Statistics;
    /// A stated change does not follow from the values.
    StatedChangeMismatch = "stated-change-mismatch", Statistics;
    /// A stated summary does not follow from the samples beside it.
    StatedSummaryMismatch = "stated-summary-mismatch", Statistics;
    /// Stated summaries agree with the samples beside them.
    StatedSummaryVerified = "stated-summary-verified", Statistics;
    /// Values were read by the generic reader.
    GenericRead = "generic-read", Input;
    /// A unit was assumed for values read without one.
    UnitAssumed = "unit-assumed", Input;
    /// Which variant is the baseline of a group.
    GroupBaseline = "group-baseline", Input;
    /// No variant shares a benchmark with the baseline.
    NothingToCompare = "nothing-to-compare", Input;
    /// A debug option is on in one kernel only.
    KconfigDebugDiffers = "kconfig-debug-differs", Kconfig;
    /// A setting option differs between the kernels.
    KconfigSettingDiffers = "kconfig-setting-differs", Kconfig;
    /// Debug options are on in both kernels.
    KconfigDebugBoth = "kconfig-debug-both", Kconfig;
    /// Debug options of small cost differ.
    KconfigDebugInfo = "kconfig-debug-info", Kconfig;
    /// Options of no known cost differ.
    KconfigOtherInfo = "kconfig-other-info", Kconfig;
    /// One config: costly debug options are on.
    KconfigDebugOn = "kconfig-debug-on", Kconfig;
    /// One config: only debug options of small cost are on.
    KconfigDebugSmall = "kconfig-debug-small", Kconfig;
    /// One config: no costly debug option is on.
    KconfigClean = "kconfig-clean", Kconfig;
    /// The CPU models differ.
    EnvCpuModel = "env-cpu-model", Environment;
    /// One kernel reports itself as a debug build.
    EnvDebugKernel = "env-debug-kernel", Environment;
    /// One kernel prints debug banners at boot.
    EnvDebugBanners = "env-debug-banners", Environment;
    /// Both kernels print debug banners at boot.
    EnvDebugBannersBoth = "env-debug-banners-both", Environment;
    /// The CPU vulnerability mitigations differ.
    EnvMitigations = "env-mitigations", Environment;
    /// Other recorded facts of the machines differ.
    EnvOtherDiffers = "env-other-differs", Environment;
    /// A fact was recorded on one side only.
    EnvOneSide = "env-one-side", Environment;
    /// The kernels' taint flags differ.
    EnvTaintDiffers = "env-taint-differs", Environment;
    /// Both kernels carry a taint that questions the numbers.
    EnvTaintSuspect = "env-taint-suspect", Environment;
    /// A boot parameter known to matter differs.
    CmdlineParamDiffers = "cmdline-param-differs", Environment;
    /// Other boot parameters differ.
    CmdlineOtherDiffers = "cmdline-other-differs", Environment;
}

impl FindingCode {
    /// The code of a machine setting's key (`cpufreq.governor` →
    /// `env-cpufreq-governor`).
    pub fn env_setting(key: &str) -> FindingCode {
        FindingCode::EnvSetting(key.replace(['.', '_'], "-"))
    }
}

impl fmt::Display for FindingCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindingCode::KconfigGroup(g) => write!(f, "kconfig-{g}"),
            FindingCode::EnvSetting(k) => write!(f, "env-{k}"),
            fixed => f.write_str(fixed.fixed_name().unwrap_or_default()),
        }
    }
}

impl FromStr for FindingCode {
    type Err = String;

    /// A fixed name, or a `kconfig-`/`env-` family member.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(code) = FindingCode::from_fixed_name(s) {
            return Ok(code);
        }
        match (s.strip_prefix("kconfig-"), s.strip_prefix("env-")) {
            (Some(g), _) if !g.is_empty() => Ok(FindingCode::KconfigGroup(g.to_string())),
            (_, Some(k)) if !k.is_empty() => Ok(FindingCode::EnvSetting(k.to_string())),
            _ => Err(format!("unknown finding code `{s}`")),
        }
    }
}

impl PartialEq<&str> for FindingCode {
    fn eq(&self, other: &&str) -> bool {
        let built = |prefix: &str, rest: &str| {
            other
                .strip_prefix(prefix)
                .is_some_and(|o| o.strip_prefix('-') == Some(rest))
        };
        match self {
            FindingCode::KconfigGroup(g) => built("kconfig", g),
            FindingCode::EnvSetting(k) => built("env", k),
            fixed => fixed.fixed_name() == Some(*other),
        }
    }
}

impl Serialize for FindingCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for FindingCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_through_its_name() {
        let mut names = std::collections::HashSet::new();
        let built = [
            FindingCode::KconfigGroup("cpu-mitigations".into()),
            FindingCode::env_setting("cpufreq.governor"),
        ];
        for code in FindingCode::FIXED.iter().chain(&built) {
            let name = code.to_string();
            assert!(names.insert(name.clone()), "{name} twice");
            assert_eq!(name.parse::<FindingCode>().unwrap(), *code);
            let json = serde_json::to_string(code).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<FindingCode>(&json).unwrap(), *code);
        }
        assert_eq!(built[1].to_string(), "env-cpufreq-governor");
        assert_eq!(built[1].topic(), Topic::Environment);
        assert_eq!(FindingCode::HighCv.topic(), Topic::Statistics);
        assert!("no-such-code".parse::<FindingCode>().is_err());
        assert!("kconfig-".parse::<FindingCode>().is_err());
        assert!(built[1] == "env-cpufreq-governor" && built[1] != "env-cpufreq");
        assert!(FindingCode::HighCv == "high-cv" && FindingCode::HighCv != "high");
    }
}
