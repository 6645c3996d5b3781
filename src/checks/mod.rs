//! Checks: is the comparison itself sound? Kernel config lint and diff,
//! environment capture and diff, and statistical signatures of a broken
//! comparison (the debug-kernel pattern, mismatched n, noisy or drifting runs).
//!
//! [`comparison_findings`] is the one entry point the `compare` and `check`
//! commands and the report code use.

pub mod capture;
pub mod env;
pub mod env_diff;
mod generic_read;
pub mod kconfig;
pub mod kconfig_diff;
pub mod kconfig_lint;
pub mod rules;
pub mod signatures;
pub mod taint;

pub use env::Snapshot;
pub use generic_read::generic_read_finding;
pub use kconfig::KConfig;
pub use rules::Rules;
pub use signatures::signature_findings;

use crate::analysis::Analysis;
use crate::error::{Error, Result};
use crate::ingest::context::{self, ContextKind};
use crate::model::{Finding, FindingCode};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What to check besides the analysis: kernel configs and environments of
/// the baseline and the patched system, each optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckInputs {
    /// (baseline, patched) kernel config files (`.config`, `config.gz`).
    pub kconfig: Option<(PathBuf, PathBuf)>,
    /// (baseline, patched) snapshot files, capture files or folders of them.
    pub env: Option<(PathBuf, PathBuf)>,
    /// A rules file replacing the built-in one.
    pub rules: Option<PathBuf>,
}

impl CheckInputs {
    /// True when there is nothing but (possibly) an analysis to check.
    pub fn is_empty(&self) -> bool {
        self.kconfig.is_none() && self.env.is_none()
    }

    /// What `patchperf check A B` compares: two configs, two snapshots (or
    /// capture files), or two folders holding them.
    pub fn from_pair(a: &Path, b: &Path) -> Result<CheckInputs> {
        let (fa, fb) = (VariantFiles::of(a)?, VariantFiles::of(b)?);
        let mut inputs = CheckInputs::default();
        if let (Some(ka), Some(kb)) = (&fa.kconfig, &fb.kconfig) {
            inputs.kconfig = Some((ka.clone(), kb.clone()));
        }
        if let (Some(ea), Some(eb)) = (&fa.env, &fb.env) {
            inputs.env = Some((ea.clone(), eb.clone()));
        }
        if inputs.is_empty() {
            // A build's .config against a snapshot of the running kernel: the
            // snapshot's recorded config stands in for the missing file.
            let snapshot_of = |f: &VariantFiles| f.env.clone().filter(|p| is_snapshot_file(p));
            inputs.kconfig = match (&fa.kconfig, &fb.kconfig) {
                (Some(ka), None) => snapshot_of(&fb).map(|sb| (ka.clone(), sb)),
                (None, Some(kb)) => snapshot_of(&fa).map(|sa| (sa, kb.clone())),
                _ => None,
            };
        }
        if inputs.is_empty() {
            return Err(Error::Usage(format!(
                "nothing to compare: {} holds {} and {} holds {}; give two kernel configs, two snapshots or two folders holding them",
                a.display(),
                fa.describe(),
                b.display(),
                fb.describe()
            )));
        }
        Ok(inputs)
    }

    /// Finds configs and snapshots in two variant folders (for `compare`);
    /// only what both sides have is used.
    pub fn from_variant_dirs(base: &Path, patched: &Path) -> Result<CheckInputs> {
        let (fa, fb) = (VariantFiles::in_dir(base)?, VariantFiles::in_dir(patched)?);
        Ok(CheckInputs {
            kconfig: fa.kconfig.zip(fb.kconfig),
            env: fa.env.zip(fb.env),
            rules: None,
        })
    }
}

/// The check inputs found for one side.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VariantFiles {
    /// The kernel config file.
    pub kconfig: Option<PathBuf>,
    /// A snapshot or capture file, or the folder holding capture files.
    pub env: Option<PathBuf>,
}

