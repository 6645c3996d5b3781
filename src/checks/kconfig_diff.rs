//! Compares the kernel configs of the baseline and the patched build against
//! the rules and turns the differences into findings.

use super::capitalise;
use super::kconfig::{KConfig, Origin, Value};
use super::rules::{Class, Kind, OptionRule, Rules};
use crate::model::{Finding, FindingCode, Severity};
use std::collections::{BTreeMap, BTreeSet};

/// How many option names an info finding lists before "…".
const LIST_LIMIT: usize = 40;

/// Findings from comparing two kernel configs. `benchmarks` are the benchmark
/// names in the data (may be empty), used to say which ones an option distorts.
pub fn kconfig_findings(
    base: &KConfig,
    patched: &KConfig,
    rules: &Rules,
    benchmarks: &[String],
) -> Vec<Finding> {
    let base = prepared(base, rules);
    let patched = prepared(patched, rules);
    let adjusted = with_caveat_classes(rules, &base, &patched);
    let rules = &adjusted;
    let names: BTreeSet<&String> = base.options.keys().chain(patched.options.keys()).collect();

    let mut singles: Vec<(Class, Severity, String, Finding)> = Vec::new();
    let mut groups: BTreeMap<&str, Vec<(&str, &OptionRule)>> = BTreeMap::new();
    let mut both_on: Vec<(&str, &OptionRule)> = Vec::new();
    let mut info_debug: Vec<(String, Value, Value)> = Vec::new();
    let mut info_other: Vec<(String, Value, Value)> = Vec::new();
    // Implied options whose selecting option differs too: shown with it.
    let mut selected_by: BTreeMap<String, Vec<&str>> = BTreeMap::new();

    for name in names {
        let (b, p) = (base.get(name), patched.get(name));
        let rule = rules.rule_for(name);
        if b == p {
            if let Some(r) = rule {
                let costly = matches!(r.class, Class::Severe | Class::Moderate);
                let module_only = r.module_off && b == Value::Module;
                if b.is_on() && r.kind == Kind::Debug && costly && !r.production && !module_only {
                    both_on.push((name, r));
                }
            }
            continue;
        }
        if let Some(parent) = implied_parent(&base, &patched, name) {
            let parent_single = rules
                .rule_for(&parent)
                .is_some_and(|pr| pr.group.is_none() && pr.class != Class::None);
            if parent_single && base.get(&parent) != patched.get(&parent) {
                selected_by.entry(parent).or_default().push(name);
                continue;
            }
        }
        let Some(r) = rule else {
            info_bucket(name, &mut info_debug, &mut info_other).push((name.clone(), b, p));
            continue;
        };
        let module_only = r.module_off
            && matches!(
                (&b, &p),
                (Value::Module, Value::No) | (Value::No, Value::Module)
            );
        if r.class == Class::None || module_only {
            info_debug.push((name.clone(), b, p));
            continue;
        }
        if let Some(g) = &r.group {
            groups.entry(g.as_str()).or_default().push((name, r));
            continue;
        }
        singles.push((
            r.class,
            level(r),
            name.clone(),
            single(&base, &patched, name, r, benchmarks),
        ));
    }

    for (parent, children) in &selected_by {
        if let Some((_, _, _, f)) = singles.iter_mut().find(|(_, _, n, _)| n == parent) {
            f.evidence.push_str(&format!(
                " It also selects {}, which the file does not list.",
                children.join(", ")
            ));
        }
    }
    for (group, members) in &groups {
        let class = members
            .iter()
            .map(|(_, r)| r.class)
            .min()
            .unwrap_or(Class::Small);
        let sev = members
            .iter()
            .map(|(_, r)| level(r))
            .min()
            .unwrap_or(Severity::Warning);
        let f = group_finding(&base, &patched, group, members, rules, benchmarks);
        singles.push((class, sev, group.to_string(), f));
    }
    singles.sort_by_key(|s| (s.1, s.0));
    let mut out: Vec<Finding> = singles.into_iter().map(|(_, _, _, f)| f).collect();

    if !both_on.is_empty() {
        out.push(both_on_finding(&base, &both_on));
    }
    out.sort_by_key(|f| f.severity);
    if !info_debug.is_empty() {
        out.push(info_finding(
            FindingCode::KconfigDebugInfo,
            "debug, test or production-grade options",
            "driver and subsystem debugging, self-tests and options with no known benchmark cost",
            &info_debug,
            &base,
            &patched,
        ));
    }
    if !info_other.is_empty() {
        out.push(info_finding(
            FindingCode::KconfigOtherInfo,
            "other options",
            "features, drivers and limits not known to change benchmark results",
            &info_other,
            &base,
            &patched,
        ));
    }
    out
}

