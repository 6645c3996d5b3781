#!/usr/bin/env python3
"""Mutation fuzzing of patchperf's commands on the files under tests/data.

Every mutant is made from one file of tests/data (or, for `history`, also
examples/history-xz/data) by one mutation class, written into a folder of
its own under its original name, and run through a command with a time
limit and an address-space limit. A run is flagged when it

  - exits with a code other than 0, 1 or 2 (101 is a panic, a signal is a
    crash or the memory limit),
  - prints "panicked at",
  - takes longer than --timeout seconds,
  - peaks above --rss-mb MB plus --rss-factor times the size of its inputs,
  - exits 2 with an error that names none of its input files,
  - (ingest) writes a value that is NaN or infinite.

Usage (see CONTRIBUTING.md):

  python3 scripts/fuzz_inputs.py --bin PATH/patchperf --out /tmp/fuzz \
      --count 2000 [--seed 1] [--commands ingest,compare,check,history,report]
      [--classes truncate_byte,...]

Flagged runs are copied with their command line to OUT/findings/; a line
per run goes to OUT/runs.jsonl and a table of runs per command and class
is printed at the end. Nothing but the standard library is needed.
"""

import argparse
import csv
import io
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
HISTORY_EXTRA = ROOT / "examples" / "history-xz" / "data"

