#!/usr/bin/env python3
"""Writes the change-point fixtures of patchperf's Otava parity test.

Expectations come from the real Apache Otava package:

    pip install apache-otava==0.8.0
    python3 scripts/otava_fixtures.py

1. tests/data/history/tigerbeetle.json holds the TigerBeetle series and the
   parameter sets of Otava's tests/tigerbeetle_test.py with the indexes that
   test asserts; this script checks that the package gives them and adds its
   own answer ("otava") to each case.
2. tests/data/history/otava_generated.json: seeded generated series (steps,
   trends, noise levels, outliers, integer ties, short and constant series),
   each with Otava's change points for several parameter sets.

Values are rounded to 4 decimals so that JSON carries them exactly; Otava is
given exactly those values, as Python floats in a list (as in its tests).
"""
import json
import pathlib

import numpy as np
from otava.analysis import compute_change_points
from importlib.metadata import version

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "history"
PARAMS = [
    (50, 0.001, 0.0),  # Otava's defaults
    (30, 0.01, 0.05),
    (30, 0.05, 0.0),
    (20, 0.1, 0.0),
    (10, 0.01, 0.02),
    (8, 0.2, 0.0),
    (100, 0.0001, 0.01),
]


def indexes(values, w, p, m):
    cps, _weak = compute_change_points(list(values), window_len=w, max_pvalue=p, min_magnitude=m)
    return [int(c.index) for c in cps]


def tigerbeetle():
    path = DATA / "tigerbeetle.json"
    doc = json.loads(path.read_text())
    for case in doc["cases"]:
        got = indexes(doc["values"], case["window_len"], case["max_pvalue"], case["min_magnitude"])
        assert got == case["expected"], (case, got)
        case["otava"] = got
    doc["otava_version"] = version("apache-otava")
    path.write_text(json.dumps(doc) + "\n")
    print(f"{path}: {len(doc['cases'])} cases agree with Otava's test")


def generated():
    rng = np.random.default_rng(20261201)
    series = []

    def add(name, xs):
        series.append((name, [round(float(x), 4) for x in xs]))

    def noise(n, sd):
        return rng.normal(0.0, sd, n)

    # Single steps: size, noise, position and length vary.
    for k, (n, at, size, sd) in enumerate([
        (100, 50, 0.05, 0.01), (100, 50, 0.05, 0.03), (100, 20, 0.10, 0.02),
        (100, 90, 0.10, 0.02), (60, 3, 0.2, 0.02), (60, 57, 0.2, 0.02),
        (200, 120, -0.05, 0.01), (200, 60, 0.02, 0.01), (400, 200, 0.03, 0.02),
        (40, 20, 0.01, 0.02), (30, 15, 0.5, 0.05), (500, 250, 0.04, 0.02),
    ]):
        xs = 1000.0 * (1.0 + noise(n, sd))
        xs[at:] *= 1.0 + size
        add(f"step-{k}", xs)
    # Several steps, up and down.
    for k in range(8):
        n = int(rng.integers(80, 300))
        xs = np.ones(n) * 50.0
        for at in sorted(rng.choice(np.arange(5, n - 5), size=int(rng.integers(2, 6)), replace=False)):
            xs[at:] *= 1.0 + rng.choice([-1, 1]) * rng.uniform(0.02, 0.2)
        add(f"steps-{k}", xs * (1.0 + noise(n, rng.uniform(0.005, 0.04))))
    # Trends (slow creep) with and without noise.
    for k, (n, slope, sd) in enumerate([(100, 0.001, 0.01), (200, 0.0005, 0.02), (60, 0.01, 0.0), (150, -0.002, 0.005)]):
        add(f"trend-{k}", 10.0 * (1.0 + slope * np.arange(n)) * (1.0 + noise(n, sd)))
    # Pure noise at several levels and lengths (false alarms).
    for k, (n, sd) in enumerate([(100, 0.02), (100, 0.1), (300, 0.02), (50, 0.5), (1000, 0.01), (75, 0.05)]):
        add(f"noise-{k}", 200.0 * (1.0 + noise(n, sd)))
    # Outliers: single spikes and drops, on steps and on flat series.
    for k in range(6):
        n = 120
        xs = 300.0 * (1.0 + noise(n, 0.01))
        if k % 2:
            xs[70:] *= 1.06
        for at in rng.choice(n, size=k + 1, replace=False):
            xs[at] *= rng.choice([0.5, 1.8, 3.0])
        add(f"outliers-{k}", xs)
    # Heavy tails.
    for k in range(3):
        xs = 100.0 + rng.standard_t(2, 150)
        xs[100:] += 3.0 * k
        add(f"heavy-tail-{k}", xs)
    # Integer-valued series: many ties in distances and in Q̂.
    for k in range(4):
        n = 80
        xs = rng.integers(10, 13, n).astype(float)
        xs[40:] += k
        add(f"integers-{k}", xs)
    # Constant series and near-constant ones.
    add("constant-100", np.full(100, 7.0))
    add("constant-3", np.full(3, 1.0))
    add("zeros-20", np.zeros(20))
    add("constant-step", np.r_[np.full(20, 5.0), np.full(20, 6.0)])
    add("constant-one-blip", np.r_[np.full(30, 5.0), [9.0], np.full(30, 5.0)])
    add("alternating", np.tile([1.0, 2.0], 40))
    # Short series.
    for n in [1, 2, 3, 4, 5, 6, 8, 10, 12]:
        xs = 10.0 * (1.0 + noise(n, 0.02))
        xs[n // 2:] *= 1.3
        add(f"short-{n}", xs)
    # Negative and mixed-sign values (magnitude with means near 0).
    add("negative-step", np.r_[-5.0 + noise(40, 0.1), -4.0 + noise(40, 0.1)])
    add("around-zero", np.r_[noise(50, 1.0), 0.5 + noise(50, 1.0)])
    # Variance change only.
    add("variance-change", np.r_[100.0 + noise(80, 1.0), 100.0 + noise(80, 5.0)])
    out = []
    cases = 0
    for name, xs in series:
        res = [{"window_len": w, "max_pvalue": p, "min_magnitude": m, "otava": indexes(xs, w, p, m)} for (w, p, m) in PARAMS]
        cases += len(res)
        out.append({"name": name, "values": xs, "cases": res})
    path = DATA / "otava_generated.json"
    doc = {"otava_version": version("apache-otava"), "numpy_version": np.__version__, "series": out}
    path.write_text(json.dumps(doc) + "\n")
    print(f"{path}: {len(out)} series, {cases} cases")


if __name__ == "__main__":
    tigerbeetle()
    generated()