/// Renames old spellings and fills in implied options.
pub(super) fn prepared(c: &KConfig, rules: &Rules) -> KConfig {
    let mut c = c.clone();
    c.normalise_names(&rules.renames);
    c.expand_implied(&rules.implies);
    c
}

/// The rules with caveat classes applied: a caveat's class replaces the
/// rule's when its `when` option is on in every config where one of the
/// rule's options is on.
pub(super) fn with_caveat_classes(rules: &Rules, base: &KConfig, patched: &KConfig) -> Rules {
    let mut out = rules.clone();
    for r in &mut out.options {
        let Some(c) = &r.caveat else { continue };
        let Some(class) = c.class else { continue };
        let exact: Vec<&String> = r.names.iter().filter(|n| !n.ends_with('*')).collect();
        let sides: Vec<&KConfig> = [base, patched]
            .into_iter()
            .filter(|k| exact.iter().any(|n| k.get(n).is_on()))
            .collect();
        if !sides.is_empty() && sides.iter().all(|k| k.get(&c.when).is_on()) {
            r.class = class;
        }
    }
    out
}

pub(super) fn level(r: &OptionRule) -> Severity {
    match (r.kind, r.class) {
        (_, Class::Severe) => Severity::Error,
        (Kind::Debug, Class::Moderate) => Severity::Error,
        (_, Class::None) => Severity::Info,
        _ => Severity::Warning,
    }
}

/// The option that selected `name` on the side where it is on, if it was
/// filled in rather than written in the file.
fn implied_parent(base: &KConfig, patched: &KConfig, name: &str) -> Option<String> {
    [base, patched].iter().find_map(|c| match c.entry(name) {
        Some(e) if e.value.is_on() => match &e.origin {
            Origin::ImpliedBy(p) => Some(p.clone()),
            Origin::Line(_) => None,
        },
        _ => None,
    })
}

fn info_bucket<'a, T>(name: &str, debug: &'a mut Vec<T>, other: &'a mut Vec<T>) -> &'a mut Vec<T> {
    const MARKERS: [&str; 9] = [
        "DEBUG",
        "_TEST",
        "TEST_",
        "TRACE",
        "FAULT_INJECTION",
        "FAIL_",
        "KUNIT",
        "ASSERT",
        "VERBOSE",
    ];
    if MARKERS.iter().any(|m| name.contains(m)) {
        debug
    } else {
        other
    }
}

/// How a value reads in a finding: `y`, `m`, `not set`, `absent`, `y (selected by X)`.
fn show(c: &KConfig, name: &str) -> String {
    match c.entry(name) {
        None => "absent".into(),
        Some(e) => {
            let v = match &e.value {
                Value::No => "not set".to_string(),
                v => v.to_string(),
            };
            match &e.origin {
                Origin::Line(l) => format!("{v} (line {l})"),
                Origin::ImpliedBy(p) => format!("{v} (selected by {p})"),
            }
        }
    }
}

fn short(c: &KConfig, name: &str) -> String {
    match c.entry(name) {
        None => "absent".into(),
        Some(e) if e.value == Value::No => "not set".into(),
        Some(e) => e.value.to_string(),
    }
}

fn change(base: &KConfig, patched: &KConfig, name: &str) -> String {
    format!("{name} ({} → {})", short(base, name), short(patched, name))
}

fn affected_text(rules: &[&OptionRule], benchmarks: &[String]) -> String {
    let mut hurts: Vec<&str> = Vec::new();
    let mut hit: BTreeSet<&str> = BTreeSet::new();
    for r in rules {
        for h in &r.hurts {
            if !hurts.contains(&h.as_str()) {
                hurts.push(h);
            }
        }
        hit.extend(r.affected(benchmarks));
    }
    let mut s = String::new();
    if !hurts.is_empty() {
        s.push_str(&format!(" Hurts most: {}.", hurts.join(", ")));
    }
    if !benchmarks.is_empty() {
        if hit.is_empty() {
            s.push_str(" None of the benchmarks in this data is in its most affected group.");
        } else {
            let list: Vec<&str> = hit.into_iter().take(12).collect();
            s.push_str(&format!(
                " Benchmarks in this data it most likely distorts: {}.",
                list.join(", ")
            ));
        }
    }
    s
}

