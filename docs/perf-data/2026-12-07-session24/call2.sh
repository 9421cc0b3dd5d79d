#!/usr/bin/env bash
# Device call 2 of session 24: the supraseal-c2 crate at 2^24, 10 partitions (PoRep's shape), as
# bellperson calls it, through the C API, and in cuzk's pattern (one partition per
# start_groth16_proof, finished on another thread while the next starts). Carry build-sb/dev24.tar.xz
# (call1.sh says what it holds).
set -uo pipefail
start=$SECONDS
mkdir -p /tmp/d "$OUT" && tar -C /tmp/d -xJf build-sb/dev24.tar.xz
LOG_M=24 CIRCUITS=10 REPS=2 timeout 560 bash docs/perf-data/2026-12-07-supraseal-crate/run.sh /tmp/d/dev24 "$OUT/crate"
echo "crate run rc=$? after $((SECONDS - start)) s"
exit 0
