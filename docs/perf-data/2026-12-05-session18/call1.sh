#!/usr/bin/env bash
# Device call 1 (session 18): the cuda prover's device tests on main (c830759), then issue 18
# item 3's 16-core run that session 17 prepared: zkpipe's cpu prover from main and from the
# session-17 base (ee212e0) beside rapidsnark, on 2/4/8/16 cores (cpu_scaling_ab.sh).
set -uo pipefail
start=$SECONDS
tar xJf build/devpack18/dev18.tar.xz -C build && B=$PWD/build/dev18
export LD_LIBRARY_PATH=$B:$B/devlibs
mkdir -p "$OUT"
{ lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|MHz'; grep -o -w 'avx512ifma\|adx\|bmi2' /proc/cpuinfo | sort | uniq -c; free -g | head -2; } > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
ZKPIPE_DEVICE_BENCH=0 timeout 150 tests/cuda_prover/run_on_device.sh "$B" > "$OUT/prover_tests.txt" 2>&1
echo "prover tests rc=$? after $((SECONDS - start)) s"; tail -12 "$OUT/prover_tests.txt"
for t in cuda_device_test cuda_device_ntt_g2_test cuda_streamed_bases_test; do
  timeout 90 "$B/$t" --gtest_brief=1 > "$OUT/$t.txt" 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.txt" | tr '\n' ' ')"
done
echo "kernel tests done after $((SECONDS - start)) s"
S=docs/perf-data/2026-12-05-session17/cpu_scaling_ab.sh
{ bash $S "$B" "$B/base" 3 16 18; bash $S "$B" "$B/base" 2 20; } 2>&1 | tee "$OUT/cpu_scaling_ab.txt"
echo "all done after $((SECONDS - start)) s"
tar czf /tmp/results.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/results.tgz "$OUT/"
exit 0
