#!/usr/bin/env bash
# Everything GPU in one device call: the kernel suite (tests/cuda/run_on_device.sh all) and the
# prover suite (tests/cuda_prover/run_on_device.sh), each from the same BIN_DIR. The device tool
# returns at most 8 files, so each suite's output folder comes back as one tarball next to a
# summary (summary.txt: the last lines of each suite).
#
#   tests/cuda/run_gpu_suite.sh BIN_DIR
#
# BIN_DIR: the CUDA test and benchmark binaries, libzkp_prover_{cuda,cpu}.so and devlibs/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "${1:?usage: run_gpu_suite.sh BIN_DIR}" && pwd)
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
work=$(mktemp -d)
status=0
for suite in kernels prover; do
  mkdir -p "$work/$suite"
  case $suite in
    kernels) OUT="$work/$suite" timeout 320 "$here/run_on_device.sh" "$bin" all > "$work/$suite/console.log" 2>&1 || status=1 ;;
    prover) OUT="$work/$suite" timeout 255 "$here/../cuda_prover/run_on_device.sh" "$bin" > "$work/$suite/console.log" 2>&1 || status=1 ;;
  esac
  { echo "=== $suite (status so far $status)"; tail -n 60 "$work/$suite/console.log"; } >> "$out/summary.txt"
  tar -C "$work" -czf "$out/$suite.tar.gz" "$suite"
done
cat "$out/summary.txt"
exit $status
