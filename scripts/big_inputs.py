#!/usr/bin/env python3
"""Writes the huge single inputs of the reliability sweep's memory figures
(benches/RESULTS.md, "Huge single inputs"): a 200 MB mail holding one
aligned table of 3.6 million rows, and two hyperfine JSON exports of 10^7
samples each.

    python3 scripts/big_inputs.py OUT_DIR [MAIL_MB] [SAMPLES]
"""
import os
import random
import sys


def mail(path, size):
    with open(path, "w") as f:
        f.write("From: someone\nSubject: [PATCH] sched: something\n\n")
        f.write("Results below, base vs patched (usec, lower is better):\n\n")
        f.write("%-24s %14s %14s\n" % ("test", "base", "patched"))
        f.write("%-24s %14s %14s\n" % ("-" * 24, "-" * 14, "-" * 14))
        written, i = 0, 0
        while written < size:
            line = "%-24s %14.3f %14.3f\n" % (
                "case-%d" % i, 100 + random.random(), 101 + random.random())
            f.write(line)
            written += len(line)
            i += 1
        f.write("\nThanks\n")


def hyperfine(path, mean, n):
    with open(path, "w") as f:
        f.write('{"results":[{"command":"sleep","mean":%f,"stddev":0.01,'
                '"median":%f,"user":0.001,"system":0.001,"min":0.0,"max":1.0,'
                '"times":[' % (mean, mean))
        for k in range(n):
            f.write(("," if k else "") + "%.6f" % random.gauss(mean, 0.01))
        f.write('],"exit_codes":[' + ",".join(["0"] * n) + "]}]}\n")


def main():
    out = sys.argv[1]
    mail_mb = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000_000
    os.makedirs(out, exist_ok=True)
    random.seed(1)
    mail(os.path.join(out, "mail.txt"), mail_mb * 1_000_000)
    hyperfine(os.path.join(out, "hf_base.json"), 0.100, samples)
    hyperfine(os.path.join(out, "hf_patch.json"), 0.101, samples)


if __name__ == "__main__":
    main()
