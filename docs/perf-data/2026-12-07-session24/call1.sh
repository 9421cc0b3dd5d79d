#!/usr/bin/env bash
# Device call 1 of session 24. Carry build-sb/dev24.tar.xz: cuda_prover_test,
# cuda_prover_options_test, zkpipe-device, bench_cuda_prover, bench_bellperson, porep_sector (built
# with --features cuzk), cuda_device_synth_test, bench_cuda_synth, the libraries and devlibs
# (tests/cuda_prover/run_on_device.sh's list), sm_90, of this commit.
# 1. The cuda prover's tests: prove_wait (BellpersonCallerSynthesisMatchesTheCpuProver overwrites
#    the caller's buffers between prove_wait and prove_finish) and synthesis=device (every
#    placement of ProofsAreByteIdenticalToTheCpuProver runs with it too).
# 2. Issue 40: the device constraint evaluation's test and benchmark (2^20..2^26 rows), then whole
#    proofs with synthesis=host and =device side by side (bench_cuda_prover, 2^18..2^20, both curves).
set -uo pipefail
start=$SECONDS
mkdir -p /tmp/d "$OUT" && tar -C /tmp/d -xJf build-sb/dev24.tar.xz
B=/tmp/d/dev24
ZKPIPE_DEVICE_BENCH=0 timeout 240 bash tests/cuda_prover/run_on_device.sh "$B"
echo "tests rc=$? after $((SECONDS - start)) s"
export LD_LIBRARY_PATH=$B:$B/devlibs
ZKPIPE_VECTORS_DIR=$PWD/tests/vectors/data timeout 100 "$B/cuda_device_synth_test" > "$OUT/device_synth_test.txt" 2>&1
echo "synth test rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$OUT/device_synth_test.txt" | tr '\n' ' ')"
timeout 100 "$B/bench_cuda_synth" --logs 20,24,26 --reps 5 2>&1 | tee "$OUT/bench_cuda_synth.txt"
echo "synth bench rc=${PIPESTATUS[0]} after $((SECONDS - start)) s"
for syn in host device host device; do
  [ $((SECONDS - start)) -gt 520 ] && break
  echo "== synthesis=$syn"
  timeout 70 "$B/bench_cuda_prover" --curve both --min-log 18 --max-log 20 --reps 3 --workers 2 --budget-s 55 \
    --throughput-log 0 --synthesis $syn 2>&1 | grep -v '^  log: cuda: [0-9]' | cut -c1-300
done 2>&1 | tee "$OUT/prover_synthesis.txt"
echo "all done after $((SECONDS - start)) s"
exit 0
