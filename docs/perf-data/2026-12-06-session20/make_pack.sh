#!/usr/bin/env bash
# Builds the pack call1.sh carries (build/devpack20/pack.tar.xz): `zkpipe`, its libraries and the
# cpu prover of BASE (default 68f385d) and of THIS (default HEAD), stripped, with the Debian
# libraries they need (device-bundle), and this build's bench_synthetic_key_files.
#   make_pack.sh [BASE [THIS]]     (from the repository root; builds in /tmp/pack20-*)
set -euo pipefail
BASE=${1:-68f385d} THIS=${2:-HEAD}
root=$PWD stage=$(mktemp -d)
for v in base this; do
  rev=$BASE; [ $v = this ] && rev=$THIS
  src=/tmp/pack20-$v
  rm -rf "$src" && git worktree add -f --detach "$src" "$rev" > /dev/null
  cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DZKPIPE_BUILD_SAMPLES=OFF > /dev/null
  ninja -C "$src/build" zkpipe_cli zkp_prover_cpu zkp_pacer_greedy bench_synthetic_key_files > /dev/null
  mkdir -p "$stage/$v/bin" "$stage/$v/lib"
  cp "$src/build/bin/zkpipe" "$src/build/bin/bench_synthetic_key_files" "$stage/$v/bin/"
  cp -P "$src"/build/lib/*.so* "$stage/$v/lib/"
  strip "$stage/$v"/bin/* "$stage/$v"/lib/*.so* 2> /dev/null || true
  "$root/../shared/tools/device-bundle" "$stage/$v" > /dev/null
  git worktree remove --force "$src"
done
mkdir -p build/devpack20 && tar cJf build/devpack20/pack.tar.xz -C "$stage" base this && rm -rf "$stage"
ls -la build/devpack20/pack.tar.xz
