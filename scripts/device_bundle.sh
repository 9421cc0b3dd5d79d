#!/usr/bin/env bash
# Gathers what the device scripts carry from a CUDA build into one folder and a tar.xz beside it
# (the device machine gets 64 MiB a call): the cuda prover's tests and benchmarks, the synthesis
# test and benchmark, zkpipe-device, the plugins, bench_bellperson and the supraseal-c2 crate's
# porep_sector example (built here with --features cuzk), then the non-system libraries
# (../shared/tools/device-bundle). Layout: binaries at the top (tests/cuda_prover/run_on_device.sh),
# bin/ and lib/ (docs/perf-data/2026-12-07-supraseal-crate/run.sh), devlibs/.
#
#   scripts/device_bundle.sh BUILD_DIR OUT_DIR    e.g. build-dev build-sb/dev25
#
# BUILD_DIR: Release, -DZKPIPE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 (SASS, device optimizer on).
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:?usage: device_bundle.sh BUILD_DIR OUT_DIR}" && pwd)
out=${2:?usage: device_bundle.sh BUILD_DIR OUT_DIR}
cmake --build "$build" --target cuda_prover_test cuda_prover_options_test zkpipe-device bench_cuda_prover \
  bench_bellperson cuda_device_synth_test bench_cuda_synth zkp_prover_cuda zkp_prover_cpu zkp_pacer_greedy \
  zkp_test_plugin_faulty zkp_test_cuda_fault_hook zkpipe
(cd abi/rust && ZKPIPE_LIB_DIR="$build/lib" CARGO_TARGET_DIR="$build/cargo-release" \
  cargo build --offline --release -p supraseal-c2 --features cuzk --example porep_sector)
rm -rf "$out" && mkdir -p "$out/bin" "$out/lib"
cp "$build"/bin/{cuda_prover_test,cuda_prover_options_test,zkpipe-device,bench_cuda_prover,cuda_device_synth_test,bench_cuda_synth} "$out/"
cp "$build/bin/bench_bellperson" "$build/cargo-release/release/examples/porep_sector" "$out/bin/"
cp -a "$build"/lib/libzkpipe.so* "$build"/lib/libzkp_prover_{cuda,cpu}.so "$build/lib/libzkp_pacer_greedy.so" \
  "$build/tests/host/plugins/libzkp_prover_faulty.so" "$build/tests/cuda_prover/libzkp_test_cuda_fault_hook.so" "$out/lib/"
cp -a "$out"/lib/* "$out/"  # run_on_device.sh looks beside the binaries
cp -r "$build/tests/bellperson_prover/many_public_bls12381.params" "$build/tests/bellperson_prover/vectors_many_public" "$out/"
strip --strip-unneeded "$out"/* "$out"/bin/* "$out"/lib/* 2>/dev/null || true
../shared/tools/device-bundle "$out" >/dev/null
tar -C "$(dirname "$out")" -cJf "$out.tar.xz" "$(basename "$out")"
echo "$out.tar.xz: $(du -m "$out.tar.xz" | cut -f1) MiB"
