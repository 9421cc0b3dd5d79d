#!/bin/bash
# cli_bellperson.sh ZKPIPE SETUP — the bellperson path end to end, through the CLI an operator
# runs, on every committed BLS12-381 circom vector:
#   SETUP (tests/tools/bellperson_setup, known tau) writes bellperson parameters for the r1cs;
#   zkpipe export-vkey writes their verification_key.json;
#   zkpipe prove --key-format bellperson --r1cs (cpu backend, random r, s) proves the witness;
#   `snarkjs groth16 verify` and `zkpipe verify` accept the proof, public.json equals snarkjs's,
#   and the --bellperson-proof file is 192 bytes;
#   a witness that breaks a constraint fails with exit 1, the constraint named, and no proof file.
# Needs the pinned snarkjs (npm ci --prefix tests/vectors): fails without it.
set -uo pipefail
ZKPIPE=$1
SETUP=$2
source "$(dirname "$0")/../support/script_checks.sh"
export ZKPIPE_LOG_LEVEL=warn

# README.md's bellperson block, verbatim, from a folder that looks like the repository root.
if ! readme_block bellperson "$(cd "$(dirname "$ZKPIPE")/.." && pwd)"; then
  bad "README.md has no bellperson-example block"
elif run_readme_block && grep -q "OK" "$TMP/readme/block.log" &&
     [ "$(stat -c %s "$TMP/readme/proof.bellperson")" -eq 192 ]; then
  ok "README.md's bellperson block ran ($(wc -l < "$TMP/readme/block.sh") lines): zkpipe verify OK"
else
  bad "README.md's bellperson block failed:"; tail -n 20 "$TMP/readme/block.log"
fi

for dir in "$ROOT"/tests/vectors/data/*_bls12381/; do
  name=$(basename "$dir")
  out=$TMP/$name
  mkdir -p "$out"
  if ! "$SETUP" "$dir/circuit.r1cs" "$out/circuit.params" --seed 7 2>"$out/setup.log"; then
    bad "$name: setup failed: $(tail -n 2 "$out/setup.log")"; continue
  fi
  if ! "$ZKPIPE" export-vkey "$out/circuit.params" "$out/vkey.json" 2>"$out/export.log"; then
    bad "$name: export-vkey failed: $(cat "$out/export.log")"; continue
  fi
  if ! "$ZKPIPE" prove --backend cpu --key-format bellperson --r1cs "$dir/circuit.r1cs" \
       --bellperson-proof "$out/proof.bellperson" "$out/circuit.params" "$dir/witness.wtns" \
       "$out/proof.json" "$out/public.json" 2>"$out/prove.log"; then
    bad "$name: prove failed: $(cat "$out/prove.log")"; continue
  fi
  if $SNARKJS groth16 verify "$out/vkey.json" "$out/public.json" "$out/proof.json" | grep -q "OK"; then
    ok "$name: snarkjs verifies the bellperson-key proof"
  else
    bad "$name: snarkjs rejects the bellperson-key proof"
  fi
  if "$ZKPIPE" verify "$out/vkey.json" "$out/public.json" "$out/proof.json" >/dev/null; then
    ok "$name: zkpipe verify accepts it"
  else
    bad "$name: zkpipe verify rejects it"
  fi
  if cmp -s "$out/public.json" "$dir/public.json"; then ok "$name: public.json equals snarkjs's"
  else bad "$name: public.json differs from snarkjs's"; fi
  size=$(stat -c %s "$out/proof.bellperson" 2>/dev/null || echo 0)
  if [ "$size" -eq 192 ]; then ok "$name: bellperson proof is 192 bytes"; else bad "$name: bellperson proof is $size bytes"; fi

  # The last witness value changed by one: some constraint breaks, and synthesis names it.
  python3 - "$dir/witness.wtns" "$out/bad.wtns" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[-32] ^= 1  # the low byte of the last value (n8 = 32): still below r
open(sys.argv[2], "wb").write(data)
PY
  msg=$("$ZKPIPE" prove --backend cpu --key-format bellperson --r1cs "$dir/circuit.r1cs" "$out/circuit.params" \
        "$out/bad.wtns" "$out/bad_proof.json" "$out/bad_public.json" 2>&1); rc=$?
  if [ $rc -eq 1 ] && echo "$msg" | grep -q "does not satisfy constraint" && [ ! -e "$out/bad_proof.json" ]; then
    ok "$name: a broken witness is refused: $(echo "$msg" | grep -o 'does not satisfy constraint [0-9]*')"
  else
    bad "$name: broken witness: exit $rc, $msg"
  fi
done
summary
