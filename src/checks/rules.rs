//! The rules data: which kernel options and boot parameters change benchmark
//! results, how much, and for which workloads. The built-in table is
//! `kconfig-rules.toml`, compiled in; `--rules FILE` replaces it.

use crate::error::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The built-in rules file.
pub const BUILTIN_RULES: &str = include_str!("kconfig-rules.toml");

/// How much an option costs when on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Often 2× or tens of percent on kernel-heavy microbenchmarks.
    Severe,
    /// A few percent up to about 20 % on the paths it instruments.
    Moderate,
    /// About 1–3 % or less.
    Small,
    /// No cost unless switched on at boot or run time.
    None,
}

impl Class {
    /// Lower-case name for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Severe => "severe",
            Class::Moderate => "moderate",
            Class::Small => "small",
            Class::None => "none",
        }
    }
}

/// Whether an option is instrumentation or a normal tuning choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Checking or instrumentation, never wanted in a benchmark kernel.
    Debug,
    /// A normal performance setting (preemption model, tick, mitigations).
    Setting,
}

/// A note that applies when another option is on, optionally changing the
/// cost class (UBSAN with UBSAN_TRAP is a cheap hardening setup; DEBUG_PAGEALLOC
/// with DEBUG_PAGEALLOC_ENABLE_DEFAULT is expensive).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Caveat {
    /// The option whose being on makes the note relevant.
    pub when: String,
    /// The note to add.
    pub text: String,
    /// The class to use instead when `when` is on wherever the rule's options are on.
    #[serde(default)]
    pub class: Option<Class>,
}

/// One rule: a set of options sharing a cost and an explanation.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionRule {
    /// Option names without `CONFIG_`; a trailing `*` is a prefix match.
    pub names: Vec<String>,
    /// Its cost class.
    pub class: Class,
    /// What kind of setting it is.
    pub kind: Kind,
    /// Settings reported together (e.g. "preemption model").
    #[serde(default)]
    pub group: Option<String>,
    /// Shipped by mainstream distribution kernels: not flagged on both sides.
    #[serde(default)]
    pub production: bool,
    /// `=m` costs nothing until the module is loaded.
    #[serde(default)]
    pub module_off: bool,
    /// Workloads it slows most, for people.
    #[serde(default)]
    pub hurts: Vec<String>,
    /// Words matched against benchmark names; `*` matches all.
    #[serde(default)]
    pub benchmarks: Vec<String>,
    /// A note that applies only when another option is on.
    #[serde(default)]
    pub caveat: Option<Caveat>,
    /// One line saying what it costs.
    pub why: String,
}

impl OptionRule {
    /// True when this rule covers `option`.
    pub fn covers(&self, option: &str) -> bool {
        self.names.iter().any(|n| match n.strip_suffix('*') {
            Some(prefix) => option.starts_with(prefix),
            None => n == option,
        })
    }

    /// The benchmarks among `names` this rule most likely distorts.
    pub fn affected<'a>(&self, names: &'a [String]) -> Vec<&'a str> {
        if self.benchmarks.iter().any(|b| b == "*") {
            return names.iter().map(String::as_str).collect();
        }
        names
            .iter()
            .filter(|name| {
                let lower = name.to_lowercase();
                self.benchmarks
                    .iter()
                    .any(|w| lower.contains(&w.to_lowercase()))
            })
            .map(String::as_str)
            .collect()
    }
}

/// The finding level a boot parameter difference gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// An error-level finding.
    Error,
    /// A warning-level finding.
    Warning,
}

/// A boot parameter that changes performance.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BootRule {
    /// Parameter names as written on the command line.
    pub names: Vec<String>,
    /// The finding level a difference gets.
    pub level: Level,
    /// Workloads it slows most, for people.
    #[serde(default)]
    pub hurts: Vec<String>,
    /// One line saying what it costs.
    pub why: String,
}

