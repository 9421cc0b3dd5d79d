#!/usr/bin/env bash
# Device call 2 of session 18, NOT RUN: every device start after call 1 failed and the session's
# device time ran out. Kept for the next device machine. Carry build/devpack18b (bench_cuda_msm,
# cuda_device_test, bench_cuda_prover and the libraries of 92f2632, CUDA sm_90, stripped, with
# devlibs) and build/devpack18c (zkpipe, bench_synthetic_key_files, and in before/ the cpu
# plugin of c830759, from before the bucket-scratch change); rebuild them from those commits if
# build/ was lost.
#
# 1. The device MSM tests, the affine path's among them (DeviceMsm.AffineAccumulationMatchesCpu).
# 2. Level 0 in affine coordinates (Config::affine_lanes, msm/accumulate_affine.cuh) against the
#    XYZZ accumulation, side by side: bench_cuda_msm at 2^20..2^24, K = 16, 32, 64.
# 3. Whole proofs with and without msm_affine_lanes = 32 (bench_cuda_prover, 1 worker).
# 4. The cpu prover's bucket-scratch change against the plugin before it (c830759's code), whole
#    CLI on 16 and 2 cores (measured on the 2-core machine only so far).
set -uo pipefail
start=$SECONDS
tar xJf build/devpack18b/dev18b.tar.xz -C build && B=$PWD/build/dev18b
tar xJf build/devpack18c/dev18c.tar.xz -C build && C=$PWD/build/dev18c
export LD_LIBRARY_PATH=$B:$B/devlibs
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
timeout 150 "$B/cuda_device_test" --gtest_filter='DeviceMsm*' > "$OUT/device_msm_test.txt" 2>&1
echo "device msm tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/device_msm_test.txt" | tr '\n' ' ') after $((SECONDS - start)) s"
grep -E '^\[  FAILED|Failure' "$OUT/device_msm_test.txt" | head -5
timeout 220 "$B/bench_cuda_msm" --min-log 20 --max-log 24 --reps 5 --curve both --affine 16,32,64 --csv "$OUT/msm.csv" 2>&1 | tee "$OUT/msm.txt"
echo "msm bench rc=${PIPESTATUS[0]} after $((SECONDS - start)) s"
for k in 0 32; do
  [ $((SECONDS - start)) -gt 330 ] && break
  echo "== prover, affine lanes $k"
  timeout 60 "$B/bench_cuda_prover" --curve both --min-log 20 --max-log 22 --reps 3 --workers 1 --budget-s 45 \
    --throughput-log 0 --affine-lanes $k 2>&1 | grep -v '^  log: cuda: [0-9]' | cut -c1-400
done 2>&1 | tee "$OUT/prover.txt"
T=$(mktemp -d)
for N in 16 18 20; do
  [ $((SECONDS - start)) -gt 430 ] && break
  "$C/bench_synthetic_key_files" "bn254:$N" "$T/k$N" > /dev/null 2>&1 || echo "keygen $N failed"
  for round in 1 2; do
    for c in 16 2; do
      [ "$N" = 20 ] && [ "$c" = 2 ] && continue
      for v in before after; do
        dir=$B; [ $v = before ] && dir=$C/before
        ZKPIPE_PLUGIN_PATH=$dir /usr/bin/time -f "$N $c $v %e %U %S %M %x" -o "$T/t.txt" taskset -c 0-$((c - 1)) \
          "$C/zkpipe" prove "$T/k$N/circuit.zkey" "$T/k$N/witness.wtns" "$T/p.json" "$T/pub.json" > "$T/out.txt" 2>&1
        cat "$T/t.txt"; grep -q ' 0$' "$T/t.txt" || tail -3 "$T/out.txt"
      done
    done
  done
  rm -rf "$T/k$N"
done 2>&1 | tee "$OUT/cpu_bucket_scratch_ab.txt"
echo "all done after $((SECONDS - start)) s"
exit 0
