#!/usr/bin/env bash
# Device call 1 (prepared in session 20, refused there: no device time left). Carry build/devpack20
# from make_pack.sh. Issue 18 item 3's 16-core run of the cpu prover, base (68f385d) against this
# (HEAD: huge pages for file and domain buffers, the batched on-curve check), on 2 and 16 cores;
# 3 rounds at 2^16 and 2^18, 2 at 2^20. No GPU is used.
set -uo pipefail
start=$SECONDS
mkdir -p /tmp/p20 "$OUT" && tar xJf build/devpack20/pack.tar.xz -C /tmp/p20
{ lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|MHz'; free -g | head -2;
  cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; uname -r; } > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
S=docs/perf-data/2026-12-06-session20/cpu_thp_ab.sh
{ bash $S /tmp/p20/base /tmp/p20/this 3 16 18; bash $S /tmp/p20/base /tmp/p20/this 2 20; } 2>&1 | tee "$OUT/cpu_thp_ab.txt"
echo "all done after $((SECONDS - start)) s"
exit 0
