#!/usr/bin/env bash
# Runs the CUDA tests and benchmarks on the device machine, writing results to $OUT.
#
#   tests/cuda/run_on_device.sh BIN_DIR [all|msm|new]
#
#   all (default)  everything below
#   msm            the G1 MSM tests and bench_cuda_msm (the first device run's set)
#   new            the H step and G2 MSM: cuda_device_ntt_g2_test, bench_cuda_ntt,
#                  bench_cuda_msm_g2, and the sanitizers on the H step (≤ 5 minutes)
#
# BIN_DIR holds whichever of cuda_emulation_test, cuda_msm_emulation_test, cuda_ntt_emulation_test,
# cuda_plan_test, cuda_device_test, cuda_device_ntt_g2_test, bench_cuda_msm, bench_cuda_ntt,
# bench_cuda_msm_g2 were built (missing ones are reported and skipped), and devlibs/ (from
# /work/shared/tools/device-bundle). Built here with
#   cmake -S . -B build-cuda -DZKPIPE_WERROR=ON -DZKPIPE_CUDA=ON -DZKPIPE_BUILD_SAMPLES=OFF \
#         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
#   cmake --build build-cuda --target cuda_emulation_test cuda_msm_emulation_test cuda_plan_test \
#     cuda_device_test bench_cuda_msm cuda_ntt_emulation_test cuda_device_ntt_g2_test bench_cuda_ntt \
#     bench_cuda_msm_g2 -j2
# Output (at most 7 files, as the device tool returns at most 8): gpu.txt, tests.log, bench.log,
# bench.csv, sass.txt, sanitizer.log, bench_h_g2.log. The last lines printed are benchmark tables.
set -uo pipefail
bin=$(cd "${1:?usage: run_on_device.sh BIN_DIR [all|msm|new]}" && pwd)
mode=${2:-all}
case "$mode" in all|msm|new) ;; *) echo "unknown mode $mode (all|msm|new)" >&2; exit 2 ;; esac
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin/devlibs:${LD_LIBRARY_PATH:-}"
want() { [ "$mode" = all ] || [ "$mode" = "$1" ]; }
have() {
  if [ -x "$bin/$1" ]; then return 0; fi
  echo "$1: not in $bin, skipped" | tee -a "$out/tests.log"
  return 1
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"

status=0
tests=()
want msm && tests+=(cuda_emulation_test cuda_msm_emulation_test cuda_plan_test cuda_device_test)
want new && tests+=(cuda_device_ntt_g2_test)
[ "$mode" = all ] && tests+=(cuda_ntt_emulation_test)
for t in "${tests[@]}"; do
  have "$t" || { status=1; continue; }
  log="$out/$t.tmp"
  limit=300
  [ "$t" = cuda_device_ntt_g2_test ] && limit=90
  timeout "$limit" "$bin/$t" --gtest_color=no > "$log" 2>&1 || status=1
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
  for b in bench_cuda_msm bench_cuda_ntt bench_cuda_msm_g2; do
    [ -x "$bin/$b" ] || continue
    if [ "$b" = bench_cuda_msm ] && ! want msm; then continue; fi
    if [ "$b" != bench_cuda_msm ] && ! want new; then continue; fi
    { echo "=== $b"; cuobjdump -res-usage "$bin/$b"
      echo "IMAD instructions in all kernels: $(cuobjdump -sass "$bin/$b" | grep -c 'IMAD')"; } >> "$out/sass.txt" 2>&1
  done
fi

if want new; then
  : > "$out/bench_h_g2.log"
  if have bench_cuda_ntt; then
    timeout 60 "$bin/bench_cuda_ntt" --min-log 16 --max-log 24 --reps 5 2>&1 | tee -a "$out/bench_h_g2.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  else status=1; fi
  if have bench_cuda_msm_g2; then
    timeout 90 "$bin/bench_cuda_msm_g2" --min-log 16 --max-log 22 --reps 3 2>&1 | tee -a "$out/bench_h_g2.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  else status=1; fi
fi

if want msm && have bench_cuda_msm; then
  timeout 420 "$bin/bench_cuda_msm" --max-log 24 --reps 5 --sweep --csv "$out/bench.csv" 2>&1 | tee "$out/bench.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

# Out-of-bounds and race checks on small inputs, if time allows: the MSM (memcheck), the
# H step's tile kernels (memcheck, and racecheck for the shared-memory barriers).
if command -v compute-sanitizer > /dev/null; then
  : > "$out/sanitizer.log"
  if want msm && [ -x "$bin/cuda_device_test" ]; then
    { echo "=== memcheck cuda_device_test DeviceMsm/0.Prefix*"
      timeout 120 compute-sanitizer --tool memcheck "$bin/cuda_device_test" --gtest_filter='DeviceMsm/0.Prefix*'; } \
      >> "$out/sanitizer.log" 2>&1 || true
  fi
  if want new && [ -x "$bin/cuda_device_ntt_g2_test" ]; then
    for tool in memcheck racecheck; do
      { echo "=== $tool cuda_device_ntt_g2_test DeviceHStep/*.OddCoset*"
        timeout 25 compute-sanitizer --tool "$tool" "$bin/cuda_device_ntt_g2_test" --gtest_filter='DeviceHStep/*.OddCoset*'; } \
        >> "$out/sanitizer.log" 2>&1 || true
    done
  fi
  grep -E '^===|ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer.log"
fi
exit $status
