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

if [ ! -e "$BUILD_DIR/lib/libzkp_prover_cpu.so" ]; then
  # Until the CPU prover lands (issue 3) the only backend is the simulated device:
  # run the pipeline with it and say plainly that no proof is produced.
  echo "demo: the CPU prover is not built yet; running the pipeline on the SIMULATED device instead (no proofs)"
  "$zkpipe" run prover=sim pacer=greedy prover.devices=2 prover.gpu_ms=50 --partitions 10
  exit 0
fi

out=$(mktemp -d)
"$zkpipe" prove --backend cpu "$sample/circuit.zkey" "$sample/witness.wtns" "$out/proof.json" "$out/public.json"
echo "proof:  $out/proof.json"
echo "public: $out/public.json"
"$zkpipe" verify "$sample/vkey.json" "$out/public.json" "$out/proof.json"
snarkjs=tests/vectors/node_modules/.bin/snarkjs
if [ -x "$snarkjs" ]; then
  "$snarkjs" groth16 verify "$sample/vkey.json" "$out/public.json" "$out/proof.json"
fi
