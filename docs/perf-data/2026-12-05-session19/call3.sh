#!/usr/bin/env bash
# Device call 3 of session 19 (call 2 never got a machine; this is its G2 bench plus the final
# check). Carry build/dev19b (bench_cuda_msm_g2 of 79466ee, which still has --affine) and
# build/dev19c (the tests and libraries of eb9f07b, affine path removed; CUDA sm_90, stripped,
# with devlibs).
# 1. Does level 0 in affine coordinates pay for G2 (twice the bytes per point, three times the
#    products per addition)? bench_cuda_msm_g2 --affine 16,32,64 at 2^20 and 2^22.
# 2. The final code: the cuda prover's device tests (tests/cuda_prover/run_on_device.sh), the
#    kernel tests (cuda_device_test, cuda_device_ntt_g2_test, cuda_streamed_bases_test) and the
#    emulation tests.
set -uo pipefail
start=$SECONDS
tar xJf build/dev19b/dev19b.tar.xz -C build && G=$PWD/build/dev19x
tar xJf build/dev19c/dev19t.tar.xz -C build && B=$PWD/build/dev19t
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$OUT/gpu.txt"
LD_LIBRARY_PATH=$G:$G/devlibs timeout 150 "$G/bench_cuda_msm_g2" --min-log 20 --max-log 22 --reps 3 --curve both \
  --affine 16,32,64 --csv "$OUT/msm_g2.csv" 2>&1 | tee "$OUT/msm_g2.txt"
echo "g2 bench rc=${PIPESTATUS[0]} after $((SECONDS - start)) s"
export LD_LIBRARY_PATH=$B:$B/devlibs
ZKPIPE_DEVICE_BENCH=0 timeout 200 tests/cuda_prover/run_on_device.sh "$B" > "$OUT/prover_tests.txt" 2>&1
echo "prover tests rc=$? after $((SECONDS - start)) s"; tail -14 "$OUT/prover_tests.txt"
for t in cuda_device_test cuda_device_ntt_g2_test cuda_streamed_bases_test cuda_msm_emulation_test cuda_emulation_test cuda_plan_test; do
  timeout 120 "$B/$t" --gtest_brief=1 > "$OUT/$t.txt" 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.txt" | tr '\n' ' ')"
  grep -E '^\[  SKIPPED|^\[  FAILED' "$OUT/$t.txt" | head -5
done 2>&1 | tee "$OUT/kernel_tests.txt"
echo "tests done after $((SECONDS - start)) s"
cd "$OUT" && tar czf tests.tgz tests.log *_test.txt 2>/dev/null && rm -f tests.log *_test.txt
echo "all done after $((SECONDS - start)) s"
exit 0
