#!/bin/bash
# check_vectors.sh [present|verify] — the CTest checks of the committed vectors.
#   present: every data/<circuit>_<curve>/ (and the README sample) holds all six files, non-empty.
#   verify:  `snarkjs groth16 verify` accepts each committed proof with its vkey and public.json.
#            Fails (never skips) when the pinned snarkjs is not installed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MODE=${1:-verify}
CIRCUITS="chain many_public poseidon"
CURVES="bn128 bls12381"
DIRS=""
for c in $CIRCUITS; do for k in $CURVES; do DIRS="$DIRS $HERE/data/${c}_${k}"; done; done
DIRS="$DIRS $HERE/../../samples/circuits/multiplier_bn128"
fail=0; n=0
case "$MODE" in
  present)
    for d in $DIRS; do
      for f in circuit.r1cs circuit.zkey witness.wtns vkey.json proof.json public.json; do
        n=$((n + 1))
        [ -s "$d/$f" ] || { echo "MISSING or empty: $d/$f (regenerate with tests/vectors/make_vectors.sh)"; fail=$((fail + 1)); }
      done
    done ;;
  verify)
    if [ ! -f "$HERE/node_modules/snarkjs/build/cli.cjs" ]; then
      echo "ERROR: snarkjs is not installed, so the committed proofs cannot be checked."
      echo "       Run: npm ci --prefix tests/vectors   (installs the pinned snarkjs 0.7.6 from package-lock.json)"
      exit 1
    fi
    for d in $DIRS; do
      n=$((n + 1))
      out=$(node "$HERE/node_modules/snarkjs/build/cli.cjs" groth16 verify "$d/vkey.json" "$d/public.json" "$d/proof.json" 2>&1)
      if echo "$out" | grep -q "OK!"; then echo "ok      $d"; else echo "REJECTED $d: $out"; fail=$((fail + 1)); fi
    done
    # The check must be able to fail: a proof against a changed public signal is rejected.
    n=$((n + 1))
    d=$HERE/data/chain_bn128; tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
    sed '0,/"[0-9]*"/s//"12345"/' "$d/public.json" > "$tmp"
    out=$(node "$HERE/node_modules/snarkjs/build/cli.cjs" groth16 verify "$d/vkey.json" "$tmp" "$d/proof.json" 2>&1)
    if echo "$out" | grep -q "Invalid proof"; then echo "ok      tampered public.json rejected"
    else echo "NOT REJECTED: tampered public.json for $d: $out"; fail=$((fail + 1)); fi ;;
  *) echo "usage: $0 present|verify"; exit 2 ;;
esac
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
