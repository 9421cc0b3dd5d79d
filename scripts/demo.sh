#!/usr/bin/env bash
# The README's main job: installs dependencies, builds, proves the sample circuit
# (samples/circuits/multiplier_bn128) on the CPU backend, and verifies the proof with
# zkpipe and, when the pinned snarkjs is installed, with snarkjs too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
zkpipe="$BUILD_DIR/bin/zkpipe"
sample=samples/circuits/multiplier_bn128

out=$(mktemp -d)
"$zkpipe" prove --backend cpu "$sample/circuit.zkey" "$sample/witness.wtns" "$out/proof.json" "$out/public.json"
echo "proof:  $out/proof.json"
echo "public: $out/public.json"
"$zkpipe" verify "$sample/vkey.json" "$out/public.json" "$out/proof.json"
snarkjs=tests/vectors/node_modules/.bin/snarkjs
if [ -x "$snarkjs" ]; then
  "$snarkjs" groth16 verify "$sample/vkey.json" "$out/public.json" "$out/proof.json"
fi
