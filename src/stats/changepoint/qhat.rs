//! The E-divisive means statistic Q̂ (Matteson & James, α = 1) over every
//! split of an interval, with the recurrences of Otava's `MATH.md`: with
//! `D(i, j) = |x_i − x_j|`, `V(τ) = Σ_{start ≤ r < τ} D(r, τ)` and
//! `H(τ, κ) = Σ_{τ < j < κ} D(τ, j)`, Q̂(τ, κ) = A − B − C where A sums the
//! cross distances, B the within-left and C the within-right ones.
//!
//! The arithmetic follows NumPy's evaluation of Otava's matrix expressions
//! operation by operation (which sums run forwards, which backwards, where
//! a difference of prefix sums replaces a direct sum), so that Q̂ and hence
//! the arg-max agree exactly, ties included. The matrices are not built:
//! each column of (τ, κ) is computed with O(m) memory.

/// The Q̂ calculator of one window of a series.
pub struct Calculator<'a> {
    x: &'a [f64],
    /// `V[c] = Σ_{r ≤ c} D(r, c + 1)`, summed in order of r.
    v: Vec<f64>,
    /// `H[r][c] = Σ_{r < j ≤ c + 1} D(r, j)` (0 for c < r), row-major,
    /// `n − 1` columns.
    h: Vec<f64>,
}

/// The best split of an interval: `index` is τ, the first point of the
/// right part, in the window's indexes; `qhat` its statistic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// τ, the first point of the right part.
    pub index: usize,
    /// The split's statistic (Q̂).
    pub qhat: f64,
}

impl<'a> Calculator<'a> {
    /// Precomputes V and H for `x` (the window).
    pub fn new(x: &'a [f64]) -> Calculator<'a> {
        let n = x.len();
        let w = n.saturating_sub(1);
        let d = |i: usize, j: usize| (x[i] - x[j]).abs();
        let mut v = vec![0.0; w];
        for (c, vc) in v.iter_mut().enumerate() {
            let mut s = 0.0;
            for r in 0..=c {
                s += d(r, c + 1);
            }
            *vc = s;
        }
        let mut h = vec![0.0; w * w];
        for r in 0..w {
            let mut s = 0.0;
            for c in r..w {
                s += d(r, c + 1);
                h[r * w + c] = s;
            }
        }
        Calculator { x, v, h }
    }

    fn h(&self, r: usize, c: usize) -> f64 {
        self.h[r * (self.x.len() - 1) + c]
    }

    /// The split of `x[start..end]` (at least 2 points) maximising Q̂ over
    /// every `start < τ < κ ≤ end`, the first in row-major (τ, κ) order on
    /// ties. Like NumPy's `argmax` over the full square matrix, the zeros
    /// below its diagonal take part: when every split has Q̂ < 0 the answer
    /// is τ = start + 2 with Q̂ = 0.
    pub fn best_split(&self, start: usize, end: usize) -> Candidate {
        let m = end - 1 - start;
        debug_assert!(m >= 1);
        // V over the interval: the global prefix minus the rows before it.
        let mut cum_v = Vec::with_capacity(m);
        let mut acc = 0.0;
        for t in 0..m {
            let col = start + t + 1;
            let mut before = 0.0;
            for r in 0..start {
                before += (self.x[r] - self.x[col]).abs();
            }
            acc += self.v[start + t] - before;
            cum_v.push(acc);
        }
        // Best (value, a, b) in row-major order of the m × m matrix.
        let mut best = (f64::NEG_INFINITY, usize::MAX, usize::MAX);
        // NumPy's argmax: the first NaN wins (values so large that their
        // distances overflow); otherwise the first maximum.
        let mut consider = |q: f64, a: usize, b: usize| {
            let earlier = (a, b) < (best.1, best.2);
            let better = match (q.is_nan(), best.0.is_nan()) {
                (true, true) => earlier,
                (true, false) => true,
                (false, true) => false,
                (false, false) => q > best.0 || (q == best.0 && earlier),
            };
            if better {
                best = (q, a, b);
            }
        };
        let mut below = vec![0.0; m];
        for b in 0..m {
            // C's column: H summed from the last row up to row a + 1.
            let mut s = 0.0;
            for a in (0..m).rev() {
                below[a] = s;
                if a >= 1 {
                    s += self.h(start + a, start + b);
                }
            }
            let _ = s;
            let mut down = 0.0;
            for (a, &bel) in below.iter().enumerate() {
                down += self.h(start + a, start + b);
                if b < a {
                    continue;
                }
                let a_coef = 2.0 / (b + 2) as f64;
                let av = a_coef * (down - if a >= 1 { cum_v[a - 1] } else { 0.0 });
                let bv = if a >= 1 {
                    (2 * (b - a + 1)) as f64 / ((b + 2) * a) as f64 * cum_v[a - 1]
                } else {
                    0.0
                };
                let cv = if b > a && a + 1 < m {
                    (2 * (a + 1)) as f64 / ((b + 2) * (b - a)) as f64 * bel
                } else {
                    0.0
                };
                consider(av - bv - cv, a, b);
            }
        }
        // The zeros below the diagonal: the first is (1, 0).
        if m >= 2 {
            consider(0.0, 1, 0);
        }
        Candidate {
            index: best.1 + 1 + start,
            qhat: best.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflowing_distances_give_a_split_not_a_panic() {
        let x = [1e308, -1e308, 1e308, -1e308, 5.0];
        let c = Calculator::new(&x).best_split(0, x.len());
        assert!((1..x.len()).contains(&c.index));
    }
}