impl VariantFiles {
    /// Classifies a path given on the command line.
    pub fn of(path: &Path) -> Result<VariantFiles> {
        if path.is_dir() {
            return VariantFiles::in_dir(path);
        }
        if !path.exists() {
            return Err(Error::io(
                path,
                std::io::Error::from(std::io::ErrorKind::NotFound),
            ));
        }
        if matches!(
            context::sniff(path),
            Some(ContextKind::Snapshot | ContextKind::Capture(_))
        ) {
            Ok(VariantFiles {
                kconfig: None,
                env: Some(path.to_path_buf()),
            })
        } else {
            // Anything else is read as a kernel config (errors name file and line).
            Ok(VariantFiles {
                kconfig: Some(path.to_path_buf()),
                env: None,
            })
        }
    }

    /// Looks inside a variant folder (not recursively) for one kernel config
    /// and any snapshot or capture files, by the rules ingest uses to leave
    /// them out of the results ([`context::classify`]).
    pub fn in_dir(dir: &Path) -> Result<VariantFiles> {
        // The content decides: `config-*.fio` is not a kernel config.
        let found = env::context_files_in(dir)?;
        let mut configs: Vec<PathBuf> = found
            .iter()
            .filter(|(_, k)| *k == ContextKind::KernelConfig)
            .map(|(p, _)| p.clone())
            .collect();
        if configs.len() > 1 {
            let names: Vec<String> = configs.iter().map(|p| p.display().to_string()).collect();
            return Err(Error::Usage(format!(
                "{} holds several kernel configs ({}); name the ones to compare with --kconfig BASE PATCHED",
                dir.display(),
                names.join(", ")
            )));
        }
        let has_env = found
            .iter()
            .any(|(_, k)| matches!(k, ContextKind::Snapshot | ContextKind::Capture(_)));
        Ok(VariantFiles {
            kconfig: configs.pop(),
            env: has_env.then(|| dir.to_path_buf()),
        })
    }

    fn describe(&self) -> &'static str {
        match (&self.kconfig, &self.env) {
            (Some(_), Some(_)) => "a kernel config and environment captures",
            (Some(_), None) => "a kernel config",
            (None, Some(_)) => "environment captures",
            (None, None) => "no kernel config and no environment captures",
        }
    }
}

/// The text with its first letter upper-cased (a rule's reason opening an
/// evidence sentence).
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn is_snapshot_file(p: &Path) -> bool {
    p.is_file() && context::sniff(p) == Some(ContextKind::Snapshot)
}

/// Everything patchperf can say about whether a comparison is sound: kernel
/// config and environment differences (when given) and the statistical
/// signatures of the analysis (when given), errors first.
pub fn comparison_findings(
    inputs: &CheckInputs,
    analysis: Option<&Analysis>,
) -> Result<Vec<Finding>> {
    // A `--rules` file is read (and its errors reported) whenever given; the
    // built-in rules are parsed only when a config or environment diff needs
    // them, since parsing their TOML was ~9 % of a small `compare`.
    let user_rules = inputs.rules.as_deref().map(Rules::from_path).transpose()?;
    let builtin_rules = std::cell::OnceCell::new();
    let rules = || {
        user_rules
            .as_ref()
            .unwrap_or_else(|| builtin_rules.get_or_init(Rules::builtin))
    };
    let benchmarks = benchmark_names(analysis);
    let mut out = Vec::new();
    if let Some((a, b)) = &inputs.kconfig {
        let (ka, kb) = (load_kconfig(a)?, load_kconfig(b)?);
        out.extend(kconfig_diff::kconfig_findings(
            &ka,
            &kb,
            rules(),
            &benchmarks,
        ));
    }
    if let Some((a, b)) = &inputs.env {
        let (mut sa, mut sb) = (Snapshot::load(a)?, Snapshot::load(b)?);
        if inputs.kconfig.is_some() {
            // The configs given explicitly win over those inside snapshots.
            sa.kconfig = None;
            sb.kconfig = None;
        }
        out.extend(env_diff::env_findings(&sa, &sb, rules(), &benchmarks));
    }
    if let Some(a) = analysis {
        // The analysis raises some of the same signals itself; keep its version.
        let covered = |code: &FindingCode| {
            let theirs: &[FindingCode] = match code {
                FindingCode::SingleSample => &[FindingCode::SingleSample, FindingCode::NoVariance],
                FindingCode::OneSidedTrend => &[FindingCode::TrendOverRuns],
                other => std::slice::from_ref(other),
            };
            a.findings.iter().any(|f| theirs.contains(&f.code))
        };
        out.extend(
            signature_findings(a)
                .into_iter()
                .filter(|f| !covered(&f.code)),
        );
    }
    out.sort_by_key(|f| f.severity);
    Ok(out)
}

