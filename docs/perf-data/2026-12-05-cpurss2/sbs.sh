#!/bin/bash
# usage: sbs.sh ROUNDS LOG2 VARIANT... ; interleaved side by side of whole proofs (the whole CLI
# command: process start, key load with the on-curve checks, prove, the CLI's self-check, write),
# one line per run. The same as ../2026-12-04-cpurss/sbs.sh, with /tmp/rss2 for the copies.
# Variants: rs (rapidsnark's `prover`, built under /work/anchors as /work/shared/tools/README.md
# says), or DIR: the zkpipe CLI, cpu plugin and greedy pacer copied from a build into
# /tmp/rss2/DIR (base = main 37bcd0d, new = branch rss2), default kernel (auto: IFMA on this CPU).
# Keys: bench_synthetic_key_files bn254:LOG2 (zkpipe's synthetic squaring chain, known toxic
# waste, INSECURE), outside the repository.
# Prints: log2 variant wall_s user_s sys_s maxrss_kB load1 exit_status
K=/work/anchors/keys/bn254_$2
RS=/work/anchors/rapidsnark/build_prover/src/prover
R=$1; N=$2; shift 2
mkdir -p /tmp/rss2/run && cd /tmp/rss2/run || exit 1
for ((i = 0; i < R; i++)); do
  for v in "$@"; do
    L=$(cut -d' ' -f1 /proc/loadavg)
    if [ "$v" = rs ]; then
      /usr/bin/time -f "$N $v %e %U %S %M $L %x" -o t.txt $RS $K/circuit.zkey $K/witness.wtns p_rs_$N.json pub_rs_$N.json > /dev/null 2>&1
    else
      ZKPIPE_PLUGIN_PATH=/tmp/rss2/$v /usr/bin/time -f "$N $v %e %U %S %M $L %x" -o t.txt \
        /tmp/rss2/$v/zkpipe prove $K/circuit.zkey $K/witness.wtns p_${v}_$N.json pub_${v}_$N.json > log_${v}_$N.txt 2>&1
    fi
    cat t.txt
  done
done