/// The whole rules file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Old spelling → current spelling.
    #[serde(default)]
    pub renames: BTreeMap<String, String>,
    /// Option → options it selects (`NAME` or `NAME=value`).
    #[serde(default)]
    pub implies: BTreeMap<String, Vec<String>>,
    /// The rules of kernel config options (`[[option]]`).
    #[serde(default, rename = "option")]
    pub options: Vec<OptionRule>,
    /// The rules of boot parameters (`[[boot]]`).
    #[serde(default, rename = "boot")]
    pub boot: Vec<BootRule>,
}

impl Rules {
    /// The rules compiled into patchperf.
    pub fn builtin() -> Rules {
        // The built-in file is tested (`builtin_rules_parse`), so this cannot fail
        // in a released binary.
        Rules::parse(Path::new("kconfig-rules.toml"), BUILTIN_RULES)
            .expect("the built-in rules file is valid")
    }

    /// Reads a rules file (`--rules FILE`).
    pub fn from_path(path: &Path) -> Result<Rules> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Rules::parse(path, &text)
    }

    /// Parses rules text; errors name the file and line.
    pub fn parse(path: &Path, text: &str) -> Result<Rules> {
        let rules: Rules = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
                .and_then(|l| u32::try_from(l).ok());
            Error::input(path, line, format!("bad rules file: {}", e.message()))
        })?;
        for (i, r) in rules.options.iter().enumerate() {
            if r.names.is_empty() {
                return Err(Error::input(
                    path,
                    None,
                    format!("option rule {} has no names", i + 1),
                ));
            }
        }
        Ok(rules)
    }

    /// The rule covering `option`, exact names before prefix patterns.
    pub fn rule_for(&self, option: &str) -> Option<&OptionRule> {
        self.rule_index_for(option).map(|i| &self.options[i])
    }

    /// Where in [`Rules::options`] the rule covering `option` stands.
    pub fn rule_index_for(&self, option: &str) -> Option<usize> {
        self.options
            .iter()
            .position(|r| r.names.iter().any(|n| n == option))
            .or_else(|| self.options.iter().position(|r| r.covers(option)))
    }

    /// The rule covering a boot parameter name.
    pub fn boot_rule_for(&self, param: &str) -> Option<&BootRule> {
        self.boot
            .iter()
            .find(|r| r.names.iter().any(|n| n == param))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_rules_parse() {
        let r = Rules::builtin();
        assert_eq!(r.renames["RETPOLINE"], "MITIGATION_RETPOLINE");
        assert!(r.implies["PROVE_LOCKING"].contains(&"LOCKDEP".to_string()));
        let p = r.rule_for("PROVE_LOCKING").unwrap();
        assert_eq!((p.class, p.kind), (Class::Severe, Kind::Debug));
        assert!(r.rule_for("DEBUG_INFO_BTF").unwrap().production);
        assert_eq!(
            r.rule_for("PREEMPT_RT").unwrap().group.as_deref(),
            Some("preemption model")
        );
        assert!(r.rule_for("ATH_DEBUG").is_none());
        assert_eq!(
            r.boot_rule_for("mitigations").unwrap().level,
            Level::Warning
        );
        assert_eq!(r.boot_rule_for("slub_debug").unwrap().level, Level::Error);
        // No option is claimed by two rules (the first would silently win).
        let mut seen = std::collections::BTreeSet::new();
        for n in r.options.iter().flat_map(|o| &o.names) {
            assert!(seen.insert(n.as_str()), "{n} is in two rules");
        }
        // Every renamed option's new name is covered by a rule.
        for new in r.renames.values() {
            assert!(r.rule_for(new).is_some(), "{new} has no rule");
        }
    }

    #[test]
    fn matches_benchmarks_by_keyword() {
        let r = Rules::builtin();
        let names = vec!["futex-wake".to_string(), "make -j1 kernel/".to_string()];
        assert_eq!(
            r.rule_for("LOCK_STAT").unwrap().affected(&names),
            vec!["futex-wake"]
        );
        assert_eq!(r.rule_for("KASAN").unwrap().affected(&names).len(), 2);
    }

    #[test]
    fn bad_rules_name_the_line() {
        let e = Rules::parse(
            Path::new("r.toml"),
            "[[option]]\nnames = [\"X\"]\nclass = \"huge\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("r.toml:3: bad rules file"), "{e}");
    }
}
