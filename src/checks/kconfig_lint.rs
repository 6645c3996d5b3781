//! One kernel config on its own (`patchperf check CONFIG`): which debug
//! options with a known benchmark cost are on, and what each costs. The
//! diff of two configs says whether a comparison is fair; this says whether
//! a kernel is fit to quote absolute numbers from at all.

use super::kconfig::{KConfig, Value};
use super::kconfig_diff::{level, prepared, with_caveat_classes};
use super::rules::{Class, Kind, OptionRule, Rules};
use super::signatures::plural;
use crate::model::{Finding, FindingCode, Severity};

/// Findings for one config, costliest first: one per rule with options on
/// (severe and moderate debug options), then one info line for the cheap ones.
pub fn kconfig_lint(config: &KConfig, rules: &Rules) -> Vec<Finding> {
    let config = prepared(config, rules);
    let rules = with_caveat_classes(rules, &config, &config);
    // Rule index → options of that rule that are on.
    let mut costly: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    let mut cheap: Vec<String> = Vec::new();
    for (name, entry) in &config.options {
        let Some(idx) = rules.rule_index_for(name) else {
            continue;
        };
        let r = &rules.options[idx];
        if !entry.value.is_on() || r.kind != Kind::Debug || r.production {
            continue;
        }
        if r.module_off && entry.value == Value::Module {
            continue;
        }
        match r.class {
            Class::None => {}
            Class::Small => cheap.push(shown(name, &entry.value)),
            Class::Severe | Class::Moderate => {
                costly
                    .entry(idx)
                    .or_default()
                    .push(shown(name, &entry.value));
            }
        }
    }
    // Rules in the order their first option comes in the config (names are
    // visited sorted), before the stable sort by severity and class.
    let mut costly: Vec<(usize, Vec<String>)> = costly.into_iter().collect();
    costly.sort_by(|a, b| a.1[0].cmp(&b.1[0]));
    let mut out: Vec<(Class, Finding)> = costly
        .into_iter()
        .filter_map(|(idx, names)| {
            rules
                .options
                .get(idx)
                .map(|r| (r.class, finding(&config, r, &names)))
        })
        .collect();
    out.sort_by_key(|(class, f)| (f.severity, *class));
    let mut out: Vec<Finding> = out.into_iter().map(|(_, f)| f).collect();
    if !cheap.is_empty() {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::KconfigDebugSmall,
            format!(
                "{} debug option{} of small cost (about 1–3 % or less) {} on",
                cheap.len(),
                plural(cheap.len()),
                if cheap.len() == 1 { "is" } else { "are" }
            ),
            format!("On: {}.", cheap.join(", ")),
            "Usually harmless for a comparison made on the same config; say so when quoting absolute numbers.",
        ));
    }
    if out.is_empty() {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::KconfigClean,
            "no debug option with a known benchmark cost is on",
            format!(
                "{} options read from {}; none matches a costly debug rule.",
                config.options.len(),
                config.path.display()
            ),
            "Nothing to do.",
        ));
    }
    out
}

fn shown(name: &str, value: &Value) -> String {
    match value {
        Value::Yes => name.to_string(),
        v => format!("{name}={v}"),
    }
}

fn finding(config: &KConfig, r: &OptionRule, names: &[String]) -> Finding {
    let sev = level(r);
    let hurts = if r.hurts.is_empty() {
        String::new()
    } else {
        format!(" Hurts most: {}.", r.hurts.join(", "))
    };
    let caveat = r
        .caveat
        .as_ref()
        .filter(|c| config.get(&c.when).is_on())
        .map(|c| format!(" {}.", c.text.trim_end_matches('.')))
        .unwrap_or_default();
    Finding::new(
        sev,
        FindingCode::KconfigDebugOn,
        format!(
            "debug option{} {} {} on ({} cost)",
            plural(names.len()),
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" },
            r.class.as_str()
        ),
        format!("{}.{hurts}{caveat}", r.why.trim_end_matches('.')),
        "Build the kernel you benchmark without it (or quote only changes measured on this same config, and say it is a debug kernel).",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn lint(text: &str) -> Vec<Finding> {
        let c = KConfig::parse(Path::new("t.config"), text).unwrap();
        kconfig_lint(&c, &Rules::builtin())
    }

    #[test]
    fn a_debug_kernel_is_flagged_with_its_costs() {
        let f = lint("CONFIG_PROVE_LOCKING=y\nCONFIG_KASAN=y\nCONFIG_SMP=y\n");
        assert!(f.iter().any(|f| f.severity == Severity::Error
            && f.title.contains("PROVE_LOCKING")
            && f.title.contains("cost")));
        assert!(f.iter().any(|f| f.title.contains("KASAN")));
        assert!(f.iter().all(|f| f.code != "kconfig-clean"));
    }

    #[test]
    fn a_production_config_is_clean() {
        let f =
            lint("CONFIG_SMP=y\nCONFIG_PREEMPT_VOLUNTARY=y\n# CONFIG_PROVE_LOCKING is not set\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].code, "kconfig-clean");
    }
}
