#!/usr/bin/env bash
# Runs the cuda prover's tests and its whole-proof benchmark on the device machine, writing
# results to $OUT (5 files: gpu.txt, tests.log, bench.log, bench.csv, bench_host.csv). At most
# 8 minutes (each step has its own timeout).
#
#   tests/cuda_prover/run_on_device.sh BIN_DIR
#
# BIN_DIR holds cuda_prover_test, cuda_prover_options_test, bench_cuda_prover, zkpipe-device,
# libzkp_prover_faulty.so (tests/host/plugins), libzkp_test_cuda_fault_hook.so, libzkpipe.so*,
# libzkp_prover_cuda.so, libzkp_prover_cpu.so, libzkp_pacer_greedy.so and devlibs/ (from /work/shared/tools/device-bundle).
# Test data: the committed vectors in tests/vectors/data (6 MB, in the working tree); the bench
# builds its keys in memory on the device machine (synthetic, any size), so nothing big travels.
# Built here with
#   cmake -S . -B build-cuda-p -DZKPIPE_WERROR=ON -DZKPIPE_CUDA=ON -DZKPIPE_BUILD_SAMPLES=OFF \
#         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
#   cmake --build build-cuda-p --target zkp_prover_cuda zkp_prover_cpu cuda_prover_test \
#         cuda_prover_options_test bench_cuda_prover -j2
#   mkdir -p build-cuda-p/dev && cp build-cuda-p/bin/{cuda_prover_test,cuda_prover_options_test,bench_cuda_prover} \
#         build-cuda-p/lib/libzkp_prover_{cuda,cpu}.so build-cuda-p/lib/libzkp_pacer_greedy.so build-cuda-p/dev/ && /work/shared/tools/device-bundle build-cuda-p/dev
# and on the device: tests/cuda_prover/run_on_device.sh build-cuda-p/dev (carry build-cuda-p/dev).
# A skipped GPU test counts as a failure here (it means no device was usable), except the
# two-GPU tests on a one-GPU machine.
set -uo pipefail
bin=$(cd "${1:?usage: run_on_device.sh BIN_DIR}" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin/devlibs:${LD_LIBRARY_PATH:-}"
export ZKPIPE_CUDA_PLUGIN="$bin/libzkp_prover_cuda.so" ZKPIPE_CPU_PLUGIN="$bin/libzkp_prover_cpu.so"
export ZKPIPE_GREEDY_PACER="$bin/libzkp_pacer_greedy.so"
# CudaIsolationFault: the faulty test prover, its CUDA fault hook and zkpipe-device, beside the rest.
export ZKPIPE_FAULTY_PLUGIN="$bin/libzkp_prover_faulty.so" ZKPIPE_CUDA_FAULT_HOOK="$bin/libzkp_test_cuda_fault_hook.so"
export ZKPIPE_DEVICE_EXECUTABLE="$bin/zkpipe-device"
export ZKPIPE_VECTORS_DIR="$repo/tests/vectors/data"
# bellperson parameters and caller-synthesized vectors (build/tests/bellperson_prover), copied
# into BIN_DIR beside the binaries when the bundle is made.
[ -f "$bin/many_public_bls12381.params" ] && export ZKPIPE_BELLPERSON_PARAMS="$bin/many_public_bls12381.params"

nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit \
  --format=csv > "$out/gpu.txt" 2>&1
echo "host: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB" >> "$out/gpu.txt"
cat "$out/gpu.txt"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')

status=0
run_test() {  # name, timeout, then the command
  local name=$1 limit=$2
  shift 2
  local log="$out/$name.tmp"
  timeout "$limit" "$@" --gtest_color=no > "$log" 2>&1 || status=1
  local skipped
  skipped=$(grep '^\[  SKIPPED \] [A-Za-z]' "$log" | grep -v 'CudaProverNoGpu' || true)
  [ "$gpus" -lt 2 ] && skipped=$(echo "$skipped" | grep -v 'TwoGpu' || true)
  if [ -n "$skipped" ]; then
    echo "$name: device tests were SKIPPED on the device machine:" | tee -a "$log"
    echo "$skipped" | tee -a "$log"
    status=1
  fi
  echo "$name: $(grep -E '^\[  (PASSED|FAILED) ' "$log" | tr '\n' ' ')"
  { echo "=== $name"; cat "$log"; } >> "$out/tests.log"
  rm -f "$log"
}

# The GPU tests, then each fault test in a process of its own (they break device 0 for the
# rest of the process), then the no-GPU path with every GPU hidden from the runtime.
run_test device 150 "$bin/cuda_prover_test" --gtest_filter='-CudaProverNoGpu.*:*Fault*'
for t in $("$bin/cuda_prover_test" --gtest_list_tests --gtest_filter='*Fault*' |
           awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
  run_test "fault_${t}" 90 "$bin/cuda_prover_test" --gtest_filter="$t"
done
CUDA_VISIBLE_DEVICES= run_test no_gpu 30 "$bin/cuda_prover_test" --gtest_filter='CudaProverNoGpu.*:CudaProverOptions.*'
run_test options 20 "$bin/cuda_prover_options_test"
if grep -q '^\[  SKIPPED \] CudaProverNoGpu' "$out/tests.log" && grep -q '^=== no_gpu' "$out/tests.log"; then
  echo "no_gpu: CudaProverNoGpu was SKIPPED with CUDA_VISIBLE_DEVICES= (GPUs still visible?)" | tee -a "$out/tests.log"
  status=1
fi

# ZKPIPE_DEVICE_BENCH=0: the tests alone (a short device call).
if [ "${ZKPIPE_DEVICE_BENCH:-1}" = 0 ]; then exit $status; fi

# Whole proofs 2^16..2^22, both curves, stage split (G2 MSM and H step on the device); the
# throughput of gpu_index -1 vs device 0 at 2^18. Then the host placements up to 2^20.
timeout 150 "$bin/bench_cuda_prover" --min-log 16 --max-log 22 --reps 3 --budget-s 100 \
  --throughput-log 18 --csv "$out/bench.csv" 2>&1 | tee "$out/bench.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 45 "$bin/bench_cuda_prover" --min-log 16 --max-log 20 --reps 2 --budget-s 25 --g2 host --h host \
  --throughput-log 0 --csv "$out/bench_host.csv" 2>&1 | tee -a "$out/bench.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
