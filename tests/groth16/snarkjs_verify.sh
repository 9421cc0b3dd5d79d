#!/bin/bash
# snarkjs_verify.sh TOOL — for every committed vector (tests/groth16/data/*, tests/vectors/data/*):
# prove with zkpipe (TOOL = groth16_prove_json) with random (r, s) and check that
# `snarkjs groth16 verify` accepts it and public.json equals snarkjs's byte for byte; and, where the
# oracle's det/ dump exists, that r = s = 0 gives det/proof.json byte for byte.
# Needs snarkjs from `npm ci --prefix tests/vectors`; exits 77 (ctest: skipped) without it.
set -euo pipefail
TOOL=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SNARKJS=$ROOT/tests/vectors/node_modules/.bin/snarkjs
[ -x "$SNARKJS" ] || { echo "snarkjs not installed (npm ci --prefix tests/vectors): skipped"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0; count=0
for dir in "$HERE"/data/*/ "$ROOT"/tests/vectors/data/*/; do
  [ -f "$dir/circuit.zkey" ] || continue
  name=$(basename "$dir")
  out=$TMP/$name
  "$TOOL" "$dir/circuit.zkey" "$dir/witness.wtns" "$out"
  if "$SNARKJS" groth16 verify "$dir/vkey.json" "$out/public.json" "$out/proof.json" | grep -q "OK"; then
    echo "ok    $name: snarkjs verifies zkpipe's proof"
  else
    echo "FAIL  $name: snarkjs rejects zkpipe's proof"; fail=1
  fi
  cmp -s "$out/public.json" "$dir/public.json" || { echo "FAIL  $name: public.json differs from snarkjs's"; fail=1; }
  if [ -f "$dir/det/proof.json" ]; then
    "$TOOL" "$dir/circuit.zkey" "$dir/witness.wtns" "$out/det" 0 0
    if cmp -s "$out/det/proof.json" "$dir/det/proof.json"; then
      echo "ok    $name: r = s = 0 proof.json is byte-identical to snarkjs's"
    else
      echo "FAIL  $name: r = s = 0 proof.json differs from snarkjs's"; fail=1
    fi
  fi
  count=$((count + 1))
done
[ "$count" -gt 0 ] || { echo "FAIL: no vectors found"; exit 1; }
exit $fail
