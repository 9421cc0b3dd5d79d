#!/usr/bin/env bash
# Side by side on one H200: bench_cuda_msm built with accumulate_kernel min-blocks 1 (base), 3, 5.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/devlibs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt 2>&1
for round in 1 2; do
  for v in base mb3 mb5; do
    echo "=== round $round variant $v" | tee -a $OUT/bench.log
    timeout 200 ./$v/bench_cuda_msm --min-log 24 --max-log 24 --reps 5 --curve both >> $OUT/bench.log 2>&1
    echo "rc=$?" >> $OUT/bench.log
  done
done
grep -E "===|bls12|bn254" $OUT/bench.log | tail -n 40
