//! Sums, means and standard deviations in the exact floating-point order
//! NumPy uses, so that statistics computed here match Otava's bit for bit
//! (a different summation order moves a p-value by a few ulps, which is
//! enough to flip a tie or a threshold in rare series).

/// NumPy's pairwise summation of a contiguous float64 array
/// (`pairwise_sum_DOUBLE`): sequential below 8 values, eight interleaved
/// accumulators up to 128, halves (rounded down to a multiple of 8) above.
pub fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &x in a {
            res += x;
        }
        res
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - (n % 8) {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += a[i];
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise_sum(&a[..n2]) + pairwise_sum(&a[n2..])
    }
}

/// `np.mean`: the pairwise sum (after the reduction's initial 0.0) over n.
pub fn mean(a: &[f64]) -> f64 {
    (0.0 + pairwise_sum(a)) / a.len() as f64
}

/// `np.std` with `ddof=0`: mean, deviations squared, their pairwise sum
/// over n, square root.
pub fn std(a: &[f64]) -> f64 {
    let m = mean(a);
    let sq: Vec<f64> = a
        .iter()
        .map(|&x| {
            let d = x - m;
            d * d
        })
        .collect();
    ((0.0 + pairwise_sum(&sq)) / a.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_order_differs_from_a_plain_loop_where_numpy_does() {
        // np.sum([0.1] * 10) == 1.0 (pairwise); a plain loop gives
        // 0.9999999999999999.
        let xs = [0.1; 10];
        assert_eq!(pairwise_sum(&xs), 1.0);
        assert_eq!(xs.iter().sum::<f64>(), 0.9999999999999999);
        // np.std([1, 2, 3, 4]) == 1.118033988749895
        assert_eq!(std(&[1.0, 2.0, 3.0, 4.0]), 1.118033988749895);
    }
}