/// What `patchperf check CONFIG` says about one kernel config (or the
/// config recorded in a snapshot): the costly debug options that are on.
pub fn single_config_findings(path: &Path, rules: Option<&Path>) -> Result<Vec<Finding>> {
    let files = VariantFiles::of(path)?;
    let source = match (&files.kconfig, &files.env) {
        (Some(k), _) => k.clone(),
        (None, Some(e)) if is_snapshot_file(e) => e.clone(),
        _ => {
            return Err(Error::Usage(format!(
                "{} holds {}: one input is linted only as a kernel config (or a snapshot holding one); give two inputs to compare environments",
                path.display(),
                files.describe()
            )))
        }
    };
    let rules = match rules {
        Some(r) => Rules::from_path(r)?,
        None => Rules::builtin(),
    };
    Ok(kconfig_lint::kconfig_lint(&load_kconfig(&source)?, &rules))
}

/// Adds the check findings to an analysis so that every output shows them:
/// errors first, and within a severity the checks before the analysis' own.
pub fn attach_findings(analysis: &mut Analysis, inputs: &CheckInputs) -> Result<()> {
    let mut all = comparison_findings(inputs, Some(analysis))?;
    all.append(&mut analysis.findings);
    all.sort_by_key(|f| f.severity);
    analysis.findings = all;
    Ok(())
}

/// The check inputs of `compare`: `--kconfig BASE PATCHED` and `--env BASE
/// PATCHED` when given; otherwise configs and snapshots found inside the
/// first two inputs when both are folders (a folder that is ambiguous, e.g.
/// with two configs, is skipped: the comparison itself must not fail on it).
pub fn inputs_for_compare(
    variant_inputs: &[PathBuf],
    kconfig: &[PathBuf],
    env: &[PathBuf],
    rules: Option<PathBuf>,
) -> Result<CheckInputs> {
    let pair = |v: &[PathBuf], flag: &str| -> Result<Option<(PathBuf, PathBuf)>> {
        match v {
            [] => Ok(None),
            [a, b] => Ok(Some((a.clone(), b.clone()))),
            _ => Err(Error::Usage(format!(
                "{flag} takes two paths: BASE PATCHED"
            ))),
        }
    };
    let mut inputs = CheckInputs {
        kconfig: pair(kconfig, "--kconfig")?,
        env: pair(env, "--env")?,
        rules,
    };
    if let [a, b, ..] = variant_inputs {
        if a.is_dir() && b.is_dir() {
            if let Ok(found) = CheckInputs::from_variant_dirs(a, b) {
                inputs.kconfig = inputs.kconfig.or(found.kconfig);
                inputs.env = inputs.env.or(found.env);
            }
        }
    }
    Ok(inputs)
}

/// A kernel config from a config file or from the `[kconfig]` table of a snapshot.
fn load_kconfig(path: &Path) -> Result<KConfig> {
    if is_snapshot_file(path) {
        Snapshot::load(path)?.kconfig.ok_or_else(|| {
            Error::input(
                path,
                None,
                "this snapshot holds no kernel config ([kconfig] table)",
            )
        })
    } else {
        KConfig::from_path(path)
    }
}

