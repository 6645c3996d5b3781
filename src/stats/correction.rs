//! Multiple-comparison corrections: Benjamini–Hochberg q-values (false
//! discovery rate; SciPy's `false_discovery_control(method="bh")`) and Holm's
//! step-down adjusted p-values (family-wise error rate).

/// BH q-values in the input order: q_(i) = min_{j ≥ i} p_(j) · m / j, at most 1.
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut q = vec![0.0; m];
    let mut running = 1.0f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        let v = p[i] * m as f64 / (rank + 1) as f64;
        running = running.min(v);
        q[i] = running.min(1.0);
    }
    q
}

/// Holm adjusted p-values in the input order:
/// p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j)).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; m];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        let v = ((m - rank) as f64 * p[i]).min(1.0);
        running = running.max(v);
        out[i] = running;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bh_matches_scipy() {
        // scipy.stats.false_discovery_control([0.01, 0.04, 0.03, 0.005, 0.5])
        let q = benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005, 0.5]);
        let want = [0.025, 0.05, 0.05, 0.025, 0.5];
        for (a, b) in q.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{q:?}");
        }
        assert!(benjamini_hochberg(&[]).is_empty());
    }

    #[test]
    fn holm_steps_down() {
        // m = 4: 0.01*4, 0.02*3, 0.03*2 → max-accumulated, 0.5*1
        let h = holm(&[0.03, 0.01, 0.5, 0.02]);
        assert_eq!(h, vec![0.06, 0.04, 0.5, 0.06]);
    }
}
