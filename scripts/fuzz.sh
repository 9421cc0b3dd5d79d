#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (ASan + UBSan, tests/fuzz.cmake) into build-fuzz/
# and runs each on its committed corpus, tests/fuzz-corpus/<target>/, for SECONDS (default 60),
# two at a time. Fails on any crash, sanitizer report, leak or timeout; the input is left in
# build-fuzz/artifacts/ and the fuzzer's log in build-fuzz/logs/<target>.log.
#
#   scripts/fuzz.sh [SECONDS]     build, then run every target (what .ci/run's phase runs)
#   scripts/fuzz.sh --merge       fold what the runs found (build-fuzz/grown/<target>/) into the
#                                 committed corpus: -merge=1 adds only the inputs that add
#                                 coverage over it, for a developer to commit
#   FUZZ_TARGETS="config json" FUZZ_PARALLEL=2 scripts/fuzz.sh 3600
#                                 the hour-long runs of docs/RELIABILITY.md, a few at a time
#   FUZZ_BUILD_TYPE=Sanitize scripts/fuzz.sh 30
#                                 CI's short runs: -O1 -g1 builds in less time than the default
#                                 RelWithDebInfo (-O2 -g), which runs more inputs per second
#
# New inputs a run finds go to build-fuzz/grown/<target>/, never into the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
TARGETS=(zkey wtns r1cs json bellperson_params config serve_request)
if [ -n "${FUZZ_TARGETS:-}" ]; then read -r -a TARGETS <<<"$FUZZ_TARGETS"; fi
PARALLEL=${FUZZ_PARALLEL:-2}

export CC=${CC_FUZZ:-clang-14} CXX=${CXX_FUZZ:-clang++-14}
# Only the fuzzers and the libraries they link (no CUDA), with warnings as errors as elsewhere.
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${FUZZ_BUILD_TYPE:-RelWithDebInfo}" -DZKPIPE_FUZZ=ON -DZKPIPE_CUDA=OFF \
  -DZKPIPE_BUILD_BENCHMARKS=OFF -DZKPIPE_BUILD_SAMPLES=OFF -DZKPIPE_WERROR=ON >/dev/null
build_targets=()
for t in "${TARGETS[@]}"; do build_targets+=(--target "fuzz_$t"); done
cmake --build "$BUILD_DIR" -j"$(nproc)" "${build_targets[@]}"

if [ "${1:-}" = "--merge" ]; then
  # -merge=1 into the committed folder: its files stay, and of the inputs found only those that
  # add coverage over them are copied in.
  for t in "${TARGETS[@]}"; do
    [ -d "$BUILD_DIR/grown/$t" ] || continue
    before=$(ls "tests/fuzz-corpus/$t" | wc -l)
    "$BUILD_DIR/bin/fuzz_$t" -merge=1 -max_len=8192 "tests/fuzz-corpus/$t" "$BUILD_DIR/grown/$t" >"$BUILD_DIR/logs/$t.merge.log" 2>&1
    echo "fuzz: tests/fuzz-corpus/$t: $before + $(($(ls "tests/fuzz-corpus/$t" | wc -l) - before)) inputs," \
      "$(du -sk "tests/fuzz-corpus/$t" | cut -f1) KiB"
  done
  exit 0
fi

seconds=${1:-60}
mkdir -p "$BUILD_DIR/logs" "$BUILD_DIR/artifacts"
# run_one TARGET: the fuzzer for `seconds`, then its final figures on one line.
run_one() {
  local t=$1 log="$BUILD_DIR/logs/$1.log"
  mkdir -p "$BUILD_DIR/grown/$t"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a parser allocating what an input
  # claims, unchecked, is a bug; the thread pools of the entry points are one thread each.
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$BUILD_DIR/bin/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$BUILD_DIR/artifacts/$t-" "$BUILD_DIR/grown/$t" "tests/fuzz-corpus/$t" >"$log" 2>&1; then
    echo "fuzz_$t: ok: $(grep -m1 '^stat::number_of_executed_units' "$log" | awk '{print $2}') executions in ${seconds} s," \
      "coverage $(grep -o 'cov: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2) edges," \
      "features $(grep -o 'ft: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)," \
      "corpus $(ls "tests/fuzz-corpus/$t" | wc -l) committed + $(ls "$BUILD_DIR/grown/$t" | wc -l) found"
  else
    echo "fuzz_$t: FAILED (log $log; input in $BUILD_DIR/artifacts/):"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -n 5
    return 1
  fi
}

failed=0
pids=()
for t in "${TARGETS[@]}"; do
  run_one "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$PARALLEL" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ $failed -eq 0 ] || { echo "fuzz: a fuzzer failed"; exit 1; }
echo "fuzz: ${#TARGETS[@]} targets, ${seconds} s each, no crash"
