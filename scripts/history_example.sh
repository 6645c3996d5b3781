#!/bin/sh
# Writes examples/history-xz/data/<point>.json, a real series measured on
# this machine with hyperfine: `xz -c` of a fixed 1.3 MB text (this
# repository's src/*/*.rs concatenated, at most 3 MB), 5 runs per point.
#
# The point names are labels in kernel-version style for the order they stand
# for; the kernel did not change. What changed is the work per run, as a
# regression in the code under test would change it:
#   6.8-rc1 … 6.8-rc4   xz -2
#   6.8-rc5 … 6.8.1     xz -3 (about 30% more CPU time): the "regression"
#   6.8.2 … 6.9-rc2     xz -2 again: the "fix"
# Every point is named `xz` (hyperfine -n), so they form one series, and
# `patchperf history` should name 6.8-rc4 → 6.8-rc5 and 6.8.1 → 6.8.2.
set -eu
out=${1:-examples/history-xz/data}
runs=${RUNS:-5}
input=$(mktemp)
trap 'rm -f "$input"' EXIT
cat src/*/*.rs | head -c 3000000 > "$input"
mkdir -p "$out"
for p in 6.8-rc1 6.8-rc2 6.8-rc3 6.8-rc4 6.8-rc5 6.8-rc6 6.8-rc7 6.8 6.8.1 6.8.2 6.9-rc1 6.9-rc2; do
  case $p in
    6.8-rc5 | 6.8-rc6 | 6.8-rc7 | 6.8 | 6.8.1) level=3 ;;
    *) level=2 ;;
  esac
  hyperfine --style none --runs "$runs" -n xz --export-json "$out/$p.json" \
    "xz -$level -c $input > /dev/null"
done