fn caveat_text(base: &KConfig, patched: &KConfig, r: &OptionRule) -> String {
    match &r.caveat {
        Some(c) if base.get(&c.when).is_on() || patched.get(&c.when).is_on() => {
            format!(" Note: {}.", c.text)
        }
        _ => String::new(),
    }
}

fn single(
    base: &KConfig,
    patched: &KConfig,
    name: &str,
    r: &OptionRule,
    benchmarks: &[String],
) -> Finding {
    let (b, p) = (base.get(name), patched.get(name));
    let what = match r.kind {
        Kind::Debug => "debug option",
        Kind::Setting => "setting",
    };
    let title = match (b.is_on(), p.is_on()) {
        (false, true) => format!(
            "{what} {name} is on in the patched kernel only ({} cost)",
            r.class.as_str()
        ),
        (true, false) => format!(
            "{what} {name} is on in the baseline kernel only ({} cost)",
            r.class.as_str()
        ),
        _ => format!(
            "{what} {name} differs: {b} vs {p} ({} cost)",
            r.class.as_str()
        ),
    };
    let evidence = format!(
        "{name}: baseline {} = {}; patched {} = {}. {}.{}{}",
        base.path.display(),
        show(base, name),
        patched.path.display(),
        show(patched, name),
        capitalise(&r.why),
        affected_text(&[r], benchmarks),
        caveat_text(base, patched, r),
    );
    let advice = match r.kind {
        Kind::Debug => format!(
            "Rebuild with {name} off on both sides (one .config, `make olddefconfig`) and measure again."
        ),
        Kind::Setting => format!("Use the same {name} setting on both kernels, or report the results as a comparison of configurations."),
    };
    let code = match r.kind {
        Kind::Debug => FindingCode::KconfigDebugDiffers,
        Kind::Setting => FindingCode::KconfigSettingDiffers,
    };
    Finding::new(level(r), code, title, evidence, advice)
}

fn group_finding(
    base: &KConfig,
    patched: &KConfig,
    group: &str,
    members: &[(&str, &OptionRule)],
    rules: &Rules,
    benchmarks: &[String],
) -> Finding {
    let sev = members
        .iter()
        .map(|(_, r)| level(r))
        .min()
        .unwrap_or(Severity::Warning);
    // Every option of the group that is on, per side, for the title.
    let on = |c: &KConfig| -> String {
        let list: Vec<String> = c
            .options
            .iter()
            .filter(|(n, e)| {
                e.value.is_on()
                    && rules
                        .rule_for(n)
                        .is_some_and(|r| r.group.as_deref() == Some(group))
            })
            .map(|(n, e)| match e.value {
                Value::Yes => n.clone(),
                _ => format!("{n}={}", e.value),
            })
            .collect();
        if list.is_empty() {
            "none".into()
        } else {
            list.join(", ")
        }
    };
    let title = format!(
        "different {group}: baseline {} vs patched {}",
        on(base),
        on(patched)
    );
    let changes: Vec<String> = members
        .iter()
        .map(|(n, _)| change(base, patched, n))
        .collect();
    let mut whys: Vec<String> = Vec::new();
    for (_, r) in members {
        let w = capitalise(&r.why);
        if !whys.contains(&w) {
            whys.push(w);
        }
    }
    let rs: Vec<&OptionRule> = members.iter().map(|(_, r)| *r).collect();
    let cav: String = rs.iter().map(|r| caveat_text(base, patched, r)).collect();
    let evidence = format!(
        "Changed ({} → {}): {}. {}.{}{}",
        base.path.display(),
        patched.path.display(),
        changes.join("; "),
        whys.join(". "),
        affected_text(&rs, benchmarks),
        cav
    );
    let advice = format!(
        "Build both kernels with the same {group} setting, or present the results as a comparison of two {group} settings rather than of the patch."
    );
    let slug: String = group
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    Finding::new(
        sev,
        FindingCode::KconfigGroup(slug),
        title,
        evidence,
        advice,
    )
}

