#!/usr/bin/env bash
# Device call 1 of session 19 (session 18's call2.sh, never run, without its cpu A/B, plus the
# Filecoin shape). Carry build/dev19 (bench_cuda_msm, cuda_device_test, bench_cuda_prover,
# bench_bellperson and the libraries of this commit, CUDA sm_90, stripped, with devlibs).
#
# 1. The device MSM tests, the affine path's among them (DeviceMsm.AffineAccumulationMatchesCpu).
# 2. Level 0 in affine coordinates (Config::affine_lanes, msm/accumulate_affine.cuh) against the
#    XYZZ accumulation, side by side: bench_cuda_msm at 2^20..2^24, both curves, K = 16, 32, 64.
# 3. Whole proofs with and without msm_affine_lanes = 32 (bench_cuda_prover, 1 worker).
# 4. The PoRep-shape partition at 2^25 with and without it (bench_bellperson, sections in turn).
set -uo pipefail
start=$SECONDS
tar xJf build/dev19/dev19.tar.xz -C build && B=$PWD/build/dev19x
export LD_LIBRARY_PATH=$B:$B/devlibs
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$OUT/gpu.txt"
timeout 120 "$B/cuda_device_test" --gtest_filter='DeviceMsm*' > "$OUT/device_msm_test.txt" 2>&1
echo "device msm tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/device_msm_test.txt" | tr '\n' ' ') after $((SECONDS - start)) s"
grep -E '^\[  FAILED|Failure' "$OUT/device_msm_test.txt" | head -5
timeout 200 "$B/bench_cuda_msm" --min-log 20 --max-log 24 --reps 5 --curve both --affine 16,32,64 --csv "$OUT/msm.csv" 2>&1 | tee "$OUT/msm.txt"
echo "msm bench rc=${PIPESTATUS[0]} after $((SECONDS - start)) s"
for k in 0 32; do
  [ $((SECONDS - start)) -gt 330 ] && break
  echo "== prover, affine lanes $k"
  timeout 50 "$B/bench_cuda_prover" --curve both --min-log 20 --max-log 22 --reps 3 --workers 1 --budget-s 40 \
    --throughput-log 0 --affine-lanes $k 2>&1 | grep -v '^  log: cuda: [0-9]' | cut -c1-400
done 2>&1 | tee "$OUT/prover.txt"
for k in 0 32; do
  [ $((SECONDS - start)) -gt 470 ] && break
  echo "== bellperson 2^25, sections in turn, affine lanes $k"
  timeout 100 "$B/bench_bellperson" --logs 25 --mixes random,90 --reps 2 --msm-order sequential --affine-lanes $k 2>&1 | cut -c1-400
done 2>&1 | tee "$OUT/bellperson.txt"
echo "all done after $((SECONDS - start)) s"
exit 0
