#!/bin/bash
# make_vectors.sh — regenerate zkpipe's committed Groth16 test vectors with the pinned snarkjs
# 0.7.6 + circom2 0.2.23 (package-lock.json). Needs `npm ci --prefix tests/vectors` first.
#
#   make_vectors.sh                       all circuits x both curves into data/, plus the README
#                                         sample in samples/circuits/multiplier_bn128/
#   make_vectors.sh CIRCUIT CURVE OUTDIR [DIR]
#                                         one vector: DIR/CIRCUIT.circom with DIR/CIRCUIT_input.json
#                                         (DIR defaults to circuits/), CURVE = bn128 | bls12381
#
# Output per folder: circuit.r1cs circuit.zkey witness.wtns vkey.json proof.json public.json,
# plus input.json, info.txt (snarkjs r1cs info) and timings.tsv (step, seconds).
# The setup uses the committed ptau/CURVE_POWER.ptau (make_ptau.sh); contributions draw fresh
# randomness, so regenerated keys and proofs differ byte-wise from the committed ones — the
# tests read expected header numbers, not hashes.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PTAU_POWER=11      # largest domain 2^11: circuits stay below 2048 constraints + public signals
NODE="node --max-old-space-size=4096"
SJ="$NODE $HERE/node_modules/snarkjs/build/cli.cjs"
CIRCOM="$NODE $HERE/node_modules/circom2/cli.js"
[ -d "$HERE/node_modules/snarkjs" ] || { echo "snarkjs missing: run 'npm ci --prefix tests/vectors'" >&2; exit 1; }

one() {  # one CIRCUIT CURVE OUTDIR [CIRCUIT_DIR]
  local name=$1 curve=$2 out=$3 cdir=${4:-$HERE/circuits}
  case "$curve" in bn128|bls12381) ;; *) echo "curve must be bn128 or bls12381" >&2; exit 2;; esac
  local ptau=$HERE/ptau/${curve}_${PTAU_POWER}.ptau
  [ -f "$ptau" ] || { echo "missing $ptau: run make_ptau.sh $curve $PTAU_POWER" >&2; exit 1; }
  mkdir -p "$out"; out=$(cd "$out" && pwd)
  local tmp; tmp=$(mktemp -d)
  rm -f "$out/timings.tsv"
  step() {  # step NAME cmd... : run in $tmp, keep the log on failure, record wall seconds
    local label=$1; shift
    local t0; t0=$(date +%s.%N)
    (cd "$tmp" && "$@") > "$tmp/$label.log" 2>&1 || { cat "$tmp/$label.log" >&2; echo "FAILED: $label ($name $curve)" >&2; exit 1; }
    printf "%s\t%.1f\n" "$label" "$(echo "$(date +%s.%N) - $t0" | bc)" >> "$out/timings.tsv"
  }
  cp "$cdir/${name}_input.json" "$out/input.json"
  # circom2 runs under WASI with the ancestors of its working directory preopened, and finds
  # include (-l) folders only below it: so compile from here with node_modules as a plain
  # relative path (an absolute or ../ include path is not found).
  local src; src=$(realpath --relative-to="$HERE" "$cdir/$name.circom")
  step compile bash -c "cd '$HERE' && $CIRCOM '$src' --r1cs --wasm --prime '$curve' -o '$tmp' -l node_modules"
  mv "$tmp/$name.r1cs" "$tmp/circuit.r1cs"
  step setup $SJ groth16 setup circuit.r1cs "$ptau" circuit_0000.zkey
  step contribute $SJ zkey contribute circuit_0000.zkey "$out/circuit.zkey" --name="zkpipe vectors" -e="zkpipe $name $curve $RANDOM"
  step export_vkey $SJ zkey export verificationkey "$out/circuit.zkey" "$out/vkey.json"
  step witness $SJ wtns calculate ${name}_js/${name}.wasm "$out/input.json" "$out/witness.wtns"
  step wtns_check $SJ wtns check circuit.r1cs "$out/witness.wtns"
  step prove $SJ groth16 prove "$out/circuit.zkey" "$out/witness.wtns" "$out/proof.json" "$out/public.json"
  step verify $SJ groth16 verify "$out/vkey.json" "$out/public.json" "$out/proof.json"
  grep -q "OK!" "$tmp/verify.log" || { cat "$tmp/verify.log" >&2; echo "VERIFY FAILED ($name $curve)" >&2; exit 1; }
  cp "$tmp/circuit.r1cs" "$out/circuit.r1cs"
  $SJ r1cs info "$out/circuit.r1cs" | sed 's/\x1b\[[0-9;]*m//g; s/^ *snarkJS: //' > "$out/info.txt"
  rm -rf "$tmp"
  echo "ok  $name $curve -> $out ($(du -sh "$out" | cut -f1))"
}

if [ $# -ge 3 ]; then one "$@"; exit 0; fi
[ $# -eq 0 ] || { sed -n 2,16p "$0" >&2; exit 2; }
for c in chain many_public poseidon; do
  for curve in bn128 bls12381; do one $c $curve "$HERE/data/${c}_${curve}"; done
done
one multiplier bn128 "$HERE/../../samples/circuits/multiplier_bn128" "$HERE/../../samples/circuits"
du -sh "$HERE/data"
