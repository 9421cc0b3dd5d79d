#!/usr/bin/env bash
# Device call 2 (session 16): issue 18 item 3's scaling run on the device machine's CPU cores
# (cpu_scaling.sh: zkpipe's cpu prover against rapidsnark on 2, 4, 8 and 16 cores), no GPU.
set -uo pipefail
tar xJf build/devpack/dev.tar.xz -C build
mkdir -p "$OUT"
{ lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)'; grep -o -w 'avx512ifma\|adx\|bmi2' /proc/cpuinfo | sort | uniq -c; free -g | head -2; } > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
bash "$(dirname "$0")/cpu_scaling.sh" "$PWD/build/dev" "${ROUNDS:-3}" ${SIZES:-16 18 20} 2>&1 | tee "$OUT/cpu_scaling.txt"
# Everything in one archive: the device call brings back only a few files.
tar czf /tmp/results.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/results.tgz "$OUT/"
exit 0
