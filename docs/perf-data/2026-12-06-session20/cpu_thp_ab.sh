#!/usr/bin/env bash
# Issue 18 item 3 on a device machine's CPU cores: the whole `zkpipe prove` of two builds side by
# side, base (main 68f385d: file and domain buffers in 4 KiB pages) and this (a later commit:
# map_large's huge pages from 558985e, the batched on-curve check from b7fd6b0), on the same synthetic BN254 zkeys, under taskset on $CORES cores
# (default 2 16), rounds interleaved. One line per run:
#   log2 cores variant wall_s user_s sys_s maxrss_kB exit_status key_load_ms
#   cpu_thp_ab.sh BASE_DIR THIS_DIR ROUNDS LOG2...
set -uo pipefail
BASE=$1 THIS=$2 R=$3; shift 3
T=$(mktemp -d)
ncpu=$(nproc)
for N in "$@"; do
  mkdir -p "$T/k$N"
  LD_LIBRARY_PATH=$THIS/lib:$THIS/devlibs /usr/bin/time -f "keygen $N %e s" "$THIS/bin/bench_synthetic_key_files" "bn254:$N" "$T/k$N" 2>&1 | tail -1
  for ((i = 0; i < R; i++)); do
    for c in ${CORES:-2 16}; do
      [ "$c" -gt "$ncpu" ] && continue
      for v in base this; do
        if [ $v = base ]; then B=$BASE; else B=$THIS; fi
        LD_LIBRARY_PATH=$B/lib:$B/devlibs /usr/bin/time -f "$N $c $v %e %U %S %M %x" -o "$T/t.txt" \
          taskset -c 0-$((c - 1)) "$B/bin/zkpipe" prove "$T/k$N/circuit.zkey" "$T/k$N/witness.wtns" \
          "$T/p.json" "$T/pub.json" > "$T/out.txt" 2>&1
        echo "$(cat "$T/t.txt") $(grep -o 'domain [0-9]*, [0-9]* ms' "$T/out.txt" | cut -d, -f2)"
        grep -q ' 0$' "$T/t.txt" || tail -3 "$T/out.txt"
      done
    done
  done
  rm -rf "$T/k$N"
done
rm -rf "$T"
