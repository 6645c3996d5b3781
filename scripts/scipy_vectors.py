#!/usr/bin/env python3
"""Generate the SciPy oracle fixtures for tests/stats_oracle.rs.

Writes tests/data/scipy/{mannwhitneyu,welch,welch_stats,bh,holm,bootstrap}.json
(Holm adjusted p-values come from statsmodels, SciPy has none).
Every case holds its inputs and SciPy's outputs; the Rust tests recompute
them with patchperf's stats module. Deterministic (fixed seed): rerunning
with the same SciPy version rewrites identical files.

    pip install scipy numpy statsmodels
    python3 scripts/scipy_vectors.py
"""

import json
import math
import os
import sys

import numpy as np
import scipy
from scipy import stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "scipy")
rng = np.random.default_rng(20261130)


def r6(a):
    """Round to 6 significant digits so that JSON readers parse values exactly
    enough that order and ties never depend on the last bit."""
    return [float(f"{v:.6g}") for v in a]


def num(v):
    v = float(v)
    return v if math.isfinite(v) else None


def sample(n, kind, shift=0.0, scale=1.0, ties=False):
    if kind == "normal":
        x = rng.normal(10.0 + shift, 1.0, n)
    elif kind == "lognormal":
        x = rng.lognormal(1.0 + shift / 10, 0.5, n)
    else:  # heavy tail
        x = 10.0 + shift + rng.standard_t(2, n)
    if ties:
        x = np.round(x * 2) / 2
    return r6(x * scale)


def mwu_cases():
    cases = []
    # Exact, no ties: one side <= 8 (SciPy's auto picks exact), other up to 500.
    sizes = [(2, 2), (2, 5), (3, 3), (3, 7), (4, 4), (4, 9), (5, 5), (5, 12), (6, 6), (6, 20),
             (7, 7), (7, 40), (8, 8), (8, 3), (8, 60), (2, 100), (3, 250), (5, 500), (8, 200), (1, 6)]
    for i, (n1, n2) in enumerate(sizes):
        for shift in (0.0, 0.8, 2.5):
            x = sample(n1, ["normal", "lognormal", "t"][i % 3])
            y = sample(n2, ["normal", "lognormal", "t"][(i + 1) % 3], shift=shift)
            if len(set(x + y)) < len(x + y):
                continue
            r = stats.mannwhitneyu(x, y, method="exact")
            cases.append({"x": x, "y": y, "method": "exact", "u": num(r.statistic), "p": num(r.pvalue)})
    # Fully separated 5 vs 5 (seed 002 shape) and reversed.
    a, b = [2.978, 2.982, 3.01, 2.984, 2.981], [3.733, 3.75, 3.761, 3.737, 3.741]
    for x, y in ((a, b), (b, a)):
        r = stats.mannwhitneyu(x, y, method="exact")
        cases.append({"x": x, "y": y, "method": "exact", "u": num(r.statistic), "p": num(r.pvalue)})
    # Exact with ties: the conditional permutation distribution, enumerated.
    perm = stats.PermutationMethod(n_resamples=np.inf)
    for n1, n2 in [(3, 3), (4, 4), (5, 5), (4, 7), (6, 6), (8, 8), (3, 8), (2, 8), (7, 5), (5, 3),
                   (4, 20), (20, 4), (3, 40), (2, 60)]:
        for shift in (0.0, 1.0):
            x = sample(n1, "normal", ties=True)
            y = sample(n2, "normal", shift=shift, ties=True)
            r = stats.mannwhitneyu(x, y, method=perm)
            cases.append({"x": x, "y": y, "method": "exact", "u": num(r.statistic), "p": num(r.pvalue)})
    seed002 = ([2.978, 2.982, 3.01, 2.984, 2.982], [3.733, 3.75, 3.761, 3.737, 3.741])
    r = stats.mannwhitneyu(*seed002, method=perm)
    cases.append({"x": seed002[0], "y": seed002[1], "method": "exact", "u": num(r.statistic), "p": num(r.pvalue)})
    # Asymptotic (tie- and continuity-corrected), both sides > 8, with and
    # without ties, magnitudes from 1e-12 to 1e12.
    sizes = [(9, 9), (10, 10), (12, 15), (20, 20), (30, 45), (50, 50), (100, 80), (200, 200),
             (500, 500), (500, 9), (60, 300), (15, 400)]
    for i, (n1, n2) in enumerate(sizes):
        for shift in (0.0, 0.3, 1.5):
            for ties in (False, True):
                scale = [1.0, 1e-12, 1e12, 1e-3][(i + int(ties)) % 4]
                x = sample(n1, ["normal", "lognormal", "t"][i % 3], scale=scale, ties=ties)
                y = sample(n2, ["normal", "lognormal", "t"][i % 3], shift=shift, scale=scale, ties=ties)
                r = stats.mannwhitneyu(x, y, method="asymptotic")
                cases.append({"x": x, "y": y, "method": "asymptotic", "u": num(r.statistic), "p": num(r.pvalue)})
    # Identical and constant samples.
    for n in (3, 12, 40):
        x = [5.0] * n
        r = stats.mannwhitneyu(x, x, method="asymptotic")
        cases.append({"x": x, "y": x, "method": "asymptotic", "u": num(r.statistic), "p": num(r.pvalue)})
    x = sample(20, "normal")
    r = stats.mannwhitneyu(x, x, method="asymptotic")
    cases.append({"x": x, "y": x, "method": "asymptotic", "u": num(r.statistic), "p": num(r.pvalue)})
    return cases


