#!/usr/bin/env bash
# Device call 3 (session 16): the cuda prover's device tests on main's final build, then where
# the staged upload's extra time comes from: the same build three ways, differing only in the
# workers' pinned staging: cudaMallocHost (_malloc), pin_host_memory with 4 KiB pages (_4k, the
# committed code) and with MADV_HUGEPAGE (_thp). Whole proofs at 2^22, 2 workers, rounds
# interleaved while time allows.
set -uo pipefail
start=$SECONDS
tar xJf build/devpack3/dev3.tar.xz -C build && B=$PWD/build/dev3
export LD_LIBRARY_PATH=$B:$B/devlibs
mkdir -p "$OUT"
ZKPIPE_DEVICE_BENCH=0 timeout 90 tests/cuda_prover/run_on_device.sh "$B" 2>&1 | tail -8
echo "prover tests rc=${PIPESTATUS[0]} after $((SECONDS - start)) s"
for round in 1 2; do
  for c in bn254 bls12_381; do
    [ $((SECONDS - start)) -gt 150 ] && break 2
    for v in malloc 4k thp; do
      echo "== round $round $c $v"
      timeout 30 "$B/bench_cuda_prover_$v" --curve $c --min-log 22 --max-log 22 --reps 5 --workers 2 --throughput-log 0 2>&1 | grep -v '^  log: cuda: [0-9]' | cut -c1-420
    done
  done
done | tee "$OUT/staging_variants.txt"
tar czf /tmp/results.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/results.tgz "$OUT/"
