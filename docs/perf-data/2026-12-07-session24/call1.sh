#!/usr/bin/env bash
# Device call 1 of session 24: the cuda prover's tests with prove_wait (its new check:
# CudaProverDevice.BellpersonCallerSynthesisMatchesTheCpuProver overwrites the caller's buffers
# after prove_wait and before prove_finish), then the supraseal-c2 crate's routes at 2^24, 10
# partitions, with cuzk's call pattern (one partition per start_groth16_proof, finished on
# another thread) beside the batch routes. Carry build-sb/dev24.tar.xz: the bundle of
# cuda_prover_test, cuda_prover_options_test, zkpipe-device, bench_bellperson, porep_sector
# (built with --features cuzk), the libraries and devlibs (tests/cuda_prover/run_on_device.sh's
# list), sm_90, of this commit.
set -uo pipefail
start=$SECONDS
mkdir -p /tmp/d "$OUT" && tar -C /tmp/d -xJf build-sb/dev24.tar.xz
B=/tmp/d/dev24
ZKPIPE_DEVICE_BENCH=0 timeout 260 bash tests/cuda_prover/run_on_device.sh "$B"
echo "tests rc=$? after $((SECONDS - start)) s"
left=$((570 - (SECONDS - start)))
LOG_M=24 CIRCUITS=10 REPS=2 timeout "$left" bash docs/perf-data/2026-12-07-supraseal-crate/run.sh "$B" "$OUT/crate"
echo "crate run rc=$? after $((SECONDS - start)) s"
exit 0
