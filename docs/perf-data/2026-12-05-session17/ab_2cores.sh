#!/usr/bin/env bash
# Session 17: zkpipe prove with the base plugin (ee212e0) and this session's, and rapidsnark, 3 rounds
# interleaved on the 2-core development machine; one line per run: round log2 prover wall user sys maxrss_kB exit.
# A/B of the whole CLI on this machine's 2 cores: base plugin (ee212e0) vs this session's, and rapidsnark.
set -u
B=/work/main/build
export LD_LIBRARY_PATH=$B/lib
K=/work/anchors/keys
RS=/work/anchors/rapidsnark/build_prover/src/prover
for round in 1 2 3; do
  for N in 16 18 20; do
    for v in base new rs; do
      case $v in
        base) cmd=(env ZKPIPE_PLUGIN_PATH=/tmp/oldplug $B/bin/zkpipe prove $K/bn254_$N/circuit.zkey $K/bn254_$N/witness.wtns /tmp/ab/p.json /tmp/ab/pub.json) ;;
        new)  cmd=(env ZKPIPE_PLUGIN_PATH=/tmp/v5plug $B/bin/zkpipe prove $K/bn254_$N/circuit.zkey $K/bn254_$N/witness.wtns /tmp/ab/p.json /tmp/ab/pub.json) ;;
        rs)   cmd=($RS $K/bn254_$N/circuit.zkey $K/bn254_$N/witness.wtns /tmp/ab/p.json /tmp/ab/pub.json) ;;
      esac
      load=$(cut -d' ' -f1 /proc/loadavg)
      /usr/bin/time -f "$round $N $v %e %U %S %M %x load=$load" -o /tmp/ab/t.txt "${cmd[@]}" > /tmp/ab/out.txt 2>&1
      cat /tmp/ab/t.txt
      grep -q ' 0 load' /tmp/ab/t.txt || tail -3 /tmp/ab/out.txt
    done
  done
done
