#!/usr/bin/env bash
# input.json to proof on the CPU, side by side in one run (issue 41 item 5, CPU part): zkpipe
# (`zkpipe prove --witness-generator G --input`, the cpu prover, the circom generator built at
# -O2) against snarkjs (`snarkjs groth16 fullprove`: the circuit's wasm witness, then its prover),
# each a fresh process as a CLI user runs it, REPS rounds interleaved; medians and their ratio.
# Both proofs verified once by snarkjs. A benchmark, not a test.
#
#   input_to_proof.sh ZKPIPE_BINARY [REPS]     (from the repository root; circuits: the committed
#                                              vectors' poseidon and chain, BN254)
set -euo pipefail
zkpipe=$(readlink -f "${1:?usage: input_to_proof.sh ZKPIPE [REPS]}")
reps=${2:-7}
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vec=$root/tests/vectors
snarkjs="node $vec/node_modules/snarkjs/cli.js"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now_ms() { date +%s%3N; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); commit $(git -C "$root" rev-parse --short HEAD)"
for circuit in poseidon chain; do
  v=$vec/data/${circuit}_bn128
  (cd "$vec" && node node_modules/circom2/cli.js "circuits/$circuit.circom" --c --no_asm --wasm -l node_modules -o "$work" >/dev/null)
  "$zkpipe" witness build "$work/${circuit}_cpp" -o "$work/$circuit.witness.so" >/dev/null
  z=() s=()
  for _ in $(seq "$reps"); do
    t0=$(now_ms)
    "$zkpipe" prove --witness-generator "$work/$circuit.witness.so" --input "$v/input.json" "$v/circuit.zkey" \
      "$work/zp.json" "$work/zpub.json" log_level=error 2>/dev/null
    t1=$(now_ms)
    $snarkjs groth16 fullprove "$v/input.json" "$work/${circuit}_js/$circuit.wasm" "$v/circuit.zkey" "$work/sp.json" "$work/spub.json" >/dev/null
    t2=$(now_ms)
    z+=($((t1 - t0))) s+=($((t2 - t1)))
  done
  $snarkjs groth16 verify "$v/vkey.json" "$work/zpub.json" "$work/zp.json" | grep -q OK || { echo "zkpipe's proof does not verify"; exit 1; }
  $snarkjs groth16 verify "$v/vkey.json" "$work/spub.json" "$work/sp.json" | grep -q OK || { echo "snarkjs's proof does not verify"; exit 1; }
  zm=$(printf '%s\n' "${z[@]}" | median) sm=$(printf '%s\n' "${s[@]}" | median)
  echo "$circuit (BN254, $(grep -o '[0-9]* wires' <<<"$("$zkpipe" witness info "$work/$circuit.witness.so" | sed 's/ signals/ wires/')" || true)): zkpipe ${zm} ms, snarkjs ${sm} ms (median of $reps, process start included): $(awk -v a="$sm" -v b="$zm" 'BEGIN {printf "%.1f", a / b}')x"
  echo "  zkpipe runs: ${z[*]}; snarkjs runs: ${s[*]}"
done