def welch_cases():
    cases = []
    sizes = [(2, 2), (2, 3), (3, 3), (4, 6), (5, 5), (8, 12), (10, 10), (20, 7), (30, 30),
             (50, 80), (100, 100), (200, 30), (500, 500), (500, 2)]
    for i, (n1, n2) in enumerate(sizes):
        for shift in (0.0, 0.5, 3.0):
            scale = [1.0, 1e-9, 1e9][i % 3]
            x = sample(n1, ["normal", "lognormal", "t"][i % 3], scale=scale)
            y = sample(n2, ["normal", "lognormal", "t"][(i + 2) % 3], shift=shift, scale=scale)
            r = stats.ttest_ind(x, y, equal_var=False)
            cases.append({"x": x, "y": y, "t": num(r.statistic), "df": num(r.df), "p": num(r.pvalue)})
    return cases


def welch_stats_cases():
    cases = []

    def add(m1, s1, n1, m2, s2, n2, label=""):
        r = stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, equal_var=False)
        cases.append({"m1": m1, "s1": s1, "n1": n1, "m2": m2, "s2": s2, "n2": n2,
                      "t": num(r.statistic), "p": num(r.pvalue), "label": label})

    # Seed 003, both tables, with n = 10 assumed; seed 000 at n = 5000.
    t1 = [(512, 4.2410, 0.9762, 12.3660, 5.1020), (256, 2.7750, 0.3997, 7.0220, 2.9436),
          (128, 1.4910, 0.4188, 3.7430, 0.8223), (64, 0.8970, 0.3455, 2.5570, 0.3710),
          (32, 0.3620, 0.2242, 1.1300, 0.4716)]
    for th, a, b, c, d in t1:
        add(a, b, 10, c, d, 10, f"seed003 table1 threads={th}")
    t2 = [(512, 2.8360, 0.5168, 4.4100, 1.1150, 3.8150, 1.3293),
          (256, 2.5080, 0.6375, 2.3070, 0.5112, 2.5980, 0.9079),
          (128, 1.0200, 0.4264, 1.3980, 0.3391, 1.5180, 0.4902),
          (64, 0.7890, 0.2667, 0.6970, 0.3374, 0.4020, 0.2447),
          (32, 0.1150, 0.0184, 0.1870, 0.1428, 0.1490, 0.1156)]
    for th, bm, bs, rm, rs, am, as_ in t2:
        add(bm, bs, 10, rm, rs, 10, f"seed003 table2 threads={th} barrier")
        add(bm, bs, 10, am, as_, 10, f"seed003 table2 threads={th} atomicops")
    add(6656.73, 539.35, 5000, 6787.97, 479.41, 5000, "seed000 SCHED_OTHER")
    add(6656.85, 463.30, 5000, 9720.12, 426.45, 5000, "seed000 SCHED_FIFO")
    for _ in range(60):
        n1, n2 = int(rng.integers(2, 501)), int(rng.integers(2, 501))
        m1 = float(f"{rng.uniform(-5, 5) * 10.0 ** int(rng.integers(-6, 7)):.6g}")
        s1 = float(f"{abs(m1) * rng.uniform(0.001, 0.5) + 1e-12:.6g}")
        m2 = float(f"{m1 * (1 + rng.normal(0, 0.05)):.6g}")
        s2 = float(f"{s1 * rng.uniform(0.3, 3):.6g}")
        add(m1, s1, n1, m2, s2, n2)
    add(1.0, 0.0, 5, 2.0, 0.0, 5, "no spread")
    return cases


