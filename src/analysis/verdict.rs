//! Multiple-comparison correction over the whole family, then one verdict
//! per comparison.

use super::{Comparison, Correction, Settings, Verdict};
use crate::model::Direction;
use crate::stats::correction::{benjamini_hochberg, holm};
use crate::stats::pvalue::clamp_p;

/// Fills `q_value` of every tested comparison (the family is every
/// comparison with a p-value) and gives each its verdict.
pub(crate) fn decide(comparisons: &mut [Comparison], settings: &Settings) {
    let idx: Vec<usize> = (0..comparisons.len())
        .filter(|&i| comparisons[i].p_value.is_some())
        .collect();
    let p: Vec<f64> = idx
        .iter()
        .map(|&i| comparisons[i].p_value.unwrap_or(1.0))
        .collect();
    let q = match settings.correction {
        Correction::Bh => benjamini_hochberg(&p),
        Correction::Holm => holm(&p),
        Correction::None => p.clone(),
    };
    for (k, &i) in idx.iter().enumerate() {
        comparisons[i].q_value = Some(clamp_p(q[k]));
    }
    for c in comparisons.iter_mut() {
        c.verdict = verdict(c, settings);
    }
}

/// The verdict of one comparison whose q-value is set.
///
/// Significance (after correction) decides improved/regressed whatever the
/// size; the threshold decides equivalence: not significant with the whole
/// CI of the change inside ±threshold is `unchanged`, anything wider is
/// `inconclusive`.
pub(crate) fn verdict(c: &Comparison, settings: &Settings) -> Verdict {
    let Some(q) = c.q_value.or(c.p_value) else {
        return Verdict::Untestable;
    };
    if q < settings.alpha {
        let sign = if c.change_pct.is_finite() && c.change_pct != 0.0 {
            c.change_pct.signum()
        } else {
            c.effect_size.unwrap_or(0.0).signum()
        };
        return match (c.direction, sign) {
            (Direction::Lower, s) if s > 0.0 => Verdict::Regressed,
            (Direction::Lower, s) if s < 0.0 => Verdict::Improved,
            (Direction::Higher, s) if s > 0.0 => Verdict::Improved,
            (Direction::Higher, s) if s < 0.0 => Verdict::Regressed,
            _ => Verdict::Changed,
        };
    }
    let t = settings.threshold_pct.abs();
    match (c.ci_low_pct, c.ci_high_pct) {
        (Some(lo), Some(hi)) if lo >= -t && hi <= t => Verdict::Unchanged,
        _ => Verdict::Inconclusive,
    }
}

/// True when `c` should trip `--fail-on-regression`: regressed and the
/// change at least the threshold.
pub fn trips_gate(c: &Comparison, threshold_pct: f64) -> bool {
    c.verdict == Verdict::Regressed && c.change_pct.abs() >= threshold_pct.abs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Center, TestKind};

    fn comp(p: Option<f64>, change: f64, ci: (f64, f64), dir: Direction) -> Comparison {
        Comparison {
            benchmark: "b".into(),
            params: String::new(),
            metric: "m".into(),
            unit: "s".into(),
            direction: dir,
            baseline: "a".into(),
            variant: "b".into(),
            n_baseline: Some(10),
            n_variant: Some(10),
            baseline_center: 1.0,
            variant_center: 1.0 + change / 100.0,
            center: Center::Mean,
            change_pct: change,
            ci_low_pct: Some(ci.0),
            ci_high_pct: Some(ci.1),
            test: TestKind::Welch,
            p_value: p,
            ..Comparison::default()
        }
    }

    #[test]
    fn verdicts_follow_direction_correction_and_equivalence() {
        let s = Settings::default();
        let mut cs = vec![
            comp(Some(0.001), 5.0, (2.0, 8.0), Direction::Lower),
            comp(Some(0.001), 5.0, (2.0, 8.0), Direction::Higher),
            comp(Some(0.001), 5.0, (2.0, 8.0), Direction::Unknown),
            comp(Some(0.6), 0.5, (-1.0, 1.5), Direction::Lower),
            comp(Some(0.6), 0.5, (-4.0, 5.0), Direction::Lower),
            comp(None, 10.0, (0.0, 0.0), Direction::Lower),
        ];
        decide(&mut cs, &s);
        let v: Vec<Verdict> = cs.iter().map(|c| c.verdict).collect();
        assert_eq!(
            v,
            vec![
                Verdict::Regressed,
                Verdict::Improved,
                Verdict::Changed,
                Verdict::Unchanged,
                Verdict::Inconclusive,
                Verdict::Untestable
            ]
        );
        // BH over the 5 tested: 0.001 * 5 / 3 for the three smallest.
        assert!((cs[0].q_value.unwrap() - 0.005 / 3.0).abs() < 1e-15);
        assert_eq!(cs[5].q_value, None);
        assert!(trips_gate(&cs[0], 2.0));
        assert!(!trips_gate(&cs[0], 6.0));
    }

    #[test]
    fn correction_can_remove_significance() {
        let s = Settings {
            correction: Correction::Holm,
            ..Settings::default()
        };
        let mut cs: Vec<Comparison> = (0..4)
            .map(|_| comp(Some(0.02), 5.0, (1.0, 9.0), Direction::Lower))
            .collect();
        decide(&mut cs, &s);
        assert!(cs.iter().all(|c| c.verdict == Verdict::Inconclusive));
        let s = Settings {
            correction: Correction::None,
            ..Settings::default()
        };
        decide(&mut cs, &s);
        assert!(cs.iter().all(|c| c.verdict == Verdict::Regressed));
    }
}
