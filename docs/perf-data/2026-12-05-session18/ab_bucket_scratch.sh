#!/usr/bin/env bash
# main (c830759) cpu plugin vs the bucket-scratch change (branch cpu-rss, now c3f0a2c..034a06e):
# whole CLI on this machine, prover.threads=T, rounds interleaved. Paths as they were for the run.
set -uo pipefail
Z=/work/main/build/bin/zkpipe
export LD_LIBRARY_PATH=/work/main/build/lib
for N in "$@"; do
  K=/work/anchors/keys/bn254_$N
  for r in 1 2 3; do
    for T in ${THREADS:-2}; do
      for v in main rss; do
        dir=/work/main/build/lib; [ $v = rss ] && dir=/work/wt-rss/build-rss/lib
        ZKPIPE_PLUGIN_PATH=$dir /usr/bin/time -f "$N $T $v %e %U %S %M %x" -o /tmp/abrss/t.txt "$Z" prove $K/circuit.zkey $K/witness.wtns /tmp/abrss/p.json /tmp/abrss/pub.json prover.threads=$T > /tmp/abrss/out.txt 2>&1
        cat /tmp/abrss/t.txt
      done
    done
  done
done
