#!/bin/bash
# usage: sbs.sh ROUNDS VARIANT... ; variants: rs (rapidsnark prover), or KERNEL@PLUGINDIR: the zkpipe
# CLI of this worktree's build with the cpu plugin in /tmp/cpuperf2/PLUGINDIR and ZKPIPE_FF_KERNEL=KERNEL
# (auto, adx, portable). Prints: variant wall_s user_s sys_s maxrss_kB load1
D=/work/anchors/oracle/out/chain16_bn128
ZK=/work/wt-cpuperf2/build/bin/zkpipe
R=$1; shift
cd /tmp/cpuperf2
for ((i = 0; i < R; i++)); do
  for v in "$@"; do
    L=$(cut -d' ' -f1 /proc/loadavg)
    if [ "$v" = rs ]; then
      /usr/bin/time -f "$v %e %U %S %M $L" -o t.txt /work/anchors/rapidsnark/build_prover/src/prover $D/circuit.zkey $D/witness.wtns o_rs.json op_rs.json > /dev/null 2>&1
    else
      k=${v%@*}; dir=${v#*@}
      ZKPIPE_FF_KERNEL=$k ZKPIPE_PLUGIN_PATH=/tmp/cpuperf2/$dir /usr/bin/time -f "$v %e %U %S %M $L" -o t.txt $ZK prove $D/circuit.zkey $D/witness.wtns o_$k$dir.json op_$k$dir.json > /dev/null 2>&1
    fi
    cat t.txt
  done
done