fn both_on_finding(base: &KConfig, both: &[(&str, &OptionRule)]) -> Finding {
    let list: Vec<String> = both
        .iter()
        .map(|(n, r)| match base.get(n) {
            Value::Yes => format!("{n} ({})", r.class.as_str()),
            v => format!("{n}={v} ({})", r.class.as_str()),
        })
        .collect();
    let severe = both
        .iter()
        .filter(|(_, r)| r.class == Class::Severe)
        .count();
    Finding::new(
        Severity::Warning,
        FindingCode::KconfigDebugBoth,
        format!(
            "{} debug option{} on in both kernels ({severe} severe): absolute numbers are not representative of a production kernel",
            both.len(),
            if both.len() == 1 { " is" } else { "s are" }
        ),
        format!("On in both configs: {}.", list.join(", ")),
        "The relative change may still hold, but debug overhead can hide or inflate the patch's effect; measure on a production-like config before quoting numbers.",
    )
}

fn info_finding(
    code: FindingCode,
    what: &str,
    meaning: &str,
    changes: &[(String, Value, Value)],
    base: &KConfig,
    patched: &KConfig,
) -> Finding {
    let only_base = changes
        .iter()
        .filter(|(_, b, p)| b.is_on() && !p.is_on())
        .count();
    let only_patched = changes
        .iter()
        .filter(|(_, b, p)| !b.is_on() && p.is_on())
        .count();
    let changed = changes.len() - only_base - only_patched;
    let mut shown: Vec<String> = changes
        .iter()
        .take(LIST_LIMIT)
        .map(|(n, _, _)| change(base, patched, n))
        .collect();
    if changes.len() > LIST_LIMIT {
        shown.push("…".into());
    }
    Finding::new(
        Severity::Info,
        code,
        format!(
            "{} {what} differ ({only_base} on in the baseline only, {only_patched} in the patched only, {changed} changed value)",
            changes.len()
        ),
        format!("{}: {}.", capitalise(meaning), shown.join(", ")),
        "Nothing to do unless the benchmark exercises one of these.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn cfg(name: &str, text: &str) -> KConfig {
        KConfig::parse(Path::new(name), text).unwrap()
    }

    #[test]
    fn identical_configs_give_nothing() {
        let a = cfg(
            "a",
            "CONFIG_PREEMPT_VOLUNTARY=y\n# CONFIG_KASAN is not set\nCONFIG_HZ_1000=y\n",
        );
        assert!(kconfig_findings(&a, &a, &Rules::builtin(), &[]).is_empty());
    }

    #[test]
    fn debug_option_on_one_side_is_an_error_with_implied_options() {
        let a = cfg(
            "base.config",
            "# CONFIG_PROVE_LOCKING is not set\nCONFIG_FOO=y\n",
        );
        let b = cfg("patched.config", "CONFIG_PROVE_LOCKING=y\nCONFIG_FOO=y\n");
        let bench = vec!["futex-wake".to_string(), "make".to_string()];
        let f = kconfig_findings(&a, &b, &Rules::builtin(), &bench);
        let errors: Vec<&Finding> = f.iter().filter(|f| f.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 1, "{f:#?}");
        let e = errors[0];
        assert_eq!(e.code, "kconfig-debug-differs");
        assert!(e
            .title
            .contains("PROVE_LOCKING is on in the patched kernel only (severe cost)"));
        assert!(
            e.evidence
                .contains("baseline base.config = not set (line 1)"),
            "{}",
            e.evidence
        );
        assert!(e.evidence.contains("patched patched.config = y (line 1)"));
        assert!(
            e.evidence.contains("most likely distorts: futex-wake."),
            "{}",
            e.evidence
        );
        assert!(
            e.evidence
                .contains("also selects DEBUG_LOCK_ALLOC, DEBUG_MUTEXES"),
            "{}",
            e.evidence
        );
    }

    #[test]
    fn same_debug_option_on_both_sides_warns_once() {
        let a = cfg(
            "a",
            "CONFIG_KASAN=y\nCONFIG_LOCK_STAT=y\nCONFIG_DEBUG_LIST=y\nCONFIG_DEBUG_VM=y\n",
        );
        let f = kconfig_findings(&a, &a, &Rules::builtin(), &[]);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].code, "kconfig-debug-both");
        // LOCK_STAT selects LOCKDEP; DEBUG_LIST and DEBUG_VM ship in production kernels.
        assert!(
            f[0].title
                .starts_with("3 debug options are on in both kernels (3 severe)"),
            "{}",
            f[0].title
        );
        assert!(!f[0].evidence.contains("DEBUG_LIST"));
    }

    #[test]
    fn caveats_change_the_class() {
        let r = Rules::builtin();
        // UBSAN in trap mode on both sides is hardening, not a debug kernel.
        let trap = cfg(
            "a",
            "CONFIG_UBSAN=y\nCONFIG_UBSAN_BOUNDS=y\nCONFIG_UBSAN_TRAP=y\n",
        );
        assert!(kconfig_findings(&trap, &trap, &r, &[]).is_empty());
        let report = cfg("b", "CONFIG_UBSAN=y\nCONFIG_UBSAN_BOUNDS=y\n");
        let f = kconfig_findings(&report, &report, &r, &[]);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].evidence.contains("UBSAN (moderate)"),
            "{}",
            f[0].evidence
        );
        // DEBUG_PAGEALLOC is cheap while off at boot, severe when on by default.
        let off = cfg("off", "# CONFIG_DEBUG_PAGEALLOC is not set\n");
        let built = cfg("built", "CONFIG_DEBUG_PAGEALLOC=y\n");
        let on = cfg(
            "on",
            "CONFIG_DEBUG_PAGEALLOC=y\nCONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT=y\n",
        );
        assert_eq!(
            kconfig_findings(&off, &built, &r, &[])[0].severity,
            Severity::Warning
        );
        let f = kconfig_findings(&off, &on, &r, &[]);
        let titles: Vec<&str> = f.iter().map(|f| f.title.as_str()).collect();
        assert!(
            titles.contains(
                &"debug option DEBUG_PAGEALLOC is on in the patched kernel only (severe cost)"
            ),
            "{titles:?}"
        );
        assert!(f.iter().take(2).all(|f| f.severity == Severity::Error));
    }

    #[test]
    fn renamed_options_compare_equal() {
        let old = cfg("old", "CONFIG_RETPOLINE=y\nCONFIG_PAGE_TABLE_ISOLATION=y\n");
        let new = cfg(
            "new",
            "CONFIG_MITIGATION_RETPOLINE=y\nCONFIG_MITIGATION_PAGE_TABLE_ISOLATION=y\n",
        );
        assert!(kconfig_findings(&old, &new, &Rules::builtin(), &[]).is_empty());
        let off = cfg(
            "off",
            "# CONFIG_MITIGATION_RETPOLINE is not set\nCONFIG_MITIGATION_PAGE_TABLE_ISOLATION=y\n",
        );
        let f = kconfig_findings(&old, &off, &Rules::builtin(), &[]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].code, "kconfig-cpu-mitigations");
        assert!(
            f[0].evidence.contains("MITIGATION_RETPOLINE (y → not set)"),
            "{}",
            f[0].evidence
        );
    }

    #[test]
    fn module_vs_builtin_and_harmless_options() {
        let a = cfg("a", "CONFIG_LOCK_TORTURE_TEST=m\nCONFIG_ATH_DEBUG=y\n");
        let b = cfg(
            "b",
            "CONFIG_LOCK_TORTURE_TEST=y\n# CONFIG_ATH_DEBUG is not set\n",
        );
        let f = kconfig_findings(&a, &b, &Rules::builtin(), &[]);
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].title.contains("LOCK_TORTURE_TEST differs: m vs y"),
            "{}",
            f[0].title
        );
        assert_eq!(f[1].severity, Severity::Info);
        assert!(f[1].title.starts_with(
            "1 debug, test or production-grade options differ (1 on in the baseline only"
        ));
        // A test module that is only built as a module costs nothing until loaded.
        let c = cfg(
            "c",
            "# CONFIG_LOCK_TORTURE_TEST is not set\nCONFIG_ATH_DEBUG=y\n",
        );
        let f = kconfig_findings(&a, &c, &Rules::builtin(), &[]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Info);
    }
}
