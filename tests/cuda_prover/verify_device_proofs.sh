#!/usr/bin/env bash
# verify_device_proofs.sh PROOFS_DIR: `snarkjs groth16 verify` on each <vector>_proof.json /
# <vector>_public.json that cli_on_device.sh made with `zkpipe prove --backend cuda` on the
# device machine (the device machine has no Node.js, so the oracle runs here).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
snarkjs="node $root/tests/vectors/node_modules/snarkjs/build/cli.cjs"
dir=${1:?usage: verify_device_proofs.sh PROOFS_DIR}
fail=0; n=0
for proof in "$dir"/*_proof.json; do
  name=$(basename "$proof" _proof.json)
  vdir=$root/tests/vectors/data/$name
  [ -d "$vdir" ] || vdir=$root/samples/circuits/$name
  n=$((n + 1))
  if $snarkjs groth16 verify "$vdir/vkey.json" "$dir/${name}_public.json" "$proof" 2>&1 | grep -q "OK!"; then
    echo "ok    $name: snarkjs verifies the CUDA proof"
  else echo "FAIL  $name: snarkjs rejects the CUDA proof"; fail=1; fi
done
[ $n -gt 0 ] || { echo "no proofs in $dir"; exit 1; }
exit $fail
