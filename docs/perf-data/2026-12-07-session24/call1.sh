#!/usr/bin/env bash
# Device call 1 of session 24: the cuda prover's tests with prove_wait (its new check:
# CudaProverDevice.BellpersonCallerSynthesisMatchesTheCpuProver overwrites the caller's buffers
# after prove_wait and before prove_finish), then the supraseal-c2 crate's routes at 2^24, 10
# partitions, with cuzk's call pattern (one partition per start_groth16_proof, finished on
# another thread) beside the batch routes. Carry build-sb/dev24.tar.xz: the bundle of
# cuda_prover_test, cuda_prover_options_test, zkpipe-device, bench_bellperson, porep_sector
# (built with --features cuzk), the libraries and devlibs (tests/cuda_prover/run_on_device.sh's
# list), sm_90, of this commit; and cuda_device_synth_test, bench_cuda_synth (issue 40's device
# constraint evaluation: its values against the host's, its device time at 2^20..2^26 rows).
set -uo pipefail
start=$SECONDS
mkdir -p /tmp/d "$OUT" && tar -C /tmp/d -xJf build-sb/dev24.tar.xz
B=/tmp/d/dev24
ZKPIPE_DEVICE_BENCH=0 timeout 260 bash tests/cuda_prover/run_on_device.sh "$B"
echo "tests rc=$? after $((SECONDS - start)) s"
# Issue 40's first step: the constraint system evaluated on the device (provers/cuda/synth).
LD_LIBRARY_PATH=$B:$B/devlibs ZKPIPE_VECTORS_DIR=$PWD/tests/vectors/data timeout 120 "$B/cuda_device_synth_test" \
  > "$OUT/device_synth_test.txt" 2>&1
echo "synth test rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$OUT/device_synth_test.txt" | tr '\n' ' ')"
LD_LIBRARY_PATH=$B:$B/devlibs timeout 120 "$B/bench_cuda_synth" --logs 20,24,26 --reps 5 2>&1 | tee "$OUT/bench_cuda_synth.txt"
echo "synth bench rc=${PIPESTATUS[0]} after $((SECONDS - start)) s"
left=$((570 - (SECONDS - start)))
LOG_M=24 CIRCUITS=10 REPS=2 timeout "$left" bash docs/perf-data/2026-12-07-supraseal-crate/run.sh "$B" "$OUT/crate"
echo "crate run rc=$? after $((SECONDS - start)) s"
exit 0
