#!/usr/bin/env bash
# Proofs/s through the whole host on the device machine, worker_overlap off against on, side by
# side in one run (bench_host_throughput interleaves them), BN254 and BLS12-381 at 2^18 and 2^20,
# on one GPU (prover.devices=0). Writes $OUT/host_throughput.log. At most 6 minutes.
#
#   tests/cuda_prover/host_throughput_on_device.sh BIN_DIR
#
# BIN_DIR holds bench_host_throughput, libzkpipe.so*, libzkp_prover_cuda.so, libzkp_pacer_greedy.so
# and devlibs/ (run_on_device.sh says how it is built and bundled).
set -uo pipefail
bin=$(cd "${1:?usage: host_throughput_on_device.sh BIN_DIR}" && pwd)
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin:$bin/devlibs:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv \
  > "$out/host_throughput.log" 2>&1
echo "host: $(nproc) cores" >> "$out/host_throughput.log"
timeout 340 "$bin/bench_host_throughput" "$bin/libzkp_prover_cuda.so" --logs 18,20 --proofs 48 --reps 3 \
  --set prover.devices=0 2>&1 | tee -a "$out/host_throughput.log"
exit "${PIPESTATUS[0]}"
