#!/usr/bin/env bash
# Session 18, final code: zkpipe prove (this build's cpu plugin) beside rapidsnark on the 2-core
# development machine, rounds interleaved, then both at 16 threads for peak RSS.
# One line per run: round log2 threads prover wall user sys maxrss_kB exit load.
set -u
B=/work/main/build
export LD_LIBRARY_PATH=$B/lib ZKPIPE_PLUGIN_PATH=$B/lib
K=/work/anchors/keys
RS=/work/anchors/rapidsnark/build_prover/src/prover
mkdir -p /tmp/sbs
run() {  # round N threads prover
  local cmd
  case $4 in
    zk) cmd=($B/bin/zkpipe prove $K/bn254_$2/circuit.zkey $K/bn254_$2/witness.wtns /tmp/sbs/p.json /tmp/sbs/pub.json prover.threads=$3) ;;
    rs) cmd=(env OMP_NUM_THREADS=$3 $RS $K/bn254_$2/circuit.zkey $K/bn254_$2/witness.wtns /tmp/sbs/p.json /tmp/sbs/pub.json) ;;
  esac
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "$1 $2 $3 $4 %e %U %S %M %x load=$load" -o /tmp/sbs/t.txt "${cmd[@]}" > /tmp/sbs/out.txt 2>&1
  cat /tmp/sbs/t.txt
}
for round in 1 2; do
  for N in 16 18 20; do for v in zk rs; do run $round $N 2 $v; done; done
done
for N in 16 18; do for v in zk rs; do run 1 $N 16 $v; done; done
