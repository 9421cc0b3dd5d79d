#!/usr/bin/env bash
# Session 24's device work in one call, each step time-boxed to fit 570 s. NOT RUN: no device was
# lent in session 24, nor in session 25 (four tries). Carry build-sb/dev25.tar.xz (BUNDLE), made by
# scripts/device_bundle.sh build-dev build-sb/dev25: cuda_prover_test, cuda_prover_options_test,
# zkpipe-device, bench_cuda_prover, bench_bellperson, porep_sector (--features cuzk),
# cuda_device_synth_test, bench_cuda_synth, the libraries and devlibs, sm_90 (build-sb/ is not in
# git). Session 25 added to what it runs: synthesis=device for bellperson circuits and for zkeys
# with their r1cs (the device row check), key_info's device_bytes, bench_cuda_synth's C.
# 1. The cuda prover's tests: prove_wait (BellpersonCallerSynthesisMatchesTheCpuProver overwrites
#    the caller's buffers between prove_wait and prove_finish) and synthesis=device (every
#    placement of ProofsAreByteIdenticalToTheCpuProver runs with it too).
# 2. Issue 40: the device constraint evaluation's test and benchmark, then whole proofs with
#    synthesis=host and =device side by side (bench_cuda_prover, 2^18..2^20, both curves).
# 3. Issue 38: the supraseal-c2 crate at 2^24, 10 partitions: as bellperson calls it, through the
#    C API, and in cuzk's pattern (one partition per start_groth16_proof, finished on another
#    thread while the next starts), with how long a start takes.
set -uo pipefail
start=$SECONDS
left() { echo $((570 - (SECONDS - start))); }
BUNDLE=${BUNDLE:-build-sb/dev25.tar.xz}
mkdir -p /tmp/d "$OUT" && tar -C /tmp/d -xJf "$BUNDLE"
B=/tmp/d/$(basename "$BUNDLE" .tar.xz)
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
# SKIP_CRATE=1: steps 1 and 2 only (a short device budget).
if [ -z "${SKIP_CRATE:-}" ]; then
  LOG_M=24 CIRCUITS=10 REPS=1 timeout "$(left)" bash docs/perf-data/2026-12-07-supraseal-crate/run.sh "$B" "$OUT/crate"
  echo "crate run rc=$? after $((SECONDS - start)) s"
fi
exit 0
