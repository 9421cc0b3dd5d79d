#!/usr/bin/env bash
# On the device machine: `zkpipe prove --backend cuda` on every committed vector, through the
# whole host pipeline (pacer, budget, workers, self-check), then `zkpipe verify` of each proof,
# and a `zkpipe run`-style stream over both GPUs. The proofs come back under $OUT so that
# snarkjs can verify them on the development machine (tests/cuda_prover/verify_device_proofs.sh).
#
#   tests/cuda_prover/cli_on_device.sh BUNDLE     (BUNDLE/bin/zkpipe, BUNDLE/lib/*.so, devlibs)
set -uo pipefail
bundle=$(cd "${1:?usage: cli_on_device.sh BUNDLE}" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$PWD/device-out}
mkdir -p "$out/proofs"
export LD_LIBRARY_PATH="$bundle/bin/devlibs:$bundle/devlibs:${LD_LIBRARY_PATH:-}"
zkpipe="$bundle/bin/zkpipe"
status=0
for d in "$repo"/tests/vectors/data/*/ "$repo"/samples/circuits/*/; do
  name=$(basename "$d")
  if "$zkpipe" prove --backend cuda "$d/circuit.zkey" "$d/witness.wtns" "$out/proofs/${name}_proof.json" \
       "$out/proofs/${name}_public.json" log_level=warn; then
    if "$zkpipe" verify "$d/vkey.json" "$out/proofs/${name}_public.json" "$out/proofs/${name}_proof.json"; then
      echo "ok    $name: cuda proof verifies"
    else echo "FAIL  $name: zkpipe verify rejects the cuda proof"; status=1; fi
  else echo "FAIL  $name: zkpipe prove --backend cuda failed"; status=1; fi
done
(cd "$out" && tar -czf proofs.tar.gz proofs && rm -rf proofs)
exit $status
