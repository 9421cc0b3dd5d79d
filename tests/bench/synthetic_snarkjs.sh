#!/bin/bash
# synthetic_snarkjs.sh TOOL — checks `zkpipe bench --synthetic`'s key generator from outside:
# for bn254:10 and bls12-381:10, TOOL (bench_synthetic_key_files) writes the key and witness, and
# snarkjs exports the key's verification key, proves with the key and the witness, and
# verifies: OK. Then the proof against a changed public input must be refused, so an OK is not
# snarkjs accepting anything. (2^10 rows, as the bench test: about 5 s with snarkjs.)
# Needs snarkjs from `npm ci --prefix tests/vectors`; exits 77 (ctest: skipped) without it.
set -uo pipefail
TOOL=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SNARKJS=$ROOT/tests/vectors/node_modules/.bin/snarkjs
[ -x "$SNARKJS" ] || { echo "snarkjs not installed (npm ci --prefix tests/vectors): skipped"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
for spec in bn254:10 bls12-381:10; do
  d=$TMP/${spec/:/-}
  mkdir -p "$d"
  if ! "$TOOL" "$spec" "$d"; then echo "FAIL  $spec: the tool failed"; fail=1; continue; fi
  if ! "$SNARKJS" zkey export verificationkey "$d/circuit.zkey" "$d/vkey.json" > "$d/log" 2>&1 ||
     ! "$SNARKJS" groth16 prove "$d/circuit.zkey" "$d/witness.wtns" "$d/proof.json" "$d/public.json" >> "$d/log" 2>&1; then
    echo "FAIL  $spec: snarkjs could not use the key: $(cat "$d/log")"; fail=1; continue
  fi
  if "$SNARKJS" groth16 verify "$d/vkey.json" "$d/public.json" "$d/proof.json" 2>&1 | grep -q "OK"; then
    echo "ok    $spec: snarkjs proves with the synthetic key and verifies the proof"
  else
    echo "FAIL  $spec: snarkjs rejects its own proof with the synthetic key"; fail=1
  fi
  # The public input is x_0 = 3 (synthetic_key.hpp); 4 instead must not verify.
  if grep -q '"3"' "$d/public.json"; then
    sed 's/"3"/"4"/' "$d/public.json" > "$d/public4.json"
    if "$SNARKJS" groth16 verify "$d/vkey.json" "$d/public4.json" "$d/proof.json" 2>&1 | grep -q "OK"; then
      echo "FAIL  $spec: snarkjs accepts the proof for another public input"; fail=1
    else
      echo "ok    $spec: the proof for another public input is refused"
    fi
  else
    echo "FAIL  $spec: public.json is not [\"3\"]: $(cat "$d/public.json")"; fail=1
  fi
done
exit $fail
