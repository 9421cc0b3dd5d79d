#!/usr/bin/env bash
# Filecoin-shape bellperson partitions on the device machine (bench_bellperson), results to $OUT
# (bellperson.log, bellperson.csv, gpu.txt). Each size in a process of its own, so a size that
# does not fit (host or device memory) fails alone and says so.
#
#   tests/cuda_prover/run_bellperson_bench.sh BIN_DIR "25 26 27" [bench options...]
#
# BIN_DIR holds bench_bellperson and devlibs/ (/work/shared/tools/device-bundle), as for
# run_on_device.sh.
set -uo pipefail
bin=$(cd "${1:?usage: run_bellperson_bench.sh BIN_DIR SIZES [options]}" && pwd)
sizes=${2:?sizes, e.g. "25 26"}
shift 2
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin/devlibs:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
echo "host: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB" >> "$out/gpu.txt"
status=0
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)  # peak host memory, when the machine has it
for log in $sizes; do
  "${timer[@]}" "$bin/bench_bellperson" --logs "$log" --csv "$out/bellperson_$log.csv" "$@" > "$out/bellperson_$log.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    status=1
    echo "2^$log: FAILED (exit $rc)" >> "$out/bellperson_$log.log"
  fi
  grep -E "^(2\^|  [a-z0-9])" "$out/bellperson_$log.log"
  grep -E "Maximum resident|Elapsed" "$out/bellperson_$log.log" | sed "s/^\s*/2^$log: /"
done
cat "$out"/bellperson_*.log > "$out/bellperson.log"
head -n 1 "$(ls "$out"/bellperson_*.csv | head -1)" > "$out/bellperson.csv" 2>/dev/null
for f in "$out"/bellperson_*.csv; do tail -n +2 "$f" >> "$out/bellperson.csv"; done
exit $status