NUMBER = re.compile(rb"(?<![A-Za-z_])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
NUMBER_TOKENS = {
    "num_nan": [b"NaN", b"nan", b"-nan"],
    "num_inf": [b"inf", b"-inf", b"Infinity"],
    "num_1e309": [b"1e309", b"-1e309"],
    "num_neg0": [b"-0", b"-0.0"],
    "num_1e-400": [b"1e-400"],
    "num_huge_int": [b"99999999999999999999", b"-99999999999999999999"],
}


# ------------------------------------------------------------- mutations


def lines_of(b):
    return b.split(b"\n")


def join(lines):
    return b"\n".join(lines)


def m_truncate_byte(b, r):
    return b[: r.randrange(len(b) + 1)]


def m_truncate_line(b, r):
    ls = lines_of(b)
    return join(ls[: r.randrange(len(ls) + 1)])


def m_flip_bytes(b, r):
    b = bytearray(b)
    for _ in range(r.randint(1, 8)):
        if b:
            i = r.randrange(len(b))
            b[i] = r.choice([b[i] ^ (1 << r.randrange(8)), r.randrange(256)])
    return bytes(b)


def m_crlf(b, r):
    return b.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def m_cr_only(b, r):
    return b.replace(b"\r\n", b"\n").replace(b"\n", b"\r")


def m_latin1(b, r):
    t = b.decode("utf-8", "replace")
    return t.encode("latin-1", "replace")


def m_utf16le(b, r):
    return b.decode("utf-8", "replace").encode("utf-16-le")


def m_utf16be(b, r):
    return b"\xfe\xff" + b.decode("utf-8", "replace").encode("utf-16-be")


def m_nul(b, r):
    b = bytearray(b)
    for _ in range(r.randint(1, 4)):
        b[r.randrange(len(b) + 1) : 0] = b"\0" * r.randint(1, 3)
    return bytes(b)


def m_bom(b, r):
    return b"\xef\xbb\xbf" + b


def m_dup_line(b, r):
    ls = lines_of(b)
    i = r.randrange(len(ls))
    return join(ls[: i + 1] + [ls[i]] * r.randint(1, 3) + ls[i + 1 :])


def m_drop_line(b, r):
    ls = lines_of(b)
    for _ in range(r.randint(1, 3)):
        if len(ls) > 1:
            del ls[r.randrange(len(ls))]
    return join(ls)


def split_cells(line):
    for sep in (b",", b"\t", b";", b"|"):
        if line.count(sep) >= 1:
            return sep, line.split(sep)
    return b" ", line.split(b" ")


def m_swap_columns(b, r):
    ls = lines_of(b)
    i, j = r.randrange(8), r.randrange(8)
    out = []
    for l in ls:
        sep, cells = split_cells(l)
        if max(i, j) < len(cells):
            cells[i], cells[j] = cells[j], cells[i]
        out.append(sep.join(cells))
    return join(out)


def m_empty_cells(b, r):
    ls = lines_of(b)
    for _ in range(r.randint(1, 10)):
        k = r.randrange(len(ls))
        sep, cells = split_cells(ls[k])
        if cells:
            cells[r.randrange(len(cells))] = b""
        ls[k] = sep.join(cells)
    return join(ls)


def number_mutation(tokens):
    def m(b, r):
        spans = [m.span() for m in NUMBER.finditer(b)]
        if not spans:
            return b + b"\n" + r.choice(tokens) + b"\n"
        # Some numbers, or every one: a whole column of NaN is its own case.
        share = r.choice([0.02, 0.2, 1.0])
        out, last = [], 0
        for s, e in spans:
            if r.random() < share:
                out += [b[last:s], r.choice(tokens)]
                last = e
        out.append(b[last:])
        return b"".join(out)

    return m


def m_long_line(b, r):
    ls = lines_of(b)
    i = r.randrange(len(ls))
    base = ls[i] or b"x 1.0"
    kind = r.randrange(3)
    if kind == 0:
        long = (base + b" ") * (1_000_000 // (len(base) + 1) + 1)
    elif kind == 1:
        long = b"".join(
            str(r.randrange(10**6)).encode() + b" " for _ in range(150_000)
        )
    else:
        long = b"9" * 1_000_000
    return join(ls[:i] + [long[:1_000_000]] + ls[i + 1 :])


def m_deep_json(b, r):
    depth = r.choice([200, 5_000, 100_000])
    if b.lstrip()[:1] in (b"{", b"[") and r.random() < 0.5:
        # Nest inside the document, where a value would be.
        i = b.find(b":")
        if i > 0:
            return b[: i + 1] + b"[" * depth + b"1" + b"]" * depth + b[i + 1 :]
    if r.random() < 0.5:
        return b'{"a":' * depth + b"1" + b"}" * depth
    return b"[" * depth  # unclosed


def m_header_repeat(b, r):
    ls = lines_of(b)
    first = next((l for l in ls if l.strip()), b"x")
    n = r.choice([100_000, 10_000])
    return join([first] * n + ls[1:])


def m_one_line(b, r):
    ls = [l for l in lines_of(b) if l.strip()] or [b"x 1"]
    return join([r.choice(ls)] * r.choice([100_000, 1_000]))


def m_zero_byte(b, r):
    return b""


MUTATIONS = {
    "truncate_byte": m_truncate_byte,
    "truncate_line": m_truncate_line,
    "flip_bytes": m_flip_bytes,
    "crlf": m_crlf,
    "cr_only": m_cr_only,
    "latin1": m_latin1,
    "utf16le": m_utf16le,
    "utf16be": m_utf16be,
    "nul": m_nul,
    "bom": m_bom,
    "dup_line": m_dup_line,
    "drop_line": m_drop_line,
    "swap_columns": m_swap_columns,
    "empty_cells": m_empty_cells,
    "long_line": m_long_line,
    "deep_json": m_deep_json,
    "header_repeat": m_header_repeat,
    "one_line": m_one_line,
    "zero_byte": m_zero_byte,
}
for _name, _tokens in NUMBER_TOKENS.items():
    MUTATIONS[_name] = number_mutation(_tokens)
# Errors about the whole run, which name no file on purpose.
WHOLE_RUN_ERRORS = ["no series has the 3 points"]
# Run by itself on a folder of mutants of several files.
DIR_CLASS = "mixed_dir"


# ---------------------------------------------------------------- seeds


def seed_files():
    files = sorted(p for p in DATA.rglob("*") if p.is_file())
    by_dir = {}
    for p in files:
        by_dir.setdefault(p.parent, []).append(p)
    kconfig = [p for p in files if p.parent.name == "kconfig" and p.suffix == ".config"]
    env = [p for p in files if "env" in p.relative_to(DATA).parts[:1]]
    history = [p for p in files if p.parent.name == "history" and p.suffix != ".md"]
    history += sorted(HISTORY_EXTRA.glob("*.json"))
    emails = [p for p in files if p.parent.name == "emails" and p.suffix == ".txt"]
    return files, by_dir, kconfig, env, history, emails


# ------------------------------------------------------------------ runs


def limit(mem_mb):
    def f():
        resource.setrlimit(resource.RLIMIT_AS, (mem_mb << 20, mem_mb << 20))
        os.setsid()

    return f


def run(binary, args, cwd, timeout, mem_mb):
    """(exit code or -signal, stderr, stdout head, peak RSS MB, seconds, timed out)."""
    out_path, err_path = cwd / "stdout", cwd / "stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.monotonic()
        p = subprocess.Popen(
            [str(binary)] + args,
            cwd=cwd,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            preexec_fn=limit(mem_mb),
        )
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = 0  # reaped above
        secs = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    stderr = err_path.read_bytes()[:20000].decode("utf-8", "replace")
    return code, stderr, out_path, usage.ru_maxrss / 1024, secs, timed_out.is_set()


def nonfinite_values(out_path):
    """Values of an `ingest --out -` table that are NaN or infinite."""
    bad = []
    with open(out_path, newline="", encoding="utf-8", errors="replace") as f:
        for i, row in enumerate(csv.reader(f)):
            if i == 0 or len(row) < 10:
                continue
            try:
                v = float(row[8])
            except ValueError:
                bad.append(row[8])
                continue
            if not math.isfinite(v):
                bad.append(row[8])
    return bad[:3]


def flags_of(res, names, args, opts, cmd, input_bytes):
    code, stderr, out_path, rss, secs, timed_out = res
    flags = []
    if timed_out:
        flags.append("timeout")
    elif code not in (0, 1, 2):
        flags.append(f"exit {code}")
    if "panicked at" in stderr:
        flags.append("panic")
    if rss > opts.rss_mb + opts.rss_factor * input_bytes / 2**20:
        flags.append(f"rss {rss:.0f} MB")
    about_inputs = not any(m in stderr for m in WHOLE_RUN_ERRORS)
    if code == 2 and not timed_out and about_inputs and not any(n in stderr for n in names):
        flags.append("error names no file")
    if cmd == "ingest" and code == 0:
        bad = nonfinite_values(out_path)
        if bad:
            flags.append(f"non-finite value {bad}")
    return flags


# ------------------------------------------------------------- commands


def write_mutant(src, cls, r, into):
    data = src.read_bytes()
    mutated = MUTATIONS[cls](data, r)
    into.mkdir(parents=True, exist_ok=True)
    path = into / src.name
    path.write_bytes(mutated)
    return path


def copy_into(src, folder):
    """`src` copied, whole, into a new `folder`: a side left unmutated."""
    folder.mkdir(parents=True)
    dst = folder / src.name
    shutil.copy(src, dst)
    return dst


def mutant_pair(files, by_dir, cls, r, work):
    """A file whole as the baseline and a mutant of it or a sibling as the
    patched side."""
    src = r.choice(files)
    sibling = r.choice(by_dir[src.parent])
    a = copy_into(sibling, work / "base")
    return a, write_mutant(src, cls, r, work / "patched")


def make_case(cmd, cls, r, seeds, work):
    """Writes the inputs of one run under WORK: (args, names to expect in an error, bytes)."""
    files, by_dir, kconfig, env, history, emails = seeds
    if cmd == "ingest":
        if cls == DIR_CLASS:
            d = work / "mixed"
            for src in r.sample(files, 6):
                write_mutant(src, r.choice(list(MUTATIONS)), r, d / src.parent.name)
            paths = [d]
        else:
            paths = [write_mutant(r.choice(files), cls, r, work / "a")]
        return ["ingest", *map(str, paths), "--out", "-"], paths
    if cmd == "compare":
        # A mutant against the file it came from or a sibling: the baseline
        # may be whole, the mutant is always the patched side.
        a, b = mutant_pair(files, by_dir, cls, r, work)
        args = ["compare", str(a), str(b), "--variant-names", "base,patched"]
        return args + ["--json", "-"], [a, b]
    if cmd == "check":
        pool = kconfig if r.random() < 0.7 else env
        src = r.choice(pool)
        a = copy_into(r.choice(pool), work / "base")
        b = write_mutant(src, cls, r, work / "patched")
        return ["check", str(a), str(b), "--json", "-"], [a, b]
    if cmd == "history":
        srcs = r.sample(history, min(len(history), r.choice([1, 3, 5, 5])))
        paths = []
        for k, s in enumerate(srcs):
            m = r.random() < 0.5 or k == 0
            d = work / f"p{k}"
            if m:
                paths.append(write_mutant(s, cls, r, d))
            else:
                d.mkdir(parents=True)
                shutil.copy(s, d / s.name)
                paths.append(d / s.name)
        return ["history", *map(str, paths), "--json", "-"], paths
    if cmd == "report":
        out = work / "out"
        if r.random() < 0.5:
            doc = write_mutant(r.choice(emails), cls, r, work / "doc")
            study = f'title = "fuzz"\n[[documents]]\npath = "{doc}"\n'
            paths = [doc]
        else:
            a, b = mutant_pair(files, by_dir, cls, r, work)
            study = (
                'title = "fuzz"\nbaseline = "b"\n'
                f'[[variants]]\nname = "b"\ninputs = ["{a}"]\n'
                f'[[variants]]\nname = "p"\ninputs = ["{b}"]\n'
            )
            paths = [a, b]
        toml = work / "study.toml"
        toml.write_text(study)
        formats = r.choice(["md,json,txt", "html,json", "md,brief"])
        return (
            ["report", str(toml), "--formats", formats, "--out", str(out)],
            paths + [toml],
        )
    raise ValueError(cmd)


def classes_for(cmd, classes):
    if cmd == "ingest":
        return classes + [DIR_CLASS]
    return classes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--count", type=int, default=500, help="mutants in all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--commands", default="ingest,compare,check,history,report")
    ap.add_argument("--classes", default=",".join(MUTATIONS))
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--mem-mb", type=int, default=4096, help="address-space limit")
    ap.add_argument("--rss-mb", type=float, default=150.0)
    ap.add_argument("--rss-factor", type=float, default=20.0)
    ap.add_argument("--keep", action="store_true", help="keep every run's folder")
    opts = ap.parse_args()

    r = random.Random(opts.seed)
    seeds = seed_files()
    commands = opts.commands.split(",")
    classes = [c for c in opts.classes.split(",") if c]
    binary = opts.bin.resolve()
    opts.out.mkdir(parents=True, exist_ok=True)
    findings = opts.out / "findings"
    table = {}
    log = open(opts.out / "runs.jsonl", "a")
    for i in range(opts.count):
        cmd = commands[i % len(commands)]
        cls = r.choice(classes_for(cmd, classes))
        work = opts.out / "work" / f"{opts.seed}-{i}"
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
        case_rng = random.Random(f"{opts.seed}-{i}")
        args, paths = make_case(cmd, cls, case_rng, seeds, work)
        size = sum(
            (p.stat().st_size if p.is_file() else sum(q.stat().st_size for q in p.rglob("*") if q.is_file()))
            for p in paths
        )
        names = {p.name for p in paths}
        res = run(binary, args, work, opts.timeout, opts.mem_mb)
        flags = flags_of(res, names, args, opts, cmd, size)
        row = table.setdefault((cmd, cls), [0, 0])
        row[0] += 1
        row[1] += bool(flags)
        rec = {
            "id": f"{opts.seed}-{i}",
            "cmd": cmd,
            "class": cls,
            "code": res[0],
            "rss_mb": round(res[3], 1),
            "secs": round(res[4], 2),
            "bytes": size,
            "flags": flags,
        }
        log.write(json.dumps(rec) + "\n")
        log.flush()
        if flags:
            dest = findings / rec["id"]
            shutil.copytree(work, dest, dirs_exist_ok=True)
            (dest / "cmd.txt").write_text(" ".join(args) + "\n" + json.dumps(rec) + "\n")
            print(f"FLAG {rec['id']} {cmd} {cls}: {flags}: {res[1].strip()[:300]}", flush=True)
        if not opts.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'command':10} {'class':16} {'runs':>6} {'flagged':>8}")
    for (cmd, cls), (n, f) in sorted(table.items()):
        print(f"{cmd:10} {cls:16} {n:6} {f:8}")
    print(f"total {sum(n for n, _ in table.values())} runs, "
          f"{sum(f for _, f in table.values())} flagged")


if __name__ == "__main__":
    main()
