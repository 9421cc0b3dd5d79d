#!/usr/bin/env bash
# For the next device machine: session 16's scaling run (cpu_scaling.sh) with two cpu plugins side
# by side, so the 16-core effect of this session's split and serial-stretch changes is measured,
# not replayed. zkpipe's `prove` with the plugin from BASE_PLUGIN_DIR (main ee212e0) and from
# BIN_DIR (this build), and rapidsnark's `prover`, on the same synthetic BN254 zkeys, under
# taskset on $CORES cores (default 2 4 8 16), rounds interleaved.
# One line per run: log2 cores variant wall_s user_s sys_s maxrss_kB exit_status.
#   cpu_scaling_ab.sh BIN_DIR BASE_PLUGIN_DIR ROUNDS LOG2...
set -uo pipefail
B=$1 BASE=$2 R=$3; shift 3
export LD_LIBRARY_PATH=$B:$B/devlibs
T=$(mktemp -d)
ncpu=$(nproc)
for N in "$@"; do
  mkdir -p "$T/k$N"
  /usr/bin/time -f "keygen $N %e s" "$B/bench_synthetic_key_files" "bn254:$N" "$T/k$N" 2>&1 | tail -1
  for ((i = 0; i < R; i++)); do
    for c in ${CORES:-2 4 8 16}; do
      [ "$c" -gt "$ncpu" ] && continue
      for v in rs base this; do
        case $v in
          rs) cmd=("$B/rapidsnark_prover" "$T/k$N/circuit.zkey" "$T/k$N/witness.wtns" "$T/p.json" "$T/pub.json") ;;
          base) cmd=(env ZKPIPE_PLUGIN_PATH="$BASE" "$B/zkpipe" prove "$T/k$N/circuit.zkey" "$T/k$N/witness.wtns" "$T/p.json" "$T/pub.json") ;;
          this) cmd=(env ZKPIPE_PLUGIN_PATH="$B" "$B/zkpipe" prove "$T/k$N/circuit.zkey" "$T/k$N/witness.wtns" "$T/p.json" "$T/pub.json") ;;
        esac
        OMP_NUM_THREADS=$c /usr/bin/time -f "$N $c $v %e %U %S %M %x" -o "$T/t.txt" taskset -c 0-$((c - 1)) "${cmd[@]}" > "$T/out.txt" 2>&1
        cat "$T/t.txt"
        grep -q ' 0$' "$T/t.txt" || tail -3 "$T/out.txt"
      done
    done
  done
  rm -rf "$T/k$N"
done
rm -rf "$T"
