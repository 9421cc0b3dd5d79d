#!/usr/bin/env bash
# Device call 3 (session 16): where does the staged upload's extra time come from? The same
# build three ways, differing only in the workers' pinned staging: cudaMallocHost (_malloc),
# pin_host_memory with 4 KiB pages (_4k, the committed code) and with MADV_HUGEPAGE (_thp).
# Whole proofs, BN254 and BLS12-381 2^22, 2 workers, two rounds interleaved.
set -uo pipefail
tar xJf build/devpack3/dev3.tar.xz -C build && B=$PWD/build/dev3
export LD_LIBRARY_PATH=$B:$B/devlibs
mkdir -p "$OUT"
for round in 1 2; do
  for c in bn254 bls12_381; do
    for v in malloc 4k thp; do
      echo "== round $round $c $v"
      timeout 45 "$B/bench_cuda_prover_$v" --curve $c --min-log 22 --max-log 22 --reps 5 --workers 2 --throughput-log 0 2>&1 | grep -v '^  log: cuda: [0-9]' | cut -c1-420
    done
  done
done | tee "$OUT/staging_variants.txt"