def bh_cases():
    cases = []
    for m in (1, 2, 3, 5, 10, 10, 15, 20, 50, 100, 200, 500):
        p = rng.uniform(0, 1, m) ** rng.uniform(1, 6)
        p = r6(p)
        if m >= 10:
            p[0] = p[1]  # a tie
        q = stats.false_discovery_control(p, method="bh")
        cases.append({"p": p, "q": [float(v) for v in q]})
    return cases


def holm_cases():
    from statsmodels.stats.multitest import multipletests

    cases = []
    for m in (1, 2, 4, 7, 10, 25, 100, 300):
        p = r6(rng.uniform(0, 1, m) ** rng.uniform(1, 8))
        if m >= 4:
            p[1] = p[2]  # a tie
        adj = multipletests(p, method="holm")[1]
        cases.append({"p": p, "adjusted": [float(v) for v in adj]})
    return cases


def bootstrap_cases():
    """SciPy's percentile bootstrap of the ratio of medians, as a sanity range
    only: resampling differs, so the tests allow a tolerance."""
    cases = []
    for n1, n2, shift in [(10, 10, 0.0), (10, 10, 1.0), (30, 25, 0.5), (50, 50, 0.0), (20, 40, 2.0)]:
        x = sample(n1, "normal")
        y = sample(n2, "normal", shift=shift)
        res = stats.bootstrap((np.array(x), np.array(y)),
                              lambda a, b, axis: np.median(b, axis=axis) / np.median(a, axis=axis),
                              n_resamples=20000, method="percentile", vectorized=True,
                              rng=np.random.default_rng(1))
        cases.append({"x": x, "y": y, "centre": "median",
                      "low": float(res.confidence_interval.low), "high": float(res.confidence_interval.high)})
    return cases


def t_quantile_cases():
    """Student's t quantiles across degrees of freedom, large ones included
    (power searches reach df in the millions)."""
    cases = []
    for df in (1, 2, 3, 5, 10, 30, 100, 999, 1000, 1001, 5000, 1e4, 1e5, 784766, 1e6, 1e7, 1e9):
        for p in (0.6, 0.8, 0.9, 0.975, 0.995, 0.9995):
            cases.append({"df": float(df), "p": p, "q": float(stats.t.ppf(p, df))})
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    meta = {"generator": "scripts/scipy_vectors.py", "scipy": scipy.__version__, "numpy": np.__version__}
    total = 0
    for name, fn in [("mannwhitneyu", mwu_cases), ("welch", welch_cases), ("welch_stats", welch_stats_cases),
                     ("bh", bh_cases), ("holm", holm_cases), ("bootstrap", bootstrap_cases),
                     ("t_quantile", t_quantile_cases)]:
        cases = fn()
        total += len(cases)
        with open(os.path.join(OUT, f"{name}.json"), "w") as f:
            json.dump({"meta": meta, "cases": cases}, f, indent=None, separators=(",", ":"))
            f.write("\n")
        print(f"{name}: {len(cases)} cases", file=sys.stderr)
    print(f"total: {total} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
