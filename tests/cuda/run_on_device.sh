#!/usr/bin/env bash
# Runs the CUDA tests and the MSM benchmark on the device machine, writing results to $OUT.
#
#   tests/cuda/run_on_device.sh BIN_DIR
#
# BIN_DIR holds cuda_emulation_test, cuda_msm_emulation_test, cuda_plan_test, cuda_device_test,
# bench_cuda_msm and devlibs/ (from /work/shared/tools/device-bundle). Built here with
#   cmake -S . -B build-cuda -DZKPIPE_WERROR=ON -DZKPIPE_CUDA=ON -DZKPIPE_BUILD_SAMPLES=OFF \
#         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
#   cmake --build build-cuda --target cuda_emulation_test cuda_msm_emulation_test cuda_plan_test \
#     cuda_device_test bench_cuda_msm -j2
# Output (4–6 files, as the device tool returns at most 8): gpu.txt, tests.log, bench.log,
# bench.csv, sass.txt, sanitizer.log. The last lines printed are the benchmark table.
set -uo pipefail
bin=$(cd "${1:?usage: run_on_device.sh BIN_DIR}" && pwd)
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin/devlibs:${LD_LIBRARY_PATH:-}"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"

status=0
for t in cuda_emulation_test cuda_msm_emulation_test cuda_plan_test cuda_device_test; do
  log="$out/$t.tmp"
  timeout 300 "$bin/$t" --gtest_color=no > "$log" 2>&1 || status=1
  # On the device machine a skipped GPU test is a failure: it means no device was usable.
  if grep -q '^\[  SKIPPED \]' "$log"; then
    echo "$t: tests were SKIPPED on the device machine" | tee -a "$log"
    status=1
  fi
  echo "$t: $(grep -E '^\[  (PASSED|FAILED) ' "$log" | tr '\n' ' ')"
  { echo "=== $t"; cat "$log"; } >> "$out/tests.log"
  rm -f "$log"
done

# Register counts and instruction mix of the kernels (ptxas' view is in the build log).
if command -v cuobjdump > /dev/null; then
  cuobjdump -res-usage "$bin/bench_cuda_msm" > "$out/sass.txt" 2>&1
  echo "IMAD instructions in all kernels: $(cuobjdump -sass "$bin/bench_cuda_msm" | grep -c 'IMAD')" >> "$out/sass.txt"
fi

timeout 420 "$bin/bench_cuda_msm" --max-log 24 --reps 5 --sweep --csv "$out/bench.csv" 2>&1 | tee "$out/bench.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

# Out-of-bounds and race checks on a small MSM, if time allows.
if command -v compute-sanitizer > /dev/null; then
  timeout 120 compute-sanitizer --tool memcheck "$bin/cuda_device_test" --gtest_filter='DeviceMsm/0.Prefix*' \
    > "$out/sanitizer.log" 2>&1 || true
  tail -n 3 "$out/sanitizer.log"
fi
exit $status
