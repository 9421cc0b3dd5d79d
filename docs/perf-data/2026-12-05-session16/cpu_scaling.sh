#!/usr/bin/env bash
# Issue 18 item 3's scaling run: zkpipe's cpu prover (the CLI's `zkpipe prove`) against
# rapidsnark's `prover`, both on the same synthetic BN254 zkeys (bench_synthetic_key_files,
# INSECURE known-tau squaring chains), on 2, 4, 8 and 16 of the device machine's cores
# (taskset; both size their thread pools from the affinity mask), rounds interleaved.
# One line per run: log2 cores prover wall_s user_s sys_s maxrss_kB exit_status.
#   cpu_scaling.sh BIN_DIR ROUNDS LOG2...
set -uo pipefail
B=$1 R=$2; shift 2
export LD_LIBRARY_PATH=$B:$B/devlibs ZKPIPE_PLUGIN_PATH=$B
T=$(mktemp -d)
ncpu=$(nproc)
for N in "$@"; do
  mkdir -p "$T/k$N"
  /usr/bin/time -f "keygen $N %e s" "$B/bench_synthetic_key_files" "bn254:$N" "$T/k$N" 2>&1 | tail -1
  for ((i = 0; i < R; i++)); do
    for c in ${CORES:-2 4 8 16}; do
      [ "$c" -gt "$ncpu" ] && continue
      for v in rs zk; do
        case $v in
          rs) cmd=("$B/rapidsnark_prover" "$T/k$N/circuit.zkey" "$T/k$N/witness.wtns" "$T/p.json" "$T/pub.json") ;;
          zk) cmd=("$B/zkpipe" prove "$T/k$N/circuit.zkey" "$T/k$N/witness.wtns" "$T/p.json" "$T/pub.json") ;;
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
