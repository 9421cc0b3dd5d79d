#!/bin/bash
# usage: sbs.sh ROUNDS LOG2 VARIANT... ; interleaved side by side of whole proofs (the whole CLI
# command: process start, key load, prove, the CLI's self-check, write), one line per run.
# Variants: rs (rapidsnark's `prover`, built beside zkpipe as /work/shared/tools/README.md says),
# or KERNEL@DIR: the zkpipe CLI of this branch's build with the cpu plugin found in
# /tmp/g2/DIR (base = 9a07816, v1 = 74fab83, v2 = 85e1d9e) and ZKPIPE_FF_KERNEL=KERNEL.
# Keys: bench_synthetic_key_files bn254:LOG2 (zkpipe's synthetic squaring chain, known toxic
# waste, INSECURE), outside the repository.
# Prints: log2 variant wall_s user_s sys_s maxrss_kB load1 exit_status
K=/work/anchors/keys/bn254_$2
ZK=/tmp/g2/cli/bin/zkpipe
RS=/work/anchors/rapidsnark/build_prover/src/prover
R=$1; N=$2; shift 2
cd /tmp/g2/run || exit 1
for ((i = 0; i < R; i++)); do
  for v in "$@"; do
    L=$(cut -d' ' -f1 /proc/loadavg)
    if [ "$v" = rs ]; then
      /usr/bin/time -f "$N $v %e %U %S %M $L %x" -o t.txt $RS $K/circuit.zkey $K/witness.wtns p_rs_$N.json pub_rs_$N.json > /dev/null 2>&1
    else
      k=${v%@*}; dir=${v#*@}
      ZKPIPE_FF_KERNEL=$k ZKPIPE_PLUGIN_PATH=/tmp/g2/$dir /usr/bin/time -f "$N $v %e %U %S %M $L %x" -o t.txt \
        $ZK prove $K/circuit.zkey $K/witness.wtns p_${k}_${dir}_$N.json pub_${k}_${dir}_$N.json > log_${k}_${dir}_$N.txt 2>&1
    fi
    cat t.txt
  done
done
