#!/usr/bin/env bash
# Device call 1 (session 16): main + the dedicated squaring + key_load's per-lane pinning +
# the precompute-jacobian branch: the kernel and prover device tests, the MSM before/after the
# squaring (bench_cuda_msm_old: the same code without it), the key_load split at BLS12-381
# 2^24, the pinned-memory probe, and whole-proof throughput with 2 workers.
set -uo pipefail
tar xJf build/devpack/dev.tar.xz -C build && B=$PWD/build/dev
export LD_LIBRARY_PATH=$B:$B/devlibs
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; lscpu | grep -E 'Model name|^CPU\(s\)|NUMA node\(s\)|Flags' | sed 's/Flags:.*\(avx512ifma\).*/Flags: ... \1 .../'; free -g | head -2; } > "$OUT/machine.txt" 2>&1
part=${1:-all}
if [ "$part" != b ]; then
timeout 60 "$B/pin_probe" 2 > "$OUT/pin_probe.txt" 2>&1; echo "pin_probe rc=$?" >> "$OUT/pin_probe.txt"
for t in cuda_device_test cuda_device_ntt_g2_test cuda_streamed_bases_test; do
  timeout 120 "$B/$t" --gtest_color=no > "$OUT/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$OUT/summary.txt"
done
# The MSM before and after: _old without the dedicated square and mul_sub, _sq with the square
# alone, bench_cuda_msm with both; _lb4 the same with BN254's accumulation capped to 128
# registers (__launch_bounds__(128, 4)), BN254 only.
for b in bench_cuda_msm_old bench_cuda_msm_sq bench_cuda_msm; do
  timeout 100 "$B/$b" --min-log 24 --max-log 24 --reps 5 > "$OUT/msm24_$b.txt" 2>&1; echo "$b rc=$?" | tee -a "$OUT/summary.txt"
done
timeout 60 "$B/bench_cuda_msm_lb4" --curve bn254 --min-log 24 --max-log 24 --reps 5 > "$OUT/msm24_bench_cuda_msm_lb4.txt" 2>&1; echo "lb4 rc=$?" | tee -a "$OUT/summary.txt"
fi
[ "$part" = a ] && exit 0
# Part b (the build after call 1a: the dedicated square and mul_sub taken out again; pinned
# staging from pin_host_memory): the PinnedMemory device tests; key_load and proofs with the
# workers' staging from cudaMallocHost (_malloc) and from pin_host_memory, in turn; the prover
# device tests; the precompute's doubling chain in XYZZ (main, _xyzz) against Jacobian
# coordinates (this branch): bench_cuda_msm's F = W "setup" column.
timeout 60 "$B/cuda_device_test" --gtest_filter='PinnedMemory.*' --gtest_color=no > "$OUT/pinned_test.log" 2>&1; echo "PinnedMemory rc=$?" | tee -a "$OUT/summary.txt"
for b in bench_cuda_prover_malloc bench_cuda_prover; do
  timeout 100 "$B/$b" --curve bls12_381 --min-log 24 --max-log 24 --reps 3 --workers 1 --throughput-log 0 --precompute 1 > "$OUT/bls24_precompute_1_$b.txt" 2>&1; echo "$b bls24 rc=$?" | tee -a "$OUT/summary.txt"
done
ZKPIPE_DEVICE_BENCH=0 timeout 240 tests/cuda_prover/run_on_device.sh "$B" > "$OUT/prover_tests_summary.txt" 2>&1; echo "prover tests rc=$?" | tee -a "$OUT/summary.txt"
for b in bench_cuda_prover_malloc bench_cuda_prover; do
  timeout 60 "$B/$b" --curve bn254 --min-log 22 --max-log 22 --reps 3 --workers 2 --throughput-log 0 > "$OUT/bn254_22_$b.txt" 2>&1; echo "$b bn254 rc=$?" | tee -a "$OUT/summary.txt"
done
for b in bench_cuda_msm_xyzz bench_cuda_msm; do
  timeout 80 "$B/$b" --min-log 24 --max-log 24 --reps 3 > "$OUT/msm24_$b.txt" 2>&1; echo "$b rc=$?" | tee -a "$OUT/summary.txt"
done
# Everything in one archive: the device call brings back only a few files.
tar czf /tmp/results.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/results.tgz "$OUT/"
exit 0
