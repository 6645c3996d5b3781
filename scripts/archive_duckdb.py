#!/usr/bin/env python3
"""Checks that DuckDB reads a patchperf archive as patchperf does.

Builds an archive from the bundled example data with `ingest --into`, then
counts rows and averages values per (variant, benchmark, metric, stat)
twice: with DuckDB's Hive-partitioned Parquet scan of the archive's
folder, and from `patchperf ingest ARCHIVE --out -`. Exits 1 when they
differ. Usage: scripts/archive_duckdb.py [PATH-TO-PATCHPERF]
(default: target/debug/patchperf).
"""

import csv
import io
import math
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "target/debug/patchperf"
INPUTS = [ROOT / "examples/history-xz/data", ROOT / "data"]


def patchperf(*args):
    done = subprocess.run([str(BIN), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"patchperf {' '.join(map(str, args))} failed:\n{done.stderr}")
    return done.stdout


def by_patchperf(archive):
    groups = defaultdict(list)
    for row in csv.DictReader(io.StringIO(patchperf("ingest", archive, "--out", "-"))):
        key = (row["variant"], row["benchmark"], row["metric"], row["stat"])
        groups[key].append(float(row["value"]))
    return {k: (len(v), math.fsum(v) / len(v)) for k, v in groups.items()}


def by_duckdb(archive):
    # The partition column is text: a variant `6.10` is a name, not a number.
    query = f"""
        SELECT coalesce(variant, '') AS variant, benchmark, metric, stat,
               count(*) AS n, avg(value) AS mean
        FROM read_parquet('{archive}/*/*.parquet', hive_partitioning = true,
                          hive_types = {{'variant': 'VARCHAR'}})
        GROUP BY ALL
    """
    return {
        (v, b, m, s): (n, mean)
        for v, b, m, s, n, mean in duckdb.sql(query).fetchall()
    }


def main():
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "archive"
        for path in INPUTS:
            patchperf("--quiet", "ingest", path, "--into", archive)
        ours, theirs = by_patchperf(archive), by_duckdb(archive)
    bad = [k for k in ours.keys() | theirs.keys()
           if k not in ours or k not in theirs
           or ours[k][0] != theirs[k][0]
           or not math.isclose(ours[k][1], theirs[k][1], rel_tol=1e-12, abs_tol=1e-300)]
    rows = sum(n for n, _ in ours.values())
    if bad:
        for k in sorted(bad)[:20]:
            print(f"differs: {k}: patchperf {ours.get(k)}, duckdb {theirs.get(k)}")
        sys.exit(f"{len(bad)} of {len(ours)} groups differ")
    print(f"duckdb agrees with patchperf: {len(ours)} groups, {rows} rows")


if __name__ == "__main__":
    main()
