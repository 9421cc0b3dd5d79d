#!/bin/bash
# usage: sbs.sh ROUNDS VARIANT... ; variants: rs (rapidsnark prover) or a plugin folder name under /tmp/cpuperf
# prints: variant wall_s user_s sys_s maxrss_kB load1
D=/work/anchors/oracle/out/chain16_bn128
R=$1; shift
cd /tmp/cpuperf
for ((i = 0; i < R; i++)); do
  for v in "$@"; do
    L=$(cut -d' ' -f1 /proc/loadavg)
    if [ "$v" = rs ]; then
      /usr/bin/time -f "$v %e %U %S %M $L" -o t.txt /work/anchors/rapidsnark/build_prover/src/prover $D/circuit.zkey $D/witness.wtns o_rs.json op_rs.json > /dev/null 2>&1
    else
      ZKPIPE_PLUGIN_PATH=/tmp/cpuperf/$v /usr/bin/time -f "$v %e %U %S %M $L" -o t.txt /work/wt-cpuperf/build/bin/zkpipe prove $D/circuit.zkey $D/witness.wtns o_$v.json op_$v.json > /dev/null 2>&1
    fi
    cat t.txt
  done
done
