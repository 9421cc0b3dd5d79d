#!/usr/bin/env bash
# Device call 2 of session 19: does level 0 in affine coordinates pay for G2, where a point is
# twice the bytes but an addition three times the products (call 1: it loses for G1)? Carry
# build/dev19b (bench_cuda_msm_g2 of this commit, CUDA sm_90, stripped, with devlibs).
set -uo pipefail
start=$SECONDS
tar xJf build/dev19b/dev19b.tar.xz -C build && B=$PWD/build/dev19x
export LD_LIBRARY_PATH=$B:$B/devlibs
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$OUT/gpu.txt"
timeout 400 "$B/bench_cuda_msm_g2" --min-log 20 --max-log 22 --reps 3 --curve both --affine 16,32,64 --csv "$OUT/msm_g2.csv" 2>&1 | tee "$OUT/msm_g2.txt"
echo "g2 bench rc=${PIPESTATUS[0]} after $((SECONDS - start)) s"
exit 0
