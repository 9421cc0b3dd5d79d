#!/bin/bash
# usage: sbs.sh ROUNDS LOG2 VARIANT... ; interleaved side by side of whole proofs (the whole CLI
# command: process start, key load with the on-curve checks, prove, the CLI's self-check, write),
# one line per run: log2 variant wall_s user_s sys_s maxrss_kB load1 exit_status.
# Variants: rs (rapidsnark's `prover`, built beside zkpipe as /work/shared/tools/README.md says),
# base (zkpipe at 37bcd0d, a CPU-only Release build: its own CLI and plugins), new (this commit's
# build: its own CLI and plugins).
# Keys: bench_synthetic_key_files bn254:LOG2 (zkpipe's synthetic squaring chain, known toxic
# waste, INSECURE), outside the repository.
K=/work/anchors/keys/bn254_$2
RS=/work/anchors/rapidsnark/build_prover/src/prover
BASE=/work/wt-rss/build-rel/bin/zkpipe
NEW=$(cd "$(dirname "$0")/../../.." && pwd)/build/bin/zkpipe
R=$1; N=$2; shift 2
T=$(mktemp -d)
for ((i = 0; i < R; i++)); do
  for v in "$@"; do
    L=$(cut -d' ' -f1 /proc/loadavg)
    case $v in
      rs) cmd=("$RS" "$K/circuit.zkey" "$K/witness.wtns" "$T/p.json" "$T/pub.json") ;;
      base) cmd=("$BASE" prove "$K/circuit.zkey" "$K/witness.wtns" "$T/p.json" "$T/pub.json") ;;
      new) cmd=("$NEW" prove "$K/circuit.zkey" "$K/witness.wtns" "$T/p.json" "$T/pub.json") ;;
    esac
    /usr/bin/time -f "$N $v %e %U %S %M $L %x" -o "$T/t.txt" "${cmd[@]}" > /dev/null 2>&1
    cat "$T/t.txt"
  done
done
rm -rf "$T"