/// Distinct benchmark names of an analysis, in first-seen order.
fn benchmark_names(analysis: Option<&Analysis>) -> Vec<String> {
    let Some(a) = analysis else { return Vec::new() };
    let mut seen = BTreeSet::new();
    a.groups
        .iter()
        .map(|g| g.benchmark.clone())
        .filter(|b| seen.insert(b.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Severity;

    #[test]
    fn finds_configs_and_captures_in_variant_folders() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("base"), dir.path().join("patched"));
        for (d, cfg) in [
            (&a, "CONFIG_PREEMPT_VOLUNTARY=y\n"),
            (&b, "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_KASAN=y\n"),
        ] {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("kernel.config"), cfg).unwrap();
            std::fs::write(d.join("hackbench-1.txt"), "Time: 1.0\n").unwrap();
        }
        std::fs::write(a.join("cmdline"), "quiet\n").unwrap();
        std::fs::write(b.join("cmdline"), "quiet mitigations=off\n").unwrap();
        let inputs = CheckInputs::from_variant_dirs(&a, &b).unwrap();
        assert_eq!(
            inputs.kconfig,
            Some((a.join("kernel.config"), b.join("kernel.config")))
        );
        assert_eq!(inputs.env, Some((a.clone(), b.clone())));
        let f = comparison_findings(&inputs, None).unwrap();
        let codes: Vec<(Severity, String)> =
            f.iter().map(|f| (f.severity, f.code.to_string())).collect();
        let codes: Vec<(Severity, &str)> = codes.iter().map(|(s, c)| (*s, c.as_str())).collect();
        assert_eq!(
            codes,
            [
                (Severity::Error, "kconfig-debug-differs"),
                (Severity::Warning, "cmdline-param-differs")
            ]
        );
        // A benchmark's own config file is not taken for a kernel config.
        std::fs::write(a.join("config-randread.fio"), "[global]\nrw=randread\n").unwrap();
        assert_eq!(
            CheckInputs::from_variant_dirs(&a, &b)
                .unwrap()
                .kconfig
                .unwrap()
                .0,
            a.join("kernel.config")
        );
        // Two configs in one folder: the user must say which.
        std::fs::write(a.join("other.config"), "CONFIG_X=y\n").unwrap();
        assert!(CheckInputs::from_variant_dirs(&a, &b).is_err());
        // Nothing to check in plain result folders.
        let c = dir.path().join("plain");
        std::fs::create_dir_all(&c).unwrap();
        assert!(CheckInputs::from_variant_dirs(&c, &c).unwrap().is_empty());
        assert!(CheckInputs::from_pair(&c, &c).is_err());
    }

    #[test]
    fn a_config_against_a_snapshot_uses_the_snapshot_config() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("build.config");
        std::fs::write(&cfg, "CONFIG_PROVE_LOCKING=y\n").unwrap();
        let mut snap = Snapshot::default();
        snap.set("cmdline", "quiet");
        let meta = env::Meta {
            format: 1,
            tool: "t".into(),
            captured_unix: 0,
        };
        let k = env::KconfigSection {
            source: "/proc/config.gz".into(),
            text: "# CONFIG_PROVE_LOCKING is not set\n".into(),
        };
        let with = dir.path().join("with.toml");
        std::fs::write(&with, snap.to_toml(meta.clone(), Some(k)).unwrap()).unwrap();
        let inputs = CheckInputs::from_pair(&with, &cfg).unwrap();
        assert_eq!(inputs.kconfig, Some((with.clone(), cfg.clone())));
        let f = comparison_findings(&inputs, None).unwrap();
        assert!(
            f[0].title
                .contains("PROVE_LOCKING is on in the patched kernel only"),
            "{f:#?}"
        );
        // Without a recorded config the snapshot cannot stand in: say so.
        let without = dir.path().join("without.toml");
        std::fs::write(&without, snap.to_toml(meta, None).unwrap()).unwrap();
        let e = comparison_findings(&CheckInputs::from_pair(&without, &cfg).unwrap(), None)
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("without.toml: this snapshot holds no kernel config"),
            "{e}"
        );
    }

    #[test]
    fn analysis_findings_are_not_repeated() {
        let mut a = Analysis::default();
        let c: crate::analysis::Comparison = serde_json::from_value(serde_json::json!({
            "benchmark": "hackbench", "params": "", "metric": "time", "unit": "s",
            "direction": "lower", "baseline": "base", "variant": "new",
            "n_baseline": 1, "n_variant": 5, "baseline_center": 1.0, "variant_center": 1.1,
            "center": "mean", "change_pct": 10.0, "ci_low_pct": null, "ci_high_pct": null,
            "test": "none", "p_value": null, "q_value": null, "effect_size": null,
            "min_detectable_pct": null, "n_needed": null, "verdict": "untestable"
        }))
        .unwrap();
        a.comparisons.push(c);
        let codes = |a: &Analysis| -> Vec<String> {
            comparison_findings(&CheckInputs::default(), Some(a))
                .unwrap()
                .into_iter()
                .map(|f| f.code.to_string())
                .collect()
        };
        assert_eq!(codes(&a), ["unequal-n", "single-sample"]);
        a.findings.push(Finding::new(
            Severity::Warning,
            FindingCode::SingleSample,
            "t",
            "e",
            "a",
        ));
        assert_eq!(codes(&a), ["unequal-n"]);
    }
}
