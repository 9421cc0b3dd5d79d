#!/usr/bin/env bash
# A sector's partitions (10) of PoRep's shape proved through the supraseal-c2 crate (as bellperson
# calls it: generate_groth16_proofs) and through zkpipe's C API (the zkpipe crate's job of
# synthesized partitions, zkp_host_submit), on one GPU machine, interleaved; prints the ratio.
# Run on 2026-12-07 (session 23): crate/ holds its output; PERF.md "The supraseal-c2 crate".
#
#   bash docs/perf-data/2026-12-07-supraseal-crate/run.sh BUNDLE [OUT]
#
# BUNDLE (carried to the machine): bin/bench_bellperson and lib/ (libzkpipe.so*,
# libzkp_prover_cuda.so, libzkp_pacer_greedy.so) from a Release build with CUDA
# (CMAKE_CUDA_ARCHITECTURES=90), devlibs/ (../shared/tools/device-bundle BUNDLE) and
# bin/porep_sector, the crate's example built against that build's lib/:
#   (cd abi/rust && ZKPIPE_LIB_DIR=$PWD/../../build/lib CARGO_TARGET_DIR=$PWD/../../build/cargo-release \
#      cargo build --offline --release -p supraseal-c2 --example porep_sector)
#   cp build/cargo-release/release/examples/porep_sector BUNDLE/bin/
# bench_bellperson writes the PoRep-shaped parameter file (PoRep's proportions at 2^LOG_M,
# tests/bellperson_prover/synthetic_params.hpp) and deletes it after its key load; a hard link
# keeps it, as ../shared/tools/supraseal-bench/run.sh does. Its own one-partition time (the cuda
# prover without the host) is logged for scale. Environment: LOG_M (24), CIRCUITS (10), REPS (3).
set -uo pipefail
bundle=$(cd "${1:?usage: run.sh BUNDLE [OUT]}" && pwd)
out=${2:-${OUT:-$PWD/supraseal-crate-out}}
log_m=${LOG_M:-24} circuits=${CIRCUITS:-10} reps=${REPS:-3}
scratch=${TMPDIR:-/tmp}/supraseal-crate
mkdir -p "$out" "$scratch"
export LD_LIBRARY_PATH="$bundle/lib:$bundle/devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ZKPIPE_PLUGIN_PATH="$bundle/lib"
for f in bin/bench_bellperson bin/porep_sector lib/libzkp_prover_cuda.so; do
  [ -e "$bundle/$f" ] || { echo "no $bundle/$f (see the header)"; exit 2; }
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/machine.txt"

params=$scratch/porep_2^$log_m.params
keep=$scratch/kept_2^$log_m.params
rm -f "$params" "$keep"
( while [ ! -e "$keep" ]; do [ -e "$params" ] && ln "$params" "$keep" 2>/dev/null; sleep 0.2; done ) &
watcher=$!
timeout 300 "$bundle/bin/bench_bellperson" --logs "$log_m" --params-dir "$scratch" --mixes random --reps 1 \
  > "$out/bench_bellperson.log" 2>&1
echo "bench_bellperson 2^$log_m: exit $? ($(grep -c . "$out/bench_bellperson.log") log lines)"
kill "$watcher" 2>/dev/null
rm -f "$params"
[ -s "$keep" ] || { echo "the params file was not kept"; exit 1; }

# Both routes on the cuda prover, every GPU, two workers per device (zkpipe's default). The
# partitions are synthetic and do not verify: no self-check, no prover verify; the points are
# bench_bellperson's, so no point checks either.
cat > "$out/zkpipe.ini" <<'EOF'
prover = cuda
self_check = false
log_level = warn
[prover]
verify = false
params_check = none
EOF
ZKPIPE_SUPRASEAL_CONFIG="$out/zkpipe.ini" timeout 420 "$bundle/bin/porep_sector" "$keep" "$circuits" "$reps" 2>&1 |
  tee "$out/porep_sector.log"
rm -f "$keep"
grep '^RESULT' "$out/porep_sector.log" | sed 's/^/2^'"$log_m"' /' | tee "$out/result.txt"
