#!/usr/bin/env bash
# Session 24's device work in one call (machines were scarce: call1.sh and call2.sh in 570 s,
# each step time-boxed). Carry build-sb/dev24.tar.xz (call1.sh says what it holds).
set -uo pipefail
start=$SECONDS
left() { echo $((570 - (SECONDS - start))); }
mkdir -p /tmp/d "$OUT" && tar -C /tmp/d -xJf build-sb/dev24.tar.xz
B=/tmp/d/dev24
ZKPIPE_DEVICE_BENCH=0 timeout 200 bash tests/cuda_prover/run_on_device.sh "$B"
echo "tests rc=$? after $((SECONDS - start)) s"
(
  export LD_LIBRARY_PATH=$B:$B/devlibs
  ZKPIPE_VECTORS_DIR=$PWD/tests/vectors/data timeout 60 "$B/cuda_device_synth_test" > "$OUT/device_synth_test.txt" 2>&1
  echo "synth test rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$OUT/device_synth_test.txt" | tr '\n' ' ')"
  timeout 60 "$B/bench_cuda_synth" --logs 20,24 --reps 5 2>&1 | tee "$OUT/bench_cuda_synth.txt"
  for syn in host device; do
    echo "== synthesis=$syn"
    timeout 45 "$B/bench_cuda_prover" --curve both --min-log 18 --max-log 20 --reps 3 --workers 2 --budget-s 35 \
      --throughput-log 0 --synthesis $syn 2>&1 | grep -v '^  log: cuda: [0-9]' | cut -c1-300
  done 2>&1 | tee "$OUT/prover_synthesis.txt"
)
echo "synthesis part done after $((SECONDS - start)) s"
LOG_M=24 CIRCUITS=10 REPS=1 timeout "$(left)" bash docs/perf-data/2026-12-07-supraseal-crate/run.sh "$B" "$OUT/crate"
echo "crate run rc=$? after $((SECONDS - start)) s"
exit 0
